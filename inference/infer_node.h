// InferNodeOutputs: one node on its own, as a front end that builds its graph node by node
// needs it (ONNX's `infer_node_outputs`). The node goes through the driver's own per-node
// steps: its schema is resolved for the imported opset (missing import, too-new or unknown
// operator, deprecation), it is checked against the signature (counts, omitted optional
// values, attributes, type constraints), the rule runs (or, for an operator ONNX defines as a
// function, its body is inferred), and what the signature says of each output completes what
// the rule left open. Findings are diagnostics, as InferShapes reports them.
//
//   onnx::NodeProto node = ...;  // y = Reshape(x, shape)
//   ConstValue shape = ...;      // the value of `shape`, if known
//   NodeInferenceResult r = InferNodeOutputs(BuiltinSchemas(), node, {{"", 17}},
//                                            {x_type, shape_type}, {std::nullopt, shape});
//   if (!r.HasErrors()) use(r.output_types[0]);
//
// Subgraphs: If branches and Loop/Scan bodies are inferred. They see the node's inputs by
// name; any other value of the enclosing graphs they read is unknown to them (not an error),
// since the call is not given the enclosing graph. Model-local functions are not known
// either: a node calling one is a custom operator without a schema here.
//
// Symbols: the output types' Dims are made in InferenceOptions::symbol_context when it is set,
// else in the thread's current context (symbolic/context.h), the one the caller's input Dims
// were made in: SymbolContext::Default() unless the caller opened a Scope. A long-running
// caller passes a context of its own and drops it when done, so the default does not grow.
//
// Each call stands alone. Facts a rule learns about symbols (K == 4 at a MatMul) do not carry
// over to the next call as they do from node to node inside InferShapes, and findings that
// InferShapes reports once per operator ("no rule", "no schema") come with every call.
#ifndef ONNX_INFER_INFERENCE_INFER_NODE_H_
#define ONNX_INFER_INFERENCE_INFER_NODE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/schema/diagnostic.h"
#include "onnx_infer/schema/op_schema.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

// The operator sets a node is resolved against: domain -> version. "" and "ai.onnx" name the
// same domain.
using OpsetImports = std::map<std::string, int64_t, std::less<>>;

// A model's (or a function's) opset_import as OpsetImports.
OpsetImports ReadOpsetImports(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports);

struct NodeInferenceResult {
  // The schema the node resolved to; null when there is none (the diagnostics say why).
  const OpSchema* schema = nullptr;
  // One entry per output of the node, in order (an omitted optional output has an empty
  // name). What could not be inferred is the unknown type.
  std::vector<std::string> output_names;
  std::vector<Type> output_types;
  // The values the rule computed (Shape, Constant, shape arithmetic); with
  // InferenceOptions::data_propagation off, only a Constant's.
  std::vector<std::optional<ConstValue>> output_values;
  // In the order found. They name no graph and call the node #0; errors inside a subgraph
  // name its path ("If_0.then_branch").
  std::vector<Diagnostic> diagnostics;
  // Whether inference learnt something about the symbols (a fact such as N == M, a
  // condition, a bound or a relation), which InferShapes would list in its result and a node
  // inferred alone does not report (inference/session.cc infers alone only where it is not).
  bool learnt_about_symbols = false;

  bool HasErrors() const;
  // The type of the output named `name`; null when the node has no such output.
  const Type* OutputType(std::string_view name) const;
  // The outputs whose type is at least partly known, by name, as TypeProto.
  std::map<std::string, onnx::TypeProto> OutputTypeProtos() const;
};

// `input_types[i]` and `input_values[i]` describe the node's i-th input; missing entries (and
// std::nullopt values) are not known. InferenceOptions apply as in InferShapes (strict,
// max_value_elements, data_propagation; max_nesting for subgraphs); model_dir is not used.
NodeInferenceResult InferNodeOutputs(
    const SchemaRegistry& registry, const onnx::NodeProto& node, const OpsetImports& opsets,
    const std::vector<Type>& input_types,
    const std::vector<std::optional<ConstValue>>& input_values = {},
    const InferenceOptions& options = {});

// The same with the model format's messages, by input name, as ONNX's infer_node_outputs
// takes them: types as TypeProto, known values (a Reshape's shape) as TensorProto. An input
// with a value but no type gets the tensor's. (Another name, not an overload: a braced list
// of Types would otherwise also match std::map's iterator-pair constructor.)
NodeInferenceResult InferNodeOutputsByName(
    const SchemaRegistry& registry, const onnx::NodeProto& node, const OpsetImports& opsets,
    const std::map<std::string, onnx::TypeProto>& input_types,
    const std::map<std::string, onnx::TensorProto>& input_values = {},
    const InferenceOptions& options = {});

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_INFER_NODE_H_
