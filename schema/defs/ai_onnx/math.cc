// Math operators of ai.onnx.
#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// MatMul: numpy semantics (MatMulShape), recording that the contracted dims are equal.
Status InferMatMul(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* a = ctx.InputShape(0);
  const Shape* b = ctx.InputShape(1);
  if (!a || !b) return OkStatus();
  if (a->empty() || b->empty()) {
    return Status::Error(
        StrCat(InputLabel(ctx, a->empty() ? 0 : 1), ": expected rank >= 1, got a scalar"));
  }
  OI_ASSIGN_OR_RETURN(Shape out, MatMulShape(*a, *b, &ctx));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxMathRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "MatMul", {1, 9, 13}, InferMatMul));
  return OkStatus();
}

}  // namespace onnx_infer
