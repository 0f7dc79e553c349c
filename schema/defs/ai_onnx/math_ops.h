// Pieces of math_ops.cc that other operator families share (com.microsoft's Inverse, Rfft
// and Irfft).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_MATH_OPS_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_MATH_OPS_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// Input `input` (shape `in`) holds matrices [*, M, M]: rank >= 2 and its last two dims equal
// (recorded). Returns M, the more specific of the two.
StatusOr<Dim> SquareMatrixDim(InferenceContext& ctx, int input, const Shape& in);

// floor(n / 2) + 1: the bins of a one-sided spectrum of n points.
Dim OnesidedBins(Dim n);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_MATH_OPS_H_
