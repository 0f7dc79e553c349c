#include "onnx_infer/inference/explain.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/shape_inputs.h"
#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer {

const char* ExplainReasonName(ExplainReason reason) {
  switch (reason) {
    case ExplainReason::kKnown:
      return "known";
    case ExplainReason::kSymbolic:
      return "symbolic";
    case ExplainReason::kDataDependent:
      return "data-dependent";
    case ExplainReason::kShapeValueUnknown:
      return "shape-value-unknown";
    case ExplainReason::kNoRule:
      return "no-rule";
    case ExplainReason::kSizeCap:
      return "size-cap";
    case ExplainReason::kIfBranches:
      return "if-branches-disagree";
    case ExplainReason::kLoopWidening:
      return "loop-widening";
    case ExplainReason::kExternalData:
      return "external-data";
    case ExplainReason::kContradiction:
      return "contradiction";
    case ExplainReason::kDeclaredTypeKept:
      return "declared-type-kept";
    case ExplainReason::kUnknownGraphInput:
      return "unknown-graph-input";
    case ExplainReason::kNotInferred:
      return "not-inferred";
    case ExplainReason::kEmptySequence:
      return "empty-sequence";
    case ExplainReason::kRuleIncomplete:
      return "rule-incomplete";
  }
  return "?";
}

namespace {

// Operators whose output size depends on their input's elements, not only on shapes and
// attributes (ONNX's domain).
bool IsDataDependent(const onnx::NodeProto& node) {
  static const std::set<std::string, std::less<>> kOps = {
      "NonZero", "Unique", "Compress", "NonMaxSuppression", "StringSplit", "TfIdfVectorizer"};
  const std::string& d = node.domain();
  return (d.empty() || d == "ai.onnx") && kOps.count(node.op_type()) > 0;
}

// What is missing of a value's type: the type, the rank, one dim; or (kValue) its elements.
struct Lost {
  enum Kind { kType, kRank, kDim, kValue };
  Kind kind = kType;
  int axis = -1;
};

// A tensor type inside sequences and optionals (their element's shape is what explain
// explains); null for unknown.
const Type* Tensorish(const Type* t) {
  while (t && (t->kind() == Type::Kind::kSequence || t->kind() == Type::Kind::kOptional)) {
    t = &t->element();
  }
  return t;
}

// Whether `lost` is missing from `t` as well.
bool Misses(const Type* t, const Lost& lost) {
  t = Tensorish(t);
  if (!t || t->is_unknown()) return true;
  if (t->kind() != Type::Kind::kTensor && t->kind() != Type::Kind::kSparseTensor) return false;
  if (lost.kind == Lost::kType) return t->elem_type() == 0;
  if (!t->has_shape()) return true;
  if (lost.kind == Lost::kRank) return false;
  if (lost.axis < 0 || lost.axis >= static_cast<int>(t->shape().size())) return false;
  return t->shape()[lost.axis].is_unknown();
}

// The first thing missing from `t` (the type, the rank, the first unknown dim), or none.
std::optional<Lost> FirstMissing(const Type* t) {
  t = Tensorish(t);
  if (!t || t->is_unknown()) return Lost{Lost::kType, -1};
  if (t->kind() != Type::Kind::kTensor && t->kind() != Type::Kind::kSparseTensor) {
    return std::nullopt;
  }
  if (!t->has_shape()) return Lost{Lost::kRank, -1};
  for (size_t a = 0; a < t->shape().size(); ++a) {
    if (t->shape()[a].is_unknown()) return Lost{Lost::kDim, static_cast<int>(a)};
  }
  return std::nullopt;
}

std::string LostText(const Lost& lost) {
  switch (lost.kind) {
    case Lost::kType:
      return "the type";
    case Lost::kRank:
      return "the rank";
    case Lost::kDim:
      return StrCat("dim ", lost.axis);
    case Lost::kValue:
      return "the value";
  }
  return "";
}

// The same after "whose": "rank", "dim 1".
std::string WhoseText(const Lost& lost) {
  const std::string text = LostText(lost);
  return text.rfind("the ", 0) == 0 ? text.substr(4) : text;
}

std::string NodeLabel(const onnx::NodeProto& node, int index) {
  std::string label = StrCat("node #", index);
  if (!node.name().empty()) label += StrCat(" '", node.name(), "'");
  std::string op = node.op_type();
  if (!node.domain().empty() && node.domain() != "ai.onnx") op = StrCat(node.domain(), "::", op);
  return StrCat(label, " (", op, ")");
}

struct Def {
  enum Kind { kNone, kInput, kInitializer, kNode };
  Kind kind = kNone;
  std::string graph;
  int index = -1;   // input or node index; initializer index
  int output = -1;  // the node's output
};

struct GraphInfo {
  const onnx::GraphProto* graph = nullptr;
  std::string parent;  // empty for a top-level graph
  int owner = -1;      // the node of `parent` that holds it
  std::unordered_map<std::string_view, Def> defs;
};

// What a walk found, kept per (graph, value, lost) so that a long chain is walked once. Each
// finding holds its own step and points to the rest of the chain (the next finding), and a
// detail passed on unchanged is shared, so the memo grows linearly with the model.
struct Finding {
  ExplainReason reason = ExplainReason::kRuleIncomplete;
  std::string detail;  // set by the walk; moved into `shared` once the finding is stored
  std::shared_ptr<const std::string> shared;
  std::string input_value;
  ExplainStep step;
  bool has_step = false;
  const Finding* next = nullptr;  // the rest of the chain
  int64_t length = 0;             // steps from here to the end
  const Finding* tail = nullptr;  // where the last kTailSteps steps start

  const std::string& Detail() const { return shared ? *shared : detail; }
  void Push(ExplainStep s) {
    step = std::move(s);
    has_step = true;
  }
};

constexpr int64_t kHeadSteps = 12;  // a long chain keeps its first and last steps
constexpr int64_t kTailSteps = 11;

// The chain from `f` to its end, cut in the middle when long. Hops are bounded, so a chain
// that comes back to itself through a loop ends too.
std::vector<ExplainStep> Materialize(const Finding& f) {
  std::vector<ExplainStep> chain;
  auto walk = [&chain](const Finding* p, int64_t hops) {
    for (; p && hops > 0; p = p->next, --hops) {
      if (p->has_step) chain.push_back(p->step);
    }
  };
  if (f.length <= kHeadSteps + kTailSteps + 1 || !f.tail) {
    walk(&f, kHeadSteps + kTailSteps + 1);
    return chain;
  }
  walk(&f, kHeadSteps);
  ExplainStep gap;
  gap.node = "...";
  gap.note = StrCat(f.length - kHeadSteps - f.tail->length, " steps left out");
  chain.push_back(std::move(gap));
  walk(f.tail, kTailSteps);
  return chain;
}

class Walker {
 public:
  Walker(const onnx::ModelProto& model, const InferenceResult& result)
      : model_(model), result_(result) {
    Index("main", &model.graph(), "", -1);
    for (int t = 0; t < model.training_info_size(); ++t) {
      const auto& info = model.training_info(t);
      if (info.has_algorithm()) {
        Index(StrCat("training_info[", t, "].algorithm"), &info.algorithm(), "", -1);
      }
    }
    for (const auto& d : result.diagnostics) {
      if (d.node_index >= 0) diagnostics_[{d.graph, d.node_index}].push_back(&d);
    }
    for (const auto& s : result.symbols) symbols_.emplace(s.name, &s);
  }

