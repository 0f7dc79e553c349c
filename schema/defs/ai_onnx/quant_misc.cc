// Quantization (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear), bit casts and
// float tests (BitCast, IsInf, IsNaN), random generators (Bernoulli, Multinomial,
// RandomNormal, RandomUniform and their *Like forms), string operators (StringConcat,
// StringNormalizer, StringSplit, RegexFullMatch, TfIdfVectorizer), ImageDecoder and
// NonMaxSuppression.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/ai_onnx/quant_misc.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// The element type of input i when it is a known tensor type; 0 otherwise.
int32_t ElemTypeOf(const InferenceContext& ctx, int i) {
  if (!ctx.HasInput(i)) return 0;
  const Type& t = ctx.InputType(i);
  return t.is_tensor() ? t.elem_type() : 0;
}

// Two dims the operator requires to be equal: an error when they provably differ, else a
// recorded fact.
Status RequireEqual(InferenceContext& ctx, Dim a, Dim b, const std::string& what) {
  auto u = UnifyDim(a, b);
  if (!u.ok()) return Status::Error(StrCat(what, ": ", u.status().message()));
  return ctx.RecordEqual(a, b, what);
}

// A data type code read from an attribute: an error unless it names an ONNX element type.
Status CheckDataType(int64_t type, const char* attr) {
  if (type <= 0 || type > kMaxDataType) {
    return Status::Error(StrCat("attribute '", attr, "': expected a data type in [1, ",
                                kMaxDataType, "], got ", type));
  }
  return OkStatus();
}

// ---- Quantization.

