// Interval bounds of expressions, and the three-valued comparisons built on them. A bound
// that would overflow int64 is dropped (becomes infinite), which only loses precision.
#include <algorithm>
#include <numeric>

#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {
namespace {

struct Bound {
  bool known;
  int64_t v;
};

Bound MulB(Bound a, int64_t c) {
  int64_t r;
  if (!a.known || __builtin_mul_overflow(a.v, c, &r)) return {false, 0};
  return {true, r};
}

Bound AddB(Bound a, Bound b) {
  int64_t r;
  if (!a.known || !b.known || __builtin_add_overflow(a.v, b.v, &r)) return {false, 0};
  return {true, r};
}

Bound PowB(Bound a, int64_t e) {
  if (a.known && (a.v == 0 || a.v == 1)) return {true, e == 0 ? 1 : a.v};
  Bound r{true, 1};
  for (int64_t i = 0; i < e && r.known; ++i) r = a.known ? MulB(r, a.v) : Bound{false, 0};
  return r;
}

Interval Make(Bound lo, Bound hi) { return {lo.known, hi.known, lo.v, hi.v}; }
Bound Lo(const Interval& i) { return {i.has_lo, i.lo}; }
Bound Hi(const Interval& i) { return {i.has_hi, i.hi}; }

int64_t CeilDivConst(int64_t a, int64_t c) { return -FloorDivConst(-a, c); }

}  // namespace

namespace {

// The bounds of value + Σ coeff·term for the terms of a sum (sorted, as a kSum node holds
// them): a kSum node's, and LessEqual's for a difference it does not intern.
Interval SumBounds(int64_t value, std::span<const Term> terms, const Assumptions* as) {
  Bound lo{true, value}, hi{true, value};
  for (const auto& [term, coeff] : terms) {
    Interval t = Bounds(term, as);
    lo = AddB(lo, MulB(coeff > 0 ? Lo(t) : Hi(t), coeff));
    hi = AddB(hi, MulB(coeff > 0 ? Hi(t) : Lo(t), coeff));
  }
  // A relation stated on the same terms (P + S <= 4096), or on them times a factor
  // (-P - S >= -4096), may bound the sum more tightly.
  if (as) {
    for (const auto& [sum, range] : as->expr_bounds()) {
      if (sum->terms.size() != terms.size() || sum->terms.empty()) continue;
      const int64_t a = sum->terms[0].second, b = terms[0].second;
      if (a == 0 || b % a != 0) continue;
      const int64_t f = b / a;
      bool same = true;
      for (size_t i = 0; i < terms.size() && same; ++i) {
        int64_t scaled;
        same = sum->terms[i].first == terms[i].first &&
               !__builtin_mul_overflow(sum->terms[i].second, f, &scaled) &&
               scaled == terms[i].second;
      }
      if (!same) continue;
      // n = f * sum + c.
      const Bound rlo = range.first != INT64_MIN ? Bound{true, range.first} : Bound{false, 0};
      const Bound rhi = range.second != INT64_MAX ? Bound{true, range.second} : Bound{false, 0};
      const Bound c{true, value};
      const Bound new_lo = AddB(MulB(f > 0 ? rlo : rhi, f), c);
      const Bound new_hi = AddB(MulB(f > 0 ? rhi : rlo, f), c);
      if (new_lo.known && (!lo.known || new_lo.v > lo.v)) lo = new_lo;
      if (new_hi.known && (!hi.known || new_hi.v < hi.v)) hi = new_hi;
    }
  }
  return Make(lo, hi);
}

// Bounds(Sub(b, a)) for a constant `a` and a `b` that is not, without interning the
// difference (a Reshape's `1 <= B`, several a node): b - k has b's terms and b's constant
// less k (an atom is the one term of itself), or is b's one term itself when that constant
// is 0, as FromSortedPoly makes it. False, computing nothing, where Sub would give up (an
// overflow, or a node past kHardSizeCap) or `a` is not a constant: the caller interns then.
bool DifferenceBounds(const DimNode* a, const DimNode* b, const Assumptions* as, Interval* out) {
  if (a->kind != Kind::kConst || b->kind == Kind::kConst || a->value == INT64_MIN) return false;
  const bool sum = b->kind == Kind::kSum;
  if (!sum && b->size + 1 > kHardSizeCap) return false;
  int64_t constant;
  if (__builtin_sub_overflow(sum ? b->value : 0, a->value, &constant)) return false;
  const Term single{b, 1};
  const std::span<const Term> terms = sum ? std::span<const Term>(b->terms) : std::span(&single, 1);
  if (constant == 0 && terms.size() == 1 && terms[0].second == 1) {
    *out = Bounds(terms[0].first, as);
  } else {
    *out = SumBounds(constant, terms, as);
  }
  return true;
}

}  // namespace

