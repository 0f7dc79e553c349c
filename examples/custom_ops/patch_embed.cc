// A custom operator with a hand-written C++ rule, and an infer-shapes that knows it.
//
// com.example::PatchEmbed cuts images X[N, C, H, W] into patches of `patch` x `patch` pixels
// and flattens each: Y[N, (H / patch) * (W / patch), C * patch * patch].
#include "onnx_infer/base/strings.h"
#include "onnx_infer/cli/cli.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/registry.h"

namespace example {

using onnx_infer::Dim;
using onnx_infer::InferenceContext;
using onnx_infer::OkStatus;
using onnx_infer::Shape;
using onnx_infer::Status;
using onnx_infer::StrCat;

// Sets what it can decide; returns an error only when the inputs contradict the operator.
Status InferPatchEmbed(InferenceContext& ctx) {
  ctx.PropagateElemType(/*in=*/0, /*out=*/0);
  OI_ASSIGN_OR_RETURN(int64_t patch, ctx.IntAttr("patch"));
  if (patch <= 0) return Status::Error(StrCat("attribute 'patch': expected > 0, got ", patch));
  const Shape* x = ctx.InputShape(0);
  if (!x) return OkStatus();  // rank unknown: so is the output's shape
  if (x->size() != 4) {
    return Status::Error(StrCat("input 0: expected rank 4 [N, C, H, W], got rank ", x->size()));
  }
  const Dim p = Dim::Const(patch);
  const Dim n = (*x)[0], c = (*x)[1], h = (*x)[2], w = (*x)[3];
  for (Dim d : {h, w}) {
    if (auto v = d.const_value(); v && *v % patch != 0) {
      return Status::Error(
          StrCat("input 0: ", *v, " pixels do not divide into patches of ", patch));
    }
  }
  ctx.SetOutputShape(0, Shape{n, Dim::FloorDiv(h, p) * Dim::FloorDiv(w, p), c * p * p});
  return OkStatus();
}

void RegisterExampleOps(onnx_infer::SchemaRegistry& registry) {
  Status st = registry.Register(
      onnx_infer::OpSchema("com.example", "PatchEmbed", 1)
          .Input("X", "T")
          .Output("Y", "T")
          .Attr("patch", onnx_infer::onnx::AttributeProto::INT, /*required=*/true)
          .TypeConstraint("T", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"})
          .Rule(InferPatchEmbed));
  if (!st.ok()) std::abort();  // a programming error in this file, not bad input
}

}  // namespace example

int main(int argc, char** argv) {
  onnx_infer::SchemaRegistry registry = onnx_infer::BuiltinSchemas();
  example::RegisterExampleOps(registry);
  return onnx_infer::RunInferShapes(argc, argv, registry);
}
