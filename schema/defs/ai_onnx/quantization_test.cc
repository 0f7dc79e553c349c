// Table tests of the quantization rules (quantization.cc): QuantizeLinear / DequantizeLinear
// over every version (output type, per-tensor, per-axis and blocked scales) and
// DynamicQuantizeLinear.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::IntAttr;
using testing::IntsAttr;
using testing::Node;
using testing::RuleCase;
using testing::RuleTableTest;
using testing::RunMatches;
using testing::RunRule;
using testing::RunRuleCase;
using testing::StrAttr;
using testing::StrsAttr;
using testing::T;

using Case = RuleCase;

using QuantizationRuleTest = RuleTableTest;

TEST_P(QuantizationRuleTest, Infers) { EXPECT_TRUE(RunRuleCase(BuiltinSchemas(), GetParam())); }

std::string Q(const std::string& attrs = "") {
  return Node("QuantizeLinear", {"x", "s", "z"}, {"y"}, attrs);
}
std::string Q2(const std::string& attrs = "") {
  return Node("QuantizeLinear", {"x", "s"}, {"y"}, attrs);
}
std::string DQ(const std::string& attrs = "") {
  return Node("DequantizeLinear", {"x", "s", "z"}, {"y"}, attrs);
}
std::string DQ2(const std::string& attrs = "") {
  return Node("DequantizeLinear", {"x", "s"}, {"y"}, attrs);
}

