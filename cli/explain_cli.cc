#include "onnx_infer/cli/explain_cli.h"

#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/inference/explain.h"
#include "onnx_infer/inference/specialize.h"

namespace onnx_infer {
namespace {

bool IsMainInput(const onnx::ModelProto& model, const std::string& name) {
  for (const auto& input : model.graph().input()) {
    if (input.name() == name) return true;
  }
  return false;
}

}  // namespace

std::string RunExplain(const ExplainFlags& flags, const onnx::ModelProto& original,
                       const onnx::ModelProto& annotated, const SchemaRegistry& registry,
                       const InferenceOptions& options, const InferenceResult& result,
                       std::ostream& out) {
  WhatIfRequest request;
  for (const auto& text : flags.what_if) {
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
      return StrCat("--what-if '", text, "': expected NAME=VALUE (a symbol or a graph input)");
    }
    const std::string name = text.substr(0, eq);
    if (IsMainInput(original, name)) {
      auto value = ParseInputValue(text);
      if (!value.ok()) return StrCat("--what-if: ", value.status().message());
      request.inputs.push_back(*value);
      continue;
    }
    auto binding = ParseBindings(text);
    if (!binding.ok()) return StrCat("--what-if: ", binding.status().message());
    for (const auto& [symbol, v] : *binding) request.symbols[symbol] = v;
  }
  bool summary = false;
  for (const auto& target : flags.targets) {
    if (target == "all") {
      summary = true;
      continue;
    }
    std::string graph, value;
    int axis = -1;
    if (Status st = ResolveExplainTarget(result, target, &graph, &value, &axis); !st.ok()) {
      return StrCat("--explain: ", st.message());
    }
    auto explained = ExplainValue(annotated, result, graph, value, axis);
    if (!explained.ok()) return StrCat("--explain: ", explained.status().message());
    for (const auto& e : *explained) out << FormatExplanation(e);
  }
  if (summary || !flags.what_if.empty()) {
    std::vector<DimExplanation> unknown = ExplainAllUnknown(annotated, result);
    if (summary) {
      out << FormatExplainSummary(unknown, 3);
      out << FormatIntroducedSymbols(ExplainIntroducedSymbols(annotated, result), 3);
    }
    {
      auto what_if = WhatIfBindings(original, registry, options, result, unknown, request);
      out << FormatWhatIf(what_if, result.stats.static_shaped, result.stats.values);
    }
  }
  return "";
}

}  // namespace onnx_infer
