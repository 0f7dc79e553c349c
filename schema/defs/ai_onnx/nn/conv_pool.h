// Output shapes of the convolutions and pools of nn/conv_pool.cc, for rules of other domains
// whose operators share them (com.microsoft's QLinearConv, QLinearAveragePool, NhwcConv,
// ConvTransposeWithDynamicPads).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_NN_CONV_POOL_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_NN_CONV_POOL_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

// Conv's output for X at input x_index, W [M, C/group, k1, ...] at w_index and an optional
// bias [M] at b_index (-1: none), with the node's kernel_shape, strides, dilations, pads,
// auto_pad and group: [N, M, out1, ...], or with channels_last X [N, D1, ..., C] and output
// [N, out1, ..., M] (W keeps its layout). Empty when X's shape is unknown.
StatusOr<Shape> ConvOutputShape(InferenceContext& ctx, int x_index, int w_index, int b_index,
                                bool channels_last);

// A pool's output for X at input x_index over the required kernel_shape, with the node's
// strides, pads, auto_pad, ceil_mode (and dilations where the schema has them):
// [N, C, out1, ...], or [N, out1, ..., C] with channels_last. Empty when X's shape is unknown.
StatusOr<Shape> PoolOutputShape(InferenceContext& ctx, int x_index, bool channels_last);

// ConvTranspose's output for X at input 0, W [C, M/group, k1, ...] at input 1 and an optional
// bias [M] at b_index, with pads given by value rather than by attribute (com.microsoft's
// ConvTransposeWithDynamicPads): [N, M, out1, ...]. The pads apply under NOTSET and VALID alike,
// as onnxruntime's kernel applies them; nullopt (pads not known) leaves those spatial dims
// unknown, while SAME_* and output_shape need no pads. Empty when X's shape is unknown.
StatusOr<Shape> ConvTransposeOutputShape(InferenceContext& ctx, int b_index,
                                         const std::optional<std::vector<int64_t>>& pads);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_NN_CONV_POOL_H_
