// Table tests of the built-in rules: a node, the opset, input types (and values) in; the
// output types or the error out.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::RunMatches;
using testing::RunRule;
using testing::T;

struct Case {
  const char* name;
  const char* node;  // NodeProto text
  int64_t opset;
  std::vector<const char*> inputs;  // types, "" for an absent input
  std::vector<std::optional<ConstValue>> values;
  std::string expected;  // RuleRun::Summary()
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

class RuleTest : public ::testing::TestWithParam<Case> {};

TEST_P(RuleTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, c.opset, inputs, c.values);
  EXPECT_TRUE(RunMatches(run, c.expected));
}

#define ADD R"(op_type: "Add" input: "a" input: "b" output: "y")"
#define MATMUL R"(op_type: "MatMul" input: "a" input: "b" output: "y")"
#define RESHAPE R"(op_type: "Reshape" input: "x" input: "shape" output: "y")"
#define CONCAT(axis)                                                                                    \
  R"(op_type: "Concat" input: "a" input: "b" output: "y" attribute { name: "axis" type: INT i: )" #axis \
  " }"

INSTANTIATE_TEST_SUITE_P(
    Elementwise, RuleTest,
    ::testing::Values(
        Case{"relu_keeps_type",
             R"(op_type: "Relu" input: "x" output: "y")",
             14,
             {"float[N, 3]"},
             {},
             "float[N, 3]"},
        Case{"relu_rank_unknown",
             R"(op_type: "Relu" input: "x" output: "y")",
             6,
             {"float"},
             {},
             "float"},
        Case{"identity_passes_anything",
             R"(op_type: "Identity" input: "x" output: "y")",
             16,
             {"int64[]"},
             {},
             "int64[]"},
        Case{"add_same", ADD, 14, {"float[2, 3]", "float[2, 3]"}, {}, "float[2, 3]"},
        Case{"add_broadcast_right_aligned",
             ADD,
             14,
             {"float[N, 1, 5]", "float[4, 1]"},
             {},
             "float[N, 4, 5]"},
        Case{"add_one_gives_way_to_symbol",
             ADD,
             14,
             {"float[1, S]", "float[B, 1]"},
             {},
             "float[B, S]"},
        Case{"add_constant_beats_symbol", ADD, 14, {"float[N]", "float[7]"}, {}, "float[7]"},
        // Either could be 1: the explicit broadcast, never a silent merge.
        Case{
            "add_two_symbols_broadcast", ADD, 14, {"float[N]", "float[M]"}, {}, "float[Max(M, N)]"},
        Case{"add_symbol_and_unknown", ADD, 14, {"float[N]", "float[?]"}, {}, "float[?]"},
        Case{"add_equal_expressions",
             ADD,
             14,
             {"float[N + 1, 3]", "float[1 + N, 1]"},
             {},
             "float[N + 1, 3]"},
        Case{"add_expression_not_one_wins",
             ADD,
             14,
             {"float[N + 2]", "float[M]"},
             {},
             "float[N + 2]"},
        Case{"add_provably_different",
             ADD,
             14,
             {"float[2*N + 2]", "float[2*M + 3]"},
             {},
             "error: neither can be 1 and they differ"},
        Case{"add_scalar", ADD, 13, {"float[]", "float[3, 4]"}, {}, "float[3, 4]"},
        Case{"add_rank_unknown", ADD, 14, {"float[3]", "float"}, {}, "float"},
        Case{"add_mismatch",
             ADD,
             14,
             {"float[3]", "float[4]"},
             {},
             "error: cannot broadcast 3 with 4"},
        Case{"add_legacy_broadcast",
             R"(op_type: "Add" input: "a" input: "b" output: "y"
             attribute { name: "broadcast" type: INT i: 1 } attribute { name: "axis" type: INT i: 1 })",
             6,
             {"float[2, 3, 4]", "float[3]"},
             {},
             "float[2, 3, 4]"},
        Case{"add_legacy_no_broadcast_needs_equal",
             ADD,
             6,
             {"float[2, 3]", "float[3]"},
             {},
             "error: expected equal shapes"}));

