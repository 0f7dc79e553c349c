// The values of the data-movement operators, on values of any rank (value_movement.h): each
// output element is the input element the operator's definition picks, for integer, real and
// quotient elements alike.
#include "onnx_infer/schema/value_movement.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using symbolic::Dim;
using testing::T;
using testing::ValueText;

// An int64 value: elements are numbers, symbols or expressions ("N", "N + 1").
ConstValue Ints(std::vector<int64_t> dims, std::vector<std::string> items) {
  ConstValue v{kInt64, std::move(dims), {}, {}};
  for (const auto& i : items) {
    const bool integer = i.find_first_not_of("-0123456789") == std::string::npos;
    v.ints.push_back(integer ? Dim::Const(std::stoll(i)) : T("int64[" + i + "]").shape()[0]);
  }
  return v;
}

// "[2, 3] [a, b, ...]": the dims and elements of a result, or "none".
std::string Text(const std::optional<ConstValue>& v) {
  if (!v) return "none";
  std::string dims = "[";
  for (size_t i = 0; i < v->dims.size(); ++i) dims += (i ? ", " : "") + std::to_string(v->dims[i]);
  return dims + "] " + ValueText(*v);
}

constexpr int64_t kMax = 1024;

TEST(ValueMovement, Transpose) {
  ConstValue pads = Ints({2, 3}, {"0", "0", "3", "0", "0", "N"});
  const int64_t swap[] = {1, 0};
  EXPECT_EQ(Text(TransposeValue(pads, swap, kMax)), "[3, 2] [0, 0, 0, 0, 3, N]");
  ConstValue cube = Ints({2, 1, 2}, {"a", "b", "c", "d"});
  const int64_t perm[] = {2, 0, 1};
  EXPECT_EQ(Text(TransposeValue(cube, perm, kMax)), "[2, 2, 1] [a, c, b, d]");
  const int64_t short_perm[] = {0};
  EXPECT_EQ(Text(TransposeValue(cube, short_perm, kMax)), "none");
  EXPECT_EQ(Text(TransposeValue(pads, swap, 5)), "none");  // more elements than allowed
}

TEST(ValueMovement, ResolveSliceAxis) {
  auto text = [](SliceAxis a) {
    return std::to_string(a.first) + "+" + std::to_string(a.step) + "x" + std::to_string(a.count);
  };
  EXPECT_EQ(text(ResolveSliceAxis(5, 1, 3, 1)), "1+1x2");
  EXPECT_EQ(text(ResolveSliceAxis(5, -2, INT64_MAX, 1)), "3+1x2");
  EXPECT_EQ(text(ResolveSliceAxis(5, 0, 5, 2)), "0+2x3");
  EXPECT_EQ(text(ResolveSliceAxis(5, -1, INT64_MIN, -1)), "4+-1x5");  // reversed
  EXPECT_EQ(text(ResolveSliceAxis(5, 10, -10, -2)), "4+-2x3");
  EXPECT_EQ(text(ResolveSliceAxis(5, 3, 1, 1)), "3+1x0");
  EXPECT_EQ(text(ResolveSliceAxis(0, -1, INT64_MIN, -1)), "0+-1x0");
}

TEST(ValueMovement, SliceAnyRankAnyStep) {
  // F.pad's pads as [k, 2] pairs, reversed by a step of -1: the last pair comes first.
  ConstValue pairs = Ints({3, 2}, {"1", "2", "0", "0", "N", "M"});
  const SliceAxis reverse_rows[] = {ResolveSliceAxis(3, -1, INT64_MIN + 1, -1), {0, 1, 2}};
  EXPECT_EQ(Text(SliceValue(pairs, reverse_rows, kMax)), "[3, 2] [N, M, 0, 0, 1, 2]");
  const SliceAxis second_column[] = {{0, 1, 3}, {1, 1, 1}};
  EXPECT_EQ(Text(SliceValue(pairs, second_column, kMax)), "[3, 1] [2, 0, M]");
  const SliceAxis out_of_range[] = {{2, 1, 2}, {0, 1, 2}};
  EXPECT_EQ(Text(SliceValue(pairs, out_of_range, kMax)), "none");
  const SliceAxis empty[] = {{0, 1, 0}, {0, 1, 2}};
  EXPECT_EQ(Text(SliceValue(pairs, empty, kMax)), "[0, 2] []");
}

