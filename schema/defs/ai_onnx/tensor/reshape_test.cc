// Table tests of the reshaping rules (tensor/reshape.cc): Concat, Transpose, Reshape, and
// the values they carry.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::RunRule;
using testing::T;

using Case = testing::RuleCase;
using ReshapeRuleTest = testing::RuleTableTest;

TEST_P(ReshapeRuleTest, Infers) { EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam())); }

#define RESHAPE R"(op_type: "Reshape" input: "x" input: "shape" output: "y")"
#define CONCAT(axis)                                                                                    \
  R"(op_type: "Concat" input: "a" input: "b" output: "y" attribute { name: "axis" type: INT i: )" #axis \
  " }"

INSTANTIATE_TEST_SUITE_P(
    Concat, ReshapeRuleTest,
    ::testing::Values(
        Case{"concat_constants", CONCAT(0), 13, {"float[5, 2]", "float[3, 2]"}, {}, "float[8, 2]"},
        Case{"concat_negative_axis",
             CONCAT(-1),
             13,
             {"float[N, 2]", "float[N, 3]"},
             {},
             "float[N, 5]"},
        Case{"concat_other_dims_unify",
             CONCAT(1),
             13,
             {"float[N, 2]", "float[4, 3]"},
             {},
             "float[4, 5]"},
        Case{"concat_symbolic_sum",
             CONCAT(0),
             13,
             {"float[5, 2]", "float[N, 2]"},
             {},
             "float[N + 5, 2]"},
        Case{"concat_same_symbol_twice",
             CONCAT(0),
             13,
             {"float[N, 2]", "float[N, 2]"},
             {},
             "float[2*N, 2]"},
        Case{"concat_sum_of_expressions",
             CONCAT(1),
             13,
             {"float[B, S + 1]", "float[B, 2*S]"},
             {},
             "float[B, 3*S + 1]"},
        Case{"concat_other_dims_provably_differ",
             CONCAT(0),
             13,
             {"float[2, N]", "float[2, N + 1]"},
             {},
             "error: input 1 'b': dim 1 differs"},
        Case{
            "concat_one_input_unknown", CONCAT(0), 13, {"float[5, 2]", "float"}, {}, "float[?, 2]"},
        Case{"concat_rank_mismatch",
             CONCAT(0),
             13,
             {"float[5, 2]", "float[5]"},
             {},
             "error: input 1 'b': expected rank 2, got rank 1"},
        Case{"concat_dim_mismatch",
             CONCAT(0),
             13,
             {"float[5, 2]", "float[5, 3]"},
             {},
             "error: input 1 'b': dim 1 differs"},
        Case{"concat_axis_out_of_range",
             CONCAT(2),
             13,
             {"float[5, 2]", "float[5, 2]"},
             {},
             "error: attribute 'axis': expected an axis in [-2, 1]"},
        // The range [-r, r-1] is checked against the first input of known rank.
        Case{"concat_negative_axis_out_of_range_first_shape_unknown",
             CONCAT(-3),
             13,
             {"float", "float[5, 2]"},
             {},
             "error: attribute 'axis': expected an axis in [-2, 1] for rank 2, got -3"},
        Case{"concat_axis_missing",
             R"(op_type: "Concat" input: "a" output: "y")",
             13,
             {"float[5]"},
             {},
             "error: attribute 'axis': required but not given"},
        Case{"concat_v1_axis_defaults_to_1",
             R"(op_type: "Concat" input: "a" input: "b" output: "y")",
             1,
             {"float[2, 3]", "float[2, 4]"},
             {},
             "float[2, 7]"},
        Case{
            "concat_axis_wrong_type",
            R"(op_type: "Concat" input: "a" output: "y" attribute { name: "axis" type: FLOAT f: 1 })",
            13,
            {"float[5]"},
            {},
            "error: attribute 'axis': expected type int, got float"}));

