// The driver: one node inferred: its schema resolved, its rule run, the declared type merged,
// its provenance recorded (inference/driver.h).
#include "onnx_infer/inference/driver.h"

namespace onnx_infer::driver_internal {
namespace {

// The subgraph hook of a node no attribute of which holds a graph: the context refuses to
// infer a subgraph of such a node before it asks (InferenceContext::InferSubgraph), no
// subgraph has output values, and none is inferred to be not taken. What NodeSubgraphs
// answers for it, without its lists and maps made and freed per node.
class NoSubgraphs : public SubgraphInferencer {
 public:
  StatusOr<std::vector<Type>> InferSubgraph(std::string_view attribute,
                                            const std::vector<Type>& input_types) override {
    (void)input_types;
    return AttrError(attribute, "expected a graph");
  }
};

// The inferencer of a node without a graph attribute (holds nothing).
NoSubgraphs no_subgraphs;

bool HasGraphAttribute(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute()) {
    if (a.has_g()) return true;
  }
  return false;
}

}  // namespace

const OpSchema* Driver::ResolveSchema(const GraphRun& run, const onnx::NodeProto& node, int index,
                                      int64_t* opset_version, int* function_index) {
  // An operator this run has met (ResolvedOpMemo): the key's domain is canonical, and a
  // domain equal to it is its own canonical form ("ai.onnx" is never a key's domain).
  const std::string& op_type = node.op_type();
  const ResolvedOpEntry* memo = run.resolved_memo.slots[ResolvedOpMemo::SlotOf(op_type)];
  if (memo && ResolvedOpMemo::SameName(memo->first.op_type, op_type) &&
      ResolvedOpMemo::SameName(memo->first.domain, node.domain()) &&
      ResolvedOpMemo::SameName(memo->first.overload, node.overload())) {
    *opset_version = memo->second.opset_version;
    *function_index = memo->second.function_index;
    return memo->second.schema;
  }
  return ResolveSchemaMissed(run, node, index, opset_version, function_index);
}

const OpSchema* Driver::ResolveSchemaMissed(const GraphRun& run, const onnx::NodeProto& node,
                                            int index, int64_t* opset_version,
                                            int* function_index) {
  const std::string& op_type = node.op_type();
  const ResolvedOpEntry*& memo = run.resolved_memo.slots[ResolvedOpMemo::SlotOf(op_type)];
  const std::string_view domain = CanonicalDomain(node.domain());
  auto opset = run.opsets->find(domain);
  const ResolvedOpKeyView key{domain, op_type, node.overload(),
                              opset == run.opsets->end() ? -1 : opset->second};
  // Consecutive nodes are often of one operator (a chain of Relu): the entry found last is
  // compared first, without hashing the three names.
  if (last_resolved_ && ResolvedOpEq()(key, last_resolved_->first)) {
    memo = last_resolved_;
    *opset_version = last_resolved_->second.opset_version;
    *function_index = last_resolved_->second.function_index;
    return last_resolved_->second.schema;
  }
  if (auto it = resolved_.find(key); it != resolved_.end()) {
    memo = last_resolved_ = &*it;
    *opset_version = it->second.opset_version;
    *function_index = it->second.function_index;
    return it->second.schema;
  }
  const size_t reports = run.diagnostics->size();
  const OpSchema* schema = ResolveSchemaUncached(run, node, index, opset_version, function_index);
  // An outcome that reported nothing is the same for every node with this key.
  if (run.diagnostics->size() == reports) {
    memo = last_resolved_ =
        &*resolved_
              .emplace(ResolvedOpKey{std::string(key.domain), std::string(key.op_type),
                                     std::string(key.overload), key.opset_version},
                       ResolvedOp{schema, *opset_version, *function_index})
              .first;
  }
  return schema;
}

