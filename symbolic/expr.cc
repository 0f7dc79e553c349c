// The total order and the polynomial part of the normal form (+, -, *). Interning is in
// context.cc.
#include "onnx_infer/symbolic/expr.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace onnx_infer::symbolic {
namespace {

int KindRank(Kind k) {
  switch (k) {
    case Kind::kConst:
      return 0;
    case Kind::kProduct:  // before symbols, so sums print highest degree first
      return 1;
    case Kind::kSymbol:
      return 2;
    case Kind::kFloorDiv:
      return 3;
    case Kind::kCeilDiv:
      return 4;
    case Kind::kMod:
      return 5;
    case Kind::kMin:
      return 6;
    case Kind::kMax:
      return 7;
    case Kind::kSum:
      return 8;
  }
  return 9;
}

template <typename T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CompareTerms(const std::vector<std::pair<const DimNode*, int64_t>>& a,
                 const std::vector<std::pair<const DimNode*, int64_t>>& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (int c = Compare(a[i].first, b[i].first)) return c;
    if (int c = Cmp(a[i].second, b[i].second)) return c;
  }
  return Cmp(a.size(), b.size());
}

}  // namespace

const DimNode* Const(int64_t v) { return InternConst(v); }

int Compare(const DimNode* a, const DimNode* b) {
  if (a == b) return 0;
  if (int c = Cmp(KindRank(a->kind), KindRank(b->kind))) return c;
  switch (a->kind) {
    case Kind::kConst:
      return Cmp(a->value, b->value);
    case Kind::kSymbol:
      return Cmp(a->name, b->name);
    case Kind::kProduct:
      return CompareTerms(a->terms, b->terms);
    case Kind::kSum:
      if (int c = CompareTerms(a->terms, b->terms)) return c;
      return Cmp(a->value, b->value);
    case Kind::kFloorDiv:
    case Kind::kCeilDiv:
    case Kind::kMod:
    case Kind::kMin:
    case Kind::kMax:
      if (int c = Compare(a->lhs, b->lhs)) return c;
      return Compare(a->rhs, b->rhs);
  }
  return 0;
}

Poly AsPoly(const DimNode* n) {
  Poly p;
  switch (n->kind) {
    case Kind::kConst:
      p.constant = n->value;
      return p;
    case Kind::kSum:
      p.constant = n->value;
      p.terms = n->terms;
      return p;
    case Kind::kSymbol:
    case Kind::kProduct:
    case Kind::kFloorDiv:
    case Kind::kCeilDiv:
    case Kind::kMod:
    case Kind::kMin:
    case Kind::kMax:
      p.terms.emplace_back(n, 1);
      return p;
  }
  return p;
}

namespace {

bool SortAndMerge(std::vector<std::pair<const DimNode*, int64_t>>* items, bool drop_zero) {
  std::sort(items->begin(), items->end(),
            [](const auto& x, const auto& y) { return Compare(x.first, y.first) < 0; });
  std::vector<std::pair<const DimNode*, int64_t>> out;
  out.reserve(items->size());
  for (const auto& item : *items) {
    if (!out.empty() && out.back().first == item.first) {
      if (__builtin_add_overflow(out.back().second, item.second, &out.back().second)) {
        return false;
      }
    } else {
      out.push_back(item);
    }
  }
  if (drop_zero) {
    out.erase(std::remove_if(out.begin(), out.end(), [](const auto& x) { return x.second == 0; }),
              out.end());
  }
  *items = std::move(out);
  return true;
}

}  // namespace

std::vector<std::pair<const DimNode*, int64_t>> Factors(const DimNode* term) {
  if (term->kind == Kind::kProduct) return term->terms;
  return {{term, 1}};
}

