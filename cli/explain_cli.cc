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

// The graph that lists `name`: the main graph first, then the others in path order.
const std::string* GraphOf(const InferenceResult& result, const std::string& name) {
  auto main = result.value_types.find("main");
  if (main != result.value_types.end() && main->second.Find(name)) return &main->first;
  for (const auto& [path, listing] : result.value_types) {
    if (listing.Find(name)) return &path;
  }
  return nullptr;
}

// "VALUE" or "VALUE:AXIS"; a name containing ':' (onnx::Reshape_0) is read whole first.
std::string ParseTarget(const InferenceResult& result, const std::string& text,
                        const std::string** graph, std::string* value, int* axis) {
  *axis = -1;
  if ((*graph = GraphOf(result, text))) {
    *value = text;
    return "";
  }
  auto colon = text.rfind(':');
  if (colon != std::string::npos && colon + 1 < text.size() && colon + 10 > text.size() &&
      text.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    *value = text.substr(0, colon);
    *axis = std::stoi(text.substr(colon + 1));
    if ((*graph = GraphOf(result, *value))) return "";
  }
  return StrCat("--explain: the model has no value '", text, "'");
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
    const std::string* graph = nullptr;
    std::string value;
    int axis = -1;
    if (std::string error = ParseTarget(result, target, &graph, &value, &axis); !error.empty()) {
      return error;
    }
    auto explained = ExplainValue(annotated, result, *graph, value, axis);
    if (!explained.ok()) return StrCat("--explain: ", explained.status().message());
    for (const auto& e : *explained) out << FormatExplanation(e);
  }
  if (summary || !flags.what_if.empty()) {
    std::vector<DimExplanation> unknown = ExplainAllUnknown(annotated, result);
    if (summary) out << FormatExplainSummary(unknown, 3);
    {
      auto what_if = WhatIfBindings(original, registry, options, result, unknown, request);
      out << FormatWhatIf(what_if, result.stats.static_shaped, result.stats.values);
    }
  }
  return "";
}

}  // namespace onnx_infer