const OpSchema* Driver::ResolveSchemaUncached(const GraphRun& run, const onnx::NodeProto& node,
                                              int index, int64_t* opset_version,
                                              int* function_index) {
  auto& out = *run.diagnostics;
  const std::string domain(CanonicalDomain(node.domain()));
  // A model-local function is the operator's fallback implementation (IR.md): a schema with
  // a rule wins; otherwise the body is inferred.
  auto fn = functions_.find(FunctionKey(domain, node.op_type(), node.overload()));
  if (fn != functions_.end()) {
    auto opset = run.opsets->find(domain);
    const OpSchema* schema = opset == run.opsets->end()
                                 ? nullptr
                                 : registry_.Lookup(domain, node.op_type(), opset->second);
    if (schema && schema->has_rule()) {
      *opset_version = opset->second;
      return schema;
    }
    *function_index = fn->second;
    return nullptr;
  }
  auto opset = run.opsets->find(domain);
  int64_t version = 0;
  if (opset != run.opsets->end()) {
    version = opset->second;
  } else if (auto range = registry_.OpsetRange(domain); range && !IsOnnxDomain(domain)) {
    // A domain with schemas beside ONNX's (com.microsoft): onnxruntime runs its operators
    // without the import (IR.md requires one), so do we, at the domain's newest version.
    version = range->second;
    if (reported_once_.insert(StrCat("import:", domain)).second) {
      ReportNode(out, Severity::kWarning, DiagCode::kOpsetMissing, run.path, index, node, nullptr,
                 StrCat("the model does not import the operator set of domain '",
                        DisplayDomain(domain), "' (opset_import has no entry for it); its ",
                        "operators are read at its newest version, ", version,
                        ", as onnxruntime does (reported once per domain)"));
    }
  } else {
    ReportNode(out, Severity::kError, DiagCode::kOpsetMissing, run.path, index, node, nullptr,
               StrCat("the model does not import the operator set of domain '",
                      DisplayDomain(domain), "' (opset_import has no entry for it)"));
    return nullptr;
  }
  *opset_version = version;
  const OpSchema* schema = registry_.Lookup(domain, node.op_type(), version);
  if (schema) {
    if (schema->deprecated()) {
      ReportNode(out, Severity::kWarning, DiagCode::kDeprecatedOperator, run.path, index, node,
                 schema,
                 StrCat(node.op_type(), " is deprecated in opset ", version, " of ",
                        DisplayDomain(domain)));
    }
    return schema;
  }
  auto versions = registry_.Versions(domain, node.op_type());
  if (!versions.empty()) {
    ReportNode(out, Severity::kError, DiagCode::kUnknownOperator, run.path, index, node, nullptr,
               StrCat(node.op_type(), " is not in opset ", version, " of ", DisplayDomain(domain),
                      " (its first version is ", versions.front()->since_version(), ")"));
  } else if (IsOnnxDomain(domain)) {
    ReportNode(out, Severity::kError, DiagCode::kUnknownOperator, run.path, index, node, nullptr,
               StrCat("unknown operator '", node.op_type(), "' in domain ", DisplayDomain(domain)));
  } else if (reported_once_.insert(StrCat("schema:", domain, "::", node.op_type())).second) {
    // A domain with schemas (com.microsoft, or one the user's schemas define) that lacks this
    // operator is not a custom domain: say so rather than call the operator custom.
    const bool known_domain = registry_.OpsetRange(domain).has_value();
    ReportNode(out, StrictOr(Severity::kWarning), DiagCode::kNoSchema, run.path, index, node,
               nullptr,
               StrCat("no schema for ", known_domain ? "operator " : "custom operator ", domain,
                      "::", node.op_type(),
                      known_domain ? " (its domain is known, this operator is not)" : "",
                      "; its outputs are left unknown (reported once per operator)"));
  }
  return nullptr;
}

