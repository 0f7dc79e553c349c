#include "inference/infer_shapes.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "base/strings.h"
#include "inference/external_values.h"
#include "inference/graph_order.h"
#include "schema/const_value.h"
#include "schema/inference_context.h"
#include "schema/signature.h"
#include "schema/type.h"
#include "schema/type_proto.h"

namespace onnx_infer {

int64_t InferenceResult::CountOf(Severity severity) const {
  int64_t n = 0;
  for (const auto& d : diagnostics) n += d.severity == severity;
  return n;
}

namespace {

// What the driver knows about one named value.
struct Value {
  Type type;
  std::optional<ConstValue> data;
  // An initializer whose value is in an external file, read only if a node consumes it.
  const onnx::TensorProto* external = nullptr;
};

// The values visible in one graph, and through `parent` those of the enclosing graphs
// (subgraphs see outer names lexically, as the IR says).
class Scope {
 public:
  explicit Scope(const Scope* parent) : parent_(parent) {}
  const Value* Find(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent_) {
      auto it = s->values_.find(name);
      if (it != s->values_.end()) return &it->second;
    }
    return nullptr;
  }
  bool DefinesHere(const std::string& name) const { return values_.count(name) > 0; }
  Value& operator[](const std::string& name) { return values_[name]; }

 private:
  const Scope* parent_;
  std::unordered_map<std::string, Value> values_;
};

// Domains whose operators the built-in catalog defines: an unknown op there is not a custom op.
bool IsOnnxDomain(std::string_view domain) {
  return domain.empty() || domain == "ai.onnx.ml" || domain == "ai.onnx.preview" ||
         domain == "ai.onnx.preview.training" || domain == "ai.onnx.training";
}

using Opsets = std::map<std::string, int64_t, std::less<>>;

Opsets ReadOpsets(const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
  Opsets opsets;
  for (const auto& opset : imports) {
    opsets[std::string(CanonicalDomain(opset.domain()))] = opset.version();
  }
  return opsets;
}

class Driver;

// One inference of one graph: the main graph, a subgraph, a function body or a training
// graph.
struct GraphRun {
  onnx::GraphProto* graph;
  std::string path;                 // "main", "main/If_3.then_branch", "fn:local::Gelu"
  const Scope* parent = nullptr;    // the enclosing graph's scope
  const Opsets* opsets = nullptr;
  const std::vector<Type>* input_types = nullptr;  // what the caller passes (subgraphs)
  bool annotate_inputs = false;     // fill in undeclared input types (subgraphs)
  int depth = 0;
  std::vector<Diagnostic>* diagnostics = nullptr;  // where findings go
  // Out: the types of the graph's outputs, and of every value (for function bodies).
  std::vector<Type> output_types;
  std::map<std::string, Type> value_types;
};

class Driver {
 public:
  Driver(onnx::ModelProto& model, const SchemaRegistry& registry, const InferenceOptions& options,
         InferenceResult& result)
      : model_(model), registry_(registry), options_(options), result_(result),
        external_values_(options.model_dir, options.max_value_elements) {
    opsets_ = ReadOpsets(model_.opset_import());
    for (const auto& opset : model_.opset_import()) {
      const std::string domain(CanonicalDomain(opset.domain()));
      auto range = registry_.OpsetRange(domain);
      if (!range) continue;  // a domain we know nothing of: its ops are reported as custom
      if (opset.version() > range->second) {
        Report(result_.diagnostics, Severity::kWarning, "main",
               StrCat("the model imports opset ", opset.version(), " of ", DisplayDomain(domain),
                      "; this build knows versions up to ", range->second,
                      ", so operators resolve as of ", range->second));
      } else if (opset.version() < range->first) {
        Report(result_.diagnostics, Severity::kError, "main",
               StrCat("the model imports opset ", opset.version(), " of ", DisplayDomain(domain),
                      ", which does not exist (versions start at ", range->first, ")"));
      }
    }
    for (int i = 0; i < model_.functions_size(); ++i) {
      const auto& f = model_.functions(i);
      functions_[FunctionKey(f.domain(), f.name(), f.overload())] = i;
    }
  }

