#include "onnx_infer/symbolic/unifier.h"

#include <algorithm>
#include <set>

#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {
namespace {

// A value bound to a class is kept only this small; larger equations stay equations.
constexpr int kMaxValueSize = kMaxExprSize / 2;

int64_t CeilDivPositive(int64_t a, int64_t c) { return -FloorDivConst(-a, c); }

}  // namespace

std::string Fact::ToString() const {
  return lhs.ToString() + " == " + rhs.ToString() + " (" + origin + ")";
}

// ---- Symbols and classes ---------------------------------------------------------------

int Unifier::Id(std::string_view name) {
  auto [it, inserted] = ids_.try_emplace(std::string(name), static_cast<int>(names_.size()));
  if (!inserted) return it->second;
  const int id = it->second;
  names_.emplace_back(name);
  parent_.push_back(id);
  size_.push_back(1);
  leader_.push_back(id);
  value_.emplace_back();
  model_bound_.push_back(0);
  user_bound_.push_back(0);
  watchers_.emplace_back();
  users_.emplace_back();
  return id;
}

int Unifier::FindId(std::string_view name) const {
  auto it = ids_.find(std::string(name));
  return it == ids_.end() ? -1 : it->second;
}

int Unifier::Root(int id) const {
  while (parent_[id] != id) id = parent_[id];
  return id;
}

// ---- Resolving -------------------------------------------------------------------------

Dim Unifier::Substituted(Dim d) const {
  if (d.is_unknown() || d.is_const()) return d;
  std::map<std::string, Dim, std::less<>> subst;
  for (const std::string& name : d.Symbols()) {
    const int id = FindId(name);
    if (id < 0) continue;
    const int root = Root(id);
    if (!value_[root].is_unknown()) {
      subst[name] = value_[root];  // values mention only representatives of unbound classes
    } else if (leader_[root] != id) {
      subst[name] = Dim::Symbol(Leader(root));
    }
  }
  return subst.empty() ? d : Substitute(d, subst);
}

Dim Unifier::ResolveUnder(Dim d, const Assumptions& as) const {
  Dim s = Substituted(d);
  return as.empty() ? s : Simplify(s, as);
}

Dim Unifier::Resolve(Dim d) const {
  if (logging_) return ResolveUnder(d, full_);  // the state is changing: nothing is kept
  auto it = resolved_.find(d);
  if (it != resolved_.end()) return it->second;
  const Dim r = ResolveUnder(d, full_);
  resolved_.emplace(d, r);
  return r;
}

std::vector<std::pair<std::string, int64_t>> Unifier::UserBoundsOf(Dim d) const {
  std::vector<std::pair<std::string, int64_t>> out;
  if (d.is_unknown()) return out;
  for (const std::string& name : d.Symbols()) {
    const int id = FindId(name);
    const int root = id < 0 ? -1 : Root(id);
    const int64_t model = root < 0 ? 0 : model_bound_[root];
    const int64_t user = std::max<int64_t>(root < 0 ? 0 : user_bound_[root], all_positive_);
    if (user > model) out.emplace_back(root < 0 ? name : Leader(root), user);
  }
  return out;
}

Dim Unifier::Resolve(Dim d, std::vector<std::string>* used, Dim* without) const {
  used->clear();
  const Dim sub = Substituted(d);
  const Dim result = full_.empty() ? sub : Simplify(sub, full_);
  if (!has_user_assumptions_ || sub.is_unknown() || sub.is_const()) return result;
  const Dim model = model_.empty() ? sub : Simplify(sub, model_);
  if (model == result) return result;
  if (without) *without = model;
  // Which assumptions it needed: the user's bounds of its symbols, and those the multiples
  // derived from the user's bounds needed; then drop each one the result holds without.
  std::set<std::pair<std::string, int64_t>> chosen;
  for (const auto& b : UserBoundsOf(sub)) chosen.insert(b);
  for (const UserMultiple& m : user_multiples_) chosen.insert(m.needs.begin(), m.needs.end());
  auto holds_with = [&](const std::set<std::pair<std::string, int64_t>>& bounds) {
    Assumptions trial = model_;
    for (const auto& [name, bound] : bounds) trial.SetLowerBound(name, bound);
    for (const UserMultiple& m : user_multiples_) {
      if (std::all_of(m.needs.begin(), m.needs.end(),
                      [&](const auto& need) { return bounds.count(need) > 0; })) {
        trial.AddMultipleOf(m.term, m.modulus);
      }
    }
    return Simplify(sub, trial) == result;
  };
  for (auto it = chosen.begin(); it != chosen.end();) {
    auto without = chosen;
    without.erase(*it);
    if (holds_with(without)) {
      it = chosen.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& [name, bound] : chosen) used->push_back(name + " >= " + std::to_string(bound));
  return result;
}

Tri Unifier::Equal(Dim a, Dim b) const { return symbolic::Equal(Resolve(a), Resolve(b), &full_); }

Tri Unifier::LessEqual(Dim a, Dim b) const {
  return symbolic::LessEqual(Resolve(a), Resolve(b), &full_);
}

// ---- Recording -------------------------------------------------------------------------

Status Unifier::Transaction(const std::function<Status()>& change) {
  resolved_.clear();
  logging_ = true;
  Status s = change();
  for (size_t i = 0; i < queue_.size(); ++i) {
    if (queue_[i] < static_cast<int>(queued_.size())) queued_[queue_[i]] = 0;
  }
  queue_.clear();
  if (!s.ok()) {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) (*it)();
  }
  undo_.clear();
  logging_ = false;
  return s;
}

