// Training operators of ai.onnx.preview.training: Adagrad, Adam, Momentum, Gradient.
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

// ---- ai.onnx.preview.training.

// The optimizers take R and T, then `in_groups` groups of n inputs (the tensors X, their
// gradients G, and their state: H for Adagrad, V for Momentum, V and H for Adam), and return
// groups of n outputs, each the new value of one input group (`out_groups`: the input
// group each output group updates). A new value has the type of the value it replaces.
Status InferOptimizer(InferenceContext& ctx, int in_groups, std::vector<int> out_groups,
                      std::string_view layout) {
  const int tensors = ctx.NumInputs() - 2;
  if (tensors < in_groups || tensors % in_groups != 0) {
    return RuleError(DiagCode::kSignature,
                     StrCat("expected 2 + ", in_groups, "n inputs (R, T, then ", layout,
                            " for each of n tensors), got ", ctx.NumInputs()));
  }
  const int n = tensors / in_groups;
  const int max_outputs = n * static_cast<int>(out_groups.size());
  if (ctx.NumOutputs() > max_outputs) {
    return RuleError(DiagCode::kSignature, StrCat("expected at most ", max_outputs, " outputs for ",
                                                  n, " optimized tensors, got ", ctx.NumOutputs()));
  }
  for (int o = 0; o < ctx.NumOutputs(); ++o) {
    const int in = 2 + out_groups[o / n] * n + o % n;
    OI_RETURN_IF_ERROR(RequireKind(ctx, in, {Type::Kind::kTensor}, "a tensor"));
    if (ctx.HasOutput(o)) ctx.SetOutputType(o, ctx.InputType(in));
  }
  return OkStatus();
}

// Adagrad: X, G, H -> X_new, H_new.
Status InferAdagrad(InferenceContext& ctx) { return InferOptimizer(ctx, 3, {0, 2}, "X, G and H"); }
// Momentum: X, G, V -> X_new, V_new.
Status InferMomentum(InferenceContext& ctx) { return InferOptimizer(ctx, 3, {0, 2}, "X, G and V"); }
// Adam: X, G, V, H -> X_new, V_new, H_new.
Status InferAdam(InferenceContext& ctx) {
  return InferOptimizer(ctx, 4, {0, 2, 3}, "X, G, V and H");
}

// Gradient: the inputs are values for the names in `xs` then `zs`; output i is the gradient
// of `y` with respect to xs[i], which has that input's type.
Status InferGradient(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::vector<std::string> xs, ctx.StringsAttr("xs"));
  OI_ASSIGN_OR_RETURN(auto zs, ctx.OptionalStringsAttr("zs"));
  const int num_xs = static_cast<int>(xs.size());
  const int num_zs = zs ? static_cast<int>(zs->size()) : 0;
  if (ctx.NumInputs() != num_xs + num_zs) {
    return RuleError(DiagCode::kSignature, StrCat("expected ", num_xs + num_zs,
                                                  " inputs (one per name in 'xs' "
                                                  "and 'zs'), got ",
                                                  ctx.NumInputs()));
  }
  if (ctx.NumOutputs() > num_xs) {
    return RuleError(DiagCode::kSignature, StrCat("expected at most ", num_xs,
                                                  " outputs (one per name in 'xs'), "
                                                  "got ",
                                                  ctx.NumOutputs()));
  }
  for (int o = 0; o < ctx.NumOutputs(); ++o) {
    const Type& x = ctx.InputType(o);
    if (ctx.HasOutput(o) && x.is_tensor()) ctx.SetOutputType(o, x);
  }
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxTrainingRules(SchemaRegistry& r) {
  constexpr std::string_view kTraining = "ai.onnx.preview.training";
  OI_RETURN_IF_ERROR(r.AttachRule(kTraining, "Adagrad", {1}, InferAdagrad));
  OI_RETURN_IF_ERROR(r.AttachRule(kTraining, "Adam", {1}, InferAdam));
  OI_RETURN_IF_ERROR(r.AttachRule(kTraining, "Momentum", {1}, InferMomentum));
  OI_RETURN_IF_ERROR(r.AttachRule(kTraining, "Gradient", {1}, InferGradient));
  return OkStatus();
}

}  // namespace onnx_infer
