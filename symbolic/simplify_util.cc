#include "onnx_infer/symbolic/simplify_util.h"

#include <map>
#include <numeric>

namespace onnx_infer::symbolic {

Split SplitMultiples(const DimNode* a, int64_t c) {
  Split s;
  Poly p = AsPoly(a);
  Poly q, r;
  q.constant = FloorDivConst(p.constant, c);
  r.constant = FloorModConst(p.constant, c);
  for (const auto& [term, coeff] : p.terms) {
    int64_t qc = FloorDivConst(coeff, c), rc = FloorModConst(coeff, c);
    if (qc != 0) q.terms.emplace_back(term, qc);
    if (rc != 0) r.terms.emplace_back(term, rc);
  }
  s.quotient = FromPoly(std::move(q));
  s.remainder = FromPoly(std::move(r));
  s.ok = s.quotient && s.remainder;
  return s;
}

int64_t CommonFactor(const DimNode* a, int64_t c) {
  Poly p = AsPoly(a);
  if (c == INT64_MIN || p.constant == INT64_MIN) return 1;
  int64_t g = std::gcd(c, p.constant);
  for (const auto& [term, coeff] : p.terms) {
    if (coeff == INT64_MIN) return 1;
    g = std::gcd(g, coeff);
  }
  return g == 0 ? 1 : g;
}

const DimNode* DivideExactly(const DimNode* a, int64_t g) {
  Poly p = AsPoly(a);
  p.constant /= g;
  for (auto& [term, coeff] : p.terms) coeff /= g;
  return FromPoly(std::move(p));
}

std::optional<std::pair<const DimNode*, const DimNode*>> CancelMonomial(const DimNode* a,
                                                                        const DimNode* b,
                                                                        const Assumptions* as) {
  if (b->kind == Kind::kConst) return std::nullopt;
  Poly pb = AsPoly(b);
  if (pb.constant != 0 || pb.terms.size() != 1) return std::nullopt;
  const auto [monomial, m] = pb.terms[0];
  std::map<const DimNode*, int64_t> divisor;
  for (const auto& [atom, exp] : Factors(monomial)) {
    if (!ProvablyNonNegative(atom, as)) return std::nullopt;
    divisor[atom] = exp;
  }
  Poly pa = AsPoly(a);
  if (pa.constant != 0) return std::nullopt;
  Poly x;
  for (const auto& [term, coeff] : pa.terms) {
    auto factors = Factors(term);
    size_t matched = 0;
    for (auto& [atom, exp] : factors) {
      auto it = divisor.find(atom);
      if (it == divisor.end()) continue;
      if (exp < it->second) return std::nullopt;
      exp -= it->second;
      ++matched;
    }
    if (matched != divisor.size()) return std::nullopt;
    const DimNode* rest = FromFactors(std::move(factors));
    if (!rest) return std::nullopt;
    if (rest->kind == Kind::kConst) {  // every factor cancelled
      x.constant += coeff;             // several terms cannot all cancel to 1, so no overflow here
    } else {
      x.terms.emplace_back(rest, coeff);
    }
  }
  const DimNode* quotient = FromPoly(std::move(x));
  if (!quotient) return std::nullopt;
  return std::make_pair(quotient, Const(m));
}

const DimNode* CombineMultiples(const DimNode* n, const Assumptions* as) {
  if (!n || !as || !as->has_multiples() || n->kind != Kind::kSum) return n;
  Poly p = AsPoly(n);
  bool changed = false;
  for (size_t i = 0; i < p.terms.size(); ++i) {
    const DimNode* f = p.terms[i].first;
    if (f->kind != Kind::kFloorDiv || f->rhs->kind != Kind::kConst) continue;
    const DimNode* t = f->lhs;
    const int64_t c = f->rhs->value;
    if (t->kind == Kind::kSum || t->kind == Kind::kConst || as->KnownModulus(t) % c != 0) continue;
    const int64_t b = p.terms[i].second;
    size_t at = p.terms.size();
    for (size_t j = 0; j < p.terms.size(); ++j) {
      if (p.terms[j].first == t) at = j;
    }
    const int64_t a = at < p.terms.size() ? p.terms[at].second : 0;
    int64_t ac, k;
    if (__builtin_mul_overflow(a, c, &ac) || __builtin_add_overflow(ac, b, &k)) continue;
    if (a == 0 && b % c != 0) continue;  // b·floor(t/c) alone is already its short form
    const bool whole = k % c == 0;
    p.terms[i].second = whole ? 0 : k;  // zero terms are dropped by FromPoly
    if (at < p.terms.size()) {
      p.terms[at].second = whole ? k / c : 0;
    } else {
      p.terms.emplace_back(t, k / c);
    }
    changed = true;
  }
  return changed ? FromPoly(std::move(p)) : n;
}

const DimNode* MakeBinary(Kind kind, const DimNode* a, const DimNode* b) {
  if (!a || !b) return nullptr;
  NodeKey n{kind};
  n.lhs = a;
  n.rhs = b;
  n.size = 1 + a->size + b->size;
  if (n.size > kHardSizeCap) return nullptr;
  return Intern(n);
}

}  // namespace onnx_infer::symbolic
