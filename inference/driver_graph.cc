// The driver: a graph inferred: its values defined (declared types, initializers, inputs), its
// nodes ordered and inferred in that order (inference/driver.h).
#include "onnx_infer/inference/driver.h"

namespace onnx_infer::driver_internal {

void Driver::InferGraph(GraphRun& run, Scope* scope, bool count_stats) {
  ReportUndefinedElemTypes(run);
  DefineGraphValues(run, scope);
  const NodeIndex index = IndexNodeValues(run, scope);
  ReadDeclaredTypes(run, scope);
  // Nothing reads this graph's values by name from here on: its nodes' steps find them by id,
  // no subgraph looks up an outer name, and what follows the nodes has the ids of the names it
  // needs. The name table is freed before the producers and the per-node steps (on the 700k
  // tiny-nodes chain, 16 bytes a value at the driver's peak). Nor does anything but the nodes
  // read a value's elements, the outputs' aside: each is freed after its last read (the Shape,
  // Gather, Concat... outputs of a decoder, about 250 bytes each, were kept to the end).
  const bool by_id_only = run.release_written && !index.has_subgraphs;
  if (by_id_only) scope->ReleaseNames();
  {
    const Producers producer = FindProducers(run, *scope);
    const std::optional<NodeOrder> order = OrderGraphNodes(run, *scope, producer, index);
    if (by_id_only) MarkLastReads(run, order, scope->size());
    const int num_ordered = order ? static_cast<int>(order->order.size()) : run.graph->node_size();
    for (int k = 0; k < num_ordered; ++k) {
      if (count_stats) result_.stats.nodes++;
      InferGraphNode(run, scope, order ? order->order[k] : k, producer, count_stats);
    }
    ReportUndefinedOutputs(run, *scope, producer);
  }  // the producers and the order are freed before the write-back (its peak)
  RefineByModelBounds(run, scope);
  CollectGraphOutputs(run, *scope);
  if (run.release_written) {
    run.declared_types = {};
    run.node_inputs = {};
    run.node_outcome = {};
  }
  WriteBack(run, *scope, count_stats);
}

void Driver::TagNewFacts() {
  const auto& facts = unifier_.facts();
  while (fact_sources_.size() < facts.size()) {
    FactSource source;
    if (!node_stack_.empty()) {
      const NodeFrame& frame = node_stack_.back();
      source.graph = *frame.graph;
      source.node_index = frame.index;
      source.node_name = frame.node->name();
      source.op_type = frame.node->op_type();
      source.domain = frame.node->domain();
    }
    source.lhs = facts[fact_sources_.size()].lhs;
    source.rhs = facts[fact_sources_.size()].rhs;
    fact_sources_.push_back(std::move(source));
  }
}

// A position table of 4096 rows sliced to Shape(x)[1] is [1, Min(4096, seq), 8]; the Add of
// it and x that follows holds only for seq <= 4096, so once the Add is inferred the slice's
// dim is seq for every input the model accepts. Types inferred after the bound was learnt
// use it already (the unifier resolves each output dim); this pass reaches those written
// before. Only when the model has stated an upper bound; the main graph's values (a
// subgraph's types are written when it is inferred).
void Driver::RefineByModelBounds(const GraphRun& run, Scope* scope) {
  if (run.depth != 0 || !unifier_.has_model_upper_bounds()) return;
  const onnx::GraphProto& graph = *run.graph;
  std::vector<std::string> used;
  for (int index = 0; index < graph.node_size(); ++index) {
    const onnx::NodeProto& node = graph.node(index);
    const int* ids = run.node_ids.outputs(index, node);
    for (int o = 0; o < node.output_size(); ++o) {
      if (ids[o] < 0 || !scope->FindHere(ids[o]) || !scope->at(ids[o]).from_node()) continue;
      Type& type = scope->at(ids[o]).type;
      if (type.kind() != Type::Kind::kTensor && type.kind() != Type::Kind::kSparseTensor) continue;
      Shape* shape = type.mutable_shape();
      if (!shape) continue;
      for (size_t axis = 0; axis < shape->size(); ++axis) {
        Dim& d = (*shape)[axis];
        const Dim refined = unifier_.RefineByModelBounds(d, &used);
        if (used.empty()) continue;
        const std::string origin =
            node.name().empty()
                ? StrCat("node of output '", node.output(0), "' (", node.op_type(), ")")
                : StrCat("node '", node.name(), "' (", node.op_type(), ")");
        unifier_.AddCondition(
            StrJoin(used, ", "),
            StrCat("the model's bound, for ", origin, ": output '", node.output(o), "' dim ", axis,
                   " is ", refined.ToString(), " instead of ", d.ToString()));
        d = refined;
      }
    }
  }
}

// Whether `type` holds a tensor type whose elem_type is given as UNDEFINED (0), at the top or
// inside a sequence, map or optional. An absent elem_type is not reported.
bool HasUndefinedElemType(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      return type.tensor_type().has_elem_type() && type.tensor_type().elem_type() == 0;
    case onnx::TypeProto::kSparseTensorType:
      return type.sparse_tensor_type().has_elem_type() &&
             type.sparse_tensor_type().elem_type() == 0;
    case onnx::TypeProto::kSequenceType:
      return type.sequence_type().has_elem_type() &&
             HasUndefinedElemType(type.sequence_type().elem_type());
    case onnx::TypeProto::kOptionalType:
      return type.optional_type().has_elem_type() &&
             HasUndefinedElemType(type.optional_type().elem_type());
    case onnx::TypeProto::kMapType:
      return type.map_type().has_value_type() && HasUndefinedElemType(type.map_type().value_type());
    default:
      return false;
  }
}

