// Dim: one dimension of a tensor shape, as an expression over integer symbols. It is a known
// integer, a named symbol ("N"), an expression ("N + 5", "2*N", "floor((H - 1)/2) + 1"), or
// unknown. A Dim is a pointer-sized, immutable handle to an interned node: constructors
// simplify into one normal form before interning, so two Dims that are the same expression
// are the same pointer, and comparison and hashing are O(1).
//
// The node belongs to the SymbolContext that was current on the thread that made the Dim
// (symbolic/context.h: the innermost open SymbolContext::Scope, else the process-wide
// default), and the Dim is valid exactly as long as that context lives. Dims of different
// contexts are not to be combined or compared.
//
// The normal form, the simplification rules and what they prove are written down in
// docs/symbolic.md. In short: a sum of products (constant + Σ coeff·Π atom^exp, terms sorted
// by one total order), where atoms are symbols and opaque floor(a/b), ceiling(a/b),
// Mod(a, b), Min(a, b), Max(a, b) nodes whose operands are themselves in normal form.
//
// Every symbol denotes a dimension, so it is >= 0 (per-symbol lower bounds above 0 are given
// through Assumptions). Results hold wherever the expression is defined (no division by
// zero). Unknown stays unknown through any arithmetic, and so does a constant that would
// overflow int64: the algebra never guesses.
//
// symbolic/ knows nothing of ONNX. The node kinds are private (see expr.h).
#ifndef ONNX_INFER_SYMBOLIC_DIM_H_
#define ONNX_INFER_SYMBOLIC_DIM_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace onnx_infer::symbolic {

struct DimNode;  // private: see expr.h

// The answer to a question about dims that may not be decidable.
enum class Tri { kFalse, kTrue, kUnknown };

class Dim;
class Unifier;

// What is known about symbols beyond "every symbol is >= 0": lower bounds (per symbol, and
// one for every symbol, e.g. 1 under --assume-positive), upper bounds (per symbol: S <= 4096)
// and multiples (`Mod(C, 2) == 0`).
// Queries and Simplify() may use them; plain construction does not, so an interned node never
// depends on who asked. Multiples are keyed by interned nodes, so an Assumptions holding any
// is tied to the SymbolContext of those nodes.
class Assumptions {
 public:
  // Raises the lower bound of `symbol` to at least `bound` (bounds only ever grow).
  void SetLowerBound(std::string_view symbol, int64_t bound);
  // Raises the lower bound of every symbol to at least `bound`.
  void SetDefaultLowerBound(int64_t bound);
  // The lower bound of `symbol`: 0 unless raised.
  int64_t LowerBound(std::string_view symbol) const;
  // Lowers the upper bound of `symbol` to at most `bound` (bounds only ever shrink).
  void SetUpperBound(std::string_view symbol, int64_t bound);
  // The upper bound of `symbol`, if it has one.
  std::optional<int64_t> UpperBound(std::string_view symbol) const;
  // Bounds of a sum of terms (a relation such as P + S <= 4096): lo <= expr <= hi, either
  // absent. Bounds() of a sum with the same terms (any constant) takes them into account.
  void SetExprBounds(Dim expr, std::optional<int64_t> lo, std::optional<int64_t> hi);
  const std::map<const DimNode*, std::pair<int64_t, int64_t>>& expr_bounds() const {
    return expr_bounds_;
  }
  // Records that `term` is a multiple of `modulus` (> 1): Mod(term, modulus) == 0. `term` is
  // one term of a sum (a symbol, a product, floor(...)...), not a sum or a constant; others
  // are ignored. Several moduli of one term combine (2 and 3 give 6).
  void AddMultipleOf(Dim term, int64_t modulus);
  // The largest modulus `term` is known to be a multiple of: 1 when none is.
  int64_t KnownModulus(const DimNode* term) const;
  bool has_multiples() const { return !multiples_.empty(); }
  // Every term known to be a multiple, with its modulus (for reports: `Mod(C, 2) == 0`).
  const std::map<const DimNode*, int64_t>& multiples() const { return multiples_; }
  bool empty() const {
    return lower_.empty() && upper_.empty() && default_lower_ <= 0 && multiples_.empty() &&
           expr_bounds_.empty();
  }

 private:
  friend class Unifier;  // restores entries when it rolls back a rejected fact
  std::map<std::string, int64_t, std::less<>> lower_;
  std::map<std::string, int64_t, std::less<>> upper_;
  int64_t default_lower_ = 0;
  std::map<const DimNode*, int64_t> multiples_;
  // Sums without their constant term -> (lo, hi) with INT64_MIN / INT64_MAX for none.
  std::map<const DimNode*, std::pair<int64_t, int64_t>> expr_bounds_;
};

class Dim {
 public:
  Dim() = default;  // unknown
  static Dim Unknown() { return Dim(); }
  static Dim Const(int64_t value);
  // A named symbol. An empty name is unknown. The name is kept exactly as given.
  static Dim Symbol(std::string_view name);

