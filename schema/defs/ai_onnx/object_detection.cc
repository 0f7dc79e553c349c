// Object detection operators of ai.onnx: RoiAlign, NonMaxSuppression.
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

// RoiAlign (10, 16, 22): X [N, C, H, W], rois [num_rois, 4], batch_indices [num_rois] give
// [num_rois, C, output_height, output_width].
Status InferRoiAlign(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t height, ctx.IntAttr("output_height", 1));
  OI_ASSIGN_OR_RETURN(int64_t width, ctx.IntAttr("output_width", 1));
  const Shape* x = ctx.InputShape(0);
  const Shape* rois = ctx.InputShape(1);
  const Shape* batch = ctx.InputShape(2);
  if (x) OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *x, 4));
  Dim n;
  if (rois) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *rois, 2));
    OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*rois)[1], Dim::Const(4),
                                        StrCat(InputLabel(ctx, 1), " dim 1 (box)"),
                                        InputSubject(ctx, 1))
                           .status());
    n = (*rois)[0];
  }
  if (batch) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 2, *batch, 1));
    OI_ASSIGN_OR_RETURN(
        n, RequireEqualDims(ctx, n, (*batch)[0], "rois' dim 0 and batch_indices' dim 0"));
  }
  ctx.SetOutputShape(0, {n, x ? (*x)[1] : Dim(), Dim::Const(height), Dim::Const(width)});
  return OkStatus();
}

// NonMaxSuppression: boxes [B, S, 4], scores [B, C, S]; int64 [num_selected, 3]. With no
// max_output_boxes_per_class (or 0) nothing is selected.
Status InferNonMaxSuppression(InferenceContext& ctx) {
  const Shape* boxes = ctx.InputShape(0);
  const Shape* scores = ctx.InputShape(1);
  if (boxes) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *boxes, 3, "[num_batches, spatial_dimension, 4]"));
    OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*boxes)[2], Dim::Const(4),
                                        StrCat(InputLabel(ctx, 0), " dim 2 (box coordinates)"),
                                        InputSubject(ctx, 0))
                           .status());
  }
  if (scores)
    OI_RETURN_IF_ERROR(
        RequireRank(ctx, 1, *scores, 3, "[num_batches, num_classes, spatial_dimension]"));
  if (boxes && scores) {
    OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*scores)[0], (*boxes)[0],
                                        StrCat(InputLabel(ctx, 1), " dim 0 and ",
                                               InputLabel(ctx, 0), " dim 0 (num_batches)"),
                                        InputSubject(ctx, 1))
                           .status());
    OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*scores)[2], (*boxes)[1],
                                        StrCat(InputLabel(ctx, 1), " dim 2 and ",
                                               InputLabel(ctx, 0), " dim 1 (spatial_dimension)"),
                                        InputSubject(ctx, 1))
                           .status());
  }
  Dim selected;
  if (!ctx.HasInput(2)) {
    selected = Dim::Const(0);
  } else if (const ConstValue* v = ctx.InputValue(2); v && v->ints.size() == 1) {
    // A negative count is not defined by the spec, so only 0 is read.
    if (v->ints[0].const_value() == 0) selected = Dim::Const(0);
  }
  ctx.SetOutputType(0, Type::Tensor(kInt64, Shape{selected, Dim::Const(3)}));
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxObjectDetectionRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "RoiAlign", {10, 16, 22}, InferRoiAlign));
  OI_RETURN_IF_ERROR(r.AttachRule("", "NonMaxSuppression", {10, 11}, InferNonMaxSuppression));
  return OkStatus();
}

}  // namespace onnx_infer