void Driver::InferNode(const GraphRun& run, const Scope* scope, int index, onnx::NodeProto* node,
                       NodeInputs& inputs, bool inputs_defined, bool count_stats,
                       NodeOutcome& outcome) {
  auto& out = *run.diagnostics;
  const std::vector<const Type*>& input_types = inputs.types;
  const std::vector<const ConstValue*>& input_values = inputs.values;
  const std::string& path = run.path;
  const int num_outputs = node->output_size();
  int64_t opset_version = 0;
  int function_index = -1;
  const OpSchema* schema = ResolveSchema(run, *node, index, &opset_version, &function_index);
  outcome.schema = schema;
  // The lists kept from node to node (not freed), made unknown once per node where a rule or
  // function call sets them, else at the end.
  std::vector<Type>& outputs = outcome.types;
  std::vector<std::optional<ConstValue>>& output_values = outcome.values;
  bool outputs_reset = false;
  auto reset_outputs = [&] {
    InferenceContext::ResetOutputs(num_outputs, outputs, output_values);
    outputs_reset = true;
  };
  outcome.how = NodeProvenance::How::kNotRun;
  outcome.rule_failed = false;
  if (function_index >= 0) {
    if (inputs_defined) {
      outcome.how = NodeProvenance::How::kFunction;
      inputs.ReadAll();
      CallResult call = InferFunctionCall(run, index, *node, model_->functions(function_index),
                                          function_index, nullptr, input_types, input_values);
      reset_outputs();
      outputs = std::move(call.types);
      if (options_.data_propagation) output_values = std::move(call.values);
    }
  } else if (schema) {
    SignatureCheck& signature = inputs.signature;
    CheckSignature(*node, *schema, input_types, signature, &signature_memo_);
    for (const auto& issue : signature.issues) {
      const Severity severity = issue.type_constraint && !options_.check_types ? Severity::kWarning
                                : issue.strict_only ? StrictOr(issue.severity)
                                                    : issue.severity;
      ReportNode(out, severity,
                 issue.type_constraint ? DiagCode::kTypeConstraint : DiagCode::kSignature, path,
                 index, *node, schema, issue.message, issue.subject);
    }
    if (!signature.arity_error && inputs_defined) {
      std::string body_error;
      const onnx::FunctionProto* body =
          schema->has_rule() ? nullptr : CatalogBody(*schema, opset_version, &body_error);
      if (body) {
        // No rule, but ONNX defines the operator as a function: infer through its body.
        outcome.how = NodeProvenance::How::kFunction;
        inputs.ReadAll();
        CallResult call =
            InferFunctionCall(run, index, *node, *body, -1, schema, input_types, input_values);
        reset_outputs();
        outputs = std::move(call.types);
        if (options_.data_propagation) output_values = std::move(call.values);
      } else if (!schema->has_rule()) {
        outcome.how = NodeProvenance::How::kNoRule;
        reset_outputs();
        if (count_stats) result_.stats.nodes_without_rule++;
        if (reported_once_.insert("rule:" + schema->Id()).second) {
          ReportNode(out, StrictOr(Severity::kNote), DiagCode::kNoRule, path, index, *node, schema,
                     body_error.empty()
                         ? "no inference rule for this operator yet; its output shapes are "
                           "left unknown (reported once per operator version)"
                         : StrCat("no inference rule for this operator, and its function body "
                                  "does not parse (",
                                  body_error,
                                  "); its output shapes are "
                                  "left unknown (reported once per operator version)"));
        }
      } else {
        // The rule sets the outputs in place, in lists kept from node to node (the context
        // makes them unknown).
        InferenceContext ctx(*node, *schema, opset_version, input_types, input_values, &outputs,
                             &output_values);
        outputs_reset = true;
        ctx.set_max_value_elements(options_.max_value_elements);
        ctx.set_unifier(&unifier_);
        ctx.set_nested(run.depth > 0);
        ctx.set_symbol_log(&introduced_);
        ctx.set_values_kept(options_.data_propagation || node->op_type() == "Constant");
        std::optional<NodeSubgraphs> subgraphs;
        if (HasGraphAttribute(*node)) {
          ctx.set_subgraph_inferencer(&subgraphs.emplace(*this, run, scope, index, node));
        } else {
          ctx.set_subgraph_inferencer(&no_subgraphs);
        }
        ctx.set_input_value_reader(&inputs);
        outcome.how = NodeProvenance::How::kRule;
        Status status = schema->rule()(ctx);
        outcome.rule_failed = !status.ok();
        if (subgraphs) subgraphs->Flush(out);
        for (size_t w = 0; w < ctx.warnings().size(); ++w) {
          ReportNode(out, Severity::kWarning, ctx.warning_codes()[w], path, index, *node, schema,
                     ctx.warnings()[w], ctx.warning_subjects()[w]);
        }
        if (!status.ok()) {
          if (!ctx.ReportedBySignature(status)) {
            ReportNode(out, Severity::kError, RuleCode(status), path, index, *node, schema,
                       status.message(), status.subject());
          }
          reset_outputs();  // what the rule set before it failed is not kept
        } else if (!options_.data_propagation && node->op_type() != "Constant") {
          // Without data propagation only constants carry values (the context keeps the
          // lists' size).
          for (std::optional<ConstValue>& v : output_values) v.reset();
        }
      }
      // What the signature says of each output (a bound type parameter, a single allowed
      // type) completes what the rule left open, or stands alone when there is no rule.
      // (Sized already unless a function call's: resize is a call even when it changes
      // nothing.)
      if (outputs.size() != static_cast<size_t>(num_outputs)) outputs.resize(num_outputs);
      for (int o = 0; o < num_outputs; ++o) {
        const Type* from_signature = SignatureOutputType(*schema, signature, o);
        if (!from_signature || from_signature->is_unknown()) continue;
        if (AddsNothing(*from_signature, outputs[o])) continue;  // the usual case, no copy
        auto merged = MergeTypes(outputs[o], *from_signature);
        if (merged.ok()) outputs[o] = std::move(*merged);
      }
      // Inputs that disagree on a type parameter (MatMul of float16 and float): an output of
      // that parameter could be either, so its element type is unknown, whatever the rule
      // took from one input (its shape stays). Without type checks (onnx's check_type=False)
      // the rule's choice stands, as onnx's does.
      for (const auto& issue : signature.issues) {
        if (issue.conflicting_param.empty() || !options_.check_types) continue;
        for (int o = 0; o < num_outputs; ++o) {
          const FormalParameter* formal = FormalFor(schema->outputs(), o);
          if (formal && formal->type == issue.conflicting_param && outputs[o].is_tensor()) {
            outputs[o].set_elem_type(0);
          }
        }
      }
    }
  } else {
    outcome.how = NodeProvenance::How::kNoSchema;
    if (count_stats) result_.stats.nodes_without_rule++;
  }
  if (!outputs_reset) {
    reset_outputs();
  } else {
    outputs.resize(num_outputs);  // a function call's lists
    output_values.resize(num_outputs);
  }
}