TEST(ValueMovement, Gather) {
  ConstValue shapes = Ints({2, 3}, {"B", "S", "8", "1", "2", "3"});
  ConstValue rows = Ints({2}, {"1", "-2"});
  EXPECT_EQ(Text(GatherValue(shapes, rows, 0, kMax)), "[2, 3] [1, 2, 3, B, S, 8]");
  ConstValue last = Ints({}, {"-1"});
  EXPECT_EQ(Text(GatherValue(shapes, last, 1, kMax)), "[2] [8, 3]");
  ConstValue grid = Ints({2, 2}, {"0", "2", "2", "1"});
  EXPECT_EQ(Text(GatherValue(shapes, grid, 1, kMax)), "[2, 2, 2] [B, 8, 8, S, 1, 3, 3, 2]");
  EXPECT_EQ(Text(GatherValue(shapes, Ints({1}, {"3"}), 1, kMax)), "none");  // out of range
  EXPECT_EQ(Text(GatherValue(shapes, Ints({1}, {"K"}), 1, kMax)), "none");  // not constant
  // From a vector (a shape's dims): scalar, vector, 2-D and empty indices, negative ones.
  ConstValue dims = Ints({4}, {"B", "S", "12", "64"});
  EXPECT_EQ(Text(GatherValue(dims, Ints({}, {"1"}), 0, kMax)), "[] [S]");
  EXPECT_EQ(Text(GatherValue(dims, Ints({2}, {"-1", "0"}), 0, kMax)), "[2] [64, B]");
  EXPECT_EQ(Text(GatherValue(dims, Ints({2, 2}, {"0", "3", "3", "2"}), 0, kMax)),
            "[2, 2] [B, 64, 64, 12]");
  EXPECT_EQ(Text(GatherValue(dims, Ints({0}, {}), 0, kMax)), "[0] []");
  EXPECT_EQ(Text(GatherValue(dims, Ints({3}, {"0", "1", "2"}), 0, 2)), "none");  // too many
  EXPECT_EQ(Text(GatherValue(dims, Ints({1}, {"4"}), 0, kMax)), "none");         // out of range
}

TEST(ValueMovement, GatherElementsAndND) {
  ConstValue data = Ints({2, 2}, {"a", "b", "c", "d"});
  EXPECT_EQ(Text(GatherElementsValue(data, Ints({2, 2}, {"1", "0", "0", "0"}), 1, kMax)),
            "[2, 2] [b, a, c, c]");
  EXPECT_EQ(Text(GatherElementsValue(data, Ints({1, 2}, {"1", "-2"}), 0, kMax)), "[1, 2] [c, b]");
  EXPECT_EQ(Text(GatherNDValue(data, Ints({2, 2}, {"0", "1", "1", "0"}), 0, kMax)), "[2] [b, c]");
  EXPECT_EQ(Text(GatherNDValue(data, Ints({2, 1}, {"1", "0"}), 0, kMax)), "[2, 2] [c, d, a, b]");
  // batch_dims = 1: row i of data indexed by indices[i].
  EXPECT_EQ(Text(GatherNDValue(data, Ints({2, 1}, {"1", "0"}), 1, kMax)), "[2] [b, c]");
  EXPECT_EQ(Text(GatherNDValue(data, Ints({1, 2}, {"2", "0"}), 0, kMax)), "none");
}