// onnx.proto: a tensor type's elem_type and a tensor's data_type MUST NOT be UNDEFINED. A
// model's input or an initializer so declared has no element type a rule could check (onnx
// stops at the first node reading it: "Element type of input 0 unknown"); the value is still
// defined, of unknown element type. A subgraph's inputs and any value_info are left alone:
// there UNDEFINED is used, and read by onnx, as "to be inferred" (a Loop body's placeholders,
// a value_info giving only a shape).
void Driver::ReportUndefinedElemTypes(const GraphRun& run) {
  const onnx::GraphProto& graph = *run.graph;
  constexpr const char* kWhy = "the element type is UNDEFINED (0), which onnx.proto forbids";
  for (int i = 0; run.depth == 0 && i < graph.input_size(); ++i) {
    const onnx::ValueInfoProto& vi = graph.input(i);
    if (vi.has_type() && HasUndefinedElemType(vi.type())) {
      Report(*run.diagnostics, Severity::kError, DiagCode::kUndefinedElemType, run.path,
             StrCat("input ", i, " '", vi.name(), "': ", kWhy), Subject::Input(i, vi.name()));
    }
  }
  for (const auto& init : graph.initializer()) {
    if (init.data_type() == 0) {
      Report(*run.diagnostics, Severity::kError, DiagCode::kUndefinedElemType, run.path,
             StrCat("initializer '", init.name(), "': ", kWhy));
    }
  }
}

// A graph output is a use (IR.md): of a node output, a graph input or initializer, or, in a
// subgraph or training graph, a value of an enclosing graph. One that names none of these
// is an error; its declared type is kept. (Nodes on a cycle count as producers.)
void Driver::ReportUndefinedOutputs(const GraphRun& run, const Scope& scope,
                                    const Producers& producer) {
  if (scope.IsOpen()) return;
  for (int i = 0; i < run.graph->output_size(); ++i) {
    const std::string& name = run.graph->output(i).name();
    const int id = run.output_ids[i];
    if (scope.Find(id, name) || (id >= 0 && producer[id] >= 0)) continue;
    Report(*run.diagnostics, Severity::kError, DiagCode::kUndefinedValue, run.path,
           StrCat("output ", i, " '", name,
                  "' is not defined by any node, graph input or initializer"),
           Subject::Output(i, name));
  }
}

