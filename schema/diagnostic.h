// Diagnostic: one finding of inference, with everything a reader needs to find its cause.
#ifndef ONNX_INFER_SCHEMA_DIAGNOSTIC_H_
#define ONNX_INFER_SCHEMA_DIAGNOSTIC_H_

#include <string>
#include <string_view>

namespace onnx_infer {

enum class Severity { kError, kWarning, kNote };

std::string_view SeverityName(Severity s);  // "error", "warning", "note"

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string graph;        // graph path: "main", later "main/If_3.then_branch"
  int node_index = -1;      // index in the graph's node list; -1 when not about a node
  std::string node_name;
  std::string op;           // "ai.onnx::Concat-13" (domain::op_type-since_version)
  std::string message;      // what was expected and what was found

  // One line: "model.onnx: error: graph 'main' node #7 'cat0' (ai.onnx::Concat-13): ...".
  std::string Render(std::string_view source) const;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DIAGNOSTIC_H_