  bool HasGraph(std::string_view path) const { return graphs_.count(std::string(path)) > 0; }

  ExplainReason ReasonOfIntroduced(const SymbolInfo& info) { return IntroducedReason(info); }

  // Explains one dim (or the rank or type) of a value.
  DimExplanation Explain(const std::string& graph, const std::string& name, const Type* type,
                         int axis) {
    DimExplanation e;
    e.graph = graph;
    e.value = name;
    e.axis = axis;
    e.type = type ? type->ToString() : "?";
    const Type* t = Tensorish(type);
    std::optional<Lost> lost;
    if (!t || t->is_unknown()) {
      lost = Lost{Lost::kType, -1};
      e.axis = -1;
      e.what = "the type is unknown";
    } else if ((t->is_tensor() || t->kind() == Type::Kind::kSparseTensor) && !t->has_shape()) {
      lost = Lost{Lost::kRank, -1};
      e.axis = -1;
      e.what = t->elem_type() == 0 ? "the type and rank are unknown" : "the rank is unknown";
    } else if (t->has_shape() && axis >= 0 && axis < static_cast<int>(t->shape().size())) {
      Dim d = t->shape()[axis];
      if (d.is_unknown()) {
        lost = Lost{Lost::kDim, axis};
        e.what = StrCat("dim ", axis, " is unknown");
      } else if (d.is_const()) {
        e.reason = ExplainReason::kKnown;
        e.what = StrCat("dim ", axis, " is ", d.ToString());
        e.detail = "a constant: nothing to explain";
        return e;
      } else {
        e.reason = ExplainReason::kSymbolic;
        e.what = StrCat("dim ", axis, " is ", d.ToString());
        ExplainSymbols(d, e);
        return e;
      }
    } else {
      e.reason = ExplainReason::kKnown;
      e.what = "fully known";
      e.detail = "nothing to explain";
      return e;
    }
    const Finding& f = Walk(graph, name, *lost, 0);
    e.reason = f.reason;
    e.detail = f.Detail();
    e.chain = Materialize(f);
    e.input_value = f.input_value;
    return e;
  }

 private:
  void Index(const std::string& path, const onnx::GraphProto* graph, const std::string& parent,
             int owner) {
    GraphInfo& info = graphs_[path];
    info.graph = graph;
    info.parent = parent;
    info.owner = owner;
    for (int i = 0; i < graph->input_size(); ++i) {
      info.defs[graph->input(i).name()] = Def{Def::kInput, path, i, -1};
    }
    for (int i = 0; i < graph->initializer_size(); ++i) {
      auto& d = info.defs[graph->initializer(i).name()];
      if (d.kind == Def::kNone) d = Def{Def::kInitializer, path, i, -1};
    }
    for (int k = 0; k < graph->node_size(); ++k) {
      const auto& node = graph->node(k);
      for (int o = 0; o < node.output_size(); ++o) {
        if (node.output(o).empty()) continue;
        auto& d = info.defs[node.output(o)];
        if (d.kind == Def::kNone || d.kind == Def::kNode) d = Def{Def::kNode, path, k, o};
      }
      for (const auto& a : node.attribute()) {
        if (a.has_g()) {
          Index(StrCat(path, "/", node.op_type(), "_", k, ".", a.name()), &a.g(), path, k);
        }
      }
    }
  }

  Def Resolve(std::string graph, std::string_view name) const {
    while (true) {
      auto it = graphs_.find(graph);
      if (it == graphs_.end()) return {};
      auto d = it->second.defs.find(name);
      if (d != it->second.defs.end()) return d->second;
      if (it->second.parent.empty()) return {};
      graph = it->second.parent;
    }
  }

  const onnx::NodeProto& NodeAt(const std::string& graph, int k) const {
    return graphs_.at(graph).graph->node(k);
  }

  const Type* TypeOf(const Def& d, std::string_view name) const {
    return result_.TypeOf(d.graph, name);
  }

  // The type of `name` as graph `graph` sees it; an initializer's from its tensor.
  std::optional<Type> SeenType(const std::string& graph, std::string_view name) const {
    Def d = Resolve(graph, name);
    if (d.kind == Def::kNone) return std::nullopt;
    if (const Type* t = result_.TypeOf(d.graph, name)) return *t;
    if (d.kind == Def::kInitializer) {
      const auto& init = graphs_.at(d.graph).graph->initializer(d.index);
      Shape s;
      for (int64_t v : init.dims()) s.push_back(Dim::Const(v));
      return Type::Tensor(init.data_type(), std::move(s));
    }
    return std::nullopt;
  }

  const std::vector<const Diagnostic*>& DiagnosticsOf(const std::string& graph, int k) const {
    static const std::vector<const Diagnostic*> kNone;
    auto it = diagnostics_.find({graph, k});
    return it == diagnostics_.end() ? kNone : it->second;
  }

  // Memoized: the same (value, lost) is walked once, and a walk that comes back to itself (a
  // Loop's carried value) stops there.
  const Finding& Walk(const std::string& graph, const std::string& name, const Lost& lost,
                      int depth) {
    std::string key = StrCat(graph, '\n', name, '\n', static_cast<int>(lost.kind), '\n', lost.axis);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    Finding& slot = memo_[key];
    slot.reason = ExplainReason::kRuleIncomplete;
    slot.shared = std::make_shared<const std::string>(
        "the walk came back to this value (a cycle through a loop)");
    Finding f;
    if (depth > kMaxDepth) {
      f.reason = ExplainReason::kRuleIncomplete;
      f.detail = "the chain is longer than the explanation follows";
    } else if (lost.kind == Lost::kValue) {
      WalkValue(graph, name, depth, f);
    } else {
      WalkShape(graph, name, lost, depth, f);
    }
    Finding& stored = memo_[key];  // the map's nodes are stable; re-found for clarity
    stored = std::move(f);
    if (!stored.shared)
      stored.shared = std::make_shared<const std::string>(std::move(stored.detail));
    stored.detail.clear();
    const Finding* next = stored.next;
    stored.length = (stored.has_step ? 1 : 0) + (next ? next->length : 0);
    stored.tail = stored.length <= kTailSteps || !next || !next->tail ? &stored : next->tail;
    return stored;
  }

  ExplainStep Step(const Def& d, const std::string& name, const Lost& lost) const {
    ExplainStep s;
    s.graph = d.graph;
    s.value = name;
    s.axis = lost.kind == Lost::kDim ? lost.axis : -1;
    s.of_value = lost.kind == Lost::kValue;
    if (d.kind == Def::kNode) {
      s.node_index = d.index;
      s.node = NodeLabel(NodeAt(d.graph, d.index), d.index);
    } else if (d.kind == Def::kInput) {
      s.node = "graph input";
    } else if (d.kind == Def::kInitializer) {
      s.node = "initializer";
    } else {
      s.node = "undefined";
    }
    return s;
  }

