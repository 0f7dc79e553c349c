// Unifier: what a whole model says about its symbols. A union-find over symbol names, each
// class optionally bound to a value (a constant, or an expression over other classes), plus
// equations that are not of that shape (kept as facts: B*S == 768, N*Mod(C, 2) == 0), the
// multiples they imply (Mod(C, 2) == 0) and per-symbol lower bounds. Every fact remembers
// where it came from, so a contradiction names both sides:
//
//   Unifier u;
//   u.Unify(N, Dim::Const(4), "node 'a' input 0 dim 0");   // ok
//   u.Unify(N, Dim::Const(3), "node 'b' input 1 dim 0");
//   // error: N == 3 (node 'b' input 1 dim 0) contradicts N == 4 (node 'a' input 0 dim 0)
//
// Cost: near-linear in the number of facts. Classes are merged by size, a kept equation is
// re-checked only when a class it mentions changes, and a rejected fact is rolled back from
// a log of what it changed (never by copying the state).
//
// Besides what the model says, the user may state assumptions (AssumeUser, AssumeAllPositive:
// `--assume 'S >= 2'`, `--assume-positive`). They take part in Resolve, Equal and LessEqual
// and in finding contradictions, but not in assumptions(), which is what the model alone
// says; Resolve(d, &used) tells which of them a result needed, so that a report can list it
// as a condition.
//
// Not thread-safe: one Unifier per inference run.
#ifndef ONNX_INFER_SYMBOLIC_UNIFIER_H_
#define ONNX_INFER_SYMBOLIC_UNIFIER_H_

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer::symbolic {

// What is known of one symbol's range, for reports: lo <= symbol <= hi, each bound with the
// statements it came from ("S <= 4096 (node 'add' (Add): ...)"), the model's and the user's.
struct SymbolBounds {
  std::string symbol;
  int64_t lo = 0;
  std::optional<int64_t> hi;
  bool lo_assumed = false, hi_assumed = false;  // the bound is the user's, not the model's
  std::vector<std::string> origins;
};

// A linear relation stated about several symbols: expr <= bound (or >=), with where it came
// from: the user's `--assume 'P + S <= 4096'`, or a condition of the model.
struct Relation {
  Dim expr;
  std::optional<int64_t> lo, hi;
  std::string origin;
  bool user = false;
  std::string ToString() const;   // "P + S <= 4096 (assumed)"
  std::string Statement() const;  // without the origin: "P + S <= 4096"
};

struct Fact {
  Dim lhs, rhs;        // as given
  std::string origin;  // where it came from, e.g. "node #3 'mm' (MatMul): contracted dims"
  std::string ToString() const;  // "N == M (origin)"
};

class Unifier {
 public:
  // Records lhs == rhs. Unknown on either side records nothing, and so does a fact already
  // known. Returns an error naming the earlier facts it contradicts (the fact is then not
  // recorded and nothing changes). What is recorded, once both sides are resolved and
  // a = lhs - rhs:
  //   X - Y            the classes of X and Y merge (the smaller name represents them);
  //   c·X + k, c | k   X is bound to -k/c;
  //   X - e            X is bound to e when X has coefficient ±1, appears nowhere else in a
  //                    and e is small (G == 4*H binds G to 4*H): every later dim is written
  //                    without X;
  //   anything else    kept as an equation, re-checked when a class it mentions changes. A
  //                    kept equation P·Mod(x, c) == 0 whose other factors P are known >= 1
  //                    also says that x is a multiple of c, which Resolve then uses
  //                    (2*floor(C/2) is C once Mod(C, 2) == 0).
  Status Unify(Dim lhs, Dim rhs, std::string_view origin);
  // Records symbol >= bound, as the model says it.
  Status AssumeAtLeast(std::string_view symbol, int64_t bound, std::string_view origin);
  // Records symbol <= bound, as the model says it (a broadcast that holds only below a
  // constant, TopK's k within its axis).
  Status AssumeAtMost(std::string_view symbol, int64_t bound, std::string_view origin);
  // The user's assumption symbol >= bound. An error when it contradicts what is known.
  Status AssumeUser(std::string_view symbol, int64_t bound);
  // The user's assumption symbol <= bound.
  Status AssumeUserAtMost(std::string_view symbol, int64_t bound);
  // lo <= expr <= hi (either may be absent) for an expression over several symbols, the
  // model's (`user` false, with its origin) or the user's. Each symbol of a sum of symbols
  // with positive coefficients gets the bounds the relation implies given the others' (P + S
  // <= 4096 with S >= 1 gives P <= 4095), re-derived whenever what is known of them changes;
  // a relation on a single symbol is a bound of it. An error when it contradicts what is known.
  Status AssumeRelation(Dim expr, std::optional<int64_t> lo, std::optional<int64_t> hi,
                        std::string_view origin, bool user);
  // The user's assumption that every symbol, including those the model introduces later, is
  // >= 1 (onnxruntime's symbolic shape inference assumes so).
  Status AssumeAllPositive();
  // A condition the model must satisfy that the algebra cannot state as an equation, e.g.
  // the side condition of a symbolic broadcast. Kept for reports (once); never a
  // contradiction.
  void AddCondition(std::string condition, std::string_view origin);

  // `d` with each symbol replaced by its class's value, else its class's representative
  // (the smallest name), re-simplified under the lower bounds, the known multiples and the
  // user's assumptions. Remembered until the next change of what is known.
  Dim Resolve(Dim d) const;
  // The same; and when the result differs from what the model alone gives, `*used` is set to
  // the user's assumptions it needed ("S >= 2") and `*without` (if given) to what the model
  // alone gives; else `*used` is cleared.
  Dim Resolve(Dim d, std::vector<std::string>* used, Dim* without = nullptr) const;
  // Whether the model has stated an upper bound or a relation (what RefineByModelBounds
  // uses).
  bool has_model_upper_bounds() const {
    return !model_.upper_.empty() || !model_.expr_bounds_.empty();
  }
  // `d`, a dim written before everything now known was learnt, resolved again when the
  // result needs an upper bound or a relation the model states (a broadcast that holds only
  // for seq <= 4096 makes Min(4096, seq) seq): the result, with `*used` set to those bounds
  // ("seq <= 4096", "P + S <= 4096"). Otherwise (no such bound needed, the result would be
  // `d` anyway) `d` unchanged and `*used` empty. The result equals `d` at every binding that
  // satisfies the bounds in `*used`, which every input the model accepts does: an input
  // violating one is rejected by the node that states it. A change that needs no bound (a
  // fact learnt later) is not made here.
  Dim RefineByModelBounds(Dim d, std::vector<std::string>* used) const;
  // Equal / LessEqual after Resolve, under everything known and assumed.
  Tri Equal(Dim a, Dim b) const;
  Tri LessEqual(Dim a, Dim b) const;

  const std::vector<Fact>& facts() const { return facts_; }
  const std::vector<std::string>& conditions() const { return conditions_; }
  // Every class with a bound beyond >= 0 (by its representative, in name order), and the
  // relations stated.
  std::vector<SymbolBounds> BoundsOfSymbols() const;
  const std::vector<Relation>& relations() const { return relations_; }
  // The bounds of `d` under everything known and assumed (lower, upper; absent: infinite).
  std::pair<std::optional<int64_t>, std::optional<int64_t>> BoundsOf(Dim d) const;
  // What the model says about its symbols' representatives: lower bounds and multiples
  // (without the user's assumptions), for rules that compare dims themselves.
  const Assumptions& assumptions() const { return model_; }
  // LessEqual(k, d) under assumptions(): the same answer, remembered until the state changes
  // (a Reshape asks whether `1 <= B` and `0 <= S` of the same few dims at every node).
  Tri ProvenAtLeastByModel(Dim d, int64_t k) const;
  // The same with the user's assumptions too; a rule that decides something only under these
  // must list the assumptions it used (UserAssumptionsOf) among the conditions.
  const Assumptions& full_assumptions() const { return full_; }
  // The user's bounds on the symbols of `dims` that go beyond the model's, as text
  // ("S >= 2", "S <= 2048").
  std::vector<std::string> UserAssumptionsOf(const std::vector<Dim>& dims) const;
  bool has_user_assumptions() const { return has_user_assumptions_; }

 private:
  struct Equation {
    Fact fact;
    bool active = true;  // false once it says nothing more than what is recorded
  };
  // A multiple that holds only under some of the user's bounds (N*Mod(C, 2) == 0 with N >= 1
  // assumed): the term, the modulus, and the bounds it needs.
  // A user's bound: (representative, is an upper bound, bound); or a relation of the user's:
  // ("", false, its index in relations_).
  using UserBound = std::tuple<std::string, bool, int64_t>;
  struct UserMultiple {
    Dim term;
    int64_t modulus = 1;
    std::vector<UserBound> needs;
  };

  // Symbol ids; Root follows parents (no path compression, so a rollback can undo unions;
  // union by size keeps paths logarithmic).
  int Id(std::string_view name);
  int FindId(std::string_view name) const;
  int Root(int id) const;
  const std::string& Leader(int root) const { return names_[leader_[root]]; }

  // `d` with every symbol replaced by its class's value or representative, not simplified.
  Dim Substituted(Dim d) const;
  Dim ResolveUnder(Dim d, const Assumptions& as) const;
  // The user's bounds tighter than the model's on the symbols of `d`.
  std::vector<UserBound> UserBoundsOf(Dim d) const;

  // Adds an equation and reduces it and whatever it touches.
  Status AddEquation(Fact fact);
  // Reduces the queued equations; each is re-queued only when a class it mentions changes.
  Status Process();
  Status Reduce(int equation);
  Status Merge(int root_a, int root_b);
  Status Bind(int root, Dim value);
  // Re-substitutes the values of `users`, roots whose value mentions a class that changed.
  Status Refresh(const std::vector<int>& users);
  // The bounds of class `root` against its value, and what they say about its symbol.
  Status CheckValue(int root);
  // Raises the model's (`user` false) or the user's lower bound of a class.
  Status RaiseBound(int root, int64_t bound, bool user);
  // Lowers the model's or the user's upper bound of a class.
  Status LowerBound(int root, int64_t bound, bool user);
  // An error when a class's lower bounds exceed its upper bounds.
  Status CheckRange(int root) const;
  // The bounds X == value implies for the symbols of a sum of symbols with positive
  // coefficients, from X's bounds and the other symbols' (`user`: with the user's too).
  Status PropagateToTerms(int root, bool user);
  // Re-checks `equation` when a class of a symbol of `resolved` changes.
  void Watch(int equation, Dim resolved);
  void Enqueue(int root);

  // "`what` contradicts <the earlier facts and bounds about the symbols of dims>".
  Status Contradiction(const std::string& what, const std::vector<Dim>& dims) const;

  // Runs `change` with every change logged; on error undoes them all and returns the error.
  Status Transaction(const std::function<Status()>& change);
  template <typename V>
  void LogAt(V& vec, size_t i) {  // a rollback restores vec[i]
    if (logging_) undo_.push_back([&vec, i, old = vec[i]] { vec[i] = old; });
  }
  template <typename V>
  void LogResize(V& vec) {  // a rollback drops what was appended to vec
    if (logging_) undo_.push_back([&vec, n = vec.size()] { vec.resize(n); });
  }
  template <typename V>
  void LogSize(V& lists, size_t i) {  // a rollback drops what was appended to lists[i]
    if (logging_) undo_.push_back([&lists, i, n = lists[i].size()] { lists[i].resize(n); });
  }
  void SetLogged(std::map<std::string, int64_t, std::less<>>& map, const std::string& name,
                 int64_t bound);
  void SetBound(Assumptions& as, const std::string& name, int64_t bound);
  void SetUpper(Assumptions& as, const std::string& name, int64_t bound);
  void SetExprBounds(Assumptions& as, Dim expr, std::optional<int64_t> lo,
                     std::optional<int64_t> hi);
  // Applies user bound `b` to `as`.
  void Apply(const UserBound& b, Assumptions& as) const;
  std::string Describe(const UserBound& b) const;
  Status AssumeBound(std::string_view symbol, int64_t bound, bool upper, bool user,
                     std::string_view origin);
  void AddMultiple(Assumptions& as, Dim term, int64_t modulus);

  // Per symbol id.
  std::unordered_map<std::string, int> ids_;
  std::vector<std::string> names_;
  std::vector<int> parent_;
  // Per root (entries of ids that are no longer roots are stale).
  std::vector<int> size_;
  std::vector<int> leader_;  // the id of the smallest name in the class
  std::vector<Dim> value_;   // unknown when unbound; mentions only unbound representatives
  std::vector<int64_t> model_bound_, user_bound_;
  std::vector<int64_t> model_upper_, user_upper_;  // kNoUpper when none
  std::vector<std::vector<int>> watchers_;         // equations that mention the class
  std::vector<std::vector<int>> users_;            // roots whose value mentions the class

  std::vector<Fact> facts_;              // everything recorded, in order
  std::vector<Equation> equations_;      // every recorded fact, reduced or kept
  std::vector<std::string> conditions_;  // "condition (origin)"
  std::unordered_set<std::string> condition_set_;
  // (symbol, "N >= 1 (origin)") for every bound stated, for contradictions.
  std::vector<std::pair<std::string, std::string>> bound_origins_;
  std::vector<UserMultiple> user_multiples_;
  std::vector<Relation> relations_;
  int hidden_ = 0;  // relation classes made so far ("__relation1")

  // The model's lower bounds alone (for re-checking equations, which must not be proved by
  // the multiples they imply themselves); with the multiples (what the model says); and
  // with the user's bounds and multiples too (what Resolve uses).
  Assumptions bounds_, model_, full_;
  bool has_user_assumptions_ = false;
  bool all_positive_ = false;

  std::vector<int> queue_;    // equations to reduce
  std::vector<char> queued_;  // per equation: in queue_
  bool logging_ = false;
  std::vector<std::function<void()>> undo_;
  // What Resolve(d) gave since the state last changed: every change goes through
  // Transaction, which empties it. A model resolves the same few dims at every node (the
  // driver resolves each output dim), and a resolution costs hundreds of instructions. Like
  // the rest of a Unifier, not for use from several threads at once.
  mutable std::unordered_map<Dim, Dim> resolved_;
  // ProvenAtLeastByModel's answers since the state last changed (Transaction moves to a new
  // generation): direct-mapped by the dim's node and the constant.
  struct AtLeastEntry {
    const DimNode* d = nullptr;
    int64_t k = 0;
    uint64_t generation = 0;  // 0: empty
    Tri answer = Tri::kUnknown;
  };
  static constexpr size_t kAtLeastSlots = 64;
  mutable std::array<AtLeastEntry, kAtLeastSlots> at_least_{};
  // In front of resolved_: the last resolutions, direct-mapped by the dim's node (a hash
  // table's lookup costs more than the few dims a model resolves again and again).
  struct ResolvedEntry {
    const DimNode* d = nullptr;
    uint64_t generation = 0;  // 0: empty
    Dim resolved;
  };
  static constexpr size_t kResolvedSlots = 256;
  mutable std::array<ResolvedEntry, kResolvedSlots> recent_{};
  uint64_t generation_ = 1;
};

}  // namespace onnx_infer::symbolic

#endif  // ONNX_INFER_SYMBOLIC_UNIFIER_H_