std::map<std::string, Type, std::less<>> Driver::GraphValueTypeMap(const GraphRun& run,
                                                                   const Scope& scope) {
  std::map<std::string, Type, std::less<>> types;
  for (const auto& [name, type] : run.defined_inputs) types.emplace(name, type);
  for (const auto& node : run.graph->node()) {
    for (const auto& name : node.output()) {
      const Value* v = name.empty() ? nullptr : scope.FindHere(name);
      if (v && v->from_node()) types.emplace(name, v->type);
    }
  }
  return types;
}

void Driver::RecordValueTypes(const GraphRun& run, const Scope& scope) {
  if (!run.record || !options_.record_value_types) return;
  const onnx::GraphProto& graph = *run.graph;
  GraphValueTypes values;
  std::unordered_set<std::string_view> listed;
  for (const auto& [name, type] : run.defined_inputs) {
    values.types.emplace(name, type);
    if (listed.insert(name).second) values.inputs.emplace_back(name);
  }
  for (const auto& [name, type] : run.declared_inputs) values.declared.emplace(name, type);
  for (const auto& [name, type] : run.inferred_declared) values.inferred[std::string(name)] = type;
  // What value_info and the graph's outputs declare (GraphRun::declared_types).
  auto note_declared = [&](const std::string& name, int id) {
    const int32_t declared = scope.FindHere(id) ? scope.DeclaredIndex(id) : -1;
    if (declared >= 0 && !run.declared_types[declared].is_unknown()) {
      values.declared.emplace(name, run.declared_types[declared]);
    }
  };
  for (const auto& vi : graph.output()) listed.insert(vi.name());  // listed as outputs
  for (const auto& node : graph.node()) {
    for (const auto& name : node.output()) {
      if (name.empty() || !listed.insert(name).second) continue;
      const int id = scope.IdOf(name);
      const Value* v = scope.FindHere(id);
      if (!v || !v->from_node()) continue;  // on a cycle
      values.types.emplace(name, v->type);
      values.values.push_back(name);
      note_declared(name, id);
    }
  }
  for (int i = 0; i < graph.output_size(); ++i) {
    const std::string& name = graph.output(i).name();
    if (name.empty()) continue;
    values.outputs.push_back(name);
    values.types[name] = run.output_types[i];
    note_declared(name, scope.IdOf(name));
  }
  result_.value_types[run.path] = std::move(values);
}