INSTANTIATE_TEST_SUITE_P(
    Transpose, ReshapeRuleTest,
    ::testing::Values(
        Case{"transpose_default_reverses",
             R"(op_type: "Transpose" input: "x" output: "y")",
             13,
             {"float[A, B, 3]"},
             {},
             "float[3, B, A]"},
        Case{
            "transpose_perm",
            R"(op_type: "Transpose" input: "x" output: "y" attribute { name: "perm" type: INTS ints: 0 ints: 2 ints: 1 ints: 3 })",
            21,
            {"float[B, S, 12, 64]"},
            {},
            "float[B, 12, S, 64]"},
        Case{
            "transpose_rank_from_perm",
            R"(op_type: "Transpose" input: "x" output: "y" attribute { name: "perm" type: INTS ints: 1 ints: 0 })",
            13,
            {"float"},
            {},
            "float[?, ?]"},
        Case{
            "transpose_bad_perm",
            R"(op_type: "Transpose" input: "x" output: "y" attribute { name: "perm" type: INTS ints: 0 ints: 0 })",
            13,
            {"float[2, 3]"},
            {},
            "error: attribute 'perm': expected a permutation"},
        Case{
            "transpose_perm_length",
            R"(op_type: "Transpose" input: "x" output: "y" attribute { name: "perm" type: INTS ints: 0 })",
            13,
            {"float[2, 3]"},
            {},
            "error: attribute 'perm': expected 2 axes"}));

INSTANTIATE_TEST_SUITE_P(
    Reshape, ReshapeRuleTest,
    ::testing::Values(
        Case{"reshape_constant",
             RESHAPE,
             14,
             {"float[2, 3, 4]", "int64[2]"},
             {std::nullopt, Int64s({6, 4})},
             "float[6, 4]"},
        Case{"reshape_infer_minus_one",
             RESHAPE,
             14,
             {"float[2, 3, 4]", "int64[2]"},
             {std::nullopt, Int64s({-1, 8})},
             "float[3, 8]"},
        Case{"reshape_heads_symbolic",
             RESHAPE,
             14,
             {"float[B, S, 768]", "int64[4]"},
             {std::nullopt, Int64s({0, 0, 12, -1})},
             "float[B, S, 12, 64]"},
        Case{"reshape_merge_symbolic",
             RESHAPE,
             13,
             {"float[B, 12, S, 64]", "int64[3]"},
             {std::nullopt, Int64s({0, 12, -1})},
             "float[B, 12, 64*S]"},
        Case{"reshape_flatten_symbolic",
             RESHAPE,
             14,
             {"float[B, S, 768]", "int64[2]"},
             {std::nullopt, Int64s({0, -1})},
             "float[B, 768*S]"},
        Case{"reshape_minus_one_first",
             RESHAPE,
             14,
             {"float[B, S, 768]", "int64[2]"},
             {std::nullopt, Int64s({-1, 768})},
             "float[B*S, 768]"},
        Case{"reshape_exact_division_of_expressions",
             RESHAPE,
             14,
             {"float[2*N + 2, 6]", "int64[2]"},
             {std::nullopt, Int64s({4, -1})},
             "float[4, 3*N + 3]"},
        // Not divisible on its face: divisible for every input the model accepts.
        Case{"reshape_division_with_side_condition",
             RESHAPE,
             14,
             {"float[N]", "int64[2]"},
             {std::nullopt, Int64s({3, -1})},
             "float[3, floor(N/3)]"},
        Case{"reshape_provably_indivisible",
             RESHAPE,
             14,
             {"float[2*N + 1]", "int64[2]"},
             {std::nullopt, Int64s({2, -1})},
             "error: cannot reshape [2*N + 1] to [2, -1]"},
        // 2*N vs 3*N agree when N is 0: not provably wrong, so no error.
        Case{"reshape_symbolic_count_undecided",
             RESHAPE,
             14,
             {"float[N, 2]", "int64[2]"},
             {std::nullopt, Int64s({0, 3})},
             "float[N, 3]"},
        Case{"reshape_symbolic_count_mismatch",
             RESHAPE,
             14,
             {"float[N + 1, 2]", "int64[2]"},
             {std::nullopt, Int64s({0, 3})},
             "error: cannot reshape [N + 1, 2] (2*N + 2 elements) to [0, 3] (3*N + 3 elements)"},
        Case{"reshape_flatten_keeps_leading",
             RESHAPE,
             13,
             {"float[B, 3, 4]", "int64[2]"},
             {std::nullopt, Int64s({0, -1})},
             "float[B, 12]"},
        Case{
            "reshape_allowzero",
            R"(op_type: "Reshape" input: "x" input: "shape" output: "y" attribute { name: "allowzero" type: INT i: 1 })",
            14,
            {"float[0, 3]", "int64[2]"},
            {std::nullopt, Int64s({3, 0})},
            "float[3, 0]"},
        Case{"reshape_unknown_shape_gives_rank",
             RESHAPE,
             14,
             {"float[2, 3]", "int64[3]"},
             {},
             "float[?, ?, ?]"},
        Case{
            "reshape_v1_attribute",
            R"(op_type: "Reshape" input: "x" output: "y" attribute { name: "shape" type: INTS ints: 3 ints: -1 })",
            1,
            {"float[2, 3]"},
            {},
            "float[3, 2]"},
        Case{"reshape_count_mismatch",
             RESHAPE,
             14,
             {"float[2, 3]", "int64[2]"},
             {std::nullopt, Int64s({4, 2})},
             "error: cannot reshape [2, 3] (6 elements)"},
        Case{"reshape_indivisible",
             RESHAPE,
             14,
             {"float[2, 3]", "int64[2]"},
             {std::nullopt, Int64s({4, -1})},
             "error: 6 elements do not divide into 4"},
        Case{"reshape_two_minus_ones",
             RESHAPE,
             14,
             {"float[2, 3]", "int64[2]"},
             {std::nullopt, Int64s({-1, -1})},
             "error: more than one -1"},
        Case{"reshape_zero_beyond_rank",
             RESHAPE,
             14,
             {"float[6]", "int64[2]"},
             {std::nullopt, Int64s({3, 0})},
             "error: 0 at index 1 copies a dim"},
        Case{"reshape_absurd_rank",
             RESHAPE,
             14,
             {"float[2, 3]", "int64[1000000000000000]"},
             {},
             "error: input 1 'shape': a shape of 1000000000000000 dims"},
        Case{"reshape_invalid_dim",
             RESHAPE,
             14,
             {"float[6]", "int64[1]"},
             {std::nullopt, Int64s({-2})},
             "error: invalid dim -2"}));

