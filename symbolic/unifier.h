// Unifier: what a whole model says about its symbols. A union-find over symbol names, each
// class optionally bound to a constant, plus equations that are not of that shape (kept as
// facts: B*S == 768) and per-symbol lower bounds. Every fact remembers where it came from, so
// a contradiction names both sides:
//
//   Unifier u;
//   u.Unify(N, Dim::Const(4), "node 'a' input 0 dim 0");   // ok
//   u.Unify(N, Dim::Const(3), "node 'b' input 1 dim 0");
//   // error: N == 3 (node 'b' input 1 dim 0) contradicts N == 4 (node 'a' input 0 dim 0)
//
// Not thread-safe: one Unifier per inference run.
#ifndef ONNX_INFER_SYMBOLIC_UNIFIER_H_
#define ONNX_INFER_SYMBOLIC_UNIFIER_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer::symbolic {

struct Fact {
  Dim lhs, rhs;        // as given
  std::string origin;  // where it came from, e.g. "node #3 'mm' (MatMul): contracted dims"
  std::string ToString() const;  // "N == M (origin)"
};

class Unifier {
 public:
  // Records lhs == rhs. Unknown on either side records nothing. Returns an error naming the
  // earlier facts it contradicts (the fact is then not recorded).
  Status Unify(Dim lhs, Dim rhs, std::string_view origin);
  // Records symbol >= bound.
  Status AssumeAtLeast(std::string_view symbol, int64_t bound, std::string_view origin);
  // A condition the model must satisfy that the algebra cannot state as an equation, e.g.
  // the side condition of a symbolic broadcast. Kept for reports; never a contradiction.
  void AddCondition(std::string condition, std::string_view origin);

  // `d` with each symbol replaced by its class's constant, else its class's representative
  // (the smallest name), re-simplified under the lower bounds.
  Dim Resolve(Dim d) const;
  // Equal / LessEqual after Resolve, under the recorded lower bounds.
  Tri Equal(Dim a, Dim b) const;
  Tri LessEqual(Dim a, Dim b) const;

  const std::vector<Fact>& facts() const { return facts_; }
  const std::vector<std::string>& conditions() const { return conditions_; }
  const Assumptions& assumptions() const { return assumptions_; }

 private:
  struct Binding {
    int64_t value;
    std::string origin;
  };

  std::string Find(const std::string& name) const;
  Status Contradiction(Dim lhs, Dim rhs, std::string_view origin, Dim also = Dim()) const;
  // Applies X == value (a constant or another representative symbol).
  void Apply(Dim lhs, Dim rhs, std::string_view origin);
  // Re-checks the kept equations after a class changed.
  Status Recheck();

  mutable std::map<std::string, std::string> parent_;  // path compression in Find
  std::map<std::string, Binding> binding_;             // by class representative
  Assumptions assumptions_;                            // by class representative
  std::vector<Fact> facts_;                            // everything recorded, in order
  std::vector<Fact> equations_;                        // not yet reduced to a binding
  std::vector<std::string> conditions_;                // "condition (origin)"
};

}  // namespace onnx_infer::symbolic

#endif  // ONNX_INFER_SYMBOLIC_UNIFIER_H_
