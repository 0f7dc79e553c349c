#include "onnx_infer/symbolic/unifier.h"

#include <set>

#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {

namespace {

// An equation a == b that is one union or binding: a - b is c·X + k (X = -k/c when c divides
// k) or X - Y. Returns the pair (X, value) to apply.
std::optional<std::pair<Dim, Dim>> AsBinding(Dim a, Dim b) {
  const DimNode* d = Sub(a.node(), b.node());
  if (!d || d->kind == Kind::kConst) return std::nullopt;
  Poly p = AsPoly(d);
  if (p.terms.size() == 1 && p.terms[0].first->kind == Kind::kSymbol) {
    const int64_t c = p.terms[0].second;
    if (c == -1 && p.constant == INT64_MIN) return std::nullopt;
    if (p.constant % c != 0) return std::nullopt;
    return std::make_pair(Dim::FromNode(p.terms[0].first), Dim::Const(-(p.constant / c)));
  }
  if (p.terms.size() == 2 && p.constant == 0 && p.terms[0].first->kind == Kind::kSymbol &&
      p.terms[1].first->kind == Kind::kSymbol && p.terms[0].second == -p.terms[1].second &&
      (p.terms[0].second == 1 || p.terms[0].second == -1)) {
    return std::make_pair(Dim::FromNode(p.terms[0].first), Dim::FromNode(p.terms[1].first));
  }
  return std::nullopt;
}

}  // namespace

std::string Fact::ToString() const {
  return lhs.ToString() + " == " + rhs.ToString() + " (" + origin + ")";
}

std::string Unifier::Find(const std::string& name) const {
  auto it = parent_.find(name);
  if (it == parent_.end() || it->second == name) return name;
  std::string root = Find(it->second);
  it->second = root;
  return root;
}

Dim Unifier::Resolve(Dim d) const {
  if (d.is_unknown() || d.is_const()) return d;
  std::map<std::string, Dim, std::less<>> subst;
  for (const std::string& name : d.Symbols()) {
    std::string root = Find(name);
    auto b = binding_.find(root);
    if (b != binding_.end()) {
      subst[name] = Dim::Const(b->second.value);
    } else if (root != name) {
      subst[name] = Dim::Symbol(root);
    }
  }
  return Simplify(Substitute(d, subst), assumptions_);
}

Tri Unifier::Equal(Dim a, Dim b) const {
  return symbolic::Equal(Resolve(a), Resolve(b), &assumptions_);
}

Tri Unifier::LessEqual(Dim a, Dim b) const {
  return symbolic::LessEqual(Resolve(a), Resolve(b), &assumptions_);
}

Status Unifier::Contradiction(Dim lhs, Dim rhs, std::string_view origin, Dim also) const {
  // The earlier facts that touch the classes of the symbols involved.
  std::set<std::string> classes;
  for (Dim d : {lhs, rhs, also}) {
    for (const std::string& s : d.Symbols()) classes.insert(Find(s));
  }
  std::string earlier;
  for (const Fact& f : facts_) {
    bool touches = false;
    for (Dim d : {f.lhs, f.rhs}) {
      for (const std::string& s : d.Symbols()) touches = touches || classes.count(Find(s));
    }
    if (!touches) continue;
    earlier += earlier.empty() ? "" : "; ";
    earlier += f.ToString();
  }
  for (const std::string& c : classes) {
    if (int64_t lb = assumptions_.LowerBound(c); lb > 0) {
      earlier += earlier.empty() ? "" : "; ";
      earlier += c + " >= " + std::to_string(lb);
    }
  }
  std::string message =
      lhs.ToString() + " == " + rhs.ToString() + " (" + std::string(origin) + ") contradicts ";
  message += earlier.empty() ? "what the expressions say" : earlier;
  return Status::Error(message);
}