  void WalkShape(const std::string& graph, const std::string& name, const Lost& lost, int depth,
                 Finding& f) {
    Def d = Resolve(graph, name);
    ExplainStep step = Step(d, name, lost);
    switch (d.kind) {
      case Def::kNone:
        f.reason = ExplainReason::kNotInferred;
        f.detail = StrCat("'", name, "' is not defined in graph '", graph, "'");
        step.note = "not defined";
        f.Push(step);
        return;
      case Def::kInitializer:
        f.reason = ExplainReason::kRuleIncomplete;
        f.detail = "an initializer (its shape is its dims)";
        f.Push(step);
        return;
      case Def::kInput:
        if (graphs_.at(d.graph).parent.empty()) {
          f.reason = ExplainReason::kUnknownGraphInput;
          f.detail = StrCat("graph input '", name, "' is declared ",
                            lost.kind == Lost::kType   ? "without a type"
                            : lost.kind == Lost::kRank ? "without a shape"
                                                       : StrCat("without dim ", lost.axis));
          step.note = f.detail;
          f.Push(step);
          return;
        }
        SubgraphInput(d, name, lost, depth, step, f);
        return;
      case Def::kNode:
        AtNode(d, name, lost, depth, step, f);
        return;
    }
  }

  // Continues the walk at `name` in `graph` after `step`.
  void Follow(ExplainStep step, const std::string& graph, const std::string& name, const Lost& lost,
              int depth, Finding& f) {
    const Finding& next = Walk(graph, name, lost, depth + 1);
    f.reason = next.reason;
    f.shared = next.shared;
    f.input_value = next.input_value;
    f.Push(std::move(step));
    f.next = &next;
  }

  void SubgraphInput(const Def& d, const std::string& name, const Lost& lost, int depth,
                     ExplainStep step, Finding& f) {
    const GraphInfo& info = graphs_.at(d.graph);
    const onnx::NodeProto& owner = NodeAt(info.parent, info.owner);
    const int j = d.index;
    int outer = -1;
    Lost outer_lost = lost;
    bool carried = false;
    if (owner.op_type() == "Loop" && j >= 2) {
      outer = j;
      carried = true;
    } else if (owner.op_type() == "Scan") {
      int num_scan = 0;
      for (const auto& a : owner.attribute()) {
        if (a.name() == "num_scan_inputs") num_scan = static_cast<int>(a.i());
      }
      const int num_state = owner.input_size() - num_scan;
      outer = j;
      carried = j < num_state;
      if (!carried && lost.kind == Lost::kDim) outer_lost.axis = lost.axis + 1;  // axis 0 scanned
    }
    const std::string owner_label = NodeLabel(owner, info.owner);
    if (outer >= 0 && outer < owner.input_size() && !owner.input(outer).empty()) {
      auto outer_type = SeenType(info.parent, owner.input(outer));
      if (carried && lost.kind == Lost::kDim && outer_type && !Misses(&*outer_type, outer_lost)) {
        f.reason = ExplainReason::kLoopWidening;
        f.detail = StrCat("'", name, "' is loop-carried by ", owner_label, ": its initial value '",
                          owner.input(outer), "' has dim ", lost.axis, " = ",
                          Tensorish(&*outer_type)->shape()[lost.axis].ToString(),
                          ", which the body changes from one iteration to the next");
        step.note = "loop-carried, widened";
        f.Push(step);
        return;
      }
      step.note = StrCat("input ", j, " of the body of ", owner_label, ", from outer '",
                         owner.input(outer), "'");
      Follow(step, info.parent, owner.input(outer), outer_lost, depth, f);
      return;
    }
    f.reason = ExplainReason::kRuleIncomplete;
    f.detail = StrCat("input ", j, " of a subgraph of ", owner_label,
                      ", which the operator's rule gave no ", LostText(lost));
    step.note = f.detail;
    f.Push(step);
  }

