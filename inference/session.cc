#include "onnx_infer/inference/session.h"

#include <algorithm>
#include <iterator>
#include <optional>
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

void Session::IndexModel() {
  nodes_with_diagnostics_.clear();
  initializers_.clear();
  inputs_.clear();
  declared_.clear();
  declared_symbols_.clear();
  producers_.clear();
  consumers_.clear();
  value_info_index_.clear();
  ordered_ = false;
  const InferenceResult& r = result_;
  incremental_ok_ =
      r.facts.empty() && r.fact_sources.empty() && r.conditions.empty() && r.bounds.empty() &&
      r.relations.empty() && r.fact_dims.empty() && r.relation_dims.empty() &&
      r.multiples.empty() && model_.functions_size() == 0 && model_.training_info_size() == 0 &&
      options_.assumptions.empty() && options_.bind.empty() && options_.input_values.empty() &&
      options_.input_shapes.empty() && !options_.assume_positive && !options_.record_provenance &&
      provenance_ != nullptr && r.value_types.count("main") > 0;
  if (!incremental_ok_) return;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.graph == "main") nodes_with_diagnostics_.insert(d.node_index);
  }
  const onnx::GraphProto& g = model_.graph();
  std::set<std::string, std::less<>> repeated;
  for (int i = 0; i < g.initializer_size(); ++i) {
    if (!initializers_.emplace(g.initializer(i).name(), i).second) {
      repeated.insert(g.initializer(i).name());
    }
  }
  for (const auto& name : repeated) initializers_.erase(name);
  for (const auto& sparse : g.sparse_initializer()) initializers_.erase(sparse.values().name());
  for (const auto& vi : g.input()) inputs_.insert(vi.name());
  for (const auto& vi : g.output()) declared_.insert(vi.name());
  for (const auto& vi : g.value_info()) declared_.insert(vi.name());
  for (const auto& sparse : g.sparse_initializer()) declared_.insert(sparse.values().name());
  for (const SymbolInfo& s : r.symbols) {
    if (s.declared) declared_symbols_.insert(s.name);
  }
  // Whether no node reads a value a later node defines, so that the node list is the order
  // of inference (a value no node defines leaves its readers with a diagnostic: they are
  // never inferred alone); and each value's readers, a node with subgraphs counted as a
  // reader of every name they mention.
  std::unordered_map<std::string_view, int> first_producer;
  for (int i = 0; i < g.node_size(); ++i) {
    for (const auto& out : g.node(i).output()) {
      if (out.empty()) continue;
      producers_[out]++;
      first_producer.emplace(out, i);
    }
  }
  ordered_ = true;
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& node = g.node(i);
    for (const auto& in : node.input()) {
      if (in.empty()) continue;
      auto p = first_producer.find(in);
      if (p != first_producer.end() && p->second >= i) ordered_ = false;
      consumers_[in].push_back(i);
    }
    for (const auto& attr : node.attribute()) {
      std::vector<std::string> names;
      if (attr.has_g()) MentionedNames(attr.g(), &names);
      for (const auto& sub : attr.graphs()) MentionedNames(sub, &names);
      for (const auto& name : names) consumers_[name].push_back(i);
    }
  }
  const onnx::GraphProto& ag = annotated_.graph();
  for (int i = 0; i < ag.value_info_size(); ++i) value_info_index_[ag.value_info(i).name()] = i;
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
  pending_.push_back({true, index});
  return OkStatus();
}

Status Session::InsertNode(int index, const onnx::NodeProto& node) {
  if (Status st = CheckNodeIndex(index, true); !st.ok()) return st;
  auto* nodes = model_.mutable_graph()->mutable_node();
  *nodes->Add() = node;
  for (int i = nodes->size() - 1; i > index; --i) nodes->SwapElements(i, i - 1);
  pending_.push_back({false, index});
  return OkStatus();
}

Status Session::RemoveNode(int index) {
  if (Status st = CheckNodeIndex(index, false); !st.ok()) return st;
  model_.mutable_graph()->mutable_node()->DeleteSubrange(index, 1);
  pending_.push_back({false, index});
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
  pending_.push_back({true, index});
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
  pending_.push_back({false, -1});
  return OkStatus();
}