INSTANTIATE_TEST_SUITE_P(
    MatMul, RuleTest,
    ::testing::Values(
        Case{"matmul_2d", MATMUL, 13, {"float[M, K]", "float[K, 5]"}, {}, "float[M, 5]"},
        Case{"matmul_batched_broadcast",
             MATMUL,
             13,
             {"float[B, 1, M, 8]", "float[H, 8, N]"},
             {},
             "float[B, H, M, N]"},
        Case{"matmul_vector_left", MATMUL, 13, {"float[8]", "float[B, 8, 3]"}, {}, "float[B, 3]"},
        Case{"matmul_vector_right", MATMUL, 13, {"float[B, 2, 8]", "float[8]"}, {}, "float[B, 2]"},
        Case{"matmul_vectors", MATMUL, 9, {"float[8]", "float[8]"}, {}, "float[]"},
        Case{"matmul_symbol_meets_constant",
             MATMUL,
             13,
             {"float[2, K]", "float[8, 3]"},
             {},
             "float[2, 3]"},
        Case{"matmul_contracted_mismatch",
             MATMUL,
             13,
             {"float[2, 4]", "float[5, 3]"},
             {},
             "error: contracted dims differ"},
        Case{"matmul_scalar",
             MATMUL,
             13,
             {"float[]", "float[5, 3]"},
             {},
             "error: expected rank >= 1"}));

INSTANTIATE_TEST_SUITE_P(
    Concat, RuleTest,
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
    Transpose, RuleTest,
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
    Reshape, RuleTest,
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

INSTANTIATE_TEST_SUITE_P(
    Constant, RuleTest,
    ::testing::Values(
        Case{
            "constant_tensor",
            R"(op_type: "Constant" output: "y" attribute { name: "value" type: TENSOR t { data_type: 7 dims: 2 int64_data: 4 int64_data: 5 } })",
            13,
            {},
            {},
            "int64[2]"},
        Case{
            "constant_value_ints",
            R"(op_type: "Constant" output: "y" attribute { name: "value_ints" type: INTS ints: 1 ints: 2 ints: 3 })",
            13,
            {},
            {},
            "int64[3]"},
        Case{
            "constant_value_float",
            R"(op_type: "Constant" output: "y" attribute { name: "value_float" type: FLOAT f: 1 })",
            13,
            {},
            {},
            "float[]"},
        Case{
            "constant_value_strings",
            R"(op_type: "Constant" output: "y" attribute { name: "value_strings" type: STRINGS strings: "a" strings: "b" })",
            13,
            {},
            {},
            "string[2]"},
        Case{
            "constant_sparse",
            R"(op_type: "Constant" output: "y" attribute { name: "sparse_value" type: SPARSE_TENSOR sparse_tensor { dims: 3 dims: 4 values { data_type: 1 dims: 1 float_data: 1 } indices { data_type: 7 dims: 1 int64_data: 5 } } })",
            13,
            {},
            {},
            "float[3, 4]"},
        Case{"constant_none",
             R"(op_type: "Constant" output: "y")",
             13,
             {},
             {},
             "error: expected one value attribute, got none"},
        Case{
            "constant_two",
            R"(op_type: "Constant" output: "y" attribute { name: "value_int" type: INT i: 1 } attribute { name: "value_float" type: FLOAT f: 1 })",
            13,
            {},
            {},
            "error: expected exactly one value attribute"}));

TEST(ConstantRuleTest, RecordsSmallIntegerValues) {
  auto run = RunRule(
      BuiltinSchemas(),
      R"(op_type: "Constant" output: "y" attribute { name: "value_ints" type: INTS ints: 0 ints: -1 })",
      13, {});
  ASSERT_TRUE(run.status.ok());
  ASSERT_TRUE(run.values[0].has_value());
  EXPECT_EQ(run.values[0]->ConstInts(), (std::vector<int64_t>{0, -1}));
}

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
