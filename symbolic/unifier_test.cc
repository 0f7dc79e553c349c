#include "onnx_infer/symbolic/unifier.h"

#include <gtest/gtest.h>

#include <string>

#include "onnx_infer/symbolic/broadcast.h"
#include "onnx_infer/symbolic/parse.h"

namespace onnx_infer::symbolic {
namespace {

Dim P(const char* text) { return ParseDim(text).value_or(Dim()); }

TEST(UnifierTest, SymbolsMergeAndBind) {
  Unifier u;
  ASSERT_TRUE(u.Unify(P("N"), P("M"), "first").ok());
  EXPECT_EQ(u.Resolve(P("N + M")).ToString(), "2*M");  // the smaller name represents
  EXPECT_EQ(u.Equal(P("N"), P("M")), Tri::kTrue);
  ASSERT_TRUE(u.Unify(P("M"), P("5"), "second").ok());
  EXPECT_EQ(u.Resolve(P("N*S")).ToString(), "5*S");
  EXPECT_EQ(u.facts().size(), 2u);
  ASSERT_TRUE(u.Unify(P("N"), P("5"), "again").ok());  // already known: nothing new
  EXPECT_EQ(u.facts().size(), 2u);
}

// Resolve remembers its results; every fact or assumption learnt after must show through,
// and a fact refused (rolled back) must change nothing.
TEST(UnifierTest, AResolvedDimFollowsWhatIsLearntLater) {
  Unifier u;
  EXPECT_EQ(u.Resolve(P("N + 1")), P("N + 1"));
  ASSERT_TRUE(u.Unify(P("N"), P("M"), "first").ok());
  EXPECT_EQ(u.Resolve(P("N + 1")), P("M + 1"));
  EXPECT_FALSE(u.Unify(P("M + 1"), P("M"), "impossible").ok());
  EXPECT_EQ(u.Resolve(P("N + 1")), P("M + 1"));
  ASSERT_TRUE(u.Unify(P("M"), P("4"), "second").ok());
  EXPECT_EQ(u.Resolve(P("N + 1")), P("5"));
  EXPECT_EQ(u.Resolve(P("Max(0, S - 2)")), P("Max(0, S - 2)"));
  ASSERT_TRUE(u.AssumeUser("S", 2).ok());
  EXPECT_EQ(u.Resolve(P("Max(0, S - 2)")), P("S - 2"));
}

TEST(UnifierTest, ContradictionNamesWhereEachFactCameFrom) {
  Unifier u;
  ASSERT_TRUE(u.Unify(P("N"), P("4"), "node 'a' input 0 dim 0").ok());
  Status s = u.Unify(P("N"), P("3"), "node 'b' input 1 dim 0");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "N == 3 (node 'b' input 1 dim 0) contradicts N == 4 (node 'a' input 0 dim 0)");
  EXPECT_EQ(u.Resolve(P("N")), P("4"));  // the rejected fact changed nothing
}

TEST(UnifierTest, EquationsAreKeptAsFactsAndChecked) {
  Unifier u;
  ASSERT_TRUE(u.Unify(P("B*S"), P("768"), "reshape").ok());
  EXPECT_EQ(u.Resolve(P("B")), P("B"));  // not a binding by itself
  ASSERT_TRUE(u.Unify(P("B"), P("2"), "batch").ok());
  EXPECT_EQ(u.Resolve(P("S")), P("384"));  // the kept equation reduced to S == 384
  Status s = u.Unify(P("S"), P("100"), "seq");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("B*S == 768 (reshape)"), std::string::npos) << s.message();
  // An equation that cannot hold once B is known is a contradiction too.
  Unifier v;
  ASSERT_TRUE(v.Unify(P("2*K"), P("7 + 0*K + M"), "x").ok());
  s = v.Unify(P("M"), P("0"), "y");
  EXPECT_FALSE(s.ok());  // 2*K == 7 has no integer solution
}

