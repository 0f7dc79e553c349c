#include "onnx_infer/schema/rule_helpers.h"

#include <algorithm>
#include <span>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/symbolic/broadcast.h"
#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer {

StatusOr<Dim> BroadcastDim(Dim a, Dim b, InferenceContext* ctx) {
  // What symbolic::Broadcast answers first without assumptions, with no result to build:
  // equal dims, or a 1 on either side, give the other side and no condition.
  const Dim one = Dim::Const(1);
  if (a == b || b == one) return a;
  if (a == one) return b;
  symbolic::BroadcastResult r = symbolic::Broadcast(a, b);
  if (!r.ok) return RuleError(DiagCode::kBroadcast, r.error);
  if (ctx && !r.condition.empty() && !r.must_be_equal) {
    // Min(k, e) against e with k >= 2 (a table of k rows sliced to e): "equal, or one is 1"
    // holds exactly when e <= k (Min(k, e) is 1 only when e is), so the model says e <= k,
    // and the result is e. (For k <= 1 other values of e broadcast too: no bound.)
    for (const auto& [m, e] : {std::pair{a, b}, std::pair{b, a}}) {
      const symbolic::DimNode* n = m.node();
      if (n->kind != symbolic::Kind::kMin) continue;
      const symbolic::DimNode* k = n->lhs->kind == symbolic::Kind::kConst ? n->lhs : n->rhs;
      const symbolic::DimNode* other = k == n->lhs ? n->rhs : n->lhs;
      if (k->kind != symbolic::Kind::kConst || k->value < 2 || other != e.node()) continue;
      OI_RETURN_IF_ERROR(ctx->RecordEqual(
          m, e, StrCat("broadcast of ", m, " with ", e, " holds only when ", e, " <= ", k->value)));
      return e;
    }
  }
  if (ctx && !r.condition.empty()) {
    if (r.must_be_equal) {
      OI_RETURN_IF_ERROR(ctx->RecordEqual(a, b, "broadcast dims that cannot be 1"));
    } else {
      ctx->RecordCondition(StrCat("broadcast: ", r.condition));
    }
  }
  return r.dim;
}

namespace {

// Broadcasts `a` with `b` into the dims of `out` from `at` on (max of the ranks of them, which
// the caller has made room for): the shapes are views, so MatMul's batch dims need no copy.
Status BroadcastInto(std::span<const Dim> a, std::span<const Dim> b, InferenceContext* ctx,
                     Shape& out, size_t at) {
  const size_t rank = std::max(a.size(), b.size());
  const Dim one = Dim::Const(1);
  for (size_t i = 0; i < rank; ++i) {
    // i counts from the right.
    Dim da = i < a.size() ? a[a.size() - 1 - i] : one;
    Dim db = i < b.size() ? b[b.size() - 1 - i] : one;
    auto d = BroadcastDim(da, db, ctx);
    if (!d.ok()) {
      return RuleError(DiagCode::kBroadcast,
                       StrCat("shapes ", ShapeToString(Shape(a.begin(), a.end())), " and ",
                              ShapeToString(Shape(b.begin(), b.end())),
                              " do not broadcast: ", d.status().message()));
    }
    out[at + rank - 1 - i] = *d;
  }
  return OkStatus();
}

}  // namespace

StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b, InferenceContext* ctx) {
  Shape out(std::max(a.size(), b.size()));
  OI_RETURN_IF_ERROR(BroadcastInto(a, b, ctx, out, 0));
  return out;
}

StatusOr<Dim> UnifyDim(Dim a, Dim b) {
  if (a == b || b.is_unknown()) return a;
  if (a.is_unknown()) return b;
  if (symbolic::Equal(a, b) == symbolic::Tri::kFalse)
    return RuleError(DiagCode::kInputDims, StrCat(a, " vs ", b));
  if (a.is_const() || b.is_const()) return a.is_const() ? a : b;
  if (b.is_expr() && a.is_symbol()) return b;
  return a;
}

