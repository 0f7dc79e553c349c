#include "onnx_infer/inference/session.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <numeric>
#include <optional>
#include <unordered_set>
#include <utility>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/inference/infer_node.h"
#include "onnx_infer/inference/provenance.h"
#include "onnx_infer/schema/op_schema.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/symbolic/context.h"

namespace onnx_infer {

namespace {

bool HasSubgraph(const onnx::NodeProto& node) {
  for (const auto& attr : node.attribute()) {
    if (attr.has_g() || attr.graphs_size() > 0 || attr.type() == onnx::AttributeProto::GRAPH ||
        attr.type() == onnx::AttributeProto::GRAPHS) {
      return true;
    }
  }
  return false;
}

bool SameNames(const google::protobuf::RepeatedPtrField<std::string>& a,
               const google::protobuf::RepeatedPtrField<std::string>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// Every symbol of a tensor type's dims is in `declared`; false for any other kind of type
// (their symbols are not looked into).
bool OnlyDeclaredSymbols(const Type& type, const std::set<std::string, std::less<>>& declared) {
  if (type.is_unknown()) return true;
  if (type.kind() != Type::Kind::kTensor) return false;
  if (!type.has_shape()) return true;
  for (Dim d : type.shape()) {
    for (const std::string& name : d.Symbols()) {
      if (!declared.count(name)) return false;
    }
  }
  return true;
}

bool IsExternal(const onnx::TensorProto& tensor) {
  return tensor.data_location() == onnx::TensorProto::EXTERNAL;
}

// Whether `graph` itself (not its subgraphs) defines `name`.
bool Defines(const onnx::GraphProto& graph, std::string_view name) {
  for (const auto& vi : graph.input()) {
    if (vi.name() == name) return true;
  }
  for (const auto& init : graph.initializer()) {
    if (init.name() == name) return true;
  }
  for (const auto& sparse : graph.sparse_initializer()) {
    if (sparse.values().name() == name) return true;
  }
  for (const auto& node : graph.node()) {
    for (const auto& out : node.output()) {
      if (out == name) return true;
    }
  }
  return false;
}

// Whether `graph` or any graph nested in it mentions `name` (defines, reads or declares it).
bool Mentions(const onnx::GraphProto& graph, std::string_view name) {
  if (Defines(graph, name)) return true;
  for (const auto& vi : graph.output()) {
    if (vi.name() == name) return true;
  }
  for (const auto& vi : graph.value_info()) {
    if (vi.name() == name) return true;
  }
  for (const auto& node : graph.node()) {
    for (const auto& in : node.input()) {
      if (in == name) return true;
    }
    for (const auto& attr : node.attribute()) {
      if (attr.has_g() && Mentions(attr.g(), name)) return true;
      for (const auto& g : attr.graphs()) {
        if (Mentions(g, name)) return true;
      }
    }
  }
  return false;
}

// Whether a subgraph nested in `graph` defines `name` (where it would capture a renamed
// reference).
bool SubgraphDefines(const onnx::GraphProto& graph, std::string_view name) {
  for (const auto& node : graph.node()) {
    for (const auto& attr : node.attribute()) {
      if (attr.has_g() && (Defines(attr.g(), name) || SubgraphDefines(attr.g(), name))) {
        return true;
      }
      for (const auto& g : attr.graphs()) {
        if (Defines(g, name) || SubgraphDefines(g, name)) return true;
      }
    }
  }
  return false;
}

// The value names the nodes and outputs of `graph` and its subgraphs read.
void MentionedNames(const onnx::GraphProto& graph, std::vector<std::string>* names) {
  for (const auto& vi : graph.output()) names->push_back(vi.name());
  for (const auto& node : graph.node()) {
    for (const auto& in : node.input()) names->push_back(in);
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) MentionedNames(attr.g(), names);
      for (const auto& g : attr.graphs()) MentionedNames(g, names);
    }
  }
}

void RenameIn(std::string* s, std::string_view from, std::string_view to) {
  if (*s == from) *s = std::string(to);
}

// Renames `from` in `graph`; in a subgraph, only where it reads the outer value (a subgraph
// that defines `from` itself shadows it and is left alone).
void RenameInGraph(onnx::GraphProto* graph, std::string_view from, std::string_view to,
                   bool outer) {
  if (!outer && Defines(*graph, from)) return;
  for (auto& vi : *graph->mutable_input()) RenameIn(vi.mutable_name(), from, to);
  for (auto& init : *graph->mutable_initializer()) RenameIn(init.mutable_name(), from, to);
  for (auto& sparse : *graph->mutable_sparse_initializer()) {
    RenameIn(sparse.mutable_values()->mutable_name(), from, to);
  }
  for (auto& vi : *graph->mutable_output()) RenameIn(vi.mutable_name(), from, to);
  for (auto& vi : *graph->mutable_value_info()) RenameIn(vi.mutable_name(), from, to);
  for (auto& node : *graph->mutable_node()) {
    for (auto& in : *node.mutable_input()) RenameIn(&in, from, to);
    for (auto& out : *node.mutable_output()) RenameIn(&out, from, to);
    for (auto& attr : *node.mutable_attribute()) {
      if (attr.has_g()) RenameInGraph(attr.mutable_g(), from, to, /*outer=*/false);
      for (auto& g : *attr.mutable_graphs()) RenameInGraph(&g, from, to, /*outer=*/false);
    }
  }
}

// How many nodes an incremental update re-infers at most (node-local and structural edits
// alike): past that, a full inference is as cheap (and surely right).
size_t MaxIncrementalNodes(const onnx::GraphProto& graph) {
  return std::max<size_t>(64, graph.node_size() / 20);
}

}  // namespace

Session::Session(onnx::ModelProto model, const SchemaRegistry& registry,
                 const InferenceOptions& options)
    : registry_(registry), options_(options), model_(std::move(model)) {
  // One context for every run and every node inferred alone, so that Dims compare by
  // pointer across them.
  if (!options_.symbol_context)
    options_.symbol_context = std::make_shared<symbolic::SymbolContext>();
  InferFully();
}

void Session::InferFully() {
  InferenceOptions options = options_;
  options.record_value_types = true;      // TypeOf and the incremental path read them
  options.stream_new_value_info = false;  // Model() holds every annotation as messages
  options.record_provenance = true;       // which input values each node had
  annotated_ = model_;
  result_ = InferShapes(annotated_, registry_, options);
  provenance_ = result_.provenance;
  if (!options_.record_provenance) result_.provenance.reset();
  if (!options_.record_value_types) {
    // Kept for the session; a caller that asked for none sees them anyway (harmless).
  }
  IndexModel();
}

