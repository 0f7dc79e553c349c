// The arithmetic builders' shortcuts (monomials multiplied without polynomials, sums merged
// without sorting, Sub without interning the negation, Dim::Product folding constants, the
// small-constant cache, Broadcast against a 1) against the general construction they replace: for
// every pair of a pool of dims, and for products of many, the same interned node (so the same
// text), and unknown exactly where the general path gives unknown (overflow, the size cap).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "onnx_infer/symbolic/broadcast.h"
#include "onnx_infer/symbolic/context.h"
#include "onnx_infer/symbolic/dim.h"
#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// ---- The general construction: polynomials concatenated, then sorted and merged by
// FromPoly()/FromFactors(), as the builders did before their shortcuts.

const DimNode* RefAdd(const DimNode* a, const DimNode* b) {
  if (!a || !b) return nullptr;
  if (a->kind == Kind::kConst && b->kind == Kind::kConst) {
    int64_t sum;
    return __builtin_add_overflow(a->value, b->value, &sum) ? nullptr : Const(sum);
  }
  Poly pa = AsPoly(a), pb = AsPoly(b);
  if (__builtin_add_overflow(pa.constant, pb.constant, &pa.constant)) return nullptr;
  pa.terms.insert(pa.terms.end(), pb.terms.begin(), pb.terms.end());
  return FromPoly(std::move(pa));
}

