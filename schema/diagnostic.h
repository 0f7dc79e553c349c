// Diagnostic: one finding of inference, with everything a reader needs to find its cause.
#ifndef ONNX_INFER_SCHEMA_DIAGNOSTIC_H_
#define ONNX_INFER_SCHEMA_DIAGNOSTIC_H_

#include <string>
#include <string_view>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/diagnostic_codes.h"

namespace onnx_infer {

enum class Severity { kError, kWarning, kNote };

std::string_view SeverityName(Severity s);  // "error", "warning", "note"

// The input, output or attribute of a node a diagnostic is about (base/status.h): set where
// the error or warning is made, never read back from the message.
using DiagnosticSubject = Subject;

// The four kinds callers told apart before every diagnostic had a code, by their old names
// (the Python drop-ins raise onnx's exception types by them): codes now, which compare with
// Diagnostic::code.
inline constexpr DiagCode kDiagSignature = DiagCode::kSignature;
inline constexpr DiagCode kDiagTypeConstraint = DiagCode::kTypeConstraint;
inline constexpr DiagCode kDiagDeclaredContradiction = DiagCode::kDeclaredContradiction;
inline constexpr DiagCode kDiagOptionContradiction = DiagCode::kOptionContradiction;

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string graph;    // graph path: "main", "main/If_3.then_branch"
  int node_index = -1;  // index in the graph's node list; -1 when not about a node
  std::string node_name;
  std::string op;             // "ai.onnx::Concat-13" (domain::op_type-since_version)
  DiagnosticSubject subject;  // what of the node it concerns, if one thing
  std::string message;        // what was expected and what was found
  // What kind of finding it is (schema/diagnostic_codes.h, docs/diagnostics.md): a stable
  // code such as OI2101 (CodeId) with a kebab name such as "signature" (CodeName).
  DiagCode code = DiagCode::kUnclassified;

  // One line: "model.onnx: error[OI3003]: graph 'main' node #7 'add0' (ai.onnx::Add-14): ...".
  // The subject is part of the message.
  std::string Render(std::string_view source) const;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DIAGNOSTIC_H_