Session::Index Session::BuildIndex(const onnx::GraphProto& g) {
  Index index;
  std::set<std::string, std::less<>> repeated;
  for (int i = 0; i < g.initializer_size(); ++i) {
    if (!index.initializers.emplace(g.initializer(i).name(), i).second) {
      repeated.insert(g.initializer(i).name());
    }
  }
  for (const auto& name : repeated) index.initializers.erase(name);
  for (const auto& sparse : g.sparse_initializer())
    index.initializers.erase(sparse.values().name());
  for (const auto& vi : g.input()) index.inputs.insert(vi.name());
  for (const auto& vi : g.output()) index.declared.insert(vi.name());
  for (const auto& vi : g.value_info()) index.declared.insert(vi.name());
  for (const auto& sparse : g.sparse_initializer()) index.declared.insert(sparse.values().name());
  // Whether no node reads a value a later node defines, so that the node list is the order
  // of inference (a value no node defines leaves its readers with a diagnostic: they are
  // never inferred alone); and each value's readers, a node with subgraphs counted as a
  // reader of every name they mention.
  index.producers.reserve(g.node_size());
  for (int i = 0; i < g.node_size(); ++i) {
    for (const auto& out : g.node(i).output()) {
      if (out.empty()) continue;
      auto [it, fresh] = index.producers.emplace(out, i);
      if (!fresh) it->second = -1;
    }
  }
  index.ordered = true;
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& node = g.node(i);
    for (const auto& in : node.input()) {
      if (in.empty()) continue;
      auto p = index.producers.find(in);
      if (p != index.producers.end() && (p->second < 0 || p->second >= i)) index.ordered = false;
      index.consumers[in].push_back(i);
    }
    for (const auto& attr : node.attribute()) {
      std::vector<std::string> names;
      if (attr.has_g()) MentionedNames(attr.g(), &names);
      for (const auto& sub : attr.graphs()) MentionedNames(sub, &names);
      for (const auto& name : names) index.consumers[name].push_back(i);
    }
  }
  return index;
}

void Session::IndexModel() {
  nodes_with_diagnostics_.clear();
  declared_symbols_.clear();
  index_ = Index();
  value_info_index_.clear();
  const InferenceResult& r = result_;
  constrained_symbols_.clear();
  fact_nodes_.clear();
  has_facts_ = !(r.facts.empty() && r.fact_sources.empty() && r.conditions.empty() &&
                 r.bounds.empty() && r.relations.empty() && r.fact_dims.empty() &&
                 r.relation_dims.empty() && r.multiples.empty());
  incremental_ok_ = model_.functions_size() == 0 && model_.training_info_size() == 0 &&
                    options_.assumptions.empty() && options_.bind.empty() &&
                    options_.input_values.empty() && options_.input_shapes.empty() &&
                    !options_.assume_positive && !options_.record_provenance &&
                    provenance_ != nullptr && r.value_types.count("main") > 0;
  if (!incremental_ok_) return;
  if (has_facts_) {
    // Every symbol a fact, condition, bound or relation mentions (over-approximated: every
    // word of their texts too), and the nodes that recorded facts.
    auto add = [&](Dim d) {
      for (auto& name : d.Symbols()) constrained_symbols_.insert(std::move(name));
    };
    for (const auto& f : r.fact_dims) {
      add(f.lhs);
      add(f.rhs);
    }
    for (const auto& rel : r.relation_dims) add(rel.expr);
    for (const auto& m : r.multiples) add(m.first);
    for (const auto& b : r.bounds) constrained_symbols_.insert(b.symbol);
    auto words = [&](const std::string& text) {
      std::string word;
      for (char ch : text + " ") {
        const bool w = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                       (ch >= '0' && ch <= '9') || ch == '_';
        if (w) {
          word += ch;
        } else if (!word.empty()) {
          constrained_symbols_.insert(word);
          word.clear();
        }
      }
    };
    for (const auto& text : r.facts) words(text);
    for (const auto& text : r.conditions) words(text);
    for (const auto& text : r.relations) words(text);
    for (const auto& b : r.bounds) {
      for (const auto& origin : b.origins) words(origin);
    }
    for (const FactSource& f : r.fact_sources) {
      if (f.graph != "main" || f.node_index < 0) {
        fact_nodes_.insert(-1);  // recorded outside a main-graph node
      } else {
        fact_nodes_.insert(f.node_index);
      }
    }
  }
  for (const Diagnostic& d : r.diagnostics) {
    if (d.graph == "main") nodes_with_diagnostics_.insert(d.node_index);
  }
  for (const SymbolInfo& s : r.symbols) {
    if (s.declared) declared_symbols_.insert(s.name);
  }
  index_ = BuildIndex(model_.graph());
  value_info_index_stale_ = true;
}

void Session::IndexValueInfo() {
  if (!value_info_index_stale_) return;
  const onnx::GraphProto& ag = annotated_.graph();
  value_info_index_.clear();
  value_info_index_.reserve(ag.value_info_size());
  for (int i = 0; i < ag.value_info_size(); ++i) value_info_index_[ag.value_info(i).name()] = i;
  value_info_index_stale_ = false;
}

void Session::ClearEdits() {
  pending_ = 0;
  touched_.clear();
  origin_.clear();
  initializer_edits_.clear();
  renames_.clear();
  force_full_ = nullptr;
}

Status Session::CheckNodeIndex(int index, bool allow_end) const {
  const int n = model_.graph().node_size();
  if (index < 0 || index > n || (index == n && !allow_end)) {
    return Status::Error(
        StrCat("node index ", index, " is out of range (the main graph has ", n, " nodes)"));
  }
  return OkStatus();
}

Status Session::ReplaceNode(int index, const onnx::NodeProto& node) {
  if (Status st = CheckNodeIndex(index, false); !st.ok()) return st;
  *model_.mutable_graph()->mutable_node(index) = node;
  MarkTouched(index);
  pending_++;
  return OkStatus();
}