void Driver::ReadDeclaredTypes(GraphRun& run, Scope* scope) const {
  const onnx::GraphProto& graph = *run.graph;
  run.declared_types.clear();
  run.declared_before_bind.clear();
  run.output_ids.resize(graph.output_size());
  for (int i = 0; i < graph.output_size(); ++i)
    run.output_ids[i] = scope->IdOf(graph.output(i).name());
  run.value_info_ids.resize(graph.value_info_size());
  for (int i = 0; i < graph.value_info_size(); ++i) {
    run.value_info_ids[i] = scope->IdOf(graph.value_info(i).name());
  }
  // A later declaration of the same name replaces an earlier one.
  auto declare = [&](const onnx::ValueInfoProto& vi, int id) {
    if (id < 0) return;  // not a value of this graph: no node output to merge with
    scope->Declare(id, static_cast<int32_t>(run.declared_types.size()));
    run.declared_types.push_back(TypeFromProto(vi.type()));
    if (!declared_before_bind_.empty()) {
      auto before = declared_before_bind_.find(&vi);
      run.declared_before_bind.push_back(before != declared_before_bind_.end() ? &before->second
                                                                               : nullptr);
    }
  };
  for (int i = 0; i < graph.output_size(); ++i) declare(graph.output(i), run.output_ids[i]);
  for (int i = 0; i < graph.value_info_size(); ++i) {
    if (graph.value_info(i).has_type()) declare(graph.value_info(i), run.value_info_ids[i]);
  }
  scope->FinishDeclaring();
}

Driver::NodeIndex Driver::IndexNodeValues(GraphRun& run, Scope* scope) {
  const onnx::GraphProto& graph = *run.graph;
  const int num_nodes = graph.node_size();
  NodeValueIds& ids = run.node_ids;  // sized by DefineGraphValues
  NodeIndex index;
  // One pass, each node's outputs before its inputs: an input names an output of a node
  // before it, or of the node itself, or of a node after it (a graph out of order; looked up
  // again once every output has its id, as are the names of no node output), or a value of
  // no node. The ids are assigned in node order either way.
  //
  // Whether the nodes are in order (for OrderGraphNodes), without the producers
  // (FindProducers makes them once the name table is freed; made here, they were 4 bytes a
  // value on top of the table, at the driver's peak): an id given by now is an input's or
  // initializer's (no producer), or was first given to an output of this node (its
  // producer: a cycle) or of a node before (its producer). An input that finds no id and
  // then names a node output reads it before it is produced.
  std::vector<uint32_t> again;  // where in ids.ids an input found no id in the pass
  Names previous;               // the outputs of the node before, and their ids
  const int* previous_ids = nullptr;
  for (int i = 0; i < num_nodes; ++i) {
    const onnx::NodeProto& node = graph.node(i);
    const Names inputs = InputNames(node);
    const Names outputs = OutputNames(node);
    int* in = ids.ids.data() + ids.offsets[i];
    int* out = in + inputs.size();
    const int first_new = scope->size();  // the first id this node's outputs may be given
    for (size_t o = 0; o < outputs.size(); ++o) {
      if (!outputs[o]->empty()) out[o] = scope->Intern(*outputs[o]);
    }
    for (size_t k = 0; k < inputs.size(); ++k) {
      const std::string& name = *inputs[k];
      if (name.empty()) continue;
      // Most often an output of the node before (a chain): compared before it is hashed.
      int id = -1;
      for (size_t o = 0; o < previous.size(); ++o) {
        if (*previous[o] == name) {
          id = previous_ids[o];
          break;
        }
      }
      if (id < 0) id = scope->IdOf(name);
      in[k] = id;
      if (id < 0) again.push_back(static_cast<uint32_t>(in + k - ids.ids.data()));
      if (id >= first_new) index.in_order = false;
    }
    for (const auto& a : node.attribute()) {
      if (a.has_g() || a.graphs_size() > 0) index.has_subgraphs = true;
    }
    previous = outputs;
    previous_ids = out;
  }
  // The names of the inputs looked up again, found by walking the nodes once more.
  size_t next = 0;
  for (int i = 0; i < num_nodes && next < again.size(); ++i) {
    const uint32_t first = ids.offsets[i];
    const Names inputs = InputNames(graph.node(i));
    while (next < again.size() && again[next] < first + inputs.size()) {
      const int id = ids.ids[again[next]] = scope->IdOf(*inputs[again[next] - first]);
      if (id >= 0) index.in_order = false;
      ++next;
    }
  }
  return index;
}

