// InferShapes: the graph-level driver. It works out the type and shape of every value in a
// model and writes them back into it: `value_info` for intermediate values, and the types of
// graph outputs the model leaves undeclared or declares less precisely.
//
//   onnx::ModelProto model = ...;
//   InferenceResult result = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
//   for (const Diagnostic& d : result.diagnostics) std::cerr << d.Render("model.onnx") << "\n";
#ifndef ONNX_INFER_INFERENCE_INFER_SHAPES_H_
#define ONNX_INFER_INFERENCE_INFER_SHAPES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/inference/provenance.h"
#include "onnx_infer/inference/value_types.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/schema/diagnostic.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/symbolic/context.h"
#include "onnx_infer/symbolic/unifier.h"

namespace onnx_infer {

// A known value for one input of the main graph (InferenceOptions::input_values,
// `infer-shapes --set-input`): rules that read it fold (a Reshape's shape, a Pad's pads, shape
// arithmetic), and an If whose condition it decides infers only the taken branch's outputs.
struct KnownInputValue {
  // The graph input by name; when empty, by `index`, its position in the main graph's inputs
  // (initializer-backed ones counted).
  std::string name;
  int index = -1;
  // The value. Integer and bool elements go in `value.ints` (constant Dims; a symbolic one is
  // read back from its text, so Dims of any context may be given), floating-point ones in
  // `value.reals`. `value.elem_type` 0 takes the input's declared element type (int64, or
  // float for reals, when it declares none); integers given for a floating-point input become
  // reals, integral reals for an integer input integers. The value must fit the declaration:
  // the same element type, its rank and constant dims; a declared symbol meeting a dim of the
  // value is bound to it (a fact), an unknown declared dim is filled in.
  ConstValue value;
  // Take the value's dims from the declaration rather than from `value.dims` (a flat list of
  // elements, as `--set-input pads=1,2,3` gives it): the declared shape when every dim is a
  // constant and the element counts agree, else one element is a scalar and more a 1-D tensor
  // (a declared rank above 1 with unknown dims is then an error: state the shape with
  // input_shapes).
  bool fit_dims = false;
};

// What a declared type (a value_info entry, a graph or subgraph output) that contradicts the
// inferred one becomes (docs/cli.md, "Declared types"; `--policy`).
enum class DeclaredPolicy {
  // The default: an error diagnostic, and the inferred type is used downstream and written
  // over the declaration, so a stale value_info never reaches the annotated model.
  kInferred,
  // A warning (an error with `strict`); the declared type is kept, used downstream and
  // written (what onnx-infer did before the policy existed).
  kRefine,
  // A note; the inferred type replaces the declaration (a stale value_info is expected, as
  // after a graph rewrite).
  kOverride,
  // An error, the inferred type is used, and the CLI and Python write no model.
  kStrict,
};
// "inferred", "refine", "override", "strict"; ParseDeclaredPolicy is its inverse.
const char* DeclaredPolicyName(DeclaredPolicy p);
std::optional<DeclaredPolicy> ParseDeclaredPolicy(std::string_view name);

struct InferenceOptions {
  // Make a missing schema or rule an error instead of a warning (and, with the `refine`
  // policy, a declared type that contradicts the inferred one).
  bool strict = false;
  // What a declared type that contradicts the inferred one becomes.
  DeclaredPolicy declared_policy = DeclaredPolicy::kInferred;
  // Check node inputs against their operators' type constraints (an input's element type is
  // allowed; inputs sharing a type parameter agree): a violation is an error. False (onnx's
  // `check_type=False`, `--no-check-types`): it is a warning, and inference goes on with
  // the types as they are.
  bool check_types = true;
  // The largest tensor (in elements) whose value is tracked for consumers such as Reshape.
  int64_t max_value_elements = 1024;
  // Track values computed by operators (Shape, Gather, Concat, arithmetic...) besides the
  // constants of initializers and Constant nodes. `--no-data-prop` turns it off.
  bool data_propagation = true;
  // Subgraphs and function calls nested deeper than this are not inferred (an error says so).
  int max_nesting = 64;
  // Nodes inferred inside function bodies and subgraphs, in all, per run (docs/limits.md):
  // each call of a function infers its body again, so functions calling each other can
  // multiply the work exponentially. A body that would exceed it is not inferred (its
  // outputs stay unknown) and an error names the limit. `--max-expanded-nodes`.
  int64_t max_expanded_nodes = 200'000;
  // The directory of the model file, where its external data lives. An integer or bool
  // initializer stored there with at most max_value_elements elements is read when a node
  // consumes it, under the rules of proto/external_data.h; other external data is never
  // opened. Empty: no external data is read (such values stay unknown).
  std::string model_dir;
  // Assumptions about the model's symbols that the model itself does not state, each a lower
  // bound of one symbol: "S >= 2", "S > 1", "2 <= S" (symbolic::ParseLowerBound). With
  // them, dims simplify further (Slice(x, 1, -1) on an axis of S is S - 2 rather than
  // Max(0, S - 2)), and a fact that contradicts one is an error. Every output dim that needed
  // an assumption is listed in InferenceResult::conditions with it:
  //   "S >= 2 (assumed for node 's' (Slice): output 'y' dim 1 is S - 2 instead of
  //   Max(0, S - 2))"
  // Values computed from such a dim depend on the assumption too, without a line of their
  // own. A text that is not such a bound is an error diagnostic, and is not assumed.
  std::vector<std::string> assumptions;
  // An initializer that is also listed as a graph input (IR version >= 4; models saved with
  // `keep_initializers_as_inputs`, older exporters, ONNX's own test fixtures). IR.md: such an
  // initializer "is a default value" and the input "can be overridden" at run time. By
  // default (false) its value is used, as onnx's and onnxruntime's inference use it, and
  // every node whose result read it is listed in InferenceResult::conditions:
  //   "input 'shape' keeps its initializer's value (read by node 'r' (Reshape); an initializer
  //   listed as a graph input may be overridden at run time)"
  // True takes IR.md's strict reading: the value may change, so it is not used (only its
  // type is). Before IR version 4 every initializer had to be an input, so being one says
  // nothing and the value is always used. `--overridable-initializers`.
  bool overridable_initializers = false;
  // Assume every dim symbol >= 1, as onnxruntime's symbolic shape inference does, including
  // the symbols inference introduces. Off by default: a dim may be 0 (an empty KV cache at the
  // first decoding step), and the default results hold for every valid model. Results that
  // needed it are listed in InferenceResult::conditions as above ("N >= 1 (assumed for ...)").
  bool assume_positive = false;
  // Where the run's dimension expressions are interned (symbolic/context.h). Null: a fresh
  // context per run, freed with the result. A caller may pass one context to many runs, on
  // one thread or several at once (a context is thread-safe); it then grows with the
  // distinct expressions of all of them until the caller drops it.
  std::shared_ptr<symbolic::SymbolContext> symbol_context;
  // Fill InferenceResult::value_types. A caller that reads only the annotated model (the CLI
  // without --values or --memory) turns it off: the listing copies every value's name and
  // type, a sizeable part of the run's time and memory on large models.
  bool record_value_types = true;
  // Write the main graph's new value_info entries as bytes into
  // InferenceResult::new_value_info instead of as messages into the model: for a caller that
  // only writes the annotated model (SaveModel with those bytes, proto/model_io.h) and reads
  // nothing of it in between, as the CLI does when it writes a model file. The messages would
  // only be serialized; their bytes take a fraction of their memory and time. Taken only
  // where it changes nothing written: with record_value_types off, no training_info, and a
  // main graph whose value_info protobuf writes last (CanAppendValueInfo); otherwise the
  // entries are messages as usual and new_value_info stays empty. Entries the model already
  // has, graph outputs and subgraphs are always updated as messages.
  bool stream_new_value_info = false;
  // Record per node how it was inferred and which input and output values were known
  // (InferenceResult::provenance), for ExplainValue (inference/explain.h). Off: nothing is
  // recorded and the run pays nothing for it.
  bool record_provenance = false;