Status Session::InsertNode(int index, const onnx::NodeProto& node) {
  if (Status st = CheckNodeIndex(index, true); !st.ok()) return st;
  auto* nodes = model_.mutable_graph()->mutable_node();
  if (origin_.empty()) {
    origin_.resize(nodes->size());
    std::iota(origin_.begin(), origin_.end(), 0);
  }
  *nodes->Add() = node;
  for (int i = nodes->size() - 1; i > index; --i) nodes->SwapElements(i, i - 1);
  origin_.insert(origin_.begin() + index, -1);
  std::set<int> touched;
  for (int t : touched_) touched.insert(t >= index ? t + 1 : t);
  touched.insert(index);
  touched_ = std::move(touched);
  pending_++;
  return OkStatus();
}

Status Session::RemoveNode(int index) {
  if (Status st = CheckNodeIndex(index, false); !st.ok()) return st;
  if (origin_.empty()) {
    origin_.resize(model_.graph().node_size());
    std::iota(origin_.begin(), origin_.end(), 0);
  }
  model_.mutable_graph()->mutable_node()->DeleteSubrange(index, 1);
  origin_.erase(origin_.begin() + index);
  std::set<int> touched;
  for (int t : touched_) {
    if (t != index) touched.insert(t > index ? t - 1 : t);
  }
  touched_ = std::move(touched);
  pending_++;
  return OkStatus();
}

Status Session::SetNodeAttribute(int index, const onnx::AttributeProto& attribute) {
  if (Status st = CheckNodeIndex(index, false); !st.ok()) return st;
  if (attribute.name().empty()) return Status::Error("the attribute has no name");
  onnx::NodeProto* node = model_.mutable_graph()->mutable_node(index);
  auto* attrs = node->mutable_attribute();
  auto it = std::find_if(attrs->begin(), attrs->end(), [&](const onnx::AttributeProto& a) {
    return a.name() == attribute.name();
  });
  if (it != attrs->end()) {
    *it = attribute;
  } else {
    *attrs->Add() = attribute;
  }
  MarkTouched(index);
  pending_++;
  return OkStatus();
}

Status Session::SetInitializer(const onnx::TensorProto& tensor) {
  if (tensor.name().empty()) return Status::Error("the initializer has no name");
  auto* inits = model_.mutable_graph()->mutable_initializer();
  auto it = std::find_if(inits->begin(), inits->end(),
                         [&](const onnx::TensorProto& t) { return t.name() == tensor.name(); });
  if (it != inits->end()) {
    *it = tensor;
  } else {
    *inits->Add() = tensor;
  }
  initializer_edits_.push_back(tensor.name());
  pending_++;
  return OkStatus();
}

Status Session::SetInputType(std::string_view name, const onnx::TypeProto& type) {
  for (auto& vi : *model_.mutable_graph()->mutable_input()) {
    if (vi.name() == name) {
      *vi.mutable_type() = type;
      force_full_ = "input or output edit";
      pending_++;
      return OkStatus();
    }
  }
  return Status::Error(StrCat("the main graph has no input '", name, "'"));
}

Status Session::AddOutput(const onnx::ValueInfoProto& output) {
  if (output.name().empty()) return Status::Error("the output has no name");
  for (const auto& vi : model_.graph().output()) {
    if (vi.name() == output.name()) {
      return Status::Error(StrCat("the main graph already has output '", vi.name(), "'"));
    }
  }
  *model_.mutable_graph()->add_output() = output;
  force_full_ = "input or output edit";
  pending_++;
  return OkStatus();
}

Status Session::RemoveOutput(std::string_view name) {
  auto* outputs = model_.mutable_graph()->mutable_output();
  for (int i = 0; i < outputs->size(); ++i) {
    if (outputs->Get(i).name() == name) {
      outputs->DeleteSubrange(i, 1);
      force_full_ = "input or output edit";
      pending_++;
      return OkStatus();
    }
  }
  return Status::Error(StrCat("the main graph has no output '", name, "'"));
}

Status Session::RenameValue(std::string_view from, std::string_view to) {
  if (from.empty() || to.empty()) return Status::Error("a value name cannot be empty");
  if (from == to) return OkStatus();
  if (model_.training_info_size() > 0) {
    return Status::Error("renaming values of a model with training_info is not supported");
  }
  const onnx::GraphProto& g = model_.graph();
  if (!Mentions(g, from)) {
    return Status::Error(StrCat("the main graph has no value '", from, "'"));
  }
  if (Defines(g, to) || SubgraphDefines(g, to)) {
    return Status::Error(StrCat("'", to, "' already names a value of the model"));
  }
  // The nodes that mention either name are inferred again (the readers of `to`, left dangling
  // by a removal, read the renamed value).
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& node = g.node(i);
    bool mentions = false;
    for (const auto& in : node.input()) mentions = mentions || in == from || in == to;
    for (const auto& out : node.output()) mentions = mentions || out == from || out == to;
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) mentions = mentions || Mentions(attr.g(), from) || Mentions(attr.g(), to);
      for (const auto& sub : attr.graphs()) {
        mentions = mentions || Mentions(sub, from) || Mentions(sub, to);
      }
    }
    if (mentions) MarkTouched(i);
  }
  RenameInGraph(model_.mutable_graph(), from, to, /*outer=*/true);
  renames_.emplace_back(std::string(from), std::string(to));
  pending_++;
  return OkStatus();
}

const Type* Session::TypeOf(std::string_view name) const { return result_.TypeOf("main", name); }

// Whether a type is one the write-back gives a value_info entry (InferShapes writes nothing
// for an unknown type or an element type of 0 without a shape).
static bool Writable(const Type& type) {
  return !(type.is_unknown() || (type.is_tensor() && type.elem_type() == 0 && !type.has_shape()));
}

// Whether a declared node output inferred as `now` merges with its declaration as it did in
// the last run: the run found `now` before merging then too. A declaration without a type
// (a graph output named only) merges to what was found, which was written.
static bool SameAsInferred(const GraphValueTypes& main, const std::string& out, const Type& now) {
  auto inferred = main.inferred.find(out);
  if (inferred != main.inferred.end()) return inferred->second == now;
  if (main.declared.count(out)) return false;
  const Type* written = main.Find(out);
  return written != nullptr && *written == now;
}

bool Session::NearFacts(const Type& type) const {
  if (!has_facts_ || type.is_unknown()) return false;
  if (type.kind() != Type::Kind::kTensor) return true;
  if (!type.has_shape()) return false;
  for (Dim d : type.shape()) {
    for (const std::string& name : d.Symbols()) {
      if (constrained_symbols_.count(name)) return true;
    }
  }
  return false;
}

