#include "onnx_infer/inference/value_types.h"

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

}  // namespace onnx_infer