NodeInferenceResult Driver::InferLoneNode(
    const onnx::NodeProto& node, const std::vector<Type>& input_types,
    const std::vector<std::optional<ConstValue>>& input_values) {
  std::vector<Diagnostic>& out = result_.diagnostics;
  const std::string domain(CanonicalDomain(node.domain()));
  auto opset = opsets_.find(domain);
  if (opset != opsets_.end()) CheckOpsetImport(domain, opset->second, out, "");

  // The node as the only one of a graph of its own (a copy: subgraph inference annotates
  // the node's graphs). Its inputs are the values of enclosing graphs its subgraphs see; any
  // other name they read is unknown.
  onnx::GraphProto graph;
  onnx::NodeProto* copy = graph.add_node();
  *copy = node;
  Scope scope(nullptr);
  scope.set_open();
  for (int i = 0; i < node.input_size(); ++i) {
    const std::string& name = node.input(i);
    if (name.empty()) continue;
    auto [v, fresh] = scope.Define(scope.Intern(name));
    if (!fresh) continue;
    if (i < static_cast<int>(input_types.size())) v->type = input_types[i];
    if (i < static_cast<int>(input_values.size())) v->set_data(Boxed(input_values[i]));
  }
  NodeInputs inputs;
  inputs.types.assign(node.input_size(), nullptr);
  inputs.values.assign(node.input_size(), nullptr);
  for (int i = 0; i < node.input_size(); ++i) {
    if (node.input(i).empty()) continue;
    const Value* v = scope.Find(node.input(i));
    inputs.types[i] = &v->type;
    inputs.values[i] = v->data();
  }
  GraphRun run;
  run.graph = &graph;
  run.opsets = &opsets_;
  run.diagnostics = &out;
  run.record = false;
  NodeOutcome outcome;
  InferNode(run, &scope, /*index=*/0, copy, inputs, /*inputs_defined=*/true,
            /*count_stats=*/false, outcome);
  NodeInferenceResult result;
  result.schema = outcome.schema;
  result.output_names.assign(node.output().begin(), node.output().end());
  result.output_types = std::move(outcome.types);
  result.output_values = std::move(outcome.values);
  result.diagnostics = std::move(out);
  result.learnt_about_symbols = !unifier_.facts().empty() || !unifier_.conditions().empty() ||
                                !unifier_.relations().empty() ||
                                !unifier_.BoundsOfSymbols().empty() ||
                                unifier_.assumptions().has_multiples();
  return result;
}

