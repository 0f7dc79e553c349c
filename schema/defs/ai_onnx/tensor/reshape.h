// Shapes of tensor/reshape.cc's operators, for rules of other domains whose operators share them
// (com.microsoft's QLinearConcat).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_RESHAPE_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_RESHAPE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

// Concat of the listed inputs along `axis` (attribute 'axis', may be negative): they share a
// rank, every other dim unifies (recorded as a fact), the axis extent is the sum. Nothing
// when no input's shape is known.
StatusOr<std::optional<Shape>> ConcatOutputShape(InferenceContext& ctx,
                                                 const std::vector<int>& inputs, int64_t axis);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_RESHAPE_H_