bool Session::LoneResultStands(const NodeInferenceResult& r, const onnx::NodeProto& node,
                               const onnx::NodeProto* old_node, int old_index,
                               const std::vector<Type>& input_types, const GraphValueTypes& main) {
  if (!r.diagnostics.empty() || !r.schema || !r.schema->has_rule())
    return Reject("node with findings");
  if (r.learnt_about_symbols) return Reject("node with facts");
  if (r.output_types.size() != static_cast<size_t>(node.output_size()))
    return Reject("node with findings");
  if (!has_facts_) return true;
  // The model has facts: a node stays clear of every symbol they mention, so that the run's
  // resolving through them changes nothing about it, and recorded none.
  if (old_index < 0 || fact_nodes_.count(old_index) || fact_nodes_.count(-1))
    return Reject("node near facts");
  for (const Type& t : input_types) {
    if (NearFacts(t)) return Reject("node near facts");
  }
  // What the node read in the run (a condition it recorded is not attributed to it).
  for (const auto& in : old_node->input()) {
    const Type* t = in.empty() ? nullptr : main.Find(in);
    if (t && NearFacts(*t)) return Reject("node near facts");
  }
  for (int k = 0; k < node.output_size(); ++k) {
    const Type* old_type = main.Find(node.output(k));
    if (NearFacts(r.output_types[k]) || (old_type && NearFacts(*old_type)))
      return Reject("node near facts");
  }
  return true;
}

bool Session::Reject(const char* reason) {
  reject_ = reason;
  return false;
}

// Old bits of a node's output that say its value was known.
static bool ValueKnown(uint8_t bits) {
  return (bits & (NodeProvenance::kValueKnown | NodeProvenance::kValuePartial)) != 0;
}

// How the walk of an update sees the edited model (model_) against the last run's
// (annotated_): where each node was, and which nodes define and read each name now. Two
// views, one per update path, answer alike:
//   old_index(p)       node p's index in the last run, -1 for a node inserted
//   producer(name)     the node that produces `name`: -1 none, -2 several
//   readers(name)      the nodes that read `name`
//   initializer(name)  the index of initializer `name`, -1 when it is none
//   same_producers     each name has the producer it had in the last run
//   in_place           a changed type is written over its old value_info entry, which must
//                      then exist and be written (else the entries are written anew)
// The node-local path's: every node where it was, with its names; the last run's index holds
// the edited model's.
struct Session::NodeLocalView {
  const Index& index;
  static constexpr bool same_producers = true;
  static constexpr bool in_place = true;

  int old_index(int p) const { return p; }
  int producer(const std::string& name) const {
    auto it = index.producers.find(name);
    if (it == index.producers.end()) return -1;
    return it->second < 0 ? -2 : it->second;
  }
  std::vector<int> readers(const std::string& name) const {
    auto it = index.consumers.find(name);
    return it == index.consumers.end() ? std::vector<int>() : it->second;
  }
  int initializer(const std::string& name) const {
    auto it = index.initializers.find(name);
    return it == index.initializers.end() ? -1 : it->second;
  }
};

// The structural path's: nodes moved, inserted and removed, names defined and read anew
// (TryStructural's own bookkeeping answers).
struct Session::StructuralView {
  std::function<int(int)> old_index;
  std::function<int(const std::string&)> producer;
  std::function<std::vector<int>(const std::string&)> readers;
  std::function<int(const std::string&)> initializer;
  static constexpr bool same_producers = false;
  static constexpr bool in_place = false;
};

// What the walk inferred again: the nodes, in order, with their provenance, and the node
// outputs whose type changed.
struct Session::Reinferred {
  std::vector<std::pair<int, NodeProvenance>> nodes;  // in the graph's order
  std::map<std::string, Type, std::less<>> changed;   // value -> its new type

  // Whether node `p` was inferred again.
  bool Has(int p) const {
    auto it = std::lower_bound(nodes.begin(), nodes.end(), p,
                               [](const auto& node, int index) { return node.first < index; });
    return it != nodes.end() && it->first == p;
  }

  // The type of `name` as of the walk: its new type, else the last run's.
  const Type* TypeNow(const GraphValueTypes& main, const std::string& name) const {
    auto it = changed.find(name);
    return it != changed.end() ? &it->second : main.Find(name);
  }
};

int Session::OldProducer(const std::string& name) const {
  auto it = index_.producers.find(name);
  return it == index_.producers.end() ? -1 : it->second;
}

const Type* Session::OldOutputType(const std::string& name) const {
  return OldProducer(name) >= 0 ? result_.value_types.find("main")->second.Find(name) : nullptr;
}

