// Floor and ceiling division. Each builder runs its rules in order; the first that applies
// gives the result (which may be unknown, e.g. on overflow). Whatever no rule simplifies
// becomes an opaque floor/ceiling atom. Results hold wherever the division is defined
// (divisor != 0); see docs/symbolic.md.
#include <numeric>
#include <optional>

#include "onnx_infer/symbolic/simplify_util.h"

namespace onnx_infer::symbolic {
namespace {

using Result = std::optional<const DimNode*>;  // nullopt: the rule does not apply
using Rule = Result (*)(const DimNode* a, const DimNode* b, const Assumptions* as);

bool IsConst(const DimNode* n, int64_t v) { return n->kind == Kind::kConst && n->value == v; }

// ---- floor(a / b) ----------------------------------------------------------------------

const Rule kFloorDivRules[] = {
    // floor(a/0) is undefined.
    [](auto a, auto b, auto as) -> Result {
      if (IsConst(b, 0)) return nullptr;
      return std::nullopt;
    },
    // Constant folding; INT64_MIN / -1 overflows.
    [](auto a, auto b, auto as) -> Result {
      if (a->kind != Kind::kConst || b->kind != Kind::kConst) return std::nullopt;
      if (a->value == INT64_MIN && b->value == -1) return nullptr;
      return Const(FloorDivConst(a->value, b->value));
    },
    // floor(a/1) = a.
    [](auto a, auto b, auto as) -> Result {
      if (IsConst(b, 1)) return a;
      return std::nullopt;
    },
    // floor(a/-c) = floor(-a/c): keeps constant divisors positive.
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst || b->value > 0) return std::nullopt;
      return FloorDiv(Neg(a), Neg(b), as);
    },
    // floor(0/b) = 0 and floor(b/b) = 1 (b != 0 where defined).
    [](auto a, auto b, auto as) -> Result {
      if (IsConst(a, 0)) return Const(0);
      if (a == b) return Const(1);
      return std::nullopt;
    },
    // floor((c·Q + R)/c) = Q + floor(R/c) for integer Q: multiples of c leave the floor, so
    // (N + 4)/2 -> floor(N/2) + 2 and (2*N)/2 -> N, but (N + 1)/2 stays whole.
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst) return std::nullopt;
      Split s = SplitMultiples(a, b->value);
      if (!s.ok) return nullptr;
      if (s.quotient == Const(0)) return std::nullopt;
      return Add(s.quotient, FloorDiv(s.remainder, b, as));
    },
    // floor((k·t + R)/c) = k·floor(t/c) + floor(R/c) when t is a known multiple of c, and
    // more generally (k·g/c)·floor(t/g) + floor(R/c) when t is a multiple of g and c | k·g:
    // k·t/c is then an integer. With Mod(C, 2) == 0, floor((C + 1)/2) -> floor(C/2).
    [](auto a, auto b, auto as) -> Result {
      if (!as || !as->has_multiples() || b->kind != Kind::kConst) return std::nullopt;
      Poly p = AsPoly(a);
      if (p.constant == 0 && p.terms.size() == 1 && p.terms[0].second == 1) {
        return std::nullopt;  // floor(t/c) itself
      }
      Poly rest;
      rest.constant = p.constant;
      const DimNode* exact = Const(0);
      for (const auto& [t, k] : p.terms) {
        const int64_t g = as->KnownModulus(t);
        int64_t kg;
        if (g <= 1 || __builtin_mul_overflow(k, g, &kg) || kg % b->value != 0) {
          rest.terms.emplace_back(t, k);
        } else if (g % b->value == 0) {
          exact = Add(exact, MulConst(FloorDiv(t, b, as), k));
        } else {
          exact = Add(exact, MulConst(FloorDiv(t, Const(g), as), kg / b->value));
        }
      }
      if (rest.terms.size() == p.terms.size()) return std::nullopt;
      return Add(exact, FloorDiv(FromPoly(std::move(rest)), b, as));
    },
    // 0 <= a < c gives 0 (e.g. floor(Mod(N, 3)/3)).
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst) return std::nullopt;
      Interval i = Bounds(a, as);
      if (i.has_lo && i.lo >= 0 && i.has_hi && i.hi < b->value) return Const(0);
      return std::nullopt;
    },
    // floor(g·x / g·c) = floor(x / c) for g > 0.
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst) return std::nullopt;
      int64_t g = CommonFactor(a, b->value);
      if (g <= 1) return std::nullopt;
      return FloorDiv(DivideExactly(a, g), Const(b->value / g), as);
    },
    // floor(floor(x/k)/c) = floor(x/(k·c)) for k, c > 0.
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst || a->kind != Kind::kFloorDiv || a->rhs->kind != Kind::kConst) {
        return std::nullopt;
      }
      int64_t kc;
      if (__builtin_mul_overflow(a->rhs->value, b->value, &kc)) return std::nullopt;
      return FloorDiv(a->lhs, Const(kc), as);
    },
    // floor((floor(x/k) + y)/c) = floor((x + k·y)/(k·c)) for constants k, c > 0 and y an
    // integer expression: floor(x/k) + y = floor((x + k·y)/k), then the rule above. Strided
    // layers chain these: floor((floor((H + 1)/2) + 1)/2) is floor((H + 3)/4). The first such
    // floor term of the sum (coefficient 1, in the sum's order) is the one unfolded.
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst || a->kind != Kind::kSum) return std::nullopt;
      for (const auto& [term, coeff] : a->terms) {
        if (coeff != 1 || term->kind != Kind::kFloorDiv || term->rhs->kind != Kind::kConst) {
          continue;
        }
        const int64_t k = term->rhs->value;
        int64_t kc;
        if (k <= 0 || __builtin_mul_overflow(k, b->value, &kc)) continue;
        const DimNode* y = Sub(a, term);
        const DimNode* num = Add(term->lhs, MulConst(y, k));
        if (!num) return std::nullopt;
        return FloorDiv(num, Const(kc), as);
      }
      return std::nullopt;
    },
    // floor(P·x / (m·P)) = floor(x/m) when P is a product of non-negative atoms (then P > 0
    // wherever the division is defined): (768*B*S)/(12*B) -> 64*S.
    [](auto a, auto b, auto as) -> Result {
      auto q = CancelMonomial(a, b, as);
      if (!q) return std::nullopt;
      return FloorDiv(q->first, q->second, as);
    },
    // 0 <= a < b gives 0.
    [](auto a, auto b, auto as) -> Result {
      if (ProvablyNonNegative(a, as) && LessEqualNodes(Add(a, Const(1)), b, as) == Tri::kTrue) {
        return Const(0);
      }
      return std::nullopt;
    },
};

