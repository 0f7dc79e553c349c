// Table tests of the elementwise families (math/elementwise.cc) and of the value helpers
// they propagate data with (schema/value_ops.h); the logical family is in ../logical_test.cc.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"
#include "onnx_infer/schema/value_ops.h"

namespace onnx_infer {
namespace {

using symbolic::Dim;
using testing::ExpectsError;
using testing::FloatAttr;
using testing::Int64s;
using testing::IntAttr;
using testing::RunMatches;
using testing::RunRule;
using testing::StrAttr;
using testing::T;

using Case = testing::RuleCase;

using ElementwiseRuleTest = testing::RuleTableTest;

TEST_P(ElementwiseRuleTest, Infers) {
  EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam()));
}

// A node of `op` with `n` inputs and optional attribute text.
std::string Node(const std::string& op, int n, const std::string& attrs = "") {
  std::string s = "op_type: \"" + op + "\"";
  for (int i = 0; i < n; ++i) s += " input: \"" + std::string(1, static_cast<char>('a' + i)) + "\"";
  return s + " output: \"y\" " + attrs;
}
ConstValue Ints(int32_t type, std::vector<int64_t> dims, std::vector<Dim> elems) {
  return ConstValue{type, std::move(dims), std::move(elems), {}};
}
ConstValue Reals(int32_t type, std::vector<int64_t> dims, std::vector<double> elems) {
  return ConstValue{type, std::move(dims), {}, std::move(elems)};
}
ConstValue Int64Scalar(int64_t v) { return Ints(kInt64, {}, {Dim::Const(v)}); }
// Float elements holding sizes, as a Cast of Shape(x) to float makes them: num/den each.
ConstValue Quotients(int32_t type, std::vector<int64_t> dims, std::vector<RealQuotient> elems) {
  ConstValue v{type, std::move(dims), {}, {}};
  v.quotients = std::move(elems);
  return v;
}
RealQuotient Q(Dim num, int64_t den = 1, bool rounded = false) {
  return RealQuotient{num, den, rounded};
}
const Dim kH = Dim::Symbol("H");
const Dim kW = Dim::Symbol("W");
const std::nullopt_t kNoValue = std::nullopt;

