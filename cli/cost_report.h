// What `infer-shapes --cost` prints and reports (docs/cost.md): the model's FLOPs and MACs as
// expressions, their values under the --bind values, and the costliest nodes.
#ifndef ONNX_INFER_CLI_COST_REPORT_H_
#define ONNX_INFER_CLI_COST_REPORT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "onnx_infer/inference/cost.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

// A model's cost, and its numbers under the binding when one was given.
struct CostReport {
  CostEstimate cost;
  CostBinding binding;
  std::optional<CostValues> values;  // with a binding
};

// The cost of a run. `symbolic` is the estimate from an inference without the bindings (its
// expressions are evaluated under `binding`); `bound`, from the run with them, gives the
// numbers of nodes whose expression does not evaluate (a shape only the binding made known).
// With an empty binding, `bound` is not read.
CostReport MakeCostReport(CostEstimate symbolic, const CostEstimate* bound,
                          const CostBinding& binding);

// The cost report of an `infer-shapes` run: `model` as annotated by the run that gave
// `result` with `options`. With bindings (options.bind), the expressions come from a second
// inference of `pristine` (the model as read, before the run specialized it) without them,
// evaluated under the bindings; without bindings, from `result`, and `pristine` is not read.
CostReport CostOfRun(const onnx::ModelProto& model, const InferenceResult& result,
                     onnx::ModelProto* pristine, const SchemaRegistry& registry,
                     const InferenceOptions& options);

// The text `--cost` prints: totals, the binding's values, what is missing, the top nodes.
void PrintCostReport(const CostReport& report, std::ostream& out, int top_nodes = 10);

// The `cost` section of the --json report.
nlohmann::json CostReportJson(const CostReport& report);

}  // namespace onnx_infer

#endif  // ONNX_INFER_CLI_COST_REPORT_H_
