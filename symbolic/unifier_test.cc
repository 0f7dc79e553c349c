#include "onnx_infer/symbolic/unifier.h"

#include <gtest/gtest.h>

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
  // Two symbols that could each be 1: the explicit broadcast, never a silent merge.
  r = b("N", "M");
  EXPECT_EQ(r.dim.ToString(), "Max(M, N)");
  EXPECT_EQ(r.condition, "N == M or N == 1 or M == 1");
  EXPECT_TRUE(Broadcast(P("N"), Dim()).dim.is_unknown());
  EXPECT_EQ(Broadcast(Dim(), P("5")).dim, P("5"));
}

}  // namespace
}  // namespace onnx_infer::symbolic