  void Run() {
    Scope main_scope(nullptr);
    GraphRun run;
    run.graph = model_.mutable_graph();
    run.path = "main";
    run.opsets = &opsets_;
    run.diagnostics = &result_.diagnostics;
    InferGraph(run, &main_scope, /*count_stats=*/true);
    // Training graphs see the inference graph's values (its initializers in particular).
    for (int i = 0; i < model_.training_info_size(); ++i) {
      auto* info = model_.mutable_training_info(i);
      for (auto [graph, name] : {std::pair{info->mutable_initialization(), "initialization"},
                                 std::pair{info->mutable_algorithm(), "algorithm"}}) {
        if (graph->node_size() == 0 && graph->output_size() == 0) continue;
        Scope scope(&main_scope);
        GraphRun t;
        t.graph = graph;
        t.path = StrCat("training_info[", i, "].", name);
        t.opsets = &opsets_;
        t.diagnostics = &result_.diagnostics;
        InferGraph(t, &scope, /*count_stats=*/true);
      }
    }
    WriteFunctionValueInfo();
  }

  static Diagnostic& Report(std::vector<Diagnostic>& out, Severity severity,
                            const std::string& graph, std::string message) {
    Diagnostic& d = out.emplace_back();
    d.severity = severity;
    d.graph = graph;
    d.message = std::move(message);
    return d;
  }

  static Diagnostic& ReportNode(std::vector<Diagnostic>& out, Severity severity,
                                const std::string& graph, int index, const onnx::NodeProto& node,
                                const OpSchema* schema, std::string message) {
    Diagnostic& d = Report(out, severity, graph, std::move(message));
    d.node_index = index;
    d.node_name = node.name();
    d.op = schema ? schema->Id()
                  : StrCat(DisplayDomain(CanonicalDomain(node.domain())), "::", node.op_type());
    return d;
  }

  Severity StrictOr(Severity lenient) const {
    return options_.strict ? Severity::kError : lenient;
  }

  // Infers `run.graph` in `scope`, annotates it, and fills run.output_types.
  void InferGraph(GraphRun& run, Scope* scope, bool count_stats);

  // Infers a subgraph (If branch, Loop/Scan body) for the node at `index` of `outer`.
  StatusOr<std::vector<Type>> InferSubgraph(const GraphRun& outer, const Scope* scope, int index,
                                            onnx::GraphProto* graph, std::string_view attribute,
                                            const std::vector<Type>& input_types,
                                            std::vector<Diagnostic>* diagnostics);

 private:
  static std::string FunctionKey(std::string_view domain, std::string_view name,
                                 std::string_view overload) {
    return StrCat(CanonicalDomain(domain), "\x1f", name, "\x1f", overload);
  }

  // Resolves the node's schema, reporting why when there is none. Null means: leave its
  // outputs unknown (or, for a model-local function, infer through its body).
  const OpSchema* ResolveSchema(const GraphRun& run, const onnx::NodeProto& node, int index,
                                int64_t* opset_version, int* function_index);

  // Infers a call of model-local function `function_index`.
  std::vector<Type> InferFunctionCall(const GraphRun& run, int index, const onnx::NodeProto& node,
                                      int function_index, const std::vector<const Type*>& inputs);
  void WriteFunctionValueInfo();

  onnx::ModelProto& model_;
  const SchemaRegistry& registry_;
  const InferenceOptions& options_;
  InferenceResult& result_;
  Opsets opsets_;
  std::set<std::string> reported_once_;  // "no rule" / "no schema" findings, once per op
  std::map<std::string, int> functions_;  // FunctionKey -> index in model.functions
  std::vector<int> function_stack_;       // functions being inferred, to detect recursion
  // Per function: each value's type in every call so far; nullopt once calls disagree.
  std::map<int, std::map<std::string, std::optional<Type>>> function_values_;
  // What the model says about its symbols (N == M, N == 5), shared by every node's rule.
  symbolic::Unifier unifier_;
  ExternalValues external_values_;  // read on first use, shared by every graph
};

// The driver's side of the subgraph hook for one node.
class NodeSubgraphs : public SubgraphInferencer {
 public:
  NodeSubgraphs(Driver& driver, const GraphRun& run, const Scope* scope, int index,
                onnx::NodeProto* node)
      : driver_(driver), run_(run), scope_(scope), index_(index), node_(node) {}