template <class View>
bool Session::Reinfer(const View& view, std::set<int> work,
                      const std::set<std::string, std::less<>>& changed_inputs, Reinferred* walk) {
  const onnx::GraphProto& graph = model_.graph();
  const onnx::GraphProto& old_graph = annotated_.graph();
  const std::vector<NodeProvenance>& old_prov = provenance_->graphs.find("main")->second;
  const GraphValueTypes& main = result_.value_types.find("main")->second;
  const OpsetImports opsets = ReadOpsetImports(model_.opset_import());
  const size_t max_nodes = MaxIncrementalNodes(graph);
  // The last run's producer of `name`, which node `q` produces now.
  auto old_producer = [&](const std::string& name, int q) {
    return view.same_producers ? q : OldProducer(name);
  };
  // Whether the last run's node `q` knew the value of its output `name`.
  auto old_valued = [&](int q, const std::string& name) {
    if (q < 0) return false;
    const onnx::NodeProto& producer = old_graph.node(q);
    for (int k = 0; k < producer.output_size(); ++k) {
      if (producer.output(k) == name && k < static_cast<int>(old_prov[q].outputs.size()) &&
          ValueKnown(old_prov[q].outputs[k])) {
        return true;
      }
    }
    return false;
  };
  // Whether the last run knew the value of input `i`, `name`, of node `o` of the last run,
  // which node `q` produces now: where every node kept its names, the node's own record says
  // (it read `name` there), else the record of the name's producer.
  auto old_input_valued = [&](int o, int i, const std::string& name, int q) {
    if (!view.same_producers) return old_valued(old_producer(name, q), name);
    return i >= static_cast<int>(old_prov[o].inputs.size()) || ValueKnown(old_prov[o].inputs[i]);
  };
  while (!work.empty()) {
    const int p = *work.begin();
    work.erase(work.begin());
    if (walk->nodes.size() >= max_nodes) return Reject("too many nodes");
    const onnx::NodeProto& node = graph.node(p);
    const int o = view.old_index(p);
    const onnx::NodeProto* old_node = o >= 0 ? &old_graph.node(o) : nullptr;
    bool inputs_changed = false;
    for (const auto& in : node.input()) {
      inputs_changed = inputs_changed || walk->changed.count(in) || changed_inputs.count(in);
    }
    if (old_node && !inputs_changed && node.SerializeAsString() == old_node->SerializeAsString())
      continue;
    if (HasSubgraph(node) || (old_node && HasSubgraph(*old_node))) return Reject("subgraph");
    if (old_node) {
      if (nodes_with_diagnostics_.count(o)) return Reject("node with findings");
      if (old_prov[o].how != NodeProvenance::How::kRule || old_prov[o].rule_failed)
        return Reject("node without rule");
      for (uint8_t bits : old_prov[o].outputs) {
        if (ValueKnown(bits)) return Reject("output value");
      }
    }
    // The inputs as a full run has them.
    NodeProvenance prov;
    prov.how = NodeProvenance::How::kRule;
    prov.inputs.assign(node.input_size(), 0);
    std::vector<Type> input_types(node.input_size());
    std::vector<std::optional<ConstValue>> input_values(node.input_size());
    for (int i = 0; i < node.input_size(); ++i) {
      const std::string& name = node.input(i);
      if (name.empty()) continue;
      const int init = view.initializer(name);
      if (init >= 0) {
        if (index_.inputs.count(name)) return Reject("input value");  // a default input
        const onnx::TensorProto& tensor = graph.initializer(init);
        if (IsExternal(tensor)) return Reject("input value");
        input_types[i] = TypeOfTensor(tensor);
        input_values[i] = ConstValueOfTensor(tensor, options_.max_value_elements);
        continue;
      }
      if (!index_.inputs.count(name)) {
        const int q = view.producer(name);
        if (q < 0) return Reject("input value");
        if (q >= p) return Reject("model");
        // A node not inferred again: what it had, unless the last run knew its value.
        if (!walk->Has(q) && old_input_valued(o, i, name, q)) return Reject("input value");
      }
      const Type* type = walk->TypeNow(main, name);
      if (!type) return Reject("input value");
      input_types[i] = *type;
    }
    NodeInferenceResult r =
        InferNodeOutputs(registry_, node, opsets, input_types, input_values, options_);
    if (!LoneResultStands(r, node, old_node, o, input_types, main)) return false;
    for (int k = 0; k < node.output_size(); ++k) {
      const std::string& out = node.output(k);
      if (out.empty()) continue;
      if (index_.inputs.count(out) || view.initializer(out) >= 0)
        return Reject("output defined twice");
      if (view.producer(out) != p) return Reject("output defined twice");
      if (r.output_values.size() > static_cast<size_t>(k) && r.output_values[k])
        return Reject("output value");
      Type& now = r.output_types[k];
      if (!OnlyDeclaredSymbols(now, declared_symbols_)) return Reject("introduced symbol");
      // The last run's producer (the old node's outputs were checked above).
      const int old_q = old_producer(out, p);
      if (old_q != o && old_valued(old_q, out)) return Reject("output value");
      if (index_.declared.count(out)) {
        // Declared: what the run found before merging in the declaration must come out
        // again, so that the merge gives what it gave.
        if (old_q < 0 || !SameAsInferred(main, out, now)) return Reject("declared output changed");
        continue;
      }
      const Type* old_type = old_q >= 0 ? main.Find(out) : nullptr;
      if (old_type && *old_type == now) continue;  // its symbols are now's
      if (old_type && !OnlyDeclaredSymbols(*old_type, declared_symbols_))
        return Reject("introduced symbol");
      if (view.in_place) {
        // Written in place of the old type: both written, neither a graph output.
        IndexValueInfo();
        if (!old_type || !Writable(*old_type) || !Writable(now) || !value_info_index_.count(out))
          return Reject("changed type not written");
      }
      // A changed type: every reader of the value is inferred again.
      for (int reader : view.readers(out)) {
        if (reader <= p) return Reject("model");
        work.insert(reader);
      }
      walk->changed[out] = std::move(now);
    }
    prov.outputs.assign(node.output_size(), 0);
    walk->nodes.emplace_back(p, std::move(prov));
  }
  return true;
}

void Session::CommitType(const std::string& name, const Type* before, const Type* after,
                         std::vector<std::string>* changed_names) {
  if (before) CountValueStats(*before, -1, result_.stats);
  if (after) CountValueStats(*after, 1, result_.stats);
  if ((before || after) && (!before || !after || !(*before == *after)))
    changed_names->push_back(name);
  GraphValueTypes& main = result_.value_types.find("main")->second;
  if (after) {
    Type copy = *after;  // `after` may be the entry itself
    main.types[name] = std::move(copy);
  } else if (!index_.inputs.count(name)) {
    main.types.erase(name);
  }
}

// The two update paths differ in the view the walk gets and in what they do around it.
// Node-local edits (ReplaceNode, SetNodeAttribute that keep every name): each node stays where
// it was, the last run's index stands for the edited model's, and a changed type is written
// over its value_info entry: no bookkeeping.
bool Session::TryIncremental(std::vector<int>* nodes, std::vector<std::string>* changed_names) {
  if (!incremental_ok_ || !index_.ordered) return Reject("model");
  if (force_full_) return Reject(force_full_);
  if (!origin_.empty() || !initializer_edits_.empty() || !renames_.empty())
    return Reject("structural edit");
  const onnx::GraphProto& graph = model_.graph();
  const onnx::GraphProto& old_graph = annotated_.graph();
  if (graph.node_size() != old_graph.node_size()) return Reject("structural edit");
  // Each node where it was, reading and defining the names it did: the last run's index
  // holds the edited model's.
  for (int p : touched_) {
    if (!SameNames(graph.node(p).input(), old_graph.node(p).input()) ||
        !SameNames(graph.node(p).output(), old_graph.node(p).output())) {
      return Reject("node rewired");
    }
  }
  const auto prov_it = provenance_->graphs.find("main");
  if (prov_it == provenance_->graphs.end() ||
      prov_it->second.size() != static_cast<size_t>(graph.node_size())) {
    return Reject("model");
  }
  Reinferred walk;
  if (!Reinfer(NodeLocalView{index_}, touched_, {}, &walk)) return false;

  // Every node inferred again is inferred as in a full run: commit.
  for (int index : touched_) {
    *annotated_.mutable_graph()->mutable_node(index) = graph.node(index);
  }
  for (auto& [index, prov] : walk.nodes) {
    prov_it->second[index] = std::move(prov);
    nodes->push_back(index);
  }
  GraphValueTypes& main = result_.value_types.at("main");
  onnx::GraphProto* annotated = annotated_.mutable_graph();
  for (const auto& [name, type] : walk.changed) {
    onnx::TypeProto* proto =
        annotated->mutable_value_info(value_info_index_.at(name))->mutable_type();
    proto->Clear();
    WriteTypeToProto(type, proto);
    CommitType(name, main.Find(name), &type, changed_names);
  }
  return true;
}

