// Pieces of math/math.cc that other operator families share: Gemm's shape (com.microsoft's
// QGemm), the square-matrix check (Inverse) and the one-sided spectrum size (Rfft, Irfft).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_MATH_MATH_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_MATH_MATH_H_

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

// Input `input` (shape `in`) holds matrices [*, M, M]: rank >= 2 and its last two dims equal
// (recorded). Returns M, the more specific of the two.
StatusOr<Dim> SquareMatrixDim(InferenceContext& ctx, int input, const Shape& in);

// floor(n / 2) + 1: the bins of a one-sided spectrum of n points.
Dim OnesidedBins(Dim n);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_MATH_MATH_H_
