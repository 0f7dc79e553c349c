#include "onnx_infer/symbolic/unifier.h"

#include <algorithm>
#include <set>

#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {
namespace {

// A value bound to a class is kept only this small; larger equations stay equations.
constexpr int kMaxValueSize = kMaxExprSize / 2;
// No upper bound.
constexpr int64_t kNoUpper = INT64_MAX;
// The prefix of the classes that hold relations (AssumeRelation): never a model's symbol
// name that a report shows.
constexpr std::string_view kRelationPrefix = "__relation";

bool IsRelationClass(std::string_view name) { return name.substr(0, 10) == kRelationPrefix; }

int64_t CeilDivPositive(int64_t a, int64_t c) { return -FloorDivConst(-a, c); }

}  // namespace

std::string Relation::Statement() const {
  std::string text = expr.ToString();
  if (lo && hi) {
    text = std::to_string(*lo) + " <= " + text + " <= " + std::to_string(*hi);
  } else if (lo) {
    text += " >= " + std::to_string(*lo);
  } else if (hi) {
    text += " <= " + std::to_string(*hi);
  }
  return text;
}

std::string Relation::ToString() const { return Statement() + " (" + origin + ")"; }

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
  model_upper_.push_back(kNoUpper);
  user_upper_.push_back(kNoUpper);
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
  const auto address = reinterpret_cast<uintptr_t>(d.node());
  ResolvedEntry& recent = recent_[((address >> 4) * 0x9e3779b97f4a7c15ULL) >> 56];
  if (recent.generation == generation_ && recent.d == d.node()) return recent.resolved;
  Dim r;
  if (auto it = resolved_.find(d); it != resolved_.end()) {
    r = it->second;
  } else {
    r = ResolveUnder(d, full_);
    resolved_.emplace(d, r);
  }
  recent = {d.node(), generation_, r};
  return r;
}

std::vector<Unifier::UserBound> Unifier::UserBoundsOf(Dim d) const {
  std::vector<UserBound> out;
  if (d.is_unknown()) return out;
  for (const std::string& name : d.Symbols()) {
    const int id = FindId(name);
    const int root = id < 0 ? -1 : Root(id);
    const int64_t model = root < 0 ? 0 : model_bound_[root];
    const int64_t user = std::max<int64_t>(root < 0 ? 0 : user_bound_[root], all_positive_);
    const std::string& leader = root < 0 ? name : Leader(root);
    if (user > model) out.emplace_back(leader, false, user);
    if (root >= 0 && user_upper_[root] < model_upper_[root]) {
      out.emplace_back(leader, true, user_upper_[root]);
    }
  }
  return out;
}

std::vector<std::string> Unifier::UserAssumptionsOf(const std::vector<Dim>& dims) const {
  std::set<UserBound> all;
  for (Dim d : dims) {
    for (const auto& b : UserBoundsOf(Substituted(d))) all.insert(b);
  }
  std::vector<std::string> out;
  for (const auto& [name, upper, bound] : all) {
    out.push_back(name + (upper ? " <= " : " >= ") + std::to_string(bound));
  }
  return out;
}

std::pair<std::optional<int64_t>, std::optional<int64_t>> Unifier::BoundsOf(Dim d) const {
  const Dim r = Resolve(d);
  if (r.is_unknown()) return {};
  const Interval i = Bounds(r.node(), &full_);
  return {i.has_lo ? std::optional<int64_t>(i.lo) : std::nullopt,
          i.has_hi ? std::optional<int64_t>(i.hi) : std::nullopt};
}