INSTANTIATE_TEST_SUITE_P(
    Unary, ElementwiseRuleTest,
    ::testing::Values(
        Case{"relu_keeps_symbols", Node("Relu", 1), 14, {"float[N, 3]"}, {}, "float[N, 3]", ""},
        Case{"abs_v1", Node("Abs", 1), 1, {"double[2, ?]"}, {}, "double[2, ?]", ""},
        Case{"sqrt_rank_unknown", Node("Sqrt", 1), 13, {"float"}, {}, "float", ""},
        Case{"acos_scalar", Node("Acos", 1), 22, {"float16[]"}, {}, "float16[]", ""},
        Case{"celu_28",
             Node("Celu", 1, FloatAttr("alpha", 2)),
             28,
             {"bfloat16[B, 4]"},
             {},
             "bfloat16[B, 4]",
             ""},
        Case{"elu_v1", Node("Elu", 1), 1, {"float[3]"}, {}, "float[3]", ""},
        Case{"leaky_relu_16",
             Node("LeakyRelu", 1, FloatAttr("alpha", 0.1f)),
             16,
             {"float[N, C, H, W]"},
             {},
             "float[N, C, H, W]",
             ""},
        Case{"gelu_tanh",
             Node("Gelu", 1, StrAttr("approximate", "tanh")),
             20,
             {"float[S, 8]"},
             {},
             "float[S, 8]",
             ""},
        Case{"gelu_bad_approximate",
             Node("Gelu", 1, StrAttr("approximate", "erf")),
             20,
             {"float[S, 8]"},
             {},
             "error: attribute 'approximate': expected \"none\" or \"tanh\"",
             ""},
        Case{"swish_24", Node("Swish", 1), 24, {"float[2, 3]"}, {}, "float[2, 3]", ""},
        Case{"thresholded_relu_22",
             Node("ThresholdedRelu", 1),
             22,
             {"float[0]"},
             {},
             "float[0]",
             ""},
        // Values.
        Case{"neg_values",
             Node("Neg", 1),
             13,
             {"int64[2]"},
             {Int64s({3, -4})},
             "int64[2]",
             "int64[2] {-3, 4}"},
        Case{"neg_symbol",
             Node("Neg", 1),
             13,
             {"int64[1]"},
             {Ints(kInt64, {1}, {Dim::Symbol("N")})},
             "int64[1]",
             "int64[1] {-N}"},
        Case{"abs_values",
             Node("Abs", 1),
             13,
             {"int64[3]"},
             {Ints(kInt64, {3}, {Dim::Const(-2), Dim::Symbol("N"), Dim()})},
             "int64[3]",
             "int64[3] {2, N, ?}"},
        Case{"abs_of_negated_symbol",
             Node("Abs", 1),
             13,
             {"int64[2]"},
             {Ints(kInt64, {2},
                   {Dim::Const(0) - Dim::Symbol("N"), Dim::Symbol("N") - Dim::Const(1)})},
             "int64[2]",
             "int64[2] {N, ?}"},
        Case{"floor_reals",
             Node("Floor", 1),
             13,
             {"float[2]"},
             {Reals(kFloat, {2}, {2.5, -1.5})},
             "float[2]",
             "float[2] {2, -2}"},
        Case{"ceil_reals",
             Node("Ceil", 1),
             13,
             {"double[]"},
             {Reals(kDouble, {}, {2.25})},
             "double[]",
             "double[] {3}"},
        Case{"floor_of_float_quotients",
             Node("Floor", 1),
             13,
             {"float[2]"},
             {Quotients(kFloat, {2}, {Q(kH, 2), Q(kW, 3, true)})},
             "float[2]",
             "float[2] {floor(H/2), floor(W/3)}"},
        Case{"ceil_of_float_quotient",
             Node("Ceil", 1),
             13,
             {"float[]"},
             {Quotients(kFloat, {}, {Q(kH, 4)})},
             "float[]",
             "float[] {floor((H + 3)/4)}"},
        Case{"neg_keeps_rounded",
             Node("Neg", 1),
             13,
             {"float[]"},
             {Quotients(kFloat, {}, {Q(kH, 3, true)})},
             "float[]",
             "float[] {-H/3~}"}));