// Structural edits (nodes inserted, removed or rewired, renames, initializers set): the view
// maps the nodes moved and the names defined and read anew, the walk starts from the readers
// of every name whose definition changed too, and the commit rebuilds the node list, the
// value_info entries inference adds and the value listing.
bool Session::TryStructural(std::vector<int>* nodes_out, std::vector<std::string>* changed_names) {
  if (!incremental_ok_ || !index_.ordered) return Reject("model");
  if (force_full_) return Reject(force_full_);
  const onnx::GraphProto& graph = model_.graph();
  const onnx::GraphProto& old_graph = annotated_.graph();
  const int n_new = graph.node_size(), n_old = old_graph.node_size();
  std::vector<int> origin = origin_;
  if (origin.empty()) {
    if (n_new != n_old) return Reject("model");
    origin.resize(n_new);
    std::iota(origin.begin(), origin.end(), 0);
  }
  if (static_cast<int>(origin.size()) != n_new) return Reject("model");
  std::vector<int> moved_to(n_old, -1);  // old index -> new index, -1 when removed
  for (int p = 0; p < n_new; ++p) {
    if (origin[p] >= 0) moved_to[origin[p]] = p;
  }
  // Facts name the node that recorded them by index: with facts, no node moves.
  if (has_facts_) {
    for (int o = 0; o < n_old; ++o) {
      if (moved_to[o] != o) return Reject("model");
    }
  }
  // A subgraph's values and findings are filed under a path that names its node's index
  // ("main/If_3.then_branch"): such a node stays where it is.
  for (int o = 0; o < n_old; ++o) {
    if (moved_to[o] != o && HasSubgraph(old_graph.node(o))) return Reject("subgraph");
  }
  // The findings of the last run: a node's moves with it; the graph's own are kept only where
  // no edit of nodes can change them.
  for (const Diagnostic& d : result_.diagnostics) {
    if (d.graph != "main") return Reject("model findings");
    if (d.node_index < 0) {
      if (d.code != DiagCode::kOpsetNewer) return Reject("model findings");
      continue;
    }
    if (d.code == DiagCode::kDuplicateDefinition || d.code == DiagCode::kGraphCycle)
      return Reject("model findings");
    if (d.node_index >= n_old || moved_to[d.node_index] < 0) return Reject("node with findings");
  }
  const auto prov_it = provenance_->graphs.find("main");
  if (prov_it == provenance_->graphs.end() ||
      prov_it->second.size() != static_cast<size_t>(n_old)) {
    return Reject("model");
  }
  const std::vector<NodeProvenance>& old_prov = prov_it->second;
  GraphValueTypes& main = result_.value_types.at("main");
  std::set<int> touched = touched_;
  for (int p = 0; p < n_new; ++p) {
    if (origin[p] < 0) touched.insert(p);
  }
  // The edited model's names, from the last run's index and the nodes edited: what the
  // edited nodes define and read, and the names renamed.
  std::unordered_map<std::string, int> touched_outputs;  // name -> node, -2 when several
  std::unordered_map<std::string, std::vector<int>> touched_inputs;
  for (int p : touched) {
    const onnx::NodeProto& node = graph.node(p);
    if (HasSubgraph(node)) return Reject("subgraph");
    if (origin[p] >= 0 && HasSubgraph(old_graph.node(origin[p]))) return Reject("subgraph");
    for (const auto& out : node.output()) {
      if (out.empty()) continue;
      auto [it, first] = touched_outputs.emplace(out, p);
      if (!first) it->second = -2;
    }
    for (const auto& in : node.input()) {
      if (!in.empty()) touched_inputs[in].push_back(p);
    }
  }
  for (const auto& [from, to] : renames_) {
    for (const std::string* name : {&from, &to}) {
      if (index_.inputs.count(*name) || index_.declared.count(*name))
        return Reject("input or output edit");
    }
  }
  // The node of the edited model that produces `name`: -1 none, -2 several.
  auto new_producer = [&](const std::string& name) {
    int result = -1;
    if (auto t = touched_outputs.find(name); t != touched_outputs.end()) result = t->second;
    if (auto o = index_.producers.find(name); o != index_.producers.end()) {
      if (o->second < 0) return -2;
      const int q = moved_to[o->second];
      if (q >= 0 && !touched.count(q)) result = result == -1 ? q : -2;
    }
    return result;
  };
  // The nodes of the edited model that read `name`.
  auto new_readers = [&](const std::string& name) {
    std::vector<int> readers;
    if (auto c = index_.consumers.find(name); c != index_.consumers.end()) {
      for (int o : c->second) {
        const int q = moved_to[o];
        if (q >= 0 && !touched.count(q)) readers.push_back(q);
      }
    }
    if (auto t = touched_inputs.find(name); t != touched_inputs.end()) {
      readers.insert(readers.end(), t->second.begin(), t->second.end());
    }
    return readers;
  };
  // The index of initializer `name` in the edited model, or -1.
  std::set<std::string, std::less<>> edited_initializers(initializer_edits_.begin(),
                                                         initializer_edits_.end());
  auto new_initializer = [&](const std::string& name) {
    if (edited_initializers.count(name)) {
      for (int i = 0; i < graph.initializer_size(); ++i) {
        if (graph.initializer(i).name() == name) return i;
      }
      return -1;
    }
    auto it = index_.initializers.find(name);
    return it == index_.initializers.end() ? -1 : it->second;
  };
  // In order still: what an edited node reads is defined before it, what it defines read
  // after it (the other nodes keep their order).
  for (int p : touched) {
    for (const auto& in : graph.node(p).input()) {
      if (!in.empty() && new_producer(in) >= p) return Reject("model");
    }
    for (const auto& out : graph.node(p).output()) {
      if (out.empty()) continue;
      for (int reader : new_readers(out)) {
        if (reader <= p) return Reject("model");
      }
    }
  }

  // Names whose definition changed: the outputs of removed nodes, the old outputs of edited
  // ones, the initializers set and the names renamed.
  std::set<std::string, std::less<>> dirty;
  for (int o = 0; o < n_old; ++o) {
    if (moved_to[o] >= 0) continue;
    const onnx::NodeProto& node = old_graph.node(o);
    if (nodes_with_diagnostics_.count(o)) return Reject("node with findings");
    if (old_prov[o].how != NodeProvenance::How::kRule || old_prov[o].rule_failed)
      return Reject("node without rule");
    if (HasSubgraph(node)) return Reject("subgraph");
    for (const auto& out : node.output()) {
      if (out.empty()) continue;
      const Type* t = main.Find(out);
      if (t && !OnlyDeclaredSymbols(*t, declared_symbols_)) return Reject("introduced symbol");
      dirty.insert(out);
    }
  }
  for (int p : touched) {
    if (origin[p] < 0) continue;
    for (const auto& out : old_graph.node(origin[p]).output()) {
      if (!out.empty()) dirty.insert(out);
    }
  }
  for (const auto& name : initializer_edits_) dirty.insert(name);
  for (const auto& [from, to] : renames_) {
    dirty.insert(from);
    dirty.insert(to);
  }
  // Produced by a node edited or inserted: its readers are inferred again when its type
  // changes. Any other changed name: its readers are inferred again.
  auto touched_producer = [&](const std::string& name) {
    const int q = new_producer(name);
    return q >= 0 && touched.count(q) > 0;
  };
  std::set<int> work = touched;
  std::set<std::string, std::less<>> changed_inputs;  // names whose readers see a change
  for (const auto& name : dirty) {
    if (index_.inputs.count(name)) return Reject("input value");
    const int init = new_initializer(name);
    if (index_.initializers.count(name) && init < 0) return Reject("input value");
    if (init >= 0) {
      const onnx::TensorProto& tensor = graph.initializer(init);
      if (IsExternal(tensor) || tensor.data_type() == 0) return Reject("input value");
      if (new_producer(name) != -1) return Reject("output defined twice");
    }
    const bool by_touched = touched_producer(name);
    if (index_.declared.count(name) && !by_touched) return Reject("declared output changed");
    if (by_touched) continue;
    changed_inputs.insert(name);
    for (int reader : new_readers(name)) work.insert(reader);
  }
  for (const auto& vi : graph.output()) {
    if (!index_.inputs.count(vi.name()) && new_initializer(vi.name()) < 0 &&
        new_producer(vi.name()) < 0) {
      return Reject("output value");  // undefined: a finding of the graph
    }
  }

  StructuralView view;
  view.old_index = [&](int p) { return origin[p]; };
  view.producer = new_producer;
  view.readers = new_readers;
  view.initializer = new_initializer;
  Reinferred walk;
  if (!Reinfer(view, std::move(work), changed_inputs, &walk)) return false;
  for (int p : touched) {
    if (origin[p] < 0 && !walk.Has(p)) return Reject("model");  // cannot happen
  }

  // Every node inferred again is inferred as in a full run: commit. The values whose count
  // and listing change: the old and new outputs of the nodes inferred again or removed.
  std::set<std::string, std::less<>> affected(dirty.begin(), dirty.end());
  for (const auto& [p, prov] : walk.nodes) {
    for (const auto& out : graph.node(p).output()) {
      if (!out.empty()) affected.insert(out);
    }
  }
  auto new_output_type = [&](const std::string& name) -> const Type* {
    return new_producer(name) >= 0 ? walk.TypeNow(main, name) : nullptr;
  };
  for (const auto& name : affected) {
    if (index_.declared.count(name)) continue;  // counted alike before and after
    CommitType(name, OldOutputType(name), new_output_type(name), changed_names);
  }
  result_.stats.nodes += n_new - n_old;
  // The index, from the old model's nodes (before annotated_ takes the new ones): the removed
  // and edited nodes' names out, the other nodes' indices moved, the edited nodes' names in.
  for (int o = 0; o < n_old; ++o) {
    if (moved_to[o] >= 0 && !touched.count(moved_to[o])) continue;
    const onnx::NodeProto& node = old_graph.node(o);
    for (const auto& out : node.output()) {
      auto it = index_.producers.find(out);
      if (it != index_.producers.end() && it->second == o) index_.producers.erase(it);
    }
    for (const auto& in : node.input()) {
      auto it = index_.consumers.find(in);
      if (it == index_.consumers.end()) continue;
      auto& readers = it->second;
      readers.erase(std::remove(readers.begin(), readers.end(), o), readers.end());
      if (readers.empty()) index_.consumers.erase(it);
    }
  }
  if (!origin_.empty()) {
    for (auto& entry : index_.producers) {
      if (entry.second >= 0) entry.second = moved_to[entry.second];
    }
    for (auto& entry : index_.consumers) {
      for (int& reader : entry.second) reader = moved_to[reader];
    }
  }
  for (int p : touched) {
    const onnx::NodeProto& node = graph.node(p);
    for (const auto& out : node.output()) {
      if (!out.empty()) index_.producers[out] = p;
    }
    for (const auto& in : node.input()) {
      if (!in.empty()) index_.consumers[in].push_back(p);
    }
  }
  for (const auto& name : edited_initializers) {
    const int init = new_initializer(name);
    if (init >= 0) index_.initializers[name] = init;
  }
  // The node list and provenance, in the new order.
  std::vector<NodeProvenance> prov(n_new);
  for (int p = 0; p < n_new; ++p) {
    if (origin[p] >= 0) prov[p] = std::move(prov_it->second[origin[p]]);
  }
  for (auto& [p, node_prov] : walk.nodes) {
    prov[p] = std::move(node_prov);
    nodes_out->push_back(p);
  }
  prov_it->second = std::move(prov);
  // The names whose value_info entries (if any) go: old outputs of nodes removed or edited,
  // and types that changed.
  std::set<std::string, std::less<>> dead(dirty.begin(), dirty.end());
  for (const auto& [name, type] : walk.changed) dead.insert(name);
  onnx::GraphProto* annotated = annotated_.mutable_graph();
  {
    std::vector<onnx::NodeProto*> old_nodes(n_old);
    if (n_old > 0) annotated->mutable_node()->ExtractSubrange(0, n_old, old_nodes.data());
    for (int p = 0; p < n_new; ++p) {
      const int o = origin[p];
      if (o >= 0 && !touched.count(p)) {
        annotated->mutable_node()->AddAllocated(old_nodes[o]);
        old_nodes[o] = nullptr;
      } else {
        *annotated->add_node() = graph.node(p);
      }
    }
    for (onnx::NodeProto* n : old_nodes) delete n;
  }
  for (const auto& name : initializer_edits_) {
    const int init = new_initializer(name);
    if (init < 0) continue;
    auto* inits = annotated->mutable_initializer();
    auto it = std::find_if(inits->begin(), inits->end(),
                           [&](const onnx::TensorProto& t) { return t.name() == name; });
    if (it != inits->end()) {
      *it = graph.initializer(init);
    } else {
      *inits->Add() = graph.initializer(init);
    }
  }
  // The value_info entries inference adds (after the model's own, one per written node
  // output, in node order), made again by walking the old ones alongside the new nodes: an
  // unchanged value of a node not edited keeps its entry (the next old one not dead), the
  // others are written anew.
  {
    const int declared = graph.value_info_size();
    auto* infos = annotated->mutable_value_info();
    const int added = infos->size() - declared;
    std::vector<onnx::ValueInfoProto*> old_infos(std::max(added, 0));
    if (added > 0) infos->ExtractSubrange(declared, added, old_infos.data());
    size_t next = 0;
    for (int p = 0; p < n_new; ++p) {
      const bool edited = touched.count(p) > 0;
      for (const auto& out : graph.node(p).output()) {
        if (out.empty() || index_.declared.count(out)) continue;
        auto c = walk.changed.find(out);
        if (!edited && c == walk.changed.end()) {
          while (next < old_infos.size() && dead.count(old_infos[next]->name())) {
            delete old_infos[next];
            old_infos[next++] = nullptr;
          }
          if (next < old_infos.size() && old_infos[next]->name() == out) {
            infos->AddAllocated(old_infos[next]);
            old_infos[next++] = nullptr;
          }
          continue;  // else written by no run
        }
        const Type* type = c != walk.changed.end() ? &c->second : main.Find(out);
        if (!type || !Writable(*type)) continue;
        onnx::ValueInfoProto* vi = infos->Add();
        vi->set_name(out);
        WriteTypeToProto(*type, vi->mutable_type());
      }
    }
    for (onnx::ValueInfoProto* vi : old_infos) delete vi;
  }
  value_info_index_stale_ = true;
  // The listing of values.
  {
    // In node order, as the value_info entries: a node not edited moves its names over.
    std::set<std::string_view> outputs;
    for (const auto& vi : graph.output()) outputs.insert(vi.name());
    std::vector<std::string> values;
    values.reserve(static_cast<size_t>(n_new) + 8);
    size_t next = 0;
    for (int p = 0; p < n_new; ++p) {
      const bool edited = touched.count(p) > 0;
      for (const auto& name : graph.node(p).output()) {
        if (name.empty() || outputs.count(name)) continue;
        if (!edited) {
          while (next < main.values.size() && dirty.count(main.values[next])) ++next;
          if (next < main.values.size() && main.values[next] == name) {
            values.push_back(std::move(main.values[next++]));
            continue;
          }
        }
        values.push_back(name);
      }
    }
    main.values = std::move(values);
  }
  for (Diagnostic& d : result_.diagnostics) {
    if (d.node_index >= 0) d.node_index = moved_to[d.node_index];
  }
  nodes_with_diagnostics_.clear();
  for (const Diagnostic& d : result_.diagnostics) nodes_with_diagnostics_.insert(d.node_index);
  std::sort(changed_names->begin(), changed_names->end());
  return true;
}