namespace {

// FromFactors() of factors already sorted, merged and without zero exponents.
const DimNode* FromSortedFactors(std::span<const Term> factors) {
  if (factors.empty()) return Const(1);
  if (factors.size() == 1 && factors[0].second == 1) return factors[0].first;
  NodeKey n{Kind::kProduct};
  for (const auto& [atom, exp] : factors) n.size += atom->size;
  if (n.size > kHardSizeCap) return nullptr;
  n.terms = factors;
  return Intern(n);
}

// `coeff`·term for a term (an atom or a product, not a constant or a sum) and coeff != 0:
// what FromPoly() makes of the one-term polynomial, without building it.
const DimNode* ScaledTerm(const DimNode* term, int64_t coeff) {
  if (!term) return nullptr;
  if (coeff == 1) return term;
  const Term scaled{term, coeff};
  NodeKey n{Kind::kSum};
  n.size = 2 + term->size;
  if (n.size > kHardSizeCap) return nullptr;
  n.terms = std::span<const Term>(&scaled, 1);
  return Intern(n);
}

// A monomial is coeff·term with a term as above: an atom or a product (coeff 1), or a sum
// with no constant and one term. Constants and other sums are not monomials.
struct Monomial {
  int64_t coeff = 0;
  const DimNode* term = nullptr;
};
std::optional<Monomial> AsMonomial(const DimNode* n) {
  switch (n->kind) {
    case Kind::kConst:
      return std::nullopt;
    case Kind::kSum:
      if (n->value != 0 || n->terms.size() != 1) return std::nullopt;
      return Monomial{n->terms[0].second, n->terms[0].first};
    case Kind::kSymbol:
    case Kind::kProduct:
    case Kind::kFloorDiv:
    case Kind::kCeilDiv:
    case Kind::kMod:
    case Kind::kMin:
    case Kind::kMax:
      return Monomial{1, n};
  }
  return std::nullopt;
}

// Merges the factors of `term` (see Factors()) into `out`, which is sorted and merged, and
// stays so: what SortAndMerge() would make of both lists. False on exponent overflow.
bool MergeFactorsInto(const DimNode* term, TermBuffer* out) {
  const std::pair<const DimNode*, int64_t> one{term, 1};
  const auto* factors = term->kind == Kind::kProduct ? term->terms.data() : &one;
  const size_t count = term->kind == Kind::kProduct ? term->terms.size() : 1;
  size_t at = 0;  // factors are sorted too: each goes after the previous one
  for (size_t k = 0; k < count; ++k) {
    const auto& [atom, exp] = factors[k];
    while (at < out->size() && Compare((*out)[at].first, atom) < 0) ++at;
    if (at < out->size() && (*out)[at].first == atom) {
      if (__builtin_add_overflow((*out)[at].second, exp, &(*out)[at].second)) return false;
    } else {
      out->insert(out->begin() + at, Term(atom, exp));
    }
    ++at;
  }
  return true;
}

// The product of two terms: their factor lists are sorted, so one merge gives what
// FromFactors() of both lists gives (null on exponent overflow or past kHardSizeCap).
const DimNode* MulTerms(const DimNode* a, const DimNode* b) {
  const std::pair<const DimNode*, int64_t> one_a{a, 1}, one_b{b, 1};
  const auto* xa = a->kind == Kind::kProduct ? a->terms.data() : &one_a;
  const auto* xb = b->kind == Kind::kProduct ? b->terms.data() : &one_b;
  const size_t na = a->kind == Kind::kProduct ? a->terms.size() : 1;
  const size_t nb = b->kind == Kind::kProduct ? b->terms.size() : 1;
  TermBuffer out;
  out.reserve(na + nb);
  size_t i = 0, j = 0;
  while (i < na && j < nb) {
    const int c = Compare(xa[i].first, xb[j].first);
    if (c < 0) {
      out.push_back(xa[i++]);
    } else if (c > 0) {
      out.push_back(xb[j++]);
    } else {
      int64_t exp;
      if (__builtin_add_overflow(xa[i].second, xb[j].second, &exp)) return nullptr;
      out.emplace_back(xa[i].first, exp);
      ++i;
      ++j;
    }
  }
  out.insert(out.end(), xa + i, xa + na);
  out.insert(out.end(), xb + j, xb + nb);
  return FromSortedFactors(TermsOf(out));
}

}  // namespace