void Unifier::SetBound(Assumptions& as, const std::string& name, int64_t bound) {
  auto it = as.lower_.find(name);
  if (logging_) {
    std::optional<int64_t> old;
    if (it != as.lower_.end()) old = it->second;
    undo_.push_back([&as, name, old] {
      if (old) {
        as.lower_[name] = *old;
      } else {
        as.lower_.erase(name);
      }
    });
  }
  if (it == as.lower_.end()) {
    as.lower_.emplace(name, bound);
  } else {
    it->second = bound;
  }
}

void Unifier::AddMultiple(Assumptions& as, Dim term, int64_t modulus) {
  if (logging_) {
    const DimNode* key = term.node();
    auto it = as.multiples_.find(key);
    std::optional<int64_t> old;
    if (it != as.multiples_.end()) old = it->second;
    undo_.push_back([&as, key, old] {
      if (old) {
        as.multiples_[key] = *old;
      } else {
        as.multiples_.erase(key);
      }
    });
  }
  as.AddMultipleOf(term, modulus);
}

void Unifier::Enqueue(int root) {
  for (int e : watchers_[root]) {
    if (!equations_[e].active || queued_[e]) continue;
    queued_[e] = 1;
    queue_.push_back(e);
  }
}

void Unifier::Watch(int equation, Dim resolved) {
  for (const std::string& name : resolved.Symbols()) {
    const int root = Root(Id(name));
    auto& list = watchers_[root];
    if (!list.empty() && list.back() == equation) continue;
    LogSize(watchers_, root);
    list.push_back(equation);
  }
}

Status Unifier::Process() {
  for (size_t i = 0; i < queue_.size(); ++i) {
    const int e = queue_[i];
    queued_[e] = 0;
    OI_RETURN_IF_ERROR(Reduce(e));
  }
  queue_.clear();
  return OkStatus();
}

Status Unifier::AddEquation(Fact fact) {
  LogResize(facts_);
  facts_.push_back(fact);
  LogResize(equations_);
  LogResize(queued_);
  equations_.push_back(Equation{std::move(fact)});
  queued_.push_back(1);
  queue_.push_back(static_cast<int>(equations_.size()) - 1);
  return Process();
}