SessionUpdate Session::Update() {
  SessionUpdate update;
  if (pending_ == 0) {
    stats_.empty_updates++;
    return update;
  }
  std::vector<int> nodes;
  bool structural = false;
  bool done = false;
  {
    // The nodes inferred alone make their dims in the session's context.
    symbolic::SymbolContext::Scope symbols(*options_.symbol_context);
    done = TryIncremental(&nodes, &update.changed_values);
    if (!done) {
      // The node-local path's reason is moot: the structural path covers every case it does.
      nodes.clear();
      update.changed_values.clear();
      done = structural = TryStructural(&nodes, &update.changed_values);
    }
  }
  if (done) {
    ClearEdits();
    stats_.incremental_updates++;
    if (structural) stats_.structural_updates++;
    stats_.nodes_inferred += static_cast<int64_t>(nodes.size());
    update.incremental = true;
    return update;
  }
  ClearEdits();
  update.changed_values.clear();
  stats_.full_updates++;
  stats_.full_reasons[reject_ ? reject_ : "model"]++;
  GraphValueTypes before;
  if (auto it = result_.value_types.find("main"); it != result_.value_types.end()) {
    before = std::move(it->second);
  }
  std::vector<Diagnostic> old_diagnostics = std::move(result_.diagnostics);
  InferFully();
  const GraphValueTypes* after = nullptr;
  if (auto it = result_.value_types.find("main"); it != result_.value_types.end()) {
    after = &it->second;
  }
  std::set<std::string> changed;
  for (const auto& [name, type] : before.types) {
    const Type* now = after ? after->Find(name) : nullptr;
    if (!now || !(*now == type)) changed.insert(name);
  }
  if (after) {
    for (const auto& [name, type] : after->types) {
      if (!before.types.count(name)) changed.insert(name);
    }
  }
  update.changed_values.assign(changed.begin(), changed.end());
  // Diagnostics as multisets of their rendered lines.
  std::multimap<std::string, const Diagnostic*> old_lines, new_lines;
  for (const Diagnostic& d : old_diagnostics) old_lines.emplace(d.Render(""), &d);
  for (const Diagnostic& d : result_.diagnostics) new_lines.emplace(d.Render(""), &d);
  auto diff = [](const std::multimap<std::string, const Diagnostic*>& a,
                 const std::multimap<std::string, const Diagnostic*>& b,
                 std::vector<Diagnostic>* out) {
    for (auto it = a.begin(); it != a.end();) {
      const auto range = a.equal_range(it->first);
      const size_t in_a = static_cast<size_t>(std::distance(range.first, range.second));
      const size_t in_b = b.count(it->first);
      size_t k = 0;
      for (auto r = range.first; r != range.second; ++r, ++k) {
        if (k >= in_b) out->push_back(*r->second);
      }
      (void)in_a;
      it = range.second;
    }
  };
  diff(new_lines, old_lines, &update.added_diagnostics);
  diff(old_lines, new_lines, &update.removed_diagnostics);
  return update;
}

}  // namespace onnx_infer