  void AtNode(const Def& d, const std::string& name, const Lost& lost, int depth, ExplainStep step,
              Finding& f) {
    const std::string& graph = d.graph;
    const int k = d.index;
    const int o = d.output;
    const onnx::NodeProto& node = NodeAt(graph, k);
    const std::string label = NodeLabel(node, k);
    const NodeProvenance* p = result_.provenance ? result_.provenance->Find(graph, k) : nullptr;
    const auto& diags = DiagnosticsOf(graph, k);
    const Diagnostic* first_error = nullptr;
    for (const Diagnostic* x : diags) {
      if (x->severity == Severity::kError && x->code != kDiagDeclaredContradiction) {
        first_error = x;
        break;
      }
    }
    auto done = [&](ExplainReason reason, std::string detail) {
      f.reason = reason;
      f.detail = std::move(detail);
      if (step.note.empty()) step.note = ExplainReasonName(reason);
      f.Push(step);
    };
    // The declared type kept over the inferred one (--policy refine).
    for (const Diagnostic* x : diags) {
      if (x->code == kDiagDeclaredContradiction && x->subject.index == o &&
          x->message.find("keeping the declared type") != std::string::npos) {
        return done(
            ExplainReason::kDeclaredTypeKept,
            StrCat(label, ": the declared type of '", name,
                   "' contradicts the inferred one and is kept (--policy refine): ", x->message));
      }
    }
    if (p && p->rule_failed) {
      return done(ExplainReason::kContradiction,
                  StrCat(label, " has an error, so its outputs are unknown",
                         first_error ? StrCat(": ", first_error->message) : ""));
    }
    if (!p || p->how == NodeProvenance::How::kNotRun) {
      if (first_error) {
        return done(ExplainReason::kContradiction,
                    StrCat(label, " was not inferred: ", first_error->message));
      }
      return done(ExplainReason::kNotInferred,
                  StrCat(label, " was not inferred (on a cycle, past a limit, or in a ",
                         "subgraph that was not inferred)"));
    }
    if (p->how == NodeProvenance::How::kNoSchema) {
      return done(ExplainReason::kNoRule,
                  StrCat(label, ": no schema for this operator (unknown or custom, or its ",
                         "domain is not imported), so its outputs are unknown"));
    }
    if (p->how == NodeProvenance::How::kNoRule) {
      return done(ExplainReason::kNoRule,
                  StrCat(label, ": no inference rule for this operator; its outputs have only ",
                         "what its signature says"));
    }
    const std::string& op = node.op_type();
    if (op == "If" && IfNode(graph, k, o, name, lost, depth, step, f)) return;
    if ((op == "Loop" || op == "Scan") && LoopNode(graph, k, o, name, lost, depth, step, f)) {
      return;
    }
    // Inputs that lack the same thing (or more): what was lost before this node.
    auto lacking_input = [&]() -> std::pair<int, Lost> {
      int best = -1, best_score = 0;
      Lost best_lost;
      std::optional<Type> out_type = SeenType(graph, name);
      const Type* out_t = out_type ? Tensorish(&*out_type) : nullptr;
      const int out_rank = out_t && out_t->has_shape() ? static_cast<int>(out_t->rank()) : -1;
      for (int i = 0; i < node.input_size(); ++i) {
        if (node.input(i).empty()) continue;
        auto t = SeenType(graph, node.input(i));
        const Type* ti = t ? &*t : nullptr;
        int score = 0;
        Lost li = lost;
        const Type* tt = Tensorish(ti);
        if (!tt || tt->is_unknown()) {
          score = 3;
          li = Lost{Lost::kType, -1};
        } else if (lost.kind == Lost::kType) {
          score = Misses(ti, lost) ? 3 : 0;
        } else if ((tt->is_tensor() || tt->kind() == Type::Kind::kSparseTensor) &&
                   !tt->has_shape()) {
          score = 3;
          li = Lost{Lost::kRank, -1};
        } else if (lost.kind == Lost::kDim && tt->has_shape()) {
          const int rank = static_cast<int>(tt->rank());
          if (rank == out_rank && Misses(ti, lost)) {
            score = 3;
          } else if (out_rank >= 0) {
            Lost aligned{Lost::kDim, lost.axis - (out_rank - rank)};
            if (aligned.axis >= 0 && Misses(ti, aligned)) {
              score = 2;
              li = aligned;
            }
          }
          if (score == 0) {
            if (auto m = FirstMissing(ti)) {
              score = 1;
              li = *m;
            }
          }
        } else if (auto m = FirstMissing(ti)) {
          score = 1;
          li = *m;
        }
        if (score > best_score) {
          best = i;
          best_score = score;
          best_lost = li;
        }
      }
      return {best, best_lost};
    };
    if (op == "SequenceEmpty") {
      return done(ExplainReason::kEmptySequence,
                  StrCat(label, ": an empty sequence, whose elements' shape nothing states"));
    }
    if (IsDataDependent(node)) {
      auto [i, li] = lacking_input();
      if (i >= 0 && li.kind != Lost::kDim) {
        step.note = StrCat("from input ", i, " '", node.input(i), "' (", LostText(li), ")");
        return Follow(step, graph, node.input(i), li, depth, f);
      }
      return done(ExplainReason::kDataDependent,
                  StrCat(label, ": the size of its output depends on its input's elements, ",
                         "not only on shapes"));
    }
    // A value the rule asked for and did not get (not at all, or partly). Rules ask for
    // values to propagate them too (Concat, Add), so an input that is not one of the
    // operator's shape inputs counts only after the inputs that lack a shape.
    auto shape_value = [&](bool any_input) -> bool {
      for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < node.input_size() && i < static_cast<int>(p->inputs.size()); ++i) {
          const bool asked = (p->inputs[i] & NodeProvenance::kValueAsked) != 0;
          const bool partial = (p->inputs[i] & NodeProvenance::kValuePartial) != 0;
          const bool shape_input = IsShapeValueInput(model_, node, i);
          if (node.input(i).empty()) continue;
          if (any_input ? !(pass == 0 && asked && !shape_input)
                        : !(shape_input && (pass == 0 ? asked : partial))) {
            continue;
          }
          ShapeValue(graph, node, k, i, asked, name, lost, depth, step, f);
          return true;
        }
      }
      return false;
    };
    if (shape_value(false)) return;
    auto [i, li] = lacking_input();
    if (i >= 0) {
      step.note = StrCat("from input ", i, " '", node.input(i), "' (", LostText(li), ")");
      return Follow(step, graph, node.input(i), li, depth, f);
    }
    if (shape_value(true)) return;
    // Inputs fully known: an expression too large, an error, or the rule's own limit.
    for (const Diagnostic* x : diags) {
      if (x->message.find("is an expression of") != std::string::npos) {
        return done(ExplainReason::kSizeCap, StrCat(label, ": ", x->message));
      }
    }
    int largest = 0;
    for (int in = 0; in < node.input_size(); ++in) {
      if (node.input(in).empty()) continue;
      auto t = SeenType(graph, node.input(in));
      const Type* tt = t ? Tensorish(&*t) : nullptr;
      if (!tt || !tt->has_shape()) continue;
      for (Dim dim : tt->shape()) largest = std::max(largest, dim.size());
    }
    if (largest >= symbolic::kMaxExprSize / 2) {
      return done(ExplainReason::kSizeCap,
                  StrCat(label, ": its inputs' dims are expressions of up to ", largest,
                         " nodes, and arithmetic on them outgrew the size cap (",
                         symbolic::kHardSizeCap, " nodes, docs/limits.md)"));
    }
    if (first_error) {
      return done(ExplainReason::kContradiction, StrCat(label, ": ", first_error->message));
    }
    if (p->how == NodeProvenance::How::kFunction) {
      return done(ExplainReason::kRuleIncomplete,
                  StrCat(label, " was inferred through its function body, which left ",
                         LostText(lost), " of '", name, "' unknown with its inputs known"));
    }
    done(ExplainReason::kRuleIncomplete,
         StrCat(label, ": the operator's rule left ", LostText(lost), " of '", name,
                "' unknown though its inputs' types were known"));
  }

  // The rule needed the value of input `i`, which is not (fully) known.
  void ShapeValue(const std::string& graph, const onnx::NodeProto& node, int k, int i, bool asked,
                  const std::string& name, const Lost& lost, int depth, ExplainStep step,
                  Finding& f) {
    step.note = StrCat("needs the value of input ", i, " '", node.input(i), "', which is ",
                       asked ? "not known" : "only partly known");
    const Finding& next = Walk(graph, node.input(i), Lost{Lost::kValue, -1}, depth + 1);
    f.reason = next.reason == ExplainReason::kExternalData ? next.reason
                                                           : ExplainReason::kShapeValueUnknown;
    f.detail = StrCat(NodeLabel(node, k), " needs the value of input ", i, " '", node.input(i),
                      "' to know ", LostText(lost), " of '", name, "'; ", next.Detail());
    f.input_value = next.input_value;
    f.Push(std::move(step));
    f.next = &next;
  }

  bool IfNode(const std::string& graph, int k, int o, const std::string& name, const Lost& lost,
              int depth, ExplainStep step, Finding& f) {
    const onnx::NodeProto& node = NodeAt(graph, k);
    struct Branch {
      std::string path, output;
      const Type* type = nullptr;
    };
    std::vector<Branch> branches;
    for (const char* attr : {"then_branch", "else_branch"}) {
      std::string path = StrCat(graph, "/If_", k, ".", attr);
      auto g = graphs_.find(path);
      if (g == graphs_.end() || o >= g->second.graph->output_size()) continue;
      const std::string& out = g->second.graph->output(o).name();
      branches.push_back({path, out, result_.TypeOf(path, out)});
    }
    std::vector<const Branch*> seen;
    for (const auto& b : branches) {
      if (b.type) seen.push_back(&b);
    }
    if (seen.empty()) return false;
    for (const Branch* b : seen) {
      if (Misses(b->type, lost)) {
        step.note = StrCat("from output '", b->output, "' of ", b->path);
        Follow(step, b->path, b->output, lost, depth, f);
        return true;
      }
    }
    if (seen.size() == 2) {
      f.reason = ExplainReason::kIfBranches;
      f.detail = StrCat(NodeLabel(node, k), ": its branches give '", name, "' ",
                        seen[0]->type->ToString(), " (then) and ", seen[1]->type->ToString(),
                        " (else), which differ in ", LostText(lost));
      step.note = ExplainReasonName(f.reason);  // the detail names the node already
      f.Push(step);
      return true;
    }
    return false;
  }

  bool LoopNode(const std::string& graph, int k, int o, const std::string& name, const Lost& lost,
                int depth, ExplainStep step, Finding& f) {
    const onnx::NodeProto& node = NodeAt(graph, k);
    const bool loop = node.op_type() == "Loop";
    const std::string body = StrCat(graph, "/", node.op_type(), "_", k, ".body");
    auto g = graphs_.find(body);
    if (g == graphs_.end()) return false;
    int num_state = loop ? node.input_size() - 2 : node.input_size();
    if (!loop) {
      for (const auto& a : node.attribute()) {
        if (a.name() == "num_scan_inputs") num_state -= static_cast<int>(a.i());
      }
    }
    const int body_out = loop ? o + 1 : o;
    if (o < num_state) {
      const int initial = loop ? o + 2 : o;
      if (body_out < g->second.graph->output_size()) {
        const std::string& out = g->second.graph->output(body_out).name();
        const Type* bt = result_.TypeOf(body, out);
        if (bt && Misses(bt, lost)) {
          step.note = StrCat("loop-carried: from the body's output '", out, "'");
          Follow(step, body, out, lost, depth, f);
          return true;
        }
      }
      if (initial < node.input_size()) {
        auto it = SeenType(graph, node.input(initial));
        if (it && lost.kind == Lost::kDim && !Misses(&*it, lost)) {
          f.reason = ExplainReason::kLoopWidening;
          f.detail = StrCat(NodeLabel(node, k), ": '", name, "' is loop-carried, its dim ",
                            lost.axis, " changes across iterations, so it was widened");
          step.note = ExplainReasonName(f.reason);  // the detail names the node already
          f.Push(step);
          return true;
        }
        if (it) {
          step.note = StrCat("loop-carried: from the initial value '", node.input(initial), "'");
          Follow(step, graph, node.input(initial), lost, depth, f);
          return true;
        }
      }
      return false;
    }
    // A scan output: dim 0 (Loop) is the iteration count.
    if (loop && lost.kind == Lost::kDim && lost.axis == 0) {
      if (node.input_size() > 0 && !node.input(0).empty()) {
        step.note = StrCat("the iteration count, input 0 '", node.input(0), "'");
        const Finding& next = Walk(graph, node.input(0), Lost{Lost::kValue, -1}, depth + 1);
        f.reason = next.reason == ExplainReason::kExternalData ? next.reason
                                                               : ExplainReason::kShapeValueUnknown;
        f.detail = StrCat(NodeLabel(node, k), ": the iteration count '", node.input(0),
                          "' is not known; ", next.Detail());
        f.input_value = next.input_value;
        f.Push(step);
        f.next = &next;
        return true;
      }
      f.reason = ExplainReason::kDataDependent;
      f.detail = StrCat(NodeLabel(node, k), ": the number of iterations depends on the loop's ",
                        "condition, computed from data");
      step.note = ExplainReasonName(f.reason);  // the detail names the node already
      f.Push(step);
      return true;
    }
    if (body_out < g->second.graph->output_size()) {
      const std::string& out = g->second.graph->output(body_out).name();
      const Type* bt = result_.TypeOf(body, out);
      Lost inner = lost;
      if (lost.kind == Lost::kDim) inner.axis = lost.axis - 1;  // one stacked dim in front
      if (bt && inner.axis >= 0 && Misses(bt, inner)) {
        step.note = StrCat("stacked from the body's output '", out, "'");
        Follow(step, body, out, inner, depth, f);
        return true;
      }
      if (bt && lost.kind != Lost::kDim && Misses(bt, lost)) {
        step.note = StrCat("stacked from the body's output '", out, "'");
        Follow(step, body, out, lost, depth, f);
        return true;
      }
    }
    return false;
  }

  // Why the elements of `name` are not (fully) known.
  void WalkValue(const std::string& graph, const std::string& name, int depth, Finding& f) {
    Def d = Resolve(graph, name);
    const Lost value{Lost::kValue, -1};
    ExplainStep step = Step(d, name, value);
    f.reason = ExplainReason::kShapeValueUnknown;
    switch (d.kind) {
      case Def::kNone:
        f.detail = StrCat("'", name, "' is not defined");
        step.note = f.detail;
        f.Push(step);
        return;
      case Def::kInput:
        if (graphs_.at(d.graph).parent.empty()) {
          f.detail = StrCat("its value comes from graph input '", name,
                            "', which is not known (give it with --set-input ", name, "=...)");
          f.input_value = name;
          step.note = "a graph input: its value is not known";
        } else {
          f.detail = StrCat("its value comes from '", name, "', an input of subgraph '", d.graph,
                            "', whose value is not tracked");
          step.note = "a subgraph input: its value is not tracked";
        }
        f.Push(step);
        return;
      case Def::kInitializer: {
        const auto& init = graphs_.at(d.graph).graph->initializer(d.index);
        if (init.data_location() == onnx::TensorProto::EXTERNAL) {
          f.reason = ExplainReason::kExternalData;
          f.detail = StrCat("its value is initializer '", name, "', stored in external data ",
                            "that was not read (no model directory given, or the file is ",
                            "missing or refused: see the warnings)");
          step.note = "external data not read";
        } else {
          int64_t n = 1;
          for (int64_t v : init.dims()) n *= v;
          f.detail = StrCat("its value is initializer '", name, "' (", n,
                            " elements), whose value is not tracked (a floating-point tensor, or ",
                            "more elements than max_value_elements)");
          step.note = "value not tracked";
        }
        f.Push(step);
        return;
      }
      case Def::kNode:
        break;
    }
    const int k = d.index;
    const onnx::NodeProto& node = NodeAt(d.graph, k);
    const std::string label = NodeLabel(node, k);
    const NodeProvenance* p = result_.provenance ? result_.provenance->Find(d.graph, k) : nullptr;
    if (!p || p->how == NodeProvenance::How::kNotRun || p->rule_failed) {
      f.detail = StrCat("its value comes from ", label, ", which was not inferred or failed");
      step.note = "not inferred";
      f.Push(step);
      return;
    }
    if (p->how == NodeProvenance::How::kNoSchema || p->how == NodeProvenance::How::kNoRule) {
      f.detail = StrCat("its value comes from ", label, ", which has no inference rule");
      step.note = "no rule: no value";
      f.Push(step);
      return;
    }
    const std::string& op = node.op_type();
    if ((op == "Shape" || op == "Size") && node.input_size() > 0) {
      auto t = SeenType(d.graph, node.input(0));
      if (auto m = FirstMissing(t ? &*t : nullptr)) {
        step.note = StrCat("the ", op == "Shape" ? "shape" : "size", " of '", node.input(0),
                           "', whose ", WhoseText(*m), " is unknown");
        const Finding& next = Walk(d.graph, node.input(0), *m, depth + 1);
        f.reason = next.reason == ExplainReason::kExternalData ? next.reason
                                                               : ExplainReason::kShapeValueUnknown;
        f.detail = StrCat("its value is the ", op == "Shape" ? "shape" : "size", " of '",
                          node.input(0), "', whose ", WhoseText(*m), " is unknown (",
                          ExplainReasonName(next.reason), ": ", next.Detail(), ")");
        f.input_value = next.input_value;
        f.Push(step);
        f.next = &next;
        return;
      }
    }
    int pick = -1;
    for (int pass = 0; pass < 2 && pick < 0; ++pass) {
      for (int i = 0; i < node.input_size() && i < static_cast<int>(p->inputs.size()); ++i) {
        if (node.input(i).empty()) continue;
        const uint8_t bits = p->inputs[i];
        if (pass == 0 ? (bits & NodeProvenance::kValueAsked) != 0
                      : (bits & NodeProvenance::kValueKnown) == 0) {
          pick = i;
          break;
        }
      }
    }
    if (pick >= 0 && !IsDataDependent(node)) {
      step.note = StrCat("computed from input ", pick, " '", node.input(pick), "'");
      const Finding& next = Walk(d.graph, node.input(pick), value, depth + 1);
      f.reason = next.reason;
      f.shared = next.shared;
      f.input_value = next.input_value;
      f.Push(step);
      f.next = &next;
      return;
    }
    f.detail = StrCat("its value comes from ", label, ", which computes no value here (",
                      IsDataDependent(node) ? "its result depends on data"
                                            : "not tracked for this operator or its types",
                      ")");
    step.note = "computes no value";
    f.Push(step);
  }

  // Each symbol of `d` with its origin, and why an introduced one was made.
  void ExplainSymbols(Dim d, DimExplanation& e) {
    std::vector<std::string> parts;
    for (const auto& s : d.Symbols()) {
      auto it = symbols_.find(s);
      SymbolInfo info = it != symbols_.end() ? *it->second : SymbolInfo{s, false, "not listed"};
      ExplainReason why = info.declared ? ExplainReason::kSymbolic : IntroducedReason(info);
      parts.push_back(
          StrCat(s, " (", info.origin,
                 why == ExplainReason::kSymbolic ? "" : StrCat("; ", ExplainReasonName(why)), ")"));
      e.symbols.push_back(std::move(info));
      e.symbol_reasons.push_back(why);
    }
    e.detail = parts.empty() ? "a symbolic dim" : StrCat("depends on ", StrJoin(parts, ", "));
  }

  // Why a rule introduced a symbol: its origin names the node and output
  // ("node 'nz' (Unique): output 0 'y' dim 0").
  ExplainReason IntroducedReason(const SymbolInfo& info) {
    const std::string& origin = info.origin;
    if (origin.rfind("input '", 0) == 0) return ExplainReason::kUnknownGraphInput;
    if (origin.rfind("node ", 0) != 0) return ExplainReason::kSymbolic;
    auto open = origin.find(" (");
    auto close = origin.find(')', open);
    if (open == std::string::npos || close == std::string::npos) return ExplainReason::kSymbolic;
    const std::string op = origin.substr(open + 2, close - open - 2);
    // An element of a constant table read at an index that is not known: the index's value
    // is what is missing (InferenceContext::BoundedValueElement).
    if (origin.find(", an element of constant '") != std::string::npos) {
      return ExplainReason::kShapeValueUnknown;
    }
    // The note of a capped expression names the symbol.
    for (const auto& diag : result_.diagnostics) {
      if (diag.message.find("is an expression of") != std::string::npos &&
          diag.message.find("the symbol " + info.name) != std::string::npos) {
        return ExplainReason::kSizeCap;
      }
    }
    if (op == "If") return ExplainReason::kIfBranches;
    if (op == "Loop" || op == "Scan") {
      // "...: output 1 'ys' dim 0": a carried output is widened; a scan output's count is the
      // trip count (Loop: M's value, or the condition) or the scanned length.
      const onnx::NodeProto* node = NodeOfOrigin(origin);
      auto at = origin.find(": output ");
      if (!node || at == std::string::npos) return ExplainReason::kLoopWidening;
      const int o = std::atoi(origin.c_str() + at + 9);
      int num_state = op == "Loop" ? node->input_size() - 2 : node->input_size();
      if (op == "Scan") {
        for (const auto& a : node->attribute()) {
          if (a.name() == "num_scan_inputs") num_state -= static_cast<int>(a.i());
        }
      }
      if (o < num_state) return ExplainReason::kLoopWidening;
      if (op == "Loop" && (node->input_size() == 0 || node->input(0).empty())) {
        return ExplainReason::kDataDependent;
      }
      return ExplainReason::kShapeValueUnknown;
    }
    onnx::NodeProto probe;
    probe.set_op_type(op);
    if (IsDataDependent(probe)) return ExplainReason::kDataDependent;
    return ExplainReason::kRuleIncomplete;
  }

  // The node a symbol's origin names: "node 'n' (Op): ..." or "node of output 'y' (Op): ...".
  const onnx::NodeProto* NodeOfOrigin(const std::string& origin) const {
    const bool by_output = origin.rfind("node of output '", 0) == 0;
    const size_t start = by_output ? 16 : 6;
    if (!by_output && origin.rfind("node '", 0) != 0) return nullptr;
    const size_t end = origin.find("' (", start);
    if (end == std::string::npos) return nullptr;
    const std::string name = origin.substr(start, end - start);
    for (const auto& [path, info] : graphs_) {
      for (const auto& node : info.graph->node()) {
        if (by_output ? node.output_size() > 0 && node.output(0) == name : node.name() == name) {
          return &node;
        }
      }
    }
    return nullptr;
  }

  static constexpr int kMaxDepth = 20000;
  const onnx::ModelProto& model_;
  const InferenceResult& result_;
  std::map<std::string, GraphInfo, std::less<>> graphs_;
  std::map<std::pair<std::string, int>, std::vector<const Diagnostic*>> diagnostics_;
  std::unordered_map<std::string, const SymbolInfo*> symbols_;
  std::unordered_map<std::string, Finding> memo_;
};

