// Mod(a, b) = a - b·floor(a/b), the sign of b (Python's %, sympy's Mod). Rules run in order;
// the first that applies gives the result. Results hold wherever b != 0.
#include <optional>

#include "onnx_infer/symbolic/simplify_util.h"

namespace onnx_infer::symbolic {
namespace {

using Result = std::optional<const DimNode*>;  // nullopt: the rule does not apply
using Rule = Result (*)(const DimNode* a, const DimNode* b, const Assumptions* as);

bool IsConst(const DimNode* n, int64_t v) { return n->kind == Kind::kConst && n->value == v; }

const Rule kModRules[] = {
    // Mod(a, 0) is undefined.
    [](auto a, auto b, auto as) -> Result {
      if (IsConst(b, 0)) return nullptr;
      return std::nullopt;
    },
    // Mod(a, 1) = Mod(a, -1) = 0 (before folding: INT64_MIN % -1 overflows in C++).
    [](auto a, auto b, auto as) -> Result {
      if (IsConst(b, 1) || IsConst(b, -1)) return Const(0);
      return std::nullopt;
    },
    [](auto a, auto b, auto as) -> Result {
      if (a->kind != Kind::kConst || b->kind != Kind::kConst) return std::nullopt;
      return Const(FloorModConst(a->value, b->value));
    },
    // Mod(a, -c) = -Mod(-a, c): a - (-c)·floor(a/-c) = -((-a) - c·floor(-a/c)).
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst || b->value > 0) return std::nullopt;
      return Neg(Mod(Neg(a), Neg(b), as));
    },
    // Mod(0, b) = Mod(b, b) = 0.
    [](auto a, auto b, auto as) -> Result {
      if (IsConst(a, 0) || a == b) return Const(0);
      return std::nullopt;
    },
    // Mod(c·Q + R, c) = Mod(R, c): multiples of c vanish and coefficients reduce mod c.
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst) return std::nullopt;
      Split s = SplitMultiples(a, b->value);
      if (!s.ok) return nullptr;
      if (s.quotient == Const(0)) return std::nullopt;
      return Mod(s.remainder, b, as);
    },
    // Mod(k·t + R, c) = Mod(R, c) when t is a known multiple of g and c | k·g (k·t is then a
    // multiple of c): with Mod(C, 4) == 0, Mod(C + 1, 2) -> 1.
    [](auto a, auto b, auto as) -> Result {
      if (!as || !as->has_multiples() || b->kind != Kind::kConst) return std::nullopt;
      Poly p = AsPoly(a);
      Poly rest;
      rest.constant = p.constant;
      for (const auto& [t, k] : p.terms) {
        const int64_t g = as->KnownModulus(t);
        int64_t kg;
        if (g <= 1 || __builtin_mul_overflow(k, g, &kg) || kg % b->value != 0) {
          rest.terms.emplace_back(t, k);
        }
      }
      if (rest.terms.size() == p.terms.size()) return std::nullopt;
      return Mod(FromPoly(std::move(rest)), b, as);
    },
    // 0 <= a < c gives a.
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst) return std::nullopt;
      Interval i = Bounds(a, as);
      if (i.has_lo && i.lo >= 0 && i.has_hi && i.hi < b->value) return a;
      return std::nullopt;
    },
    // Mod(g·x, g·c) = g·Mod(x, c) for g > 0.
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst) return std::nullopt;
      int64_t g = CommonFactor(a, b->value);
      if (g <= 1) return std::nullopt;
      return MulConst(Mod(DivideExactly(a, g), Const(b->value / g), as), g);
    },
    // Mod(Mod(x, k·c), c) = Mod(x, c) for k, c > 0.
    [](auto a, auto b, auto as) -> Result {
      if (b->kind != Kind::kConst || a->kind != Kind::kMod || a->rhs->kind != Kind::kConst ||
          a->rhs->value % b->value != 0) {
        return std::nullopt;
      }
      return Mod(a->lhs, b, as);
    },
    // Mod(P·x, m·P) = P·Mod(x, m) when P is a product of non-negative atoms (P > 0 wherever
    // defined): Mod(6*N, 3*N) -> 0.
    [](auto a, auto b, auto as) -> Result {
      auto q = CancelMonomial(a, b, as);
      if (!q) return std::nullopt;
      const DimNode* m = Mod(q->first, q->second, as);
      if (!m) return nullptr;
      const DimNode* p = FloorDiv(b, q->second, as);  // P itself: b / m is exact
      return Mul(p, m);
    },
    // 0 <= a < b gives a.
    [](auto a, auto b, auto as) -> Result {
      if (ProvablyNonNegative(a, as) && LessEqualNodes(Add(a, Const(1)), b, as) == Tri::kTrue) {
        return a;
      }
      return std::nullopt;
    },
};

}  // namespace

const DimNode* Mod(const DimNode* a, const DimNode* b, const Assumptions* as) {
  if (!a || !b) return nullptr;
  for (Rule rule : kModRules) {
    if (Result r = rule(a, b, as)) return *r;
  }
  return MakeBinary(Kind::kMod, a, b);
}

}  // namespace onnx_infer::symbolic
