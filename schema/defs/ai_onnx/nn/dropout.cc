// Dropout (ai.onnx, nn).
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

// Dropout: output has the input's type; the optional mask has its shape, with the input's
// element type before 10 and bool from 10. From 12 ratio and training_mode are scalar inputs.
Status InferDropout(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  if (ctx.NumOutputs() > 1) {
    const int64_t version = ctx.schema().since_version();
    const Type& x = ctx.InputType(0);
    Type mask = Type::Tensor(version >= 10 ? kBool : InputElemType(ctx, 0));
    if (x.is_tensor() && x.has_shape()) mask.set_shape(x.shape());
    ctx.SetOutputType(1, std::move(mask));
  }
  for (int i = 1; i < 3 && i < ctx.NumInputs(); ++i) {
    const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
    if (s && !s->empty()) {
      return InputError(ctx, i, DiagCode::kInputRank,
                        StrCat("expected a scalar, got rank ", s->size()));
    }
  }
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxDropoutRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Dropout", {1, 6, 7, 10, 12, 13, 22}, InferDropout));
  return OkStatus();
}

}  // namespace onnx_infer