// Each value of a graph listing once: inputs, node outputs, outputs.
std::vector<const std::string*> ListedValues(const GraphValueTypes& g) {
  std::vector<const std::string*> names;
  std::set<std::string_view> seen;
  for (const auto* list : {&g.inputs, &g.values, &g.outputs}) {
    for (const auto& n : *list) {
      if (seen.insert(n).second) names.push_back(&n);
    }
  }
  return names;
}

void ExplainType(Walker& walker, const std::string& graph, const std::string& name,
                 const Type* type, bool unknown_only, std::vector<DimExplanation>& out) {
  const Type* t = Tensorish(type);
  if (!t || t->is_unknown() ||
      ((t->is_tensor() || t->kind() == Type::Kind::kSparseTensor) && !t->has_shape())) {
    out.push_back(walker.Explain(graph, name, type, -1));
    return;
  }
  if (!t->has_shape()) return;  // a map or opaque value
  const int rank = static_cast<int>(t->shape().size());
  for (int a = 0; a < rank; ++a) {
    Dim d = t->shape()[a];
    if (d.is_unknown() || (!unknown_only && !d.is_const())) {
      out.push_back(walker.Explain(graph, name, type, a));
    }
  }
}

}  // namespace

StatusOr<std::vector<DimExplanation>> ExplainValue(const onnx::ModelProto& model,
                                                   const InferenceResult& result,
                                                   std::string_view graph, std::string_view name,
                                                   int axis) {
  symbolic::SymbolContext::Scope scope(*result.symbol_context);
  Walker walker(model, result);
  auto listing = result.value_types.find(graph);
  if (listing == result.value_types.end() || !walker.HasGraph(graph)) {
    return Status::Error(StrCat("no graph '", graph, "' in the inference result"));
  }
  const Type* type = listing->second.Find(name);
  if (!type) {
    return Status::Error(StrCat("no value '", name, "' in graph '", graph, "'"));
  }
  // Walk the graph's values in order first: each walk then stops at values already explained,
  // so a long chain never recurses deeply.
  for (const std::string* n : ListedValues(listing->second)) {
    if (*n == name) break;
    std::vector<DimExplanation> ignored;
    ExplainType(walker, std::string(graph), *n, listing->second.Find(*n), true, ignored);
  }
  std::vector<DimExplanation> out;
  const std::string g(graph), v(name);
  const Type* t = Tensorish(type);
  if (axis >= 0 || !t || !t->has_shape()) {
    if (t && t->has_shape() && axis >= static_cast<int>(t->shape().size())) {
      return Status::Error(StrCat("'", name, "' has rank ", t->shape().size(), ": no axis ", axis));
    }
    out.push_back(walker.Explain(g, v, type, axis));
    return out;
  }
  ExplainType(walker, g, v, type, false, out);
  if (out.empty()) out.push_back(walker.Explain(g, v, type, -1));  // static: one "known"
  return out;
}