TEST(ValueMovement, ConcatAndSplit) {
  // Shape vectors stacked into [2, k] and joined along either axis.
  ConstValue a = Ints({1, 2}, {"B", "S"});
  ConstValue b = Ints({1, 2}, {"1", "T"});
  const ConstValue* rows[] = {&a, &b};
  EXPECT_EQ(Text(ConcatValues(rows, 0, kMax)), "[2, 2] [B, S, 1, T]");
  EXPECT_EQ(Text(ConcatValues(rows, 1, kMax)), "[1, 4] [B, S, 1, T]");
  ConstValue c = Ints({2, 1}, {"x", "y"});
  ConstValue d = Ints({2, 2}, {"1", "2", "3", "4"});
  const ConstValue* cols[] = {&c, &d};
  EXPECT_EQ(Text(ConcatValues(cols, 1, kMax)), "[2, 3] [x, 1, 2, y, 3, 4]");
  const ConstValue* mismatched[] = {&a, &d};
  EXPECT_EQ(Text(ConcatValues(mismatched, 0, kMax)), "[3, 2] [B, S, 1, 2, 3, 4]");
  EXPECT_EQ(Text(ConcatValues(mismatched, 1, kMax)), "none");  // 1 row against 2
  ConstValue reals{kFloat, {2}, {}, {0.5, 1}};
  const ConstValue* mixed[] = {&a, &reals};
  EXPECT_EQ(Text(ConcatValues(mixed, 0, kMax)), "none");  // element types differ

  const int64_t sizes[] = {1, 2};
  auto pieces = SplitValue(Ints({2, 3}, {"a", "b", "c", "d", "e", "f"}), 1, sizes);
  ASSERT_TRUE(pieces);
  ASSERT_EQ(pieces->size(), 2u);
  EXPECT_EQ(Text((*pieces)[0]), "[2, 1] [a, d]");
  EXPECT_EQ(Text((*pieces)[1]), "[2, 2] [b, c, e, f]");
  const int64_t too_short[] = {1, 1};
  EXPECT_FALSE(SplitValue(Ints({2, 3}, {"a", "b", "c", "d", "e", "f"}), 1, too_short));
}

TEST(ValueMovement, ExpandAndTile) {
  ConstValue column = Ints({2, 1}, {"N", "1"});
  const int64_t wide[] = {2, 3};
  EXPECT_EQ(Text(ExpandValue(column, wide, kMax)), "[2, 3] [N, N, N, 1, 1, 1]");
  const int64_t higher[] = {2, 1, 1};
  EXPECT_EQ(Text(ExpandValue(column, higher, kMax)), "[2, 2, 1] [N, 1, N, 1]");
  const int64_t clash[] = {3, 1};
  EXPECT_EQ(Text(ExpandValue(column, clash, kMax)), "none");
  const int64_t repeats[] = {1, 2};
  EXPECT_EQ(Text(TileValue(column, repeats, kMax)), "[2, 2] [N, N, 1, 1]");
  const int64_t zero[] = {0, 2};
  EXPECT_EQ(Text(TileValue(column, zero, kMax)), "[0, 2] []");
}

TEST(ValueMovement, QuotientsAndConditionsTravel) {
  ConstValue sizes{kFloat, {2}, {}, {}};
  sizes.quotients = {RealQuotient{Dim::Symbol("H"), 2, false},
                     RealQuotient{Dim::Symbol("W"), 1, false}};
  sizes.conditions.push_back(ExactnessCondition{Dim::Symbol("H"), 1 << 24, 24});
  ConstValue idx = Ints({2}, {"1", "0"});
  auto picked = GatherValue(sizes, idx, 0, kMax);
  ASSERT_TRUE(picked);
  EXPECT_EQ(Text(picked), "[2] [W, H/2]");
  ASSERT_EQ(picked->conditions.size(), 1u);
  EXPECT_EQ(picked->conditions[0].ToString(), "H <= 16777216 (exact in float32)");
}

