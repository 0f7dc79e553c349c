// The function-call expansion budget (docs/limits.md): how many nodes one inference run may
// infer inside function bodies and subgraphs, in total. Inferring a call of a model-local
// function infers its body once more, so functions that each call the previous one twice
// ("billion laughs") double the work at every level; recursion detection cannot see that,
// a total can. The driver charges each function body and subgraph before inferring it.
#ifndef ONNX_INFER_INFERENCE_EXPANSION_BUDGET_H_
#define ONNX_INFER_INFERENCE_EXPANSION_BUDGET_H_

#include <cstdint>
#include <string>

namespace onnx_infer {

class ExpansionBudget {
 public:
  // `limit` nodes in all (InferenceOptions::max_expanded_nodes); 0 or less: no body at all.
  explicit ExpansionBudget(int64_t limit) : limit_(limit) {}

  // Takes `nodes` (a body's node count, at least 1 charged) from the budget; false, taking
  // nothing, when that would exceed the limit: the body is then not inferred.
  bool Charge(int64_t nodes);

  // The diagnostic for a body left out: "function call expansion limit reached: inferring
  // this would exceed 200000 nodes in function bodies and subgraphs in all
  // (--max-expanded-nodes; InferenceOptions::max_expanded_nodes); not inferred".
  std::string Message() const;
  // True the first time only: a run reports the limit once, at the first body left out.
  bool FirstRefusal();

  int64_t used() const { return used_; }
  int64_t limit() const { return limit_; }

 private:
  int64_t limit_;
  int64_t used_ = 0;
  bool refused_ = false;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_EXPANSION_BUDGET_H_