INSTANTIATE_TEST_SUITE_P(
    Broadcast, ElementwiseRuleTest,
    ::testing::Values(
        Case{"add_same", Node("Add", 2), 14, {"float[2, 3]", "float[2, 3]"}, {}, "float[2, 3]", ""},
        Case{"sub_right_aligned",
             Node("Sub", 2),
             14,
             {"float[N, 1, 5]", "float[4, 1]"},
             {},
             "float[N, 4, 5]",
             ""},
        Case{"mul_one_gives_way",
             Node("Mul", 2),
             13,
             {"float[1, S]", "float[B, 1]"},
             {},
             "float[B, S]",
             ""},
        Case{"div_constant_beats_symbol",
             Node("Div", 2),
             14,
             {"float[N]", "float[7]"},
             {},
             "float[7]",
             ""},
        Case{"div_two_symbols_broadcast",
             Node("Div", 2),
             7,
             {"float[N]", "float[M]"},
             {},
             "float[Max(M, N)]",
             ""},
        Case{"pow_mixed_types",
             Node("Pow", 2),
             15,
             {"float[2, 3]", "int64[]"},
             {},
             "float[2, 3]",
             ""},
        Case{"add_rank_unknown", Node("Add", 2), 14, {"float[3]", "float"}, {}, "float", ""},
        Case{"add_mismatch",
             Node("Add", 2),
             14,
             {"float[3]", "float[4]"},
             {},
             "error: cannot broadcast 3 with 4",
             ""},
        Case{"mod_fmod_float",
             Node("Mod", 2, IntAttr("fmod", 1)),
             13,
             {"float[4]", "float[]"},
             {},
             "float[4]",
             ""},
        Case{"mod_float_needs_fmod",
             Node("Mod", 2),
             10,
             {"float[4]", "float[]"},
             {},
             "error: attribute 'fmod': expected 1 for float inputs, got 0",
             ""},
        // Before opset 7: `broadcast` and `axis`.
        Case{"add_legacy_broadcast_axis",
             Node("Add", 2, IntAttr("broadcast", 1) + IntAttr("axis", 1)),
             6,
             {"float[2, 3, 4, 5]", "float[3, 4]"},
             {},
             "float[2, 3, 4, 5]",
             ""},
        Case{"sub_legacy_broadcast_suffix",
             Node("Sub", 2, IntAttr("broadcast", 1)),
             1,
             {"float[2, ?, 5]", "float[4, 5]"},
             {},
             "float[2, 4, 5]",
             ""},
        Case{"mul_legacy_broadcast_scalar",
             Node("Mul", 2, IntAttr("broadcast", 1)),
             6,
             {"float[2, N]", "float[1, 1]"},
             {},
             "float[2, N]",
             ""},
        Case{"pow_legacy_broadcast_axis0",
             Node("Pow", 2, IntAttr("broadcast", 1) + IntAttr("axis", 0)),
             1,
             {"float[2, 3, 4, 5]", "float[2]"},
             {},
             "float[2, 3, 4, 5]",
             ""},
        // PyTorch's exports: a 1 in B matches any dim of A (backend test_operator_add_size1_*).
        Case{"add_legacy_broadcast_size1",
             Node("Add", 2, IntAttr("broadcast", 1) + IntAttr("axis", 0)),
             6,
             {"double[2, 3]", "double[2, 1]"},
             {},
             "double[2, 3]",
             ""},
        Case{"add_legacy_broadcast_size1_symbolic",
             Node("Add", 2, IntAttr("broadcast", 1)),
             6,
             {"float[N, S, 3]", "float[1, 3]"},
             {},
             "float[N, S, 3]",
             ""},
        Case{"div_legacy_broadcast_mismatch",
             Node("Div", 2, IntAttr("broadcast", 1)),
             6,
             {"float[2, 3]", "float[2]"},
             {},
             "error: B [2] does not match A [2, 3] from axis 1",
             ""},
        Case{"add_legacy_broadcast_too_long",
             Node("Add", 2, IntAttr("broadcast", 1)),
             6,
             {"float[3]", "float[2, 3]"},
             {},
             "error: B [2, 3] does not fit in A [3]",
             ""},
        Case{"add_legacy_no_broadcast_equal",
             Node("Add", 2),
             6,
             {"float[2, ?]", "float[?, 3]"},
             {},
             "float[2, 3]",
             ""},
        Case{"add_legacy_no_broadcast_needs_equal",
             Node("Add", 2),
             6,
             {"float[2, 3]", "float[3]"},
             {},
             "error: expected equal shapes",
             ""},
        // Variadic: equal shapes before 8, broadcasting from 8.
        Case{"max_v6_equal_shapes",
             Node("Max", 3),
             6,
             {"float[N, 3]", "float[N, ?]", "float"},
             {},
             "float[N, 3]",
             ""},
        Case{"sum_v1_unequal",
             Node("Sum", 2),
             1,
             {"float[2, 3]", "float[3]"},
             {},
             "error: expected equal shapes (no broadcasting in opset 1)",
             ""},
        Case{"mean_v8_broadcast",
             Node("Mean", 3),
             8,
             {"float[3, 1]", "float[4]", "float[]"},
             {},
             "float[3, 4]",
             ""},
        Case{"min_v13_one_input", Node("Min", 1), 13, {"int32[B]"}, {}, "int32[B]", ""},
        Case{"sum_v13_mismatch",
             Node("Sum", 2),
             13,
             {"float[2]", "float[3]"},
             {},
             "error: cannot broadcast 2 with 3",
             ""}));

