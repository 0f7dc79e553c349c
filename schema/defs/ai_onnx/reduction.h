// Reductions of reduction.cc, for rules of other domains whose operators share them
// (com.microsoft's QLinearReduceMean, ReduceSumInteger).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_REDUCTION_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_REDUCTION_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// A Reduce* rule whose axes are the `axes` attribute (absent or empty: every axis), as before
// ai.onnx 13/18: output 0 has input 0's element type and its shape with the reduced dims
// dropped, or kept as 1 with `keepdims` (default 1).
Status InferReduceWithAxesAttribute(InferenceContext& ctx);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_REDUCTION_H_
