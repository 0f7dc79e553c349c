// Session: a model held for editing, inferred once and re-inferred after each batch of edits,
// for optimizers and graph editors that call shape inference after every rewrite.
//
//   Session session(std::move(model), BuiltinSchemas(), InferenceOptions{});
//   session.SetNodeAttribute(7, attr);       // edits are queued...
//   SessionUpdate u = session.Update();      // ...and inferred here
//   const Type* t = session.TypeOf("y");
//   onnx::ModelProto annotated = session.Model();
//
// The guarantee: after Update(), result(), TypeOf() and Model() are exactly what a fresh
// InferShapes of the edited model (the model as given, with every edit applied, and the
// session's options) gives: the types written into the model, the diagnostics, the facts, the
// symbols and the statistics. Update() gets there one of two ways, and Stats counts which:
//   - incremental: the edited and inserted nodes are inferred again alone, then, in the
//     graph's order, every reader of a value whose type or definition changed (a removed
//     node's output, an initializer set, a renamed value); a node whose inputs and outputs
//     come out as they were stops the walk (early cut-off), so an edit that keeps types
//     infers one node. Node edits in place take a path without bookkeeping; structural ones
//     (insert, remove, rewire, rename, initializer) re-infer only their cone too but rebuild
//     the node list, the added value_info entries and the value listing (O(nodes), moving
//     what did not change). The path is taken only where a node inferred alone is provably
//     inferred as inside a full run: the model has no model-local functions, its node list
//     is in order (and stays so), its only findings are a node's (which move with it) or
//     about its opsets; where it has facts, conditions, bounds or relations, no node moves
//     and each node inferred recorded none and its types (old and new, inputs and outputs)
//     mention none of their symbols; each node inferred or removed has no subgraph, no
//     finding (before or after), learns no fact, has outputs declared nowhere
//     (or inferred as before) that hold no value, inputs whose values are initializers or
//     were unknown in the run, and types free of symbols inference introduces; a node with a
//     subgraph does not move. Past max(64, 5% of the nodes) inferred, the update is full.
//   - full: anything else (an input type or graph output edited, among others) re-infers
//     the whole edited model (correct by construction).
// The declared-type policy and every other option apply identically on both paths.
//
// Edits address the main graph; node indices are positions in its node list. An edit that
// cannot apply (an index out of range, a name that does not exist) returns an error and
// changes nothing. Threads: a Session is not thread-safe; use one session per thread (the
// registry may be shared, it is only read). The session interns its dims in one
// symbolic::SymbolContext (options.symbol_context, or its own), alive as long as the session.
#ifndef ONNX_INFER_INFERENCE_SESSION_H_
#define ONNX_INFER_INFERENCE_SESSION_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/diagnostic.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

struct GraphValueTypes;
struct NodeInferenceResult;

// What one Update() changed.
struct SessionUpdate {
  // Main-graph values (inputs, node outputs, outputs) whose type changed, appeared or
  // disappeared, sorted by name.
  std::vector<std::string> changed_values;
  // Diagnostics the edited model has that the previous one had not, and the reverse
  // (compared as rendered lines, so one that only moved to another node index counts as
  // removed and added).
  std::vector<Diagnostic> added_diagnostics;
  std::vector<Diagnostic> removed_diagnostics;
  // Whether the update was incremental (see the header comment); false for a full one and
  // for an update with nothing pending.
  bool incremental = false;
};

class Session {
 public:
  struct Stats {
    int64_t incremental_updates = 0;  // Update() calls that re-inferred only edited nodes
    int64_t full_updates = 0;         // ... that re-inferred the whole model (the first
                                      // inference, at construction, is not counted)
    int64_t empty_updates = 0;        // ... with no pending edit
    int64_t nodes_inferred = 0;       // nodes re-inferred alone on the incremental path
    int64_t structural_updates = 0;   // incremental updates that took the structural path
                                      // (insert, remove, rewire, rename, initializer)
    // Why each full update was not incremental, counted by reason: "input or output edit",
    // "model" (functions, training graphs, a node list out of order, nodes moved in a model
    // with facts, or options such as bind), "model findings" (a finding of the graph as a
    // whole), "node with findings", "node with facts", "node near facts", "subgraph",
    // "input value", "output value", "declared output changed", "introduced symbol",
    // "changed type not written", "output defined twice", "node without rule", "too many
    // nodes".
    std::map<std::string, int64_t, std::less<>> full_reasons;
  };

  // Infers `model` once. `registry` must outlive the session.
  Session(onnx::ModelProto model, const SchemaRegistry& registry,
          const InferenceOptions& options = {});
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // ---- Edits of the main graph, applied to the session's model at once and inferred at the
  // next Update().
  // Replaces node `index` by `node`.
  Status ReplaceNode(int index, const onnx::NodeProto& node);
  // Inserts `node` before node `index` (index == node count appends).
  Status InsertNode(int index, const onnx::NodeProto& node);
  Status RemoveNode(int index);
  // Sets (adds or replaces, by name) one attribute of node `index`.
  Status SetNodeAttribute(int index, const onnx::AttributeProto& attribute);
  // Sets the initializer of `tensor.name()`, replacing one of that name or adding it.
  Status SetInitializer(const onnx::TensorProto& tensor);
  // Replaces the declared type of graph input `name`.
  Status SetInputType(std::string_view name, const onnx::TypeProto& type);
  // Adds a graph output (its type may be left unset: inference fills it in).
  Status AddOutput(const onnx::ValueInfoProto& output);
  Status RemoveOutput(std::string_view name);
  // Renames value `from` to `to` everywhere in the main graph: graph inputs and outputs,
  // initializers, value_info, node inputs and outputs, and the names its subgraphs read from
  // it. `to` must not be defined anywhere in the model (an input, initializer or node output
  // of the main graph or a subgraph); nodes that read `to` (left dangling by a removal) then
  // read the renamed value, which is how a fold reconnects consumers:
  //   RemoveNode(i) of y = Identity(x), then RenameValue("x", "y").
  Status RenameValue(std::string_view from, std::string_view to);