INSTANTIATE_TEST_SUITE_P(
    Values, ElementwiseRuleTest,
    ::testing::Values(
        Case{"add_values_broadcast",
             Node("Add", 2),
             14,
             {"int64[2]", "int64[1]"},
             {Int64s({2, 3}), Int64s({5})},
             "int64[2]",
             "int64[2] {7, 8}"},
        Case{"add_symbol_plus_zero",
             Node("Add", 2),
             14,
             {"int64[1]", "int64[]"},
             {Ints(kInt64, {1}, {Dim::Symbol("N")}), Int64Scalar(0)},
             "int64[1]",
             "int64[1] {N}"},
        Case{"mul_symbol_by_one",
             Node("Mul", 2),
             14,
             {"int64[2]", "int64[]"},
             {Ints(kInt64, {2}, {Dim::Symbol("N"), Dim::Const(3)}), Int64Scalar(1)},
             "int64[2]",
             "int64[2] {N, 3}"},
        Case{"sub_values_matrix",
             Node("Sub", 2),
             14,
             {"int64[2, 1]", "int64[2]"},
             {Ints(kInt64, {2, 1}, {Dim::Const(10), Dim::Const(20)}), Int64s({1, 2})},
             "int64[2, 2]",
             "int64[2, 2] {9, 8, 19, 18}"},
        Case{"div_truncates",
             Node("Div", 2),
             14,
             {"int64[3]", "int64[]"},
             {Int64s({7, -7, 6}), Int64Scalar(2)},
             "int64[3]",
             "int64[3] {3, -3, 3}"},
        Case{"div_symbol_by_one",
             Node("Div", 2),
             14,
             {"int64[1]", "int64[]"},
             {Ints(kInt64, {1}, {Dim::Symbol("S")}), Int64Scalar(1)},
             "int64[1]",
             "int64[1] {S}"},
        Case{"div_by_zero_unknown",
             Node("Div", 2),
             14,
             {"int64[1]", "int64[]"},
             {Int64s({4}), Int64Scalar(0)},
             "int64[1]",
             "int64[1] {?}"},
        Case{"div_reals",
             Node("Div", 2),
             14,
             {"float[]", "float[]"},
             {Reals(kFloat, {}, {7}), Reals(kFloat, {}, {2})},
             "float[]",
             "float[] {3.5}"},
        Case{"mod_sign_of_divisor",
             Node("Mod", 2),
             13,
             {"int64[2]", "int64[]"},
             {Int64s({-7, 7}), Int64Scalar(3)},
             "int64[2]",
             "int64[2] {2, 1}"},
        Case{"mod_fmod_sign_of_dividend",
             Node("Mod", 2, IntAttr("fmod", 1)),
             13,
             {"int64[2]", "int64[]"},
             {Int64s({-7, 7}), Int64Scalar(3)},
             "int64[2]",
             "int64[2] {-1, 1}"},
        Case{"mod_symbol_by_itself",
             Node("Mod", 2),
             13,
             {"int64[]", "int64[]"},
             {Ints(kInt64, {}, {Dim::Symbol("N")}), Ints(kInt64, {}, {Dim::Symbol("N")})},
             "int64[]",
             "int64[] {0}"},
        Case{"max_variadic_values",
             Node("Max", 3),
             13,
             {"int64[2]", "int64[]", "int64[2]"},
             {Int64s({1, 9}), Int64Scalar(4), Int64s({2, 3})},
             "int64[2]",
             "int64[2] {4, 9}"},
        Case{"min_symbol_with_itself",
             Node("Min", 2),
             13,
             {"int64[1]", "int64[1]"},
             {Ints(kInt64, {1}, {Dim::Symbol("N")}), Ints(kInt64, {1}, {Dim::Symbol("N")})},
             "int64[1]",
             "int64[1] {N}"},
        Case{"min_symbol_with_constant",
             Node("Min", 2),
             13,
             {"int64[1]", "int64[1]"},
             {Ints(kInt64, {1}, {Dim::Symbol("N")}), Int64s({4})},
             "int64[1]",
             "int64[1] {Min(4, N)}"},
        Case{"max_with_unknown_unknown",
             Node("Max", 2),
             13,
             {"int64[1]", "int64[1]"},
             {Ints(kInt64, {1}, {Dim()}), Int64s({4})},
             "int64[1]",
             "int64[1] {?}"},
        Case{"div_nonnegative_expression_floors",
             Node("Div", 2),
             14,
             {"int64[1]", "int64[]"},
             {Ints(kInt64, {1}, {Dim::Symbol("S") * Dim::Const(3)}), Int64Scalar(2)},
             "int64[1]",
             "int64[1] {S + floor(S/2)}"},
        Case{"div_maybe_negative_unknown",
             Node("Div", 2),
             14,
             {"int64[1]", "int64[]"},
             {Ints(kInt64, {1}, {Dim::Symbol("S") - Dim::Const(3)}), Int64Scalar(2)},
             "int64[1]",
             "int64[1] {?}"},
        Case{"abs_of_negated_size",
             Node("Abs", 1),
             13,
             {"int64[1]"},
             {Ints(kInt64, {1}, {Dim::Const(0) - Dim::Symbol("S")})},
             "int64[1]",
             "int64[1] {S}"},
        Case{"mod_expression",
             Node("Mod", 2),
             13,
             {"int64[1]", "int64[]"},
             {Ints(kInt64, {1}, {Dim::Symbol("S") + Dim::Const(1)}), Int64Scalar(5)},
             "int64[1]",
             "int64[1] {Mod(S + 1, 5)}"},
        Case{"max_symbol_with_zero",
             Node("Max", 2),
             13,
             {"int64[1]", "int64[]"},
             {Ints(kInt64, {1}, {Dim::Symbol("N")}), Int64Scalar(0)},
             "int64[1]",
             "int64[1] {N}"},
        Case{"max_with_unknown",
             Node("Max", 2),
             13,
             {"int64[1]", "int64[]"},
             {Ints(kInt64, {1}, {Dim()}), Int64Scalar(3)},
             "int64[1]",
             "int64[1] {?}"},
        Case{"sum_values",
             Node("Sum", 3),
             13,
             {"int64[]", "int64[]", "int64[]"},
             {Int64Scalar(1), Int64Scalar(2), Int64Scalar(3)},
             "int64[]",
             "int64[] {6}"},
        Case{"int32_overflow_unknown",
             Node("Mul", 2),
             14,
             {"int32[]", "int32[]"},
             {Ints(kInt32, {}, {Dim::Const(1 << 20)}), Ints(kInt32, {}, {Dim::Const(1 << 20)})},
             "int32[]",
             "int32[] {?}"},
        Case{"one_value_unknown_no_value",
             Node("Add", 2),
             14,
             {"int64[2]", "int64[]"},
             {Int64s({1, 2}), kNoValue},
             "int64[2]",
             ""},
        Case{"legacy_broadcast_no_value",
             Node("Add", 2, IntAttr("broadcast", 1)),
             6,
             {"int64[2]", "int64[]"},
             {Int64s({1, 2}), Int64Scalar(1)},
             "int64[2]",
             ""},
        // Floats holding sizes (pattern 4 of issue 15): exact quotients, with the condition
        // under which float32 holds them exactly.
        Case{"mul_float_sizes_by_scales",
             Node("Mul", 2),
             14,
             {"float[2]", "float[2]"},
             {Quotients(kFloat, {2}, {Q(kH), Q(kW)}), Reals(kFloat, {2}, {2, 0.5})},
             "float[2]",
             "float[2] {2*H, W/2}"},
        Case{"div_float_size_by_three_is_rounded",
             Node("Div", 2),
             14,
             {"float[]", "float[]"},
             {Quotients(kFloat, {}, {Q(kH)}), Reals(kFloat, {}, {3})},
             "float[]",
             "float[] {H/3~}"},
        Case{"div_float_size_by_half",
             Node("Div", 2),
             14,
             {"double[]", "double[]"},
             {Quotients(kDouble, {}, {Q(kH)}), Reals(kDouble, {}, {0.5})},
             "double[]",
             "double[] {2*H}"},
        Case{"add_to_rounded_is_unknown",
             Node("Add", 2),
             14,
             {"float[]", "float[]"},
             {Quotients(kFloat, {}, {Q(kH, 3, true)}), Reals(kFloat, {}, {1})},
             "float[]",
             "float[] {?}"},
        Case{"mul_by_a_tenth_is_unknown",
             Node("Mul", 2),
             14,
             {"float[]", "float[]"},
             {Quotients(kFloat, {}, {Q(kH)}), Reals(kFloat, {}, {0.1})},
             "float[]",
             "float[] {?}"},
        Case{"sub_float_sizes",
             Node("Sub", 2),
             14,
             {"float[]", "float[]"},
             {Quotients(kFloat, {}, {Q(kH, 2)}), Quotients(kFloat, {}, {Q(kW, 4)})},
             "float[]",
             "float[] {(2*H - W)/4}"}));