Status Unifier::Reduce(int e) {
  if (!equations_[e].active) return OkStatus();
  const Fact fact = equations_[e].fact;
  const Dim a = ResolveUnder(fact.lhs, bounds_), b = ResolveUnder(fact.rhs, bounds_);
  auto settle = [&] {  // the equation says nothing more than what is now recorded
    LogAt(equations_, e);
    equations_[e].active = false;
  };
  switch (symbolic::Equal(a, b, &bounds_)) {
    case Tri::kTrue:
      settle();
      return OkStatus();
    case Tri::kFalse:
      return Status::Error(fact.ToString());
    case Tri::kUnknown:
      break;
  }
  const DimNode* d = Sub(a.node(), b.node());
  if (!d || d->kind == Kind::kConst) return OkStatus();
  const Poly p = AsPoly(d);
  auto root_of = [&](const DimNode* symbol) { return Root(Id(symbol->name)); };
  // c·X + k == 0: X is -k/c (Equal has rejected it when c does not divide k).
  if (p.terms.size() == 1 && p.terms[0].first->kind == Kind::kSymbol) {
    const int64_t c = p.terms[0].second;
    if (!(c == -1 && p.constant == INT64_MIN) && p.constant % c == 0) {
      settle();
      return Bind(root_of(p.terms[0].first), Dim::Const(-(p.constant / c)));
    }
  }
  // X - Y == 0: the classes merge.
  if (p.terms.size() == 2 && p.constant == 0 && p.terms[0].first->kind == Kind::kSymbol &&
      p.terms[1].first->kind == Kind::kSymbol && p.terms[0].second == -p.terms[1].second &&
      (p.terms[0].second == 1 || p.terms[0].second == -1)) {
    settle();
    return Merge(root_of(p.terms[0].first), root_of(p.terms[1].first));
  }
  // X - e == 0 with X nowhere in e: X is bound to e. The side that is a bare symbol is the one
  // bound (KM1 == K - 1 binds KM1), else the symbol with the largest name.
  {
    const DimNode* chosen = nullptr;
    for (const DimNode* side : {a.node(), b.node(), static_cast<const DimNode*>(nullptr)}) {
      for (size_t i = p.terms.size(); i-- > 0 && !chosen;) {
        const auto& [x, coeff] = p.terms[i];
        if (x->kind != Kind::kSymbol || (coeff != 1 && coeff != -1)) continue;
        if (side && side != x) continue;
        bool elsewhere = false;
        for (size_t j = 0; j < p.terms.size() && !elsewhere; ++j) {
          if (j == i) continue;
          for (const std::string& s : Dim::FromNode(p.terms[j].first).Symbols()) {
            elsewhere = elsewhere || s == x->name;
          }
        }
        if (!elsewhere) chosen = x;
      }
      if (chosen) break;
    }
    if (chosen) {
      int64_t coeff = 0;
      for (const auto& [term, c] : p.terms) {
        if (term == chosen) coeff = c;
      }
      // d = coeff·X + rest: X = -rest/coeff, i.e. X - d (coeff 1) or X + d (coeff -1).
      const DimNode* value = coeff == 1 ? Sub(chosen, d) : Add(chosen, d);
      if (value && value->size <= kMaxValueSize) {
        settle();
        return Bind(root_of(chosen), Dim::FromNode(value));
      }
    }
  }
  // P·z == 0 where every factor of P is known >= 1: z == 0. For z = Mod(x, c), x is a
  // multiple of c (the equation stays, to be re-checked); for a symbol, it is 0. Factors
  // known >= 1 only under the user's bounds give a multiple under the assumption.
  if (p.constant == 0 && p.terms.size() == 1) {
    const auto factors = Factors(p.terms[0].first);
    for (const Assumptions* as : {&bounds_, &full_}) {
      const DimNode* zero = nullptr;
      int unknown = 0;
      std::vector<const DimNode*> others;
      for (const auto& [atom, exp] : factors) {
        if (LessEqualNodes(Const(1), atom, as) == Tri::kTrue) {
          others.push_back(atom);
        } else {
          zero = atom;
          ++unknown;
        }
      }
      if (unknown == 0) return Status::Error(fact.ToString());  // a product of factors >= 1
      if (unknown > 1) continue;
      if (zero->kind == Kind::kSymbol && as == &bounds_) {
        settle();
        return Bind(root_of(zero), Dim::Const(0));
      }
      if (zero->kind != Kind::kMod || zero->rhs->kind != Kind::kConst ||
          zero->lhs->kind == Kind::kSum || zero->lhs->kind == Kind::kConst) {
        break;
      }
      const Dim x = Dim::FromNode(zero->lhs);
      const int64_t c = zero->rhs->value;
      if (as == &bounds_) {
        AddMultiple(model_, x, c);
        AddMultiple(full_, x, c);
      } else {
        UserMultiple m{x, c, {}};
        bool known = false;
        for (const UserMultiple& k : user_multiples_)
          known = known || (k.term == x && k.modulus == c);
        if (known) break;
        for (const DimNode* other : others) {
          for (const auto& need : UserBoundsOf(Dim::FromNode(other))) m.needs.push_back(need);
        }
        LogResize(user_multiples_);
        user_multiples_.push_back(std::move(m));
        AddMultiple(full_, x, c);
      }
      break;
    }
  }
  Watch(e, Dim::FromNode(d));
  return OkStatus();
}

