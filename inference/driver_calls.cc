// The driver: subgraphs (If, Loop, Scan bodies) and function calls, model-local or from the
// operator catalog (inference/driver.h).
#include "onnx_infer/inference/driver.h"

namespace onnx_infer::driver_internal {

StatusOr<std::vector<Type>> Driver::InferSubgraph(
    const GraphRun& outer, const Scope* scope, int index, onnx::GraphProto* graph,
    std::string_view attribute, const std::vector<Type>& input_types,
    std::vector<Diagnostic>* diagnostics, std::vector<std::optional<ConstValue>>* output_values) {
  const onnx::NodeProto& node = outer.graph->node(index);
  if (outer.depth + 1 > options_.max_nesting) {
    return AttrError(attribute,
                     StrCat("subgraphs nested deeper than ", options_.max_nesting,
                            " levels are not inferred (the graph nesting limit, "
                            "InferenceOptions::max_nesting)"),
                     DiagCode::kNestingLimit);
  }
  if (!expansion_budget_.Charge(graph->node_size())) {
    return AttrError(attribute, StrCat(expansion_budget_.Message()), DiagCode::kExpansionLimit);
  }
  if (graph->input_size() != static_cast<int>(input_types.size())) {
    return AttrError(
        attribute,
        StrCat("the graph has ", graph->input_size(), " inputs, expected ", input_types.size()),
        DiagCode::kSubgraphMismatch);
  }
  GraphRun run;
  run.graph = graph;
  run.path = ChildPath(outer.path, StrCat(node.op_type(), "_", index, ".", attribute));
  run.parent = scope;
  run.opsets = outer.opsets;
  run.input_types = &input_types;
  run.annotate_inputs = true;
  run.depth = outer.depth + 1;
  run.diagnostics = diagnostics;
  run.record = outer.record;
  Scope sub_scope(scope);
  InferGraph(run, &sub_scope, /*count_stats=*/false);
  RecordValueTypes(run, sub_scope);
  if (output_values) *output_values = std::move(run.output_values);
  return run.output_types;
}

const onnx::FunctionProto* Driver::CatalogBody(const OpSchema& schema, int64_t opset,
                                               std::string* error) {
  const auto& bodies = schema.function_bodies();
  if (bodies.empty() || schema.context_dependent_function()) return nullptr;
  std::optional<size_t> pick;
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].opset <= opset && (!pick || bodies[i].opset > bodies[*pick].opset)) pick = i;
  }
  if (!pick) {
    pick = 0;
    for (size_t i = 1; i < bodies.size(); ++i) {
      if (bodies[i].opset < bodies[*pick].opset) pick = i;
    }
  }
  auto it = catalog_bodies_.find({&schema, *pick});
  if (it == catalog_bodies_.end()) {
    it = catalog_bodies_
             .emplace(std::pair{&schema, *pick},
                      syntax::ParseFunctionText(bodies[*pick].text,
                                                StrCat(schema.Id(), " function body")))
             .first;
  }
  if (!it->second.ok()) {
    *error = it->second.status().message();
    return nullptr;
  }
  return &*it->second;
}

// Replaces each attribute reference of `node` (ref_attr_name) by the attribute `bound` gives
// it, renamed; one bound to nothing is dropped (absent, so its default applies). References
// reach into subgraphs too: a branch of an If in a function body may say `to = @target`, and
// the body's attributes are the only scope such a reference can name.
void BindAttributeReferences(const std::map<std::string, const onnx::AttributeProto*>& bound,
                             onnx::NodeProto* node) {
  auto* attributes = node->mutable_attribute();
  for (int i = 0; i < attributes->size();) {
    onnx::AttributeProto* a = attributes->Mutable(i);
    if (!a->ref_attr_name().empty()) {
      auto it = bound.find(a->ref_attr_name());
      if (it == bound.end()) {
        attributes->DeleteSubrange(i, 1);
        continue;
      }
      std::string name = a->name();
      *a = *it->second;
      a->set_name(std::move(name));
    } else if (a->has_g()) {
      for (auto& n : *a->mutable_g()->mutable_node()) BindAttributeReferences(bound, &n);
    } else {
      for (auto& g : *a->mutable_graphs()) {
        for (auto& n : *g.mutable_node()) BindAttributeReferences(bound, &n);
      }
    }
    ++i;
  }
}