// Concat and Transpose carry values of any rank: shape vectors stacked into [2, k], the
// [k, 2] pairs of F.pad's export turned into [2, k].
TEST(RuleValuesTest, ConcatAndTransposeOfRank2Values) {
  ConstValue a{kInt64, {1, 2}, {Dim::Symbol("B"), Dim::Symbol("S")}, {}};
  ConstValue b{kInt64, {1, 2}, {Dim::Const(1), Dim::Symbol("T")}, {}};
  auto stacked =
      RunRule(BuiltinSchemas(), CONCAT(0), 13, {T("int64[1, 2]"), T("int64[1, 2]")}, {a, b});
  ASSERT_EQ(stacked.Summary(), "int64[2, 2]");
  ASSERT_TRUE(stacked.values[0]);
  EXPECT_EQ(testing::ValueText(*stacked.values[0]), "[B, S, 1, T]");
  auto side =
      RunRule(BuiltinSchemas(), CONCAT(-1), 13, {T("int64[1, 2]"), T("int64[1, 2]")}, {a, b});
  ASSERT_EQ(side.Summary(), "int64[1, 4]");
  ASSERT_TRUE(side.values[0]);
  EXPECT_EQ(testing::ValueText(*side.values[0]), "[B, S, 1, T]");

  auto transposed = RunRule(BuiltinSchemas(), R"(op_type: "Transpose" input: "x" output: "y")", 13,
                            {T("int64[2, 2]")}, {*stacked.values[0]});
  ASSERT_EQ(transposed.Summary(), "int64[2, 2]");
  ASSERT_TRUE(transposed.values[0]);
  EXPECT_EQ(testing::ValueText(*transposed.values[0]), "[B, 1, S, T]");
}

}  // namespace
}  // namespace onnx_infer
