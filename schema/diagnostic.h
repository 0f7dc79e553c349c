// Diagnostic: one finding of inference, with everything a reader needs to find its cause.
#ifndef ONNX_INFER_SCHEMA_DIAGNOSTIC_H_
#define ONNX_INFER_SCHEMA_DIAGNOSTIC_H_

#include <string>
#include <string_view>

#include "onnx_infer/base/status.h"

namespace onnx_infer {

enum class Severity { kError, kWarning, kNote };

std::string_view SeverityName(Severity s);  // "error", "warning", "note"

// The input, output or attribute of a node a diagnostic is about (base/status.h): set where
// the error or warning is made, never read back from the message.
using DiagnosticSubject = Subject;

// Diagnostic::code values.
// A node against its operator's signature: input/output counts, attributes (what onnx's
// schema check, OpSchema::Verify, rejects).
inline constexpr std::string_view kDiagSignature = "signature";
// A node input's type is not allowed by its type constraint, or inputs bound to one type
// parameter differ.
inline constexpr std::string_view kDiagTypeConstraint = "type-constraint";
// An inferred type contradicts the type the model declares for the value.
inline constexpr std::string_view kDiagDeclaredContradiction = "declared-contradiction";
// What the options fix (a binding, an input shape or value) contradicts the model: its
// declarations or what inference proves. The model annotated under them is not written.
inline constexpr std::string_view kDiagOptionContradiction = "option-contradiction";

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string graph;    // graph path: "main", "main/If_3.then_branch"
  int node_index = -1;  // index in the graph's node list; -1 when not about a node
  std::string node_name;
  std::string op;             // "ai.onnx::Concat-13" (domain::op_type-since_version)
  DiagnosticSubject subject;  // what of the node it concerns, if one thing
  std::string message;        // what was expected and what was found
  // What kind of finding it is, for callers that treat kinds differently (the Python
  // drop-ins raise onnx's exception types): one of the kDiag* names below, or empty.
  std::string_view code;

  // One line: "model.onnx: error: graph 'main' node #7 'cat0' (ai.onnx::Concat-13): ...".
  // The subject is part of the message.
  std::string Render(std::string_view source) const;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DIAGNOSTIC_H_