TEST(UnifierTest, LowerBounds) {
  Unifier u;
  ASSERT_TRUE(u.AssumeAtLeast("N", 1, "model").ok());
  EXPECT_EQ(u.Equal(P("N"), P("0")), Tri::kFalse);
  EXPECT_EQ(u.Resolve(P("Max(N, 1)")), P("N"));
  Status s = u.Unify(P("N"), P("0"), "later");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("N >= 1"), std::string::npos) << s.message();
  ASSERT_TRUE(u.Unify(P("M"), P("3"), "m").ok());
  EXPECT_FALSE(u.AssumeAtLeast("M", 4, "bound").ok());
}

TEST(UnifierTest, ManyClassesEachResolve) {
  // The fact chain of 10,000 MatMuls: each fact merges two symbols seen nowhere else.
  Unifier u;
  for (int i = 0; i < 10000; ++i) {
    const std::string k = "K" + std::to_string(i), j = "J" + std::to_string(i);
    ASSERT_TRUE(u.Unify(Dim::Symbol(k), Dim::Symbol(j), "mm").ok());
  }
  EXPECT_EQ(u.facts().size(), 10000u);
  EXPECT_EQ(u.Resolve(P("K17 + J9999")).ToString(), "J17 + J9999");  // J < K
  EXPECT_EQ(u.Equal(P("K42"), P("J42")), Tri::kTrue);
  EXPECT_EQ(u.Equal(P("K42"), P("J43")), Tri::kUnknown);
  // One long class: every member resolves to the smallest name, whatever the order.
  Unifier chain;
  for (int i = 5000; i > 0; --i) {
    ASSERT_TRUE(chain
                    .Unify(Dim::Symbol("x" + std::to_string(i)),
                           Dim::Symbol("x" + std::to_string(i - 1)), "link")
                    .ok());
  }
  EXPECT_EQ(chain.Resolve(P("x5000 - x2500")), P("0"));
  EXPECT_EQ(chain.Resolve(P("x4321")), P("x0"));
  ASSERT_TRUE(chain.Unify(P("x3000"), P("7"), "value").ok());
  EXPECT_EQ(chain.Resolve(P("x1 + x4999")), P("14"));
}

TEST(UnifierTest, SymbolsBoundToExpressions) {
  Unifier u;
  // X - e == 0 binds the bare side: KM1 == K - 1 writes KM1 as K - 1 from then on, and since
  // KM1 is a dim (>= 0), K >= 1.
  ASSERT_TRUE(u.Unify(P("K - 1"), P("KM1"), "conv state").ok());
  EXPECT_EQ(u.Resolve(P("KM1 + 1")), P("K"));
  EXPECT_EQ(u.Resolve(P("Max(0, K - 1)")), P("K - 1"));
  EXPECT_EQ(u.Equal(P("K"), P("0")), Tri::kFalse);
  ASSERT_TRUE(u.Unify(P("4*H"), P("G"), "lstm").ok());
  EXPECT_EQ(u.Resolve(P("floor(G/4)")), P("H"));
  // Values follow later facts: X == Y + 1, Y == Z + 2, then Z == 4.
  ASSERT_TRUE(u.Unify(P("X"), P("Y + 1"), "a").ok());
  ASSERT_TRUE(u.Unify(P("Y"), P("Z + 2"), "b").ok());
  EXPECT_EQ(u.Resolve(P("X")), P("Z + 3"));
  ASSERT_TRUE(u.Unify(P("Z"), P("4"), "c").ok());
  EXPECT_EQ(u.Resolve(P("X*Y")), P("42"));
  // ...and a merge renames what values mention: W == H makes G read 4*H still (H < W).
  ASSERT_TRUE(u.Unify(P("W"), P("H"), "d").ok());
  EXPECT_EQ(u.Resolve(P("G - 4*W")), P("0"));
  ASSERT_TRUE(u.Unify(P("A0"), P("H"), "e").ok());  // now A0 represents H's class
  EXPECT_EQ(u.Resolve(P("G")), P("4*A0"));
  // A value that would break a bound is a contradiction: X is 7, so X == 0 cannot hold, and
  // nor can K == 0.
  EXPECT_FALSE(u.Unify(P("K"), P("0"), "f").ok());
}