INSTANTIATE_TEST_SUITE_P(
    OwnRules, ElementwiseRuleTest,
    ::testing::Values(
        Case{"clip_v6_attributes",
             Node("Clip", 1, FloatAttr("min", 0) + FloatAttr("max", 6)),
             6,
             {"float[N, 3]"},
             {},
             "float[N, 3]",
             ""},
        Case{"clip_v13_min_max",
             Node("Clip", 3),
             13,
             {"float[N, 3]", "float[]", "float[]"},
             {},
             "float[N, 3]",
             ""},
        Case{"clip_v11_only_max",
             R"(op_type: "Clip" input: "x" input: "" input: "hi" output: "y")",
             11,
             {"float[2]", "", "float[]"},
             {},
             "float[2]",
             ""},
        Case{"clip_v12_min_not_scalar",
             Node("Clip", 2),
             12,
             {"int32[4]", "int32[2]"},
             {},
             "error: input 1 'b': expected a scalar, got [2]",
             ""},
        Case{"prelu_v16_channel_slope",
             Node("PRelu", 2),
             16,
             {"float[N, 3, H, W]", "float[3, 1, 1]"},
             {},
             "float[N, 3, H, W]",
             ""},
        Case{"prelu_v9_slope_refines_unknown",
             Node("PRelu", 2),
             9,
             {"float[N, ?]", "float[4]"},
             {},
             "float[N, 4]",
             ""},
        Case{"prelu_v7_slope_mismatch",
             Node("PRelu", 2),
             7,
             {"float[2, 3]", "float[2]"},
             {},
             "error: slope [2] does not broadcast to X [2, 3] at X's dim 1",
             ""},
        Case{"prelu_v7_slope_rank_larger",
             Node("PRelu", 2),
             7,
             {"float[3]", "float[1, 3]"},
             {},
             "error: slope [1, 3] does not broadcast to X [3]: its rank is larger",
             ""},
        Case{"prelu_v6_no_broadcast_rule",
             Node("PRelu", 2),
             6,
             {"float[2, 3]", "float[2]"},
             {},
             "float[2, 3]",
             ""},
        Case{"prelu_v1", Node("PRelu", 2), 1, {"float[2, 3]", "float[1]"}, {}, "float[2, 3]", ""},
        Case{"swiglu_same_shapes",
             Node("SwiGLU", 2),
             28,
             {"float[B, S, ?]", "float[B, ?, 64]"},
             {},
             "float[B, S, 64]",
             ""},
        Case{"swiglu_no_broadcast",
             Node("SwiGLU", 2),
             28,
             {"float[2, 64]", "float[1, 64]"},
             {},
             "error: expected equal shapes",
             ""}));

