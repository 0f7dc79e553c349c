// The type of every value of every graph inference visited, as InferenceResult::value_types
// holds them, and the listing `infer-shapes --values` prints from them.
//
//   InferenceResult result = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
//   std::cout << FormatValues(result.value_types.at("main"));  // what --values prints
//   if (const Type* t = result.TypeOf("main/If_3.then_branch", "t")) std::cout << t->ToString();
#ifndef ONNX_INFER_INFERENCE_VALUE_TYPES_H_
#define ONNX_INFER_INFERENCE_VALUE_TYPES_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/schema/type.h"

namespace onnx_infer {

// The values of one graph and their types, as the driver found them. A value the driver could
// say nothing about has the unknown type (printed "?").
struct GraphValueTypes {
  // The names, in the model's order: the graph's inputs; the outputs of its nodes that are
  // not graph outputs, in the order of the graph's node list (each once; the outputs of
  // nodes left out for being on a cycle are absent); the graph's outputs.
  std::vector<std::string> inputs;
  std::vector<std::string> values;
  std::vector<std::string> outputs;
  // The type of each of them, by name. A graph output's is its final type: what the graph
  // declares merged with what inference found, as written back into the model.
  std::map<std::string, Type, std::less<>> types;
  // The type the model declares for a value, for each it declares one for: a graph input
  // (as the model, or --input-shape, states it, before what an enclosing node gives it is
  // merged in), a value_info entry, a graph output. Absent when the model declares nothing.
  std::map<std::string, Type, std::less<>> declared;
  // For a node output the model declares: what inference found before the declaration was
  // merged in (`types` has the merged type, as written). Compared with `declared` it says
  // whether the declaration is stale.
  std::map<std::string, Type, std::less<>> inferred;

  // The type of `name`; null when the graph has no such value.
  const Type* Find(std::string_view name) const;
};

// What `infer-shapes --values` prints for the graph: "inputs:", "values:" and "outputs:"
// headings, each followed by one line per value, "  name: type" with Type::ToString()
// ("  x: float[batch, seq, 8]").
std::string FormatValues(const GraphValueTypes& graph);

// One value as the --json report's "values" section and Python's InferenceResult.value_report
// describe it (docs/cli.md, "The JSON report").
struct ValueReport {
  std::string graph;  // graph path
  std::string name;
  std::string role;  // "input", "value" (a node output inside the graph) or "output"
  Type type;         // as written into the model
  // "static", "symbolic", "partial" (a dim unknown), "type_only" (no shape), "typed" (not a
  // tensor) or "unknown".
  std::string known;
  std::vector<std::string> symbols;  // the symbols of type's dims, each once, in order
  std::optional<Type> declared;      // what the model declares, if anything
  std::optional<Type> inferred;      // for a declared node output: inference's own type
  // How declared and inferred compare: "undeclared", "not_inferred" (a graph input: its
  // declaration defines it), "same", "inferred_more" (inference adds to the declaration),
  // "declared_more", "both_more" (each adds something) or "contradiction".
  std::string agreement;
  std::string contradiction;  // with "contradiction": where they differ
};

// Every value of every graph in `value_types` (InferenceResult::value_types), graph by
// graph in path order, each graph's inputs, values and outputs in model order.
std::vector<ValueReport> ReportValues(
    const std::map<std::string, GraphValueTypes, std::less<>>& value_types);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_VALUE_TYPES_H_