// ProvenAtLeastByModel remembers its answers: each must be LessEqual's under assumptions()
// as they are when asked, after facts, bounds and refused facts alike.
TEST(UnifierTest, RememberedComparisonsFollowWhatIsLearntLater) {
  Unifier u;
  auto check = [&](const std::string& d, int64_t k) {
    const Tri want = LessEqual(Dim::Const(k), P(d.c_str()), &u.assumptions());
    EXPECT_EQ(u.ProvenAtLeastByModel(P(d.c_str()), k), want) << d << " >= " << k;
    EXPECT_EQ(u.ProvenAtLeastByModel(P(d.c_str()), k), want) << d << " >= " << k << ", again";
    return want;
  };
  EXPECT_EQ(check("B", 0), Tri::kTrue);
  EXPECT_EQ(check("B", 1), Tri::kUnknown);
  ASSERT_TRUE(u.AssumeAtLeast("B", 1, "a model's bound").ok());
  EXPECT_EQ(check("B", 1), Tri::kTrue);  // learnt after it was asked
  // (The model's bounds are its classes' representatives': a dim is compared as given, not
  // resolved, as Reshape asks.)
  EXPECT_EQ(check("S", 1), Tri::kUnknown);
  ASSERT_TRUE(u.AssumeAtLeast("S", 2, "another bound").ok());
  EXPECT_EQ(check("S", 1), Tri::kTrue);
  EXPECT_EQ(check("S", 3), Tri::kUnknown);
  ASSERT_TRUE(u.Unify(P("S"), P("B"), "merge").ok());
  check("S", 1);
  check("B", 2);
  EXPECT_FALSE(u.Unify(P("S + 1"), P("S"), "impossible").ok());
  check("S", 1);
  check("B - 2", 0);
  ASSERT_TRUE(u.Unify(P("B"), P("7"), "bind").ok());
  check("B - 2", 0);
  // More dims and constants than the memo has slots: each still answered as LessEqual.
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 300; ++i)
      check("N" + std::to_string(i % 97) + " + " + std::to_string(i % 5), i % 7);
  }
}

TEST(UnifierTest, RejectedFactsLeaveNoTrace) {
  Unifier u;
  ASSERT_TRUE(u.Unify(P("B*S"), P("768"), "reshape").ok());
  ASSERT_TRUE(u.Unify(P("T"), P("S + 1"), "t").ok());
  ASSERT_TRUE(u.Unify(P("C"), P("D"), "c").ok());
  const std::string before = u.Resolve(P("B + S + T + C + D")).ToString();
  // B == 5 merges nothing at first, then B*S == 768 cannot hold (768 is not a multiple of 5).
  Status s = u.Unify(P("B"), P("5"), "batch");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("B*S == 768 (reshape)"), std::string::npos) << s.message();
  EXPECT_EQ(u.Resolve(P("B + S + T + C + D")).ToString(), before);
  EXPECT_EQ(u.facts().size(), 3u);
  // A cascade rolled back: T == 100 binds S to 99 through T == S + 1, and then B*99 == 768
  // has no solution.
  s = u.Unify(P("T"), P("100"), "t100");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(u.Resolve(P("B + S + T + C + D")).ToString(), before);
  EXPECT_EQ(u.Resolve(P("T")), P("S + 1"));
  ASSERT_TRUE(u.Unify(P("T"), P("97"), "t97").ok());  // S == 96, B == 8
  EXPECT_EQ(u.Resolve(P("B")), P("8"));
}

