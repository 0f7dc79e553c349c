// Operators onnxruntime registers in the default domain that ONNX does not have at those
// versions (contrib-ops-notes.md, sections 2a and 2b), other than the normalizations:
//   - the ONNX experimental operators ONNX removed and onnxruntime kept at version 1 (and,
//     deprecated, at 10): Affine, ParametricSoftplus, ScaledTanh, Scale, ThresholdedRelu-1
//     (elementwise, the input's type), ImageScaler, MeanVarianceNormalization-1, Crop,
//     DynamicSlice, GivenTensorFill, GRUUnit;
//   - the legacy TensorRT plugin schemas EfficientNMS_TRT, MultilevelCropAndResize_TRT,
//     PyramidROIAlign_TRT and DisentangledAttention_TRT.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/ai_onnx/elementwise_family.h"
#include "onnx_infer/schema/defs/ai_onnx/tensor/shape.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// ImageScaler and MeanVarianceNormalization-1: onnxruntime's CPU kernels read the input as
// [N, C, H, W] (rank >= 4, its first four dims) and allocate Y [N, C, H, W] (so a rank-5
// input gives a 4-D output there; the CUDA ImageScaler rejects it). ImageScaler's `bias`, when
// not empty, has one value per channel.
Status InferNchw(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  if (in->size() < 4) {
    return InputError(ctx, 0, DiagCode::kInputRank,
                      StrCat("expected [N, C, H, W], got rank ", in->size()));
  }
  Shape out(in->begin(), in->begin() + 4);
  OI_ASSIGN_OR_RETURN(auto bias, ctx.OptionalFloatsAttr("bias"));
  if (bias && !bias->empty()) {
    OI_RETURN_IF_ERROR(Agree(ctx, out[1], Dim::Const(static_cast<int64_t>(bias->size())),
                             "channels of input (dim 1) and the length of attribute 'bias'"));
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

const std::vector<UnaryOpSpec>& LegacyUnaryOps() {
  static const auto* ops = new std::vector<UnaryOpSpec>{
      {"Affine", {1, 10}}, {"ParametricSoftplus", {1, 10}}, {"ScaledTanh", {1, 10}},
      {"Scale", {1, 10}},  {"ThresholdedRelu", {1}},
  };
  return *ops;
}

// Crop: input [N, C, H, W] loses `border` = (left, top, right, bottom) from its spatial dims,
// [N, C, H - top - bottom, W - left - right]; with `scale` = (height, width) the crop is that
// size from the top-left border, [N, C, height, width] (which must fit in H and W).
Status InferCrop(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* in, RankedInput(ctx, 0, 4));
  OI_ASSIGN_OR_RETURN(auto border, ctx.OptionalIntsAttr("border"));
  OI_ASSIGN_OR_RETURN(auto scale, ctx.OptionalIntsAttr("scale"));
  if (border && border->size() != 4) {
    return AttrError("border",
                     StrCat("expected 4 values (left, top, right, bottom), got ", border->size()));
  }
  if (scale && scale->size() != 2) {
    return AttrError("scale", StrCat("expected 2 values (height, width), got ", scale->size()));
  }
  Shape out = in ? *in : Shape(4);
  if (!border) {  // the crop is not known
    out[2] = out[3] = Dim();
    ctx.SetOutputShape(0, std::move(out));
    return OkStatus();
  }
  const int64_t left = (*border)[0], top = (*border)[1], right = (*border)[2],
                bottom = (*border)[3];
  const std::pair<size_t, int64_t> kept[] = {{2, scale ? top + (*scale)[0] : top + bottom},
                                             {3, scale ? left + (*scale)[1] : left + right}};
  for (auto [axis, needed] : kept) {
    if (auto d = out[axis].const_value(); d && *d < needed) {
      return RuleError(DiagCode::kInputDims,
                       StrCat(InputLabel(ctx, 0), " dim ", axis, ": expected at least ", needed,
                              " (the border", scale ? " and the scale" : "", "), got ", *d),
                       InputSubject(ctx, 0));
    }
  }
  if (scale) {
    out[2] = Dim::Const((*scale)[0]);
    out[3] = Dim::Const((*scale)[1]);
  } else {
    out[2] = out[2] - Dim::Const(top + bottom);
    out[3] = out[3] - Dim::Const(left + right);
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// DynamicSlice: Slice 10 (starts, ends and optional axes as inputs, no steps), the values of
// 1-D slices included.
Status InferDynamicSlice(InferenceContext& ctx) { return InferSliceOf(ctx, /*from_inputs=*/true); }

// GivenTensorFill: the `shape` attribute when given; else the shape input's shape followed by
// `extra_shape` (onnxruntime's schema inference), unless input_as_shape says the input's
// values are the shape, which is then not known.
Status InferGivenTensorFill(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(auto shape, ctx.OptionalIntsAttr("shape"));
  if (shape) {
    Shape out;
    for (int64_t d : *shape) {
      if (d < 0) return AttrError("shape", StrCat("a dim of ", d));
      out.push_back(Dim::Const(d));
    }
    ctx.SetOutputShape(0, std::move(out));
    return OkStatus();
  }
  OI_ASSIGN_OR_RETURN(int64_t input_as_shape, ctx.IntAttr("input_as_shape", 0));
  const Shape* in = ctx.HasInput(0) ? ctx.InputShape(0) : nullptr;
  if (input_as_shape || !in) return OkStatus();
  OI_ASSIGN_OR_RETURN(auto extra, ctx.OptionalIntsAttr("extra_shape"));
  Shape out = *in;
  for (int64_t d : extra.value_or(std::vector<int64_t>())) {
    if (d < 0) return AttrError("extra_shape", StrCat("a dim of ", d));
    out.push_back(Dim::Const(d));
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// GRUUnit (Caffe2's, which sizes the new state like the previous one): hidden has
// hidden_prev's type and shape. onnxruntime's schema has no inference function.
Status InferGRUUnit(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  return OkStatus();
}

// ---- The TensorRT plugins (their schemas as onnxruntime keeps them; shapes from its schema
// inference)

// EfficientNMS_TRT: boxes [batch, ...] give num_detections int32 [batch, 1], detection_boxes
// [batch, max_output_boxes, 4], detection_scores and detection_classes (int32)
// [batch, max_output_boxes].
Status InferEfficientNMS(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(kInt32));
  ctx.PropagateElemType(0, 1);
  ctx.PropagateElemType(0, 2);
  ctx.SetOutputType(3, Type::Tensor(kInt32));
  const Shape* boxes = ctx.InputShape(0);
  if (boxes && boxes->empty()) {
    return InputError(ctx, 0, DiagCode::kInputRank, "expected [batch, ...], got a scalar");
  }
  const Dim batch = boxes ? (*boxes)[0] : Dim();
  Dim max_boxes;
  if (ctx.HasAttr("max_output_boxes")) {
    OI_ASSIGN_OR_RETURN(int64_t m, ctx.IntAttr("max_output_boxes"));
    if (m < 0) return AttrError("max_output_boxes", StrCat("expected >= 0, got ", m));
    max_boxes = Dim::Const(m);
  }
  ctx.SetOutputShape(0, {batch, Dim::Const(1)});
  ctx.SetOutputShape(1, {batch, max_boxes, Dim::Const(4)});
  ctx.SetOutputShape(2, {batch, max_boxes});
  ctx.SetOutputShape(3, {batch, max_boxes});
  return OkStatus();
}

// MultilevelCropAndResize_TRT and PyramidROIAlign_TRT: boxes [batch, number_boxes, ...] and
// feature_map_0 [batch, channels, ...] give patches
// [batch, number_boxes, channels, pooled_size, pooled_size].
Status InferRoiPatches(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* boxes = ctx.InputShape(0);
  const Shape* features = ctx.InputShape(1);
  for (auto [i, s] : {std::pair{0, boxes}, std::pair{1, features}}) {
    if (s) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, i, *s, 2));
  }
  Dim pooled;
  if (ctx.HasAttr("pooled_size")) {
    OI_ASSIGN_OR_RETURN(int64_t p, ctx.IntAttr("pooled_size"));
    if (p <= 0) return AttrError("pooled_size", StrCat("expected > 0, got ", p));
    pooled = Dim::Const(p);
  }
  Dim batch = boxes ? (*boxes)[0] : Dim();
  if (features)
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*features)[0], "batch of boxes and feature_map_0"));
  ctx.SetOutputShape(
      0, {batch, boxes ? (*boxes)[1] : Dim(), features ? (*features)[1] : Dim(), pooled, pooled});
  return OkStatus();
}