const DimNode* FromFactors(std::vector<std::pair<const DimNode*, int64_t>> factors) {
  if (!SortAndMerge(&factors, /*drop_zero=*/true)) return nullptr;
  return FromSortedFactors(factors);
}

namespace {

// FromPoly() of constant + terms already sorted, merged and without zero coefficients.
const DimNode* FromSortedPoly(int64_t constant, std::span<const Term> terms) {
  if (terms.empty()) return Const(constant);
  if (constant == 0 && terms.size() == 1 && terms[0].second == 1) return terms[0].first;
  NodeKey n{Kind::kSum};
  n.value = constant;
  for (const auto& [term, coeff] : terms) n.size += term->size + (coeff != 1 ? 1 : 0);
  if (n.size > kHardSizeCap) return nullptr;
  n.terms = terms;
  return Intern(n);
}

// A node as constant + Σ coeff·term without copying its terms (AsPoly() copies).
struct PolyView {
  int64_t constant = 0;
  const std::pair<const DimNode*, int64_t>* terms = nullptr;
  size_t size = 0;
  std::pair<const DimNode*, int64_t> single;  // the one term of a non-sum

  explicit PolyView(const DimNode* n) {
    if (n->kind == Kind::kConst) {
      constant = n->value;
    } else if (n->kind == Kind::kSum) {
      constant = n->value;
      terms = n->terms.data();
      size = n->terms.size();
    } else {
      single = {n, 1};
      terms = &single;
      size = 1;
    }
  }
  PolyView(const PolyView&) = delete;
  PolyView& operator=(const PolyView&) = delete;
};

// Σ of two sorted term lists, the second scaled by `sign` (1 or -1, the caller has checked
// that no coefficient overflows when negated): like terms merge, zeros drop, as
// SortAndMerge() of both lists would. False on overflow.
bool MergeTerms(const PolyView& a, const PolyView& b, int64_t sign, TermBuffer* out) {
  out->reserve(a.size + b.size);
  size_t i = 0, j = 0;
  while (i < a.size || j < b.size) {
    const int c = i == a.size ? 1 : j == b.size ? -1 : Compare(a.terms[i].first, b.terms[j].first);
    if (c < 0) {
      out->push_back(a.terms[i++]);
    } else if (c > 0) {
      out->emplace_back(b.terms[j].first, sign * b.terms[j].second);
      ++j;
    } else {
      int64_t coeff;
      if (__builtin_add_overflow(a.terms[i].second, sign * b.terms[j].second, &coeff)) {
        return false;
      }
      if (coeff != 0) out->emplace_back(a.terms[i].first, coeff);
      ++i;
      ++j;
    }
  }
  return true;
}

}  // namespace

const DimNode* FromPoly(Poly p) {
  if (!SortAndMerge(&p.terms, /*drop_zero=*/true)) return nullptr;
  return FromSortedPoly(p.constant, p.terms);
}

const DimNode* Add(const DimNode* a, const DimNode* b) {
  if (!a || !b) return nullptr;
  if (a->kind == Kind::kConst && b->kind == Kind::kConst) {
    int64_t sum;
    return __builtin_add_overflow(a->value, b->value, &sum) ? nullptr : Const(sum);
  }
  // The terms of both are sorted already: one merge, as FromPoly() of both lists.
  const PolyView pa(a), pb(b);
  int64_t constant;
  if (__builtin_add_overflow(pa.constant, pb.constant, &constant)) return nullptr;
  TermBuffer out;
  if (!MergeTerms(pa, pb, 1, &out)) return nullptr;
  return FromSortedPoly(constant, TermsOf(out));
}