  // ---- Specialization (docs/cli.md, "Specializing a model"). Applied to the model's
  // declarations before inference, in this order; each problem (an input the model does not
  // have, a value that does not fit) is an error diagnostic and that entry is skipped.
  // inference/specialize.h parses their text forms and checks them against a model.
  //
  // New declared shapes of main-graph inputs (`--input-shape x:1,3,H,W`), by input name: one
  // text per dim, a number, a symbol or expression in dim_param syntax, or "?" for unknown
  // ({} is a scalar). The element type is kept. The annotated model declares the new shape.
  std::map<std::string, std::vector<std::string>, std::less<>> input_shapes;
  // Values of dimension symbols (`--bind B=1,S=128`): every declared dim of the model (graph
  // inputs, outputs, value_info, subgraphs, functions) is evaluated under them, so what
  // inference derives from them is concrete, and each binding is a fact (B == 1), so a
  // symbol inference introduces ("y__d0", named stably) is bound too. A symbol that appears
  // nowhere is a warning.
  std::map<std::string, int64_t, std::less<>> bind;
  // Known values of main-graph inputs (`--set-input sr=16000`); see KnownInputValue. The
  // annotated model declares the shape of the value.
  std::vector<KnownInputValue> input_values;
  // Give each anonymous dim of a main-graph input (no dim_value and no dim_param, or a
  // dim_value of -1) a symbol named after the input and axis ("x_d1"; "x_d1_2" if the model
  // already uses that name), written into the input's declaration and listed in
  // InferenceResult::symbols with its origin, so that every value derived from it keeps the
  // relation instead of being unknown.
  bool name_anonymous_dims = true;
};

struct InferenceStats {
  int64_t nodes = 0;          // nodes inferred
  int64_t values = 0;         // node outputs (the values inference is about)
  int64_t typed = 0;          // ... whose type is known
  int64_t shaped = 0;         // ... whose every dim is known (constant or symbol)
  int64_t static_shaped = 0;  // ... whose every dim is a constant
  int64_t symbolic = 0;       // ... fully shaped with at least one symbolic dim
  int64_t partial = 0;        // ... typed, rank known but not every dim (or a sequence,
                              // map or optional not fully known)
  int64_t type_only = 0;      // ... typed tensors of unknown rank
  int64_t unknown = 0;        // ... whose type (or element type) is not known
  // values == static_shaped + symbolic + partial + type_only + unknown.
  int64_t nodes_without_rule = 0;  // nodes whose schema has no rule, or that have no schema
};

// Counts `n` node outputs of type `type` in `stats` (n = -1 takes one back), by how much is
// known, as InferShapes counts them (inference/session.cc adjusts its counts with it).
void CountValueStats(const Type& type, int64_t n, InferenceStats& stats);

// A dimension symbol of the annotated model and where it comes from.
struct SymbolInfo {
  std::string name;       // "N", "y__d0"
  bool declared = false;  // the model declares it (else inference introduced it)
  // "input 'x' dim 0 of graph 'main'", or the node and output a rule made it for:
  // "node 'if0' (If): output 0 'y' dim 0".
  std::string origin;
  // What the facts make of the symbol (Unifier::Resolve), when that is not the symbol
  // itself: a constant (N == 4), another symbol of its class (M, for N == M), or an
  // expression of other symbols (total == past + seq), from the model alone (not simplified
  // under InferenceOptions::assumptions). Unknown otherwise. In the result's symbol_context.
  symbolic::Dim value;
};

// Where one of InferenceResult::facts came from: the node whose inference recorded it, or
// none (node_index -1) for a fact the driver recorded outside any node (a --bind value, a
// declared type met before the nodes).
struct FactSource {
  Dim lhs, rhs;         // the fact as given (in the result's symbol context)
  std::string graph;    // graph path of the node ("main", "main/If_3.then_branch")
  int node_index = -1;  // the node's index in that graph's node list
  std::string node_name, op_type, domain;
};

struct InferenceResult {
  std::vector<Diagnostic> diagnostics;  // in the order found
  InferenceStats stats;
  // Every symbol in the annotated model's types, declared ones first, each once.
  std::vector<SymbolInfo> symbols;
  // What inference learnt about the symbols, in order: "N == M (node 'mm' (MatMul): contracted
  // dims)", "N >= 1 (...)" lower bounds are not listed.
  std::vector<std::string> facts;
  // Parallel to facts: each one's two sides and the node that recorded it (inference/lint.h).
  std::vector<FactSource> fact_sources;
  // Conditions the model must meet that are not equations (symbolic broadcasts), and the
  // assumptions (InferenceOptions::assumptions, assume_positive) each result needed.
  std::vector<std::string> conditions;
  // The range of each symbol (by its representative) beyond ">= 0", with where each bound
  // came from: the model (a broadcast that holds only below a constant, TopK's k, a bound
  // implied by a relation) or the user's --assume; and the relations over several symbols
  // ("P + S <= 4096 (assumed)").
  std::vector<symbolic::SymbolBounds> bounds;
  std::vector<std::string> relations;
  // The same facts and relations as Dims (every relation, a single symbol's too), and the
  // terms the model makes multiples of a constant (term, modulus: Mod(C, 2) == 0), for
  // callers that evaluate them (inference/contract.h). In the result's symbol_context.
  std::vector<symbolic::Fact> fact_dims;
  std::vector<symbolic::Relation> relation_dims;
  std::vector<std::pair<symbolic::Dim, int64_t>> multiples;
  // The type of every graph input, node output and graph output, by graph path: "main", an
  // If branch or Loop/Scan body "main/If_3.then_branch", a model-local function's body at one
  // call "main/Gelu_2.local::Gelu", a training graph "training_info[0].algorithm" (the paths
  // diagnostics name). A subgraph inferred more than once (a Loop's passes) has its last
  // pass's types. The bodies of operators ONNX defines as functions are not listed.
  std::map<std::string, GraphValueTypes, std::less<>> value_types;
  // The type of value `name` in graph `graph_path`; null when inference did not see it.
  const Type* TypeOf(std::string_view graph_path, std::string_view name) const;

