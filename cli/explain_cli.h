// infer-shapes --explain and --what-if (docs/cli.md, "Explaining unknown dims"): the part of
// the command that prints explanations, kept apart from the flag parsing of
// infer_shapes_main.cc.
#ifndef ONNX_INFER_CLI_EXPLAIN_CLI_H_
#define ONNX_INFER_CLI_EXPLAIN_CLI_H_

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

struct ExplainFlags {
  std::vector<std::string> targets;  // --explain: "all", "VALUE" or "VALUE:AXIS"
  std::vector<std::string> what_if;  // --what-if: "S=128" (a symbol) or "sr=16000" (an input)
  bool requested() const { return !targets.empty() || !what_if.empty(); }
};

// Prints the explanations and the what-if counts to `out`. `original` is the model as loaded,
// `annotated` the same after InferShapes gave `result` (with options.record_provenance).
// With `json`, also sets it to the report's "explain" section (docs/report.schema.json):
// the explanations asked for, with `all` every unknown and the counts by reason and the
// symbols inference introduced, and the what-if runs. Returns "" or a usage error (a value
// the model does not have, a --what-if that is not NAME=VALUE).
std::string RunExplain(const ExplainFlags& flags, const onnx::ModelProto& original,
                       const onnx::ModelProto& annotated, const SchemaRegistry& registry,
                       const InferenceOptions& options, const InferenceResult& result,
                       std::ostream& out, nlohmann::json* json = nullptr);

}  // namespace onnx_infer

#endif  // ONNX_INFER_CLI_EXPLAIN_CLI_H_
