// onnxruntime-training's operators that its exports leave in an inference graph: the ATen
// fallback (domain org.pytorch.aten) for embedding and its gradient, ConcatTraining and
// SplitTraining (Concat and Split that also give or take the split lengths), YieldOp (the
// hand-over point between the forward and backward graphs of ORTModule), and the gradients
// SimplifiedLayerNormalizationGrad, QuickGeluGrad and SoftmaxGrad_13.
//
// The facts are onnxruntime's schema registrations (orttraining training_op_defs.cc, see
// schema/data/README.md); where a registration gives no shape, the rule says what it follows.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/ai_onnx/tensor/indexing.h"
#include "onnx_infer/schema/defs/ai_onnx/tensor/reshape.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"
#include "onnx_infer/schema/value_movement.h"

namespace onnx_infer {
namespace {

// ---- ATen (org.pytorch.aten)

// ATen embedding(weight [V, D], indices [*], padding_idx, ...): indices' shape + [D], of
// weight's element type (torch.nn.functional.embedding).
Status InferAtenEmbedding(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* weight, RankedInput(ctx, 0, 2));
  const Shape* indices = ctx.NumInputs() > 1 ? ctx.InputShape(1) : nullptr;
  if (!indices) return OkStatus();
  Shape out = *indices;
  out.push_back(weight ? (*weight)[1] : Dim());
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ATen embedding_backward(grad [*, D], indices, num_weights, padding_idx, ...): the weight's
// gradient [num_weights, D] of grad's element type; num_weights is a scalar input (onnxruntime's
// gradient builder feeds it weight's dim 0), unknown while its value is.
Status InferAtenEmbeddingBackward(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* grad = ctx.InputShape(0);
  if (grad) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *grad, 1));
  const Dim num_weights = ctx.NumInputs() > 2 ? ScalarInputDim(ctx, 2) : Dim();
  ctx.SetOutputShape(0, {num_weights, grad ? grad->back() : Dim()});
  return OkStatus();
}

// ATen: one operator per `operator` attribute; only those above are known, the others' outputs
// stay unknown (their shapes are PyTorch's, not in any schema).
Status InferATen(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::string op, ctx.StringAttr("operator", ""));
  if (op == "embedding") return InferAtenEmbedding(ctx);
  if (op == "embedding_backward") return InferAtenEmbeddingBackward(ctx);
  return OkStatus();
}

// ---- Concat and Split with their lengths

// ConcatTraining: Concat along `axis` (required), values included (exporters join shape
// vectors with it), and per_input_length [number of inputs] int64.
Status InferConcatTraining(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  if (ctx.NumOutputs() > 1 && ctx.HasOutput(1)) {
    ctx.SetOutputType(1, Type::Tensor(kInt64, Shape{Dim::Const(ctx.NumInputs())}));
  }
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis"));
  std::vector<int> inputs;
  for (int i = 0; i < ctx.NumInputs(); ++i) inputs.push_back(i);
  OI_ASSIGN_OR_RETURN(std::optional<Shape> out, ConcatOutputShape(ctx, inputs, axis));
  if (!out) return OkStatus();
  const int64_t rank = static_cast<int64_t>(out->size());
  ctx.SetOutputShape(0, std::move(*out));
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  std::vector<const ConstValue*> values;
  for (int i = 0; i < ctx.NumInputs(); ++i) {
    const ConstValue* v = ctx.InputValue(i);
    if (!v) return OkStatus();
    values.push_back(v);
  }
  if (auto v = ConcatValues(values, axis, ctx.max_value_elements())) {
    ctx.SetOutputValue(0, std::move(*v));
  }
  return OkStatus();
}

// SplitTraining: Split-1/13's form, the sizes from input 1 (required), `axis` default 0.
Status InferSplitTraining(InferenceContext& ctx) { return InferSplit(ctx); }

// ---- YieldOp

// YieldOp: output j is the gradient of the j-th differentiable input (the inputs not listed in
// non_differentiable_outputs), of its element type; its shape is the input's only for the
// inputs listed in full_shape_outputs (PyTorch may hand back others in another shape).
Status InferYieldOp(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> full, ctx.IntsAttr("full_shape_outputs"));
  OI_ASSIGN_OR_RETURN(auto non_diff, ctx.OptionalIntsAttr("non_differentiable_outputs"));
  const std::set<int64_t> skip(non_diff ? non_diff->begin() : full.end(),
                               non_diff ? non_diff->end() : full.end());
  const std::set<int64_t> full_shape(full.begin(), full.end());
  const int64_t expected = ctx.NumOutputs() + static_cast<int64_t>(skip.size());
  if (ctx.NumInputs() != expected) {
    return RuleError(
        DiagCode::kSignature,
        StrCat("expected ", expected,
               " inputs (one per output plus the non-differentiable ones), got ", ctx.NumInputs()));
  }
  for (int i = 0, j = 0; i < ctx.NumInputs(); ++i) {
    if (skip.count(i)) continue;
    ctx.PropagateElemType(i, j);
    if (const Shape* s = ctx.InputShape(i); s && full_shape.count(i)) ctx.SetOutputShape(j, *s);
    ++j;
  }
  return OkStatus();
}

// ---- Gradients

// SimplifiedLayerNormalizationGrad(Y_grad, X, scale, inv_std_var): X_grad has X's type and
// shape, scale_grad scale's.
Status InferSimplifiedLayerNormalizationGrad(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(1));
  if (ctx.NumOutputs() > 1) ctx.SetOutputType(1, ctx.InputType(2));
  return OkStatus();
}

}  // namespace

Status RegisterComMicrosoftTrainingRules(SchemaRegistry& r) {
  const char* ms = "com.microsoft";
  OI_RETURN_IF_ERROR(r.AttachRule("org.pytorch.aten", "ATen", {1}, InferATen));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "ConcatTraining", {1}, InferConcatTraining));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "SplitTraining", {1}, InferSplitTraining));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "YieldOp", {1}, InferYieldOp));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "SimplifiedLayerNormalizationGrad", {1},
                                  InferSimplifiedLayerNormalizationGrad));
  // dX is dY's type and shape: the kernels allocate the output as dY.
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "QuickGeluGrad", {1}, InferSameAsInput));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "SoftmaxGrad_13", {1}, InferSameAsInput));
  return OkStatus();
}

}  // namespace onnx_infer