// DisentangledAttention_TRT: the output has c2c_attention's 3-D shape, as do c2p_attention and
// p2c_attention.
Status InferDisentangledAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  Shape out(3);
  bool known = false;
  for (int i : {0, 1, 2}) {
    OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, 3));
    if (!s) continue;
    known = true;
    for (size_t d = 0; d < 3; ++d) {
      OI_RETURN_IF_ERROR(
          Agree(ctx, out[d], (*s)[d], StrCat("dim ", d, " of the attention inputs")));
    }
  }
  if (known) ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

}  // namespace

Status RegisterOrtDefaultDomainRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(AttachUnaryFamily(r, LegacyUnaryOps()));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ImageScaler", {1, 10}, InferNchw));
  OI_RETURN_IF_ERROR(r.AttachRule("", "MeanVarianceNormalization", {1}, InferNchw));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Crop", {1, 10}, InferCrop));
  OI_RETURN_IF_ERROR(r.AttachRule("", "DynamicSlice", {1, 10}, InferDynamicSlice));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GivenTensorFill", {1, 10}, InferGivenTensorFill));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GRUUnit", {1, 10}, InferGRUUnit));
  OI_RETURN_IF_ERROR(r.AttachRule("", "EfficientNMS_TRT", {1}, InferEfficientNMS));
  OI_RETURN_IF_ERROR(r.AttachRule("", "MultilevelCropAndResize_TRT", {1}, InferRoiPatches));
  OI_RETURN_IF_ERROR(r.AttachRule("", "PyramidROIAlign_TRT", {1}, InferRoiPatches));
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "DisentangledAttention_TRT", {1}, InferDisentangledAttention));
  return OkStatus();
}

}  // namespace onnx_infer