StatusOr<Shape> MatMulShape(const Shape& a, const Shape& b, InferenceContext* ctx) {
  if (a.empty() || b.empty()) {
    return RuleError(DiagCode::kInputRank,
                     StrCat(a.empty() ? "A" : "B", ": expected rank >= 1, got a scalar"));
  }
  // A 1-D A is promoted to [1, k], a 1-D B to [k, 1]: their batch dims are then empty, the
  // contracted dims are A's last and B's first, and the promoted 1s are not in the output.
  const Dim ka = a.back(), kb = b.size() == 1 ? b[0] : b[b.size() - 2];
  auto k = UnifyDim(ka, kb);
  if (!k.ok()) {
    return RuleError(DiagCode::kInputDims,
                     StrCat("contracted dims differ: A ", ShapeToString(a), " vs B ",
                            ShapeToString(b), " (", k.status().message(), ")"));
  }
  if (ctx) OI_RETURN_IF_ERROR(ctx->RecordEqual(ka, kb, "contracted dims"));
  const std::span<const Dim> batch_a(a.data(), a.size() > 2 ? a.size() - 2 : 0);
  const std::span<const Dim> batch_b(b.data(), b.size() > 2 ? b.size() - 2 : 0);
  const size_t batch = std::max(batch_a.size(), batch_b.size());
  Shape out(batch + (a.size() > 1 ? 1 : 0) + (b.size() > 1 ? 1 : 0));
  OI_RETURN_IF_ERROR(BroadcastInto(batch_a, batch_b, ctx, out, 0));
  size_t at = batch;
  if (a.size() > 1) out[at++] = a[a.size() - 2];
  if (b.size() > 1) out[at] = b.back();
  return out;
}

Dim Product(const Shape& dims) { return Dim::Product(dims); }

StatusOr<Dim> RequireEqualDims(InferenceContext& ctx, Dim a, Dim b, const std::string& what,
                               const Subject& about) {
  auto u = UnifyDim(a, b);
  if (!u.ok()) {
    return RuleError(DiagCode::kInputDims,
                     StrCat(what, ": expected equal dims, got ", a, " vs ", b), about);
  }
  OI_RETURN_IF_ERROR(ctx.RecordEqual(a, b, what));
  return *u;
}

Status Agree(InferenceContext& ctx, Dim& acc, Dim d, const std::string& what,
             const Subject& about) {
  OI_ASSIGN_OR_RETURN(acc, RequireEqualDims(ctx, acc, d, what, about));
  return OkStatus();
}

namespace {

// "expected rank 3 ([N, C, L]), got rank 2": `expected` is "3", ">= 3" or "3 or 4".
std::string RankMessage(std::string_view expected, std::string_view layout, size_t got) {
  return StrCat("expected rank ", expected, layout.empty() ? "" : StrCat(" (", layout, ")"),
                ", got rank ", got);
}

// "3", "3 or 4", "3, 4 or 5".
std::string RankList(std::initializer_list<size_t> ranks) {
  std::string out;
  size_t i = 0;
  for (size_t r : ranks) {
    if (i > 0) out += i + 1 == ranks.size() ? " or " : ", ";
    out += StrCat(r);
    ++i;
  }
  return out;
}

const Shape* PresentShape(const InferenceContext& ctx, int input) {
  return ctx.HasInput(input) ? ctx.InputShape(input) : nullptr;
}

}  // namespace

StatusOr<const Shape*> RankedInput(const InferenceContext& ctx, int input, size_t rank,
                                   std::string_view layout) {
  const Shape* s = PresentShape(ctx, input);
  if (s && s->size() != rank) {
    return InputError(ctx, input, DiagCode::kInputRank,
                      StrCat(RankMessage(StrCat(rank), layout, s->size()), " ", ShapeToString(*s)));
  }
  return s;
}

StatusOr<const Shape*> RankedInput(const InferenceContext& ctx, int input,
                                   std::initializer_list<size_t> ranks, std::string_view layout) {
  const Shape* s = PresentShape(ctx, input);
  if (!s) return s;
  for (size_t r : ranks) {
    if (s->size() == r) return s;
  }
  return InputError(
      ctx, input, DiagCode::kInputRank,
      StrCat(RankMessage(RankList(ranks), layout, s->size()), " ", ShapeToString(*s)));
}

Status RequireRank(const InferenceContext& ctx, int input, const Shape& shape, size_t rank,
                   std::string_view layout) {
  if (shape.size() == rank) return OkStatus();
  return InputError(ctx, input, DiagCode::kInputRank,
                    RankMessage(StrCat(rank), layout, shape.size()));
}

Status RequireRankAtLeast(const InferenceContext& ctx, int input, const Shape& shape, size_t rank,
                          std::string_view layout) {
  if (shape.size() >= rank) return OkStatus();
  return InputError(ctx, input, DiagCode::kInputRank,
                    RankMessage(StrCat(">= ", rank), layout, shape.size()));
}

