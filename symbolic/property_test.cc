// Property test: random expressions are built through the Dim constructors (which simplify)
// and, separately, evaluated directly from their random tree; on random assignments of the
// symbols (each >= 0) both must agree wherever the tree is defined. The seed is fixed, so a
// failure reproduces. The same assignments check that Equal and LessEqual never guess, and
// that the printed form parses back to the same node.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "onnx_infer/symbolic/dim.h"
#include "onnx_infer/symbolic/expr.h"
#include "onnx_infer/symbolic/parse.h"
#include "onnx_infer/symbolic/unifier.h"

namespace onnx_infer::symbolic {
namespace {

enum class Op { kConst, kSym, kAdd, kSub, kMul, kFloorDiv, kCeilDiv, kMod, kMin, kMax };

struct Tree {
  Op op;
  int64_t value = 0;
  std::string name;
  std::unique_ptr<Tree> a, b;
};

using Env = std::map<std::string, int64_t, std::less<>>;

const char* const kSymbols[] = {"A", "B", "C"};

std::unique_ptr<Tree> Random(std::mt19937_64& rng, int depth) {
  auto t = std::make_unique<Tree>();
  std::uniform_int_distribution<int> pick(0, depth == 0 ? 1 : 9);
  t->op = static_cast<Op>(pick(rng));
  if (t->op == Op::kConst) {
    t->value = std::uniform_int_distribution<int64_t>(-4, 6)(rng);
  } else if (t->op == Op::kSym) {
    t->name = kSymbols[std::uniform_int_distribution<int>(0, 2)(rng)];
  } else {
    t->a = Random(rng, depth - 1);
    t->b = Random(rng, depth - 1);
  }
  return t;
}

Dim Build(const Tree& t) {
  switch (t.op) {
    case Op::kConst:
      return Dim::Const(t.value);
    case Op::kSym:
      return Dim::Symbol(t.name);
    case Op::kAdd:
      return Build(*t.a) + Build(*t.b);
    case Op::kSub:
      return Build(*t.a) - Build(*t.b);
    case Op::kMul:
      return Build(*t.a) * Build(*t.b);
    case Op::kFloorDiv:
      return Dim::FloorDiv(Build(*t.a), Build(*t.b));
    case Op::kCeilDiv:
      return Dim::CeilDiv(Build(*t.a), Build(*t.b));
    case Op::kMod:
      return Dim::Mod(Build(*t.a), Build(*t.b));
    case Op::kMin:
      return Dim::Min(Build(*t.a), Build(*t.b));
    case Op::kMax:
      return Dim::Max(Build(*t.a), Build(*t.b));
  }
  return Dim();
}

// Direct evaluation with plain integer semantics; nullopt where undefined (x/0).
std::optional<int64_t> Eval(const Tree& t, const Env& env) {
  if (t.op == Op::kConst) return t.value;
  if (t.op == Op::kSym) return env.at(t.name);
  auto x = Eval(*t.a, env), y = Eval(*t.b, env);
  if (!x || !y) return std::nullopt;
  const int64_t a = *x, b = *y;  // values stay small: depth <= 4, leaves in [-4, 8]
  auto floor_div = [](int64_t p, int64_t q) {
    int64_t r = p / q;
    return (p % q != 0 && ((p < 0) != (q < 0))) ? r - 1 : r;
  };
  switch (t.op) {
    case Op::kConst:
    case Op::kSym:
      return std::nullopt;
    case Op::kAdd:
      return a + b;
    case Op::kSub:
      return a - b;
    case Op::kMul:
      return a * b;
    case Op::kFloorDiv:
      if (b == 0) return std::nullopt;
      return floor_div(a, b);
    case Op::kCeilDiv:
      if (b == 0) return std::nullopt;
      return -floor_div(-a, b);
    case Op::kMod:
      if (b == 0) return std::nullopt;
      return a - b * floor_div(a, b);
    case Op::kMin:
      return std::min(a, b);
    case Op::kMax:
      return std::max(a, b);
  }
  return std::nullopt;
}

Env RandomEnv(std::mt19937_64& rng) {
  Env env;
  for (const char* s : kSymbols) env[s] = std::uniform_int_distribution<int64_t>(0, 8)(rng);
  return env;
}

TEST(PropertyTest, SimplifiedFormsEvaluateLikeTheirTrees) {
  std::mt19937_64 rng(20240604);
  int compared = 0, unknown = 0;
  for (int i = 0; i < 4000; ++i) {
    auto tree = Random(rng, 4);
    Dim d = Build(*tree);
    if (d.is_unknown()) {
      ++unknown;  // a constant division by zero, or the hard cap
      continue;
    }
    ASSERT_EQ(ParseDim(d.ToString()), d) << d;
    for (int k = 0; k < 12; ++k) {
      Env env = RandomEnv(rng);
      auto expected = Eval(*tree, env);
      if (!expected) continue;
      ASSERT_EQ(Evaluate(d, env), expected)
          << "simplified " << d << " at A=" << env["A"] << " B=" << env["B"] << " C=" << env["C"];
      ++compared;
    }
  }
  EXPECT_GT(compared, 20000);
  EXPECT_LT(unknown, 1000);  // most are x/0 with a constant 0 divisor, e.g. floor(A/(B - B))
}

// Nests of Min/Max, sums and constant multiples over one variable (S, the sum P + S, or
// Mod(S, 7), which is bounded above too) are where the short forms of simplify_min_max.cc
// apply: each must keep its value for every S, also when simplified under a lower bound of S.
enum class Variable { kSymbol, kSum, kBounded };

std::unique_ptr<Tree> RandomNest(std::mt19937_64& rng, int depth, Variable variable) {
  auto t = std::make_unique<Tree>();
  std::uniform_int_distribution<int> pick(0, depth == 0 ? 1 : 6);
  switch (pick(rng)) {
    case 0:
      t->op = Op::kConst;
      t->value = std::uniform_int_distribution<int64_t>(-3, 5)(rng);
      return t;
    case 1:
      if (variable == Variable::kSum) {  // P + S, as one variable
        t->op = Op::kAdd;
        t->a = std::make_unique<Tree>(Tree{Op::kSym, 0, "P"});
        t->b = std::make_unique<Tree>(Tree{Op::kSym, 0, "S"});
      } else if (variable == Variable::kBounded) {
        t->op = Op::kMod;
        t->a = std::make_unique<Tree>(Tree{Op::kSym, 0, "S"});
        t->b = std::make_unique<Tree>(Tree{Op::kConst, 7});
      } else {
        t->op = Op::kSym;
        t->name = "S";
      }
      return t;
    case 2:
      t->op = Op::kMul;
      t->a = std::make_unique<Tree>(
          Tree{Op::kConst, std::uniform_int_distribution<int64_t>(-2, 3)(rng)});
      t->b = RandomNest(rng, depth - 1, variable);
      return t;
    default: {
      static const Op kOps[] = {Op::kAdd, Op::kSub, Op::kMin, Op::kMax};
      t->op = kOps[std::uniform_int_distribution<int>(0, 3)(rng)];
      t->a = RandomNest(rng, depth - 1, variable);
      t->b = RandomNest(rng, depth - 1, variable);
      return t;
    }
  }
}

TEST(PropertyTest, OneVariableNestsKeepTheirValues) {
  std::mt19937_64 rng(15);
  int compared = 0;
  for (int i = 0; i < 3000; ++i) {
    const Variable variable = static_cast<Variable>(i % 3);
    const bool sum_variable = variable == Variable::kSum;
    auto tree = RandomNest(rng, 4, variable);
    const Dim d = Build(*tree);
    ASSERT_FALSE(d.is_unknown());
    Assumptions at_least;
    const int64_t lower = i % 4;
    at_least.SetLowerBound("S", lower);
    const Dim under = Simplify(d, at_least);
    for (int64_t s = 0; s <= 24; ++s) {
      Env env = {{"S", s}, {"P", sum_variable ? (s * 7) % 5 : 0}};
      if (!sum_variable) env.erase("P");
      const auto expected = Eval(*tree, env);
      ASSERT_EQ(Evaluate(d, env), expected) << d << " at S=" << s;
      if (s >= lower) {
        ASSERT_EQ(Evaluate(under, env), expected) << under << " (S >= " << lower << ") at S=" << s;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 70000);
}

// Simplified under known multiples (A a multiple of 2, C of 3), an expression keeps its value
// wherever they hold.
TEST(PropertyTest, KnownMultiplesKeepValues) {
  std::mt19937_64 rng(2);
  Assumptions multiples;
  multiples.AddMultipleOf(Dim::Symbol("A"), 2);
  multiples.AddMultipleOf(Dim::Symbol("C"), 3);
  int compared = 0;
  for (int i = 0; i < 3000; ++i) {
    auto tree = Random(rng, 4);
    const Dim d = Simplify(Build(*tree), multiples);
    if (d.is_unknown()) continue;
    for (int k = 0; k < 12; ++k) {
      Env env = RandomEnv(rng);
      env["A"] = 2 * (env["A"] / 2);
      env["C"] = 3 * (env["C"] / 3);
      auto expected = Eval(*tree, env);
      if (!expected) continue;
      ASSERT_EQ(Evaluate(d, env), expected)
          << "simplified " << d << " at A=" << env["A"] << " B=" << env["B"] << " C=" << env["C"];
      ++compared;
    }
  }
  EXPECT_GT(compared, 15000);
}

TEST(PropertyTest, ComparisonsNeverGuess) {
  std::mt19937_64 rng(7);
  int decided = 0;
  for (int i = 0; i < 3000; ++i) {
    Dim a = Build(*Random(rng, 3)), b = Build(*Random(rng, 2));
    const Tri eq = Equal(a, b), le = LessEqual(a, b);
    if (eq != Tri::kUnknown || le != Tri::kUnknown) ++decided;
    for (int k = 0; k < 12; ++k) {
      Env env = RandomEnv(rng);
      auto va = Evaluate(a, env), vb = Evaluate(b, env);
      if (!va || !vb) continue;
      if (eq != Tri::kUnknown) {
        ASSERT_EQ(*va == *vb, eq == Tri::kTrue) << a << " vs " << b;
      }
      if (le != Tri::kUnknown) {
        ASSERT_EQ(*va <= *vb, le == Tri::kTrue) << a << " vs " << b;
      }
    }
  }
  EXPECT_GT(decided, 500);
}

// Intervals (issue 29): each symbol gets a random range [lo, hi] (some without an upper
// bound) and the sum A + B a random upper bound; at every assignment inside them, an
// expression's Bounds() contain its value, its form simplified under them keeps the value,
// and comparisons decided under them hold.
TEST(PropertyTest, IntervalsHoldAtEveryAssignmentInside) {
  std::mt19937_64 rng(29);
  int compared = 0, decided = 0, bounded = 0;
  for (int i = 0; i < 3000; ++i) {
    Assumptions as;
    std::map<std::string, std::pair<int64_t, int64_t>> range;
    for (const char* name : kSymbols) {
      const int64_t lo = std::uniform_int_distribution<int64_t>(0, 3)(rng);
      const bool upper = std::uniform_int_distribution<int>(0, 3)(rng) != 0;
      const int64_t hi = upper ? lo + std::uniform_int_distribution<int64_t>(0, 5)(rng) : 8;
      if (lo > 0) as.SetLowerBound(name, lo);
      if (upper) as.SetUpperBound(name, hi);
      range[name] = {lo, hi};
    }
    const int64_t sum_hi = std::uniform_int_distribution<int64_t>(0, 12)(rng);
    as.SetExprBounds(Dim::Symbol("A") + Dim::Symbol("B"), std::nullopt, sum_hi);
    auto tree = Random(rng, 3);
    const Dim d = Build(*tree);
    if (d.is_unknown()) continue;
    const Interval iv = Bounds(d.node(), &as);
    if (iv.has_hi) ++bounded;
    const Dim under = Simplify(d, as);
    const Dim other = Build(*Random(rng, 2));
    const Tri le = LessEqual(d, other, &as), eq = Equal(d, other, &as);
    if (le != Tri::kUnknown || eq != Tri::kUnknown) ++decided;
    for (int k = 0; k < 12; ++k) {
      Env env;
      for (const auto& [name, r] : range) {
        env[name] = std::uniform_int_distribution<int64_t>(r.first, r.second)(rng);
      }
      if (env["A"] + env["B"] > sum_hi) continue;  // outside the relation
      const auto value = Eval(*tree, env);
      if (!value) continue;
      const std::string at = " at A=" + std::to_string(env["A"]) +
                             " B=" + std::to_string(env["B"]) + " C=" + std::to_string(env["C"]);
      ASSERT_TRUE(!iv.has_lo || iv.lo <= *value) << d << " >= " << iv.lo << at;
      ASSERT_TRUE(!iv.has_hi || *value <= iv.hi) << d << " <= " << iv.hi << at;
      ASSERT_EQ(Evaluate(under, env), value) << d << " simplified to " << under << at;
      const auto vo = Evaluate(other, env);
      if (vo && le != Tri::kUnknown)
        ASSERT_EQ(*value <= *vo, le == Tri::kTrue) << d << " <= " << other << at;
      if (vo && eq != Tri::kUnknown)
        ASSERT_EQ(*value == *vo, eq == Tri::kTrue) << d << " == " << other << at;
      ++compared;
    }
  }
  EXPECT_GT(compared, 10000);
  EXPECT_GT(decided, 300);
  EXPECT_GT(bounded, 500);
}

// LessEqual of a constant and an expression (Reshape's `1 <= B`) bounds the difference without
// interning it: its answer must be the one the interned difference's bounds give (the rules
// for a Max, which recurse, aside), under symbol ranges and relations on sums (A + B, 2*C)
// that the difference's terms may match.
TEST(PropertyTest, ConstantComparisonsAnswerAsTheInternedDifference) {
  std::mt19937_64 rng(32);
  int decided = 0;
  for (int i = 0; i < 3000; ++i) {
    Assumptions as;
    for (const char* name : kSymbols) {
      const int64_t lo = std::uniform_int_distribution<int64_t>(0, 3)(rng);
      if (lo > 0) as.SetLowerBound(name, lo);
      if (std::uniform_int_distribution<int>(0, 2)(rng) != 0) {
        as.SetUpperBound(name, lo + std::uniform_int_distribution<int64_t>(0, 5)(rng));
      }
    }
    as.SetExprBounds(Dim::Symbol("A") + Dim::Symbol("B"), std::nullopt,
                     std::uniform_int_distribution<int64_t>(0, 12)(rng));
    as.SetExprBounds(Dim::Const(2) * Dim::Symbol("C"),
                     std::uniform_int_distribution<int64_t>(0, 6)(rng), std::nullopt);
    const Dim d = Build(*Random(rng, 3));
    if (d.is_unknown() || d.const_value()) continue;
    const int64_t k = std::uniform_int_distribution<int64_t>(-3, 8)(rng);
    const DimNode* diff = Sub(d.node(), Const(k));
    Tri expected = Tri::kUnknown;
    if (diff) {
      const Interval iv = Bounds(diff, &as);
      // In LessEqual's order: ranges that contradict the relations give an empty interval.
      if (iv.has_lo && iv.lo >= 0) {
        expected = Tri::kTrue;
      } else if (iv.has_hi && iv.hi < 0) {
        expected = Tri::kFalse;
      }
    }
    const DimNode* n = d.node();
    if (expected == Tri::kUnknown && n->kind == Kind::kMax &&
        (LessEqualNodes(Const(k), n->lhs, &as) == Tri::kTrue ||
         LessEqualNodes(Const(k), n->rhs, &as) == Tri::kTrue)) {
      expected = Tri::kTrue;
    }
    ASSERT_EQ(LessEqual(Dim::Const(k), d, &as), expected) << k << " <= " << d;
    if (expected != Tri::kUnknown) ++decided;
  }
  EXPECT_GT(decided, 500);
}

// Dims written before the model stated an upper bound are resolved again under it
// (Unifier::RefineByModelBounds): random model bounds on each symbol (some absent) and a
// relation on A + B; the refined form must evaluate like the tree at every assignment that
// meets the lower bounds and the bounds it says it needed (the others may be violated), and
// a form that needed none is the dim itself. Assignments include 0 and 1.
TEST(PropertyTest, RefinedByModelBoundsHoldUnderTheBoundsNamed) {
  std::mt19937_64 rng(4199);
  int refined = 0, compared = 0;
  for (int i = 0; i < 2000; ++i) {
    Unifier u;
    std::map<std::string, int64_t> lower;
    for (const char* name : kSymbols) {
      lower[name] = std::uniform_int_distribution<int64_t>(0, 1)(rng);
      if (lower[name] > 0) ASSERT_TRUE(u.AssumeAtLeast(name, lower[name], "low").ok());
      if (std::uniform_int_distribution<int>(0, 2)(rng) != 0) {
        const int64_t hi = lower[name] + std::uniform_int_distribution<int64_t>(0, 5)(rng);
        ASSERT_TRUE(u.AssumeAtMost(name, hi, "high").ok());
      }
    }
    if (std::uniform_int_distribution<int>(0, 1)(rng) != 0) {
      const int64_t hi = 2 + std::uniform_int_distribution<int64_t>(0, 8)(rng);
      ASSERT_TRUE(u.AssumeRelation(Dim::Symbol("A") + Dim::Symbol("B"), std::nullopt, hi,
                                   "relation", /*user=*/false)
                      .ok());
    }
    auto tree = Random(rng, 3);
    const Dim d = Build(*tree);
    if (d.is_unknown()) continue;
    std::vector<std::string> used;
    const Dim r = u.RefineByModelBounds(d, &used);
    if (used.empty()) {
      ASSERT_EQ(r, d);
      continue;
    }
    ++refined;
    // Each statement is "lhs <= bound".
    std::vector<std::pair<Dim, int64_t>> needs;
    for (const std::string& text : used) {
      const size_t at = text.find(" <= ");
      ASSERT_NE(at, std::string::npos) << text;
      needs.emplace_back(ParseDim(text.substr(0, at)).value_or(Dim()),
                         std::stoll(text.substr(at + 4)));
    }
    for (int k = 0; k < 40; ++k) {
      Env env;
      for (const char* name : kSymbols) {
        const int64_t lo = lower[name];
        env[name] = k == 0   ? lo
                    : k == 1 ? std::max<int64_t>(lo, 1)
                             : std::uniform_int_distribution<int64_t>(lo, 9)(rng);
      }
      bool inside = true;
      for (const auto& [lhs, bound] : needs) inside = inside && Evaluate(lhs, env) <= bound;
      if (!inside) continue;
      const auto value = Eval(*tree, env);
      if (!value) continue;
      ASSERT_EQ(Evaluate(r, env), value) << d << " refined to " << r << " at A=" << env["A"]
                                         << " B=" << env["B"] << " C=" << env["C"];
      ++compared;
    }
  }
  EXPECT_GT(refined, 100);
  EXPECT_GT(compared, 1000);
}

}  // namespace
}  // namespace onnx_infer::symbolic
