#include "onnx_infer/inference/memory.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/inference/graph_order.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer {

using symbolic::Dim;
using symbolic::Tri;

Dim BytesOfType(const Type& type) {
  if (type.kind() != Type::Kind::kTensor || !type.has_shape()) return Dim();
  const int bits = DataTypeBits(type.elem_type());
  if (bits == 0) return Dim();
  Dim elements = Dim::Const(1);
  for (Dim d : type.shape()) {
    if (d.is_unknown()) return Dim();
    elements = elements * d;
  }
  if (bits % 8 == 0) return elements * Dim::Const(bits / 8);
  // Packed as ONNX stores sub-byte types: 8/bits elements a byte, the last byte partly used.
  return Dim::CeilDiv(elements, Dim::Const(8 / bits));
}

std::string FormatBytes(const Dim& bytes) {
  if (bytes.is_unknown()) return "?";
  auto v = bytes.const_value();
  if (!v) return bytes.ToString();
  if (*v < 1024) return StrCat(*v);
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double scaled = static_cast<double>(*v) / 1024;
  int unit = 0;
  while (scaled >= 1024 && unit + 1 < 5) {
    scaled /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", scaled);
  return StrCat(*v, " (", text, " ", kUnits[unit], ")");
}

namespace {

bool IsConstantNode(const onnx::NodeProto& node) {
  return node.op_type() == "Constant" && (node.domain().empty() || node.domain() == "ai.onnx");
}

Dim TensorBytes(const onnx::TensorProto& t) { return BytesOfType(TypeOfTensor(t)); }

Dim SparseBytes(const onnx::SparseTensorProto& t) {
  return TensorBytes(t.values()) + TensorBytes(t.indices());
}

// The bytes of a Constant node's value, from its attribute.
Dim ConstantBytes(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute()) {
    if (a.name() == "value") return TensorBytes(a.t());
    if (a.name() == "sparse_value") return SparseBytes(a.sparse_tensor());
    if (a.name() == "value_float") return Dim::Const(4);
    if (a.name() == "value_int") return Dim::Const(8);
    if (a.name() == "value_floats") return Dim::Const(4 * static_cast<int64_t>(a.floats_size()));
    if (a.name() == "value_ints") return Dim::Const(8 * static_cast<int64_t>(a.ints_size()));
  }
  return Dim();  // value_string(s), or no value
}

// The names a node's subgraphs read, at any depth (those of the enclosing graph among them
// are consumed when the node runs).
void SubgraphReads(const onnx::NodeProto& node, std::vector<std::string>& out) {
  for (const auto& a : node.attribute()) {
    auto visit = [&](const onnx::GraphProto& g) {
      for (const auto& n : g.node()) {
        for (const auto& in : n.input()) {
          if (!in.empty()) out.push_back(in);
        }
        SubgraphReads(n, out);
      }
      for (const auto& o : g.output()) out.push_back(o.name());  // passed through
    };
    if (a.has_g()) visit(a.g());
    for (const auto& g : a.graphs()) visit(g);
  }
}

// The largest of the step totals: one total that is provably at least every other, or the
// totals that may be the largest.
class PeakTracker {
 public:
  void Add(int step, Dim total) {
    if (total.is_unknown()) return;
    for (const auto& [s, c] : candidates_) {
      if (symbolic::LessEqual(total, c) == Tri::kTrue) return;  // never above a candidate
    }
    candidates_.erase(std::remove_if(candidates_.begin(), candidates_.end(),
                                     [&](const auto& entry) {
                                       return symbolic::LessEqual(entry.second, total) ==
                                              Tri::kTrue;
                                     }),
                      candidates_.end());
    candidates_.emplace_back(step, total);
    if (candidates_.size() > kMaxCandidates) overflow_ = true;
  }
  bool decided() const { return !overflow_ && candidates_.size() == 1; }
  Dim Peak() const {
    if (overflow_) return Dim();
    if (candidates_.empty()) return Dim::Const(0);
    Dim peak = candidates_.front().second;
    for (size_t i = 1; i < candidates_.size(); ++i) peak = Dim::Max(peak, candidates_[i].second);
    return peak;
  }
  std::vector<int> Steps() const {
    std::vector<int> steps;
    for (const auto& [s, c] : candidates_) steps.push_back(s);
    std::sort(steps.begin(), steps.end());
    return steps;
  }

 private:
  // More steps than this that may each be the largest: the peak is left unknown.
  static constexpr size_t kMaxCandidates = 64;
  std::vector<std::pair<int, Dim>> candidates_;
  bool overflow_ = false;
};

class Estimator {
 public:
  Estimator(const InferenceResult& result, MemoryEstimate& out) : result_(result), out_(out) {}

  // The peak of `graph` at `path`; the main graph's steps go into out_.steps.
  Dim GraphPeak(const onnx::GraphProto& graph, const std::string& path, bool main) {
    auto types_it = result_.value_types.find(path);
    const GraphValueTypes* types =
        types_it == result_.value_types.end() ? nullptr : &types_it->second;
    auto size_of = [&](const std::string& name) -> Dim {
      const Type* t = types ? types->Find(name) : nullptr;
      return t ? BytesOfType(*t) : Dim();
    };

    // The order the nodes run in: the driver's (producers first; the list's own when it is).
    const int num_nodes = graph.node_size();
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < num_nodes; ++i) {
      for (const auto& o : graph.node(i).output()) {
        if (!o.empty()) producer.try_emplace(o, i);
      }
    }
    std::vector<std::vector<std::string>> reads(num_nodes);
    std::vector<std::vector<int>> producers(num_nodes);
    for (int i = 0; i < num_nodes; ++i) {
      const auto& node = graph.node(i);
      for (const auto& in : node.input()) {
        if (!in.empty()) reads[i].push_back(in);
      }
      SubgraphReads(node, reads[i]);
      for (const auto& name : reads[i]) {
        auto it = producer.find(name);
        if (it != producer.end() && it->second != i) producers[i].push_back(it->second);
      }
    }
    const std::vector<int> order = OrderNodes(producers).order;
    const int steps = static_cast<int>(order.size());
    const int last = std::max(steps - 1, 0);

    std::unordered_set<std::string> weights;
    for (const auto& init : graph.initializer()) weights.insert(init.name());
    for (const auto& sparse : graph.sparse_initializer()) weights.insert(sparse.values().name());
    std::unordered_set<std::string> outputs;
    for (const auto& o : graph.output()) outputs.insert(o.name());
    std::unordered_map<std::string, int> last_use;
    for (int k = 0; k < steps; ++k) {
      for (const auto& name : reads[order[k]]) last_use[name] = k;
    }

    // Each activation's interval of steps, as additions and removals of its size.
    struct Change {
      Dim bytes;  // unknown: counted in `unknown`
      int sign;
    };
    struct Interval {
      int start, end;
      Dim bytes;
    };
    std::vector<std::vector<Change>> changes(std::max(steps, 1) + 1);
    std::vector<Interval> intervals;
    std::vector<int64_t> unknown_delta(std::max(steps, 1) + 1, 0);
    auto live = [&](const std::string& name, int start) {
      // A subgraph's outputs become its node's outputs, counted in the enclosing graph.
      if (!main && outputs.count(name)) return;
      int end = start;
      if (outputs.count(name)) {
        end = last;
      } else if (auto it = last_use.find(name); it != last_use.end()) {
        end = std::max(start, it->second);
      }
      Dim bytes = size_of(name);
      if (bytes.is_unknown()) {
        out_.unknown_activations++;
        unknown_delta[start]++;
        unknown_delta[end + 1]--;
        return;
      }
      changes[start].push_back({bytes, +1});
      changes[end + 1].push_back({bytes, -1});
      intervals.push_back({start, end, bytes});
    };
    std::unordered_set<std::string> seen;
    for (const auto& vi : graph.input()) {
      if (weights.count(vi.name()) || !seen.insert(vi.name()).second) continue;
      live(vi.name(), 0);
    }
    for (int k = 0; k < steps; ++k) {
      const auto& node = graph.node(order[k]);
      if (IsConstantNode(node)) continue;  // a weight
      for (const auto& o : node.output()) {
        if (!o.empty() && !weights.count(o) && seen.insert(o).second) live(o, k);
      }
    }

    PeakTracker peak;
    Dim running = Dim::Const(0);
    int64_t running_unknown = 0;
    for (int k = 0; k < steps; ++k) {
      const auto& node = graph.node(order[k]);
      for (const Change& c : changes[k]) {
        running = c.sign > 0 ? running + c.bytes : running - c.bytes;
      }
      if (running.is_unknown()) {
        // A sum past the algebra's size cap: add up this step's live values afresh.
        running = Dim::Const(0);
        for (const Interval& i : intervals) {
          if (i.start <= k && k <= i.end) running = running + i.bytes;
        }
      }
      running_unknown += unknown_delta[k];
      int64_t unknown = running_unknown;
      // One of the node's subgraphs runs at a time (an If's branch, a Loop's iteration).
      Dim sub = Dim::Const(0);
      bool has_sub = false;
      for (int a = 0; a < node.attribute_size(); ++a) {
        const auto& attr = node.attribute(a);
        if (!attr.has_g()) continue;
        const std::string sub_path =
            StrCat(path, "/", node.op_type(), "_", order[k], ".", attr.name());
        Dim p = GraphPeak(attr.g(), sub_path, /*main=*/false);
        if (p.is_unknown()) {
          ++unknown;
          continue;
        }
        sub = has_sub ? Dim::Max(sub, p) : p;
        has_sub = true;
      }
      Dim total = running + sub;
      if (total.is_unknown()) {
        total = running;
        ++unknown;
      }
      peak.Add(k, total);
      if (main) {
        MemoryStep step;
        step.node_index = order[k];
        step.node_name = node.name();
        step.op_type = node.op_type();
        step.live_bytes = total;
        step.unknown_values = unknown;
        out_.steps.push_back(std::move(step));
      }
    }
    if (steps == 0) {  // no node: the inputs, passed through
      Dim inputs = Dim::Const(0);
      for (const Change& c : changes[0]) inputs = inputs + c.bytes;
      peak.Add(0, inputs);
    }
    if (main) {
      out_.peak_bytes = peak.Peak();
      out_.peak_decided = peak.decided();
      out_.peak_steps = steps == 0 ? std::vector<int>{} : peak.Steps();
    }
    return peak.Peak();
  }

  // Initializers, sparse initializers and Constant nodes of `graph` and its subgraphs.
  void Weights(const onnx::GraphProto& graph) {
    auto add = [&](Dim bytes) {
      out_.weights++;
      if (bytes.is_unknown()) {
        out_.weights_unknown_size++;
      } else {
        out_.weight_bytes = out_.weight_bytes + bytes;
      }
    };
    for (const auto& init : graph.initializer()) add(TensorBytes(init));
    for (const auto& sparse : graph.sparse_initializer()) add(SparseBytes(sparse));
    for (const auto& node : graph.node()) {
      if (IsConstantNode(node)) add(ConstantBytes(node));
      for (const auto& a : node.attribute()) {
        if (a.has_g()) Weights(a.g());
        for (const auto& g : a.graphs()) Weights(g);
      }
    }
  }

 private:
  const InferenceResult& result_;
  MemoryEstimate& out_;
};

}  // namespace

MemoryEstimate EstimateMemory(const onnx::ModelProto& model, const InferenceResult& result) {
  MemoryEstimate out;
  out.symbol_context = result.symbol_context;
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  for (const auto& [path, graph] : result.value_types) {
    for (const auto* names : {&graph.inputs, &graph.values, &graph.outputs}) {
      for (const auto& name : *names) {
        const Type* t = graph.Find(name);
        out.values.push_back({path, name, t ? BytesOfType(*t) : Dim()});
      }
    }
  }
  out.weight_bytes = Dim::Const(0);
  Estimator estimator(result, out);
  estimator.Weights(model.graph());
  estimator.GraphPeak(model.graph(), "main", /*main=*/true);
  return out;
}

}  // namespace onnx_infer
