#include "onnx_infer/cli/explain_cli.h"

#include <map>
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

nlohmann::json ExplanationJson(const DimExplanation& e) {
  nlohmann::json chain = nlohmann::json::array();
  for (const auto& step : e.chain) {
    nlohmann::json j = {
        {"graph", step.graph}, {"value", step.value}, {"node", step.node}, {"note", step.note}};
    if (step.axis >= 0) j["axis"] = step.axis;
    if (step.of_value) j["of_value"] = true;
    if (step.node_index >= 0) j["node_index"] = step.node_index;
    chain.push_back(std::move(j));
  }
  nlohmann::json symbols = nlohmann::json::array();
  for (size_t i = 0; i < e.symbols.size(); ++i) {
    nlohmann::json j = {{"name", e.symbols[i].name},
                        {"declared", e.symbols[i].declared},
                        {"origin", e.symbols[i].origin}};
    if (i < e.symbol_reasons.size()) j["reason"] = ExplainReasonName(e.symbol_reasons[i]);
    symbols.push_back(std::move(j));
  }
  nlohmann::json j = {{"graph", e.graph},
                      {"value", e.value},
                      {"type", e.type},
                      {"what", e.what},
                      {"reason", ExplainReasonName(e.reason)},
                      {"detail", e.detail},
                      {"chain", std::move(chain)}};
  if (e.axis >= 0) j["axis"] = e.axis;
  if (!e.symbols.empty()) j["symbols"] = std::move(symbols);
  if (!e.input_value.empty()) j["input_value"] = e.input_value;
  return j;
}

nlohmann::json WhatIfJson(const std::vector<WhatIf>& what_if, const InferenceResult& result) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& w : what_if) {
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& k : w.input_values) inputs.push_back(k.name);
    runs.push_back({{"label", w.label},
                    {"bind", w.bind},
                    {"inputs", std::move(inputs)},
                    {"static", w.static_values},
                    {"gained", w.gained},
                    {"errors", w.errors}});
  }
  return {{"baseline_static", result.stats.static_shaped},
          {"values", result.stats.values},
          {"runs", std::move(runs)}};
}

}  // namespace

std::string RunExplain(const ExplainFlags& flags, const onnx::ModelProto& original,
                       const onnx::ModelProto& annotated, const SchemaRegistry& registry,
                       const InferenceOptions& options, const InferenceResult& result,
                       std::ostream& out, nlohmann::json* json) {
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
  nlohmann::json explained_json = nlohmann::json::array();
  bool summary = false;
  for (const auto& target : flags.targets) {
    if (target == "all") {
      summary = true;
      continue;
    }
    auto explained = ExplainTarget(annotated, result, target);
    if (!explained.ok()) return StrCat("--explain: ", explained.status().message());
    for (const auto& e : *explained) {
      out << FormatExplanation(e);
      if (json) explained_json.push_back(ExplanationJson(e));
    }
  }
  if (json) *json = {{"explanations", std::move(explained_json)}};
  if (summary || !flags.what_if.empty()) {
    std::vector<DimExplanation> unknown = ExplainAllUnknown(annotated, result);
    if (summary) {
      auto introduced = ExplainIntroducedSymbols(annotated, result);
      out << FormatExplainSummary(unknown, 3);
      out << FormatIntroducedSymbols(introduced, 3);
      if (json) {
        std::map<std::string, int64_t> by_reason;
        nlohmann::json all = nlohmann::json::array();
        for (const auto& e : unknown) {
          ++by_reason[ExplainReasonName(e.reason)];
          all.push_back(ExplanationJson(e));
        }
        nlohmann::json symbols = nlohmann::json::array();
        for (const auto& [info, reason] : introduced) {
          symbols.push_back({{"name", info.name},
                             {"origin", info.origin},
                             {"reason", ExplainReasonName(reason)}});
        }
        (*json)["unknown"] = std::move(all);
        (*json)["unknown_by_reason"] = std::move(by_reason);
        (*json)["introduced_symbols"] = std::move(symbols);
      }
    }
    {
      auto what_if = WhatIfBindings(original, registry, options, result, unknown, request);
      out << FormatWhatIf(what_if, result.stats.static_shaped, result.stats.values);
      if (json) (*json)["what_if"] = WhatIfJson(what_if, result);
    }
  }
  return "";
}

}  // namespace onnx_infer
