// Element-type operators of ai.onnx: Cast, CastLike, BitCast, and the IsNaN/IsInf tests.
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
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/schema/value_ops.h"

namespace onnx_infer {
namespace {

// Cast: same shape, element type `to`; the value converted (value_ops.h's CastValue:
// integers that fit keep their Dims, reals truncate into integer types, symbolic sizes become
// exact quotients in float types and come back as Dims).
Status CastInputTo(InferenceContext& ctx, int64_t to) {
  Type out = Type::Tensor(static_cast<int32_t>(to));
  if (const Shape* in = ctx.InputShape(0)) out.set_shape(*in);
  ctx.SetOutputType(0, out);
  if (const ConstValue* v = ctx.InputValue(0)) {
    if (auto cast = CastValue(*v, static_cast<int32_t>(to)))
      ctx.SetOutputValue(0, std::move(*cast));
  }
  return OkStatus();
}

Status InferCast(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t to, ctx.IntAttr("to"));
  if (to <= 0 || to > kMaxDataType) return AttrError("to", StrCat("unknown type ", to));
  return CastInputTo(ctx, to);
}

// CastLike: Cast to the element type of input 1 (`target_type`).
Status InferCastLike(InferenceContext& ctx) {
  const Type& target = ctx.InputType(1);
  const int32_t to = target.is_tensor() ? target.elem_type() : 0;
  if (to == 0) {
    // The target's element type is not known: only the shape is.
    if (const Shape* in = ctx.InputShape(0)) ctx.SetOutputShape(0, *in);
    return OkStatus();
  }
  return CastInputTo(ctx, to);
}

// Bits per element; 0 for types without a fixed width (string, undefined).
int BitWidth(int32_t type) {
  switch (type) {
    case kBool:
    case kUint8:
    case kInt8:
    case kFloat8e4m3fn:
    case kFloat8e4m3fnuz:
    case kFloat8e5m2:
    case kFloat8e5m2fnuz:
    case kFloat8e8m0:
      return 8;
    case kUint16:
    case kInt16:
    case kFloat16:
    case kBfloat16:
      return 16;
    case kFloat:
    case kInt32:
    case kUint32:
      return 32;
    case kDouble:
    case kInt64:
    case kUint64:
    case kComplex64:
      return 64;
    case kComplex128:
      return 128;
    case kUint4:
    case kInt4:
    case kFloat4e2m1:
      return 4;
    case kUint2:
    case kInt2:
      return 2;
    default:
      return 0;
  }
}

// BitCast: element type `to`, of the input's bit width; the shape stays.
Status InferBitCast(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t to, ctx.IntAttr("to"));
  OI_RETURN_IF_ERROR(CheckDataType(to, "to"));
  const int32_t from = InputElemType(ctx, 0);
  const int to_bits = BitWidth(static_cast<int32_t>(to));
  const int from_bits = BitWidth(from);
  if (from != 0 && to_bits != 0 && from_bits != 0 && to_bits != from_bits) {
    return AttrError("to", StrCat("expected a ", from_bits, "-bit type (", InputLabel(ctx, 0),
                                  " is ", DataTypeName(from), "), got ",
                                  DataTypeName(static_cast<int32_t>(to)), " (", to_bits, " bits)"));
  }
  Type out = Type::Tensor(static_cast<int32_t>(to));
  if (const Shape* in = ctx.InputShape(0)) out.set_shape(*in);
  ctx.SetOutputType(0, std::move(out));
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxCastRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Cast", {1, 6, 9, 13, 19, 21, 23, 24, 25}, InferCast));
  OI_RETURN_IF_ERROR(r.AttachRule("", "CastLike", {15, 19, 21, 23, 24, 25}, InferCastLike));
  OI_RETURN_IF_ERROR(r.AttachRule("", "BitCast", {26}, InferBitCast));
  OI_RETURN_IF_ERROR(r.AttachRule("", "IsInf", {10, 20}, InferBoolOfSameShape));
  OI_RETURN_IF_ERROR(r.AttachRule("", "IsNaN", {9, 13, 20}, InferBoolOfSameShape));
  return OkStatus();
}

}  // namespace onnx_infer