INSTANTIATE_TEST_SUITE_P(
    QuantizeLinear, QuantizationRuleTest,
    ::testing::Values(
        Case{
            "q10_zero_point_type", Q(), 10, {"float[N, 3]", "float[]", "int8[]"}, {}, "int8[N, 3]"},
        Case{"q10_no_zero_point_is_uint8", Q2(), 10, {"float[N, 3]", "float[]"}, {}, "uint8[N, 3]"},
        Case{"q10_per_axis_scale_is_an_error",
             Q(),
             10,
             {"float[N, 3]", "float[3]", "uint8[3]"},
             {},
             "error: input 1 's': expected a scalar, got rank 1"},
        Case{"q10_one_element_scale_is_per_tensor",
             Q(),
             10,
             {"float[N, 3]", "float[1]", "uint8[1]"},
             {},
             "uint8[N, 3]"},
        Case{"q13_per_axis",
             Q(),
             13,
             {"float[N, 3, H]", "float[3]", "int8[3]"},
             {},
             "int8[N, 3, H]"},
        Case{"q13_per_axis_length_mismatch",
             Q(),
             13,
             {"float[N, 3, H]", "float[4]", "int8[4]"},
             {},
             "error: input 1 's' length and input 0 'x' dim 1"},
        Case{"q13_per_axis_negative_axis",
             Q(IntAttr("axis", -1)),
             13,
             {"float[N, 3, 5]", "float[5]", "int8[5]"},
             {},
             "int8[N, 3, 5]"},
        Case{"q13_axis_out_of_range",
             Q(IntAttr("axis", 3)),
             13,
             {"float[N, 3, 5]", "float[5]", "int8[5]"},
             {},
             "error: attribute 'axis': expected an axis in [-3, 2]"},
        Case{
            "q13_1d_x_ignores_axis", Q(), 13, {"float[6]", "float[6]", "uint8[6]"}, {}, "uint8[6]"},
        Case{"q13_symbolic_scale_length_not_checked",
             Q(),
             13,
             {"float[N, 3]", "float[K]", "uint8[K]"},
             {},
             "uint8[N, 3]"},
        Case{"q13_rank_2_scale",
             Q(),
             13,
             {"float[N, 3]", "float[1, 3]", "uint8[1, 3]"},
             {},
             "error: input 1 's': expected a scalar or a 1-D tensor, got rank 2"},
        Case{"q13_zero_point_shape_differs",
             Q(),
             13,
             {"float[N, 3]", "float[3]", "uint8[]"},
             {},
             "error: input 2 'z': expected the shape of input 1 's' [3], got []"},
        Case{"q19_float8_zero_point",
             Q(),
             19,
             {"float16[4]", "float16[]", "float8e4m3fn[]"},
             {},
             "float8e4m3fn[4]"},
        Case{"q19_scalar_scale_one_element_zero_point",
             Q(),
             19,
             {"float[5]", "float[]", "float8e5m2[1]"},
             {},
             "float8e5m2[5]"},
        Case{"q21_output_dtype_without_zero_point",
             Q2(IntAttr("output_dtype", kInt4)),
             21,
             {"float[3, 4]", "float[]"},
             {},
             "int4[3, 4]"},
        Case{"q21_output_dtype_agrees_with_zero_point",
             Q(IntAttr("output_dtype", kInt16)),
             21,
             {"float[3, 4]", "float[]", "int16[]"},
             {},
             "int16[3, 4]"},
        Case{"q21_output_dtype_contradicts_zero_point",
             Q(IntAttr("output_dtype", kInt8)),
             21,
             {"float[3, 4]", "float[]", "uint8[]"},
             {},
             "error: attribute 'output_dtype': expected uint8 (the type of input 2 'z'), got int8"},
        Case{"q21_zero_point_type_unknown_uses_output_dtype",
             Q(IntAttr("output_dtype", kInt8)),
             21,
             {"float[3, 4]", "float[]", "?"},
             {},
             "int8[3, 4]"},
        Case{
            "q21_zero_point_type_unknown", Q(), 21, {"float[3, 4]", "float[]", "?"}, {}, "?[3, 4]"},
        Case{"q21_blocked",
             Q(IntAttr("block_size", 2)),
             21,
             {"float[3, 4]", "float[3, 2]", "uint8[3, 2]"},
             {},
             "uint8[3, 4]"},
        Case{"q21_blocked_ragged_last_block",
             Q(IntAttr("axis", 0) + IntAttr("block_size", 2)),
             21,
             {"float[5, 4]", "float[3, 4]", "uint8[3, 4]"},
             {},
             "uint8[5, 4]"},
        Case{"q21_blocked_symbolic",
             Q(IntAttr("block_size", 32)),
             21,
             {"float[N, K]", "float[N, S]", "int4[N, S]"},
             {},
             "int4[N, K]"},
        Case{"q21_blocked_wrong_block_count",
             Q(IntAttr("block_size", 2)),
             21,
             {"float[3, 4]", "float[3, 3]", "uint8[3, 3]"},
             {},
             "error: input 1 's' dim 1 and ceil(x dim 1 / block_size 2)"},
        Case{"q21_blocked_other_dim_differs",
             Q(IntAttr("block_size", 2)),
             21,
             {"float[3, 4]", "float[2, 2]", "uint8[2, 2]"},
             {},
             "error: input 1 's' dim 0 and input 0 'x' dim 0"},
        Case{"q21_blocked_rank_differs",
             Q(IntAttr("block_size", 2)),
             21,
             {"float[3, 4]", "float[2]", "uint8[2]"},
             {},
             "error: input 1 's': expected rank 2 (the rank of x) for blocked quantization"},
        Case{"q21_rank_2_scale_needs_block_size",
             Q(),
             21,
             {"float[3, 4]", "float[3, 2]", "uint8[3, 2]"},
             {},
             "error: input 1 's': expected a scalar or a 1-D tensor (a blocked scale needs "
             "attribute 'block_size'), got rank 2"},
        Case{"q21_negative_block_size",
             Q2(IntAttr("block_size", -1)),
             21,
             {"float[3, 4]", "float[]"},
             {},
             "error: attribute 'block_size': expected >= 0, got -1"},
        Case{"q23_output_dtype_float4",
             Q2(IntAttr("output_dtype", kFloat4e2m1)),
             23,
             {"float[3, 4]", "float[]"},
             {},
             "float4e2m1[3, 4]"},
        Case{"q24_e8m0_scale",
             Q(IntAttr("block_size", 2)),
             24,
             {"float[3, 4]", "float8e8m0[3, 2]", "int4[3, 2]"},
             {},
             "int4[3, 4]"},
        Case{"q25_int2",
             Q2(IntAttr("output_dtype", kInt2)),
             25,
             {"float[3, 4]", "float[]"},
             {},
             "int2[3, 4]"},
        Case{"q25_bad_output_dtype",
             Q2(IntAttr("output_dtype", 99)),
             25,
             {"float[3, 4]", "float[]"},
             {},
             "error: attribute 'output_dtype': expected a data type in [1, 26], got 99"},
        Case{"q25_x_rank_unknown", Q2(), 25, {"float", "float[]"}, {}, "uint8"}));

