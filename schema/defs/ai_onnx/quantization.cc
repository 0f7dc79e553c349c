// Quantization (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear), bit casts and
// float tests (BitCast, IsInf, IsNaN), random generators (Bernoulli, Multinomial,
// RandomNormal, RandomUniform and their *Like forms), string operators (StringConcat,
// StringNormalizer, StringSplit, RegexFullMatch, TfIdfVectorizer), ImageDecoder and
// NonMaxSuppression.
#include "onnx_infer/schema/defs/ai_onnx/quantization.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// ---- Quantization.

// Every dim is 1: the shape holds one element.
bool AllOnes(const Shape& s) {
  return std::all_of(s.begin(), s.end(), [](Dim d) { return d.const_value() == 1; });
}
// No dim is a constant other than 1: the shape may hold one element.
bool MaybeAllOnes(const Shape& s) {
  return std::all_of(s.begin(), s.end(), [](Dim d) { return d.const_value().value_or(1) == 1; });
}

// The granularity a quantization scale (input 1) gives, checked against x (input 0):
// a scalar (or one element) is per tensor; a 1-D scale is per axis, its length x's dim at
// `axis`; from version 21 a scale of x's rank with block_size > 0 is blocked, its dim at
// `axis` ceil(x[axis] / block_size) and its other dims x's. The zero point (input 2) has the
// scale's shape. `version` is the ai.onnx version whose rules apply.
Status CheckQuantizationParams(InferenceContext& ctx, int version) {
  const Shape* x = ctx.InputShape(0);
  const Shape* scale = ctx.InputShape(1);
  const Shape* zero_point = ctx.HasInput(2) ? ctx.InputShape(2) : nullptr;
  const std::string scale_label = InputLabel(ctx, 1);
  if (scale && zero_point) {
    // One element is one element: ONNX's own tests pair a scalar scale with a [1] zero
    // point, and runtimes accept it.
    if (AllOnes(*scale) || AllOnes(*zero_point)) {
      if (!MaybeAllOnes(*scale) || !MaybeAllOnes(*zero_point)) {
        return InputError(ctx, 2, DiagCode::kInputDims,
                          StrCat("expected the shape of ", scale_label, " ", ShapeToString(*scale),
                                 ", got ", ShapeToString(*zero_point)));
      }
    } else if (scale->size() != zero_point->size()) {
      return InputError(ctx, 2, DiagCode::kInputDims,
                        StrCat("expected the shape of ", scale_label, " ", ShapeToString(*scale),
                               ", got ", ShapeToString(*zero_point)));
    } else {
      for (size_t i = 0; i < scale->size(); ++i) {
        OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*zero_point)[i], (*scale)[i],
                                            StrCat(InputLabel(ctx, 2), " dim ", i, " and ",
                                                   scale_label, " dim ", i),
                                            InputSubject(ctx, 2))
                               .status());
      }
    }
  }
  int64_t block_size = 0;
  if (version >= 21) {
    OI_ASSIGN_OR_RETURN(block_size, ctx.IntAttr("block_size", 0));
    if (block_size < 0) {
      return AttrError("block_size", StrCat("expected >= 0, got ", block_size));
    }
  }
  if (!scale) return OkStatus();
  const int64_t scale_rank = static_cast<int64_t>(scale->size());
  // Version 10 has only per-tensor scales; 13 and 19 add per-axis ones.
  const int64_t max_rank = version < 13 ? 0 : 1;
  if (block_size == 0 && scale_rank > max_rank) {
    // A scale of one element (or maybe one) is per tensor.
    if (MaybeAllOnes(*scale)) return OkStatus();
    return RuleError(
        DiagCode::kInputRank,
        StrCat(scale_label, ": expected ", max_rank == 0 ? "a scalar" : "a scalar or a 1-D tensor",
               version >= 21 ? " (a blocked scale needs attribute 'block_size')" : "",
               ", got rank ", scale_rank));
  }
  if (scale_rank == 0 || !x) return OkStatus();
  const int64_t rank = static_cast<int64_t>(x->size());
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 1));
  if (block_size == 0) {
    // Per axis, unless the single element makes it per tensor; a 1-D x is quantized per
    // tensor whatever `axis` says.
    const Dim n = (*scale)[0];
    if (!n.is_const() || *n.const_value() == 1 || rank == 1) return OkStatus();
    OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
    return RequireEqualDims(ctx, n, (*x)[axis],
                            StrCat(scale_label, " length and input 0 'x' dim ", axis))
        .status();
  }
  if (scale_rank != rank) {
    return RuleError(DiagCode::kInputRank,
                     StrCat(scale_label, ": expected rank ", rank,
                            " (the rank of x) for blocked quantization, got rank ", scale_rank));
  }
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  for (int64_t i = 0; i < rank; ++i) {
    const Dim want = i == axis ? Dim::CeilDiv((*x)[i], Dim::Const(block_size)) : (*x)[i];
    if (want.is_unknown()) continue;
    OI_RETURN_IF_ERROR(
        RequireEqualDims(ctx, (*scale)[i], want,
                         i == axis ? StrCat(scale_label, " dim ", i, " and ceil(x dim ", i,
                                            " / block_size ", block_size, ")")
                                   : StrCat(scale_label, " dim ", i, " and input 0 'x' dim ", i))
            .status());
  }
  return OkStatus();
}