TEST(UnifierTest, MultiplesFromKeptEquations) {
  Unifier u;
  // Reshape [N, C] -> [N, 2, -1] records N*Mod(C, 2) == 0: C may be odd when N is 0.
  ASSERT_TRUE(u.Unify(P("N*Mod(C, 2)"), P("0"), "reshape").ok());
  EXPECT_EQ(u.Resolve(P("2*floor(C/2)")).ToString(), "2*floor(C/2)");
  ASSERT_TRUE(u.AssumeAtLeast("N", 1, "model").ok());  // now C is even
  EXPECT_EQ(u.Resolve(P("2*floor(C/2)")), P("C"));
  EXPECT_EQ(u.Resolve(P("C - floor((C + 1)/2)")), P("floor(C/2)"));
  EXPECT_EQ(u.Equal(P("2*floor(C/2)"), P("C")), Tri::kTrue);
  EXPECT_EQ(u.assumptions().KnownModulus(P("C").node()), 2);
  // The equation stays and is checked: C == 3 contradicts it.
  Status s = u.Unify(P("C"), P("3"), "odd");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("N*Mod(C, 2) == 0 (reshape)"), std::string::npos) << s.message();
  ASSERT_TRUE(u.Unify(P("C"), P("4"), "even").ok());
  // A merge that renames the class keeps the multiple: A0 now represents C.
  Unifier w;
  ASSERT_TRUE(w.Unify(P("Mod(C, 2)"), P("0"), "reshape").ok());
  ASSERT_TRUE(w.Unify(P("C"), P("D"), "concat").ok());
  ASSERT_TRUE(w.Unify(P("D"), P("A0"), "concat").ok());  // the larger class is renamed
  EXPECT_EQ(w.Resolve(P("2*floor(D/2)")), P("A0"));
  // Mod(x, c) == 0 directly, and a product with a symbol known to be 0.
  Unifier v;
  ASSERT_TRUE(v.Unify(P("Mod(H*W, 8)"), P("0"), "blocks").ok());
  EXPECT_EQ(v.Resolve(P("floor((H*W + 7)/8)")), P("floor(H*W/8)"));
  ASSERT_TRUE(v.AssumeAtLeast("A", 2, "a").ok());
  ASSERT_TRUE(v.Unify(P("A*Z"), P("0"), "empty").ok());
  EXPECT_EQ(v.Resolve(P("Z + 1")), P("1"));
}

TEST(UnifierTest, UserAssumptionsAreNamedWhereUsed) {
  Unifier u;
  ASSERT_TRUE(u.AssumeUser("S", 2).ok());
  std::vector<std::string> used;
  EXPECT_EQ(u.Resolve(P("Max(0, -Min(1, S) + Max(0, S - 1))"), &used), P("S - 2"));
  EXPECT_EQ(used, std::vector<std::string>{"S >= 2"});
  EXPECT_EQ(u.Resolve(P("Max(0, N - 1)"), &used), P("Max(0, N - 1)"));
  EXPECT_TRUE(used.empty());
  EXPECT_EQ(u.Resolve(P("S + N"), &used), P("N + S"));  // the same without it
  EXPECT_TRUE(used.empty());
  EXPECT_EQ(u.assumptions().LowerBound("S"), 0);  // the model says nothing of S
  EXPECT_EQ(u.LessEqual(P("2"), P("S")), Tri::kTrue);
  Status s = u.Unify(P("S"), P("1"), "node 'x'");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "S == 1 (node 'x') contradicts S >= 2 (assumed)");
  // An assumption follows merges: T == S gives T >= 2, reported under the representative.
  ASSERT_TRUE(u.Unify(P("T"), P("S"), "merge").ok());
  EXPECT_EQ(u.Resolve(P("Max(2, T)"), &used), P("S"));
  EXPECT_EQ(used, std::vector<std::string>{"S >= 2"});
  // An assumption the model already contradicts is rejected, and assumes nothing.
  ASSERT_TRUE(u.Unify(P("R"), P("1"), "node 'r'").ok());
  s = u.AssumeUser("R", 2);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "R >= 2 (assumed) contradicts R == 1 (node 'r')");

  // --assume-positive: every symbol >= 1, also those seen later; multiples that need it are
  // used under it, and named.
  Unifier p;
  ASSERT_TRUE(p.Unify(P("N*Mod(C, 2)"), P("0"), "reshape").ok());
  ASSERT_TRUE(p.AssumeAllPositive().ok());
  EXPECT_EQ(p.Resolve(P("2*floor(C/2)"), &used), P("C"));
  EXPECT_EQ(used, std::vector<std::string>{"N >= 1"});
  EXPECT_EQ(p.Resolve(P("Max(1, M) + Max(0, M - 1)"), &used), P("2*M - 1"));
  EXPECT_EQ(used, std::vector<std::string>{"M >= 1"});
  EXPECT_EQ(p.Resolve(P("2*floor(C/2)")), P("C"));
  EXPECT_EQ(p.assumptions().KnownModulus(P("C").node()), 1);  // not what the model says
  s = p.Unify(P("M"), P("0"), "empty");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("every symbol >= 1 (assumed)"), std::string::npos) << s.message();
  Unifier zero;
  ASSERT_TRUE(zero.Unify(P("K"), P("0"), "empty cache").ok());
  EXPECT_FALSE(zero.AssumeAllPositive().ok());
  EXPECT_EQ(zero.Resolve(P("Max(1, M)")), P("Max(1, M)"));  // rejected: nothing assumed
}

