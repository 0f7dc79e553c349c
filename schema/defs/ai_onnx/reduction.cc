// Reduction operators of ai.onnx: the Reduce* family (one generator) and ArgMax/ArgMin.
#include "onnx_infer/schema/defs/ai_onnx/reduction.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// How a Reduce* node names its axes, once the version's conventions are resolved.
struct ReduceAxes {
  bool known = true;             // false: an axes input whose value is not known
  bool noop = false;             // empty axes with noop_with_empty_axes: identity
  std::vector<int64_t> axes;     // empty with `known` and not `noop`: every axis
  std::optional<int64_t> count;  // with !known: the axes input's length, when its shape says
};

StatusOr<ReduceAxes> ResolveReduceAxes(InferenceContext& ctx, int axes_input_since) {
  ReduceAxes r;
  if (ctx.schema().since_version() < axes_input_since) {
    OI_ASSIGN_OR_RETURN(auto attr, ctx.OptionalIntsAttr("axes"));
    if (attr) r.axes = *attr;
    return r;
  }
  OI_ASSIGN_OR_RETURN(int64_t noop_with_empty_axes, ctx.IntAttr("noop_with_empty_axes", 0));
  if (ctx.HasInput(1)) {
    if (const ConstValue* v = ctx.InputValue(1)) {
      auto ints = v->ConstInts();
      if (!ints) {
        r.known = false;
        r.count = v->NumElements();
      } else {
        r.axes = *ints;
      }
    } else {
      r.known = false;
      const Shape* s = ctx.InputShape(1);
      if (s && s->size() == 1 && s->at(0).is_const()) r.count = *s->at(0).const_value();
      if (r.count == 0) r.known = true;  // an empty axes tensor, whatever its values
    }
  }
  if (r.known && r.axes.empty() && noop_with_empty_axes) r.noop = true;
  if (!r.known && r.count == 0) r.known = true;
  return r;
}

enum class ReduceValueKind { kNone, kSum, kProduct, kMax, kMin };

// Reduces a known integer value over `reduced` axes: the data propagation of ReduceSum,
// ReduceProd, ReduceMax and ReduceMin, so that Shape -> ReduceProd (an element count) or
// Shape -> ReduceMax stays known or symbolic. An output element that reduces no input element
// (an empty axis) has no value to give, so then nothing is propagated.
std::optional<ConstValue> ReduceValue(const ConstValue& in, const std::vector<bool>& reduced,
                                      bool keepdims, ReduceValueKind kind, int64_t max_elements) {
  if (!IsIntegerDataType(in.elem_type) && in.elem_type != kBool) return std::nullopt;
  const int64_t n = in.NumElements();
  if (n < 0 || static_cast<int64_t>(in.ints.size()) != n) return std::nullopt;
  if (reduced.size() != in.dims.size()) return std::nullopt;
  ConstValue out;
  out.elem_type = in.elem_type;
  std::vector<int64_t> kept_dims;  // the output's dims with every reduced one set to 1
  for (size_t d = 0; d < in.dims.size(); ++d) {
    kept_dims.push_back(reduced[d] ? 1 : in.dims[d]);
    if (!reduced[d] || keepdims) out.dims.push_back(reduced[d] ? 1 : in.dims[d]);
  }
  int64_t out_n = 1;
  for (int64_t d : kept_dims) out_n *= d;
  if (out_n > max_elements) return std::nullopt;
  out.ints.assign(out_n, Dim());
  std::vector<bool> seen(out_n, false);
  std::vector<int64_t> index(in.dims.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t o = 0;
    for (size_t d = 0; d < index.size(); ++d) o = o * kept_dims[d] + (reduced[d] ? 0 : index[d]);
    Dim& acc = out.ints[o];
    const Dim x = in.ints[i];
    if (!seen[o]) {
      acc = x;
      seen[o] = true;
    } else if (kind == ReduceValueKind::kSum) {
      acc = acc + x;
    } else if (kind == ReduceValueKind::kProduct) {
      acc = acc * x;
    } else if (kind == ReduceValueKind::kMax) {
      acc = Dim::Max(acc, x);
    } else {
      acc = Dim::Min(acc, x);
    }
    for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
      if (++index[d] < in.dims[d]) break;
      index[d] = 0;
    }
  }
  for (int64_t o = 0; o < out_n; ++o) {
    if (seen[o]) continue;
    // The sum of nothing is 0 and the product 1; the max and min of nothing are not sizes.
    if (kind == ReduceValueKind::kSum) {
      out.ints[o] = Dim::Const(0);
    } else if (kind == ReduceValueKind::kProduct) {
      out.ints[o] = Dim::Const(1);
    } else {
      return std::nullopt;
    }
  }
  return out;
}