TEST(ValueMovement, TableElementRange) {
  auto text = [](std::optional<ElementRange> r) {
    if (!r) return std::string("none");
    return std::to_string(r->min) + ".." + std::to_string(r->max) + " of " +
           std::to_string(r->count);
  };
  const ConstValue sizes = Ints({4}, {"256", "128", "512", "64"});
  EXPECT_EQ(text(TableElementRange(sizes, std::nullopt, std::nullopt)), "64..512 of 4");
  EXPECT_EQ(text(TableElementRange(sizes, 0, 1)), "128..256 of 2");
  EXPECT_EQ(text(TableElementRange(sizes, 1, std::nullopt)), "64..512 of 3");
  // Negative indices count from the end: -1 is 64, -2 is 512.
  EXPECT_EQ(text(TableElementRange(sizes, std::nullopt, -3)), "128..256 of 2");
  EXPECT_EQ(text(TableElementRange(sizes, -1, 0)), "64..256 of 2");
  // [-3, 1] reaches positions 1, 2, 3 and 0, 1: every one, position 1 counted once.
  EXPECT_EQ(text(TableElementRange(sizes, -3, 1)), "64..512 of 4");
  // Out of range everywhere: nothing is read.
  EXPECT_EQ(text(TableElementRange(sizes, 4, 10)), "none");
  EXPECT_EQ(text(TableElementRange(sizes, std::nullopt, -5)), "none");
  EXPECT_EQ(text(TableElementRange(sizes, 3, 2)), "none");
  // Negative elements are kept as they are (the caller decides what a value may be).
  EXPECT_EQ(text(TableElementRange(Ints({3}, {"-1", "0", "7"}), std::nullopt, std::nullopt)),
            "-1..7 of 3");
  // Only known constants, in a 1-D table.
  EXPECT_EQ(text(TableElementRange(Ints({2}, {"N", "3"}), std::nullopt, std::nullopt)), "none");
  EXPECT_EQ(text(TableElementRange(Ints({1, 2}, {"1", "3"}), std::nullopt, std::nullopt)), "none");
  EXPECT_EQ(text(TableElementRange(Ints({0}, {}), std::nullopt, std::nullopt)), "none");
}

// Against reading every index of [lo, hi] that Gather accepts, for every table of up to 5
// elements from a few values and every range of indices around it.
TEST(ValueMovement, TableElementRangeIsEveryReachableElement) {
  const int64_t pool[] = {-3, 0, 2, 9};
  for (int64_t n = 1; n <= 5; ++n) {
    int64_t tables = 1;
    for (int64_t i = 0; i < n; ++i) tables *= 4;
    for (int64_t code = 0; code < tables; ++code) {
      std::vector<int64_t> elements;
      std::vector<std::string> items;
      for (int64_t i = 0, c = code; i < n; ++i, c /= 4) {
        elements.push_back(pool[c % 4]);
        items.push_back(std::to_string(elements.back()));
      }
      const ConstValue table = Ints({n}, items);
      for (int64_t lo = -n - 2; lo <= n + 2; ++lo) {
        for (int64_t hi = lo - 1; hi <= n + 2; ++hi) {
          for (int unbounded = 0; unbounded < 4; ++unbounded) {
            const std::optional<int64_t> l = unbounded & 1 ? std::nullopt : std::optional(lo);
            const std::optional<int64_t> h = unbounded & 2 ? std::nullopt : std::optional(hi);
            std::optional<int64_t> min, max;
            std::vector<bool> read(n, false);
            for (int64_t i = l.value_or(-n - 2); i <= h.value_or(n + 2); ++i) {
              if (i < -n || i >= n) continue;
              const int64_t e = elements[i < 0 ? i + n : i];
              read[i < 0 ? i + n : i] = true;
              min = std::min(min.value_or(e), e);
              max = std::max(max.value_or(e), e);
            }
            const auto r = TableElementRange(table, l, h);
            ASSERT_EQ(r.has_value(), min.has_value()) << code << " " << lo << " " << hi;
            if (!r) continue;
            EXPECT_EQ(r->min, *min);
            EXPECT_EQ(r->max, *max);
            EXPECT_EQ(r->count, std::count(read.begin(), read.end(), true));
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace onnx_infer