Interval Bounds(const DimNode* n, const Assumptions* as) {
  if (!n) return Interval::All();
  switch (n->kind) {
    case Kind::kConst:
      return Interval::Exactly(n->value);
    case Kind::kSymbol: {
      Interval i = Interval::AtLeast(as ? std::max<int64_t>(0, as->LowerBound(n->name)) : 0);
      if (auto hi = as ? as->UpperBound(n->name) : std::nullopt) {
        i.has_hi = true;
        i.hi = *hi;
      }
      return i;
    }
    case Kind::kSum:
      return SumBounds(n->value, n->terms, as);
    case Kind::kProduct: {
      // Only products of non-negative factors are bounded here; that covers dims.
      Bound lo{true, 1}, hi{true, 1};
      for (const auto& [atom, exp] : n->terms) {
        Interval f = Bounds(atom, as);
        if (!f.has_lo || f.lo < 0) return Interval::All();
        lo = MulB(lo, PowB(Lo(f), exp).v);
        Bound p = PowB(Hi(f), exp);
        hi = p.known ? MulB(hi, p.v) : Bound{false, 0};
      }
      return Make(lo, hi);
    }
    case Kind::kFloorDiv:
    case Kind::kCeilDiv: {
      const bool floor = n->kind == Kind::kFloorDiv;
      Interval a = Bounds(n->lhs, as);
      if (n->rhs->kind == Kind::kConst && n->rhs->value > 0) {
        const int64_t c = n->rhs->value;
        auto div = [&](Bound b) {
          return b.known ? Bound{true, floor ? FloorDivConst(b.v, c) : CeilDivConst(b.v, c)} : b;
        };
        return Make(div(Lo(a)), div(Hi(a)));
      }
      // A non-negative divisor is >= 1 wherever the quotient is defined.
      if (ProvablyNonNegative(n->rhs, as) && a.has_lo && a.lo >= 0) {
        return Make({true, 0}, Hi(a));
      }
      return Interval::All();
    }
    case Kind::kMod: {
      if (!ProvablyNonNegative(n->rhs, as)) return Interval::All();
      // 0 <= Mod(a, b) < b for b >= 1; and Mod(a, b) <= a when a >= 0.
      Interval b = Bounds(n->rhs, as);
      Interval a = Bounds(n->lhs, as);
      Bound hi = b.has_hi ? Bound{true, b.hi - 1} : Bound{false, 0};
      if (a.has_lo && a.lo >= 0 && a.has_hi)
        hi = hi.known ? Bound{true, std::min(hi.v, a.hi)} : Hi(a);
      return Make({true, 0}, hi);
    }
    case Kind::kMin:
    case Kind::kMax: {
      Interval a = Bounds(n->lhs, as), b = Bounds(n->rhs, as);
      if (n->kind == Kind::kMin) {
        Bound lo = a.has_lo && b.has_lo ? Bound{true, std::min(a.lo, b.lo)} : Bound{false, 0};
        Bound hi = !a.has_hi ? Hi(b) : !b.has_hi ? Hi(a) : Bound{true, std::min(a.hi, b.hi)};
        return Make(lo, hi);
      }
      Bound lo = !a.has_lo ? Lo(b) : !b.has_lo ? Lo(a) : Bound{true, std::max(a.lo, b.lo)};
      Bound hi = a.has_hi && b.has_hi ? Bound{true, std::max(a.hi, b.hi)} : Bound{false, 0};
      return Make(lo, hi);
    }
  }
  return Interval::All();
}