void Driver::InferGraphNode(GraphRun& run, Scope* scope, int index, const Producers& producer,
                            bool count_stats) {
  onnx::NodeProto* node = run.graph->mutable_node(index);
  // Facts recorded from here on are this node's (until a nested node's start or this end).
  TagFacts();
  node_stack_.push_back({&run.path, index, node});
  struct PopNode {
    Driver* driver;
    ~PopNode() {
      driver->TagFacts();
      driver->node_stack_.pop_back();
    }
  } pop_node{this};
  auto& out = *run.diagnostics;
  const std::string& path = run.path;
  NodeInputs& inputs = run.node_inputs;  // the previous node's, cleared
  std::vector<const Type*>& input_types = inputs.types;
  std::vector<const ConstValue*>& input_values = inputs.values;
  std::vector<std::optional<ConstValue>>& resolved = inputs.resolved;  // sized when needed
  const Names names = InputNames(*node);
  // Null. When the count is the previous node's (a chain), in place: assign's fill costs
  // more for a node's few inputs.
  if (input_types.size() == names.size() && input_values.size() == names.size()) {
    for (size_t i = 0; i < names.size(); ++i) {
      input_types[i] = nullptr;
      input_values[i] = nullptr;
    }
  } else {
    input_types.assign(names.size(), nullptr);
    input_values.assign(names.size(), nullptr);
  }
  resolved.clear();
  // Null entries, at least one per input (the previous node's cleared only when it set some:
  // resizing per node costs a call).
  if (inputs.unread_set) {
    std::fill(inputs.unread.begin(), inputs.unread.end(), nullptr);
    inputs.unread_set = false;
  }
  if (inputs.unread.size() < names.size()) inputs.unread.resize(names.size());
  inputs.max_value_elements = options_.max_value_elements;
  bool inputs_defined = true;
  inputs.read_default = false;
  bool read_default = false;  // an external default input's value given to the rule
  const int* input_ids = run.node_ids.inputs(index);
  bool drop_after = false;
  for (int i = 0; i < static_cast<int>(names.size()); ++i) {
    const std::string& name = *names[i];
    if (name.empty()) continue;
    const int id = input_ids[i];
    const Value* v = scope->Find(id, name);
    if (!v) {
      if (!(id >= 0 && producer[id] >= 0) && !scope->IsOpen()) {
        ReportNode(out, Severity::kError, DiagCode::kUndefinedValue, path, index, *node, nullptr,
                   StrCat("input ", i, " '", name, "' is not defined by any node, graph ",
                          "input or initializer"),
                   Subject::Input(i, name));
        inputs_defined = false;
      }
      continue;  // produced by a node on a cycle: unknown
    }
    input_types[i] = &v->type;
    // Elements read for the last time: freed once the node is done (MarkLastReads). Not an
    // initializer's still to decode, which most never are.
    if (v->data() && run.node_ids.LastRead(index, i)) drop_after = true;
    if (v->default_input() && !v->external()) {
      // Read only through Read, so that a rule that reads it is known (a condition).
      inputs.unread[i] = v;
      inputs.unread_set = true;
    } else if (v->unread()) {
      // An initializer's elements, decoded only if the rule asks for them (the facts do not
      // change them: they are constants).
      inputs.unread[i] = v;
      inputs.unread_set = true;
    } else if (const ConstValue* data = v->data()) {
      if (resolved.empty()) resolved.resize(names.size());
      input_values[i] = Resolved(*data, resolved[i]);
    } else if (const onnx::TensorProto* external = v->external()) {
      // Straight into the result: a subgraph pass's findings may be replaced by the next
      // pass's, and the read (cached) happens only once.
      std::vector<std::string> warnings;
      input_values[i] = external_values_.Get(*external, &warnings);
      for (auto& w : warnings) {
        ReportNode(result_.diagnostics, Severity::kWarning, DiagCode::kExternalData, path, index,
                   *node, nullptr, w);
      }
      if (v->default_input() && input_values[i]) read_default = true;
    }
  }
  NodeOutcome& outcome = run.node_outcome;
  if (provenance_) inputs.asked.assign(names.size(), 0);
  InferNode(run, scope, index, node, inputs, inputs_defined, count_stats, outcome);
  if (provenance_) RecordProvenance(run, index, inputs, outcome);
  if (read_default || inputs.read_default) {
    NoteDefaultInputsRead(run, *scope, *node, input_ids, inputs);
  }
  const OpSchema* schema = outcome.schema;
  std::vector<Type>& outputs = outcome.types;
  std::vector<std::optional<ConstValue>>& output_values = outcome.values;
  const int* output_ids = input_ids + names.size();
  for (int o = 0, n = node->output_size(); o < n; ++o) {
    if (output_ids[o] < 0) continue;  // an omitted output
    // An input, initializer or earlier output of that name keeps its value.
    auto [v, defined] = scope->Define(output_ids[o]);
    if (!defined) continue;
    if (const int32_t declared = scope->DeclaredIndex(output_ids[o]); declared >= 0) {
      if (run.record && options_.record_value_types && !run.declared_types[declared].is_unknown()) {
        run.inferred_declared.emplace_back(node->output(o), outputs[o]);
      }
      v->type = MergeWithDeclared(
          run, index, *node, schema, o, run.declared_types[declared],
          run.declared_before_bind.empty() ? nullptr : run.declared_before_bind[declared],
          std::move(outputs[o]));
    } else {
      v->type = std::move(outputs[o]);
    }
    v->set_from_node();
    v->set_data(Boxed(std::move(output_values[o])));  // most have none: nothing to do
  }
  if (drop_after) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i) {
      if (run.node_ids.LastRead(index, i)) scope->at(input_ids[i]).DropData();
    }
  }
}

// How much of a value is known, as NodeProvenance's bits.
uint8_t ValueBits(const ConstValue* value) {
  if (!value) return 0;
  if (!value->HasElements()) return NodeProvenance::kValuePartial;
  for (Dim d : value->ints) {
    if (d.is_unknown()) return NodeProvenance::kValuePartial;
  }
  return NodeProvenance::kValueKnown;
}

