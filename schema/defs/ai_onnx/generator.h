// Rules of generator.cc that other operator families share (com.microsoft's Range).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_GENERATOR_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_GENERATOR_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// Range: a 1-D tensor of max(ceil((limit - start) / delta), 0) elements, and its value when
// the bounds are known. An absent delta is 1.
Status InferRange(InferenceContext& ctx);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_GENERATOR_H_
