#include "onnx_infer/schema/value_ops.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"

namespace onnx_infer {
namespace {

using symbolic::Assumptions;
using symbolic::Dim;
using symbolic::Tri;

enum class Kind { kInts, kReals, kQuotients };

bool IsReal(int32_t type) { return type == kFloat || type == kDouble; }
bool IsInt(int32_t type) { return IsIntegerDataType(type) || type == kBool; }

// Where a value keeps its elements; nullopt when they are not all there, or the element type
// is not tracked (other floating formats, strings, complex).
std::optional<Kind> StoredKind(const ConstValue& v) {
  const size_t n = static_cast<size_t>(v.NumElements());
  if (IsReal(v.elem_type)) {
    if (v.reals.size() == n) return Kind::kReals;
    if (v.quotients.size() == n) return Kind::kQuotients;
    return std::nullopt;
  }
  if (IsInt(v.elem_type) && v.ints.size() == n) return Kind::kInts;
  return std::nullopt;
}

ValueElement ElementAt(const ConstValue& v, Kind kind, int64_t i) {
  switch (kind) {
    case Kind::kInts:
      return v.ints[i];
    case Kind::kReals:
      return v.reals[i];
    case Kind::kQuotients:
      return v.quotients[i];
  }
  return Dim();
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

Dim Bool(bool b) { return Dim::Const(b ? 1 : 0); }

// Truncating division and C remainder of constants; nullopt where undefined.
std::optional<int64_t> TruncDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
  return a / b;
}

// True when `a` is known to be >= 0: a size symbol, or an expression the algebra proves
// non-negative (floor(S/2), Min(S, 128), 64*S).
bool NonNegative(Dim a, const Assumptions* as = nullptr) {
  if (a.is_unknown()) return false;
  return a.is_symbol() || symbolic::LessEqual(Dim::Const(0), a, as) == symbolic::Tri::kTrue;
}
bool NonPositive(Dim a, const Assumptions* as = nullptr) {
  return !a.is_unknown() && NonNegative(Dim::Const(0) - a, as);
}

// ---- Quotients (floating-point elements that hold an exact rational value).

constexpr int64_t kMaxDen = int64_t{1} << 62;

bool IsPowerOfTwo(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

// Removes the common factors of num and den (num's constant content, or the small primes
// that provably divide it), so that equal values tend to have one spelling: 2*N/4 is N/2.
RealQuotient Normalize(RealQuotient q) {
  if (q.num.is_unknown() || q.den <= 0) return RealQuotient{Dim(), 1, false};
  if (auto c = q.num.const_value()) {
    const int64_t g = std::gcd(*c == INT64_MIN ? int64_t{2} : (*c < 0 ? -*c : *c), q.den);
    if (g > 1) q = RealQuotient{Dim::Const(*c / g), q.den / g, q.rounded};
    return q;
  }
  for (int64_t p : {2, 3, 5, 7, 11, 13}) {
    while (q.den % p == 0 && Dim::Mod(q.num, Dim::Const(p)) == Dim::Const(0)) {
      q.num = Dim::FloorDiv(q.num, Dim::Const(p));
      q.den /= p;
    }
  }
  return q;
}

// A finite double as the exact quotient it is (every finite double is m * 2^e).
std::optional<RealQuotient> QuotientOf(double x) {
  if (!std::isfinite(x)) return std::nullopt;
  if (x == 0) return RealQuotient{Dim::Const(0), 1, false};
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m * 2^e with 0.5 <= |m| < 1
  int64_t mant = static_cast<int64_t>(std::ldexp(m, 53));
  e -= 53;
  while (mant % 2 == 0 && e < 0) {
    mant /= 2;
    ++e;
  }
  if (e >= 0) {
    if (e > 62) return std::nullopt;
    int64_t v;
    if (__builtin_mul_overflow(mant, int64_t{1} << e, &v) || v >= kMaxDen || v <= -kMaxDen) {
      return std::nullopt;
    }
    return RealQuotient{Dim::Const(v), 1, false};
  }
  if (-e > 62) return std::nullopt;
  return RealQuotient{Dim::Const(mant), int64_t{1} << -e, false};
}

// The element as a quotient: symbolic Dims are num/1; nullopt for a real that is not finite.
std::optional<RealQuotient> AsQuotient(const ValueElement& e) {
  if (const RealQuotient* q = std::get_if<RealQuotient>(&e)) return *q;
  if (const Dim* d = std::get_if<Dim>(&e)) return RealQuotient{*d, 1, false};
  return QuotientOf(std::get<double>(e));
}

// The double a constant, unrounded quotient stands for, when it is exactly one.
std::optional<double> ExactDouble(const RealQuotient& q) {
  auto c = q.num.const_value();
  if (!c || q.rounded || !IsPowerOfTwo(q.den)) return std::nullopt;
  constexpr int64_t kExact = int64_t{1} << 53;
  if (*c > kExact || *c < -kExact) return std::nullopt;
  return std::ldexp(static_cast<double>(*c), -std::countr_zero(static_cast<uint64_t>(q.den)));
}

std::optional<double> AsReal(const ValueElement& e) {
  if (const double* r = std::get_if<double>(&e)) return *r;
  if (const RealQuotient* q = std::get_if<RealQuotient>(&e)) return ExactDouble(*q);
  if (auto v = std::get<Dim>(e).const_value()) return static_cast<double>(*v);
  return std::nullopt;
}

// Three-valued order of two integer expressions, as a bool element (unknown when undecided).
Dim Compare(ValueOp op, Dim a, Dim b, const Assumptions* as) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (auto x = a.const_value(), y = b.const_value(); x && y) {  // the common case, directly
    switch (op) {
      case ValueOp::kEqual:
        return Bool(*x == *y);
      case ValueOp::kLess:
        return Bool(*x < *y);
      case ValueOp::kLessOrEqual:
        return Bool(*x <= *y);
      case ValueOp::kGreater:
        return Bool(*x > *y);
      case ValueOp::kGreaterOrEqual:
        return Bool(*x >= *y);
      default:
        return Dim();
    }
  }
  const Dim one = Dim::Const(1);
  // a < b is a + 1 <= b; its negation is b <= a.
  auto less = [&](Dim x, Dim y) -> Dim {
    if (symbolic::LessEqual(x + one, y, as) == Tri::kTrue) return Bool(true);
    if (symbolic::LessEqual(y, x, as) == Tri::kTrue) return Bool(false);
    return Dim();
  };
  auto less_equal = [&](Dim x, Dim y) -> Dim {
    if (symbolic::LessEqual(x, y, as) == Tri::kTrue) return Bool(true);
    if (symbolic::LessEqual(y + one, x, as) == Tri::kTrue) return Bool(false);
    return Dim();
  };
  switch (op) {
    case ValueOp::kEqual:
      switch (symbolic::Equal(a, b, as)) {
        case Tri::kTrue:
          return Bool(true);
        case Tri::kFalse:
          return Bool(false);
        case Tri::kUnknown:
          return Dim();
      }
      return Dim();
    case ValueOp::kLess:
      return less(a, b);
    case ValueOp::kLessOrEqual:
      return less_equal(a, b);
    case ValueOp::kGreater:
      return less(b, a);
    case ValueOp::kGreaterOrEqual:
      return less_equal(b, a);
    default:
      return Dim();
  }
}

bool IsComparison(ValueOp op) {
  return op == ValueOp::kEqual || op == ValueOp::kLess || op == ValueOp::kLessOrEqual ||
         op == ValueOp::kGreater || op == ValueOp::kGreaterOrEqual;
}

ValueElement QuotientUnary(ValueOp op, RealQuotient q, const Assumptions* as) {
  const RealQuotient unknown{Dim(), 1, false};
  if (q.num.is_unknown()) return unknown;
  switch (op) {
    case ValueOp::kNeg:  // rounding to nearest is symmetric: -fl(x) is fl(-x)
      return RealQuotient{Dim::Const(0) - q.num, q.den, q.rounded};
    case ValueOp::kAbs:
      if (NonNegative(q.num, as)) return q;
      if (NonPositive(q.num, as)) return RealQuotient{Dim::Const(0) - q.num, q.den, q.rounded};
      return unknown;
    case ValueOp::kFloor:
      return RealQuotient{Dim::FloorDiv(q.num, Dim::Const(q.den)), 1, false};
    case ValueOp::kCeil:
      return RealQuotient{Dim::CeilDiv(q.num, Dim::Const(q.den)), 1, false};
    default:
      return unknown;
  }
}

// Two quotients over their least common denominator: (x, y, lcm).
std::optional<std::tuple<Dim, Dim, int64_t>> OverCommonDen(const RealQuotient& a,
                                                           const RealQuotient& b) {
  const int64_t g = std::gcd(a.den, b.den);
  int64_t l;
  if (__builtin_mul_overflow(a.den / g, b.den, &l) || l > kMaxDen) return std::nullopt;
  return std::tuple{a.num * Dim::Const(l / a.den), b.num * Dim::Const(l / b.den), l};
}

ValueElement QuotientBinary(ValueOp op, const RealQuotient& a, const RealQuotient& b,
                            const Assumptions* as) {
  const RealQuotient unknown{Dim(), 1, false};
  const bool comparison = IsComparison(op);
  if (a.num.is_unknown() || b.num.is_unknown() || a.rounded || b.rounded) {
    return comparison ? ValueElement(Dim()) : ValueElement(unknown);
  }
  switch (op) {
    case ValueOp::kAdd:
    case ValueOp::kSub:
    case ValueOp::kMin:
    case ValueOp::kMax:
    case ValueOp::kEqual:
    case ValueOp::kLess:
    case ValueOp::kLessOrEqual:
    case ValueOp::kGreater:
    case ValueOp::kGreaterOrEqual: {
      auto common = OverCommonDen(a, b);
      if (!common) return comparison ? ValueElement(Dim()) : ValueElement(unknown);
      auto [x, y, l] = *common;
      if (comparison) return Compare(op, x, y, as);
      Dim num = op == ValueOp::kAdd   ? x + y
                : op == ValueOp::kSub ? x - y
                : op == ValueOp::kMin ? Dim::Min(x, y)
                                      : Dim::Max(x, y);
      return Normalize(RealQuotient{num, l, false});
    }
    case ValueOp::kMul: {
      int64_t den;
      if (__builtin_mul_overflow(a.den, b.den, &den) || den > kMaxDen) return unknown;
      return Normalize(RealQuotient{a.num * b.num, den, false});
    }
    case ValueOp::kDiv: {
      // Only by a constant: the quotient of two symbols is no quotient of this form.
      auto c = b.num.const_value();
      if (!c || *c == 0 || *c == INT64_MIN) return unknown;
      int64_t den;
      if (__builtin_mul_overflow(a.den, *c < 0 ? -*c : *c, &den) || den > kMaxDen) {
        return unknown;
      }
      const Dim num = a.num * Dim::Const(*c < 0 ? -b.den : b.den);
      RealQuotient q = Normalize(RealQuotient{num, den, false});
      // A power-of-two denominator is exact in binary floating point; any other is rounded.
      q.rounded = !IsPowerOfTwo(q.den);
      return q;
    }
    default:
      return unknown;
  }
}

Dim IntUnary(ValueOp op, Dim a, const Assumptions* as) {
  auto av = a.const_value();
  switch (op) {
    case ValueOp::kNeg:
      return Dim::Const(0) - a;
    case ValueOp::kAbs:
      if (av) return *av == INT64_MIN ? Dim() : Dim::Const(*av < 0 ? -*av : *av);
      if (NonNegative(a, as)) return a;  // sizes are never negative
      if (NonPositive(a, as)) return Dim::Const(0) - a;
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
Dim IntDiv(Dim a, Dim b, const Assumptions* as) {
  auto av = a.const_value(), bv = b.const_value();
  if (av && bv) {
    auto q = TruncDiv(*av, *bv);
    return q ? Dim::Const(*q) : Dim();
  }
  if (bv == 1) return a;
  if (bv && *bv > 0 && NonNegative(a, as)) return Dim::FloorDiv(a, b);
  return Dim();
}

Dim IntMod(Dim a, Dim b, bool fmod, const Assumptions* as) {
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
  if (fmod && !(NonNegative(a, as) && bv && *bv > 0)) return Dim();
  return Dim::Mod(a, b);
}

Dim IntBinary(ValueOp op, Dim a, Dim b, const Assumptions* as) {
  auto av = a.const_value(), bv = b.const_value();
  switch (op) {
    case ValueOp::kAdd:
      return a + b;
    case ValueOp::kSub:
      return a - b;
    case ValueOp::kMul:
      return a * b;
    case ValueOp::kDiv:
      return IntDiv(a, b, as);
    case ValueOp::kMod:
    case ValueOp::kFmod:
      return IntMod(a, b, op == ValueOp::kFmod, as);
    case ValueOp::kMin:
    case ValueOp::kMax:
      // Min(N, 64) stays an expression; Min(N, N) is N; unknown stays unknown.
      if (a.is_unknown() || b.is_unknown()) return Dim();
      if (av && bv)
        return Dim::Const(op == ValueOp::kMin ? std::min(*av, *bv) : std::max(*av, *bv));
      return op == ValueOp::kMin ? Dim::Min(a, b) : Dim::Max(a, b);
    case ValueOp::kEqual:
    case ValueOp::kLess:
    case ValueOp::kLessOrEqual:
    case ValueOp::kGreater:
    case ValueOp::kGreaterOrEqual:
      return Compare(op, a, b, as);
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

double RoundTo(int32_t type, double x) {
  return type == kFloat ? static_cast<double>(static_cast<float>(x)) : x;
}

// Stores computed elements as a value of `type`: Dims for integer types (a constant that does
// not fit becomes unknown); for float types doubles while every element is a known number,
// else quotients, with the conditions that make them exact added to those the inputs carried.
// Nullopt when an element cannot be stored (a real in an integer type).
std::optional<ConstValue> StoreElements(int32_t type, std::vector<int64_t> dims,
                                        std::vector<ValueElement>& elements,
                                        std::vector<ExactnessCondition> conditions,
                                        bool add_conditions) {
  ConstValue out{type, std::move(dims), {}, {}};
  out.conditions = std::move(conditions);
  if (IsInt(type)) {
    out.ints.reserve(elements.size());
    for (const ValueElement& e : elements) {
      const Dim* d = std::get_if<Dim>(&e);
      if (!d) return std::nullopt;
      auto v = d->const_value();
      out.ints.push_back(v && !Fits(*v, type) ? Dim() : *d);
    }
    return out;
  }
  if (!IsReal(type)) return std::nullopt;
  bool all_real = true;
  for (const ValueElement& e : elements) {
    auto x = AsReal(e);
    if (!x) {
      all_real = false;
      break;
    }
    out.reals.push_back(RoundTo(type, *x));
  }
  if (all_real) return out;
  out.reals.clear();
  out.quotients.reserve(elements.size());
  for (const ValueElement& e : elements) {
    std::optional<RealQuotient> q;
    if (const double* r = std::get_if<double>(&e)) {
      q = QuotientOf(RoundTo(type, *r));
    } else {
      q = AsQuotient(e);
    }
    out.quotients.push_back(q ? *q : RealQuotient{Dim(), 1, false});
  }
  if (add_conditions) {
    for (const ExactnessCondition& c : ExactnessConditions(out)) {
      AddExactnessCondition(out.conditions, c);
    }
  }
  return out;
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

namespace {

// MapValues, adding the exactness conditions of new symbolic float elements or not (Floor,
// Ceil, Neg and Abs make no element larger than their input's, whose conditions suffice).
std::optional<ConstValue> MapElements(std::span<const ConstValue* const> inputs, int32_t out_type,
                                      int64_t max_elements, const ElementFn& fn,
                                      bool add_conditions) {
  if (inputs.empty()) return std::nullopt;
  std::vector<Kind> kinds;
  std::vector<ExactnessCondition> conditions;
  for (const ConstValue* v : inputs) {
    auto k = StoredKind(*v);
    if (!k) return std::nullopt;
    kinds.push_back(*k);
    for (const ExactnessCondition& c : v->conditions) AddExactnessCondition(conditions, c);
  }
  auto dims = BroadcastValueDims(inputs);
  if (!dims) return std::nullopt;
  int64_t n = 1;
  for (int64_t d : *dims) {
    n *= d;
    if (n > max_elements) return std::nullopt;
  }

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
  std::vector<ValueElement> results;
  results.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      int64_t offset = 0;
      for (size_t j = 0; j < rank; ++j) offset += index[j] * strides[k][j];
      args[k] = ElementAt(*inputs[k], kinds[k], offset);
    }
    auto r = fn(args);
    if (!r) return std::nullopt;
    results.push_back(std::move(*r));
    for (size_t j = rank; j-- > 0;) {  // next row-major index
      if (++index[j] < (*dims)[j]) break;
      index[j] = 0;
    }
  }
  return StoreElements(out_type, *dims, results, std::move(conditions), add_conditions);
}

}  // namespace

std::optional<ConstValue> MapValues(std::span<const ConstValue* const> inputs, int32_t out_type,
                                    int64_t max_elements, const ElementFn& fn) {
  return MapElements(inputs, out_type, max_elements, fn, /*add_conditions=*/true);
}

ElementFn ElementFunction(ValueOp op, const Assumptions* as) {
  if (IsUnary(op)) {
    return [op, as](std::span<const ValueElement> e) -> std::optional<ValueElement> {
      if (e.size() != 1) return std::nullopt;
      if (const Dim* d = std::get_if<Dim>(&e[0])) return IntUnary(op, *d, as);
      if (const RealQuotient* q = std::get_if<RealQuotient>(&e[0])) {
        return QuotientUnary(op, *q, as);
      }
      return RealUnary(op, std::get<double>(e[0]));
    };
  }
  return [op, as](std::span<const ValueElement> e) -> std::optional<ValueElement> {
    if (e.size() != 2) return std::nullopt;
    const Dim* a = std::get_if<Dim>(&e[0]);
    const Dim* b = std::get_if<Dim>(&e[1]);
    if (a && b) return IntBinary(op, *a, *b, as);
    if (std::holds_alternative<RealQuotient>(e[0]) || std::holds_alternative<RealQuotient>(e[1])) {
      auto x = AsQuotient(e[0]), y = AsQuotient(e[1]);
      if (!x || !y) {  // NaN or infinity against a symbolic element
        return IsComparison(op) ? ValueElement(Dim()) : ValueElement(RealQuotient{Dim(), 1, false});
      }
      return QuotientBinary(op, *x, *y, as);
    }
    auto x = AsReal(e[0]), y = AsReal(e[1]);
    if (!x || !y) return std::nullopt;
    return RealBinary(op, *x, *y);
  };
}

std::optional<ConstValue> ApplyValueOp(ValueOp op, std::span<const ConstValue* const> inputs,
                                       int32_t out_type, int64_t max_elements,
                                       const Assumptions* assumptions) {
  if (op == ValueOp::kNone || inputs.empty()) return std::nullopt;
  const ElementFn fn = ElementFunction(op, assumptions);
  if (IsUnary(op)) {
    if (inputs.size() != 1) return std::nullopt;
    return MapElements(inputs, out_type, max_elements, fn, /*add_conditions=*/false);
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

std::optional<ConstValue> CastValue(const ConstValue& v, int32_t to) {
  auto kind = StoredKind(v);
  if (!kind) return std::nullopt;
  const int64_t n = v.NumElements();
  std::vector<ValueElement> out;
  out.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    const ValueElement e = ElementAt(v, *kind, i);
    if (IsIntegerDataType(to) || to == kBool) {
      Dim d;
      if (const Dim* x = std::get_if<Dim>(&e)) {
        d = *x;
      } else if (const double* r = std::get_if<double>(&e)) {
        if (std::isnan(*r)) {
          if (to != kBool) return std::nullopt;
          d = Dim::Const(1);
        } else {
          // Truncation toward zero; a value beyond int64 does not convert.
          const double t = std::trunc(*r);
          if (!(t > -9.2e18 && t < 9.2e18)) return std::nullopt;
          d = Dim::Const(static_cast<int64_t>(t));
        }
      } else {
        const RealQuotient& q = std::get<RealQuotient>(e);
        if (NonNegative(q.num)) {
          d = Dim::FloorDiv(q.num, Dim::Const(q.den));
        } else if (NonPositive(q.num)) {
          d = Dim::CeilDiv(q.num, Dim::Const(q.den));
        }
      }
      auto c = d.const_value();
      if (to == kBool) {
        if (!c) return std::nullopt;
        d = Bool(*c != 0);
      } else if (c && !Fits(*c, to)) {
        return std::nullopt;
      } else if (!c && !d.is_unknown() && to != kInt64 && to != kInt32) {
        return std::nullopt;  // a symbolic size fits int32 and int64; others are not assumed
      }
      out.push_back(d);
    } else if (IsReal(to)) {
      if (const RealQuotient* q = std::get_if<RealQuotient>(&e);
          q && q->rounded && v.elem_type == kDouble && to == kFloat) {
        out.push_back(RealQuotient{Dim(), 1, false});  // rounded twice: not tracked
      } else {
        out.push_back(e);
      }
    } else {
      return std::nullopt;
    }
  }
  return StoreElements(to, v.dims, out, v.conditions, /*add_conditions=*/true);
}

int FloatPrecision(int32_t elem_type) {
  return elem_type == kFloat ? 24 : elem_type == kDouble ? 53 : 0;
}

std::vector<ExactnessCondition> ExactnessConditions(ConstValue& v) {
  std::vector<ExactnessCondition> conditions;
  const int p = FloatPrecision(v.elem_type);
  if (p == 0) return conditions;
  const int64_t limit = int64_t{1} << p;
  const int64_t plausible = int64_t{1} << (p / 2);
  for (RealQuotient& q : v.quotients) {
    if (q.num.is_unknown() || q.num.is_const()) continue;
    // A condition that fails for small sizes already (N * 0.1f needs 13421773*N <= 2^24)
    // describes no model worth describing: the element is left unknown instead.
    std::map<std::string, int64_t, std::less<>> ones;
    for (const std::string& s : q.num.Symbols()) ones[s] = 1;
    auto at_one = symbolic::Evaluate(q.num, ones);
    if (!at_one || *at_one > plausible || *at_one < -plausible || q.den > plausible ||
        (!q.rounded && !IsPowerOfTwo(q.den))) {
      q = RealQuotient{Dim(), 1, false};
      continue;
    }
    // Exact: |num| <= 2^p. Rounded once: |num| + den < 2^p, so that Floor, Ceil and
    // truncation see the exact quotient's integer part.
    AddExactnessCondition(conditions,
                          ExactnessCondition{q.num, q.rounded ? limit - q.den - 1 : limit, p});
  }
  return conditions;
}

}  // namespace onnx_infer