INSTANTIATE_TEST_SUITE_P(
    Elementwise, ElementwiseRuleTest,
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
        Case{"add_same", Node("Add", 2), 14, {"float[2, 3]", "float[2, 3]"}, {}, "float[2, 3]"},
        Case{"add_broadcast_right_aligned",
             Node("Add", 2),
             14,
             {"float[N, 1, 5]", "float[4, 1]"},
             {},
             "float[N, 4, 5]"},
        Case{"add_one_gives_way_to_symbol",
             Node("Add", 2),
             14,
             {"float[1, S]", "float[B, 1]"},
             {},
             "float[B, S]"},
        Case{"add_constant_beats_symbol",
             Node("Add", 2),
             14,
             {"float[N]", "float[7]"},
             {},
             "float[7]"},
        // Either could be 1: the explicit broadcast, never a silent merge.
        Case{"add_two_symbols_broadcast",
             Node("Add", 2),
             14,
             {"float[N]", "float[M]"},
             {},
             "float[Max(M, N)]"},
        Case{
            "add_symbol_and_unknown", Node("Add", 2), 14, {"float[N]", "float[?]"}, {}, "float[?]"},
        Case{"add_equal_expressions",
             Node("Add", 2),
             14,
             {"float[N + 1, 3]", "float[1 + N, 1]"},
             {},
             "float[N + 1, 3]"},
        Case{"add_expression_not_one_wins",
             Node("Add", 2),
             14,
             {"float[N + 2]", "float[M]"},
             {},
             "float[N + 2]"},
        Case{"add_provably_different",
             Node("Add", 2),
             14,
             {"float[2*N + 2]", "float[2*M + 3]"},
             {},
             "error: neither can be 1 and they differ"},
        Case{"add_scalar", Node("Add", 2), 13, {"float[]", "float[3, 4]"}, {}, "float[3, 4]"},
        Case{"add_rank_unknown", Node("Add", 2), 14, {"float[3]", "float"}, {}, "float"},
        Case{"add_mismatch",
             Node("Add", 2),
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
             Node("Add", 2),
             6,
             {"float[2, 3]", "float[3]"},
             {},
             "error: expected equal shapes"}));