void Unifier::Apply(Dim lhs, Dim rhs, std::string_view origin) {
  if (rhs.is_symbol() && !lhs.is_symbol()) std::swap(lhs, rhs);
  const std::string a(lhs.symbol_name());
  if (rhs.is_const()) {
    binding_[a] = Binding{*rhs.const_value(), std::string(origin)};
    return;
  }
  // Two representatives: the smaller name leads, so the result does not depend on order.
  std::string b(rhs.symbol_name());
  std::string keep = std::min(a, b), drop = std::max(a, b);
  parent_[drop] = keep;
  parent_.try_emplace(keep, keep);
  assumptions_.SetLowerBound(keep, assumptions_.LowerBound(drop));
}

Status Unifier::Unify(Dim lhs, Dim rhs, std::string_view origin) {
  if (lhs.is_unknown() || rhs.is_unknown()) return OkStatus();
  Dim a = Resolve(lhs), b = Resolve(rhs);
  switch (symbolic::Equal(a, b, &assumptions_)) {
    case Tri::kTrue:
      return OkStatus();
    case Tri::kFalse:
      return Contradiction(lhs, rhs, origin);
    case Tri::kUnknown:
      break;
  }
  auto binding = AsBinding(a, b);
  if (!binding) {
    facts_.push_back(Fact{lhs, rhs, std::string(origin)});
    equations_.push_back(facts_.back());
    return OkStatus();
  }
  // Keep the state as it was if this fact contradicts a kept equation.
  auto saved_parent = parent_;
  auto saved_binding = binding_;
  auto saved_assumptions = assumptions_;
  auto saved_equations = equations_;
  Apply(binding->first, binding->second, origin);
  Status s = Recheck();
  if (!s.ok()) {
    equations_ = std::move(saved_equations);
    parent_ = std::move(saved_parent);
    binding_ = std::move(saved_binding);
    assumptions_ = std::move(saved_assumptions);
    return Contradiction(lhs, rhs, origin);
  }
  facts_.push_back(Fact{lhs, rhs, std::string(origin)});
  return OkStatus();
}

Status Unifier::Recheck() {
  // Each pass either drops an equation or reduces one to a binding, so this ends.
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t i = 0; i < equations_.size(); ++i) {
      Dim a = Resolve(equations_[i].lhs), b = Resolve(equations_[i].rhs);
      Tri t = symbolic::Equal(a, b, &assumptions_);
      if (t == Tri::kFalse) return Status::Error(equations_[i].ToString());
      auto binding = t == Tri::kTrue ? std::nullopt : AsBinding(a, b);
      if (t == Tri::kTrue || binding) {
        Fact f = equations_[i];
        equations_.erase(equations_.begin() + i);
        if (binding) Apply(binding->first, binding->second, f.origin);
        changed = true;
        break;
      }
    }
  }
  return OkStatus();
}

Status Unifier::AssumeAtLeast(std::string_view symbol, int64_t bound, std::string_view origin) {
  const std::string root = Find(std::string(symbol));
  auto b = binding_.find(root);
  if (b != binding_.end() && b->second.value < bound) {
    return Status::Error(std::string(symbol) + " >= " + std::to_string(bound) + " (" +
                         std::string(origin) + ") contradicts " + std::string(symbol) +
                         " == " + std::to_string(b->second.value) + " (" + b->second.origin + ")");
  }
  auto saved = assumptions_;
  auto saved_parent = parent_;
  auto saved_binding = binding_;
  auto saved_equations = equations_;
  assumptions_.SetLowerBound(root, bound);
  if (Status s = Recheck(); !s.ok()) {
    assumptions_ = std::move(saved);
    parent_ = std::move(saved_parent);
    binding_ = std::move(saved_binding);
    equations_ = std::move(saved_equations);
    return Status::Error(std::string(symbol) + " >= " + std::to_string(bound) + " (" +
                         std::string(origin) + ") contradicts " + s.message());
  }
  return OkStatus();
}

void Unifier::AddCondition(std::string condition, std::string_view origin) {
  conditions_.push_back(condition + " (" + std::string(origin) + ")");
}

}  // namespace onnx_infer::symbolic