bool ProvablyNonNegative(const DimNode* n, const Assumptions* as) {
  Interval i = Bounds(n, as);
  return i.has_lo && i.lo >= 0;
}

Tri LessEqualNodes(const DimNode* a, const DimNode* b, const Assumptions* as) {
  if (!a || !b) return Tri::kUnknown;
  if (a == b) return Tri::kTrue;
  // Two constants (a Reshape's literal target against 0 or 1): what Sub and Bounds would
  // answer, without interning the difference. Where Sub gives up (an overflow, or a's
  // negation overflowing), so does this.
  int64_t diff;
  if (a->kind == Kind::kConst && b->kind == Kind::kConst && a->value != INT64_MIN &&
      !__builtin_sub_overflow(b->value, a->value, &diff)) {
    return diff >= 0 ? Tri::kTrue : Tri::kFalse;
  }
  Interval i;
  if (!DifferenceBounds(a, b, as, &i)) {
    const DimNode* d = Sub(b, a);
    if (!d) return Tri::kUnknown;
    i = Bounds(d, as);
  }
  if (i.has_lo && i.lo >= 0) return Tri::kTrue;
  if (i.has_hi && i.hi < 0) return Tri::kFalse;
  // a <= Max(x, y) when a <= x or a <= y; Min(x, y) <= b when x <= b or y <= b.
  if (b->kind == Kind::kMax && (LessEqualNodes(a, b->lhs, as) == Tri::kTrue ||
                                LessEqualNodes(a, b->rhs, as) == Tri::kTrue)) {
    return Tri::kTrue;
  }
  // floor(x/c) <= x and Mod(x, c) <= x for x >= 0 and a divisor >= 0 (>= 1 where defined).
  if ((a->kind == Kind::kFloorDiv || a->kind == Kind::kCeilDiv || a->kind == Kind::kMod) &&
      ProvablyNonNegative(a->lhs, as) && ProvablyNonNegative(a->rhs, as) &&
      LessEqualNodes(a->lhs, b, as) == Tri::kTrue) {
    return Tri::kTrue;
  }
  if (a->kind == Kind::kMin && (LessEqualNodes(a->lhs, b, as) == Tri::kTrue ||
                                LessEqualNodes(a->rhs, b, as) == Tri::kTrue)) {
    return Tri::kTrue;
  }
  return Tri::kUnknown;
}

Tri Equal(Dim a, Dim b, const Assumptions* as) {
  if (a.is_unknown() || b.is_unknown()) return Tri::kUnknown;
  if (a == b) return Tri::kTrue;
  const DimNode* d = Sub(a.node(), b.node());
  // Known multiples may cancel what the normal form alone cannot: 2*floor(C/2) - C.
  if (d && as && as->has_multiples()) d = Simplify(Dim::FromNode(d), *as).node();
  if (!d) return Tri::kUnknown;
  // The normal form is canonical for polynomials: a difference that is not 0 after
  // simplification is a non-zero constant or still has terms.
  if (d->kind == Kind::kConst) return d->value == 0 ? Tri::kTrue : Tri::kFalse;
  Interval i = Bounds(d, as);
  if ((i.has_lo && i.lo > 0) || (i.has_hi && i.hi < 0)) return Tri::kFalse;
  // k + Σ c·t == 0 needs gcd(c...) to divide k: 2*N == 2*M + 1 never holds.
  if (d->kind == Kind::kSum) {
    int64_t g = 0;
    for (const auto& [term, coeff] : d->terms) {
      if (coeff == INT64_MIN) return Tri::kUnknown;
      g = std::gcd(g, coeff);
    }
    if (g > 1 && d->value % g != 0) return Tri::kFalse;
  }
  return Tri::kUnknown;
}

Tri LessEqual(Dim a, Dim b, const Assumptions* as) {
  return LessEqualNodes(a.node(), b.node(), as);
}

}  // namespace onnx_infer::symbolic
