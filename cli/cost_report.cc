#include "onnx_infer/cli/cost_report.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"

namespace onnx_infer {

using symbolic::Dim;

CostReport MakeCostReport(CostEstimate symbolic, const CostEstimate* bound,
                          const CostBinding& binding) {
  CostReport r;
  r.cost = std::move(symbolic);
  r.binding = binding;
  if (binding.empty()) return r;
  CostValues v = EvaluateCost(r.cost, binding);
  // Both estimates walk the same graphs; where they list the same node, a number the
  // expression could not give is the bound run's.
  if (bound && bound->nodes.size() == r.cost.nodes.size()) {
    for (size_t i = 0; i < v.nodes.size(); ++i) {
      const NodeCost& b = bound->nodes[i];
      const NodeCost& s = r.cost.nodes[i];
      if (b.graph != s.graph || b.node_index != s.node_index) continue;
      if (!v.nodes[i].flops) v.nodes[i].flops = b.flops.const_value();
      if (!v.nodes[i].macs) v.nodes[i].macs = b.macs.const_value();
    }
    if (!v.total_flops && r.cost.lower_bound == bound->lower_bound) {
      v.total_flops = bound->total_flops.const_value();
      v.total_macs = bound->total_macs.const_value();
    }
  }
  r.values = std::move(v);
  return r;
}

CostReport CostOfRun(const onnx::ModelProto& model, const InferenceResult& result,
                     onnx::ModelProto* pristine, const SchemaRegistry& registry,
                     const InferenceOptions& options) {
  CostEstimate bound = EstimateCost(model, result);
  if (options.bind.empty() || !pristine) return MakeCostReport(std::move(bound), nullptr, {});
  InferenceOptions symbolic_options = options;
  symbolic_options.bind.clear();
  symbolic_options.record_value_types = true;
  symbolic_options.stream_new_value_info = false;
  InferenceResult symbolic = InferShapes(*pristine, registry, symbolic_options);
  CostBinding binding(options.bind.begin(), options.bind.end());
  return MakeCostReport(EstimateCost(*pristine, symbolic), &bound, binding);
}

namespace {

std::string OpName(const NodeCost& n) {
  if (n.domain.empty() || n.domain == "ai.onnx") return n.op_type;
  return StrCat(n.domain, "::", n.op_type);
}

std::string NodeLabel(const NodeCost& n) {
  return StrCat(n.graph == "main" ? "" : StrCat(n.graph, " "), "node #", n.node_index,
                n.node_name.empty() ? std::string() : StrCat(" '", n.node_name, "'"), " (",
                OpName(n), ")");
}

nlohmann::json CountJson(const Dim& d) {
  if (d.is_unknown()) return nullptr;
  if (auto v = d.const_value()) return *v;
  return d.ToString();
}

nlohmann::json ValueJson(const std::optional<int64_t>& v) {
  if (!v) return nullptr;
  return *v;
}

std::string Nodes(int64_t n) { return StrCat(n, n == 1 ? " node" : " nodes"); }

std::string BindingText(const CostBinding& binding) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : binding) parts.push_back(StrCat(k, "=", v));
  return StrJoin(parts, ", ");
}

}  // namespace