Status RequireRank(const InferenceContext& ctx, int input, size_t rank, std::string_view layout) {
  return RankedInput(ctx, input, rank, layout).status();
}

Status RequireRank(const InferenceContext& ctx, int input, std::initializer_list<size_t> ranks,
                   std::string_view layout) {
  return RankedInput(ctx, input, ranks, layout).status();
}

Status RequireRankAtLeast(const InferenceContext& ctx, int input, size_t rank,
                          std::string_view layout) {
  const Shape* s = PresentShape(ctx, input);
  if (!s || s->size() >= rank) return OkStatus();
  return InputError(
      ctx, input, DiagCode::kInputRank,
      StrCat(RankMessage(StrCat(">= ", rank), layout, s->size()), " ", ShapeToString(*s)));
}

std::string_view KindName(Type::Kind kind) {
  switch (kind) {
    case Type::Kind::kUnknown:
      return "an unknown type";
    case Type::Kind::kTensor:
      return "a tensor";
    case Type::Kind::kSparseTensor:
      return "a sparse tensor";
    case Type::Kind::kSequence:
      return "a sequence";
    case Type::Kind::kMap:
      return "a map";
    case Type::Kind::kOptional:
      return "an optional";
    case Type::Kind::kOpaque:
      return "an opaque value";
  }
  return "?";
}

Status RequireKind(const InferenceContext& ctx, int input, std::initializer_list<Type::Kind> kinds,
                   std::string_view expected) {
  const Type& t = ctx.InputType(input);
  if (t.is_unknown()) return OkStatus();
  for (Type::Kind k : kinds) {
    if (t.kind() == k) return OkStatus();
  }
  return InputError(
      ctx, input, DiagCode::kInputKind,
      StrCat("expected ", expected, ", got ", KindName(t.kind()), " (", t.ToString(), ")"));
}

int32_t InputElemType(const InferenceContext& ctx, int input) {
  if (!ctx.HasInput(input)) return 0;
  const Type& t = ctx.InputType(input);
  return t.is_tensor() ? t.elem_type() : 0;
}

Status CheckDataType(int64_t type, const char* attr) {
  if (type <= 0 || type > kMaxDataType) {
    return AttrError(attr, StrCat("expected a data type in [1, ", kMaxDataType, "], got ", type));
  }
  return OkStatus();
}

int64_t KnownLength(const InferenceContext& ctx, int input) {
  if (const ConstValue* v = ctx.InputValue(input)) return v->NumElements();
  const Shape* s = ctx.InputShape(input);
  if (s && s->size() == 1 && s->at(0).is_const()) return *s->at(0).const_value();
  return -1;
}

ConstValue IntVector(int32_t elem_type, std::vector<Dim> values) {
  ConstValue v;
  v.elem_type = elem_type;
  v.dims = {static_cast<int64_t>(values.size())};
  v.ints = std::move(values);
  return v;
}

const std::vector<Dim>* IntValues(const InferenceContext& ctx, int input) {
  const ConstValue* v = ctx.InputValue(input);
  if (!v || static_cast<int64_t>(v->ints.size()) != v->NumElements()) return nullptr;
  return &v->ints;
}

std::optional<std::vector<int64_t>> ConstInts(const InferenceContext& ctx, int input) {
  const ConstValue* v = ctx.InputValue(input);
  if (!v) return std::nullopt;
  return v->ConstInts();
}

const std::vector<double>* RealValues(const InferenceContext& ctx, int input) {
  const ConstValue* v = ctx.InputValue(input);
  if (!v || static_cast<int64_t>(v->reals.size()) != v->NumElements()) return nullptr;
  return &v->reals;
}

Dim ScalarInputDim(const InferenceContext& ctx, int input) {
  const ConstValue* v = ctx.InputValue(input);
  if (!v || v->NumElements() != 1 || v->ints.size() != 1) return Dim();
  return v->ints[0];
}

Status InferSameAsInput(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  return OkStatus();
}

Status InferBoolOfSameShape(InferenceContext& ctx) {
  Type out = Type::Tensor(kBool);
  if (const Shape* in = ctx.InputShape(0)) out.set_shape(*in);
  ctx.SetOutputType(0, std::move(out));
  return OkStatus();
}

}  // namespace onnx_infer
