#include "onnx_infer/inference/infer_shapes.h"

#include "onnx_infer/inference/driver.h"

namespace onnx_infer {

bool InferenceResult::HasCode(DiagCode code, std::optional<Severity> severity) const {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
    return d.code == code && (!severity || d.severity == *severity);
  });
}

int64_t InferenceResult::CountOf(Severity severity) const {
  int64_t n = 0;
  for (const auto& d : diagnostics) n += d.severity == severity;
  return n;
}

const Type* InferenceResult::TypeOf(std::string_view graph_path, std::string_view name) const {
  auto graph = value_types.find(graph_path);
  return graph == value_types.end() ? nullptr : graph->second.Find(name);
}

OpsetImports ReadOpsetImports(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
  OpsetImports opsets;
  for (const auto& opset : imports) {
    opsets[std::string(CanonicalDomain(opset.domain()))] = opset.version();
  }
  return opsets;
}

bool NodeInferenceResult::HasErrors() const {
  for (const auto& d : diagnostics) {
    if (d.severity == Severity::kError) return true;
  }
  return false;
}

const Type* NodeInferenceResult::OutputType(std::string_view name) const {
  for (size_t o = 0; o < output_names.size(); ++o) {
    if (!name.empty() && output_names[o] == name) return &output_types[o];
  }
  return nullptr;
}

std::map<std::string, onnx::TypeProto> NodeInferenceResult::OutputTypeProtos() const {
  std::map<std::string, onnx::TypeProto> protos;
  for (size_t o = 0; o < output_names.size(); ++o) {
    if (output_names[o].empty() || output_types[o].is_unknown()) continue;
    protos[output_names[o]] = TypeToProto(output_types[o]);
  }
  return protos;
}

using driver_internal::Driver;
using driver_internal::Opsets;

namespace driver_internal {

ValueStatsClass ClassifyValueStats(const Type& type) {
  if (type.is_unknown() || (type.is_tensor() && type.elem_type() == 0)) {
    return ValueStatsClass::kUnknown;
  }
  if (type.IsStatic()) return ValueStatsClass::kStatic;
  if (type.IsComplete()) return ValueStatsClass::kSymbolic;
  if (type.has_shape() || (!type.is_tensor() && type.kind() != Type::Kind::kSparseTensor)) {
    return ValueStatsClass::kPartial;
  }
  return ValueStatsClass::kTypeOnly;
}

}  // namespace driver_internal

void CountValueStats(const Type& type, int64_t n, InferenceStats& stats) {
  driver_internal::AddValueStats(driver_internal::ClassifyValueStats(type), n, stats);
}

InferenceResult InferShapes(onnx::ModelProto& model, const SchemaRegistry& registry,
                            const InferenceOptions& options) {
  InferenceResult result;
  result.symbol_context =
      options.symbol_context ? options.symbol_context : std::make_shared<symbolic::SymbolContext>();
  symbolic::SymbolContext::Scope symbols(*result.symbol_context);
  // A model built in memory went through no parser's depth limit; every walker below recurses.
  if (Status nesting = CheckNesting(model); !nesting.ok()) {
    Diagnostic d;
    d.graph = "main";
    d.code = DiagCode::kNestingLimit;
    d.message = StrCat("the model is not inferred: ", nesting.message());
    result.diagnostics.push_back(std::move(d));
    return result;
  }
  Driver(model, registry, options, result).Run();
  return result;
}

NodeInferenceResult InferNodeOutputs(const SchemaRegistry& registry, const onnx::NodeProto& node,
                                     const OpsetImports& opsets,
                                     const std::vector<Type>& input_types,
                                     const std::vector<std::optional<ConstValue>>& input_values,
                                     const InferenceOptions& options) {
  Opsets canonical;
  for (const auto& [domain, version] : opsets) {
    canonical[std::string(CanonicalDomain(domain))] = version;
  }
  // The caller's input Dims live in the current context (or the one options name), so the
  // outputs are made there too: a context of the call's own would mix the two.
  if (Status nesting = CheckNesting(node); !nesting.ok()) {
    NodeInferenceResult refused;
    refused.output_names.assign(node.output().begin(), node.output().end());
    refused.output_types.resize(node.output_size());
    refused.output_values.resize(node.output_size());
    Diagnostic d;
    d.node_index = 0;
    d.node_name = node.name();
    d.code = DiagCode::kNestingLimit;
    d.message = StrCat("the node is not inferred: ", nesting.message());
    refused.diagnostics.push_back(std::move(d));
    return refused;
  }
  std::optional<symbolic::SymbolContext::Scope> symbols;
  if (options.symbol_context) symbols.emplace(*options.symbol_context);
  InferenceResult scratch;  // the driver's per-run state; its findings are the node's
  return Driver(registry, options, scratch, std::move(canonical))
      .InferLoneNode(node, input_types, input_values);
}

NodeInferenceResult InferNodeOutputsByName(
    const SchemaRegistry& registry, const onnx::NodeProto& node, const OpsetImports& opsets,
    const std::map<std::string, onnx::TypeProto>& input_types,
    const std::map<std::string, onnx::TensorProto>& input_values, const InferenceOptions& options) {
  std::vector<Type> types(node.input_size());
  std::vector<std::optional<ConstValue>> values(node.input_size());
  for (int i = 0; i < node.input_size(); ++i) {
    const std::string& name = node.input(i);
    if (name.empty()) continue;
    auto type = input_types.find(name);
    auto value = input_values.find(name);
    if (type != input_types.end()) {
      // A type nested past the limit stays unknown; the node's inference then says so.
      if (CheckNesting(type->second).ok()) types[i] = TypeFromProto(type->second);
    } else if (value != input_values.end()) {
      types[i] = TypeOfTensor(value->second);
    }
    if (value != input_values.end()) {
      values[i] = ConstValueOfTensor(value->second, options.max_value_elements);
    }
  }
  return InferNodeOutputs(registry, node, opsets, types, values, options);
}

const char* DeclaredPolicyName(DeclaredPolicy p) {
  switch (p) {
    case DeclaredPolicy::kInferred:
      return "inferred";
    case DeclaredPolicy::kRefine:
      return "refine";
    case DeclaredPolicy::kOverride:
      return "override";
    case DeclaredPolicy::kStrict:
      return "strict";
  }
  return "inferred";
}

std::optional<DeclaredPolicy> ParseDeclaredPolicy(std::string_view name) {
  for (DeclaredPolicy p : {DeclaredPolicy::kInferred, DeclaredPolicy::kRefine,
                           DeclaredPolicy::kOverride, DeclaredPolicy::kStrict}) {
    if (name == DeclaredPolicyName(p)) return p;
  }
  return std::nullopt;
}

}  // namespace onnx_infer
