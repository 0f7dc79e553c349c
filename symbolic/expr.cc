// The total order and the polynomial part of the normal form (+, -, *). Interning is in
// context.cc.
#include "onnx_infer/symbolic/expr.h"

#include <algorithm>
#include <functional>

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

const DimNode* Const(int64_t v) {
  DimNode n{Kind::kConst};
  n.value = v;
  return Intern(std::move(n));
}

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

const DimNode* FromFactors(std::vector<std::pair<const DimNode*, int64_t>> factors) {
  if (!SortAndMerge(&factors, /*drop_zero=*/true)) return nullptr;
  if (factors.empty()) return Const(1);
  if (factors.size() == 1 && factors[0].second == 1) return factors[0].first;
  DimNode n{Kind::kProduct};
  for (const auto& [atom, exp] : factors) n.size += atom->size;
  if (n.size > kHardSizeCap) return nullptr;
  n.terms = std::move(factors);
  return Intern(std::move(n));
}

const DimNode* FromPoly(Poly p) {
  if (!SortAndMerge(&p.terms, /*drop_zero=*/true)) return nullptr;
  if (p.terms.empty()) return Const(p.constant);
  if (p.constant == 0 && p.terms.size() == 1 && p.terms[0].second == 1) return p.terms[0].first;
  DimNode n{Kind::kSum};
  n.value = p.constant;
  for (const auto& [term, coeff] : p.terms) n.size += term->size + (coeff != 1 ? 1 : 0);
  if (n.size > kHardSizeCap) return nullptr;
  n.terms = std::move(p.terms);
  return Intern(std::move(n));
}

const DimNode* Add(const DimNode* a, const DimNode* b) {
  if (!a || !b) return nullptr;
  if (a->kind == Kind::kConst && b->kind == Kind::kConst) {
    int64_t sum;
    return __builtin_add_overflow(a->value, b->value, &sum) ? nullptr : Const(sum);
  }
  Poly pa = AsPoly(a);
  Poly pb = AsPoly(b);
  if (__builtin_add_overflow(pa.constant, pb.constant, &pa.constant)) return nullptr;
  pa.terms.insert(pa.terms.end(), pb.terms.begin(), pb.terms.end());
  return FromPoly(std::move(pa));
}

const DimNode* MulConst(const DimNode* a, int64_t c) {
  if (c == 0) return Const(0);
  if (!a) return nullptr;
  if (c == 1) return a;
  Poly p = AsPoly(a);
  if (__builtin_mul_overflow(p.constant, c, &p.constant)) return nullptr;
  for (auto& [term, coeff] : p.terms) {
    if (__builtin_mul_overflow(coeff, c, &coeff)) return nullptr;
  }
  return FromPoly(std::move(p));
}

const DimNode* Neg(const DimNode* a) { return MulConst(a, -1); }

const DimNode* Sub(const DimNode* a, const DimNode* b) {
  if (!a || !b) return nullptr;
  if (a == b) return Const(0);
  return Add(a, Neg(b));
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