TEST(UnifierTest, UpperBoundsDecideMinAndComparisons) {
  Unifier u;
  EXPECT_EQ(u.LessEqual(P("S"), P("4096")), Tri::kUnknown);
  ASSERT_TRUE(u.AssumeAtMost("S", 4096, "table").ok());
  EXPECT_EQ(u.LessEqual(P("S"), P("4096")), Tri::kTrue);
  EXPECT_EQ(u.Resolve(P("Min(4096, S)")), P("S"));
  EXPECT_EQ(u.Equal(P("S"), P("5000")), Tri::kFalse);
  // The model's bound is not the user's: nothing needed an assumption.
  std::vector<std::string> used;
  EXPECT_EQ(u.Resolve(P("Min(4096, S)"), &used), P("S"));
  EXPECT_TRUE(used.empty());
  // Merged classes keep the tighter bound; a value past it contradicts.
  ASSERT_TRUE(u.AssumeAtMost("T", 100, "other").ok());
  ASSERT_TRUE(u.Unify(P("S"), P("T"), "merge").ok());
  EXPECT_EQ(u.Resolve(P("Min(100, S)")), P("S"));
  Status s = u.Unify(P("S"), P("101"), "too big");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("T <= 100 (other)"), std::string::npos) << s.message();
  // Lower above upper is a contradiction naming both.
  s = u.AssumeAtLeast("S", 200, "lower");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("S <= 4096 (table)"), std::string::npos) << s.message();
  ASSERT_TRUE(u.Unify(P("S"), P("7"), "fits").ok());
}

TEST(UnifierTest, MinEquationsAreBounds) {
  Unifier u;
  ASSERT_TRUE(u.Unify(P("Min(4096, seq)"), P("seq"), "broadcast").ok());
  EXPECT_EQ(u.LessEqual(P("seq"), P("4096")), Tri::kTrue);
  auto bounds = u.BoundsOfSymbols();
  ASSERT_EQ(bounds.size(), 1u);
  EXPECT_EQ(bounds[0].symbol, "seq");
  EXPECT_EQ(bounds[0].hi, 4096);
  ASSERT_EQ(bounds[0].origins.size(), 1u);
  EXPECT_NE(bounds[0].origins[0].find("seq <= 4096 (Min(4096, seq) == seq, broadcast)"),
            std::string::npos)
      << bounds[0].origins[0];
  ASSERT_TRUE(u.Unify(P("Max(2, K)"), P("K"), "at least two").ok());
  EXPECT_EQ(u.LessEqual(P("2"), P("K")), Tri::kTrue);
  ASSERT_TRUE(u.Unify(P("Max(8, L)"), P("8"), "at most eight").ok());
  EXPECT_EQ(u.LessEqual(P("L"), P("8")), Tri::kTrue);
}

