// Rules of nn/attention.cc that com.microsoft's versions of the same operators share.
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_NN_ATTENTION_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_NN_ATTENTION_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// CausalConvWithState, ai.onnx 27 and com.microsoft 1 (whose ndim, dilation, channels_last and
// state_window attributes ai.onnx's lacks, so there they take their defaults).
Status InferCausalConvWithState(InferenceContext& ctx);

// Which LinearAttention: ai.onnx's (q_num_heads a multiple of kv_num_heads; present_state of
// query's type without past_state) or com.microsoft's (also inverse GQA, kv_num_heads a
// multiple of q_num_heads, which emits one output per KV head; present_state's type only from
// past_state; a state_window axis).
enum class LinearAttentionForm { kOnnx, kContrib };

// LinearAttention: query [b, t, qh * dk], key [b, t, kvh * dk], value [b, t, kvh * dv],
// past_state and present_state [b, kvh, dk, dv] ([W, b, kvh, dk, dv] with state_window W > 0),
// output [b, t, max(qh, kvh) * dv].
Status InferLinearAttentionOf(InferenceContext& ctx, LinearAttentionForm form);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_NN_ATTENTION_H_