// Both roots are unbound (the equation was resolved).
Status Unifier::Merge(int ra, int rb) {
  if (ra == rb) return OkStatus();
  if (size_[ra] < size_[rb]) std::swap(ra, rb);  // ra stays the root
  LogAt(parent_, rb);
  parent_[rb] = ra;
  LogAt(size_, ra);
  size_[ra] += size_[rb];
  // The values that mention the representative that stops being one are re-substituted.
  std::vector<int> stale = users_[rb];
  const bool renamed = names_[leader_[rb]] < names_[leader_[ra]];
  if (renamed) {
    stale = users_[ra];
    LogAt(leader_, ra);
    leader_[ra] = leader_[rb];
  }
  const int64_t model = std::max(model_bound_[ra], model_bound_[rb]);
  const int64_t user = std::max(user_bound_[ra], user_bound_[rb]);
  LogAt(model_bound_, ra);
  LogAt(user_bound_, ra);
  model_bound_[ra] = model;
  user_bound_[ra] = user;
  const std::string& leader = Leader(ra);
  if (model > 0) {
    SetBound(bounds_, leader, model);
    SetBound(model_, leader, model);
  }
  if (std::max(model, user) > 0) SetBound(full_, leader, std::max(model, user));
  // Only an equation that mentions both classes can say more now, and it watches both: the
  // smaller class's watchers are enough. When the representative changes, the multiples the
  // larger class's equations imply are stated again on the new name.
  Enqueue(rb);
  if (renamed) Enqueue(ra);
  for (auto* lists : {&watchers_, &users_}) {
    LogSize(*lists, ra);
    (*lists)[ra].insert((*lists)[ra].end(), (*lists)[rb].begin(), (*lists)[rb].end());
  }
  return Refresh(stale);
}

Status Unifier::Refresh(const std::vector<int>& users) {
  for (const int u : users) {
    if (Root(u) != u || value_[u].is_unknown()) continue;
    const Dim value = Substituted(value_[u]);
    if (value == value_[u]) continue;
    LogAt(value_, u);
    value_[u] = value;
    OI_RETURN_IF_ERROR(CheckValue(u));
    for (const std::string& name : value.Symbols()) {
      const int r = Root(Id(name));
      LogSize(users_, r);
      users_[r].push_back(u);
    }
    Enqueue(u);
  }
  return OkStatus();
}

Status Unifier::CheckValue(int root) {
  const Dim value = value_[root];
  const int64_t bound =
      std::max({model_bound_[root], user_bound_[root], static_cast<int64_t>(all_positive_)});
  if (symbolic::LessEqual(Dim::Const(bound), value, &full_) == Tri::kFalse) {
    return Status::Error(Leader(root) + " >= " + std::to_string(bound));
  }
  // X == a·Y + c with X >= bound: Y >= ceil((bound - c)/a). Every symbol is a dim, so even a
  // bound of 0 says something (KM1 == K - 1 gives K >= 1).
  const Poly p = AsPoly(value.node());
  if (p.terms.size() == 1 && p.terms[0].first->kind == Kind::kSymbol && p.terms[0].second > 0) {
    int64_t diff;
    if (__builtin_sub_overflow(model_bound_[root], p.constant, &diff)) return OkStatus();
    const int y = Root(Id(p.terms[0].first->name));
    OI_RETURN_IF_ERROR(RaiseBound(y, CeilDivPositive(diff, p.terms[0].second), false));
    if (user_bound_[root] > model_bound_[root] &&
        !__builtin_sub_overflow(user_bound_[root], p.constant, &diff)) {
      OI_RETURN_IF_ERROR(RaiseBound(y, CeilDivPositive(diff, p.terms[0].second), true));
    }
  }
  return OkStatus();
}

Status Unifier::Bind(int root, Dim value) {
  LogAt(value_, root);
  value_[root] = value;
  OI_RETURN_IF_ERROR(CheckValue(root));
  for (const std::string& name : value.Symbols()) {
    const int r = Root(Id(name));
    LogSize(users_, r);
    users_[r].push_back(root);
  }
  Enqueue(root);
  return Refresh(std::vector<int>(users_[root]));
}

Status Unifier::RaiseBound(int root, int64_t bound, bool user) {
  auto& slot = user ? user_bound_ : model_bound_;
  if (bound <= slot[root]) return OkStatus();
  LogAt(slot, root);
  slot[root] = bound;
  const std::string& leader = Leader(root);
  if (!user) {
    SetBound(bounds_, leader, bound);
    SetBound(model_, leader, bound);
  }
  SetBound(full_, leader, std::max(model_bound_[root], user_bound_[root]));
  if (!value_[root].is_unknown()) OI_RETURN_IF_ERROR(CheckValue(root));
  Enqueue(root);
  return OkStatus();
}