  int64_t CountOf(Severity severity) const;
  // Whether some diagnostic has `code` (and `severity`, if given).
  bool HasCode(DiagCode code, std::optional<Severity> severity = std::nullopt) const;
  bool HasErrors() const { return CountOf(Severity::kError) > 0; }

  // The context of the run's Dims (options.symbol_context, or the run's own), kept alive as
  // long as the result: a Dim the result holds is valid while the result (or another owner
  // of the context) is. Dims made after the call, e.g. by TypeFromProto on the annotated
  // model or by arithmetic on the result's Dims, are in the caller's current context, not
  // this one: open a symbolic::SymbolContext::Scope on it before computing with the
  // result's Dims or comparing them with new ones.
  std::shared_ptr<symbolic::SymbolContext> symbol_context;
  // With InferenceOptions::stream_new_value_info: the main graph's new value_info entries,
  // serialized and framed as GraphProto's value_info elements (proto/model_io.h,
  // AppendedValueInfo), in the order they would have been added. SaveModel(model,
  // new_value_info, path) writes the model as if they had been.
  std::vector<std::string> new_value_info;
  // With InferenceOptions::record_provenance: what inference/explain.h reads (provenance.h).
  std::shared_ptr<Provenance> provenance;

  // ---- Specialization (docs/cli.md, "Specializing a model"). Applied to the model's
  // declarations before inference, in this order; each problem (an input the model does not
  // have, a value that does not fit) is an error diagnostic and that entry is skipped.
  // inference/specialize.h parses their text forms and checks them against a model.
  //
  // New declared shapes of main-graph inputs (`--input-shape x:1,3,H,W`), by input name: one
  // text per dim, a number, a symbol or expression in dim_param syntax, or "?" for unknown
  // ({} is a scalar). The element type is kept. The annotated model declares the new shape.
  std::map<std::string, std::vector<std::string>, std::less<>> input_shapes;
  // Values of dimension symbols (`--bind B=1,S=128`): every declared dim of the model (graph
  // inputs, outputs, value_info, subgraphs, functions) is evaluated under them, so what
  // inference derives from them is concrete, and each binding is a fact (B == 1), so a
  // symbol inference introduces ("y__d0", named stably) is bound too. A symbol that appears
  // nowhere is a warning.
  std::map<std::string, int64_t, std::less<>> bind;
  // Known values of main-graph inputs (`--set-input sr=16000`); see KnownInputValue. The
  // annotated model declares the shape of the value.
  std::vector<KnownInputValue> input_values;
  // Give each anonymous dim of a main-graph input (no dim_value and no dim_param, or a
  // dim_value of -1) a symbol named after the input and axis ("x_d1"; "x_d1_2" if the model
  // already uses that name), written into the input's declaration and listed in
  // InferenceResult::symbols with its origin, so that every value derived from it keeps the
  // relation instead of being unknown.
  bool name_anonymous_dims = true;
};

// Infers `model` in place. Never fails as a whole: what cannot be inferred stays unknown and
// every problem is a diagnostic. Safe to call from several threads at once (on different
// models): each run interns its dims in its own context unless options.symbol_context
// says otherwise, and the registry is only read.
InferenceResult InferShapes(onnx::ModelProto& model, const SchemaRegistry& registry,
                            const InferenceOptions& options);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_INFER_SHAPES_H_
