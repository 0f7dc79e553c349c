// Math operators of ai.onnx.
#include "base/strings.h"
#include "schema/defs/register.h"
#include "schema/inference_context.h"
#include "schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// MatMul: numpy semantics. A 1-D operand is promoted (a row for A, a column for B) and the
// promoted dim dropped from the result; leading dims broadcast; A's last dim and B's
// second-to-last are contracted and must agree.
Status InferMatMul(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* a = ctx.InputShape(0);
  const Shape* b = ctx.InputShape(1);
  if (!a || !b) return OkStatus();
  if (a->empty() || b->empty()) {
    return Status::Error(StrCat(InputLabel(ctx, a->empty() ? 0 : 1),
                                ": expected rank >= 1, got a scalar"));
  }
  Shape a2 = *a, b2 = *b;
  if (a2.size() == 1) a2.insert(a2.begin(), Dim::Const(1));
  if (b2.size() == 1) b2.push_back(Dim::Const(1));
  auto k = UnifyDim(a2[a2.size() - 1], b2[b2.size() - 2]);
  if (!k.ok()) {
    return Status::Error(StrCat("contracted dims differ: A ", ShapeToString(*a), " vs B ",
                                ShapeToString(*b), " (", k.status().message(), ")"));
  }
  RETURN_IF_ERROR(ctx.RecordEqual(a2[a2.size() - 1], b2[b2.size() - 2], "contracted dims"));
  ASSIGN_OR_RETURN(Shape out, BroadcastShapes(Shape(a2.begin(), a2.end() - 2),
                                              Shape(b2.begin(), b2.end() - 2), &ctx));
  if (a->size() > 1) out.push_back(a2[a2.size() - 2]);
  if (b->size() > 1) out.push_back(b2.back());
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxMathRules(SchemaRegistry& r) {
  RETURN_IF_ERROR(r.AttachRule("", "MatMul", {1, 9, 13}, InferMatMul));
  return OkStatus();
}

}  // namespace onnx_infer