void Driver::DefineGraphValues(GraphRun& run, Scope* scope) {
  onnx::GraphProto& graph = *run.graph;
  auto& out = *run.diagnostics;
  // Inputs, initializers and node outputs: every name the scope holds. The walk that counts
  // the outputs also places each node's ids (IndexNodeValues fills them).
  size_t names = static_cast<size_t>(graph.input_size()) + graph.initializer_size() +
                 graph.sparse_initializer_size();
  NodeValueIds& ids = run.node_ids;
  const int num_nodes = graph.node_size();
  ids.offsets.resize(num_nodes);
  size_t total = 0;
  for (int i = 0; i < num_nodes; ++i) {
    const onnx::NodeProto& node = graph.node(i);
    const int num_outputs = node.output_size();
    ids.offsets[i] = static_cast<uint32_t>(total);
    total += node.input_size() + num_outputs;
    names += num_outputs;
  }
  ids.ids.assign(total, -1);
  scope->Reserve(names);
  const std::string& path = run.path;
  // The value `name` defines, or null (reported) when it is defined already.
  auto define = [&](const std::string& name, Type type, std::string_view what) -> Value* {
    auto [v, fresh] = scope->Define(scope->Intern(name));
    if (!fresh) {
      Report(out, Severity::kError, DiagCode::kDuplicateDefinition, path,
             StrCat("'", name, "' is defined more than once (again as ", what, ")"));
      return nullptr;
    }
    v->type = std::move(type);
    return v;
  };

  for (int i = 0; i < graph.input_size(); ++i) {
    onnx::ValueInfoProto* vi = graph.mutable_input(i);
    Type type = TypeFromProto(vi->type());
    if (run.record && options_.record_value_types && !type.is_unknown()) {
      run.declared_inputs.emplace_back(vi->name(), type);
    }
    if (run.input_types && i < static_cast<int>(run.input_types->size())) {
      const Type& given = (*run.input_types)[i];
      auto merged = MergeTypes(type, given);
      if (merged.ok()) {
        type = std::move(*merged);
      } else {
        Report(out, Severity::kError, DiagCode::kSubgraphMismatch, path,
               StrCat("input ", i, " '", vi->name(), "' is declared ", type.ToString(),
                      " but receives ", given.ToString(), " (", merged.status().message(), ")"),
               Subject::Input(i, vi->name()));
      }
      if (run.annotate_inputs && !type.is_unknown()) {
        WriteTypeToProto(type, vi->mutable_type(), &dim_texts_);
      }
    }
    Value* v = define(vi->name(), type, "a graph input");
    if (!v) continue;
    run.defined_inputs.emplace_back(vi->name(), type);
    if (run.input_values && i < static_cast<int>(run.input_values->size()) &&
        (*run.input_values)[i]) {
      v->set_data(Boxed(*(*run.input_values)[i]));
    }
    if (run.given_values) {
      auto given = run.given_values->find(vi->name());
      if (given != run.given_values->end()) v->set_data(Boxed(given->second));
    }
  }
  // An initializer's elements: read only if a node consumes them (external data) or a rule
  // asks for them (decoded on first use).
  auto attach_elements = [&](Value& v, const onnx::TensorProto& init) {
    if (external_values_.IsCandidate(init)) {
      v.set_external(&init);
    } else {
      v.set_unread(&init);
    }
  };
  TensorTypeCache initializer_types;  // a CNN's weights repeat a few shapes
  for (const auto& init : graph.initializer()) {
    Type type = initializer_types.Get(init);
    const int id = scope->Intern(init.name());
    if (scope->at(id).defined()) {
      // A graph input with a default value: the two descriptions must agree.
      Value& v = scope->at(id);
      auto merged = MergeTypes(v.type, type);
      if (!merged.ok()) {
        Report(out, Severity::kError, DiagCode::kInitializerMismatch, path,
               StrCat("initializer '", init.name(),
                      "' does not match its graph input: ", merged.status().message()));
      } else {
        v.type = *merged;
      }
      // A value the caller gives for the input wins. From IR version 4 the initializer is a
      // default that may be overridden at run time: used, as onnx and onnxruntime use it,
      // with each node that reads it listed as a condition, unless the caller takes the
      // strict reading (InferenceOptions::overridable_initializers). Before, every
      // initializer had to be listed as a graph input (IR.md), so being one says nothing:
      // runtimes treat those initializers as constants, and so do we.
      if (run.given_values && run.given_values->count(init.name())) continue;
      if (model_ != nullptr && model_->ir_version() >= 4) {
        if (options_.overridable_initializers) continue;
        v.set_default_input();
      }
      attach_elements(v, init);
      continue;
    }
    // Defined here (it is not yet: the name's id is looked up once, not again by `define`).
    Value& v = *scope->Define(id).first;
    v.type = std::move(type);
    attach_elements(v, init);
  }
  for (const auto& sparse : graph.sparse_initializer()) {
    if (scope->DefinesHere(sparse.values().name())) continue;
    define(sparse.values().name(), TypeOfSparseTensor(sparse), "a sparse initializer");
  }
}