std::vector<SymbolBounds> Unifier::BoundsOfSymbols() const {
  std::vector<SymbolBounds> out;
  for (int id = 0; id < static_cast<int>(names_.size()); ++id) {
    if (Root(id) != id || !value_[id].is_unknown() || IsRelationClass(Leader(id))) continue;
    const int64_t lo = std::max({model_bound_[id], user_bound_[id], int64_t{all_positive_}});
    const int64_t hi = std::min(model_upper_[id], user_upper_[id]);
    if (lo <= 0 && hi == kNoUpper) continue;
    SymbolBounds b;
    b.symbol = Leader(id);
    b.lo = lo;
    if (hi != kNoUpper) b.hi = hi;
    b.lo_assumed = lo > model_bound_[id];
    b.hi_assumed = user_upper_[id] < model_upper_[id];
    for (const auto& [symbol, text] : bound_origins_) {
      const int other = FindId(symbol);
      if (other >= 0 && Root(other) == id) b.origins.push_back(text);
    }
    if (all_positive_ && b.lo_assumed) b.origins.push_back("every symbol >= 1 (assumed)");
    out.push_back(std::move(b));
  }
  std::sort(out.begin(), out.end(),
            [](const SymbolBounds& a, const SymbolBounds& b) { return a.symbol < b.symbol; });
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
  std::set<UserBound> chosen;
  for (const auto& b : UserBoundsOf(sub)) chosen.insert(b);
  for (const UserMultiple& m : user_multiples_) chosen.insert(m.needs.begin(), m.needs.end());
  for (size_t i = 0; i < relations_.size(); ++i) {
    if (relations_[i].user) chosen.insert({"", false, static_cast<int64_t>(i)});
  }
  auto holds_with = [&](const std::set<UserBound>& bounds) {
    Assumptions trial = model_;
    for (const auto& b : bounds) Apply(b, trial);
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
  for (const auto& b : chosen) used->push_back(Describe(b));
  return result;
}

Dim Unifier::RefineByModelBounds(Dim d, std::vector<std::string>* used) const {
  used->clear();
  if (d.is_unknown() || d.is_const() || !has_model_upper_bounds()) return d;
  const Dim result = Resolve(d);
  if (result == d || result.is_unknown()) return d;
  const Dim sub = Substituted(d);
  // The model's upper bounds of the symbols of `sub` that the user's do not match, and the
  // model's relations: the candidates. (leader, true, bound), or ("", false, relation index).
  std::vector<UserBound> candidates;
  for (const std::string& name : sub.Symbols()) {
    const int id = FindId(name);
    if (id < 0) continue;
    const int root = Root(id);
    if (model_upper_[root] != kNoUpper && model_upper_[root] < user_upper_[root]) {
      candidates.emplace_back(Leader(root), true, model_upper_[root]);
    }
  }
  for (size_t i = 0; i < relations_.size(); ++i) {
    if (!relations_[i].user) candidates.emplace_back("", false, static_cast<int64_t>(i));
  }
  if (candidates.empty()) return d;
  // What `sub` simplifies to with the model's upper bounds and relations limited to `keep`
  // (everything else known and assumed stays).
  auto simplified_with = [&](const std::set<UserBound>& keep) {
    Assumptions trial = full_;
    trial.upper_.clear();
    trial.expr_bounds_.clear();
    for (int id = 0; id < static_cast<int>(names_.size()); ++id) {
      if (Root(id) == id && user_upper_[id] != kNoUpper) trial.upper_[Leader(id)] = user_upper_[id];
    }
    for (const Relation& r : relations_) {
      if (r.user) trial.SetExprBounds(Substituted(r.expr), r.lo, r.hi);
    }
    for (const UserBound& b : keep) Apply(b, trial);
    return Simplify(sub, trial);
  };
  std::set<UserBound> chosen(candidates.begin(), candidates.end());
  if (simplified_with(chosen) != result || simplified_with({}) == result) return d;
  for (auto it = chosen.begin(); it != chosen.end();) {
    auto fewer = chosen;
    fewer.erase(*it);
    if (simplified_with(fewer) == result) {
      it = chosen.erase(it);
    } else {
      ++it;
    }
  }
  for (const UserBound& b : chosen) used->push_back(Describe(b));
  return result;
}

Tri Unifier::Equal(Dim a, Dim b) const { return symbolic::Equal(Resolve(a), Resolve(b), &full_); }

Tri Unifier::LessEqual(Dim a, Dim b) const {
  return symbolic::LessEqual(Resolve(a), Resolve(b), &full_);
}

// ---- Recording -------------------------------------------------------------------------

Tri Unifier::ProvenAtLeastByModel(Dim d, int64_t k) const {
  if (logging_ || d.is_unknown()) return symbolic::LessEqual(Dim::Const(k), d, &model_);
  const auto address = reinterpret_cast<uintptr_t>(d.node());
  AtLeastEntry& e = at_least_[((address >> 4) ^ static_cast<uint64_t>(k) * 0x9e3779b97f4a7c15ULL) %
                              kAtLeastSlots];
  if (e.generation == generation_ && e.d == d.node() && e.k == k) return e.answer;
  const Tri answer = symbolic::LessEqual(Dim::Const(k), d, &model_);
  e = {d.node(), k, generation_, answer};
  return answer;
}

Status Unifier::Transaction(const std::function<Status()>& change) {
  resolved_.clear();
  ++generation_;
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

// Sets `map[name]` to `bound`, logging the old entry (or its absence) for a rollback.
void Unifier::SetLogged(std::map<std::string, int64_t, std::less<>>& map, const std::string& name,
                        int64_t bound) {
  auto it = map.find(name);
  if (logging_) {
    std::optional<int64_t> old;
    if (it != map.end()) old = it->second;
    undo_.push_back([&map, name, old] {
      if (old) {
        map[name] = *old;
      } else {
        map.erase(name);
      }
    });
  }
  if (it == map.end()) {
    map.emplace(name, bound);
  } else {
    it->second = bound;
  }
}

void Unifier::SetBound(Assumptions& as, const std::string& name, int64_t bound) {
  SetLogged(as.lower_, name, bound);
}

void Unifier::SetUpper(Assumptions& as, const std::string& name, int64_t bound) {
  SetLogged(as.upper_, name, bound);
}

void Unifier::SetExprBounds(Assumptions& as, Dim expr, std::optional<int64_t> lo,
                            std::optional<int64_t> hi) {
  if (logging_) undo_.push_back([&as, old = as.expr_bounds_] { as.expr_bounds_ = old; });
  as.SetExprBounds(expr, lo, hi);
}

void Unifier::Apply(const UserBound& b, Assumptions& as) const {
  const auto& [name, upper, bound] = b;
  if (name.empty()) {
    const Relation& r = relations_[bound];
    as.SetExprBounds(Substituted(r.expr), r.lo, r.hi);
  } else if (upper) {
    as.SetUpperBound(name, bound);
  } else {
    as.SetLowerBound(name, bound);
  }
}

std::string Unifier::Describe(const UserBound& b) const {
  const auto& [name, upper, bound] = b;
  if (name.empty()) return relations_[bound].Statement();
  return name + (upper ? " <= " : " >= ") + std::to_string(bound);
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
  const int64_t model_hi = std::min(model_upper_[ra], model_upper_[rb]);
  const int64_t user_hi = std::min(user_upper_[ra], user_upper_[rb]);
  LogAt(model_upper_, ra);
  LogAt(user_upper_, ra);
  model_upper_[ra] = model_hi;
  user_upper_[ra] = user_hi;
  if (model_hi != kNoUpper) {
    SetUpper(bounds_, leader, model_hi);
    SetUpper(model_, leader, model_hi);
  }
  if (std::min(model_hi, user_hi) != kNoUpper) SetUpper(full_, leader, std::min(model_hi, user_hi));
  OI_RETURN_IF_ERROR(CheckRange(ra));
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
  const int64_t upper = std::min(model_upper_[root], user_upper_[root]);
  if (upper != kNoUpper && symbolic::LessEqual(value, Dim::Const(upper), &full_) == Tri::kFalse) {
    return Status::Error(Leader(root) + " <= " + std::to_string(upper));
  }
  // X == a·Y + c with X >= bound: Y >= ceil((bound - c)/a). Every symbol is a dim, so even a
  // bound of 0 says something (KM1 == K - 1 gives K >= 1).
  const Poly p = AsPoly(value.node());
  if (p.terms.size() == 1 && p.terms[0].first->kind == Kind::kSymbol && p.terms[0].second > 0) {
    int64_t diff;
    if (__builtin_sub_overflow(model_bound_[root], p.constant, &diff)) return OkStatus();
    const int y = Root(Id(p.terms[0].first->name));
    const int64_t implied = CeilDivPositive(diff, p.terms[0].second);
    if (implied > model_bound_[y]) {
      LogResize(bound_origins_);
      bound_origins_.push_back({Leader(y), Leader(y) + " >= " + std::to_string(implied) +
                                               " (from " + Leader(root) +
                                               " == " + value.ToString() + ")"});
    }
    OI_RETURN_IF_ERROR(RaiseBound(y, implied, false));
    if (user_bound_[root] > model_bound_[root] &&
        !__builtin_sub_overflow(user_bound_[root], p.constant, &diff)) {
      OI_RETURN_IF_ERROR(RaiseBound(y, CeilDivPositive(diff, p.terms[0].second), true));
    }
  }
  if (upper != kNoUpper) {
    OI_RETURN_IF_ERROR(PropagateToTerms(root, /*user=*/false));
    if (user_upper_[root] < model_upper_[root]) {
      OI_RETURN_IF_ERROR(PropagateToTerms(root, /*user=*/true));
    }
  }
  return OkStatus();
}

Status Unifier::PropagateToTerms(int root, bool user) {
  const int64_t hi = user ? std::min(model_upper_[root], user_upper_[root]) : model_upper_[root];
  if (hi == kNoUpper) return OkStatus();
  const Poly p = AsPoly(value_[root].node());
  // X == c1·Y1 + ... + ck·Yk + k0 <= hi, every ci > 0 and every Yi >= lo_i:
  // Yj <= floor((hi - k0 - sum over i != j of ci·lo_i) / cj).
  std::vector<std::pair<int, int64_t>> terms;  // (root, coefficient)
  for (const auto& [term, c] : p.terms) {
    if (term->kind != Kind::kSymbol || c <= 0) return OkStatus();
    terms.emplace_back(Root(Id(term->name)), c);
  }
  auto low = [&](int r) {
    return user ? std::max({model_bound_[r], user_bound_[r], static_cast<int64_t>(all_positive_)})
                : model_bound_[r];
  };
  int64_t total = 0;  // sum of ci·lo_i
  for (const auto& [r, c] : terms) {
    int64_t t;
    if (__builtin_mul_overflow(c, low(r), &t) || __builtin_add_overflow(total, t, &total)) {
      return OkStatus();
    }
  }
  for (const auto& [r, c] : terms) {
    int64_t own, rest, room;
    if (__builtin_mul_overflow(c, low(r), &own) || __builtin_sub_overflow(total, own, &rest) ||
        __builtin_sub_overflow(hi, p.constant, &room) ||
        __builtin_sub_overflow(room, rest, &room)) {
      continue;
    }
    const int64_t bound = FloorDivConst(room, c);
    if (user && bound >= model_upper_[r]) continue;
    if (bound >= (user ? user_upper_[r] : model_upper_[r])) continue;
    // Where the derived bound comes from: the relation's statement, or X == value and X's bound.
    std::string from;
    for (const auto& [symbol, text] : bound_origins_) {
      if (symbol == Leader(root)) from += (from.empty() ? "" : "; ") + text;
    }
    if (!IsRelationClass(Leader(root))) {
      from = Leader(root) + " == " + value_[root].ToString() + (from.empty() ? "" : "; ") + from;
    }
    LogResize(bound_origins_);
    bound_origins_.push_back(
        {Leader(r), Leader(r) + " <= " + std::to_string(bound) + " (from " + from + ")"});
    OI_RETURN_IF_ERROR(LowerBound(r, bound, user));
  }
  return OkStatus();
}

Status Unifier::CheckRange(int root) const {
  const int64_t lo =
      std::max({model_bound_[root], user_bound_[root], static_cast<int64_t>(all_positive_)});
  const int64_t hi = std::min(model_upper_[root], user_upper_[root]);
  if (lo > hi) {
    return Status::Error(Leader(root) + " >= " + std::to_string(lo) + " and " + Leader(root) +
                         " <= " + std::to_string(hi));
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
  OI_RETURN_IF_ERROR(CheckRange(root));
  if (!value_[root].is_unknown()) OI_RETURN_IF_ERROR(CheckValue(root));
  // The classes whose value mentions this one derive their symbols' bounds from it.
  for (const int u : std::vector<int>(users_[root])) {
    if (Root(u) != u || value_[u].is_unknown()) continue;
    if (std::min(model_upper_[u], user_upper_[u]) == kNoUpper) continue;  // nothing to derive
    OI_RETURN_IF_ERROR(CheckValue(u));
  }
  Enqueue(root);
  return OkStatus();
}

Status Unifier::LowerBound(int root, int64_t bound, bool user) {
  auto& slot = user ? user_upper_ : model_upper_;
  if (bound >= slot[root]) return OkStatus();
  LogAt(slot, root);
  slot[root] = bound;
  const std::string& leader = Leader(root);
  if (!user) {
    SetUpper(bounds_, leader, bound);
    SetUpper(model_, leader, bound);
  }
  SetUpper(full_, leader, std::min(model_upper_[root], user_upper_[root]));
  OI_RETURN_IF_ERROR(CheckRange(root));
  if (!value_[root].is_unknown()) OI_RETURN_IF_ERROR(CheckValue(root));
  // The classes whose value mentions this one derive their symbols' bounds from it.
  for (const int u : std::vector<int>(users_[root])) {
    if (Root(u) != u || value_[u].is_unknown()) continue;
    if (std::min(model_upper_[u], user_upper_[u]) == kNoUpper) continue;  // nothing to derive
    OI_RETURN_IF_ERROR(CheckValue(u));
  }
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
  // Min(k, e) == e holds exactly when e <= k, and Max(k, e) == e when e >= k (and Min(k, e)
  // == k when e >= k, Max(k, e) == k when e <= k): a bound, which the algebra then uses (Min(k,
  // e) simplifies to e), rather than an equation it cannot use.
  for (const auto& [x, y] : {std::pair{Resolve(lhs), Resolve(rhs)}, {Resolve(rhs), Resolve(lhs)}}) {
    const DimNode* n = x.node();
    if (n->kind != Kind::kMin && n->kind != Kind::kMax) continue;
    const DimNode* k = n->lhs->kind == Kind::kConst ? n->lhs : n->rhs;
    const DimNode* e = k == n->lhs ? n->rhs : n->lhs;
    if (k->kind != Kind::kConst || e->kind == Kind::kConst) continue;
    const bool is_min = n->kind == Kind::kMin;
    std::optional<int64_t> lo, hi;
    if (y.node() == e) {
      (is_min ? hi : lo) = k->value;
    } else if (y.node() == k) {
      (is_min ? lo : hi) = k->value;
    } else {
      continue;
    }
    return AssumeRelation(Dim::FromNode(e), lo, hi,
                          lhs.ToString() + " == " + rhs.ToString() + ", " + std::string(origin),
                          /*user=*/false);
  }
  Status s = Transaction([&] { return AddEquation(Fact{lhs, rhs, std::string(origin)}); });
  if (s.ok()) return s;
  return Contradiction(lhs.ToString() + " == " + rhs.ToString() + " (" + std::string(origin) + ")",
                       {lhs, rhs});
}

Status Unifier::AssumeBound(std::string_view symbol, int64_t bound, bool upper, bool user,
                            std::string_view origin) {
  const std::string text = std::string(symbol) + (upper ? " <= " : " >= ") + std::to_string(bound) +
                           " (" + (user ? std::string("assumed") : std::string(origin)) + ")";
  Status s = Transaction([&] {
    LogResize(bound_origins_);
    bound_origins_.push_back({std::string(symbol), text});
    const int root = Root(Id(symbol));
    OI_RETURN_IF_ERROR(upper ? LowerBound(root, bound, user) : RaiseBound(root, bound, user));
    return Process();
  });
  if (!s.ok()) return Contradiction(text, {Dim::Symbol(symbol)});
  if (user) has_user_assumptions_ = true;
  return s;
}

Status Unifier::AssumeAtLeast(std::string_view symbol, int64_t bound, std::string_view origin) {
  return AssumeBound(symbol, bound, /*upper=*/false, /*user=*/false, origin);
}

Status Unifier::AssumeAtMost(std::string_view symbol, int64_t bound, std::string_view origin) {
  return AssumeBound(symbol, bound, /*upper=*/true, /*user=*/false, origin);
}

Status Unifier::AssumeUser(std::string_view symbol, int64_t bound) {
  return AssumeBound(symbol, bound, /*upper=*/false, /*user=*/true, "assumed");
}

Status Unifier::AssumeUserAtMost(std::string_view symbol, int64_t bound) {
  return AssumeBound(symbol, bound, /*upper=*/true, /*user=*/true, "assumed");
}

Status Unifier::AssumeRelation(Dim expr, std::optional<int64_t> lo, std::optional<int64_t> hi,
                               std::string_view origin, bool user) {
  if (expr.is_unknown() || (!lo && !hi)) return OkStatus();
  Relation relation{expr, lo, hi, user ? std::string("assumed") : std::string(origin), user};
  if (expr.is_symbol()) {
    // A bound of one symbol.
    if (lo) OI_RETURN_IF_ERROR(AssumeBound(expr.symbol_name(), *lo, false, user, origin));
    if (hi) OI_RETURN_IF_ERROR(AssumeBound(expr.symbol_name(), *hi, true, user, origin));
    return OkStatus();
  }
  const Dim resolved = Resolve(expr);
  const std::string text = relation.ToString();
  // A class of its own bound to the expression carries the bounds: CheckValue then derives
  // what they say about the expression's symbols whenever one of them changes.
  Status s = Transaction([&] {
    LogResize(relations_);
    relations_.push_back(relation);
    if (resolved.is_const()) {
      const int64_t v = *resolved.const_value();
      if ((lo && v < *lo) || (hi && v > *hi)) return Status::Error(text);
      return OkStatus();
    }
    // Kept as text only: an expression too large, or one that may be negative (the class
    // standing for it would be a dim, >= 0).
    if (resolved.size() > kMaxValueSize || !ProvablyNonNegative(resolved.node(), nullptr)) {
      return OkStatus();
    }
    if (!user) {
      SetExprBounds(bounds_, resolved, lo, hi);
      SetExprBounds(model_, resolved, lo, hi);
    }
    SetExprBounds(full_, resolved, lo, hi);
    const std::string name = std::string(kRelationPrefix) + std::to_string(++hidden_);
    const int root = Root(Id(name));
    LogResize(bound_origins_);
    bound_origins_.push_back({name, text});
    if (lo) OI_RETURN_IF_ERROR(RaiseBound(root, *lo, user));
    if (hi) OI_RETURN_IF_ERROR(LowerBound(root, *hi, user));
    OI_RETURN_IF_ERROR(Bind(root, Substituted(resolved)));
    return Process();
  });
  if (!s.ok()) return Contradiction(text, {expr});
  if (user) has_user_assumptions_ = true;
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