const DimNode* MulConst(const DimNode* a, int64_t c) {
  if (c == 0) return Const(0);
  if (!a) return nullptr;
  if (c == 1) return a;
  if (a->kind == Kind::kConst) {
    int64_t v;
    return __builtin_mul_overflow(a->value, c, &v) ? nullptr : Const(v);
  }
  if (auto m = AsMonomial(a)) {  // c·k·t: no polynomial to build
    int64_t coeff;
    if (__builtin_mul_overflow(m->coeff, c, &coeff)) return nullptr;
    return ScaledTerm(m->term, coeff);
  }
  // Scaling by c != 0 keeps the terms' order and leaves no coefficient 0.
  const PolyView p(a);
  int64_t constant;
  if (__builtin_mul_overflow(p.constant, c, &constant)) return nullptr;
  TermBuffer out;
  out.reserve(p.size);
  for (size_t i = 0; i < p.size; ++i) {
    int64_t coeff;
    if (__builtin_mul_overflow(p.terms[i].second, c, &coeff)) return nullptr;
    out.emplace_back(p.terms[i].first, coeff);
  }
  return FromSortedPoly(constant, TermsOf(out));
}

const DimNode* Neg(const DimNode* a) { return MulConst(a, -1); }

const DimNode* Sub(const DimNode* a, const DimNode* b) {
  if (!a || !b) return nullptr;
  if (a == b) return Const(0);
  if (b->kind == Kind::kConst || b->size >= kHardSizeCap / 2) return Add(a, Neg(b));
  // a + Neg(b) without interning Neg(b). Neg(b) is unknown when a coefficient or the
  // constant is INT64_MIN, and so is the difference then; it has at most twice b's size
  // (b's size + 2 for a single term), so below half the cap it is never cut off.
  const PolyView pa(a), pb(b);
  if (pb.constant == INT64_MIN) return nullptr;
  for (size_t j = 0; j < pb.size; ++j) {
    if (pb.terms[j].second == INT64_MIN) return nullptr;
  }
  int64_t constant;
  if (__builtin_sub_overflow(pa.constant, pb.constant, &constant)) return nullptr;
  TermBuffer out;
  if (!MergeTerms(pa, pb, -1, &out)) return nullptr;
  return FromSortedPoly(constant, TermsOf(out));
}

const DimNode* Mul(const DimNode* a, const DimNode* b) {
  // Anything times 0 is 0, even an unknown: that is not a guess.
  if ((a && a->kind == Kind::kConst && a->value == 0) ||
      (b && b->kind == Kind::kConst && b->value == 0)) {
    return Const(0);
  }
  if (!a || !b) return nullptr;
  if (a->kind == Kind::kConst) return MulConst(b, a->value);
  if (b->kind == Kind::kConst) return MulConst(a, b->value);
  // (k·t)(k'·t') = (k·k')·(t·t'): what distributing gives, without the polynomials.
  if (auto ma = AsMonomial(a)) {
    if (auto mb = AsMonomial(b)) {
      int64_t coeff;
      if (__builtin_mul_overflow(ma->coeff, mb->coeff, &coeff)) return nullptr;
      return ScaledTerm(MulTerms(ma->term, mb->term), coeff);
    }
  }
  // Distribute: (k + Σ c·t)(k' + Σ c'·t').
  Poly pa = AsPoly(a), pb = AsPoly(b);
  if ((pa.terms.size() + 1) * (pb.terms.size() + 1) > static_cast<size_t>(kHardSizeCap)) {
    return nullptr;
  }
  Poly out;
  if (__builtin_mul_overflow(pa.constant, pb.constant, &out.constant)) return nullptr;
  auto scaled = [&](const Poly& p, int64_t k) {
    for (const auto& [t, c] : p.terms) {
      int64_t coeff;
      if (__builtin_mul_overflow(c, k, &coeff)) return false;
      out.terms.emplace_back(t, coeff);
    }
    return true;
  };
  if (!scaled(pa, pb.constant) || !scaled(pb, pa.constant)) return nullptr;
  for (const auto& [ta, ca] : pa.terms) {
    for (const auto& [tb, cb] : pb.terms) {
      int64_t coeff;
      if (__builtin_mul_overflow(ca, cb, &coeff)) return nullptr;
      auto factors = Factors(ta);
      auto fb = Factors(tb);
      factors.insert(factors.end(), fb.begin(), fb.end());
      const DimNode* term = FromFactors(std::move(factors));
      if (!term) return nullptr;
      out.terms.emplace_back(term, coeff);
    }
  }
  return FromPoly(std::move(out));
}

