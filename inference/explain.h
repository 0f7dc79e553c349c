// Why a dim is unknown (or symbolic), and what binding the model's inputs would gain:
// `infer-shapes --explain` (docs/cli.md, "Explaining unknown dims").
//
//   InferenceOptions options;
//   options.record_provenance = true;  // what ExplainValue reads; off in normal runs
//   InferenceResult result = InferShapes(model, BuiltinSchemas(), options);
//   for (const DimExplanation& e : ExplainValue(model, result, "main", "y", /*axis=*/1)) {
//     std::cout << FormatExplanation(e);
//   }
//
// The explanation is computed after inference by walking back from the value through the
// nodes that produced it, reading the result's value types and diagnostics and the driver's
// per-node record (InferenceResult::provenance: how each node was inferred, which input
// values its rule asked for and did not get, which values were known). Without
// record_provenance the walk still runs, from types and diagnostics alone, and a node whose
// record is missing is taken as not inferred.
#ifndef ONNX_INFER_INFERENCE_EXPLAIN_H_
#define ONNX_INFER_INFERENCE_EXPLAIN_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

// Why a dim (or a value's rank or type) is not known. Every unknown gets one.
enum class ExplainReason {
  kKnown,              // nothing is missing: a constant dim
  kSymbolic,           // a symbolic dim: see DimExplanation::symbols
  kDataDependent,      // the operator's output size depends on its input's elements (NonZero,
                       // Unique, Compress, NonMaxSuppression, a Loop's condition...)
  kShapeValueUnknown,  // a shape-valued input (Reshape's shape, Expand's shape, Slice's starts,
                       // Resize's sizes, ConstantOfShape's input, TopK's k...) was not known
  kNoRule,             // no schema or no inference rule for the operator
  kSizeCap,            // an expression outgrew the symbolic size cap (docs/limits.md)
  kIfBranches,         // an If's branches give different dims or ranks
  kLoopWidening,       // a loop-carried dim changes across iterations, so it was widened
  kExternalData,       // a value needed was in external data that could not be read
  kContradiction,      // the node has an error (its rule, signature or inputs contradict)
  kDeclaredTypeKept,   // a declared type contradicting inference was kept (--policy refine)
  kUnknownGraphInput,  // the model declares a graph input without that dim, rank or type
  kNotInferred,        // the node was not inferred (a cycle, an undefined input, a limit)
  kEmptySequence,      // an empty sequence (SequenceEmpty): nothing states its elements' shape
  kRuleIncomplete,     // the operator's rule left it unknown though its inputs were known
};
// "data-dependent", "shape-value-unknown", ...; the names --explain prints.
const char* ExplainReasonName(ExplainReason reason);

// One step of the walk back from the explained value.
struct ExplainStep {
  std::string graph;      // graph path: "main", "main/If_3.then_branch"
  std::string value;      // the value this step is about
  int axis = -1;          // its dim; -1: its rank or type, or its elements (of_value)
  bool of_value = false;  // about the value's elements (a shape tensor), not its shape
  int node_index = -1;    // the node that produced it; -1 for an input or initializer
  std::string node;       // "node #3 'r' (Reshape)", "graph input", "initializer"
  std::string note;       // what happened there
};

struct DimExplanation {
  std::string graph;
  std::string value;
  int axis = -1;     // -1: the whole value (its type or rank is unknown)
  std::string type;  // the value's type, "float[N, ?]"
  std::string what;  // "dim 1 is unknown", "the rank is unknown", "dim 0 is N + 1"
  ExplainReason reason = ExplainReason::kKnown;
  std::string detail;  // one sentence: where and why it was lost
  // From the value back to where it was lost; for kShapeValueUnknown the chain goes on
  // through the shape input's own producers to where its value was lost.
  std::vector<ExplainStep> chain;
  // For a symbolic dim: each symbol with where it comes from (a declared symbol: the graph
  // input dim; an introduced one: the node and, in `reason_of`, why the node made it).
  std::vector<SymbolInfo> symbols;
  std::vector<ExplainReason> symbol_reasons;  // parallel to `symbols`
  // A graph input (of the main graph) whose value, given with --set-input, the walk shows
  // would decide this dim; empty if none.
  std::string input_value;
};