// ---- ceiling(a / b) --------------------------------------------------------------------

const Rule kCeilDivRules[] = {
    [](auto a, auto b, auto as) -> Result {
      if (IsConst(b, 0)) return nullptr;
      return std::nullopt;
    },
    [](auto a, auto b, auto as) -> Result {
      if (a->kind != Kind::kConst || b->kind != Kind::kConst) return std::nullopt;
      if (a->value == INT64_MIN && b->value == -1) return nullptr;
      int64_t q = a->value / b->value;
      if (a->value % b->value != 0 && ((a->value < 0) == (b->value < 0))) ++q;
      return Const(q);
    },
    [](auto a, auto b, auto as) -> Result {
      if (IsConst(b, 1)) return a;
      return std::nullopt;
    },
    // ceiling(a/-c) = ceiling(-a/c).
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst || b->value > 0) return std::nullopt;
      return CeilDiv(Neg(a), Neg(b), as);
    },
    // ceiling(a/c) = floor((a + c - 1)/c) for c > 0: one spelling for both, which is what
    // proves ceiling((x - 1)/2) == floor(x/2).
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst) return std::nullopt;
      return FloorDiv(Add(a, Const(b->value - 1)), b, as);
    },
    // ceiling(P·x / (m·P)) = ceiling(x/m), as for floor.
    [](auto a, auto b, auto as) -> Result {
      auto q = CancelMonomial(a, b, as);
      if (!q) return std::nullopt;
      return CeilDiv(q->first, q->second, as);
    },
    // A divisor known >= 0 is >= 1 wherever defined: the floor spelling again.
    [](auto a, auto b, auto as) -> Result {
      if (!ProvablyNonNegative(b, as)) return std::nullopt;
      return FloorDiv(Add(a, Sub(b, Const(1))), b, as);
    },
};

}  // namespace

const DimNode* FloorDiv(const DimNode* a, const DimNode* b, const Assumptions* as) {
  if (!a || !b) return nullptr;
  for (Rule rule : kFloorDivRules) {
    if (Result r = rule(a, b, as)) return *r;
  }
  return MakeBinary(Kind::kFloorDiv, a, b);
}

const DimNode* CeilDiv(const DimNode* a, const DimNode* b, const Assumptions* as) {
  if (!a || !b) return nullptr;
  for (Rule rule : kCeilDivRules) {
    if (Result r = rule(a, b, as)) return *r;
  }
  return MakeBinary(Kind::kCeilDiv, a, b);
}

}  // namespace onnx_infer::symbolic
