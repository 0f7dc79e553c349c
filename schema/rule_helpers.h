// Building blocks shared by inference rules: broadcasting, unification, elementwise families.
#ifndef ONNX_INFER_SCHEMA_RULE_HELPERS_H_
#define ONNX_INFER_SCHEMA_RULE_HELPERS_H_

#include "base/status.h"
#include "schema/inference_context.h"
#include "schema/type.h"

namespace onnx_infer {

// One dim of a multidirectional broadcast (ONNX Broadcasting.md): equal dims stay, a 1 gives
// way to the other, a constant other than 1 wins over a symbol (the symbol must be it or 1).
// Two different symbols, or a symbol and an unknown, give unknown. Two different constants,
// neither 1, are an error.
StatusOr<Dim> BroadcastDim(Dim a, Dim b);
// Multidirectional broadcast of two shapes, aligned at the right.
StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b);

// Two dims that must be equal (MatMul's contracted dims, Concat's other axes): the more
// specific one (constant over symbol over unknown). Two different constants are an error.
StatusOr<Dim> UnifyDim(Dim a, Dim b);

// Product of dims (unknown if any factor is).
Dim Product(const Shape& dims);

// Rule families.
// Output 0 has input 0's type (tensors keep shape and element type).
Status InferSameAsInput(InferenceContext& ctx);
// Output 0 is input 0's element type with the broadcast shape of all inputs. Before opset 7
// (`broadcast`/`axis` attributes) the output has input 0's shape.
Status InferBroadcastElementwise(InferenceContext& ctx);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_RULE_HELPERS_H_
