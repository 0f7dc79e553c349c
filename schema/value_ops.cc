#include "onnx_infer/schema/value_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "onnx_infer/schema/data_type.h"

namespace onnx_infer {
namespace {

using symbolic::Dim;
using symbolic::Tri;

enum class Kind { kInts, kReals };

std::optional<Kind> ElementKind(int32_t elem_type) {
  if (elem_type == kFloat || elem_type == kDouble) return Kind::kReals;
  if (IsIntegerDataType(elem_type) || elem_type == kBool) return Kind::kInts;
  return std::nullopt;  // other floating formats, strings, complex: not tracked
}

// Whether an integer result is representable in `type`; one that is not would wrap at run
// time, so it is left unknown rather than guessed.
bool Fits(int64_t v, int32_t type) {
  switch (type) {
    case kBool:
      return v == 0 || v == 1;
    case kInt8:
      return v >= INT8_MIN && v <= INT8_MAX;
    case kUint8:
      return v >= 0 && v <= UINT8_MAX;
    case kInt16:
      return v >= INT16_MIN && v <= INT16_MAX;
    case kUint16:
      return v >= 0 && v <= UINT16_MAX;
    case kInt32:
      return v >= INT32_MIN && v <= INT32_MAX;
    case kUint32:
    case kUint64:
      return v >= 0 && (type == kUint64 || v <= static_cast<int64_t>(UINT32_MAX));
    case kInt64:
      return true;
    default:
      return false;  // 2- and 4-bit types: not worth the bookkeeping
  }
}

std::optional<double> AsReal(const ValueElement& e) {
  if (const double* r = std::get_if<double>(&e)) return *r;
  if (auto v = std::get<Dim>(e).const_value()) return static_cast<double>(*v);
  return std::nullopt;
}

Dim Bool(bool b) { return Dim::Const(b ? 1 : 0); }

// Truncating division and C remainder of constants; nullopt where undefined.
std::optional<int64_t> TruncDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
  return a / b;
}

// True when `a` is known to be >= 0: a size symbol, or an expression the algebra proves
// non-negative (floor(S/2), Min(S, 128), 64*S).
bool NonNegative(Dim a) {
  if (a.is_unknown()) return false;
  return a.is_symbol() || symbolic::LessEqual(Dim::Const(0), a) == symbolic::Tri::kTrue;
}

Dim IntUnary(ValueOp op, Dim a) {
  auto av = a.const_value();
  switch (op) {
    case ValueOp::kNeg:
      return Dim::Const(0) - a;
    case ValueOp::kAbs:
      if (av) return *av == INT64_MIN ? Dim() : Dim::Const(*av < 0 ? -*av : *av);
      if (NonNegative(a)) return a;  // sizes are never negative
      if (NonNegative(Dim::Const(0) - a)) return Dim::Const(0) - a;
      return Dim();
    case ValueOp::kFloor:
    case ValueOp::kCeil:
      return a;
    case ValueOp::kNot:
      return av ? Bool(*av == 0) : Dim();
    default:
      return Dim();
  }
}

std::optional<double> RealUnary(ValueOp op, double a) {
  switch (op) {
    case ValueOp::kNeg:
      return -a;
    case ValueOp::kAbs:
      return std::fabs(a);
    case ValueOp::kFloor:
      return std::floor(a);
    case ValueOp::kCeil:
      return std::ceil(a);
    default:
      return std::nullopt;
  }
}

// Integer division and remainder where the dividend may be symbolic: exact for constants;
// for a dividend known to be >= 0 and a positive constant divisor, truncation is flooring.
Dim IntDiv(Dim a, Dim b) {
  auto av = a.const_value(), bv = b.const_value();
  if (av && bv) {
    auto q = TruncDiv(*av, *bv);
    return q ? Dim::Const(*q) : Dim();
  }
  if (bv == 1) return a;
  if (bv && *bv > 0 && NonNegative(a)) return Dim::FloorDiv(a, b);
  return Dim();
}

Dim IntMod(Dim a, Dim b, bool fmod) {
  auto av = a.const_value(), bv = b.const_value();
  if (bv == 0) return Dim();
  if (av && bv) {
    if (*bv == -1) return Dim::Const(0);  // also avoids INT64_MIN % -1
    int64_t r = *av % *bv;
    if (!fmod && r != 0 && ((r < 0) != (*bv < 0))) r += *bv;
    return Dim::Const(r);
  }
  // Mod without fmod takes the divisor's sign, as Dim::Mod does. With a non-negative
  // dividend and positive divisor both remainders agree.
  if (fmod && !(NonNegative(a) && bv && *bv > 0)) return Dim();
  return Dim::Mod(a, b);
}

std::optional<Dim> CompareInts(ValueOp op, Dim a, Dim b) {
  auto av = a.const_value(), bv = b.const_value();
  const bool same = !a.is_unknown() && a == b;
  if (!(av && bv) && !same) return Dim();
  auto lt = [&] { return !same && *av < *bv; };
  auto gt = [&] { return !same && *av > *bv; };
  switch (op) {
    case ValueOp::kLess:
      return Bool(lt());
    case ValueOp::kLessOrEqual:
      return Bool(!gt());
    case ValueOp::kGreater:
      return Bool(gt());
    case ValueOp::kGreaterOrEqual:
      return Bool(!lt());
    default:
      return std::nullopt;
  }
}

Dim IntBinary(ValueOp op, Dim a, Dim b) {
  auto av = a.const_value(), bv = b.const_value();
  switch (op) {
    case ValueOp::kAdd:
      return a + b;
    case ValueOp::kSub:
      return a - b;
    case ValueOp::kMul:
      return a * b;
    case ValueOp::kDiv:
      return IntDiv(a, b);
    case ValueOp::kMod:
    case ValueOp::kFmod:
      return IntMod(a, b, op == ValueOp::kFmod);
    case ValueOp::kMin:
    case ValueOp::kMax:
      // Min(N, 64) stays an expression; Min(N, N) is N; unknown stays unknown.
      if (a.is_unknown() || b.is_unknown()) return Dim();
      if (av && bv) return Dim::Const(op == ValueOp::kMin ? std::min(*av, *bv) : std::max(*av, *bv));
      return op == ValueOp::kMin ? Dim::Min(a, b) : Dim::Max(a, b);
    case ValueOp::kEqual:
      switch (symbolic::Equal(a, b)) {
        case Tri::kTrue:
          return Bool(true);
        case Tri::kFalse:
          return Bool(false);
        case Tri::kUnknown:
          return Dim();
      }
      return Dim();
    case ValueOp::kLess:
    case ValueOp::kLessOrEqual:
    case ValueOp::kGreater:
    case ValueOp::kGreaterOrEqual:
      return *CompareInts(op, a, b);
    case ValueOp::kAnd:
      if (av == 0 || bv == 0) return Bool(false);
      return av && bv ? Bool(true) : Dim();
    case ValueOp::kOr:
      if ((av && *av != 0) || (bv && *bv != 0)) return Bool(true);
      return av && bv ? Bool(false) : Dim();
    case ValueOp::kXor:
      return av && bv ? Bool((*av != 0) != (*bv != 0)) : Dim();
    default:
      return Dim();
  }
}

std::optional<ValueElement> RealBinary(ValueOp op, double a, double b) {
  switch (op) {
    case ValueOp::kAdd:
      return a + b;
    case ValueOp::kSub:
      return a - b;
    case ValueOp::kMul:
      return a * b;
    case ValueOp::kDiv:
      return a / b;
    case ValueOp::kFmod:
      return std::fmod(a, b);
    case ValueOp::kMin:
    case ValueOp::kMax:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
      return op == ValueOp::kMin ? std::min(a, b) : std::max(a, b);
    case ValueOp::kEqual:
      return Bool(a == b);
    case ValueOp::kLess:
      return Bool(a < b);
    case ValueOp::kLessOrEqual:
      return Bool(a <= b);
    case ValueOp::kGreater:
      return Bool(a > b);
    case ValueOp::kGreaterOrEqual:
      return Bool(a >= b);
    default:
      return std::nullopt;  // kMod on floats is invalid (ONNX requires fmod=1)
  }
}

bool IsUnary(ValueOp op) {
  return op == ValueOp::kNeg || op == ValueOp::kAbs || op == ValueOp::kFloor ||
         op == ValueOp::kCeil || op == ValueOp::kNot;
}

}  // namespace

