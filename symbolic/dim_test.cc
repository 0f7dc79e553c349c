#include "onnx_infer/symbolic/dim.h"

#include <gtest/gtest.h>

#include <unordered_set>

namespace onnx_infer::symbolic {
namespace {

TEST(DimTest, KindsAndQueries) {
  Dim u;
  EXPECT_TRUE(u.is_unknown());
  EXPECT_FALSE(u.is_const());
  EXPECT_EQ(u.ToString(), "?");

  Dim five = Dim::Const(5);
  EXPECT_TRUE(five.is_const());
  EXPECT_EQ(five.const_value(), 5);
  EXPECT_EQ(five.ToString(), "5");
  EXPECT_TRUE(five.symbol_name().empty());

  Dim n = Dim::Symbol("N");
  EXPECT_TRUE(n.is_symbol());
  EXPECT_EQ(n.symbol_name(), "N");
  EXPECT_EQ(n.const_value(), std::nullopt);
  EXPECT_EQ(n.ToString(), "N");

  EXPECT_TRUE(Dim::Symbol("").is_unknown());
}

TEST(DimTest, InterningMakesEqualDimsTheSameHandle) {
  EXPECT_EQ(Dim::Const(7), Dim::Const(7));
  EXPECT_NE(Dim::Const(7), Dim::Const(8));
  EXPECT_EQ(Dim::Symbol("batch"), Dim::Symbol("batch"));
  EXPECT_NE(Dim::Symbol("batch"), Dim::Symbol("seq"));
  EXPECT_NE(Dim::Symbol("7"), Dim::Const(7));
  static_assert(sizeof(Dim) == sizeof(void*), "Dim is a pointer-sized handle");
  std::unordered_set<Dim> set = {Dim::Const(1), Dim::Const(1), Dim::Symbol("N")};
  EXPECT_EQ(set.size(), 2u);
}

TEST(DimTest, ArithmeticFoldsConstantsAndAppliesIdentities) {
  Dim n = Dim::Symbol("N");
  EXPECT_EQ(Dim::Const(2) + Dim::Const(3), Dim::Const(5));
  EXPECT_EQ(Dim::Const(2) * Dim::Const(3), Dim::Const(6));
  EXPECT_EQ(Dim::Const(2) - Dim::Const(3), Dim::Const(-1));
  EXPECT_EQ(n + Dim::Const(0), n);
  EXPECT_EQ(Dim::Const(0) + n, n);
  EXPECT_EQ(n * Dim::Const(1), n);
  EXPECT_EQ(n * Dim::Const(0), Dim::Const(0));
  EXPECT_EQ(n - n, Dim::Const(0));
  EXPECT_EQ(n - Dim::Const(0), n);
  EXPECT_EQ(Dim::FloorDiv(Dim::Const(7), Dim::Const(2)), Dim::Const(3));
  EXPECT_EQ(Dim::FloorDiv(Dim::Const(-7), Dim::Const(2)), Dim::Const(-4));
  EXPECT_EQ(Dim::FloorDiv(n, Dim::Const(1)), n);
  EXPECT_EQ(Dim::FloorDiv(n, n), Dim::Const(1));
}

TEST(DimTest, SumsAndProductsAreExpressions) {
  Dim n = Dim::Symbol("N"), m = Dim::Symbol("M");
  EXPECT_EQ((n + Dim::Const(5)).ToString(), "N + 5");
  EXPECT_TRUE((n + Dim::Const(5)).is_expr());
  EXPECT_EQ((n * Dim::Const(2)).ToString(), "2*N");
  EXPECT_EQ(n + m, m + n);  // one normal form: the same handle
  EXPECT_EQ(Dim::FloorDiv(n, Dim::Const(2)).ToString(), "floor(N/2)");
}

TEST(DimTest, UnknownStaysUnknownNeverAGuess) {
  Dim n = Dim::Symbol("N");
  EXPECT_TRUE((Dim() + Dim::Const(1)).is_unknown());
  EXPECT_TRUE((Dim() - Dim()).is_unknown());
  EXPECT_TRUE((n * Dim()).is_unknown());
  EXPECT_TRUE(Dim::FloorDiv(Dim::Const(4), Dim::Const(0)).is_unknown());
  EXPECT_TRUE(Dim::FloorDiv(n, Dim()).is_unknown());
  EXPECT_TRUE(Dim::Mod(n, Dim::Const(0)).is_unknown());
  EXPECT_TRUE(Dim::Max(n, Dim()).is_unknown());
  EXPECT_EQ(Dim() * Dim::Const(0), Dim::Const(0));  // true for any value
}

TEST(DimTest, OverflowIsUnknown) {
  Dim big = Dim::Const(INT64_MAX);
  EXPECT_TRUE((big + Dim::Const(1)).is_unknown());
  EXPECT_TRUE((big * Dim::Const(2)).is_unknown());
  EXPECT_TRUE((Dim::Const(INT64_MIN) - Dim::Const(1)).is_unknown());
  EXPECT_TRUE(Dim::FloorDiv(Dim::Const(INT64_MIN), Dim::Const(-1)).is_unknown());
}

TEST(DimTest, ThreeValuedEquality) {
  Dim n = Dim::Symbol("N"), m = Dim::Symbol("M");
  EXPECT_EQ(Equal(Dim::Const(3), Dim::Const(3)), Tri::kTrue);
  EXPECT_EQ(Equal(Dim::Const(3), Dim::Const(4)), Tri::kFalse);
  EXPECT_EQ(Equal(n, n), Tri::kTrue);
  EXPECT_EQ(Equal(n, m), Tri::kUnknown);
  EXPECT_EQ(Equal(n, Dim::Const(3)), Tri::kUnknown);
  EXPECT_EQ(Equal(n + Dim::Const(1), n), Tri::kFalse);
  EXPECT_EQ(Equal(n + Dim::Const(1), Dim::Const(0)), Tri::kFalse);  // N >= 0
  EXPECT_EQ(Equal(Dim(), Dim()), Tri::kUnknown);  // two unknowns are not known equal
}

}  // namespace
}  // namespace onnx_infer::symbolic
