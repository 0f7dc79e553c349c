#include "schema/diagnostic.h"

namespace onnx_infer {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

std::string Diagnostic::Render(std::string_view source) const {
  std::string out;
  if (!source.empty()) out.append(source).append(": ");
  out.append(SeverityName(severity)).append(": ");
  if (!graph.empty()) out.append("graph '").append(graph).append("' ");
  if (node_index >= 0) {
    out.append("node #").append(std::to_string(node_index));
    if (!node_name.empty()) out.append(" '").append(node_name).append("'");
    out.append(" ");
  }
  if (!op.empty()) out.append("(").append(op).append(") ");
  if (out.back() == ' ') out.back() = ':';
  else out.append(":");
  out.append(" ").append(message);
  return out;
}

}  // namespace onnx_infer