void PrintCostReport(const CostReport& r, std::ostream& out, int top_nodes) {
  const CostEstimate& c = r.cost;
  out << "cost (docs/cost.md; a multiply-add is 2 FLOPs and 1 MAC):\n";
  out << "  FLOPs: " << FormatCount(c.total_flops) << "\n";
  out << "  MACs: " << FormatCount(c.total_macs) << "\n";
  if (r.values) {
    out << "  under " << BindingText(r.binding) << ": "
        << (r.values->total_flops ? FormatCount(*r.values->total_flops) : "?") << " FLOPs, "
        << (r.values->total_macs ? FormatCount(*r.values->total_macs) : "?") << " MACs";
    if (!r.values->unbound_symbols.empty()) {
      out << " (not bound: " << StrJoin(r.values->unbound_symbols, ", ") << ")";
    }
    out << "\n";
  }
  if (c.lower_bound) {
    std::vector<std::string> ops;
    for (const auto& [op, k] : c.ops_without_formula) ops.push_back(StrCat(op, " x", k));
    out << "  a lower bound, not counting ";
    std::vector<std::string> why;
    if (c.nodes_without_formula) {
      why.push_back(StrCat(Nodes(c.nodes_without_formula), " without a cost formula (",
                           StrJoin(ops, ", "), ")"));
    }
    if (c.nodes_unknown_shape) {
      why.push_back(StrCat(Nodes(c.nodes_unknown_shape), " whose shapes are not known"));
    }
    out << StrJoin(why, ", and ") << "\n";
  }
  if (c.per_iteration_loops) {
    out << "  per iteration of " << c.per_iteration_loops
        << (c.per_iteration_loops == 1 ? " Loop" : " Loops")
        << " whose trip count is not known (each body counted once)\n";
  }
  // The main graph's nodes by their numbers (under the binding, else constants), largest
  // first; nodes without a number follow in the model's order.
  std::vector<size_t> main;
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    const NodeCost& n = c.nodes[i];
    if (n.graph != "main" || n.flops.const_value() == 0) continue;
    main.push_back(i);
  }
  auto number = [&](size_t i) -> std::optional<int64_t> {
    if (r.values) return r.values->nodes[i].flops;
    return c.nodes[i].flops.const_value();
  };
  std::stable_sort(main.begin(), main.end(), [&](size_t a, size_t b) {
    auto x = number(a), y = number(b);
    if (x && y) return *x > *y;
    return x.has_value() && !y.has_value();
  });
  if (main.empty()) return;
  out << "  top nodes by FLOPs:\n";
  std::optional<int64_t> total = r.values ? r.values->total_flops : c.total_flops.const_value();
  for (size_t k = 0; k < main.size() && static_cast<int>(k) < top_nodes; ++k) {
    const NodeCost& n = c.nodes[main[k]];
    out << "    " << NodeLabel(n) << ": " << FormatCount(n.flops);
    if (auto v = number(main[k]); v && !n.flops.is_const()) out << " = " << FormatCount(*v);
    if (auto v = number(main[k]); v && total && *total > 0) {
      char pct[16];
      std::snprintf(pct, sizeof(pct), "%.1f",
                    100.0 * static_cast<double>(*v) / static_cast<double>(*total));
      out << " (" << pct << "%)";
    }
    if (!n.note.empty()) out << "; " << n.note;
    out << "\n";
  }
  if (main.size() > static_cast<size_t>(top_nodes)) {
    out << "    ... " << main.size() - top_nodes << " more (--json lists every node)\n";
  }
}

nlohmann::json CostReportJson(const CostReport& r) {
  const CostEstimate& c = r.cost;
  nlohmann::json nodes = nlohmann::json::array();
  nlohmann::json missing = nlohmann::json::array();
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    const NodeCost& n = c.nodes[i];
    nlohmann::json j = {
        {"graph", n.graph},         {"node_index", n.node_index},   {"node_name", n.node_name},
        {"op", OpName(n)},          {"kind", CostKindName(n.kind)}, {"flops", CountJson(n.flops)},
        {"macs", CountJson(n.macs)}};
    if (r.values) {
      j["flops_value"] = ValueJson(r.values->nodes[i].flops);
      j["macs_value"] = ValueJson(r.values->nodes[i].macs);
    }
    if (n.lower_bound) j["lower_bound"] = true;
    if (n.per_iteration) j["per_iteration"] = true;
    if (!n.note.empty()) j["note"] = n.note;
    if (n.flops.is_unknown()) {
      missing.push_back({{"graph", n.graph},
                         {"node_index", n.node_index},
                         {"node_name", n.node_name},
                         {"op", OpName(n)},
                         {"kind", CostKindName(n.kind)},
                         {"note", n.note}});
    }
    nodes.push_back(std::move(j));
  }
  nlohmann::json totals = {{"flops", CountJson(c.total_flops)},
                           {"macs", CountJson(c.total_macs)},
                           {"lower_bound", c.lower_bound},
                           {"per_iteration_loops", c.per_iteration_loops}};
  nlohmann::json out = {{"totals", std::move(totals)},
                        {"nodes_without_cost", std::move(missing)},
                        {"ops_without_formula", c.ops_without_formula},
                        {"nodes", std::move(nodes)}};
  if (r.values) {
    out["binding"] = r.binding;
    out["totals"]["flops_value"] = ValueJson(r.values->total_flops);
    out["totals"]["macs_value"] = ValueJson(r.values->total_macs);
    out["totals"]["unbound_symbols"] = r.values->unbound_symbols;
  }
  return out;
}

}  // namespace onnx_infer