TEST(UnifierTest, RelationsBoundTheirSymbols) {
  Unifier u;
  ASSERT_TRUE(u.AssumeAtLeast("S", 1, "model").ok());
  ASSERT_TRUE(u.AssumeRelation(P("P + S"), std::nullopt, 4096, "", /*user=*/true).ok());
  EXPECT_EQ(u.LessEqual(P("P"), P("4095")), Tri::kTrue);
  EXPECT_EQ(u.LessEqual(P("S"), P("4096")), Tri::kTrue);
  ASSERT_EQ(u.relations().size(), 1u);
  EXPECT_EQ(u.relations()[0].ToString(), "P + S <= 4096 (assumed)");
  // What is learnt later tightens the derived bounds.
  ASSERT_TRUE(u.AssumeAtLeast("S", 96, "later").ok());
  EXPECT_EQ(u.LessEqual(P("P"), P("4000")), Tri::kTrue);
  // A result that needed them lists the user's bounds it used.
  std::vector<std::string> used;
  EXPECT_EQ(u.Resolve(P("Min(5000, P)"), &used), P("P"));
  EXPECT_EQ(used, std::vector<std::string>{"P <= 4000"});
  // The relation bounds the sum itself, not only its symbols.
  used.clear();
  EXPECT_EQ(u.Resolve(P("Min(4096, P + S)"), &used), P("P + S"));
  EXPECT_EQ(used, std::vector<std::string>{"P + S <= 4096"});
  EXPECT_EQ(u.LessEqual(P("P + S + 1"), P("4097")), Tri::kTrue);
  // A fact past a relation contradicts it.
  Status s = u.Unify(P("P"), P("4001"), "too long");
  ASSERT_FALSE(s.ok());
  // Relation classes are not reported as symbols.
  for (const auto& b : u.BoundsOfSymbols()) EXPECT_EQ(b.symbol.find("__"), std::string::npos);
  // A relation whose expression may be negative is kept, but as text only.
  ASSERT_TRUE(u.AssumeRelation(P("A - B"), std::nullopt, 3, "", true).ok());
  EXPECT_EQ(u.relations().size(), 2u);
  // A relation between constants is checked.
  Unifier v;
  ASSERT_TRUE(v.Unify(P("X"), P("3"), "x").ok());
  EXPECT_FALSE(v.AssumeRelation(P("X + 1"), std::nullopt, 3, "", true).ok());
}

TEST(UnifierTest, UserUpperBoundsAreNamedWhereUsed) {
  Unifier u;
  ASSERT_TRUE(u.AssumeUserAtMost("S", 2048).ok());
  std::vector<std::string> used;
  Dim without;
  EXPECT_EQ(u.Resolve(P("Min(4096, S)"), &used, &without), P("S"));
  EXPECT_EQ(used, std::vector<std::string>{"S <= 2048"});
  EXPECT_EQ(without, P("Min(4096, S)"));
  EXPECT_EQ(u.UserAssumptionsOf({P("S + 1")}), std::vector<std::string>{"S <= 2048"});
  // The model's own facts never rest on the user's bounds.
  EXPECT_EQ(symbolic::LessEqual(P("S"), P("4096"), &u.assumptions()), Tri::kUnknown);
  EXPECT_EQ(symbolic::LessEqual(P("S"), P("4096"), &u.full_assumptions()), Tri::kTrue);
}