  StatusOr<std::vector<Type>> InferSubgraph(std::string_view attribute,
                                            const std::vector<Type>& input_types) override {
    for (auto& a : *node_->mutable_attribute()) {
      if (a.name() != attribute || !a.has_g()) continue;
      const std::string key(attribute);
      // Each pass starts from the graph as the model has it: annotations written by an
      // earlier pass are not declarations.
      auto [original, first_pass] = originals_.try_emplace(key);
      if (first_pass) {
        original->second = a.g();
      } else {
        *a.mutable_g() = original->second;
      }
      auto& staged = staged_[key];
      staged.clear();  // a new pass over the same body replaces the previous one's findings
      return driver_.InferSubgraph(run_, scope_, index_, a.mutable_g(), attribute, input_types,
                                   &staged);
    }
    return Status::Error(StrCat("attribute '", attribute, "': expected a graph"));
  }

  // The findings of the last pass over each subgraph.
  void Flush(std::vector<Diagnostic>& out) {
    for (auto& [attribute, diagnostics] : staged_) {
      for (auto& d : diagnostics) out.push_back(std::move(d));
    }
    staged_.clear();
  }

 private:
  Driver& driver_;
  const GraphRun& run_;
  const Scope* scope_;
  int index_;
  onnx::NodeProto* node_;
  std::map<std::string, std::vector<Diagnostic>> staged_;
  std::map<std::string, onnx::GraphProto> originals_;
};

StatusOr<std::vector<Type>> Driver::InferSubgraph(const GraphRun& outer, const Scope* scope,
                                                  int index, onnx::GraphProto* graph,
                                                  std::string_view attribute,
                                                  const std::vector<Type>& input_types,
                                                  std::vector<Diagnostic>* diagnostics) {
  const onnx::NodeProto& node = outer.graph->node(index);
  if (outer.depth + 1 > options_.max_nesting) {
    return Status::Error(StrCat("attribute '", attribute, "': subgraphs nested deeper than ",
                                options_.max_nesting, " levels are not inferred"));
  }
  if (graph->input_size() != static_cast<int>(input_types.size())) {
    return Status::Error(StrCat("attribute '", attribute, "': the graph has ", graph->input_size(),
                                " inputs, expected ", input_types.size()));
  }
  GraphRun run;
  run.graph = graph;
  run.path = StrCat(outer.path, "/", node.op_type(), "_", index, ".", attribute);
  run.parent = scope;
  run.opsets = outer.opsets;
  run.input_types = &input_types;
  run.annotate_inputs = true;
  run.depth = outer.depth + 1;
  run.diagnostics = diagnostics;
  Scope sub_scope(scope);
  InferGraph(run, &sub_scope, /*count_stats=*/false);
  return run.output_types;
}

const OpSchema* Driver::ResolveSchema(const GraphRun& run, const onnx::NodeProto& node, int index,
                                      int64_t* opset_version, int* function_index) {
  auto& out = *run.diagnostics;
  const std::string domain(CanonicalDomain(node.domain()));
  // A model-local function is the operator's fallback implementation (IR.md): a schema with
  // a rule wins; otherwise the body is inferred.
  auto fn = functions_.find(FunctionKey(domain, node.op_type(), node.overload()));
  if (fn != functions_.end()) {
    auto opset = run.opsets->find(domain);
    const OpSchema* schema =
        opset == run.opsets->end() ? nullptr
                                   : registry_.Lookup(domain, node.op_type(), opset->second);
    if (schema && schema->has_rule()) {
      *opset_version = opset->second;
      return schema;
    }
    *function_index = fn->second;
    return nullptr;
  }
  auto opset = run.opsets->find(domain);
  if (opset == run.opsets->end()) {
    ReportNode(out, Severity::kError, run.path, index, node, nullptr,
               StrCat("the model does not import the operator set of domain '",
                      DisplayDomain(domain), "' (opset_import has no entry for it)"));
    return nullptr;
  }
  *opset_version = opset->second;
  const OpSchema* schema = registry_.Lookup(domain, node.op_type(), opset->second);
  if (schema) {
    if (schema->deprecated()) {
      ReportNode(out, Severity::kWarning, run.path, index, node, schema,
                 StrCat(node.op_type(), " is deprecated in opset ", opset->second, " of ",
                        DisplayDomain(domain)));
    }
    return schema;
  }
  auto versions = registry_.Versions(domain, node.op_type());
  if (!versions.empty()) {
    ReportNode(out, Severity::kError, run.path, index, node, nullptr,
               StrCat(node.op_type(), " is not in opset ", opset->second, " of ",
                      DisplayDomain(domain), " (its first version is ",
                      versions.front()->since_version(), ")"));
  } else if (IsOnnxDomain(domain)) {
    ReportNode(out, Severity::kError, run.path, index, node, nullptr,
               StrCat("unknown operator '", node.op_type(), "' in domain ",
                      DisplayDomain(domain)));
  } else if (reported_once_.insert(StrCat("schema:", domain, "::", node.op_type())).second) {
    ReportNode(out, StrictOr(Severity::kWarning), run.path, index, node, nullptr,
               StrCat("no schema for custom operator ", domain, "::", node.op_type(),
                      "; its outputs are left unknown (reported once per operator)"));
  }
  return nullptr;
}

std::vector<Type> Driver::InferFunctionCall(const GraphRun& run, int index,
                                            const onnx::NodeProto& node, int function_index,
                                            const std::vector<const Type*>& inputs) {
  const onnx::FunctionProto& f = model_.functions(function_index);
  auto& out = *run.diagnostics;
  const std::string id = StrCat(DisplayDomain(CanonicalDomain(f.domain())), "::", f.name());
  std::vector<Type> none(node.output_size());
  for (int active : function_stack_) {
    if (active == function_index) {
      ReportNode(out, Severity::kError, run.path, index, node, nullptr,
                 StrCat("function ", id, " calls itself (directly or through other functions)"));
      return none;
    }
  }
  if (run.depth + 1 > options_.max_nesting) {
    ReportNode(out, Severity::kError, run.path, index, node, nullptr,
               StrCat("function calls nested deeper than ", options_.max_nesting,
                      " levels are not inferred"));
    return none;
  }
  if (node.input_size() > f.input_size() || node.output_size() > f.output_size()) {
    ReportNode(out, Severity::kError, run.path, index, node, nullptr,
               StrCat("function ", id, " takes ", f.input_size(), " inputs and ",
                      f.output_size(), " outputs; the call gives ", node.input_size(), " and ",
                      node.output_size()));
    return none;
  }

  // The body as a graph: formal inputs typed by the call, attribute references bound to the
  // call's attributes or the function's defaults.
  onnx::GraphProto body;
  std::vector<Type> input_types;
  for (int i = 0; i < f.input_size(); ++i) {
    body.add_input()->set_name(f.input(i));
    input_types.push_back(i < static_cast<int>(inputs.size()) && inputs[i] ? *inputs[i] : Type());
  }
  for (const auto& o : f.output()) body.add_output()->set_name(o);
  std::map<std::string, const onnx::AttributeProto*> bound;
  for (const auto& a : f.attribute_proto()) bound[a.name()] = &a;  // defaults
  for (const auto& a : node.attribute()) bound[a.name()] = &a;
  for (const auto& fn_node : f.node()) {
    onnx::NodeProto* n = body.add_node();
    *n = fn_node;
    n->clear_attribute();
    for (const auto& a : fn_node.attribute()) {
      if (a.ref_attr_name().empty()) {
        *n->add_attribute() = a;
        continue;
      }
      auto it = bound.find(a.ref_attr_name());
      if (it == bound.end()) continue;  // not given and no default: the attribute is absent
      onnx::AttributeProto* copy = n->add_attribute();
      *copy = *it->second;
      copy->set_name(a.name());
    }
  }
  Opsets opsets = f.opset_import_size() ? ReadOpsets(f.opset_import()) : *run.opsets;
  GraphRun call;
  call.graph = &body;
  call.path = StrCat(run.path, "/", node.op_type(), "_", index, ".", id);
  call.opsets = &opsets;
  call.input_types = &input_types;
  call.annotate_inputs = true;
  call.depth = run.depth + 1;
  call.diagnostics = run.diagnostics;
  Scope scope(nullptr);  // a function sees only its inputs
  function_stack_.push_back(function_index);
  InferGraph(call, &scope, /*count_stats=*/false);
  function_stack_.pop_back();

  // Keep each value's type per call; value_info is written where all calls agree.
  auto& seen = function_values_[function_index];
  auto first_call = seen.empty();
  for (const auto& [name, type] : call.value_types) {
    auto [it, inserted] = seen.try_emplace(name, type);
    if (!inserted && it->second && !(*it->second == type)) it->second.reset();
    if (inserted && !first_call) it->second.reset();  // absent from an earlier call
  }
  std::vector<Type> outputs(node.output_size());
  for (int o = 0; o < node.output_size() && o < static_cast<int>(call.output_types.size()); ++o) {
    outputs[o] = call.output_types[o];
  }
  return outputs;
}

void Driver::WriteFunctionValueInfo() {
  for (const auto& [index, values] : function_values_) {
    onnx::FunctionProto* f = model_.mutable_functions(index);
    std::map<std::string, onnx::ValueInfoProto*> existing;
    for (auto& vi : *f->mutable_value_info()) existing[vi.name()] = &vi;
    for (const auto& [name, type] : values) {
      if (!type || type->is_unknown()) continue;
      onnx::ValueInfoProto* vi = existing.count(name) ? existing[name] : f->add_value_info();
      vi->set_name(name);
      WriteTypeToProto(*type, vi->mutable_type());
    }
  }
}

void Driver::InferGraph(GraphRun& run, Scope* scope, bool count_stats) {
  onnx::GraphProto& graph = *run.graph;
  auto& out = *run.diagnostics;
  const std::string& path = run.path;
  std::unordered_map<std::string, Type> declared;  // graph outputs and value_info

  auto define = [&](const std::string& name, Type type, std::string_view what) {
    if (scope->DefinesHere(name)) {
      Report(out, Severity::kError, path,
             StrCat("'", name, "' is defined more than once (again as ", what, ")"));
      return false;
    }
    (*scope)[name].type = std::move(type);
    return true;
  };

  for (const auto& vi : graph.output()) declared[vi.name()] = TypeFromProto(vi.type());
  for (const auto& vi : graph.value_info()) {
    if (vi.has_type()) declared[vi.name()] = TypeFromProto(vi.type());
  }
  for (int i = 0; i < graph.input_size(); ++i) {
    onnx::ValueInfoProto* vi = graph.mutable_input(i);
    Type type = TypeFromProto(vi->type());
    if (run.input_types && i < static_cast<int>(run.input_types->size())) {
      const Type& given = (*run.input_types)[i];
      auto merged = MergeTypes(type, given);
      if (merged.ok()) {
        type = std::move(*merged);
      } else {
        Report(out, Severity::kError, path,
               StrCat("input ", i, " '", vi->name(), "' is declared ", type.ToString(),
                      " but receives ", given.ToString(), " (", merged.status().message(), ")"));
      }
      if (run.annotate_inputs && !type.is_unknown()) WriteTypeToProto(type, vi->mutable_type());
    }
    define(vi->name(), type, "a graph input");
    run.value_types[vi->name()] = type;
  }
  for (const auto& init : graph.initializer()) {
    Type type = TypeOfTensor(init);
    if (scope->DefinesHere(init.name())) {
      // A graph input with a default value: the two descriptions must agree.
      Value& v = (*scope)[init.name()];
      auto merged = MergeTypes(v.type, type);
      if (!merged.ok()) {
        Report(out, Severity::kError, path,
               StrCat("initializer '", init.name(), "' does not match its graph input: ",
                      merged.status().message()));
      } else {
        v.type = *merged;
      }
      continue;  // its value may be overridden at run time, so it is not a constant
    }
    if (!define(init.name(), type, "an initializer")) continue;
    Value& v = (*scope)[init.name()];
    v.data = ConstValueOfTensor(init, options_.max_value_elements);
    if (external_values_.IsCandidate(init)) v.external = &init;
  }
  for (const auto& sparse : graph.sparse_initializer()) {
    if (scope->DefinesHere(sparse.values().name())) continue;
    define(sparse.values().name(), TypeOfSparseTensor(sparse), "a sparse initializer");
  }

  // Which node produces each value, then an order in which producers come first.
  const int num_nodes = graph.node_size();
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < num_nodes; ++i) {
    for (const auto& o : graph.node(i).output()) {
      if (o.empty()) continue;
      if (scope->DefinesHere(o)) {
        ReportNode(out, Severity::kError, path, i, graph.node(i), nullptr,
                   StrCat("output '", o, "' redefines a graph input or initializer"));
        continue;
      }
      auto [it, inserted] = producer.try_emplace(o, i);
      if (!inserted) {
        ReportNode(out, Severity::kError, path, i, graph.node(i), nullptr,
                   StrCat("output '", o, "' is also produced by node #", it->second));
      }
    }
  }
  std::vector<std::vector<int>> producers(num_nodes);
  for (int i = 0; i < num_nodes; ++i) {
    for (const auto& in : graph.node(i).input()) {
      auto it = producer.find(in);
      if (it != producer.end()) producers[i].push_back(it->second);
    }
    // A subgraph's references to this graph's values are dependencies of its node too.
    for (const auto& a : graph.node(i).attribute()) {
      std::vector<const onnx::GraphProto*> subgraphs;
      if (a.has_g()) subgraphs.push_back(&a.g());
      for (const auto& g : a.graphs()) subgraphs.push_back(&g);
      for (const auto* g : subgraphs) {
        for (const auto& n : g->node()) {
          for (const auto& in : n.input()) {
            auto it = producer.find(in);
            if (it != producer.end() && it->second != i) producers[i].push_back(it->second);
          }
        }
      }
    }
  }
  NodeOrder order = OrderNodes(producers);
  for (const auto& cycle : order.cycles) {
    std::vector<std::string> names;
    for (int i : cycle) {
      names.push_back(graph.node(i).name().empty()
                          ? StrCat("#", i, " (", graph.node(i).op_type(), ")")
                          : StrCat("#", i, " '", graph.node(i).name(), "'"));
    }
    Report(out, Severity::kError, path,
           StrCat("the nodes ", StrJoin(names, ", "),
                  " form a cycle; their outputs are left unknown"));
  }