namespace {
const DimNode* ProductOf(std::span<const Dim> dims);
}  // namespace

const DimNode* Product(std::span<const Dim> dims) {
  if (dims.size() > kProductMemoArity) return ProductOf(dims);
  const DimNode* factors[kProductMemoArity];
  for (size_t i = 0; i < dims.size(); ++i) factors[i] = dims[i].node();
  const DimNode* result;
  if (LookupProduct(factors, dims.size(), &result)) return result;
  result = ProductOf(dims);
  RememberProduct(factors, dims.size(), result);
  return result;
}

namespace {

const DimNode* ProductOf(std::span<const Dim> dims) {
  // What multiplying from the left gives, Const(1)·d0·d1·...: 0 absorbs even unknowns, else
  // an unknown makes the product unknown.
  for (Dim d : dims) {
    if (d.const_value() == 0) return Const(0);
  }
  for (Dim d : dims) {
    if (d.is_unknown()) return nullptr;
  }
  // Constants and monomials: the coefficients multiply in the same order as from the left
  // (so an overflow is the same overflow), the factors merge once. Every intermediate node
  // of the left fold is at most 3 + the operands' total size, so below this bound neither
  // way meets kHardSizeCap and both give the same node.
  int64_t coeff = 1;
  int total = 0;
  bool monomials = true;
  TermBuffer factors;
  factors.reserve(dims.size() + 2);
  for (Dim dim : dims) {
    const DimNode* d = dim.node();
    if (d->kind == Kind::kConst) {
      if (__builtin_mul_overflow(coeff, d->value, &coeff)) return nullptr;
      continue;
    }
    auto m = AsMonomial(d);
    total += d->size;
    if (!m || total + 3 > kHardSizeCap) {
      monomials = false;
      break;
    }
    if (__builtin_mul_overflow(coeff, m->coeff, &coeff)) return nullptr;
    // Exponents only grow: an overflow here is one the left fold meets too.
    if (!MergeFactorsInto(m->term, &factors)) return nullptr;
  }
  if (monomials) {
    if (factors.empty()) return Const(coeff);
    return ScaledTerm(FromSortedFactors(TermsOf(factors)), coeff);
  }
  const DimNode* p = Const(1);
  for (Dim d : dims) p = Mul(p, d.node());
  return p;
}

}  // namespace

const DimNode* AddConstants(const DimNode* a, std::span<const int64_t> ks) {
  if (!a || ks.empty()) return a;
  // Each step of the left fold keeps a's terms and moves the constant, unknown once the
  // constant overflows. An atom at the size cap is the exception: a step with a constant
  // other than 0 makes a sum past the cap (unknown), which the steps must then meet.
  const bool atom = a->kind != Kind::kConst && a->kind != Kind::kSum;
  if (atom && a->size + 1 > kHardSizeCap) {
    for (int64_t k : ks) a = Add(a, Const(k));
    return a;
  }
  const PolyView p(a);
  int64_t constant = p.constant;
  for (int64_t k : ks) {
    if (__builtin_add_overflow(constant, k, &constant)) return nullptr;
  }
  if (a->kind == Kind::kConst) return Const(constant);
  return FromSortedPoly(constant, std::span<const Term>(p.terms, p.size));
}

int64_t FloorDivConst(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t FloorModConst(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace onnx_infer::symbolic