// A float result made from sizes carries what it needs to be exact; a cast back to an
// integer type records it (tensor/cast_test.cc).
TEST(ValueOpsTest, FloatSizesCarryTheirExactnessConditions) {
  ConstValue sizes = Quotients(kFloat, {2}, {Q(kH), Q(kW)});
  ConstValue scales = Reals(kFloat, {2}, {3, 0.25});
  const ConstValue* args[] = {&sizes, &scales};
  auto v = ApplyValueOp(ValueOp::kMul, args, kFloat, 16);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->ToString(), "float[2] {3*H, W/4}");
  std::vector<std::string> texts;
  for (const auto& c : v->conditions) texts.push_back(c.ToString());
  EXPECT_EQ(texts, (std::vector<std::string>{"3*H <= 16777216 (exact in float32)",
                                             "W <= 16777216 (exact in float32)"}));
  // In float64 the bound is 2^53; a rounded quotient needs |num| + den < 2^p.
  ConstValue d = Quotients(kDouble, {}, {Q(kH)});
  ConstValue three = Reals(kDouble, {}, {3});
  const ConstValue* div[] = {&d, &three};
  auto q = ApplyValueOp(ValueOp::kDiv, div, kDouble, 16);
  ASSERT_TRUE(q);
  ASSERT_EQ(q->conditions.size(), 1u);
  EXPECT_EQ(q->conditions[0].ToString(), "H <= 9007199254740988 (exact in float64)");
}

TEST(ValueOpsTest, CastValueBetweenIntegersAndFloats) {
  // Symbolic sizes become exact quotients in float types and come back as Dims.
  ConstValue sizes = Ints(kInt64, {2}, {kH, Dim::Const(7)});
  auto f = CastValue(sizes, kFloat);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->ToString(), "float[2] {H, 7}");
  ASSERT_EQ(f->conditions.size(), 1u);
  EXPECT_EQ(f->conditions[0].ToString(), "H <= 16777216 (exact in float32)");
  auto back = CastValue(*f, kInt64);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->ToString(), "int64[2] {H, 7}");
  // Truncation toward zero, of quotients as of reals.
  auto t = CastValue(Quotients(kFloat, {2}, {Q(kH, 2), Q(Dim::Const(0) - kH, 2)}), kInt32);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->ToString(), "int32[2] {floor(H/2), -H + floor((H + 1)/2)}");  // -floor(H/2)
  // A symbolic size does not go into int8 (it might not fit), nor into a bool.
  EXPECT_FALSE(CastValue(sizes, kInt8));
  EXPECT_FALSE(CastValue(sizes, kBool));
  // A float rounded once in float64 is rounded again by float32: not tracked.
  auto twice = CastValue(Quotients(kDouble, {}, {Q(kH, 3, true)}), kFloat);
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->ToString(), "float[] {?}");
}