INSTANTIATE_TEST_SUITE_P(
    DequantizeLinear, QuantizationRuleTest,
    ::testing::Values(
        Case{"dq10_float", DQ(), 10, {"int8[N, 3]", "float[]", "int8[]"}, {}, "float[N, 3]"},
        Case{"dq10_per_axis_is_an_error",
             DQ(),
             10,
             {"int8[N, 3]", "float[3]", "int8[3]"},
             {},
             "error: input 1 's': expected a scalar, got rank 1"},
        Case{"dq13_per_axis",
             DQ(IntAttr("axis", 0)),
             13,
             {"uint8[4, N]", "float[4]", "uint8[4]"},
             {},
             "float[4, N]"},
        Case{"dq13_int32_without_zero_point", DQ2(), 13, {"int32[N]", "float[]"}, {}, "float[N]"},
        Case{"dq19_scale_type", DQ2(), 19, {"float8e4m3fn[5]", "float16[]"}, {}, "float16[5]"},
        Case{"dq19_scale_type_unknown", DQ2(), 19, {"int8[5]", "?"}, {}, "?[5]"},
        Case{"dq21_blocked",
             DQ(IntAttr("axis", 0) + IntAttr("block_size", 3)),
             21,
             {"int4[N, 8]", "bfloat16[S, 8]", "int4[S, 8]"},
             {},
             "bfloat16[N, 8]"},
        Case{"dq21_blocked_wrong_count",
             DQ(IntAttr("axis", 0) + IntAttr("block_size", 3)),
             21,
             {"int4[7, 8]", "float[2, 8]", "int4[2, 8]"},
             {},
             "error: input 1 's' dim 0 and ceil(x dim 0 / block_size 3)"},
        Case{"dq21_zero_point_one_element",
             DQ(IntAttr("axis", 0)),
             21,
             {"int4[5]", "float[]", "int4[1]"},
             {},
             "float[5]"},
        Case{"dq23_output_dtype",
             DQ2(IntAttr("output_dtype", kFloat16)),
             23,
             {"int8[5]", "float[]"},
             {},
             "float16[5]"},
        Case{"dq23_default_is_scale_type", DQ2(), 23, {"int8[5]", "bfloat16[]"}, {}, "bfloat16[5]"},
        Case{"dq24_e8m0_scale_with_output_dtype",
             DQ2(IntAttr("output_dtype", kFloat)),
             24,
             {"float4e2m1[4]", "float8e8m0[]"},
             {},
             "float[4]"},
        Case{"dq24_e8m0_scale_needs_output_dtype",
             DQ2(),
             24,
             {"float4e2m1[4]", "float8e8m0[]"},
             {},
             "error: attribute 'output_dtype': required when input 1 's' is float8e8m0"},
        Case{"dq25_uint2", DQ(), 25, {"uint2[4]", "float[]", "uint2[]"}, {}, "float[4]"}));

// Facts: a blocked scale's dims name the blocks of x.
TEST(QuantMiscFactsTest, BlockedScaleDimsAreRecorded) {
  symbolic::Unifier u;
  auto q = RunRule(BuiltinSchemas(), Q(IntAttr("block_size", 32)), 21,
                   {T("float[N, K]"), T("float[M, S]"), T("int4[M, S]")}, {}, &u);
  EXPECT_EQ(q.Summary(), "int4[M, K]");
  EXPECT_EQ(q.facts,
            (std::vector<std::string>{
                "M == N (node of output 'y' (QuantizeLinear): input 1 's' dim 0 and input 0 'x' "
                "dim 0)",
                "S == floor((K + 31)/32) (node of output 'y' (QuantizeLinear): input 1 's' dim 1 "
                "and ceil(x dim 1 / block_size 32))"}));
}

INSTANTIATE_TEST_SUITE_P(
    DynamicQuantizeAndBits, QuantizationRuleTest,
    ::testing::Values(Case{"dynamic_quantize",
                           Node("DynamicQuantizeLinear", {"x"}, {"y", "s", "z"}),
                           11,
                           {"float[N, 4]"},
                           {},
                           "uint8[N, 4]; float[]; uint8[]"},
                      Case{"dynamic_quantize_rank_unknown",
                           Node("DynamicQuantizeLinear", {"x"}, {"y", "s", "z"}),
                           11,
                           {"float"},
                           {},
                           "uint8; float[]; uint8[]"}));

}  // namespace
}  // namespace onnx_infer
