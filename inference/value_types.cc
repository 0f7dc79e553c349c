#include "onnx_infer/inference/value_types.h"

#include <algorithm>

namespace onnx_infer {

const Type* GraphValueTypes::Find(std::string_view name) const {
  auto it = types.find(name);
  return it == types.end() ? nullptr : &it->second;
}

std::string FormatValues(const GraphValueTypes& graph) {
  std::string out;
  auto section = [&](std::string_view heading, const std::vector<std::string>& names) {
    out.append(heading).append(":\n");
    for (const auto& name : names) {
      const Type* type = graph.Find(name);
      out.append("  ").append(name).append(": ").append(type ? type->ToString() : "?");
      out.append("\n");
    }
  };
  section("inputs", graph.inputs);
  section("values", graph.values);
  section("outputs", graph.outputs);
  return out;
}

namespace {

void CollectSymbols(const Type& type, std::vector<std::string>& out) {
  switch (type.kind()) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor:
      if (!type.has_shape()) return;
      for (const Dim& d : type.shape()) {
        if (d.is_unknown() || d.is_const()) continue;
        for (const auto& name : d.Symbols()) {
          if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
        }
      }
      return;
    case Type::Kind::kSequence:
    case Type::Kind::kMap:
    case Type::Kind::kOptional:
      CollectSymbols(type.element(), out);
      return;
    default:
      return;
  }
}

std::string Knowledge(const Type& type) {
  if (type.is_unknown()) return "unknown";
  if (type.kind() != Type::Kind::kTensor && type.kind() != Type::Kind::kSparseTensor) {
    return "typed";
  }
  if (!type.has_shape()) return "type_only";
  bool symbolic = false;
  for (const Dim& d : type.shape()) {
    if (d.is_unknown()) return "partial";
    if (!d.is_const()) symbolic = true;
  }
  return symbolic ? "symbolic" : "static";
}

std::string Agreement(const Type& declared, const Type& inferred, std::string* detail) {
  auto merged = MergeTypes(declared, inferred);
  if (!merged.ok()) {
    *detail = merged.status().message();
    return "contradiction";
  }
  const bool adds_to_declared = !(*merged == declared);
  const bool adds_to_inferred = !(*merged == inferred);
  if (!adds_to_declared && !adds_to_inferred) return "same";
  if (!adds_to_inferred) return "inferred_more";
  if (!adds_to_declared) return "declared_more";
  return "both_more";
}

}  // namespace

std::vector<ValueReport> ReportValues(
    const std::map<std::string, GraphValueTypes, std::less<>>& value_types) {
  std::vector<ValueReport> out;
  for (const auto& [path, graph] : value_types) {
    auto add = [&, &path = path, &graph = graph](const std::string& name, const char* role) {
      ValueReport& v = out.emplace_back();
      v.graph = path;
      v.name = name;
      v.role = role;
      if (const Type* type = graph.Find(name)) v.type = *type;
      v.known = Knowledge(v.type);
      CollectSymbols(v.type, v.symbols);
      auto declared = graph.declared.find(name);
      auto inferred = graph.inferred.find(name);
      if (declared != graph.declared.end()) v.declared = declared->second;
      if (inferred != graph.inferred.end()) v.inferred = inferred->second;
      if (!v.declared) {
        v.agreement = "undeclared";
      } else if (!v.inferred) {
        v.agreement = "not_inferred";
      } else {
        v.agreement = Agreement(*v.declared, *v.inferred, &v.contradiction);
      }
    };
    for (const auto& name : graph.inputs) add(name, "input");
    for (const auto& name : graph.values) add(name, "value");
    for (const auto& name : graph.outputs) add(name, "output");
  }
  return out;
}

}  // namespace onnx_infer
