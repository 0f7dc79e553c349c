// Pieces of shape.cc that other operator families share (com.microsoft's ExpandDims, the
// default domain's DynamicSlice).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_SHAPE_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_SHAPE_H_

#include <cstdint>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// Output 0 is input 0 (shape `in`) with dims of 1 inserted at `axes`, which index the
// output's rank; input 0's value, when known, is carried over. An error names a repeated or
// out-of-range axis.
Status UnsqueezeAt(InferenceContext& ctx, const Shape& in, const std::vector<int64_t>& axes);

// Slice with starts, ends, axes and steps read from inputs 1-4 (`from_inputs`, Slice from
// version 10), or from attributes (Slice 1).
Status InferSliceOf(InferenceContext& ctx, bool from_inputs);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_SHAPE_H_