// Every dim is 1: the shape holds one element.
bool AllOnes(const Shape& s) {
  return std::all_of(s.begin(), s.end(), [](Dim d) { return d.const_value() == 1; });
}
// No dim is a constant other than 1: the shape may hold one element.
bool MaybeAllOnes(const Shape& s) {
  return std::all_of(s.begin(), s.end(),
                     [](Dim d) { return d.const_value().value_or(1) == 1; });
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
        return Status::Error(StrCat(InputLabel(ctx, 2), ": expected the shape of ", scale_label,
                                    " ", ShapeToString(*scale), ", got ",
                                    ShapeToString(*zero_point)));
      }
    } else if (scale->size() != zero_point->size()) {
      return Status::Error(StrCat(InputLabel(ctx, 2), ": expected the shape of ", scale_label,
                                  " ", ShapeToString(*scale), ", got ",
                                  ShapeToString(*zero_point)));
    } else {
      for (size_t i = 0; i < scale->size(); ++i) {
        OI_RETURN_IF_ERROR(RequireEqual(ctx, (*zero_point)[i], (*scale)[i],
                                     StrCat(InputLabel(ctx, 2), " dim ", i, " and ",
                                            scale_label, " dim ", i)));
      }
    }
  }
  int64_t block_size = 0;
  if (version >= 21) {
    OI_ASSIGN_OR_RETURN(block_size, ctx.IntAttr("block_size", 0));
    if (block_size < 0) {
      return Status::Error(StrCat("attribute 'block_size': expected >= 0, got ", block_size));
    }
  }
  if (!scale) return OkStatus();
  const int64_t scale_rank = static_cast<int64_t>(scale->size());
  // Version 10 has only per-tensor scales; 13 and 19 add per-axis ones.
  const int64_t max_rank = version < 13 ? 0 : 1;
  if (block_size == 0 && scale_rank > max_rank) {
    // A scale of one element (or maybe one) is per tensor.
    if (MaybeAllOnes(*scale)) return OkStatus();
    return Status::Error(StrCat(
        scale_label, ": expected ",
        max_rank == 0 ? "a scalar" : "a scalar or a 1-D tensor",
        version >= 21 ? " (a blocked scale needs attribute 'block_size')" : "", ", got rank ",
        scale_rank));
  }
  if (scale_rank == 0 || !x) return OkStatus();
  const int64_t rank = static_cast<int64_t>(x->size());
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 1));
  if (block_size == 0) {
    // Per axis, unless the single element makes it per tensor; a 1-D x is quantized per
    // tensor whatever `axis` says.
    const Dim n = (*scale)[0];
    if (!n.is_const() || *n.const_value() == 1 || rank == 1) return OkStatus();
    OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, "attribute 'axis'"));
    return RequireEqual(ctx, n, (*x)[axis],
                        StrCat(scale_label, " length and input 0 'x' dim ", axis));
  }
  if (scale_rank != rank) {
    return Status::Error(StrCat(scale_label, ": expected rank ", rank,
                                " (the rank of x) for blocked quantization, got rank ",
                                scale_rank));
  }
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, "attribute 'axis'"));
  for (int64_t i = 0; i < rank; ++i) {
    const Dim want =
        i == axis ? Dim::CeilDiv((*x)[i], Dim::Const(block_size)) : (*x)[i];
    if (want.is_unknown()) continue;
    OI_RETURN_IF_ERROR(RequireEqual(
        ctx, (*scale)[i], want,
        i == axis ? StrCat(scale_label, " dim ", i, " and ceil(x dim ", i, " / block_size ",
                           block_size, ")")
                  : StrCat(scale_label, " dim ", i, " and input 0 'x' dim ", i)));
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
    elem = ElemTypeOf(ctx, 2);
    if (elem != 0 && output_dtype != 0 && elem != output_dtype) {
      return Status::Error(StrCat("attribute 'output_dtype': expected ", DataTypeName(elem),
                                  " (the type of ", InputLabel(ctx, 2), "), got ",
                                  DataTypeName(static_cast<int32_t>(output_dtype))));
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
  if (version >= 19) elem = ElemTypeOf(ctx, 1);
  if (version >= 23) {
    OI_ASSIGN_OR_RETURN(int64_t output_dtype, ctx.IntAttr("output_dtype", 0));
    if (output_dtype != 0) {
      OI_RETURN_IF_ERROR(CheckDataType(output_dtype, "output_dtype"));
      elem = static_cast<int32_t>(output_dtype);
    } else if (elem == kFloat8e8m0) {
      // The scale's type would be the output's, which float8e8m0 cannot be.
      return Status::Error(StrCat("attribute 'output_dtype': required when ", InputLabel(ctx, 1),
                                  " is float8e8m0 (not an output type), got none"));
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

// Bits per element; 0 for types without a fixed width (string, undefined).
int BitWidth(int32_t type) {
  switch (type) {
    case kBool: case kUint8: case kInt8: case kFloat8e4m3fn: case kFloat8e4m3fnuz:
    case kFloat8e5m2: case kFloat8e5m2fnuz: case kFloat8e8m0:
      return 8;
    case kUint16: case kInt16: case kFloat16: case kBfloat16:
      return 16;
    case kFloat: case kInt32: case kUint32:
      return 32;
    case kDouble: case kInt64: case kUint64: case kComplex64:
      return 64;
    case kComplex128:
      return 128;
    case kUint4: case kInt4: case kFloat4e2m1:
      return 4;
    case kUint2: case kInt2:
      return 2;
    default:
      return 0;
  }
}

// BitCast: element type `to`, of the input's bit width; the shape stays.
Status InferBitCast(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t to, ctx.IntAttr("to"));
  OI_RETURN_IF_ERROR(CheckDataType(to, "to"));
  const int32_t from = ElemTypeOf(ctx, 0);
  const int to_bits = BitWidth(static_cast<int32_t>(to));
  const int from_bits = BitWidth(from);
  if (from != 0 && to_bits != 0 && from_bits != 0 && to_bits != from_bits) {
    return Status::Error(StrCat("attribute 'to': expected a ", from_bits, "-bit type (",
                                InputLabel(ctx, 0), " is ", DataTypeName(from), "), got ",
                                DataTypeName(static_cast<int32_t>(to)), " (", to_bits,
                                " bits)"));
  }
  Type out = Type::Tensor(static_cast<int32_t>(to));
  if (const Shape* in = ctx.InputShape(0)) out.set_shape(*in);
  ctx.SetOutputType(0, std::move(out));
  return OkStatus();
}

// IsInf, IsNaN, RegexFullMatch: a bool per element.
Status InferBoolOfSameShape(InferenceContext& ctx) {
  Type out = Type::Tensor(kBool);
  if (const Shape* in = ctx.InputShape(0)) out.set_shape(*in);
  ctx.SetOutputType(0, std::move(out));
  return OkStatus();
}

// ---- Random generators.

// Bernoulli, RandomNormalLike, RandomUniformLike: the input's shape; the element type is
// `dtype` when given, else the input's.
Status InferRandomLike(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", 0));
  int32_t elem = ElemTypeOf(ctx, 0);
  if (dtype != 0) {
    OI_RETURN_IF_ERROR(CheckDataType(dtype, "dtype"));
    elem = static_cast<int32_t>(dtype);
  }
  Type out = Type::Tensor(elem);
  if (const Shape* in = ctx.InputShape(0)) out.set_shape(*in);
  ctx.SetOutputType(0, std::move(out));
  return OkStatus();
}

// RandomNormal, RandomUniform: element type `dtype` (float by default), shape `shape`.
Status InferRandomFromAttrs(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", kFloat));
  OI_RETURN_IF_ERROR(CheckDataType(dtype, "dtype"));
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ctx.IntsAttr("shape"));
  Shape shape;
  for (int64_t d : dims) {
    if (d < 0) {
      return Status::Error(StrCat("attribute 'shape': expected dims >= 0, got ", d));
    }
    shape.push_back(Dim::Const(d));
  }
  ctx.SetOutputType(0, Type::Tensor(static_cast<int32_t>(dtype), std::move(shape)));
  return OkStatus();
}

// Multinomial: input [batch_size, class_size]; output [batch_size, sample_size] of `dtype`
// (int32 by default).
Status InferMultinomial(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", kInt32));
  OI_RETURN_IF_ERROR(CheckDataType(dtype, "dtype"));
  OI_ASSIGN_OR_RETURN(int64_t sample_size, ctx.IntAttr("sample_size", 1));
  if (sample_size < 0) {
    return Status::Error(StrCat("attribute 'sample_size': expected >= 0, got ", sample_size));
  }
  Dim batch;
  if (const Shape* in = ctx.InputShape(0)) {
    if (in->size() != 2) {
      return Status::Error(StrCat(InputLabel(ctx, 0),
                                  ": expected rank 2 ([batch_size, class_size]), got rank ",
                                  in->size()));
    }
    batch = (*in)[0];
  }
  ctx.SetOutputType(0, Type::Tensor(static_cast<int32_t>(dtype),
                                    Shape{batch, Dim::Const(sample_size)}));
  return OkStatus();
}

// ---- Strings.

// StringConcat: the broadcast of both shapes.
Status InferStringConcat(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(kString));
  const Shape* a = ctx.InputShape(0);
  const Shape* b = ctx.InputShape(1);
  if (!a || !b) return OkStatus();
  OI_ASSIGN_OR_RETURN(Shape out, BroadcastShapes(*a, *b, &ctx));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// StringNormalizer: X is [C] or [1, C]. Without stopwords nothing is removed, but an empty
// result is one empty string, so the last dim is max(C, 1); stopwords leave it unknown.
Status InferStringNormalizer(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(kString));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  if (in->size() != 1 && in->size() != 2) {
    return Status::Error(StrCat(InputLabel(ctx, 0), ": expected [C] or [1, C], got rank ",
                                in->size()));
  }
  if (in->size() == 2) {
    OI_RETURN_IF_ERROR(RequireEqual(ctx, (*in)[0], Dim::Const(1), StrCat(InputLabel(ctx, 0),
                                                                      " dim 0 of [1, C]")));
  }
  const onnx::AttributeProto* stopwords = ctx.Attr("stopwords");
  const bool removes = stopwords && stopwords->strings_size() > 0;
  const Dim c = in->back();
  Shape out = *in;
  out.back() = removes || c.is_unknown() ? Dim() : Dim::Max(c, Dim::Const(1));
  if (in->size() == 2) out[0] = Dim::Const(1);
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// StringSplit: the substrings have X's shape plus one dim (the most substrings of any
// element, unknown); their counts (int64) have X's shape.
Status InferStringSplit(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t maxsplit, ctx.IntAttr("maxsplit", 0));
  if (ctx.HasAttr("maxsplit") && maxsplit < 0) {
    return Status::Error(StrCat("attribute 'maxsplit': expected >= 0, got ", maxsplit));
  }
  ctx.SetOutputType(0, Type::Tensor(kString));
  ctx.SetOutputType(1, Type::Tensor(kInt64));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  Shape substrings = *in;
  substrings.push_back(Dim());
  ctx.SetOutputShape(0, std::move(substrings));
  ctx.SetOutputShape(1, *in);
  return OkStatus();
}

// TfIdfVectorizer: X is [C] or [N, C]; Y is float [max(ngram_indexes) + 1] or [N, that].
Status InferTfIdfVectorizer(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> indexes, ctx.IntsAttr("ngram_indexes"));
  Dim width;
  if (!indexes.empty()) {
    const int64_t low = *std::min_element(indexes.begin(), indexes.end());
    if (low < 0) {
      return Status::Error(StrCat("attribute 'ngram_indexes': expected indexes >= 0, got ", low));
    }
    width = Dim::Const(*std::max_element(indexes.begin(), indexes.end()) + 1);
  }
  ctx.SetOutputType(0, Type::Tensor(kFloat));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  if (in->size() == 1) {
    ctx.SetOutputShape(0, Shape{width});
  } else if (in->size() == 2) {
    ctx.SetOutputShape(0, Shape{(*in)[0], width});
  } else {
    return Status::Error(StrCat(InputLabel(ctx, 0), ": expected [C] or [N, C], got rank ",
                                in->size()));
  }
  return OkStatus();
}