// Shapes that must be equal are recorded as facts, which then resolve the output.
TEST(ElementwiseFactsTest, EqualShapesAndForcedBroadcastsAreRecorded) {
  symbolic::Unifier u;
  auto swiglu = RunRule(BuiltinSchemas(), Node("SwiGLU", 2), 28,
                        {T("float[N, 8]"), T("float[2, D]")}, {}, &u);
  EXPECT_EQ(swiglu.Summary(), "float[2, 8]");
  EXPECT_EQ(swiglu.facts,
            (std::vector<std::string>{
                "N == 2 (node of output 'y' (SwiGLU): equal shapes, input 1 'b' dim 0)",
                "8 == D (node of output 'y' (SwiGLU): equal shapes, input 1 'b' dim 1)"}));

  symbolic::Unifier u2;
  auto add = RunRule(BuiltinSchemas(), Node("Add", 2), 14, {T("float[N + 2]"), T("float[M + 2]")},
                     {}, &u2);
  EXPECT_EQ(add.Summary(), "float[M + 2]");  // N == M, resolved to the smaller name
  ASSERT_EQ(add.facts.size(), 1u);
  EXPECT_NE(add.facts[0].find("broadcast dims that cannot be 1"), std::string::npos);
}

// Every version of every operator of these families has a rule, so a version added to the
// catalog and missing from a family table shows up here.
TEST(ElementwiseCoverageTest, EveryVersionHasARule) {
  const char* ops[] = {"Abs",
                       "Acos",
                       "Acosh",
                       "Asin",
                       "Asinh",
                       "Atan",
                       "Atanh",
                       "Ceil",
                       "Celu",
                       "Cos",
                       "Cosh",
                       "Elu",
                       "Erf",
                       "Exp",
                       "Floor",
                       "Gelu",
                       "HardSigmoid",
                       "HardSwish",
                       "LeakyRelu",
                       "Log",
                       "Mish",
                       "Neg",
                       "Reciprocal",
                       "Relu",
                       "Round",
                       "Selu",
                       "Sigmoid",
                       "Sign",
                       "Sin",
                       "Sinh",
                       "Softplus",
                       "Softsign",
                       "Sqrt",
                       "Swish",
                       "Tan",
                       "Tanh",
                       "ThresholdedRelu",
                       "Clip",
                       "PRelu",
                       "SwiGLU",
                       "Add",
                       "Sub",
                       "Mul",
                       "Div",
                       "Pow",
                       "Mod",
                       "Max",
                       "Min",
                       "Mean",
                       "Sum"};
  for (const char* op : ops) {
    auto versions = BuiltinSchemas().Versions("", op);
    EXPECT_FALSE(versions.empty()) << op;
    for (const OpSchema* s : versions) {
      // onnxruntime's ThresholdedRelu-1 (schema/data/ort_default_domain.json) is not ONNX's:
      // its rule comes with the other onnxruntime operators.
      if (std::string_view(op) == "ThresholdedRelu" && s->since_version() == 1) continue;
      EXPECT_TRUE(s->has_rule()) << op << "-" << s->since_version();
    }
  }
}

TEST(ValueOpsTest, BroadcastValueDims) {
  ConstValue a = Ints(kInt64, {2, 1}, {Dim::Const(1), Dim::Const(2)});
  ConstValue b = Int64s({1, 2, 3});
  ConstValue c = Int64s({1, 2});
  const ConstValue* ab[] = {&a, &b};
  EXPECT_EQ(BroadcastValueDims(ab), (std::vector<int64_t>{2, 3}));
  const ConstValue* bc[] = {&b, &c};
  EXPECT_EQ(BroadcastValueDims(bc), std::nullopt);
}

TEST(ValueOpsTest, RespectsMaxElements) {
  ConstValue a = Int64s({1, 2, 3, 4});
  ConstValue b = Int64Scalar(1);
  const ConstValue* args[] = {&a, &b};
  EXPECT_TRUE(ApplyValueOp(ValueOp::kAdd, args, kInt64, 4));
  EXPECT_FALSE(ApplyValueOp(ValueOp::kAdd, args, kInt64, 3));
}

TEST(ValueOpsTest, UntrackedTypesGiveNoValue) {
  ConstValue a = Reals(kFloat16, {1}, {1.0});
  const ConstValue* args[] = {&a};
  EXPECT_FALSE(ApplyValueOp(ValueOp::kNeg, args, kFloat16, 16));
}

}  // namespace
}  // namespace onnx_infer
