// Rules and pieces of tensor/indexing.cc that other operator families share (com.microsoft's
// Trilu, GatherND and Unique are ONNX's).
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_INDEXING_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_INDEXING_H_

#include <cstdint>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {

// Trilu: the input's type; the last two dims form the matrices.
Status InferTrilu(InferenceContext& ctx);
// GatherND: indices[:-1] + data[batch_dims + indices[-1]:] (batch_dims from version 12).
Status InferGatherND(InferenceContext& ctx);

// Split of every version (the sizes from attribute or input as the version takes them); also
// com.microsoft's SplitTraining, Split-13's form at version 1.
Status InferSplit(InferenceContext& ctx);

// How many unique pieces input 0 (X) splits into, among `length` pieces (its element count
// when `flattened`, else its slices along an axis): exact for a length of 0 or 1 or a known
// flattened X, else a fresh symbol named after output `out` dim `axis`, which every output of
// that length shares.
Dim UniqueCount(InferenceContext& ctx, Dim length, bool flattened, int out, int64_t axis);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_TENSOR_INDEXING_H_
