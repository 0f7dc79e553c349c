// Normalization operators of ai.onnx: BatchNormalization, InstanceNormalization, LRN,
// LpNormalization, LayerNormalization, RMSNormalization, GroupNormalization.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// Input `input` must broadcast unidirectionally to `x` (LayerNormalization's Scale and B,
// RMSNormalization's scale): no higher rank, and each dim that cannot be 1 equals x's.
Status CheckUnidirectional(InferenceContext& ctx, int input, const Shape& x) {
  const Shape* s = ctx.HasInput(input) ? ctx.InputShape(input) : nullptr;
  if (!s) return OkStatus();
  // The subject of a finding, built only when there is one.
  auto what = [&] {
    return StrCat(InputLabel(ctx, input), " ", ShapeToString(*s), " broadcast to ",
                  ShapeToString(x));
  };
  if (s->size() > x.size()) {
    return RuleError(DiagCode::kInputRank,
                     StrCat(what(), ": rank ", s->size(), " exceeds rank ", x.size()),
                     InputSubject(ctx, input));
  }
  for (size_t i = 0; i < s->size(); ++i) {
    const Dim d = (*s)[s->size() - 1 - i];
    if (!d.is_const() || *d.const_value() == 1) continue;
    Dim xd = x[x.size() - 1 - i];
    if (xd == d) continue;  // agrees, and there is no fact to record
    OI_RETURN_IF_ERROR(Agree(ctx, xd, d, StrCat(what(), ", dim ", s->size() - 1 - i)));
  }
  return OkStatus();
}

// LRN (1, 13): the input's type; `size` is required.
Status InferLRN(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(int64_t size, ctx.IntAttr("size"));
  if (size < 1) return AttrError("size", StrCat("expected >= 1, got ", size));
  return OkStatus();
}

// LpNormalization (1, 22): the input's type; `axis` names one of its dims, p is 1 or 2.
Status InferLpNormalization(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", -1));
  OI_ASSIGN_OR_RETURN(int64_t p, ctx.IntAttr("p", 2));
  if (p != 1 && p != 2) return AttrError("p", StrCat("expected 1 or 2, got ", p));
  if (const Shape* x = ctx.InputShape(0)) {
    OI_RETURN_IF_ERROR(
        ctx.NormalizeAxis(axis, static_cast<int64_t>(x->size()), Subject::Attribute("axis"))
            .status());
  }
  return OkStatus();
}

// Inputs `first`.. `last` are per-channel vectors [C] of X [N, C, ...].
Status RequireChannelVectors(InferenceContext& ctx, int first, int last) {
  const Shape* x = ctx.InputShape(0);
  for (int i = first; i <= last; ++i) {
    const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
    if (!s) continue;
    OI_RETURN_IF_ERROR(RequireRank(ctx, i, *s, 1));
    if (x && x->size() >= 2) {
      OI_RETURN_IF_ERROR(RequireEqualDims(
                             ctx, (*s)[0], (*x)[1],
                             [&] { return StrCat(InputLabel(ctx, i), " dim 0 and X's channels"); },
                             [&] { return InputSubject(ctx, i); })
                             .status());
    }
  }
  return OkStatus();
}

// InstanceNormalization (1, 6, 22): the input's type; scale and B are [C].
Status InferInstanceNormalization(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  if (const Shape* x = ctx.InputShape(0)) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *x, 2));
  return RequireChannelVectors(ctx, 1, 2);
}

// BatchNormalization: Y has X's type. Before 14 the optional outputs are mean, var,
// saved_mean, saved_var (shaped as the mean and var inputs); from 14 running_mean and
// running_var (training_mode). scale, B, mean, var are [C] from 9, and before 9 when
// `spatial` is 1 (with spatial = 0 they are [C, D1, ...], per activation).
Status InferBatchNormalization(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  for (int out = 1; out < ctx.NumOutputs(); ++out) {
    ctx.SetOutputType(out, ctx.InputType(out % 2 == 1 ? 3 : 4));
  }
  const int64_t version = ctx.schema().since_version();
  bool per_channel = true;
  if (version < 9) {
    OI_ASSIGN_OR_RETURN(int64_t spatial, ctx.IntAttr("spatial", 1));
    per_channel = spatial != 0;
  }
  if (per_channel) OI_RETURN_IF_ERROR(RequireChannelVectors(ctx, 1, 4));
  return OkStatus();
}

