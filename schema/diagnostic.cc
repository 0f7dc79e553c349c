#include "onnx_infer/schema/diagnostic.h"

namespace onnx_infer {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

std::string Diagnostic::Render(std::string_view source) const {
  std::string out;
  if (!source.empty()) out.append(source).append(": ");
  out.append(SeverityName(severity)).append("[").append(CodeId(code)).append("]");
  std::string where;
  if (!graph.empty()) where.append("graph '").append(graph).append("' ");
  if (node_index >= 0) {
    where.append("node #").append(std::to_string(node_index));
    if (!node_name.empty()) where.append(" '").append(node_name).append("'");
    where.append(" ");
  }
  if (!op.empty()) where.append("(").append(op).append(") ");
  if (!where.empty()) {
    where.pop_back();
    out.append(": ").append(where);
  }
  out.append(": ").append(message);
  return out;
}

}  // namespace onnx_infer
