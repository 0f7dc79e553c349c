#include "inference/infer_shapes.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "base/strings.h"
#include "inference/graph_order.h"
#include "schema/const_value.h"
#include "schema/inference_context.h"
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
};

// Domains whose operators the built-in catalog defines: an unknown op there is not a custom op.
bool IsOnnxDomain(std::string_view domain) {
  return domain.empty() || domain == "ai.onnx.ml" || domain == "ai.onnx.preview" ||
         domain == "ai.onnx.preview.training" || domain == "ai.onnx.training";
}

class Driver {
 public:
  Driver(onnx::ModelProto& model, const SchemaRegistry& registry, const InferenceOptions& options,
         InferenceResult& result)
      : model_(model), registry_(registry), options_(options), result_(result) {
    for (const auto& opset : model_.opset_import()) {
      opsets_[std::string(CanonicalDomain(opset.domain()))] = opset.version();
    }
  }

  void Run() { InferGraph(*model_.mutable_graph(), "main"); }

 private:
  Diagnostic& Report(Severity severity, const std::string& graph, std::string message) {
    Diagnostic& d = result_.diagnostics.emplace_back();
    d.severity = severity;
    d.graph = graph;
    d.message = std::move(message);
    return d;
  }

  Diagnostic& ReportNode(Severity severity, const std::string& graph, int index,
                         const onnx::NodeProto& node, const OpSchema* schema,
                         std::string message) {
    Diagnostic& d = Report(severity, graph, std::move(message));
    d.node_index = index;
    d.node_name = node.name();
    if (schema) {
      d.op = schema->Id();
    } else {
      d.op = StrCat(DisplayDomain(CanonicalDomain(node.domain())), "::", node.op_type());
    }
    return d;
  }

  Severity StrictOr(Severity lenient) const {
    return options_.strict ? Severity::kError : lenient;
  }

  void InferGraph(onnx::GraphProto& graph, const std::string& path);

  // Resolves the node's schema, reporting why when there is none. Null means: leave its
  // outputs unknown.
  const OpSchema* ResolveSchema(const onnx::NodeProto& node, const std::string& path, int index,
                                int64_t* opset_version);

  // Checks the node's input and output counts against the schema.
  bool CheckArity(const onnx::NodeProto& node, const OpSchema& schema, const std::string& path,
                  int index);

  onnx::ModelProto& model_;
  const SchemaRegistry& registry_;
  const InferenceOptions& options_;
  InferenceResult& result_;
  std::map<std::string, int64_t, std::less<>> opsets_;
  std::set<std::string> reported_once_;  // "no rule" / "no schema" findings, once per op
  // What the model says about its symbols (N == M, N == 5), shared by every node's rule.
  symbolic::Unifier unifier_;
};

const OpSchema* Driver::ResolveSchema(const onnx::NodeProto& node, const std::string& path,
                                      int index, int64_t* opset_version) {
  const std::string domain(CanonicalDomain(node.domain()));
  auto opset = opsets_.find(domain);
  if (opset == opsets_.end()) {
    ReportNode(Severity::kError, path, index, node, nullptr,
               StrCat("the model does not import the operator set of domain '",
                      DisplayDomain(domain), "' (opset_import has no entry for it)"));
    return nullptr;
  }
  *opset_version = opset->second;
  const OpSchema* schema = registry_.Lookup(domain, node.op_type(), opset->second);
  if (schema) {
    if (schema->deprecated()) {
      ReportNode(Severity::kWarning, path, index, node, schema,
                 StrCat(node.op_type(), " is deprecated in opset ", opset->second, " of ",
                        DisplayDomain(domain)));
    }
    return schema;
  }
  auto versions = registry_.Versions(domain, node.op_type());
  if (!versions.empty()) {
    ReportNode(Severity::kError, path, index, node, nullptr,
               StrCat(node.op_type(), " is not in opset ", opset->second, " of ",
                      DisplayDomain(domain), " (its first version is ",
                      versions.front()->since_version(), ")"));
  } else if (IsOnnxDomain(domain)) {
    ReportNode(Severity::kError, path, index, node, nullptr,
               StrCat("unknown operator '", node.op_type(), "' in domain ",
                      DisplayDomain(domain)));
  } else if (reported_once_.insert(StrCat("schema:", domain, "::", node.op_type())).second) {
    ReportNode(StrictOr(Severity::kWarning), path, index, node, nullptr,
               StrCat("no schema for custom operator ", domain, "::", node.op_type(),
                      "; its outputs are left unknown (reported once per operator)"));
  }
  result_.stats.nodes_without_rule++;
  return nullptr;
}