Driver::Producers Driver::FindProducers(GraphRun& run, const Scope& scope) {
  const onnx::GraphProto& graph = *run.graph;
  auto& out = *run.diagnostics;
  const std::string& path = run.path;
  const int num_nodes = graph.node_size();
  Producers producer(scope.size(), -1);
  const NodeValueIds& node_ids = run.node_ids;
  // What WriteBack needs to know before it writes (GraphRun::outputs_written_once,
  // outputs_in_block), found here rather than in a walk of its own: a value two node outputs
  // name is produced twice (reported below), or an input or initializer redefined twice.
  const bool for_write_back = run.release_written;
  run.outputs_written_once = true;
  run.outputs_in_block.assign(for_write_back ? scope.num_blocks() : 0, 0);
  std::vector<int> redefined;  // inputs and initializers named by node outputs
  for (int i = 0; i < num_nodes; ++i) {
    // The outputs' ids end where the next node's begin (found so rather than by the number
    // of inputs: a call into libprotobuf).
    const Names outputs = OutputNames(graph.node(i));
    const int* ids = node_ids.ids.data() +
                     (i + 1 < num_nodes ? node_ids.offsets[i + 1] : node_ids.ids.size()) -
                     outputs.size();
    for (size_t k = 0; k < outputs.size(); ++k) {
      const std::string& o = *outputs[k];
      if (o.empty()) continue;
      if (for_write_back) ++run.outputs_in_block[Scope::BlockOf(ids[k])];
      if (scope.FindHere(ids[k])) {  // before inference: an input or initializer
        if (for_write_back) redefined.push_back(ids[k]);
        ReportNode(out, Severity::kError, DiagCode::kDuplicateDefinition, path, i, graph.node(i),
                   nullptr, StrCat("output '", o, "' redefines a graph input or initializer"),
                   Subject::Output(-1, o));
        continue;
      }
      if (scope.DefinedOutside(o)) {
        // IR.md: node output names are unique across a graph and the graphs it is nested in
        // (SSA holds across scopes); inside, the node's output is what the subgraph sees.
        ReportNode(out, Severity::kError, DiagCode::kDuplicateDefinition, path, i, graph.node(i),
                   nullptr, StrCat("output '", o, "' redefines a value of an enclosing graph"),
                   Subject::Output(-1, o));
      }
      int& first = producer[ids[k]];
      if (first >= 0) {
        ReportNode(out, Severity::kError, DiagCode::kDuplicateDefinition, path, i, graph.node(i),
                   nullptr, StrCat("output '", o, "' is also produced by node #", first),
                   Subject::Output(-1, o));
        run.outputs_written_once = false;
      } else {
        first = i;
      }
    }
  }
  std::sort(redefined.begin(), redefined.end());
  if (std::adjacent_find(redefined.begin(), redefined.end()) != redefined.end()) {
    run.outputs_written_once = false;
  }
  return producer;
}

