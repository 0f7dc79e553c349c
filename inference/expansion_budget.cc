#include "onnx_infer/inference/expansion_budget.h"

#include <algorithm>

#include "onnx_infer/base/strings.h"

namespace onnx_infer {

bool ExpansionBudget::Charge(int64_t nodes) {
  nodes = std::max<int64_t>(nodes, 1);
  if (nodes > limit_ - used_) return false;
  used_ += nodes;
  return true;
}

std::string ExpansionBudget::Message() const {
  return StrCat("function call expansion limit reached: inferring this would exceed ", limit_,
                " nodes in function bodies and subgraphs in all (--max-expanded-nodes; "
                "InferenceOptions::max_expanded_nodes); not inferred");
}

bool ExpansionBudget::FirstRefusal() {
  const bool first = !refused_;
  refused_ = true;
  return first;
}

}  // namespace onnx_infer
