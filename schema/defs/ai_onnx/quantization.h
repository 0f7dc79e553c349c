// QuantizeLinear and DequantizeLinear of quantization.cc, for rules of other domains whose
// operators share them (com.microsoft's QuantizeLinear and DequantizeLinear).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_QUANTIZATION_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_QUANTIZATION_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// The QuantizeLinear (DequantizeLinear) rule of ai.onnx version `onnx_version` (10, 13, 19,
// 21, 23...): output type and x's shape, scale and zero point checked against x. Inputs are
// x, scale, optional zero point.
Status InferQuantizeLinearAsVersion(InferenceContext& ctx, int onnx_version);
Status InferDequantizeLinearAsVersion(InferenceContext& ctx, int onnx_version);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_QUANTIZATION_H_