CallResult Driver::InferFunctionCall(const GraphRun& run, int index, const onnx::NodeProto& node,
                                     const onnx::FunctionProto& f, int function_index,
                                     const OpSchema* schema, const std::vector<const Type*>& inputs,
                                     const std::vector<const ConstValue*>& input_values) {
  auto& out = *run.diagnostics;
  const std::string id =
      schema ? schema->Id() : StrCat(DisplayDomain(CanonicalDomain(f.domain())), "::", f.name());
  CallResult none{std::vector<Type>(node.output_size()),
                  std::vector<std::optional<ConstValue>>(node.output_size())};
  for (const onnx::FunctionProto* active : function_stack_) {
    if (active == &f) {
      ReportNode(out, Severity::kError, DiagCode::kFunctionRecursion, run.path, index, node, schema,
                 StrCat("function ", id, " calls itself (directly or through other functions)"));
      return none;
    }
  }
  if (run.depth + 1 > options_.max_nesting) {
    ReportNode(out, Severity::kError, DiagCode::kNestingLimit, run.path, index, node, schema,
               StrCat("function calls nested deeper than ", options_.max_nesting,
                      " levels are not inferred (the graph nesting limit, "
                      "InferenceOptions::max_nesting)"));
    return none;
  }
  if (!expansion_budget_.Charge(f.node_size())) {
    if (expansion_budget_.FirstRefusal()) {
      ReportNode(out, Severity::kError, DiagCode::kExpansionLimit, run.path, index, node, schema,
                 StrCat("function ", id, ": ", expansion_budget_.Message()));
    }
    return none;
  }
  if (node.input_size() > f.input_size() || node.output_size() > f.output_size()) {
    ReportNode(out, Severity::kError, DiagCode::kFunctionArity, run.path, index, node, schema,
               StrCat("function ", id, " takes ", f.input_size(), " inputs and ", f.output_size(),
                      " outputs; the call gives ", node.input_size(), " and ", node.output_size()));
    return none;
  }

  // The body as a graph: formal inputs typed by the call, attribute references bound to the
  // call's attributes or the defaults (the function's own, or its schema's).
  onnx::GraphProto body;
  std::vector<Type> types;
  std::vector<const ConstValue*> values;
  for (int i = 0; i < f.input_size(); ++i) {
    const bool given = i < static_cast<int>(inputs.size());
    body.add_input()->set_name(f.input(i));
    types.push_back(given && inputs[i] ? *inputs[i] : Type());
    values.push_back(given && options_.data_propagation ? input_values[i] : nullptr);
  }
  for (const auto& o : f.output()) body.add_output()->set_name(o);
  std::map<std::string, const onnx::AttributeProto*> bound;
  if (schema) {
    for (const auto& spec : schema->attributes()) {
      if (spec.default_value) bound[spec.name] = &*spec.default_value;
    }
  }
  for (const auto& a : f.attribute_proto()) bound[a.name()] = &a;  // defaults
  for (const auto& a : node.attribute()) bound[a.name()] = &a;
  for (const auto& fn_node : f.node()) {
    onnx::NodeProto* n = body.add_node();
    *n = fn_node;
    BindAttributeReferences(bound, n);
  }
  Opsets opsets = f.opset_import_size() ? ReadOpsets(f.opset_import()) : *run.opsets;
  GraphRun call;
  call.graph = &body;
  call.path = ChildPath(run.path, StrCat(node.op_type(), "_", index, ".", id));
  call.opsets = &opsets;
  call.input_types = &types;
  call.input_values = &values;
  call.annotate_inputs = true;
  call.depth = run.depth + 1;
  call.diagnostics = run.diagnostics;
  call.record = run.record && function_index >= 0;
  Scope scope(nullptr);  // a function sees only its inputs
  function_stack_.push_back(&f);
  InferGraph(call, &scope, /*count_stats=*/false);
  function_stack_.pop_back();

  if (function_index >= 0) {
    // Keep each value's type per call; value_info is written where all calls agree.
    auto& seen = function_values_[function_index];
    auto first_call = seen.empty();
    for (const auto& [name, type] : GraphValueTypeMap(call, scope)) {
      auto [it, inserted] = seen.try_emplace(name, type);
      if (!inserted && it->second && !(*it->second == type)) it->second.reset();
      if (inserted && !first_call) it->second.reset();  // absent from an earlier call
    }
  }
  RecordValueTypes(call, scope);
  CallResult result = none;
  for (int o = 0; o < node.output_size() && o < static_cast<int>(call.output_types.size()); ++o) {
    result.types[o] = call.output_types[o];
    result.values[o] = call.output_values[o];
  }
  return result;
}

void Driver::WriteFunctionValueInfo() {
  for (const auto& [index, values] : function_values_) {
    onnx::FunctionProto* f = model_->mutable_functions(index);
    std::map<std::string, onnx::ValueInfoProto*> existing;
    for (auto& vi : *f->mutable_value_info()) existing[vi.name()] = &vi;
    for (const auto& [name, type] : values) {
      if (!type || type->is_unknown()) continue;
      onnx::ValueInfoProto* vi = existing.count(name) ? existing[name] : f->add_value_info();
      vi->set_name(name);
      WriteTypeToProto(*type, vi->mutable_type(), &dim_texts_);
    }
  }
}

}  // namespace onnx_infer::driver_internal
