// Memory estimates (`infer-shapes --memory`; the model of liveness is in docs/memory.md): the
// size in bytes of every value, as an expression of the model's symbols; the bytes of the
// weights; and the peak bytes of the activations live at once while the main graph's nodes
// run one after the other in the model's order.
//
//   InferenceResult result = InferShapes(model, BuiltinSchemas(), options);
//   MemoryEstimate memory = EstimateMemory(model, result);   // `model` as annotated
//   std::cout << memory.weight_bytes << " bytes of weights, peak "
//             << memory.peak_bytes << " bytes of activations\n";  // "602112*N"
//
// Sizes are elements x element size; a tensor of a sub-byte type (int4, uint4, float4e2m1,
// int2, uint2) is packed as ONNX stores it and rounded up to whole bytes. A value whose size
// the type does not say (a dim or the rank unknown, strings, sequences, maps, optionals,
// sparse tensors) is of unknown size: it is counted, not guessed, and sums leave it out.
// Evaluated under InferenceOptions::bind when the inference had bindings, since the types are
// then concrete.
#ifndef ONNX_INFER_INFERENCE_MEMORY_H_
#define ONNX_INFER_INFERENCE_MEMORY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/type.h"
#include "onnx_infer/symbolic/context.h"
#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer {

// The bytes a value of `type` holds: elements x element size, sub-byte types rounded up;
// unknown when the type does not say. Made in the current context.
symbolic::Dim BytesOfType(const Type& type);

struct ValueBytes {
  std::string graph;  // "main", "main/If_3.then_branch" (InferenceResult::value_types' paths)
  std::string name;
  symbolic::Dim bytes;  // unknown when the type does not say
};

// One node of the main graph, as it runs.
struct MemoryStep {
  int node_index = -1;  // in the graph's node list
  std::string node_name;
  std::string op_type;
  // The activations live while the node runs (its inputs still needed, its outputs, every
  // value produced before and consumed after it), plus the peak of its subgraphs.
  symbolic::Dim live_bytes;
  int64_t unknown_values = 0;  // live activations of unknown size, left out of live_bytes
};

struct MemoryEstimate {
  // Every value InferenceResult::value_types lists (graph inputs, node outputs, graph outputs
  // of every graph), by graph path, in the model's order.
  std::vector<ValueBytes> values;
  // The weights: initializers (stored inline or externally, by their dims), sparse
  // initializers and the values of Constant nodes, of the main graph and every subgraph.
  symbolic::Dim weight_bytes;
  int64_t weights = 0;               // how many
  int64_t weights_unknown_size = 0;  // strings: left out of weight_bytes
  // The main graph's nodes in the order they run (the model's, when it is topological).
  std::vector<MemoryStep> steps;
  // The largest live_bytes of the steps. When one step's total is provably at least every
  // other's for every value of the symbols, it is that total and peak_decided is true; else
  // the symbols decide which step is largest, peak_bytes is Max(...) of the totals that may
  // be (unknown if that expression grows past the size cap) and peak_steps lists them all.
  symbolic::Dim peak_bytes;
  bool peak_decided = false;
  std::vector<int> peak_steps;  // indices into `steps`
  // Activations (graph inputs and node outputs of the main graph and subgraphs) whose size
  // is unknown: the totals above are then lower bounds.
  int64_t unknown_activations = 0;
  // The context of the Dims above (the result's), kept alive with them.
  std::shared_ptr<symbolic::SymbolContext> symbol_context;
};

// Estimates the memory of `model`, annotated by the inference that gave `result`.
MemoryEstimate EstimateMemory(const onnx::ModelProto& model, const InferenceResult& result);

// A byte count for people: "602112*N", or for a constant "4482816 (4.3 MiB)".
std::string FormatBytes(const symbolic::Dim& bytes);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_MEMORY_H_