const DimNode* RefMulConst(const DimNode* a, int64_t c) {
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

const DimNode* RefSub(const DimNode* a, const DimNode* b) {
  if (!a || !b) return nullptr;
  if (a == b) return Const(0);
  return RefAdd(a, RefMulConst(b, -1));
}

const DimNode* RefMul(const DimNode* a, const DimNode* b) {
  if ((a && a->kind == Kind::kConst && a->value == 0) ||
      (b && b->kind == Kind::kConst && b->value == 0)) {
    return Const(0);
  }
  if (!a || !b) return nullptr;
  if (a->kind == Kind::kConst) return RefMulConst(b, a->value);
  if (b->kind == Kind::kConst) return RefMulConst(a, b->value);
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

Dim RefProduct(const std::vector<Dim>& dims) {
  const DimNode* p = Const(1);
  for (Dim d : dims) p = RefMul(p, d.node());
  return Dim::FromNode(p);
}

// Broadcast() as it was before its shortcuts for a 1 on either side.
BroadcastResult RefBroadcast(Dim a, Dim b, const Assumptions* as) {
  BroadcastResult r;
  const Dim one = Dim::Const(1);
  if (a == b || Equal(a, b, as) == Tri::kTrue) {
    r.dim = a;
    return r;
  }
  if (a == one) {
    r.dim = b;
    return r;
  }
  if (b == one) {
    r.dim = a;
    return r;
  }
  if (a.is_const() && b.is_const()) {
    r.ok = false;
    r.error = "cannot broadcast " + a.ToString() + " with " + b.ToString();
    return r;
  }
  const bool a_not_one = Equal(a, one, as) == Tri::kFalse;
  const bool b_not_one = Equal(b, one, as) == Tri::kFalse;
  if (a_not_one && b_not_one) {
    if (Equal(a, b, as) == Tri::kFalse) {
      r.ok = false;
      r.error = "cannot broadcast " + a.ToString() + " with " + b.ToString() +
                ": neither can be 1 and they differ";
      return r;
    }
    r.dim = a.is_unknown() ? b : a;
    if (!a.is_unknown() && !b.is_unknown()) {
      r.condition = a.ToString() + " == " + b.ToString();
      r.must_be_equal = true;
    }
    return r;
  }
  if (a_not_one || b_not_one) {
    Dim wins = a_not_one ? a : b, other = a_not_one ? b : a;
    r.dim = wins;
    if (!other.is_unknown()) {
      r.condition =
          other.ToString() + " == " + wins.ToString() + " or " + other.ToString() + " == 1";
    }
    return r;
  }
  if (a.is_unknown() || b.is_unknown()) return r;  // the unknown could be 1 or the other
  r.dim = Dim::Max(a, b) * Dim::Min(Dim::Const(1), Dim::Min(a, b));
  r.condition = a.ToString() + " == " + b.ToString() + " or " + a.ToString() + " == 1 or " +
                b.ToString() + " == 1";
  return r;
}

std::string Text(const DimNode* n) { return Dim::FromNode(n).ToString(); }

const std::vector<int64_t>& Constants() {
  static const std::vector<int64_t> values = {0,
                                              1,
                                              -1,
                                              2,
                                              -2,
                                              3,
                                              -3,
                                              7,
                                              12,
                                              64,
                                              -16,
                                              -17,
                                              1023,
                                              1024,
                                              3037000499,
                                              3037000500,
                                              int64_t{1} << 62,
                                              -(int64_t{1} << 62),
                                              kMax,
                                              kMax - 1,
                                              kMin,
                                              kMin + 1};
  return values;
}

// The sum S0 + S1 + ... of `count` symbols named `prefix`i: size count + 1.
const DimNode* WideSum(const std::string& prefix, int count) {
  Poly p;
  for (int i = 0; i < count; ++i) {
    p.terms.emplace_back(Dim::Symbol(prefix + std::to_string(i)).node(), 1);
  }
  return FromPoly(std::move(p));
}

// The product S0·S1·... of `count` symbols: size count + 1.
const DimNode* WideProduct(const std::string& prefix, int count) {
  std::vector<std::pair<const DimNode*, int64_t>> f;
  for (int i = 0; i < count; ++i) f.emplace_back(Dim::Symbol(prefix + std::to_string(i)).node(), 1);
  return FromFactors(std::move(f));
}

// Unknown, constants, symbols in either order, monomials (coefficients of either sign, powers,
// opaque atoms), sums, and (when `wide`) nodes at the edges of kHardSizeCap. Built with the
// reference builders only.
std::vector<const DimNode*> Pool(bool wide = true) {
  const DimNode* n = Dim::Symbol("N").node();
  const DimNode* m = Dim::Symbol("M").node();
  const DimNode* a = Dim::Symbol("A").node();
  const DimNode* nm = RefMul(n, m);
  const DimNode* half = FloorDiv(n, Const(2), nullptr);
  std::vector<const DimNode*> pool = {nullptr, n, m, a, nm};
  for (int64_t c : Constants()) pool.push_back(Const(c));
  for (int64_t c : {int64_t{2}, int64_t{-1}, int64_t{-3}, int64_t{64}, kMax, kMin, kMin + 1}) {
    pool.push_back(RefMulConst(n, c));
    pool.push_back(RefMulConst(nm, c));
  }
  pool.push_back(RefMul(n, n));                                 // N^2
  pool.push_back(RefMul(RefMul(n, n), a));                      // A*N^2
  pool.push_back(half);                                         // floor(N/2)
  pool.push_back(RefMulConst(half, 2));                         // 2*floor(N/2)
  pool.push_back(RefMul(half, m));                              // M*floor(N/2)
  pool.push_back(Mod(m, Const(3), nullptr));                    // Mod(M, 3)
  pool.push_back(Max(n, m, nullptr));                           // Max(M, N)
  pool.push_back(RefAdd(n, Const(1)));                          // N + 1
  pool.push_back(RefSub(Const(-1), n));                         // -N - 1
  pool.push_back(RefSub(RefMulConst(n, 2), m));                 // 2*N - M
  pool.push_back(RefAdd(RefAdd(nm, n), Const(5)));              // M*N + N + 5
  pool.push_back(RefAdd(RefMulConst(nm, kMin), Const(kMax)));   // extreme coefficients
  pool.push_back(RefAdd(Max(n, m, nullptr), Const(kMin)));      // Max(M, N) - 2^63
  pool.push_back(RefAdd(WideSum("W", 3), RefMulConst(n, -1)));  // W0 + W1 + W2 - N
  if (!wide) return pool;
  // Sums around half the cap (from size 512 Sub takes the general path); a product of size
  // 1023, which a factor or a coefficient takes past the cap (more in
  // ProductAtTheSizeCapIsTheLeftFold).
  for (int count : {510, 511}) pool.push_back(WideSum("S", count));
  pool.push_back(WideProduct("P", 1022));
  pool.push_back(RefMulConst(WideSum("S", 510), -1));
  pool.push_back(RefMulConst(WideProduct("P", 1021), 3));
  return pool;
}

class ArithmeticTest : public ::testing::Test {
 protected:
  SymbolContext context_;
  SymbolContext::Scope scope_{context_};
};

TEST_F(ArithmeticTest, PoolCoversTheCases) {
  const auto pool = Pool();
  int unknowns = 0, sums = 0, products = 0;
  for (const DimNode* d : pool) {
    if (!d) ++unknowns;
    if (d && d->kind == Kind::kSum) ++sums;
    if (d && d->kind == Kind::kProduct) ++products;
  }
  EXPECT_EQ(unknowns, 1);  // every reference builder gave a node
  EXPECT_GT(sums, 20);
  EXPECT_GT(products, 4);
}

TEST_F(ArithmeticTest, AddSubMulOfEveryPairAreTheGeneralResult) {
  const auto pool = Pool();
  for (const DimNode* a : pool) {
    for (const DimNode* b : pool) {
      EXPECT_EQ(Add(a, b), RefAdd(a, b)) << Text(a) << " + " << Text(b);
      EXPECT_EQ(Sub(a, b), RefSub(a, b)) << Text(a) << " - " << Text(b);
      // A wide sum times a sum distributes into thousands of terms, twice: slow under
      // ThreadSanitizer, and no shortcut of Mul applies to a sum of many terms.
      auto wide_sum = [](const DimNode* n) { return n && n->kind == Kind::kSum && n->size > 100; };
      if (wide_sum(a) || wide_sum(b)) continue;
      EXPECT_EQ(Mul(a, b), RefMul(a, b)) << Text(a) << " * " << Text(b);
    }
  }
}

TEST_F(ArithmeticTest, MulConstAndNegAreTheGeneralResult) {
  for (const DimNode* a : Pool()) {
    for (int64_t c : Constants()) {
      EXPECT_EQ(MulConst(a, c), RefMulConst(a, c)) << Text(a) << " * " << c;
    }
    EXPECT_EQ(Neg(a), RefMulConst(a, -1));
  }
}

TEST_F(ArithmeticTest, ProductOfEveryTripleIsTheLeftFold) {
  const auto pool = Pool(/*wide=*/false);
  for (const DimNode* a : pool) {
    for (const DimNode* b : pool) {
      for (const DimNode* c : pool) {
        const std::vector<Dim> dims = {Dim::FromNode(a), Dim::FromNode(b), Dim::FromNode(c)};
        const Dim want = RefProduct(dims);
        ASSERT_EQ(Dim::Product(dims), want) << Text(a) << " * " << Text(b) << " * " << Text(c)
                                            << ": " << Dim::Product(dims) << " vs " << want;
      }
    }
  }
}

TEST_F(ArithmeticTest, RememberedProductsAreTheLeftFold) {
  // Lists drawn from a few dims recur, so most products after the first few come from the
  // memo (expr.h), and lists that share a memo slot displace each other.
  std::mt19937 rng(32);
  std::uniform_int_distribution<int> length(0, 8);
  const auto pool = Pool(/*wide=*/false);
  std::uniform_int_distribution<size_t> pick(0, 5);
  for (int i = 0; i < 20000; ++i) {
    std::vector<Dim> dims(length(rng));
    for (Dim& d : dims) d = Dim::FromNode(pool[pick(rng)]);
    const Dim want = RefProduct(dims);
    ASSERT_EQ(Dim::Product(dims), want) << i;
    ASSERT_EQ(Dim::Product(dims), want) << i;  // the remembered one
  }
}

TEST_F(ArithmeticTest, ProductOfLongerListsIsTheLeftFold) {
  std::mt19937 rng(16);
  std::uniform_int_distribution<int> length(0, 7);
  // Many lists of small dims, fewer with the wide ones (their reference products are slow).
  for (auto [wide, lists] : {std::pair{false, 5000}, std::pair{true, 300}}) {
    const auto pool = Pool(wide);
    std::uniform_int_distribution<size_t> pick(0, pool.size() - 1);
    for (int i = 0; i < lists; ++i) {
      std::vector<Dim> dims(length(rng));
      for (Dim& d : dims) d = Dim::FromNode(pool[pick(rng)]);
      if (Dim::Product(dims) != RefProduct(dims)) {
        std::string text;
        for (Dim d : dims) text += d.ToString() + "; ";
        FAIL() << text << Dim::Product(dims) << " vs " << RefProduct(dims);
      }
    }
  }
}

TEST_F(ArithmeticTest, ProductExamples) {
  const Dim b = Dim::Symbol("B"), s = Dim::Symbol("S"), c = Dim::Const(64);
  EXPECT_EQ(Dim::Product({}).ToString(), "1");
  EXPECT_EQ(Dim::Product({b, s, c}).ToString(), "64*B*S");
  EXPECT_EQ(Dim::Product({c, s, b}), Dim::Product({b, s, c}));  // either order, one node
  EXPECT_EQ(Dim::Product({b, Dim(), Dim::Const(0)}), Dim::Const(0));
  EXPECT_TRUE(Dim::Product({b, Dim(), c}).is_unknown());
  EXPECT_EQ(Dim::Product({Dim::Const(-1), b, Dim::Const(-1)}), b);
  EXPECT_EQ(Dim::Product({b, b * Dim::Const(2), b}).ToString(), "2*B**3");
  EXPECT_EQ(Dim::Product({b + Dim::Const(1), s}).ToString(), "B*S + S");
  // 2^62 * 2 overflows before the -1 could bring it back: unknown, as from the left.
  EXPECT_TRUE(
      Dim::Product({Dim::Const(-(int64_t{1} << 62)), Dim::Const(-2), Dim::Const(-1)}).is_unknown());
  EXPECT_EQ(Dim::Product({Dim::Const(-(int64_t{1} << 62)), Dim::Const(2)}), Dim::Const(kMin));
}

TEST_F(ArithmeticTest, ProductAtTheSizeCapIsTheLeftFold) {
  // -P of size 1023 passes the cap (1025 nodes): unknown from there on, even when a second
  // -1 would give P back.
  const Dim p = Dim::FromNode(WideProduct("P", 1022));
  const Dim minus = Dim::Const(-1), n = Dim::Symbol("N");
  EXPECT_TRUE(Dim::Product({p, minus, minus}).is_unknown());
  EXPECT_EQ(Dim::Product({minus, minus, p}), p);  // the constants first: never -P
  for (const std::vector<Dim>& dims : std::vector<std::vector<Dim>>{
           {p, minus, minus},
           {minus, p, minus},
           {minus, minus, p},
           {p, n},
           {p, n, n},
           {n, Dim::Const(3), p},
           {p, Dim::FromNode(WideProduct("P", 3))},
           {Dim::FromNode(WideProduct("Q", 1020)), Dim::Const(2), n, Dim::Const(-1)},
           {Dim::FromNode(WideSum("S", 511)), n},
           {n, Dim::FromNode(WideSum("S", 1023)), Dim::Const(2)}}) {
    std::string text;
    for (Dim d : dims) text += d.is_unknown() ? "?; " : std::to_string(d.size()) + "; ";
    EXPECT_EQ(Dim::Product(dims), RefProduct(dims)) << text;
  }
}

TEST_F(ArithmeticTest, AddConstantsIsTheLeftFold) {
  // Atoms at the size cap: a constant makes a sum past it, unknown even if a later constant
  // brings the sum back to 0.
  std::vector<const DimNode*> pool = Pool();
  pool.push_back(WideProduct("P", 1023));
  pool.push_back(WideProduct("P", 1024));
  const std::vector<std::vector<int64_t>> lists = {{},
                                                   {0},
                                                   {5},
                                                   {-5, 5},
                                                   {1, 2, -3},
                                                   {kMax, 1},
                                                   {kMax, -kMax},
                                                   {kMin, -1},
                                                   {kMin, kMax},
                                                   {-1, kMin},
                                                   {kMax, kMin, 1},
                                                   {3, 0, -7, 4},
                                                   {0, 0, 0}};
  for (const DimNode* a : pool) {
    for (const auto& ks : lists) {
      const DimNode* fold = a;
      for (int64_t k : ks) fold = Add(fold, Const(k));
      EXPECT_EQ(AddConstants(a, ks), fold) << Text(a) << " + " << ::testing::PrintToString(ks);
    }
  }
  const Dim n = Dim::Symbol("N");
  EXPECT_EQ(Dim::AddConstants(n, {1, 2, -4}), n - Dim::Const(1));
  EXPECT_EQ(Dim::AddConstants(n, {1, -1}), n);
  EXPECT_EQ(Dim::AddConstants(Dim::Const(3), {4}), Dim::Const(7));
  EXPECT_TRUE(Dim::AddConstants(Dim(), {4}).is_unknown());
}

TEST_F(ArithmeticTest, BroadcastOfEveryPairIsTheGeneralResult) {
  auto pool = Pool(/*wide=*/false);
  // A 1 that is not the constant 1 once C is known even: Equal(1, it) is kTrue then.
  const Dim c = Dim::Symbol("C");
  const Dim odd_one = Dim::Const(2) * Dim::FloorDiv(c, Dim::Const(2)) - c + Dim::Const(1);
  pool.push_back(odd_one.node());
  pool.push_back(c.node());
  Assumptions positive, even;
  positive.SetDefaultLowerBound(1);
  even.AddMultipleOf(c, 2);
  ASSERT_EQ(Equal(Dim::Const(1), odd_one, &even), Tri::kTrue);
  for (const Assumptions* as : std::vector<const Assumptions*>{nullptr, &positive, &even}) {
    for (const DimNode* x : pool) {
      for (const DimNode* y : pool) {
        const Dim a = Dim::FromNode(x), b = Dim::FromNode(y);
        const BroadcastResult got = Broadcast(a, b, as), want = RefBroadcast(a, b, as);
        EXPECT_EQ(got.ok, want.ok) << a << " with " << b;
        EXPECT_EQ(got.dim, want.dim) << a << " with " << b << ": " << got.dim << " vs " << want.dim;
        EXPECT_EQ(got.error, want.error);
        EXPECT_EQ(got.condition, want.condition);
        EXPECT_EQ(got.must_be_equal, want.must_be_equal);
      }
    }
  }
}

TEST_F(ArithmeticTest, SmallConstantsAreTheInternedNodes) {
  const size_t before = context_.node_count();
  for (int64_t v : {-17, -16, -1, 0, 1, 2, 1023, 1024}) {
    SCOPED_TRACE(v);
    const Dim d = Dim::Const(v);
    EXPECT_EQ(d.const_value(), v);
    EXPECT_EQ(Dim::Const(v), d);
    EXPECT_EQ(Dim::Const(v - 1) + Dim::Const(1), d);  // a computed constant is the same node
  }
  EXPECT_EQ(context_.node_count(), before + 11);  // -18 .. -16, -2 .. 2, 1022 .. 1024
  // Another context has nodes of its own, cached or not.
  SymbolContext other;
  Dim elsewhere, big_elsewhere;
  {
    SymbolContext::Scope scope(other);
    elsewhere = Dim::Const(5);
    big_elsewhere = Dim::Const(5000);
  }
  EXPECT_NE(elsewhere, Dim::Const(5));
  EXPECT_NE(big_elsewhere, Dim::Const(5000));
  EXPECT_EQ(other.node_count(), 2u);
}

TEST(ArithmeticThreadsTest, ThreadsSharingAContextGetOneNodePerConstant) {
  SymbolContext shared;
  constexpr int kThreads = 4;
  std::vector<std::vector<Dim>> made(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      SymbolContext::Scope scope(shared);
      for (int64_t v = -20; v < 1100; ++v) made[t].push_back(Dim::Const(v));
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(made[t], made[0]);
  EXPECT_EQ(shared.node_count(), 1120u);
}

}  // namespace
}  // namespace onnx_infer::symbolic