Status Unifier::Unify(Dim lhs, Dim rhs, std::string_view origin) {
  if (lhs.is_unknown() || rhs.is_unknown()) return OkStatus();
  switch (symbolic::Equal(Resolve(lhs), Resolve(rhs), &full_)) {
    case Tri::kTrue:
      return OkStatus();
    case Tri::kFalse:
      return Contradiction(
          lhs.ToString() + " == " + rhs.ToString() + " (" + std::string(origin) + ")", {lhs, rhs});
    case Tri::kUnknown:
      break;
  }
  Status s = Transaction([&] { return AddEquation(Fact{lhs, rhs, std::string(origin)}); });
  if (s.ok()) return s;
  return Contradiction(lhs.ToString() + " == " + rhs.ToString() + " (" + std::string(origin) + ")",
                       {lhs, rhs});
}

Status Unifier::AssumeAtLeast(std::string_view symbol, int64_t bound, std::string_view origin) {
  const std::string text = std::string(symbol) + " >= " + std::to_string(bound);
  Status s = Transaction([&] {
    LogResize(bound_origins_);
    bound_origins_.push_back({std::string(symbol), text + " (" + std::string(origin) + ")"});
    OI_RETURN_IF_ERROR(RaiseBound(Root(Id(symbol)), bound, /*user=*/false));
    return Process();
  });
  if (s.ok()) return s;
  return Contradiction(text + " (" + std::string(origin) + ")", {Dim::Symbol(symbol)});
}

Status Unifier::AssumeUser(std::string_view symbol, int64_t bound) {
  const std::string text = std::string(symbol) + " >= " + std::to_string(bound) + " (assumed)";
  Status s = Transaction([&] {
    LogResize(bound_origins_);
    bound_origins_.push_back({std::string(symbol), text});
    OI_RETURN_IF_ERROR(RaiseBound(Root(Id(symbol)), bound, /*user=*/true));
    return Process();
  });
  if (!s.ok()) return Contradiction(text, {Dim::Symbol(symbol)});
  has_user_assumptions_ = true;
  return s;
}

Status Unifier::AssumeAllPositive() {
  Status s = Transaction([&] {
    all_positive_ = true;
    full_.SetDefaultLowerBound(1);
    for (int id = 0; id < static_cast<int>(names_.size()); ++id) {
      if (Root(id) != id) continue;
      if (!value_[id].is_unknown()) OI_RETURN_IF_ERROR(CheckValue(id));
      Enqueue(id);
    }
    return Process();
  });
  if (!s.ok()) {
    all_positive_ = false;
    full_.default_lower_ = 0;
    std::vector<Dim> all;
    for (const std::string& name : names_) all.push_back(Dim::Symbol(name));
    return Contradiction("every symbol >= 1 (assumed)", all);
  }
  has_user_assumptions_ = true;
  return s;
}

void Unifier::AddCondition(std::string condition, std::string_view origin) {
  std::string text = condition + " (" + std::string(origin) + ")";
  if (condition_set_.insert(text).second) conditions_.push_back(std::move(text));
}

Status Unifier::Contradiction(const std::string& what, const std::vector<Dim>& dims) const {
  // The earlier facts and bounds that touch the classes of the symbols involved.
  std::set<int> classes;
  bool any_symbol = false;
  auto class_of = [&](const std::string& name) {
    const int id = FindId(name);
    return id < 0 ? -1 : Root(id);
  };
  for (Dim d : dims) {
    if (d.is_unknown()) continue;
    for (const std::string& s : d.Symbols()) {
      any_symbol = true;
      if (int c = class_of(s); c >= 0) classes.insert(c);
    }
  }
  std::string earlier;
  auto add = [&](const std::string& text) {
    earlier += earlier.empty() ? "" : "; ";
    earlier += text;
  };
  for (const Fact& f : facts_) {
    bool touches = false;
    for (Dim d : {f.lhs, f.rhs}) {
      for (const std::string& s : d.Symbols()) touches = touches || classes.count(class_of(s));
    }
    if (touches) add(f.ToString());
  }
  for (const auto& [symbol, text] : bound_origins_) {
    if (classes.count(class_of(symbol))) add(text);
  }
  if (all_positive_ && any_symbol) add("every symbol >= 1 (assumed)");
  return Status::Error(what + " contradicts " +
                       (earlier.empty() ? std::string("what the expressions say") : earlier));
}

}  // namespace onnx_infer::symbolic