  // Infer node by node.
  std::unordered_map<std::string, Type> inferred;  // final type of each node output
  for (int index : order.order) {
    onnx::NodeProto* node = graph.mutable_node(index);
    if (count_stats) result_.stats.nodes++;
    std::vector<const Type*> input_types(node->input_size(), nullptr);
    std::vector<const ConstValue*> input_values(node->input_size(), nullptr);
    bool inputs_defined = true;
    for (int i = 0; i < node->input_size(); ++i) {
      const std::string& name = node->input(i);
      if (name.empty()) continue;
      const Value* v = scope->Find(name);
      if (!v) {
        if (!producer.count(name)) {
          ReportNode(out, Severity::kError, path, index, *node, nullptr,
                     StrCat("input ", i, " '", name, "' is not defined by any node, graph ",
                            "input or initializer"));
          inputs_defined = false;
        }
        continue;  // produced by a node on a cycle: unknown
      }
      input_types[i] = &v->type;
      if (v->data) {
        input_values[i] = &*v->data;
      } else if (v->external) {
        // Straight into the result: a subgraph pass's findings may be replaced by the next
        // pass's, and the read (cached) happens only once.
        std::vector<std::string> warnings;
        input_values[i] = external_values_.Get(*v->external, &warnings);
        for (auto& w : warnings) {
          ReportNode(result_.diagnostics, Severity::kWarning, path, index, *node, nullptr, w);
        }
      }
    }
    int64_t opset_version = 0;
    int function_index = -1;
    const OpSchema* schema = ResolveSchema(run, *node, index, &opset_version, &function_index);
    std::vector<Type> outputs(node->output_size());
    std::vector<std::optional<ConstValue>> output_values(node->output_size());
    if (function_index >= 0) {
      if (inputs_defined) outputs = InferFunctionCall(run, index, *node, function_index, input_types);
    } else if (schema) {
      SignatureCheck signature = CheckSignature(*node, *schema, input_types);
      for (const auto& issue : signature.issues) {
        ReportNode(out, issue.strict_only ? StrictOr(issue.severity) : issue.severity, path,
                   index, *node, schema, issue.message);
      }
      if (!signature.arity_error && inputs_defined) {
        if (!schema->has_rule()) {
          if (count_stats) result_.stats.nodes_without_rule++;
          if (reported_once_.insert("rule:" + schema->Id()).second) {
            ReportNode(out, StrictOr(Severity::kNote), path, index, *node, schema,
                       "no inference rule for this operator yet; its output shapes are left "
                       "unknown (reported once per operator version)");
          }
        } else {
          InferenceContext ctx(*node, *schema, opset_version, std::move(input_types),
                               std::move(input_values));
          ctx.set_max_value_elements(options_.max_value_elements);
          ctx.set_unifier(&unifier_);
          NodeSubgraphs subgraphs(*this, run, scope, index, node);
          ctx.set_subgraph_inferencer(&subgraphs);
          Status status = schema->rule()(ctx);
          subgraphs.Flush(out);
          for (const auto& w : ctx.warnings()) {
            ReportNode(out, Severity::kWarning, path, index, *node, schema, w);
          }
          if (!status.ok()) {
            ReportNode(out, Severity::kError, path, index, *node, schema, status.message());
          } else {
            // Without data propagation only constants carry values.
            const bool keep_values = options_.data_propagation || node->op_type() == "Constant";
            for (int o = 0; o < node->output_size(); ++o) {
              outputs[o] = ctx.OutputType(o);
              if (keep_values) output_values[o] = ctx.OutputValue(o);
            }
          }
        }
        // What the signature says of each output (a bound type parameter, a single allowed
        // type) completes what the rule left open, or stands alone when there is no rule.
        for (int o = 0; o < node->output_size(); ++o) {
          Type from_signature = TypeFromSignature(*schema, signature, o);
          if (from_signature.is_unknown()) continue;
          auto merged = MergeTypes(outputs[o], from_signature);
          if (merged.ok()) outputs[o] = std::move(*merged);
        }
      }
    } else if (count_stats) {
      result_.stats.nodes_without_rule++;
    }
    for (int o = 0; o < node->output_size(); ++o) {
      const std::string& name = node->output(o);
      if (name.empty() || scope->DefinesHere(name)) continue;
      Type type = std::move(outputs[o]);
      auto decl = declared.find(name);
      if (decl != declared.end()) {
        auto merged = MergeTypes(decl->second, type);
        if (merged.ok()) {
          type = std::move(*merged);
        } else {
          ReportNode(out, StrictOr(Severity::kWarning), path, index, *node, schema,
                     StrCat("output ", o, " '", name, "': inferred type ", type.ToString(),
                            " contradicts the declared ", decl->second.ToString(), " (",
                            merged.status().message(), "); keeping the declared type"));
          type = decl->second;
        }
      }
      inferred[name] = type;
      run.value_types[name] = type;
      Value& v = (*scope)[name];
      v.type = std::move(type);
      v.data = std::move(output_values[o]);
    }
  }

