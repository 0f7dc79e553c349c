// Lint: what an exporter pinned. After inference, the facts the run learnt say when a dynamic
// axis the model declares was baked into a constant by the exporter (a Reshape to a literal
// target, a Concat or Expand against a constant row), when two axes declared apart are forced
// equal, and when an output declared dynamic comes out constant. Each finding names the node,
// the exporter pattern and the fix (docs/lint.md).
//
//   InferenceResult result = InferShapes(model, BuiltinSchemas(), options);
//   for (const LintFinding& f : Lint(model, result)) std::cout << f.Render() << "\n";
#ifndef ONNX_INFER_INFERENCE_LINT_H_
#define ONNX_INFER_INFERENCE_LINT_H_

#include <string>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/diagnostic.h"

namespace onnx_infer {

struct LintFinding {
  // The check, stable across versions (docs/lint.md): "L001" a declared input symbol forced to
  // a constant, "L002" two declared input symbols forced equal, "L003" an output declared
  // dynamic inferred constant, "L004" a Shape whose result reaches no shape computation.
  std::string id;
  Severity severity = Severity::kWarning;
  // The node the finding is about (node_index -1: none, e.g. a fact from --bind).
  std::string graph = "main";
  int node_index = -1;
  std::string node_name, op;
  std::string subject;  // the symbol(s) or value: "batch", "H == W", "output 'y' dim 0"
  std::string message;  // what was found, with the fact: "batch == 1 (node 'r' ...)"
  std::string pattern;  // the exporter pattern, in plain words
  std::string fix;
  // "model.onnx: warning L001: graph 'main' node 3 'r' (Reshape): ... [pattern: ...; fix: ...]"
  std::string Render(std::string_view file) const;
};

// The findings about `model` as annotated by the run that returned `result` (which must have
// its fact_sources; L003 needs value_types, InferenceOptions::record_value_types). In order:
// L001 and L002 in the order of the facts that caused them, then L003, then L004. With
// `shape_checks` false, L004 (a walk from every Shape node) is left out.
std::vector<LintFinding> Lint(const onnx::ModelProto& model, const InferenceResult& result,
                              bool shape_checks = true);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_LINT_H_