std::optional<std::vector<int64_t>> BroadcastValueDims(std::span<const ConstValue* const> values) {
  std::vector<int64_t> out;
  for (const ConstValue* v : values) {
    if (v->dims.size() > out.size()) out.insert(out.begin(), v->dims.size() - out.size(), 1);
    for (size_t i = 0; i < v->dims.size(); ++i) {
      int64_t& o = out[out.size() - v->dims.size() + i];
      const int64_t d = v->dims[i];
      if (d == o || d == 1) continue;
      if (o != 1) return std::nullopt;
      o = d;
    }
  }
  return out;
}

std::optional<ConstValue> MapValues(std::span<const ConstValue* const> inputs, int32_t out_type,
                                    int64_t max_elements, const ElementFn& fn) {
  auto out_kind = ElementKind(out_type);
  if (!out_kind || inputs.empty()) return std::nullopt;
  std::vector<Kind> kinds;
  for (const ConstValue* v : inputs) {
    auto k = ElementKind(v->elem_type);
    if (!k) return std::nullopt;
    const size_t have = *k == Kind::kInts ? v->ints.size() : v->reals.size();
    if (static_cast<int64_t>(have) != v->NumElements()) return std::nullopt;
    kinds.push_back(*k);
  }
  auto dims = BroadcastValueDims(inputs);
  if (!dims) return std::nullopt;
  ConstValue out{out_type, *dims, {}, {}};
  const int64_t n = out.NumElements();
  if (n > max_elements) return std::nullopt;

  // Each input's stride along each output axis: 0 where it is broadcast.
  const size_t rank = dims->size();
  std::vector<std::vector<int64_t>> strides(inputs.size(), std::vector<int64_t>(rank, 0));
  for (size_t k = 0; k < inputs.size(); ++k) {
    const auto& in_dims = inputs[k]->dims;
    int64_t stride = 1;
    for (size_t j = in_dims.size(); j-- > 0;) {
      if (in_dims[j] != 1) strides[k][rank - in_dims.size() + j] = stride;
      stride *= in_dims[j];
    }
  }
  std::vector<int64_t> index(rank, 0);
  std::vector<ValueElement> args(inputs.size());
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      int64_t offset = 0;
      for (size_t j = 0; j < rank; ++j) offset += index[j] * strides[k][j];
      if (kinds[k] == Kind::kInts) {
        args[k] = inputs[k]->ints[offset];
      } else {
        args[k] = inputs[k]->reals[offset];
      }
    }
    auto r = fn(args);
    if (!r) return std::nullopt;
    if (*out_kind == Kind::kInts) {
      const Dim* d = std::get_if<Dim>(&*r);
      if (!d) return std::nullopt;
      auto v = d->const_value();
      out.ints.push_back(v && !Fits(*v, out_type) ? Dim() : *d);
    } else {
      auto x = AsReal(*r);
      if (!x) return std::nullopt;
      out.reals.push_back(out_type == kFloat ? static_cast<double>(static_cast<float>(*x)) : *x);
    }
    for (size_t j = rank; j-- > 0;) {  // next row-major index
      if (++index[j] < (*dims)[j]) break;
      index[j] = 0;
    }
  }
  return out;
}

