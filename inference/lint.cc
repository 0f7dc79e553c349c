#include "onnx_infer/inference/lint.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/shape_inputs.h"
#include "onnx_infer/symbolic/context.h"
#include "onnx_infer/symbolic/parse.h"
#include "onnx_infer/symbolic/unifier.h"

namespace onnx_infer {
namespace {

// The exporter pattern and the fix for a declared symbol that node `op` forces to `value`.
void ExplainPinned(const FactSource& source, const std::string& fact, const std::string& symbol,
                   LintFinding& f) {
  const std::string& op = source.op_type;
  if (fact.find("declared type of") != std::string::npos) {
    f.pattern = StrCat(
        "a value the model declares (value_info or a graph output) has a "
        "constant where the dynamic '",
        symbol,
        "' flows: the declaration was "
        "written for the export-time size");
    f.fix = StrCat("declare that axis with '", symbol,
                   "' (torch.onnx.export dynamic_axes for the "
                   "outputs too), or drop the stale value_info");
  } else if (op == "Reshape") {
    f.pattern = StrCat(
        "a Reshape to a literal target shape: the exporter traced the target as "
        "constants (x.view(1, ...) or a size read as a Python int), so the "
        "element counts agree only when '",
        symbol, "' has its export-time value");
    f.fix = StrCat("replace the constant for the '", symbol,
                   "' axis in the Reshape target by -1 "
                   "or by Shape(x)[axis] (PyTorch: x.view(x.shape[0], ...) or x.view(-1, ...)); "
                   "export with dynamic_axes for '",
                   symbol, "'");
  } else if (op == "Concat") {
    f.pattern = StrCat(
        "a Concat with a constant input of the export-time size (a learned token "
        "not expanded to the batch, or a shape vector with a literal), so its "
        "other axes pin '",
        symbol, "'");
    f.fix = StrCat(
        "expand the constant to the input's size with Shape(x) before the Concat "
        "(PyTorch: token.expand(x.shape[0], -1, -1)), or build the shape vector "
        "from Shape(x)");
  } else if (op == "Expand" || op == "Tile" || op == "ConstantOfShape") {
    f.pattern = StrCat("an ", op, " to a literal shape traced at export time, so '", symbol,
                       "' must equal the constant");
    f.fix = StrCat(
        "compute the target shape from Shape(x) (PyTorch: expand(x.shape[0], ...)) "
        "or use 1 / -1 for the axis of '",
        symbol, "'");
  } else {
    f.pattern = StrCat("a constant of the export-time size meets the dynamic '", symbol,
                       "' in "
                       "an ",
                       op.empty() ? "operator" : op,
                       " (a broadcast, a contraction or a "
                       "literal shape input), so it only holds at that size");
    f.fix = StrCat(
        "give the constant size 1 on that axis so it broadcasts, or compute it from "
        "Shape(x); export with dynamic_axes for '",
        symbol, "'");
  }
}

void SetNode(const FactSource& source, LintFinding& f) {
  f.graph = source.graph.empty() ? "main" : source.graph;
  f.node_index = source.node_index;
  f.node_name = source.node_name;
  f.op = source.op_type;
}

// Symbols named alone by a dim_param of a main-graph input (not an initializer), with the
// inputs that name each.
std::map<std::string, std::set<std::string>> InputSymbols(const onnx::GraphProto& graph) {
  std::set<std::string> initializers;
  for (const auto& init : graph.initializer()) initializers.insert(init.name());
  std::map<std::string, std::set<std::string>> symbols;
  for (const auto& input : graph.input()) {
    if (initializers.count(input.name()) || !input.type().has_tensor_type() ||
        !input.type().tensor_type().has_shape()) {
      continue;
    }
    for (const auto& d : input.type().tensor_type().shape().dim()) {
      if (!d.has_dim_param()) continue;
      std::optional<Dim> dim = symbolic::ParseDim(d.dim_param());
      if (dim && dim->is_symbol()) symbols[std::string(dim->symbol_name())].insert(input.name());
    }
  }
  return symbols;
}

// L001 and L002: replays the facts in order and notes the first after which a declared input
// symbol is a constant, or two of them one class.
void LintFacts(const onnx::ModelProto& model, const InferenceResult& result,
               std::vector<LintFinding>& findings) {
  const auto symbols = InputSymbols(model.graph());
  if (symbols.empty() || result.fact_sources.size() != result.facts.size()) return;
  // Symbols the run named for dims the model leaves anonymous (InferenceOptions::
  // name_anonymous_dims): the exporter gave them no name, so two of them being one size is
  // no naming to fix (no L002).
  std::set<std::string> unnamed;
  for (const SymbolInfo& info : result.symbols) {
    if (info.origin.find(", which the model ") != std::string::npos) unnamed.insert(info.name);
  }
  symbolic::Unifier unifier;
  std::set<std::string> pinned;                         // reported, or pinned by the user
  std::set<std::pair<std::string, std::string>> equal;  // pairs reported or given
  for (size_t i = 0; i < result.fact_sources.size(); ++i) {
    const FactSource& source = result.fact_sources[i];
    if (!unifier.Unify(source.lhs, source.rhs, "").ok()) continue;
    const bool by_node = source.node_index >= 0;
    std::unordered_map<Dim, std::string> class_of;  // a representative -> the first symbol in it
    for (const auto& [name, inputs] : symbols) {
      const Dim r = unifier.Resolve(Dim::Symbol(name));
      if (auto v = r.const_value()) {
        if (!pinned.insert(name).second || !by_node) continue;
        LintFinding f;
        f.id = "L001";
        f.severity = Severity::kWarning;
        SetNode(source, f);
        f.subject = name;
        f.message = StrCat("the declared dynamic axis '", name, "' of input '", *inputs.begin(),
                           "' is forced to ", *v, ": ", result.facts[i]);
        ExplainPinned(source, result.facts[i], name, f);
        findings.push_back(std::move(f));
        continue;
      }
      if (pinned.count(name)) continue;
      auto [it, fresh] = class_of.emplace(r, name);
      if (fresh) continue;
      const std::string& other = it->second;
      if (!equal.insert({other, name}).second || !by_node) continue;
      if (unnamed.count(other) || unnamed.count(name)) continue;
      std::vector<std::string> shared;
      std::set_intersection(symbols.at(other).begin(), symbols.at(other).end(), inputs.begin(),
                            inputs.end(), std::back_inserter(shared));
      LintFinding f;
      f.id = "L002";
      // Two axes of one input (an image's H and W) made equal is a lost generality; two
      // inputs' axes named apart for one size (batch and batch_size) is often only naming.
      f.severity = shared.empty() ? Severity::kNote : Severity::kWarning;
      SetNode(source, f);
      f.subject = StrCat(other, " == ", name);
      f.message = StrCat("the declared axes '", other, "' and '", name,
                         "' are forced equal: ", result.facts[i]);
      if (shared.empty()) {
        f.pattern = StrCat("two inputs declare one axis under two names ('", other, "' of '",
                           *symbols.at(other).begin(), "', '", name, "' of '", *inputs.begin(),
                           "'), or the model combines axes that may differ");
        f.fix = StrCat(
            "if they are one size, declare both with one name (dynamic_axes); if "
            "not, the ",
            source.op_type,
            " needs them equal and the model cannot "
            "take them apart");
      } else {
        f.pattern = StrCat("two axes of input '", shared.front(),
                           "' declared apart are combined "
                           "as if equal (a square-image assumption, a view with a traced size)");
        f.fix = StrCat(
            "use one symbol for both if the model needs them equal; else compute "
            "the ",
            source.op_type, "'s sizes from Shape(x) per axis");
      }
      findings.push_back(std::move(f));
    }
  }
}

// L003: an output declared with a symbol that inference made a constant.
void LintOutputs(const onnx::ModelProto& model, const InferenceResult& result,
                 std::vector<LintFinding>& findings) {
  auto graph = result.value_types.find("main");
  if (graph == result.value_types.end()) return;
  std::map<std::string, int> producer;
  const auto& nodes = model.graph().node();
  for (int n = 0; n < nodes.size(); ++n) {
    for (const auto& o : nodes[n].output()) producer.emplace(o, n);
  }
  for (const auto& out : model.graph().output()) {
    auto declared = graph->second.declared.find(out.name());
    const Type* type = graph->second.Find(out.name());
    if (declared == graph->second.declared.end() || !type) continue;
    const Type& d = declared->second;
    if (d.kind() != Type::Kind::kTensor || type->kind() != Type::Kind::kTensor || !d.has_shape() ||
        !type->has_shape() || d.rank() != type->rank()) {
      continue;
    }
    for (size_t axis = 0; axis < d.shape().size(); ++axis) {
      const Dim a = d.shape()[axis], b = type->shape()[axis];
      if (a.is_unknown() || a.is_const() || !b.is_const()) continue;
      LintFinding f;
      f.id = "L003";
      f.severity = Severity::kWarning;
      if (auto p = producer.find(out.name()); p != producer.end()) {
        f.node_index = p->second;
        f.node_name = nodes[p->second].name();
        f.op = nodes[p->second].op_type();
      }
      f.subject = StrCat("output '", out.name(), "' dim ", axis);
      f.message = StrCat("output '", out.name(), "' is declared ", d.ToString(), " but dim ", axis,
                         " ('", a, "') is inferred ", b, ": written as ", type->ToString());
      f.pattern = StrCat(
          "the output was declared dynamic (dynamic_axes) but the graph computes "
          "it at the export-time size: a constant on the way pins '",
          a, "'");
      f.fix =
          "find the L001 finding of the symbol (or the node computing the output) and make "
          "its sizes follow Shape(x); else declare the output with the constant";
      findings.push_back(std::move(f));
    }
  }
}

// Names read anywhere inside the subgraphs of `node` (implicit captures included).
void CollectSubgraphReads(const onnx::GraphProto& g, std::set<std::string>& reads) {
  for (const auto& n : g.node()) {
    for (const auto& in : n.input()) reads.insert(in);
    for (const auto& a : n.attribute()) {
      if (a.has_g()) CollectSubgraphReads(a.g(), reads);
      for (const auto& sg : a.graphs()) CollectSubgraphReads(sg, reads);
    }
  }
  for (const auto& o : g.output()) reads.insert(o.name());
}

// L004: a Shape of the main graph whose result reaches no shape input, graph output or
// subgraph: dead, or used only as data.
void LintShapes(const onnx::ModelProto& model, std::vector<LintFinding>& findings) {
  const auto& g = model.graph();
  std::map<std::string, std::vector<std::pair<int, int>>> consumers;  // value -> (node, input)
  std::set<std::string> used;  // graph outputs and what subgraphs read
  for (const auto& o : g.output()) used.insert(o.name());
  for (int n = 0; n < g.node_size(); ++n) {
    const auto& node = g.node(n);
    for (int i = 0; i < node.input_size(); ++i) consumers[node.input(i)].push_back({n, i});
    for (const auto& a : node.attribute()) {
      if (a.has_g()) CollectSubgraphReads(a.g(), used);
      for (const auto& sg : a.graphs()) CollectSubgraphReads(sg, used);
    }
  }
  for (int n = 0; n < g.node_size(); ++n) {
    const auto& node = g.node(n);
    if (node.op_type() != "Shape" || !(node.domain().empty() || node.domain() == "ai.onnx") ||
        node.output_size() < 1) {
      continue;
    }
    std::vector<std::string> todo = {node.output(0)};
    std::set<std::string> seen(todo.begin(), todo.end());
    bool reaches = false, consumed = false;
    while (!todo.empty() && !reaches) {
      const std::string v = todo.back();
      todo.pop_back();
      if (used.count(v)) {
        reaches = true;
        break;
      }
      auto c = consumers.find(v);
      if (c == consumers.end()) continue;
      for (auto [m, i] : c->second) {
        consumed = true;
        const auto& user = g.node(m);
        const bool has_subgraph =
            std::any_of(user.attribute().begin(), user.attribute().end(),
                        [](const onnx::AttributeProto& a) { return a.has_g() || a.graphs_size(); });
        if (IsShapeValueInput(model, user, i) || has_subgraph) {
          reaches = true;
          break;
        }
        for (const auto& o : user.output()) {
          if (!o.empty() && seen.insert(o).second) todo.push_back(o);
        }
      }
    }
    if (reaches) continue;
    LintFinding f;
    f.id = "L004";
    f.severity = Severity::kNote;
    f.node_index = n;
    f.node_name = node.name();
    f.op = node.op_type();
    const std::string in = node.input_size() ? node.input(0) : "";
    f.subject = StrCat("Shape(", in, ")");
    if (!consumed) {
      f.message = StrCat("the result of Shape('", in, "') is never used");
      f.pattern =
          "a shape read the exporter traced and left behind (its consumers were folded "
          "to constants)";
      f.fix =
          "remove the dead node (onnx-simplifier, onnx.utils, or export with constant "
          "folding); check whether the folded consumer baked the size into a constant";
    } else {
      f.message = StrCat("the result of Shape('", in,
                         "') feeds only nodes whose results reach "
                         "no shape input (Reshape, Expand, Slice...), graph output or subgraph");
      f.pattern =
          "a shape computation whose end the exporter folded to a constant, leaving "
          "its beginning behind";
      f.fix =
          "remove the dead nodes (onnx-simplifier, or export with constant folding); check "
          "whether the folded end baked the size into a constant";
    }
    findings.push_back(std::move(f));
  }
}

}  // namespace

std::string LintFinding::Render(std::string_view file) const {
  std::string where = StrCat("graph '", graph, "'");
  if (node_index >= 0) {
    where += StrCat(" node #", node_index);
    if (!node_name.empty()) where += StrCat(" '", node_name, "'");
    where += StrCat(" (", op, ")");
  }
  return StrCat(file, file.empty() ? "" : ": ", SeverityName(severity), " ", id, ": ", where, ": ",
                message, "\n  pattern: ", pattern, "\n  fix: ", fix);
}

std::vector<LintFinding> Lint(const onnx::ModelProto& model, const InferenceResult& result,
                              bool shape_checks) {
  std::vector<LintFinding> findings;
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  LintFacts(model, result, findings);
  LintOutputs(model, result, findings);
  if (shape_checks) LintShapes(model, findings);
  return findings;
}

}  // namespace onnx_infer