namespace {

// The graph that lists `name`: the main graph first, then the others in path order.
const std::string* GraphListing(const InferenceResult& result, const std::string& name) {
  auto main = result.value_types.find("main");
  if (main != result.value_types.end() && main->second.Find(name)) return &main->first;
  for (const auto& [path, listing] : result.value_types) {
    if (listing.Find(name)) return &path;
  }
  return nullptr;
}

}  // namespace

Status ResolveExplainTarget(const InferenceResult& result, const std::string& text,
                            std::string* graph, std::string* value, int* axis) {
  *axis = -1;
  if (const std::string* g = GraphListing(result, text)) {
    *graph = *g;
    *value = text;
    return OkStatus();
  }
  auto colon = text.rfind(':');
  if (colon != std::string::npos && colon + 1 < text.size() && colon + 10 > text.size() &&
      text.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    *value = text.substr(0, colon);
    *axis = std::stoi(text.substr(colon + 1));
    if (const std::string* g = GraphListing(result, *value)) {
      *graph = *g;
      return OkStatus();
    }
  }
  return Status::Error(StrCat("the model has no value '", text, "'"));
}

StatusOr<std::vector<DimExplanation>> ExplainTarget(const onnx::ModelProto& model,
                                                    const InferenceResult& result,
                                                    const std::string& text) {
  std::string graph, value;
  int axis = -1;
  OI_RETURN_IF_ERROR(ResolveExplainTarget(result, text, &graph, &value, &axis));
  return ExplainValue(model, result, graph, value, axis);
}

