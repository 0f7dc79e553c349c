// Rules of resize.cc that other operator families share (com.microsoft's GridSample is ONNX's).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_RESIZE_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_RESIZE_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// GridSample: X [N, C, D1..Dr], grid [N, D1_out..Dr_out, r] give Y [N, C, D1_out..Dr_out];
// before version 20, 2-D only.
Status InferGridSample(InferenceContext& ctx);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_RESIZE_H_