// ---- Images and boxes.

// ImageDecoder: a uint8 image [H, W, C]. Nothing about the stream is known statically, and
// an undecodable stream gives an empty image, so even C is not fixed by `pixel_format`.
Status InferImageDecoder(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::string format, ctx.StringAttr("pixel_format", "RGB"));
  if (format != "RGB" && format != "BGR" && format != "Grayscale") {
    return Status::Error(StrCat("attribute 'pixel_format': expected RGB, BGR or Grayscale, got '",
                                format, "'"));
  }
  if (const Shape* in = ctx.InputShape(0); in && in->size() != 1) {
    return Status::Error(StrCat(InputLabel(ctx, 0), ": expected rank 1 (a byte stream), got rank ",
                                in->size()));
  }
  ctx.SetOutputType(0, Type::Tensor(kUint8, Shape(3)));
  return OkStatus();
}

// NonMaxSuppression: boxes [B, S, 4], scores [B, C, S]; int64 [num_selected, 3]. With no
// max_output_boxes_per_class (or 0) nothing is selected.
Status InferNonMaxSuppression(InferenceContext& ctx) {
  const Shape* boxes = ctx.InputShape(0);
  const Shape* scores = ctx.InputShape(1);
  if (boxes) {
    if (boxes->size() != 3) {
      return Status::Error(StrCat(InputLabel(ctx, 0),
                                  ": expected rank 3 ([num_batches, spatial_dimension, 4]), got "
                                  "rank ", boxes->size()));
    }
    OI_RETURN_IF_ERROR(RequireEqual(ctx, (*boxes)[2], Dim::Const(4),
                                 StrCat(InputLabel(ctx, 0), " dim 2 (box coordinates)")));
  }
  if (scores && scores->size() != 3) {
    return Status::Error(StrCat(InputLabel(ctx, 1),
                                ": expected rank 3 ([num_batches, num_classes, "
                                "spatial_dimension]), got rank ", scores->size()));
  }
  if (boxes && scores) {
    OI_RETURN_IF_ERROR(RequireEqual(ctx, (*scores)[0], (*boxes)[0],
                                 StrCat(InputLabel(ctx, 1), " dim 0 and ", InputLabel(ctx, 0),
                                        " dim 0 (num_batches)")));
    OI_RETURN_IF_ERROR(RequireEqual(ctx, (*scores)[2], (*boxes)[1],
                                 StrCat(InputLabel(ctx, 1), " dim 2 and ", InputLabel(ctx, 0),
                                        " dim 1 (spatial_dimension)")));
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

Status InferQuantizeLinearAsVersion(InferenceContext& ctx, int onnx_version) {
  return QuantizeLinearAs(ctx, onnx_version);
}

Status InferDequantizeLinearAsVersion(InferenceContext& ctx, int onnx_version) {
  return DequantizeLinearAs(ctx, onnx_version);
}

Status RegisterAiOnnxQuantMiscRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "QuantizeLinear", {10, 13, 19, 21, 23, 24, 25}, InferQuantizeLinear));
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "DequantizeLinear", {10, 13, 19, 21, 23, 24, 25}, InferDequantizeLinear));
  OI_RETURN_IF_ERROR(r.AttachRule("", "DynamicQuantizeLinear", {11}, InferDynamicQuantizeLinear));
  OI_RETURN_IF_ERROR(r.AttachRule("", "BitCast", {26}, InferBitCast));
  OI_RETURN_IF_ERROR(r.AttachRule("", "IsInf", {10, 20}, InferBoolOfSameShape));
  OI_RETURN_IF_ERROR(r.AttachRule("", "IsNaN", {9, 13, 20}, InferBoolOfSameShape));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RegexFullMatch", {20}, InferBoolOfSameShape));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Bernoulli", {15, 22}, InferRandomLike));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RandomNormalLike", {1, 22}, InferRandomLike));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RandomUniformLike", {1, 22}, InferRandomLike));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RandomNormal", {1, 22}, InferRandomFromAttrs));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RandomUniform", {1, 22}, InferRandomFromAttrs));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Multinomial", {7, 22}, InferMultinomial));
  OI_RETURN_IF_ERROR(r.AttachRule("", "StringConcat", {20}, InferStringConcat));
  OI_RETURN_IF_ERROR(r.AttachRule("", "StringNormalizer", {10}, InferStringNormalizer));
  OI_RETURN_IF_ERROR(r.AttachRule("", "StringSplit", {20}, InferStringSplit));
  OI_RETURN_IF_ERROR(r.AttachRule("", "TfIdfVectorizer", {9}, InferTfIdfVectorizer));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ImageDecoder", {20}, InferImageDecoder));
  OI_RETURN_IF_ERROR(r.AttachRule("", "NonMaxSuppression", {10, 11}, InferNonMaxSuppression));
  return OkStatus();
}

}  // namespace onnx_infer