// Explains value `name` of graph `graph` (a path as InferenceResult::value_types has it) in
// `model`, the model InferShapes annotated with `result`: with `axis` >= 0 that dim, else
// every dim that is not a constant (or the value's rank or type when unknown). Returns one
// explanation per dim; a static value gives one of reason kKnown. An unknown graph or value
// name, or an axis past the rank, is an error.
StatusOr<std::vector<DimExplanation>> ExplainValue(const onnx::ModelProto& model,
                                                   const InferenceResult& result,
                                                   std::string_view graph, std::string_view name,
                                                   int axis = -1);

// Reads "VALUE" or "VALUE:AXIS" (what --explain takes) against `result`: the value is looked
// for in the main graph, then in the other graphs by path; a name that holds ':' itself
// (onnx::Reshape_0) is read whole first. `axis` is -1 without one.
Status ResolveExplainTarget(const InferenceResult& result, const std::string& text,
                            std::string* graph, std::string* value, int* axis);
// ResolveExplainTarget then ExplainValue: the explanations of "VALUE" or "VALUE:AXIS"
// (what --explain, explain() in Python and the golden cases take), or why there are none.
StatusOr<std::vector<DimExplanation>> ExplainTarget(const onnx::ModelProto& model,
                                                    const InferenceResult& result,
                                                    const std::string& text);

// Every unknown dim, rank and type of every value of every graph the result lists (node
// outputs and graph inputs and outputs, each value once per graph).
std::vector<DimExplanation> ExplainAllUnknown(const onnx::ModelProto& model,
                                              const InferenceResult& result);

// Each symbol inference introduced (InferenceResult::symbols not declared by the model), with
// why the node that made it could not give a known expression: data-dependent (Unique),
// loop-widening, if-branches-disagree, size-cap, shape-value-unknown (a Loop's trip count),
// unknown-graph-input (an anonymous input dim named), or symbolic (a model-local function's).
std::vector<std::pair<SymbolInfo, ExplainReason>> ExplainIntroducedSymbols(
    const onnx::ModelProto& model, const InferenceResult& result);
// Counts per reason with the first `examples` names: what --explain all prints after the
// unknowns.
std::string FormatIntroducedSymbols(
    const std::vector<std::pair<SymbolInfo, ExplainReason>>& symbols, int examples = 3);

// What --explain prints for one explanation, several lines ending in a newline.
std::string FormatExplanation(const DimExplanation& e);
// Counts per reason, most frequent first, each with its first `examples` explanations.
std::string FormatExplainSummary(const std::vector<DimExplanation>& all, int examples = 3);

// What-if: how many more node outputs are fully static when symbols are bound or input values
// given. Each count is a real inference run with the bindings (InferenceOptions::bind,
// input_values), not an estimate.
struct WhatIf {
  std::string label;  // "S=2", "input 'sr'=2", "all together"
  std::map<std::string, int64_t, std::less<>> bind;
  std::vector<KnownInputValue> input_values;
  int64_t static_values = 0;  // InferenceStats::static_shaped of that run
  int64_t gained = 0;         // static_values minus the baseline's
  int64_t errors = 0;         // error diagnostics beyond the baseline's (a value that contradicts)
};

struct WhatIfRequest {
  // Values for symbols (`--what-if S=128`); a declared symbol not given gets
  // `representative`.
  std::map<std::string, int64_t, std::less<>> symbols;
  // Values for graph inputs (`--what-if sr=16000`), parsed as --set-input's; an input whose
  // value the explanations show would decide a dim, not given here, gets `representative`
  // for each element when it is a scalar or has a constant shape of at most 16 elements.
  std::vector<KnownInputValue> inputs;
  int64_t representative = 2;
};

// Runs inference once per candidate (each declared input symbol, each input whose value
// reaches a shape) on a fresh copy of `original` (the model as loaded, not annotated) with
// `options` plus that candidate alone, then once with all of them that do not contradict
// the model on their own ("all together", when there are two or more). `baseline` is the result
// of `options` alone; `explanations` (ExplainAllUnknown) name the inputs whose value matters.
std::vector<WhatIf> WhatIfBindings(const onnx::ModelProto& original, const SchemaRegistry& registry,
                                   const InferenceOptions& options, const InferenceResult& baseline,
                                   const std::vector<DimExplanation>& explanations,
                                   const WhatIfRequest& request);
std::string FormatWhatIf(const std::vector<WhatIf>& what_if, int64_t baseline_static,
                         int64_t values);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_EXPLAIN_H_
