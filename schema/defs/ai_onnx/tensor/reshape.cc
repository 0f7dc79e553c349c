// Tensor-manipulation operators of ai.onnx.
#include "onnx_infer/schema/defs/ai_onnx/tensor/reshape.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/schema/value_movement.h"

namespace onnx_infer {
namespace {

// Concat: inputs share rank; the axis extent is the sum, every other dim unifies.
Status InferConcat(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  // `axis` is optional with default 1 in version 1 only.
  OI_ASSIGN_OR_RETURN(int64_t axis,
                      ctx.opset_version() < 4 ? ctx.IntAttr("axis", 1) : ctx.IntAttr("axis"));
  std::vector<int> inputs(ctx.NumInputs());
  std::iota(inputs.begin(), inputs.end(), 0);
  OI_ASSIGN_OR_RETURN(std::optional<Shape> out, ConcatOutputShape(ctx, inputs, axis));
  if (!out) return OkStatus();
  const int64_t rank = static_cast<int64_t>(out->size());
  ctx.SetOutputShape(0, std::move(*out));
  // Values of any rank joined along the axis: the exporters' Concat of Unsqueezes, or shape
  // vectors stacked into a [2, k] tensor.
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  std::vector<const ConstValue*> values;
  values.reserve(ctx.NumInputs());
  for (int i = 0; i < ctx.NumInputs(); ++i) {
    const ConstValue* v = ctx.InputValue(i);
    if (!v) return OkStatus();
    values.push_back(v);
  }
  if (auto v = ConcatValues(values, axis, ctx.max_value_elements())) {
    ctx.SetOutputValue(0, std::move(*v));
  }
  return OkStatus();
}

// Transpose: `perm` (default: reversed axes) permutes the dims.
Status InferTranspose(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  OI_ASSIGN_OR_RETURN(auto perm_attr, ctx.OptionalIntsAttr("perm"));
  if (!in) {
    if (perm_attr) ctx.SetOutputShape(0, Shape(perm_attr->size()));
    return OkStatus();
  }
  const int64_t rank = static_cast<int64_t>(in->size());
  std::vector<int64_t> perm;
  if (perm_attr) {
    perm = std::move(*perm_attr);
  } else {
    perm.reserve(rank);
    for (int64_t i = rank - 1; i >= 0; --i) perm.push_back(i);
  }
  if (static_cast<int64_t>(perm.size()) != rank) {
    return AttrError(
        "perm", StrCat("expected ", rank, " axes for input rank ", rank, ", got ", perm.size()));
  }
  // The axes taken so far: bits of a word up to rank 64 (every real model), flags beyond.
  Shape out(rank);
  uint64_t taken = 0;
  std::vector<bool> taken_past_64(rank > 64 ? rank : 0, false);
  auto take = [&](int64_t p) {  // false if p was taken already
    if (rank > 64) {
      if (taken_past_64[p]) return false;
      taken_past_64[p] = true;
      return true;
    }
    const uint64_t bit = uint64_t{1} << p;
    if (taken & bit) return false;
    taken |= bit;
    return true;
  };
  for (int64_t i = 0; i < rank; ++i) {
    int64_t p = perm[i];
    if (p < 0) p += rank;  // negative axes are accepted by some producers
    if (p < 0 || p >= rank || !take(p)) {
      return AttrError("perm", StrCat("expected a permutation of 0..", rank - 1, ", got [",
                                      StrJoin(perm, ", "), "]"));
    }
    out[i] = (*in)[p];
    perm[i] = p;
  }
  ctx.SetOutputShape(0, std::move(out));
  if (const ConstValue* v = ctx.InputValue(0)) {
    if (auto t = TransposeValue(*v, perm, ctx.max_value_elements())) {
      ctx.SetOutputValue(0, std::move(*t));
    }
  }
  return OkStatus();
}

// Whether every dim of `dims` is a constant and their product does not fit int64 (no dim 0).
bool ConstantProductOverflows(const Shape& dims) {
  int64_t n = 1;
  bool overflow = false;
  for (Dim d : dims) {
    auto v = d.const_value();
    if (!v || *v < 0) return false;
    if (*v == 0) return false;
    if (!overflow && __builtin_mul_overflow(n, *v, &n)) overflow = true;
  }
  return overflow;
}

// Whether k <= d for every value of the symbols (under what the model states about them).
bool ProvenAtLeast(Dim d, int64_t k, const InferenceContext& ctx) {
  if (const symbolic::Unifier* unifier = ctx.unifier()) {
    return unifier->ProvenAtLeastByModel(d, k) == symbolic::Tri::kTrue;  // remembered
  }
  return symbolic::LessEqual(Dim::Const(k), d, nullptr) == symbolic::Tri::kTrue;
}

// The output dim for a symbolic entry `t` >= 0 of Reshape's shape without `allowzero`, where
// 0 copies the input's dim, whatever computed the 0: `t` where it is provably >= 1 or equals
// the input's dim `copied` (null: no dim at that index, where a 0 is invalid) or a multiple
// k*copied with k >= 1; else t + copied*(1 - Min(1, t)), which is `copied` at t = 0 ([1, N]
// reshaped by Concat(Mul(1, N), ...) at N = 0 copies the 1).
Dim CopiedWhereZero(Dim t, const Dim* copied, const InferenceContext& ctx) {
  if (ProvenAtLeast(t, 1, ctx) || !copied) return t;
  if (copied->is_unknown()) return Dim();
  const symbolic::Assumptions* assumptions =
      ctx.unifier() ? &ctx.unifier()->assumptions() : nullptr;
  const Dim zero = Dim::Const(0), one = Dim::Const(1);
  if (symbolic::Equal(t, *copied, assumptions) == symbolic::Tri::kTrue ||
      symbolic::Equal(*copied, zero, assumptions) == symbolic::Tri::kTrue) {
    return t;
  }
  // t = k*copied with k >= 1 ([B, S, 64] to [B, 64*S]) is 0 just where the copied dim is.
  if (!copied->is_const()) {
    const Dim k = Dim::FloorDiv(t, *copied);
    if (!k.is_unknown() && symbolic::Equal(k * *copied, t, assumptions) == symbolic::Tri::kTrue &&
        ProvenAtLeast(k, 1, ctx)) {
      return t;
    }
  }
  return t + *copied * (one - Dim::Min(one, t));
}

// Reshape: the target shape comes from input 1 (from version 5) or the `shape` attribute.
// 0 copies the input's dim at that index (unless `allowzero`), -1 is inferred from the
// element count: identical factors of input and output cancel, so [B, S, 768] reshaped to
// [0, 0, 12, -1] gives [B, S, 12, 64]. A symbolic entry (a value computed from shapes) that
// may be 0 or -1 is taken for what it is at runtime: one that may be negative is unknown, one
// that may be 0 copies (CopiedWhereZero).
Status InferReshape(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  std::vector<Dim> from_attr;
  const std::vector<Dim>* shape_value = &from_attr;  // the input's own, not a copy
  if (ctx.opset_version() < 5) {
    OI_ASSIGN_OR_RETURN(auto attr, ctx.OptionalIntsAttr("shape"));
    if (!attr) return OkStatus();
    for (int64_t v : *attr) from_attr.push_back(Dim::Const(v));
  } else if (const ConstValue* value = ctx.InputValue(1)) {
    if (value->dims.size() != 1) {
      return InputError(ctx, 1, DiagCode::kInputRank,
                        StrCat("expected a 1-D shape, got rank ", value->dims.size()));
    }
    shape_value = &value->ints;
  } else {
    // Only the number of dims is known, from the shape input's own shape.
    const Shape* s = ctx.InputShape(1);
    if (s && s->size() == 1 && s->at(0).is_const()) {
      const int64_t rank = *s->at(0).const_value();
      if (rank < 0 || rank > kMaxRank) {
        return InputError(ctx, 1, DiagCode::kInputValue, StrCat("a shape of ", rank, " dims"));
      }
      ctx.SetOutputShape(0, Shape(rank));
    }
    return OkStatus();
  }
  const std::vector<Dim>& target = *shape_value;
  OI_ASSIGN_OR_RETURN(int64_t allowzero, ctx.IntAttr("allowzero", 0));
  const Shape* in = ctx.InputShape(0);
  Shape out(target.size());
  int infer_at = -1;
  std::vector<size_t> symbolic_at;  // entries computed from symbols, which may be 0
  for (size_t i = 0; i < target.size(); ++i) {
    auto v = target[i].const_value();
    if (v == -1) {
      if (infer_at >= 0) {
        return InputError(ctx, 1, DiagCode::kInputValue, "more than one -1 in the shape");
      }
      infer_at = static_cast<int>(i);
    } else if (v == 0 && !allowzero) {
      if (in) {
        if (i >= in->size()) {
          return InputError(ctx, 1, DiagCode::kInputValue,
                            StrCat("0 at index ", i, " copies a dim the input of rank ", in->size(),
                                   " does not have"));
        }
        out[i] = (*in)[i];
      }
    } else if (v && *v < -1) {
      return InputError(ctx, 1, DiagCode::kInputValue, StrCat("invalid dim ", *v, " at index ", i));
    } else if (v || ProvenAtLeast(target[i], 0, ctx)) {
      out[i] = target[i];
      if (!v && !allowzero) symbolic_at.push_back(i);
    }  // else a symbolic entry that may be -1 (inferred) or invalid: unknown
  }
  // Without a -1, when the element counts are one expression and at most one dim may be 0,
  // the symbolic entries are exact: where that one is 0 both counts are 0, and the dim it
  // copies must be 0 as well, the others being >= 1 ([N, C, 4] to [4*C*N] is 4*C*N).
  if (!symbolic_at.empty()) {
    bool exact = false;
    if (in && infer_at < 0) {
      int may_be_zero = 0;
      for (Dim d : out) may_be_zero += ProvenAtLeast(d, 1, ctx) ? 0 : 1;
      exact =
          may_be_zero <= 1 && symbolic::Equal(Product(*in), Product(out)) == symbolic::Tri::kTrue;
    }
    for (size_t i : symbolic_at) {
      if (exact) break;
      const Dim unknown;  // an input of unknown rank: a 0 may copy any dim
      out[i] = CopiedWhereZero(target[i],
                               !in              ? &unknown
                               : i < in->size() ? &(*in)[i]
                                                : nullptr,
                               ctx);
    }
  }
  if (infer_at >= 0 && allowzero) {
    for (Dim d : target) {
      if (d.const_value() == 0) {
        return InputError(ctx, 1, DiagCode::kInputValue, "-1 and 0 together with allowzero=1");
      }
    }
  }
  if (in) {
    // Element counts as expressions: -1 is their exact quotient, so [B, S, 768] to
    // [0, 0, 12, -1] gives (768*B*S)/(12*B*S) = 64 and [B, 12, S, 64] to [0, 12, -1] gives 64*S.
    Dim n = Product(*in);
    // The known dims are `out` without the -1's slot, which is still unknown: a 1 there
    // meanwhile gives the same product and the same overflow test, without a copy.
    if (infer_at >= 0) out[infer_at] = Dim::Const(1);
    Dim d = Product(out);
    const bool known_overflows = ConstantProductOverflows(out);
    if (infer_at >= 0) out[infer_at] = Dim();
    auto target_text = [&] { return StrCat("[", StrJoin(target, ", "), "]"); };
    // A product of constants that overflows is unknown to the algebra, which would hide the
    // element-count error: no tensor has more than 2^63 - 1 elements.
    if (known_overflows) {
      return RuleError(DiagCode::kInputDims, StrCat("cannot reshape to ", target_text(),
                                                    ": its element count overflows int64"));
    }
    if (ConstantProductOverflows(*in)) {
      return RuleError(DiagCode::kInputDims, StrCat("cannot reshape ", ShapeToString(*in),
                                                    ": its element count overflows int64"));
    }
    if (infer_at >= 0 && !n.is_unknown() && !d.is_unknown()) {
      Dim remainder = Dim::Mod(n, d);
      if (symbolic::Equal(remainder, Dim::Const(0)) == symbolic::Tri::kFalse) {
        return RuleError(DiagCode::kInputDims,
                         StrCat("cannot reshape ", ShapeToString(*in), " to ", target_text(), ": ",
                                n, " elements do not divide into ", d));
      }
      // Unless the division is exact on its face, it is exact for every input the model
      // accepts: record that, and the quotient is the inferred dim.
      if (!remainder.is_const()) {
        OI_RETURN_IF_ERROR(ctx.RecordEqual(remainder, Dim::Const(0), "the -1 of the shape"));
      }
      if (d.const_value() != 0) out[infer_at] = Dim::FloorDiv(n, d);
    } else if (infer_at < 0) {
      const symbolic::Tri same = symbolic::Equal(n, d);
      if (same == symbolic::Tri::kFalse) {
        return RuleError(DiagCode::kInputDims,
                         StrCat("cannot reshape ", ShapeToString(*in), " (", n, " elements) to ",
                                target_text(), " (", d, " elements)"));
      }
      // A literal target fixes the element count: [batch, 255, 52, 52] to [1, 3, 85, 52, 52]
      // holds only where 689520*batch == 689520, i.e. batch == 1 (an exporter's baked batch).
      // Not inside a subgraph: an If branch that is not taken need not hold (a branch taken
      // only when batch == 1 may reshape to [1, ...]).
      const bool literal =
          std::all_of(target.begin(), target.end(), [](Dim t) { return t.is_const(); });
      if (same == symbolic::Tri::kUnknown && literal && !ctx.nested() && !n.is_unknown() &&
          !d.is_unknown()) {
        OI_RETURN_IF_ERROR(ctx.RecordEqual(
            n, d,
            StrCat("element counts of ", ShapeToString(*in), " and the shape ", target_text())));
      }
    }
  }
  // Values keep their elements in the new shape (a [1] shape piece becoming a scalar, say).
  if (const ConstValue* v = ctx.InputValue(0); v && IsStatic(out)) {
    ConstValue reshaped = *v;
    reshaped.dims.clear();
    for (Dim d : out) reshaped.dims.push_back(*d.const_value());
    if (reshaped.NumElements() == v->NumElements()) ctx.SetOutputValue(0, std::move(reshaped));
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

}  // namespace

StatusOr<std::optional<Shape>> ConcatOutputShape(InferenceContext& ctx,
                                                 const std::vector<int>& inputs, int64_t axis) {
  const Shape* first = nullptr;
  for (size_t k = 0; k < inputs.size() && !first; ++k) first = ctx.InputShape(inputs[k]);
  if (!first) return std::optional<Shape>();
  const int64_t rank = static_cast<int64_t>(first->size());
  if (rank == 0)
    return RuleError(DiagCode::kInputRank, "expected inputs of rank >= 1, got scalars");
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  Shape out(rank);
  Dim sum = Dim::Const(0);
  for (int i : inputs) {
    const Shape* s = ctx.InputShape(i);
    if (!s) {
      sum = Dim();
      continue;
    }
    OI_RETURN_IF_ERROR(RequireRank(ctx, i, *s, static_cast<size_t>(rank)));
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) continue;
      auto u = UnifyDim(out[d], (*s)[d]);
      if (!u.ok()) {
        return InputError(
            ctx, i, DiagCode::kInputDims,
            StrCat("dim ", d, " differs from the other ", "inputs' (", u.status().message(), ")"));
      }
      OI_RETURN_IF_ERROR(ctx.RecordEqual(out[d], (*s)[d], StrCat(InputLabel(ctx, i), " dim ", d)));
      out[d] = *u;
    }
    sum = sum + (*s)[axis];  // symbolic: N + 5, 2*N
  }
  out[axis] = sum;
  return std::optional<Shape>(std::move(out));
}

Status RegisterAiOnnxReshapeRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Concat", {1, 4, 11, 13}, InferConcat));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Transpose", {1, 13, 21, 23, 24, 25}, InferTranspose));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Reshape", {1, 5, 13, 14, 19, 21, 23, 24, 25}, InferReshape));
  return OkStatus();
}

}  // namespace onnx_infer
