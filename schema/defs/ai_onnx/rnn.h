// Pieces of rnn.cc that other operator families share (com.microsoft's AttnLSTM is an
// LSTM around an attention wrapper).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_RNN_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_RNN_H_

#include <cstdint>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// RNN (gates = 1), GRU (3) and LSTM (4): X, W, R, B, sequence_lens, initial_h, initial_c, P in,
// Y, Y_h, Y_c out, with hidden_size, num_directions and batch_size unified across them. W's
// last dim is X's input_size when `w_spans_input`; AttnLSTM's W also spans the attention.
Status InferRecurrent(InferenceContext& ctx, int64_t gates, bool w_spans_input = true);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_RNN_H_
