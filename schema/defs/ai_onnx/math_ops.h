// Shapes of math_ops.cc's operators, for rules of other domains whose operators share them
// (com.microsoft's QGemm).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_MATH_OPS_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_MATH_OPS_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

// Gemm's Y [M, N] from A at a_index and B at b_index (rank 2, transposed by the node's transA
// and transB) and an optional C at c_index (-1: none) that broadcasts unidirectionally to
// [M, N], or must be [M, N] with `exact_c`. The contracted dims, and a C dim that fixes an
// output dim, are recorded as equal; a contradiction is an error.
StatusOr<Shape> GemmOutputShape(InferenceContext& ctx, int a_index, int b_index, int c_index,
                                bool exact_c);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_MATH_OPS_H_