std::vector<DimExplanation> ExplainAllUnknown(const onnx::ModelProto& model,
                                              const InferenceResult& result) {
  symbolic::SymbolContext::Scope scope(*result.symbol_context);
  Walker walker(model, result);
  std::vector<DimExplanation> out;
  // Graphs by path: "main" sorts before its subgraphs "main/...", and each graph's values
  // are in model order, so walks find their inputs explained already.
  for (const auto& [path, listing] : result.value_types) {
    if (!walker.HasGraph(path)) continue;  // a function body at one call
    for (const std::string* n : ListedValues(listing)) {
      ExplainType(walker, path, *n, listing.Find(*n), true, out);
    }
  }
  return out;
}

std::vector<std::pair<SymbolInfo, ExplainReason>> ExplainIntroducedSymbols(
    const onnx::ModelProto& model, const InferenceResult& result) {
  Walker walker(model, result);
  std::vector<std::pair<SymbolInfo, ExplainReason>> out;
  for (const auto& s : result.symbols) {
    if (!s.declared) out.emplace_back(s, walker.ReasonOfIntroduced(s));
  }
  return out;
}

std::string FormatIntroducedSymbols(
    const std::vector<std::pair<SymbolInfo, ExplainReason>>& symbols, int examples) {
  if (symbols.empty()) return "";
  std::map<ExplainReason, std::vector<const SymbolInfo*>> by_reason;
  for (const auto& [info, reason] : symbols) by_reason[reason].push_back(&info);
  std::ostringstream os;
  os << "symbols introduced by inference, by reason (" << symbols.size() << " in all):\n";
  for (const auto& [reason, list] : by_reason) {
    os << "  " << ExplainReasonName(reason) << ": " << list.size() << "\n";
    for (int i = 0; i < examples && i < static_cast<int>(list.size()); ++i) {
      os << "    " << list[i]->name << ": " << list[i]->origin << "\n";
    }
  }
  return os.str();
}

std::string FormatExplanation(const DimExplanation& e) {
  std::ostringstream os;
  os << "'" << e.value << "'";
  if (e.graph != "main") os << " (graph " << e.graph << ")";
  os << ": " << e.type << ": " << e.what << ": " << ExplainReasonName(e.reason) << "\n";
  if (!e.detail.empty()) os << "  " << e.detail << "\n";
  for (size_t i = 0; i < e.symbols.size(); ++i) {
    os << "  symbol " << e.symbols[i].name << ": " << e.symbols[i].origin;
    if (e.symbol_reasons[i] != ExplainReason::kSymbolic) {
      os << " [" << ExplainReasonName(e.symbol_reasons[i]) << "]";
    }
    os << "\n";
  }
  if (!e.chain.empty()) os << "  chain:\n";
  for (const auto& s : e.chain) {
    if (s.node == "...") {
      os << "    ... (" << s.note << ")\n";
      continue;
    }
    os << "    '" << s.value << "'";
    if (s.of_value) {
      os << " value";
    } else if (s.axis >= 0) {
      os << " dim " << s.axis;
    }
    if (s.graph != e.graph) os << " [" << s.graph << "]";
    os << " <- " << s.node;
    if (!s.note.empty()) os << ": " << s.note;
    os << "\n";
  }
  if (!e.input_value.empty()) {
    os << "  giving input '" << e.input_value << "' a value (--set-input) would decide it\n";
  }
  return os.str();
}