void Driver::RecordProvenance(const GraphRun& run, int index, const NodeInputs& inputs,
                              const NodeOutcome& outcome) {
  std::vector<NodeProvenance>& nodes = provenance_->graphs[run.path];
  if (nodes.size() < static_cast<size_t>(run.graph->node_size())) {
    nodes.resize(run.graph->node_size());
  }
  NodeProvenance& p = nodes[index];
  p.how = outcome.how;
  p.rule_failed = outcome.rule_failed;
  p.inputs.assign(inputs.values.size(), 0);
  for (size_t i = 0; i < inputs.values.size(); ++i) {
    // An initializer not decoded yet is known: a rule that asks for it gets it.
    const bool unread = i < inputs.unread.size() && inputs.unread[i] != nullptr;
    p.inputs[i] = unread ? NodeProvenance::kValueKnown : ValueBits(inputs.values[i]);
    if (inputs.asked[i] && !inputs.values[i] && !unread) {
      p.inputs[i] |= NodeProvenance::kValueAsked;
    }
  }
  p.outputs.assign(outcome.values.size(), 0);
  for (size_t o = 0; o < outcome.values.size(); ++o) {
    p.outputs[o] = outcome.values[o] ? ValueBits(&*outcome.values[o]) : 0;
  }
}

Type Driver::MergeWithDeclared(const GraphRun& run, int index, const onnx::NodeProto& node,
                               const OpSchema* schema, int o, const Type& declared,
                               const Type* before_bind, Type type) {
  auto& out = *run.diagnostics;
  const std::string& name = node.output(o);
  auto merged = MergeTypes(declared, type);
  // A declaration that contradicts inference through a symbol the options fix (a binding, a
  // given input shape or value) means the options contradict the model: an error naming the
  // facts, so that the model is not written with the options' dims over the inferred ones.
  auto option_contradiction = [&](const Status& why) {
    if (option_symbols_.empty()) return false;
    const Type& original = before_bind ? *before_bind : declared;
    if (!MentionsOptionSymbol(original)) return false;
    Status named = BindDeclared(original, type, StrCat("declared type of '", name, "'"));
    ReportNode(
        out, Severity::kError, DiagCode::kOptionContradiction, run.path, index, node, schema,
        StrCat("output ", o, " '", name, "': ",
               named.ok() ? StrCat("inferred type ", type.ToString(), " contradicts the declared ",
                                   declared.ToString(), " under the options (", why.message(), ")")
                          : named.message()),
        Subject::Output(o, name));
    return true;
  };
  if (!merged.ok() && option_contradiction(merged.status())) return declared;
  const bool keep = options_.declared_policy == DeclaredPolicy::kRefine;
  const Severity severity = keep ? StrictOr(Severity::kWarning)
                            : options_.declared_policy == DeclaredPolicy::kOverride
                                ? StrictOr(Severity::kNote)
                                : Severity::kError;
  const char* outcome = keep ? "keeping the declared type" : "the inferred type replaces it";
  if (!merged.ok()) {
    ReportNode(out, severity, DiagCode::kDeclaredContradiction, run.path, index, node, schema,
               StrCat("output ", o, " '", name, "': inferred type ", type.ToString(),
                      " contradicts the declared ", declared.ToString(), " (",
                      merged.status().message(), "); ", outcome),
               Subject::Output(o, name));
    return keep ? declared : type;
  }
  // Only where a node is inferred once: a subgraph or function body is inferred per pass
  // and per call, and what holds in one need not hold in all.
  Status bound = run.depth == 0
                     ? BindDeclared(declared, type, StrCat("declared type of '", name, "'"))
                     : OkStatus();
  if (!bound.ok() && !option_contradiction(bound)) {
    ReportNode(out, severity, DiagCode::kDeclaredContradiction, run.path, index, node, schema,
               StrCat("output ", o, " '", name, "': ", bound.message(), "; ", outcome),
               Subject::Output(o, name));
    // The declaration cannot hold with what is known (a declared 2 where N == 1 is a fact).
    if (!keep) return type;
  }
  return std::move(*merged);
}

}  // namespace onnx_infer::driver_internal
