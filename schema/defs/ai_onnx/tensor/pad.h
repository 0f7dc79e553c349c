// Pad's rule for every version form; com.microsoft's Pad is ONNX's.
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_PAD_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_PAD_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// What a version of Pad has.
struct PadForm {
  bool pads_input = true;   // the pads are input 1 (else the `pads`/`paddings` attribute)
  bool wrap_mode = false;   // mode 'wrap' is allowed
  bool axes_input = false;  // input 3 says which dims the pads refer to
};

// Pad: each padded dim grows by its begin and end pads (negative pads crop); the pads'
// values are read flat, [x1_begin, x2_begin, ..., x1_end, x2_end, ...].
Status InferPadOf(InferenceContext& ctx, const PadForm& form);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_PAD_H_