bool Driver::CheckArity(const onnx::NodeProto& node, const OpSchema& schema,
                        const std::string& path, int index) {
  auto check = [&](const char* what, int given, int lo, int hi) {
    if (given >= lo && given <= hi) return true;
    std::string expected = lo == hi ? StrCat(lo)
                           : hi == INT32_MAX ? StrCat("at least ", lo)
                                             : StrCat(lo, " to ", hi);
    ReportNode(Severity::kError, path, index, node, &schema,
               StrCat("expected ", expected, " ", what, ", got ", given));
    return false;
  };
  bool ok = check("inputs", node.input_size(), schema.min_inputs(), schema.max_inputs());
  ok &= check("outputs", node.output_size(), schema.min_outputs(), schema.max_outputs());
  return ok;
}

void Driver::InferGraph(onnx::GraphProto& graph, const std::string& path) {
  std::unordered_map<std::string, Value> scope;
  std::unordered_map<std::string, Type> declared;  // graph outputs and value_info

  auto define = [&](const std::string& name, Type type, std::string_view what) {
    auto [it, inserted] = scope.try_emplace(name);
    if (!inserted) {
      Report(Severity::kError, path,
             StrCat("'", name, "' is defined more than once (again as ", what, ")"));
      return false;
    }
    it->second.type = std::move(type);
    return true;
  };

  for (const auto& vi : graph.output()) declared[vi.name()] = TypeFromProto(vi.type());
  for (const auto& vi : graph.value_info()) {
    if (vi.has_type()) declared[vi.name()] = TypeFromProto(vi.type());
  }
  for (const auto& vi : graph.input()) {
    define(vi.name(), TypeFromProto(vi.type()), "a graph input");
  }
  for (const auto& init : graph.initializer()) {
    Type type = TypeOfTensor(init);
    auto it = scope.find(init.name());
    if (it != scope.end()) {
      // A graph input with a default value: the two descriptions must agree.
      auto merged = MergeTypes(it->second.type, type);
      if (!merged.ok()) {
        Report(Severity::kError, path,
               StrCat("initializer '", init.name(), "' does not match its graph input: ",
                      merged.status().message()));
      } else {
        it->second.type = *merged;
      }
      continue;  // its value may be overridden at run time, so it is not a constant
    }
    if (!define(init.name(), type, "an initializer")) continue;
    scope[init.name()].data = ConstValueOfTensor(init, options_.max_value_elements);
  }
  for (const auto& sparse : graph.sparse_initializer()) {
    if (scope.count(sparse.values().name())) continue;
    define(sparse.values().name(), TypeOfSparseTensor(sparse), "a sparse initializer");
  }

  // Which node produces each value, then an order in which producers come first.
  const int num_nodes = graph.node_size();
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < num_nodes; ++i) {
    for (const auto& out : graph.node(i).output()) {
      if (out.empty()) continue;
      if (scope.count(out)) {
        ReportNode(Severity::kError, path, i, graph.node(i), nullptr,
                   StrCat("output '", out, "' redefines a graph input or initializer"));
        continue;
      }
      auto [it, inserted] = producer.try_emplace(out, i);
      if (!inserted) {
        ReportNode(Severity::kError, path, i, graph.node(i), nullptr,
                   StrCat("output '", out, "' is also produced by node #", it->second));
      }
    }
  }
  std::vector<std::vector<int>> producers(num_nodes);
  for (int i = 0; i < num_nodes; ++i) {
    for (const auto& in : graph.node(i).input()) {
      auto it = producer.find(in);
      if (it != producer.end()) producers[i].push_back(it->second);
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
    Report(Severity::kError, path,
           StrCat("the nodes ", StrJoin(names, ", "),
                  " form a cycle; their outputs are left unknown"));
  }

  // Infer node by node.
  std::unordered_map<std::string, Type> inferred;  // final type of each node output
  for (int index : order.order) {
    const onnx::NodeProto& node = graph.node(index);
    result_.stats.nodes++;
    std::vector<const Type*> input_types(node.input_size(), nullptr);
    std::vector<const ConstValue*> input_values(node.input_size(), nullptr);
    bool inputs_defined = true;
    for (int i = 0; i < node.input_size(); ++i) {
      const std::string& name = node.input(i);
      if (name.empty()) continue;
      auto it = scope.find(name);
      if (it == scope.end()) {
        if (!producer.count(name)) {
          ReportNode(Severity::kError, path, index, node, nullptr,
                     StrCat("input ", i, " '", name, "' is not defined by any node, graph ",
                            "input or initializer"));
          inputs_defined = false;
        }
        continue;  // produced by a node on a cycle: unknown
      }
      input_types[i] = &it->second.type;
      if (it->second.data) input_values[i] = &*it->second.data;
    }
    int64_t opset_version = 0;
    const OpSchema* schema = ResolveSchema(node, path, index, &opset_version);
    std::vector<Type> outputs(node.output_size());
    std::vector<std::optional<ConstValue>> output_values(node.output_size());
    if (schema && CheckArity(node, *schema, path, index) && inputs_defined) {
      if (!schema->has_rule()) {
        result_.stats.nodes_without_rule++;
        if (reported_once_.insert("rule:" + schema->Id()).second) {
          ReportNode(StrictOr(Severity::kNote), path, index, node, schema,
                     "no inference rule for this operator yet; its outputs are left unknown "
                     "(reported once per operator version)");
        }
      } else {
        InferenceContext ctx(node, *schema, opset_version, std::move(input_types),
                             std::move(input_values));
        ctx.set_max_value_elements(options_.max_value_elements);
        ctx.set_unifier(&unifier_);
        Status status = schema->rule()(ctx);
        for (const auto& w : ctx.warnings()) {
          ReportNode(Severity::kWarning, path, index, node, schema, w);
        }
        if (!status.ok()) {
          ReportNode(Severity::kError, path, index, node, schema, status.message());
        } else {
          for (int o = 0; o < node.output_size(); ++o) {
            outputs[o] = ctx.OutputType(o);
            output_values[o] = ctx.OutputValue(o);
          }
        }
      }
    }
    for (int o = 0; o < node.output_size(); ++o) {
      const std::string& name = node.output(o);
      if (name.empty() || scope.count(name)) continue;
      Type type = std::move(outputs[o]);
      auto decl = declared.find(name);
      if (decl != declared.end()) {
        auto merged = MergeTypes(decl->second, type);
        if (merged.ok()) {
          type = std::move(*merged);
        } else {
          ReportNode(StrictOr(Severity::kWarning), path, index, node, schema,
                     StrCat("output ", o, " '", name, "': inferred type ", type.ToString(),
                            " contradicts the declared ", decl->second.ToString(), " (",
                            merged.status().message(), "); keeping the declared type"));
          type = decl->second;
        }
      }
      inferred[name] = type;
      Value& v = scope[name];
      v.type = std::move(type);
      v.data = std::move(output_values[o]);
    }
  }

  // Write back: graph outputs in place, everything else into value_info.
  std::unordered_map<std::string, onnx::ValueInfoProto*> infos;
  std::set<std::string> graph_outputs;
  for (auto& vi : *graph.mutable_output()) graph_outputs.insert(vi.name());
  for (auto& vi : *graph.mutable_value_info()) infos[vi.name()] = &vi;
  for (auto& vi : *graph.mutable_output()) {
    auto it = inferred.find(vi.name());
    if (it != inferred.end() && !it->second.is_unknown()) {
      WriteTypeToProto(it->second, vi.mutable_type());
    }
  }
  for (int index = 0; index < num_nodes; ++index) {
    for (const auto& name : graph.node(index).output()) {
      auto it = inferred.find(name);
      if (it == inferred.end()) continue;
      const Type& type = it->second;
      result_.stats.values++;
      if (type.is_unknown() || (type.is_tensor() && type.elem_type() == 0)) continue;
      result_.stats.typed++;
      if (type.IsComplete()) result_.stats.shaped++;
      if (type.IsStatic()) result_.stats.static_shaped++;
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