  // The graph's outputs: produced by nodes, or passed through from inputs or outer scopes.
  run.output_types.clear();
  for (const auto& vi : graph.output()) {
    const Value* v = scope->Find(vi.name());
    Type type = v ? v->type : Type();
    auto merged = MergeTypes(TypeFromProto(vi.type()), type);
    run.output_types.push_back(merged.ok() ? *merged : TypeFromProto(vi.type()));
  }

  // Write back: graph outputs in place, everything else into value_info.
  std::unordered_map<std::string, onnx::ValueInfoProto*> infos;
  std::set<std::string> graph_outputs;
  for (auto& vi : *graph.mutable_output()) graph_outputs.insert(vi.name());
  for (auto& vi : *graph.mutable_value_info()) infos[vi.name()] = &vi;
  for (int i = 0; i < graph.output_size(); ++i) {
    const Type& t = run.output_types[i];
    if (!t.is_unknown()) WriteTypeToProto(t, graph.mutable_output(i)->mutable_type());
  }
  for (int index = 0; index < num_nodes; ++index) {
    for (const auto& name : graph.node(index).output()) {
      auto it = inferred.find(name);
      if (it == inferred.end()) continue;
      const Type& type = it->second;
      if (count_stats) {
        result_.stats.values++;
        if (!type.is_unknown() && !(type.is_tensor() && type.elem_type() == 0)) {
          result_.stats.typed++;
          if (type.IsComplete()) result_.stats.shaped++;
          if (type.IsStatic()) result_.stats.static_shaped++;
        }
      }
      if (type.is_unknown() || (type.is_tensor() && type.elem_type() == 0 && !type.has_shape())) {
        continue;
      }
      if (graph_outputs.count(name)) continue;
      auto vi = infos.find(name);
      if (vi == infos.end()) {
        onnx::ValueInfoProto* added = graph.add_value_info();
        added->set_name(name);
        infos[name] = added;
        WriteTypeToProto(type, added->mutable_type());
      } else {
        WriteTypeToProto(type, vi->second->mutable_type());
      }
    }
  }
}

}  // namespace

InferenceResult InferShapes(onnx::ModelProto& model, const SchemaRegistry& registry,
                            const InferenceOptions& options) {
  InferenceResult result;
  Driver(model, registry, options, result).Run();
  return result;
}

}  // namespace onnx_infer
