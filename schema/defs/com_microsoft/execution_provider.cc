// Nodes that hand part of a model to an execution provider (com.microsoft): EPContext holds
// a compiled context (or a path to one), Snpe a SNPE DLC. What their outputs are is written in
// that payload, which the model does not describe, so only the types their signatures fix are
// known; the model's own declarations of the outputs (value_info, graph outputs) say the rest.
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {
namespace {

// EPContext: inputs and outputs are heterogeneous; nothing is known of the outputs.
Status InferEPContext(InferenceContext&) { return OkStatus(); }

// Snpe: inputs and outputs are homogeneous, all of one element type T.
Status InferSnpe(InferenceContext& ctx) {
  for (int o = 0; o < ctx.NumOutputs(); ++o) ctx.PropagateElemType(0, o);
  return OkStatus();
}

}  // namespace

Status RegisterComMicrosoftExecutionProviderRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("com.microsoft", "EPContext", {1}, InferEPContext));
  OI_RETURN_IF_ERROR(r.AttachRule("com.microsoft", "Snpe", {1}, InferSnpe));
  return OkStatus();
}

}  // namespace onnx_infer