// The output's element type and x's shape. A zero point gives the type (`output_dtype`
// from version 21 must then agree); without one, `output_dtype` (21+), else uint8.
Status QuantizeLinearAs(InferenceContext& ctx, int version) {
  int64_t output_dtype = 0;
  if (version >= 21) {
    OI_ASSIGN_OR_RETURN(output_dtype, ctx.IntAttr("output_dtype", 0));
    if (output_dtype != 0) OI_RETURN_IF_ERROR(CheckDataType(output_dtype, "output_dtype"));
  }
  int32_t elem = 0;
  if (ctx.HasInput(2)) {
    elem = InputElemType(ctx, 2);
    if (elem != 0 && output_dtype != 0 && elem != output_dtype) {
      return AttrError("output_dtype",
                       StrCat("expected ", DataTypeName(elem), " (the type of ", InputLabel(ctx, 2),
                              "), got ", DataTypeName(static_cast<int32_t>(output_dtype))));
    }
    if (elem == 0) elem = static_cast<int32_t>(output_dtype);
  } else {
    elem = output_dtype != 0 ? static_cast<int32_t>(output_dtype) : kUint8;
  }
  ctx.SetOutputType(0, Type::Tensor(elem));
  OI_RETURN_IF_ERROR(CheckQuantizationParams(ctx, version));
  if (const Shape* x = ctx.InputShape(0)) ctx.SetOutputShape(0, *x);
  return OkStatus();
}

Status InferQuantizeLinear(InferenceContext& ctx) {
  return QuantizeLinearAs(ctx, ctx.schema().since_version());
}

// x's shape; the element type is float (10, 13), the scale's (19, 21), `output_dtype` or
// else the scale's (from 23).
Status DequantizeLinearAs(InferenceContext& ctx, int version) {
  int32_t elem = kFloat;
  if (version >= 19) elem = InputElemType(ctx, 1);
  if (version >= 23) {
    OI_ASSIGN_OR_RETURN(int64_t output_dtype, ctx.IntAttr("output_dtype", 0));
    if (output_dtype != 0) {
      OI_RETURN_IF_ERROR(CheckDataType(output_dtype, "output_dtype"));
      elem = static_cast<int32_t>(output_dtype);
    } else if (elem == kFloat8e8m0) {
      // The scale's type would be the output's, which float8e8m0 cannot be.
      return AttrError("output_dtype",
                       StrCat("required when ", InputLabel(ctx, 1),
                              " is float8e8m0 (not an output type), got none"),
                       DiagCode::kInputCombination);
    }
  }
  ctx.SetOutputType(0, Type::Tensor(elem));
  OI_RETURN_IF_ERROR(CheckQuantizationParams(ctx, version));
  if (const Shape* x = ctx.InputShape(0)) ctx.SetOutputShape(0, *x);
  return OkStatus();
}

Status InferDequantizeLinear(InferenceContext& ctx) {
  return DequantizeLinearAs(ctx, ctx.schema().since_version());
}

// DynamicQuantizeLinear: y is uint8 of x's shape; its scale (float) and zero point (uint8)
// are scalars.
Status InferDynamicQuantizeLinear(InferenceContext& ctx) {
  Type y = Type::Tensor(kUint8);
  if (const Shape* x = ctx.InputShape(0)) y.set_shape(*x);
  ctx.SetOutputType(0, std::move(y));
  ctx.SetOutputType(1, Type::Tensor(kFloat, Shape{}));
  ctx.SetOutputType(2, Type::Tensor(kUint8, Shape{}));
  return OkStatus();
}

// ---- Bit casts and float tests.

// ---- Random generators.

// ---- Strings.

// ---- Images and boxes.

}  // namespace

Status InferQuantizeLinearAsVersion(InferenceContext& ctx, int onnx_version) {
  return QuantizeLinearAs(ctx, onnx_version);
}

Status InferDequantizeLinearAsVersion(InferenceContext& ctx, int onnx_version) {
  return DequantizeLinearAs(ctx, onnx_version);
}

Status RegisterAiOnnxQuantizationRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "QuantizeLinear", {10, 13, 19, 21, 23, 24, 25}, InferQuantizeLinear));
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "DequantizeLinear", {10, 13, 19, 21, 23, 24, 25}, InferDequantizeLinear));
  OI_RETURN_IF_ERROR(r.AttachRule("", "DynamicQuantizeLinear", {11}, InferDynamicQuantizeLinear));
  return OkStatus();
}

}  // namespace onnx_infer