// The Reduce* generator. Axes come from the `axes` attribute before `axes_input_since` and
// from the optional input 1 from then on, where empty axes with noop_with_empty_axes mean
// the identity. A reduced dim is dropped, or kept as 1 with keepdims.
InferenceRule MakeReduceRule(int axes_input_since, ReduceValueKind value_kind) {
  return [=](InferenceContext& ctx) -> Status {
    ctx.PropagateElemType(0, 0);
    OI_ASSIGN_OR_RETURN(ReduceAxes axes, ResolveReduceAxes(ctx, axes_input_since));
    OI_ASSIGN_OR_RETURN(int64_t keepdims, ctx.IntAttr("keepdims", 1));
    const Shape* in = ctx.InputShape(0);
    if (axes.noop) {
      if (in) ctx.SetOutputShape(0, *in);
      if (const ConstValue* v = ctx.InputValue(0)) ctx.SetOutputValue(0, *v);
      return OkStatus();
    }
    if (!in) return OkStatus();
    const int64_t rank = static_cast<int64_t>(in->size());
    if (!axes.known) {
      // Which dims are reduced is not known. With keepdims the rank stays and a dim of 1 is
      // 1 either way; without, one axis leaves rank - 1. Two or more may repeat an axis
      // (the spec does not forbid it; onnxruntime reduces a repeated axis once), so the
      // rank is only known to lie between rank - count and rank - 1.
      if (keepdims) {
        Shape out(rank);
        for (int64_t d = 0; d < rank; ++d) {
          if ((*in)[d].const_value() == 1) out[d] = (*in)[d];
        }
        ctx.SetOutputShape(0, std::move(out));
      } else if (axes.count) {
        if (*axes.count > rank) {
          return InputError(ctx, 1, DiagCode::kInputValue,
                            StrCat("expected at most ", rank, " axes for input rank ", rank,
                                   ", got ", *axes.count));
        }
        if (*axes.count == 1) ctx.SetOutputShape(0, Shape(rank - 1));
      }
      return OkStatus();
    }
    std::vector<bool> reduced(rank, axes.axes.empty());
    for (int64_t a : axes.axes) {
      OI_ASSIGN_OR_RETURN(int64_t axis, ctx.NormalizeAxis(a, rank, "axes"));
      reduced[axis] = true;
    }
    Shape out;
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d]) {
        out.push_back((*in)[d]);
      } else if (keepdims) {
        out.push_back(Dim::Const(1));
      }
    }
    ctx.SetOutputShape(0, std::move(out));
    if (value_kind != ReduceValueKind::kNone) {
      if (const ConstValue* v = ctx.InputValue(0)) {
        if (auto r =
                ReduceValue(*v, reduced, keepdims != 0, value_kind, ctx.max_value_elements())) {
          ctx.SetOutputValue(0, std::move(*r));
        }
      }
    }
    return OkStatus();
  };
}

// ArgMax/ArgMin: the `axis` dim is reduced (kept as 1 with keepdims); indices are int64.
Status InferArgReduce(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(kInt64));
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 0));
  OI_ASSIGN_OR_RETURN(int64_t keepdims, ctx.IntAttr("keepdims", 1));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  const int64_t rank = static_cast<int64_t>(in->size());
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  Shape out;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != axis) {
      out.push_back((*in)[d]);
    } else if (keepdims) {
      out.push_back(Dim::Const(1));
    }
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

}  // namespace

Status InferReduceWithAxesAttribute(InferenceContext& ctx) {
  static const InferenceRule rule =
      MakeReduceRule(std::numeric_limits<int>::max(), ReduceValueKind::kNone);
  return rule(ctx);
}

Status RegisterAiOnnxReductionRules(SchemaRegistry& r) {
  struct Family {
    std::string_view name;
    std::initializer_list<int> versions;
    int axes_input_since;
    ReduceValueKind value_kind;
  };
  const Family kFamilies[] = {
      {"ReduceL1", {1, 11, 13, 18}, 18, ReduceValueKind::kNone},
      {"ReduceL2", {1, 11, 13, 18}, 18, ReduceValueKind::kNone},
      {"ReduceLogSum", {1, 11, 13, 18}, 18, ReduceValueKind::kNone},
      {"ReduceLogSumExp", {1, 11, 13, 18}, 18, ReduceValueKind::kNone},
      {"ReduceMax", {1, 11, 12, 13, 18, 20}, 18, ReduceValueKind::kMax},
      {"ReduceMean", {1, 11, 13, 18}, 18, ReduceValueKind::kNone},
      {"ReduceMin", {1, 11, 12, 13, 18, 20}, 18, ReduceValueKind::kMin},
      {"ReduceProd", {1, 11, 13, 18}, 18, ReduceValueKind::kProduct},
      {"ReduceSum", {1, 11, 13}, 13, ReduceValueKind::kSum},
      {"ReduceSumSquare", {1, 11, 13, 18}, 18, ReduceValueKind::kNone},
  };
  for (const Family& f : kFamilies) {
    OI_RETURN_IF_ERROR(
        r.AttachRule("", f.name, f.versions, MakeReduceRule(f.axes_input_since, f.value_kind)));
  }
  OI_RETURN_IF_ERROR(r.AttachRule("", "ArgMax", {1, 11, 12, 13}, InferArgReduce));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ArgMin", {1, 11, 12, 13}, InferArgReduce));
  return OkStatus();
}

}  // namespace onnx_infer