std::string FormatExplainSummary(const std::vector<DimExplanation>& all, int examples) {
  std::map<ExplainReason, std::vector<const DimExplanation*>> by_reason;
  for (const auto& e : all) by_reason[e.reason].push_back(&e);
  std::vector<std::pair<ExplainReason, std::vector<const DimExplanation*>>> order(by_reason.begin(),
                                                                                  by_reason.end());
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  std::ostringstream os;
  os << "unknown dims, ranks and types by reason (" << all.size() << " in all):\n";
  for (const auto& [reason, list] : order) {
    os << "  " << ExplainReasonName(reason) << ": " << list.size() << "\n";
    for (int i = 0; i < examples && i < static_cast<int>(list.size()); ++i) {
      const DimExplanation& e = *list[i];
      os << "    '" << e.value << "'";
      if (e.graph != "main") os << " [" << e.graph << "]";
      os << " " << (e.axis >= 0 ? StrCat("dim ", e.axis) : std::string("type/rank")) << ": "
         << e.detail << "\n";
    }
  }
  return os.str();
}

namespace {

// A representative value for input `name`: `v` for every element of a scalar or of a
// constant shape of at most 16 elements; none otherwise.
std::optional<KnownInputValue> RepresentativeInput(const onnx::ModelProto& model,
                                                   const std::string& name, int64_t v) {
  for (const auto& input : model.graph().input()) {
    if (input.name() != name || !input.type().has_tensor_type()) continue;
    const auto& tt = input.type().tensor_type();
    if (!tt.has_shape()) return std::nullopt;
    int64_t n = 1;
    for (const auto& d : tt.shape().dim()) {
      if (!d.has_dim_value() || d.dim_value() < 0) return std::nullopt;
      n *= d.dim_value();
      if (n > 16) return std::nullopt;
    }
    KnownInputValue known;
    known.name = name;
    known.fit_dims = true;
    for (int64_t i = 0; i < n; ++i) known.value.ints.push_back(Dim::Const(v));
    if (tt.elem_type() == 1 || tt.elem_type() == 10 || tt.elem_type() == 11 ||
        tt.elem_type() == 16) {
      known.value.ints.clear();
      known.value.reals.assign(n, static_cast<double>(v));
    }
    known.value.dims = {n};
    return known;
  }
  return std::nullopt;
}

std::string ValueText(const KnownInputValue& k) {
  std::vector<std::string> parts;
  for (Dim d : k.value.ints) parts.push_back(d.ToString());
  for (double r : k.value.reals) {
    std::ostringstream os;
    os << r;
    parts.push_back(os.str());
  }
  return StrJoin(parts, ",");
}

}  // namespace

std::vector<WhatIf> WhatIfBindings(const onnx::ModelProto& original, const SchemaRegistry& registry,
                                   const InferenceOptions& options, const InferenceResult& baseline,
                                   const std::vector<DimExplanation>& explanations,
                                   const WhatIfRequest& request) {
  std::vector<WhatIf> candidates;
  // The symbols of the main graph's inputs not bound already (declared ones, and the names
  // inference gave the dims the model leaves unnamed, `x_d0`, which --bind takes too), and
  // those the user names.
  std::set<std::string, std::less<>> symbols;
  for (const auto& s : baseline.symbols) {
    if (s.origin.rfind("input '", 0) == 0 &&
        s.origin.find("of graph 'main'") != std::string::npos && !options.bind.count(s.name)) {
      symbols.insert(s.name);
    }
  }
  for (const auto& [name, value] : request.symbols) symbols.insert(name);
  for (const auto& name : symbols) {
    auto given = request.symbols.find(name);
    const int64_t v = given != request.symbols.end() ? given->second : request.representative;
    WhatIf w;
    w.label = StrCat(name, "=", v);
    w.bind[name] = v;
    candidates.push_back(std::move(w));
  }
  // Inputs whose value would decide a dim, and those the user gives.
  std::set<std::string, std::less<>> inputs_seen;
  for (const auto& k : request.inputs) {
    WhatIf w;
    w.label = StrCat(k.name, "=", ValueText(k));
    w.input_values.push_back(k);
    inputs_seen.insert(k.name);
    candidates.push_back(std::move(w));
  }
  std::set<std::string, std::less<>> given_inputs;
  for (const auto& k : options.input_values) given_inputs.insert(k.name);
  for (const auto& e : explanations) {
    if (e.input_value.empty() || inputs_seen.count(e.input_value) ||
        given_inputs.count(e.input_value)) {
      continue;
    }
    inputs_seen.insert(e.input_value);
    auto k = RepresentativeInput(original, e.input_value, request.representative);
    if (!k) continue;
    WhatIf w;
    w.label = StrCat(k->name, "=", ValueText(*k));
    w.input_values.push_back(*k);
    candidates.push_back(std::move(w));
  }
  auto run = [&](WhatIf& w) {
    onnx::ModelProto copy = original;
    InferenceOptions o = options;
    o.record_provenance = false;
    o.record_value_types = false;
    o.stream_new_value_info = false;
    o.symbol_context = nullptr;
    for (const auto& [n, v] : w.bind) o.bind[n] = v;
    for (const auto& k : w.input_values) o.input_values.push_back(k);
    InferenceResult r = InferShapes(copy, registry, o);
    w.static_values = r.stats.static_shaped;
    w.gained = r.stats.static_shaped - baseline.stats.static_shaped;
    w.errors = r.CountOf(Severity::kError) - baseline.CountOf(Severity::kError);
  };
  for (auto& w : candidates) run(w);
  // All together: those that do not contradict the model on their own.
  WhatIf all;
  all.label = "all together";
  int together = 0;
  for (const auto& c : candidates) {
    if (c.errors > 0) continue;
    ++together;
    for (const auto& [n, v] : c.bind) all.bind[n] = v;
    for (const auto& k : c.input_values) all.input_values.push_back(k);
  }
  if (together > 1) {
    run(all);
    candidates.push_back(std::move(all));
  }
  return candidates;
}

std::string FormatWhatIf(const std::vector<WhatIf>& what_if, int64_t baseline_static,
                         int64_t values) {
  std::ostringstream os;
  os << "what-if (node outputs fully static: " << baseline_static << " of " << values
     << " now; each line a real inference run with only that binding):\n";
  if (what_if.empty()) os << "  nothing to bind: no declared input symbol or input value\n";
  for (const auto& w : what_if) {
    os << "  " << w.label << ": " << (w.gained >= 0 ? "+" : "") << w.gained << " fully static ("
       << w.static_values << ")";
    if (w.errors > 0 && w.label == "all together") {
      os << ", " << w.errors << " more errors (these values together contradict the model)";
    } else if (w.errors > 0) {
      os << ", " << w.errors << " more errors (the value contradicts the model; left out of "
         << "all together)";
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace onnx_infer