void Driver::MarkLastReads(GraphRun& run, const std::optional<NodeOrder>& order, int num_values) {
  const onnx::GraphProto& graph = *run.graph;
  NodeValueIds& ids = run.node_ids;
  std::vector<uint8_t> read_later(num_values, 0);
  for (int id : run.output_ids) {
    if (id >= 0) read_later[id] = 1;
  }
  ids.last_read.assign(ids.ids.size(), false);
  auto mark = [&](int node) {
    const uint32_t first = ids.offsets[node];
    for (uint32_t i = first + graph.node(node).input_size(); i-- > first;) {
      const int id = ids.ids[i];
      if (id < 0 || read_later[id]) continue;
      read_later[id] = 1;
      ids.last_read[i] = true;
    }
  };
  if (order) {
    for (auto k = order->order.rbegin(); k != order->order.rend(); ++k) mark(*k);
  } else {
    for (int node = graph.node_size() - 1; node >= 0; --node) mark(node);
  }
}

std::optional<NodeOrder> Driver::OrderGraphNodes(const GraphRun& run, const Scope& scope,
                                                 const Producers& producer,
                                                 const NodeIndex& index) {
  // In order, and no subgraph reads a value of this graph: IndexNodeValues has checked.
  if (index.in_order && !index.has_subgraphs) return std::nullopt;
  const onnx::GraphProto& graph = *run.graph;
  const int num_nodes = graph.node_size();
  // Calls visit(p) for each producer p of node i's inputs, and of the values of this graph
  // its subgraphs read (a dependency of the node too).
  auto for_each_producer = [&](int i, auto&& visit) {
    const int* ids = run.node_ids.inputs(i);
    for (int k = 0, n = graph.node(i).input_size(); k < n; ++k) {
      if (ids[k] >= 0 && producer[ids[k]] >= 0) visit(producer[ids[k]]);
    }
    for (const auto& a : graph.node(i).attribute()) {
      std::vector<const onnx::GraphProto*> subgraphs;
      if (a.has_g()) subgraphs.push_back(&a.g());
      for (const auto& g : a.graphs()) subgraphs.push_back(&g);
      for (const auto* g : subgraphs) {
        for (const auto& n : g->node()) {
          for (const auto& in : n.input()) {
            const int id = scope.IdOf(in);
            if (id >= 0 && producer[id] >= 0 && producer[id] != i) visit(producer[id]);
          }
        }
      }
    }
  };
  // In order already: every producer before its consumer (a self-loop is not: a cycle). No
  // lists and no order are made: on the 700k tiny-nodes chain they were 16 bytes a node at
  // the driver's peak.
  bool in_order = true;
  for (int i = 0; i < num_nodes && in_order; ++i) {
    for_each_producer(i, [&](int p) { in_order = in_order && p < i; });
  }
  if (in_order) return std::nullopt;
  // Each node's producers, in one flat list rather than a vector per node.
  ProducerLists producers;
  producers.offsets.reserve(num_nodes + 1);
  producers.offsets.push_back(0);
  producers.nodes.reserve(run.node_ids.ids.size());
  for (int i = 0; i < num_nodes; ++i) {
    for_each_producer(i, [&](int p) { producers.nodes.push_back(p); });
    producers.offsets.push_back(static_cast<int>(producers.nodes.size()));
  }
  NodeOrder order = OrderNodes(producers);
  for (const auto& cycle : order.cycles) {
    std::vector<std::string> names;
    for (int i : cycle) {
      names.push_back(graph.node(i).name().empty()
                          ? StrCat("#", i, " (", graph.node(i).op_type(), ")")
                          : StrCat("#", i, " '", graph.node(i).name(), "'"));
    }
    Report(*run.diagnostics, Severity::kError, DiagCode::kGraphCycle, run.path,
           StrCat("the nodes ", StrJoin(names, ", "),
                  " form a cycle; their outputs are left unknown"));
  }
  return order;
}

}  // namespace onnx_infer::driver_internal
