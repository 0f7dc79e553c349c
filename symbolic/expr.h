// Private to symbolic/: the interned nodes behind Dim, and the builders the simplifier files
// share. Callers outside symbolic/ use dim.h.
#ifndef ONNX_INFER_SYMBOLIC_EXPR_H_
#define ONNX_INFER_SYMBOLIC_EXPR_H_

#include <boost/container/small_vector.hpp>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer::symbolic {

// Node kinds and the invariants of the normal form (docs/symbolic.md, "Normal form").
// Every switch over Kind lists all of them (no default:), so adding a kind makes the
// compiler point at each place that must learn about it.
enum class Kind : uint8_t {
  kConst,   // value
  kSymbol,  // name
  // An atom (any kind from kSymbol down) raised to powers and multiplied:
  // terms = (atom, exponent >= 1), atoms distinct and sorted by Compare; either two or more
  // atoms or one atom with exponent >= 2. No coefficient: coefficients live in sums.
  kProduct,
  // value + Σ coeff·term: terms = (term, coeff != 0), term a product or an atom, distinct
  // and sorted by Compare. Never a bare constant and never `1·term`.
  kSum,
  // Opaque binary atoms, operands lhs and rhs in normal form. They survive only when no rule
  // of simplify_div.cc / simplify_mod.cc / simplify_min_max.cc applies:
  kFloorDiv,  // floor(lhs / rhs); rhs is not 0, 1 or -1, and is > 1 when constant
  kCeilDiv,   // ceiling(lhs / rhs); rhs is not constant and not known >= 1
  kMod,       // Mod(lhs, rhs); rhs is not 0, 1 or -1, and is > 1 when constant
  kMin,       // Min(lhs, rhs); lhs < rhs by Compare, order not provable
  kMax,       // Max(lhs, rhs); likewise
};

// A (term, coefficient) of a sum or an (atom, exponent) of a product.
using Term = std::pair<const DimNode*, int64_t>;

struct DimNode {
  Kind kind;
  int64_t value = 0;  // kConst: the value; kSum: the constant term
  std::string name;   // kSymbol
  // kSum: (term, coefficient); kProduct: (atom, exponent).
  std::vector<Term> terms;
  const DimNode* lhs = nullptr;  // binary atoms
  const DimNode* rhs = nullptr;
  int size = 1;     // nodes in the tree, counting each term and factor
  size_t hash = 0;  // structural, computed at interning
};

// The one total order on nodes, structural (never by address, so printing is the same on
// every run): constants, products, symbols by name, floor, ceiling, mod, min, max, sums;
// within a kind by contents.
int Compare(const DimNode* a, const DimNode* b);

// The fields of a node, viewed: what the table looks a node up by, so that finding one that
// exists already (nearly every lookup, in a model whose blocks repeat) builds nothing. The
// builders fill one on the stack, with `terms` in a TermBuffer or a single pair; the node is
// built from it only when the table has none equal.
struct NodeKey {
  Kind kind;
  int64_t value = 0;
  std::string_view name;
  std::span<const Term> terms;
  const DimNode* lhs = nullptr;
  const DimNode* rhs = nullptr;
  int size = 1;  // not compared: the size of the node to build (it follows from the rest)
};

// Interns the node `key` describes, whose fields already satisfy the invariants of its kind,
// in the calling thread's current SymbolContext (context.cc); its children must be of that
// context too. Equal keys give the same node, however their terms were stored.
const DimNode* Intern(const NodeKey& key);
// Intern() of the constant `value`, without building a node when it is a small one already
// interned.
const DimNode* InternConst(int64_t value);

// A memo of products of up to kProductMemoArity factors in the current context (context.cc):
// Product's result for the same factors, a lookup instead of the factors merged and interned
// again (a Reshape forms the element counts of its input and output, which recur from node to
// node). Lookup gives false when the product is not kept; `*result` may then be anything.
inline constexpr size_t kProductMemoArity = 6;
bool LookupProduct(const DimNode* const* factors, size_t count, const DimNode** result);
void RememberProduct(const DimNode* const* factors, size_t count, const DimNode* result);

// Terms collected on the stack: up to 16 of them without touching the heap (past that, on
// the heap). The builders collect a result's terms here, so interning a result that exists
// already allocates nothing.
using TermBuffer = boost::container::small_vector<Term, 16>;

// The terms of a buffer, for a NodeKey.
inline std::span<const Term> TermsOf(const TermBuffer& buffer) {
  return {buffer.data(), buffer.size()};
}

// A sum viewed as constant + terms (any node can be viewed so).
struct Poly {
  int64_t constant = 0;
  std::vector<std::pair<const DimNode*, int64_t>> terms;  // sorted, coefficient != 0
};
Poly AsPoly(const DimNode* n);
// Normalizes (sorts, merges like terms, drops zeros) and interns; null on overflow or past
// kHardSizeCap.
const DimNode* FromPoly(Poly p);

// The factors of a product term, or {(atom, 1)} for an atom; and back (sorted, merged,
// interned; null past kHardSizeCap or on exponent overflow).
std::vector<std::pair<const DimNode*, int64_t>> Factors(const DimNode* term);
const DimNode* FromFactors(std::vector<std::pair<const DimNode*, int64_t>> factors);

// Builders. Null (unknown) in gives null out, except that anything times 0 is 0.
// `as` may be null (only "symbols are >= 0").
const DimNode* Add(const DimNode* a, const DimNode* b);
const DimNode* Neg(const DimNode* a);
const DimNode* Sub(const DimNode* a, const DimNode* b);
const DimNode* Mul(const DimNode* a, const DimNode* b);
const DimNode* MulConst(const DimNode* a, int64_t c);
// Const(1)·dims[0]·dims[1]·... folded from the left, with the factors of constants and
// monomials merged once (the same node): Dim::Product.
const DimNode* Product(std::span<const Dim> dims);
// a + Const(ks[0]) + Const(ks[1]) + ... folded from the left, building one node: Dim::AddConstants.
const DimNode* AddConstants(const DimNode* a, std::span<const int64_t> ks);
const DimNode* FloorDiv(const DimNode* a, const DimNode* b, const Assumptions* as);
const DimNode* CeilDiv(const DimNode* a, const DimNode* b, const Assumptions* as);
const DimNode* Mod(const DimNode* a, const DimNode* b, const Assumptions* as);
const DimNode* Min(const DimNode* a, const DimNode* b, const Assumptions* as);
const DimNode* Max(const DimNode* a, const DimNode* b, const Assumptions* as);
const DimNode* Const(int64_t v);

// Bounds of an expression over all assignments (bounds.cc). A missing bound is infinite.
struct Interval {
  bool has_lo = false, has_hi = false;
  int64_t lo = 0, hi = 0;
  static Interval Exactly(int64_t v) { return {true, true, v, v}; }
  static Interval AtLeast(int64_t v) { return {true, false, v, 0}; }
  static Interval All() { return {}; }
};
Interval Bounds(const DimNode* n, const Assumptions* as);
bool ProvablyNonNegative(const DimNode* n, const Assumptions* as);
// LessEqual(a, b) on nodes.
Tri LessEqualNodes(const DimNode* a, const DimNode* b, const Assumptions* as);

// Floor division and modulo of constants (b != 0, no INT64_MIN / -1).
int64_t FloorDivConst(int64_t a, int64_t b);
int64_t FloorModConst(int64_t a, int64_t b);

}  // namespace onnx_infer::symbolic

#endif  // ONNX_INFER_SYMBOLIC_EXPR_H_