Status Session::SetInputType(std::string_view name, const onnx::TypeProto& type) {
  for (auto& vi : *model_.mutable_graph()->mutable_input()) {
    if (vi.name() == name) {
      *vi.mutable_type() = type;
      pending_.push_back({false, -1});
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
  pending_.push_back({false, -1});
  return OkStatus();
}

Status Session::RemoveOutput(std::string_view name) {
  auto* outputs = model_.mutable_graph()->mutable_output();
  for (int i = 0; i < outputs->size(); ++i) {
    if (outputs->Get(i).name() == name) {
      outputs->DeleteSubrange(i, 1);
      pending_.push_back({false, -1});
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
  RenameInGraph(model_.mutable_graph(), from, to, /*outer=*/true);
  pending_.push_back({false, -1});
  return OkStatus();
}

const Type* Session::TypeOf(std::string_view name) const { return result_.TypeOf("main", name); }

// Whether a type is one the write-back gives a value_info entry (InferShapes writes nothing
// for an unknown type or an element type of 0 without a shape).
static bool Writable(const Type& type) {
  return !(type.is_unknown() || (type.is_tensor() && type.elem_type() == 0 && !type.has_shape()));
}

bool Session::Reject(const char* reason) {
  reject_ = reason;
  return false;
}

bool Session::TryIncremental(std::vector<int>* nodes, std::vector<std::string>* changed_names) {
  if (!incremental_ok_ || !ordered_) return Reject("model");
  for (const Edit& e : pending_) {
    if (!e.node_local) return Reject("structural edit");
  }
  const onnx::GraphProto& graph = model_.graph();
  if (graph.node_size() != annotated_.graph().node_size()) return Reject("structural edit");
  // The edited nodes, then every node downstream of a value whose type changes, in the
  // graph's order (a topological one: ordered_).
  std::set<int> work;
  for (const Edit& e : pending_) work.insert(e.index);

  symbolic::SymbolContext::Scope symbols(*options_.symbol_context);
  GraphValueTypes& main = result_.value_types.at("main");
  const OpsetImports opsets = ReadOpsetImports(model_.opset_import());
  const auto prov_it = provenance_->graphs.find("main");
  if (prov_it == provenance_->graphs.end()) return Reject("model");
  // Past this many nodes, a full inference is as cheap (and surely right).
  const size_t max_nodes = std::max<size_t>(64, graph.node_size() / 20);
  std::map<std::string, Type, std::less<>> changed;  // value -> its new type
  std::vector<std::pair<int, NodeProvenance>> updates;
  auto type_now = [&](const std::string& name) -> const Type* {
    auto it = changed.find(name);
    return it != changed.end() ? &it->second : main.Find(name);
  };
  while (!work.empty()) {
    const int index = *work.begin();
    work.erase(work.begin());
    if (updates.size() >= max_nodes) return Reject("too many nodes");
    const onnx::NodeProto& old_node = annotated_.graph().node(index);
    const onnx::NodeProto& node = graph.node(index);
    bool inputs_changed = false;
    for (const auto& in : node.input()) inputs_changed = inputs_changed || changed.count(in);
    if (!inputs_changed && node.SerializeAsString() == old_node.SerializeAsString()) continue;
    if (!SameNames(node.input(), old_node.input()) ||
        !SameNames(node.output(), old_node.output())) {
      return Reject("node rewired");
    }
    if (HasSubgraph(node) || HasSubgraph(old_node)) return Reject("subgraph");
    if (nodes_with_diagnostics_.count(index)) return Reject("node with findings");
    if (index >= static_cast<int>(prov_it->second.size())) return Reject("model");
    const NodeProvenance& old_prov = prov_it->second[index];
    if (old_prov.how != NodeProvenance::How::kRule || old_prov.rule_failed)
      return Reject("node without rule");
    for (uint8_t bits : old_prov.outputs) {
      if (bits != 0) return Reject("output value");
    }
    if (old_prov.inputs.size() != static_cast<size_t>(node.input_size()))
      return Reject("node rewired");

    // The inputs as the run has them.
    NodeProvenance prov;
    prov.how = NodeProvenance::How::kRule;
    prov.inputs.assign(node.input_size(), 0);
    std::vector<Type> input_types(node.input_size());
    std::vector<std::optional<ConstValue>> input_values(node.input_size());
    for (int i = 0; i < node.input_size(); ++i) {
      const std::string& name = node.input(i);
      if (name.empty()) continue;
      auto init = initializers_.find(name);
      if (init != initializers_.end() && !inputs_.count(name)) {
        const onnx::TensorProto& tensor = graph.initializer(init->second);
        if (IsExternal(tensor)) return Reject("input value");
        input_types[i] = TypeOfTensor(tensor);
        input_values[i] = ConstValueOfTensor(tensor, options_.max_value_elements);
        prov.inputs[i] = old_prov.inputs[i];
        continue;
      }
      if (init != initializers_.end() || !(inputs_.count(name) || producers_.count(name))) {
        return Reject("input value");  // a default input, or not defined
      }
      const uint8_t known = NodeProvenance::kValueKnown | NodeProvenance::kValuePartial;
      if (old_prov.inputs[i] & known)
        return Reject("input value");  // a value the session does not hold
      const Type* type = type_now(name);
      if (!type) return Reject("input value");
      input_types[i] = *type;
    }
    for (const auto& out : node.output()) {
      if (out.empty()) continue;
      if (inputs_.count(out) || initializers_.count(out)) return Reject("output defined twice");
      auto p = producers_.find(out);
      if (p == producers_.end() || p->second != 1) return Reject("output defined twice");
    }

    NodeInferenceResult r =
        InferNodeOutputs(registry_, node, opsets, input_types, input_values, options_);
    if (!r.diagnostics.empty() || !r.schema || !r.schema->has_rule())
      return Reject("node with findings");
    if (r.output_types.size() != static_cast<size_t>(node.output_size()))
      return Reject("node with findings");
    for (int o = 0; o < node.output_size(); ++o) {
      const std::string& out = node.output(o);
      if (out.empty()) continue;
      if (r.output_values.size() > static_cast<size_t>(o) && r.output_values[o])
        return Reject("output value");
      Type& now = r.output_types[o];
      if (declared_.count(out)) {
        // A graph output or value_info entry: what the run found before merging in the
        // declaration must come out again, so that the merge gives what it gave.
        auto inferred = main.inferred.find(out);
        if (inferred == main.inferred.end() || !(inferred->second == now) ||
            !OnlyDeclaredSymbols(now, declared_symbols_)) {
          return Reject("declared output changed");
        }
        continue;
      }
      const Type* old_type = main.Find(out);
      if (!old_type || !OnlyDeclaredSymbols(*old_type, declared_symbols_))
        return Reject("introduced symbol");
      if (*old_type == now) continue;
      // A changed type: written in place of the old one (both written, neither a graph
      // output), and every reader of the value is inferred again.
      if (!Writable(*old_type) || !Writable(now) || !OnlyDeclaredSymbols(now, declared_symbols_) ||
          !value_info_index_.count(out)) {
        return Reject("changed type not written");
      }
      auto readers = consumers_.find(out);
      if (readers != consumers_.end()) {
        for (int reader : readers->second) {
          if (reader <= index) return Reject("model");  // not in order after all
          work.insert(reader);
        }
      }
      changed[out] = std::move(now);
    }
    prov.outputs.assign(node.output_size(), 0);
    updates.emplace_back(index, std::move(prov));
  }
  // Every node inferred again is inferred as in a full run: commit.
  for (const Edit& e : pending_) {
    *annotated_.mutable_graph()->mutable_node(e.index) = graph.node(e.index);
  }
  for (auto& [index, prov] : updates) {
    prov_it->second[index] = std::move(prov);
    nodes->push_back(index);
  }
  onnx::GraphProto* annotated = annotated_.mutable_graph();
  for (auto& [name, type] : changed) {
    Type& slot = main.types.at(name);
    CountValueStats(slot, -1, result_.stats);
    CountValueStats(type, 1, result_.stats);
    onnx::TypeProto* proto =
        annotated->mutable_value_info(value_info_index_.at(name))->mutable_type();
    proto->Clear();
    WriteTypeToProto(type, proto);
    slot = std::move(type);
    changed_names->push_back(name);
  }
  return true;
}

SessionUpdate Session::Update() {
  SessionUpdate update;
  if (pending_.empty()) {
    stats_.empty_updates++;
    return update;
  }
  std::vector<int> nodes;
  if (TryIncremental(&nodes, &update.changed_values)) {
    pending_.clear();
    stats_.incremental_updates++;
    stats_.nodes_inferred += static_cast<int64_t>(nodes.size());
    update.incremental = true;
    return update;
  }
  update.changed_values.clear();
  pending_.clear();
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