ElementFn ElementFunction(ValueOp op) {
  if (IsUnary(op)) {
    return [op](std::span<const ValueElement> e) -> std::optional<ValueElement> {
      if (e.size() != 1) return std::nullopt;
      if (const Dim* d = std::get_if<Dim>(&e[0])) return IntUnary(op, *d);
      return RealUnary(op, std::get<double>(e[0]));
    };
  }
  return [op](std::span<const ValueElement> e) -> std::optional<ValueElement> {
    if (e.size() != 2) return std::nullopt;
    const Dim* a = std::get_if<Dim>(&e[0]);
    const Dim* b = std::get_if<Dim>(&e[1]);
    if (a && b) return IntBinary(op, *a, *b);
    auto x = AsReal(e[0]), y = AsReal(e[1]);
    if (!x || !y) return std::nullopt;
    return RealBinary(op, *x, *y);
  };
}

std::optional<ConstValue> ApplyValueOp(ValueOp op, std::span<const ConstValue* const> inputs,
                                       int32_t out_type, int64_t max_elements) {
  if (op == ValueOp::kNone || inputs.empty()) return std::nullopt;
  const ElementFn fn = ElementFunction(op);
  if (IsUnary(op)) {
    if (inputs.size() != 1) return std::nullopt;
    return MapValues(inputs, out_type, max_elements, fn);
  }
  if (inputs.size() == 1) {
    // A variadic op of one input is that input.
    const ConstValue* only = inputs[0];
    if (only->elem_type != out_type || only->NumElements() > max_elements) return std::nullopt;
    return *only;
  }
  std::optional<ConstValue> acc = MapValues(inputs.subspan(0, 2), out_type, max_elements, fn);
  for (size_t i = 2; acc && i < inputs.size(); ++i) {
    const ConstValue* pair[] = {&*acc, inputs[i]};
    acc = MapValues(pair, out_type, max_elements, fn);
  }
  return acc;
}

}  // namespace onnx_infer