// LayerNormalization (17): Y is X; Mean and InvStdDev (type stash_type) keep X's dims before
// `axis` and are 1 from `axis` on.
Status InferLayerNormalization(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(int64_t stash_type, ctx.IntAttr("stash_type", kFloat));
  if (stash_type <= 0 || stash_type > kMaxDataType) {
    return AttrError("stash_type", StrCat("expected a data type, got ", stash_type));
  }
  for (int out : {1, 2}) ctx.SetOutputType(out, Type::Tensor(static_cast<int32_t>(stash_type)));
  const Shape* x = ctx.InputShape(0);
  if (!x) return OkStatus();
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", -1));
  OI_ASSIGN_OR_RETURN(
      axis, ctx.NormalizeAxis(axis, static_cast<int64_t>(x->size()), Subject::Attribute("axis")));
  OI_RETURN_IF_ERROR(CheckUnidirectional(ctx, 1, *x));
  OI_RETURN_IF_ERROR(CheckUnidirectional(ctx, 2, *x));
  Shape stats = *x;
  for (size_t i = static_cast<size_t>(axis); i < stats.size(); ++i) stats[i] = Dim::Const(1);
  ctx.SetOutputShape(1, stats);
  ctx.SetOutputShape(2, std::move(stats));
  return OkStatus();
}

// RMSNormalization (23): Y has X's shape and scale's element type (V).
Status InferRMSNormalization(InferenceContext& ctx) {
  ctx.PropagateElemType(1, 0);
  const Shape* x = ctx.InputShape(0);
  if (!x) return OkStatus();
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", -1));
  OI_RETURN_IF_ERROR(
      ctx.NormalizeAxis(axis, static_cast<int64_t>(x->size()), Subject::Attribute("axis"))
          .status());
  OI_RETURN_IF_ERROR(CheckUnidirectional(ctx, 1, *x));
  ctx.SetOutputShape(0, *x);
  return OkStatus();
}

// GroupNormalization: Y is X [N, C, ...]; num_groups divides C. scale and bias are per group
// ([num_groups]) in 18 and per channel ([C]) from 21.
Status InferGroupNormalization(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(int64_t groups, ctx.IntAttr("num_groups"));
  if (groups <= 0) {
    return AttrError("num_groups", StrCat("expected a positive count, got ", groups));
  }
  const Shape* x = ctx.InputShape(0);
  if (x) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *x, 2, "[N, C, ...]"));
  Dim channels = x ? (*x)[1] : Dim();
  if (channels.is_const() && *channels.const_value() % groups != 0) {
    return InputError(
        ctx, 0, DiagCode::kInputDims,
        StrCat("channels ", channels.ToString(), " are not a multiple of num_groups = ", groups));
  }
  const bool per_group = ctx.schema().since_version() < 21;
  for (int i : {1, 2}) {
    OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, 1));
    if (!s) continue;
    if (per_group) {
      Dim g = Dim::Const(groups);
      OI_RETURN_IF_ERROR(Agree(ctx, g, (*s)[0], StrCat(InputLabel(ctx, i), " and num_groups"),
                               InputSubject(ctx, i)));
    } else {
      OI_RETURN_IF_ERROR(Agree(ctx, channels, (*s)[0],
                               StrCat(InputLabel(ctx, i), " and X's channels"),
                               InputSubject(ctx, i)));
    }
  }
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxNormalizationRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "BatchNormalization", {1, 6, 7, 9, 14, 15}, InferBatchNormalization));
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "InstanceNormalization", {1, 6, 22}, InferInstanceNormalization));
  OI_RETURN_IF_ERROR(r.AttachRule("", "LRN", {1, 13}, InferLRN));
  OI_RETURN_IF_ERROR(r.AttachRule("", "LpNormalization", {1, 22}, InferLpNormalization));
  OI_RETURN_IF_ERROR(r.AttachRule("", "LayerNormalization", {17}, InferLayerNormalization));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RMSNormalization", {23}, InferRMSNormalization));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GroupNormalization", {18, 21}, InferGroupNormalization));
  return OkStatus();
}

}  // namespace onnx_infer
