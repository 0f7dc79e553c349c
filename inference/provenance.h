// What the driver records per node for `infer-shapes --explain` (inference/explain.h), only
// when InferenceOptions::record_provenance asks for it: how the node was inferred and which
// input and output values were known. Normal runs record nothing.
#ifndef ONNX_INFER_INFERENCE_PROVENANCE_H_
#define ONNX_INFER_INFERENCE_PROVENANCE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace onnx_infer {

struct NodeProvenance {
  enum class How : uint8_t {
    kNotRun,    // not inferred: an input undefined, or the wrong number of inputs or outputs
    kRule,      // the operator's rule ran
    kFunction,  // inferred through a function body (model-local, or ONNX's for the operator)
    kNoRule,    // a schema without a rule or body: only what the signature says
    kNoSchema,  // no schema (unknown or custom operator, missing opset import)
  };
  // Bits of `inputs` and `outputs`.
  static constexpr uint8_t kValueKnown = 1;    // the value was known, every element
  static constexpr uint8_t kValuePartial = 2;  // the value was known, some element unknown
  static constexpr uint8_t kValueAsked = 4;    // inputs: the rule asked for it and it was absent

  How how = How::kNotRun;
  bool rule_failed = false;  // the rule returned an error (a contradiction)
  std::vector<uint8_t> inputs;
  std::vector<uint8_t> outputs;
};

// Per graph path ("main", "main/If_3.then_branch"), per node index. A subgraph inferred in
// several passes (a Loop body) keeps its last pass's.
struct Provenance {
  std::map<std::string, std::vector<NodeProvenance>, std::less<>> graphs;

  // Null when the node was not recorded.
  const NodeProvenance* Find(const std::string& graph, int node) const {
    auto it = graphs.find(graph);
    if (it == graphs.end() || node < 0 || node >= static_cast<int>(it->second.size())) {
      return nullptr;
    }
    return &it->second[node];
  }
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_PROVENANCE_H_