  // Infers the pending edits.
  SessionUpdate Update();
  // Whether edits are pending (Update() not called since).
  bool dirty() const { return pending_ > 0; }

  // ---- The state as of the last Update() (or construction).
  const InferenceResult& result() const { return result_; }
  // The type of a main-graph input, node output or output; null when there is none.
  const Type* TypeOf(std::string_view name) const;
  // The edited model with the inferred annotations written, as InferShapes writes them.
  const onnx::ModelProto& Model() const { return annotated_; }
  // The edited model as edited, without the annotations inference adds.
  const onnx::ModelProto& EditedModel() const { return model_; }
  const Stats& stats() const { return stats_; }

 private:
  // The main graph's names as one model defines and reads them.
  struct Index {
    std::unordered_map<std::string, int> initializers;  // name -> index (unique names)
    std::set<std::string, std::less<>> inputs, declared;
    // Node output -> its producer's index, or -1 when several nodes produce it.
    std::unordered_map<std::string, int> producers;
    std::unordered_map<std::string, std::vector<int>> consumers;  // value -> reading nodes
    bool ordered = false;  // no node reads a value a later node defines
  };
  static Index BuildIndex(const onnx::GraphProto& graph);
  void InferFully();
  void IndexModel();
  void IndexValueInfo();
  void ClearEdits();
  bool Reject(const char* reason);  // records why the update is not incremental: false
  bool TryIncremental(std::vector<int>* nodes, std::vector<std::string>* changed);
  bool TryStructural(std::vector<int>* nodes, std::vector<std::string>* changed);
  // The walk both incremental paths take: `work` (the edited nodes, and the readers of
  // `changed_inputs`, names whose definition changed), then every reader of a node output
  // whose type changes, each node inferred alone, in the graph's order, until the types stop
  // changing. `view` says how the edited model maps to the last run's (a NodeLocalView or a
  // StructuralView, session.cc). False, with the reason recorded, where a node inferred alone
  // may not stand for a full run.
  struct NodeLocalView;
  struct StructuralView;
  struct Reinferred;
  template <class View>
  bool Reinfer(const View& view, std::set<int> work,
               const std::set<std::string, std::less<>>& changed_inputs, Reinferred* walk);
  // The last run's producer of node output `name` (an index of annotated_), -1 when none or
  // several; the type it gave it (null when none).
  int OldProducer(const std::string& name) const;
  const Type* OldOutputType(const std::string& name) const;
  // Node output `name` (not declared) goes from `before`, the type the last run gave it, to
  // `after` (null: none, the value is gone): the value counts, the value's type and, where it
  // changed, `changed_names`.
  void CommitType(const std::string& name, const Type* before, const Type* after,
                  std::vector<std::string>* changed_names);
  Status CheckNodeIndex(int index, bool allow_end) const;
  void MarkTouched(int index) { touched_.insert(index); }
  bool NearFacts(const Type& type) const;  // mentions a symbol facts constrain
  // Whether a node's lone inference `r` may stand for what a full run gives it: it reported
  // nothing, learnt nothing about symbols and gave every output; in a model with facts, the
  // node (old_node, at old_index in the run; -1 for a new node) recorded none, and its input
  // types, what it read in the run and its outputs before and after name no symbol they
  // constrain. Otherwise false, with the reason recorded (Reject).
  bool LoneResultStands(const NodeInferenceResult& r, const onnx::NodeProto& node,
                        const onnx::NodeProto* old_node, int old_index,
                        const std::vector<Type>& input_types, const GraphValueTypes& main);

  const SchemaRegistry& registry_;
  InferenceOptions options_;
  onnx::ModelProto model_;      // the edited model, unannotated
  onnx::ModelProto annotated_;  // model_ inferred (as of the last Update)
  InferenceResult result_;
  std::shared_ptr<Provenance> provenance_;  // the session's own record of the last run
  int64_t pending_ = 0;                     // edits since the last Update()
  Stats stats_;
  const char* reject_ = nullptr;

  // The edits since the last Update(), as the incremental paths read them.
  std::set<int> touched_;  // nodes of model_ replaced, edited, inserted or renamed in
  // For each node of model_, the index of the node it was in annotated_ (-1: inserted);
  // empty while no node was inserted or removed (each node is where it was).
  std::vector<int> origin_;
  std::vector<std::string> initializer_edits_;                // SetInitializer's names, in order
  std::vector<std::pair<std::string, std::string>> renames_;  // RenameValue's, in order
  const char* force_full_ = nullptr;  // an edit no incremental path takes, if any

  // Indices of the last inference (its model, whose node list annotated_ holds): what the
  // incremental paths check each edited node against.
  bool incremental_ok_ = false;  // the model as a whole allows the incremental path
  std::set<int> nodes_with_diagnostics_;
  Index index_;
  std::set<std::string, std::less<>> declared_symbols_;
  // With facts, conditions, bounds or relations in the model: the symbols they mention (and
  // every word of their texts), and the main-graph nodes that recorded facts (-1: a fact
  // recorded elsewhere). A node inferred alone must be clear of both.
  bool has_facts_ = false;
  std::set<std::string, std::less<>> constrained_symbols_;
  std::set<int> fact_nodes_;
  // Name -> index in annotated_'s main graph, made when first needed after a change.
  std::unordered_map<std::string, int> value_info_index_;
  bool value_info_index_stale_ = true;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_SESSION_H_
