// Image operators of ai.onnx: ImageDecoder.
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

// ImageDecoder: a uint8 image [H, W, C]. Nothing about the stream is known statically, and
// an undecodable stream gives an empty image, so even C is not fixed by `pixel_format`.
Status InferImageDecoder(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::string format, ctx.StringAttr("pixel_format", "RGB"));
  if (format != "RGB" && format != "BGR" && format != "Grayscale") {
    return AttrError("pixel_format", StrCat("expected RGB, BGR or Grayscale, got '", format, "'"));
  }
  if (const Shape* in = ctx.InputShape(0)) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *in, 1, "a byte stream"));
  }
  ctx.SetOutputType(0, Type::Tensor(kUint8, Shape(3)));
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxImageRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "ImageDecoder", {20}, InferImageDecoder));
  return OkStatus();
}

}  // namespace onnx_infer