TEST(UnifierTest, DimsWrittenEarlierAreRefinedByTheModelsBounds) {
  Unifier u;
  std::vector<std::string> used;
  // Nothing known: nothing to refine.
  EXPECT_EQ(u.RefineByModelBounds(P("Min(4096, seq)"), &used), P("Min(4096, seq)"));
  EXPECT_TRUE(used.empty());
  ASSERT_TRUE(u.Unify(P("Min(4096, seq)"), P("seq"), "broadcast").ok());
  EXPECT_TRUE(u.has_model_upper_bounds());
  EXPECT_EQ(u.RefineByModelBounds(P("Min(4096, seq)"), &used), P("seq"));
  EXPECT_EQ(used, std::vector<std::string>{"seq <= 4096"});
  EXPECT_EQ(u.RefineByModelBounds(P("Max(4097, seq) + 1"), &used), P("4098"));
  EXPECT_EQ(used, std::vector<std::string>{"seq <= 4096"});
  // A dim the bound does not decide, or that needs none, stays.
  EXPECT_EQ(u.RefineByModelBounds(P("Min(100, seq)"), &used), P("Min(100, seq)"));
  EXPECT_TRUE(used.empty());
  EXPECT_EQ(u.RefineByModelBounds(P("seq + 1"), &used), P("seq + 1"));
  EXPECT_TRUE(used.empty());
  // A change that needs no bound (a fact learnt later) is not made here.
  ASSERT_TRUE(u.Unify(P("N"), P("4"), "fact").ok());
  EXPECT_EQ(u.RefineByModelBounds(P("N + 1"), &used), P("N + 1"));
  EXPECT_TRUE(used.empty());
  // A relation of the model's, named by its statement.
  Unifier v;
  ASSERT_TRUE(v.Unify(P("Min(4096, P + S)"), P("P + S"), "node 'add' (Add): broadcast").ok());
  EXPECT_EQ(v.RefineByModelBounds(P("Min(4096, P + S)"), &used), P("P + S"));
  EXPECT_EQ(used, std::vector<std::string>{"P + S <= 4096"});
  // A bound the user states as well (or tighter) is not the model's to name: the dim was
  // resolved under it when it was written.
  Unifier w;
  ASSERT_TRUE(w.AssumeUserAtMost("S", 100).ok());
  ASSERT_TRUE(w.AssumeAtMost("S", 4096, "table").ok());
  EXPECT_EQ(w.RefineByModelBounds(P("Min(4096, S)"), &used), P("Min(4096, S)"));
  EXPECT_TRUE(used.empty());
}

TEST(BroadcastTest, OnnxRules) {
  auto b = [](const char* x, const char* y) { return Broadcast(P(x), P(y)); };
  EXPECT_EQ(b("N", "N").dim, P("N"));
  EXPECT_EQ(b("1", "N").dim, P("N"));
  EXPECT_EQ(b("N + 1", "1 + N").dim, P("N + 1"));
  EXPECT_FALSE(b("3", "4").ok);
  EXPECT_EQ(b("N", "7").dim, P("7"));
  EXPECT_EQ(b("N", "7").condition, "N == 7 or N == 1");
  // Neither can be 1: they must be equal, a fact a unifier can record.
  auto r = b("N + 2", "M + 2");
  EXPECT_EQ(r.dim, P("N + 2"));
  EXPECT_TRUE(r.must_be_equal);
  EXPECT_FALSE(b("2*N + 2", "2*M + 3").ok);  // different parity, neither 1
  // Two symbols that could each be 1: the explicit broadcast, never a silent merge. It is
  // exact at 0 too: [0] with [1] is [0] (numpy, onnxruntime), where Max(N, M) would say 1.
  r = b("N", "M");
  EXPECT_EQ(r.dim.ToString(), "Min(1, Min(M, N))*Max(M, N)");
  EXPECT_EQ(r.condition, "N == M or N == 1 or M == 1");
  for (auto [n, m] : {std::pair{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 5}, {5, 1}, {5, 5}}) {
    const int64_t want = n == 1 ? m : n;
    EXPECT_EQ(Evaluate(r.dim, {{"N", n}, {"M", m}}), want) << n << ", " << m;
  }
  // Once both are known to be at least 1, it reads Max(M, N).
  Unifier u;
  ASSERT_TRUE(u.AssumeAllPositive().ok());
  EXPECT_EQ(u.Resolve(r.dim), P("Max(M, N)"));
  EXPECT_TRUE(Broadcast(P("N"), Dim()).dim.is_unknown());
  EXPECT_EQ(Broadcast(Dim(), P("5")).dim, P("5"));
}

}  // namespace
}  // namespace onnx_infer::symbolic