  bool is_unknown() const { return node_ == nullptr; }
  bool is_const() const;
  bool is_symbol() const;
  // Neither unknown, constant nor a plain symbol: a sum, product, floor, mod, min, max...
  bool is_expr() const;
  // The value of a constant dim.
  std::optional<int64_t> const_value() const;
  // The name of a symbol dim; empty otherwise.
  std::string_view symbol_name() const;
  // Number of nodes in the expression tree (0 for unknown, 1 for a constant or symbol).
  int size() const;
  // The names of the symbols the expression uses, sorted.
  std::vector<std::string> Symbols() const;

  // "5", "N", "N + 5", "floor((H - 1)/2) + 1" or "?": the dim_param syntax of
  // docs/symbolic.md, which sympy parses to the same expression.
  std::string ToString() const;

  // Structural identity: the same normal form, or both unknown. Because the normal form is
  // canonical for polynomials, `N + 5 == 5 + N`. This is not "known equal at run time": see
  // Equal() for that.
  friend bool operator==(Dim a, Dim b) { return a.node_ == b.node_; }
  friend bool operator!=(Dim a, Dim b) { return a.node_ != b.node_; }
  size_t Hash() const { return std::hash<const void*>()(node_); }

  // Arithmetic, simplified into the normal form. Unknown operands give unknown (except that
  // anything times 0 is 0); int64 overflow and results larger than the hard size cap give
  // unknown.
  friend Dim operator+(Dim a, Dim b);
  friend Dim operator-(Dim a, Dim b);
  friend Dim operator*(Dim a, Dim b);
  // floor(a / b); unknown when b is zero.
  static Dim FloorDiv(Dim a, Dim b);
  // ceiling(a / b); unknown when b is zero.
  static Dim CeilDiv(Dim a, Dim b);
  // a - b*floor(a/b) (the sign of b, as Python and sympy's Mod); unknown when b is zero.
  static Dim Mod(Dim a, Dim b);
  static Dim Min(Dim a, Dim b);
  static Dim Max(Dim a, Dim b);
  // The product of `dims`, the same Dim as multiplying them from the left (1 for none):
  // 0 if any is 0, else unknown if any is unknown. Cheaper than the loop: constants fold
  // and the factors are sorted once.
  static Dim Product(const std::vector<Dim>& dims);
  // a + k0 + k1 + ...: the same Dim as adding Dim::Const(k) one at a time from the left (an
  // overflow on the way gives the same unknown), with one node built instead of one a step.
  static Dim AddConstants(Dim a, std::initializer_list<int64_t> ks);

  // For symbolic/ itself.
  const DimNode* node() const { return node_; }
  static Dim FromNode(const DimNode* node) { return Dim(node); }

 private:
  explicit Dim(const DimNode* node) : node_(node) {}
  const DimNode* node_ = nullptr;
};

// Three-valued comparison: kTrue when provable for every assignment of the symbols (each
// >= its lower bound), kFalse when provably never, kUnknown otherwise or when either side is
// unknown. Never a guess.
Tri Equal(Dim a, Dim b, const Assumptions* assumptions = nullptr);
Tri LessEqual(Dim a, Dim b, const Assumptions* assumptions = nullptr);

// Rebuilds `d` bottom-up using the assumptions (e.g. Max(N, 1) is N once N >= 1).
Dim Simplify(Dim d, const Assumptions& assumptions);

// The value of `d` when every symbol is given; nullopt if a symbol is missing, `d` is
// unknown, or evaluation divides by zero or overflows.
std::optional<int64_t> Evaluate(Dim d, const std::map<std::string, int64_t, std::less<>>& values);

// Replaces symbols by dims (symbols not in the map stay), re-simplifying.
Dim Substitute(Dim d, const std::map<std::string, Dim, std::less<>>& values);

// Expressions larger than this (in nodes, see Dim::size) are not kept in shapes: callers
// replace them by a fresh symbol and record a note (CapSize). Arithmetic itself gives
// unknown only past kHardSizeCap, which stops a blow-up inside one computation.
inline constexpr int kMaxExprSize = 64;
inline constexpr int kHardSizeCap = 1024;

// A symbol for a dim that cannot be expressed, named from where it comes from so that the
// name is the same on every run: FreshSymbol("nz", 1) is "nz__d1". Characters other than
// letters, digits and '_' in the value name become '_' so the name stays a sympy symbol.
Dim FreshSymbol(std::string_view value_name, int64_t axis);

// `d` if it is within kMaxExprSize, else FreshSymbol(value_name, axis) with `*note` set to
// say what was replaced.
Dim CapSize(Dim d, std::string_view value_name, int64_t axis, std::string* note);

std::ostream& operator<<(std::ostream& os, Dim d);

}  // namespace onnx_infer::symbolic

template <>
struct std::hash<onnx_infer::symbolic::Dim> {
  size_t operator()(onnx_infer::symbolic::Dim d) const { return d.Hash(); }
};

#endif  // ONNX_INFER_SYMBOLIC_DIM_H_
