#include "onnx_infer/cli/lint_cli.h"

#include <string>

namespace onnx_infer {

void PrintFindings(const std::vector<LintFinding>& findings, std::string_view file, bool full,
                   std::ostream& out) {
  for (const LintFinding& f : findings) {
    std::string text = f.Render(file);
    if (!full) text = text.substr(0, text.find('\n'));
    out << text << "\n";
  }
}

nlohmann::json FindingsJson(const std::vector<LintFinding>& findings) {
  nlohmann::json list = nlohmann::json::array();
  for (const LintFinding& f : findings) {
    nlohmann::json j = {{"id", f.id},           {"severity", std::string(SeverityName(f.severity))},
                        {"graph", f.graph},     {"subject", f.subject},
                        {"message", f.message}, {"pattern", f.pattern},
                        {"fix", f.fix}};
    if (f.node_index >= 0) {
      j["node"] = {{"index", f.node_index}, {"name", f.node_name}, {"op", f.op}};
    }
    list.push_back(std::move(j));
  }
  return list;
}

}  // namespace onnx_infer
