// Table tests of the quantization and miscellaneous rules (quantization.cc), with the cast.cc,
// generator.cc, text.cc, image.cc and object_detection.cc rows that came from the same batch:
// QuantizeLinear / DequantizeLinear over every version (output type, per-tensor, per-axis
// and blocked scales), DynamicQuantizeLinear, BitCast, IsInf/IsNaN, the random generators,
// the string operators, ImageDecoder and NonMaxSuppression.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::RunRule;
using testing::T;
using testing::RunMatches;
using testing::Node;
using testing::IntAttr;
using testing::IntsAttr;

struct Case {
  const char* name;
  std::string node;  // NodeProto text
  int64_t opset;
  std::vector<const char*> inputs;  // types, "" for an absent input
  std::vector<std::optional<ConstValue>> values;
  std::string expected;  // RuleRun::Summary()
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

class QuantMiscRuleTest : public ::testing::TestWithParam<Case> {};

TEST_P(QuantMiscRuleTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, c.opset, inputs, c.values);
  EXPECT_TRUE(RunMatches(run, c.expected));
}

std::string StrAttr(const char* name, const char* s) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: STRING s: ")" + s + R"(" })";
}

std::string StrsAttr(const char* name, std::vector<const char*> values) {
  std::string s = std::string(R"( attribute { name: ")") + name + R"(" type: STRINGS)";
  for (const char* v : values) s += std::string(R"( strings: ")") + v + R"(")";
  return s + " }";
}

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
    QuantizeLinear, QuantMiscRuleTest,
    ::testing::Values(
        Case{"q10_zero_point_type", Q(), 10, {"float[N, 3]", "float[]", "int8[]"}, {},
             "int8[N, 3]"},
        Case{"q10_no_zero_point_is_uint8", Q2(), 10, {"float[N, 3]", "float[]"}, {},
             "uint8[N, 3]"},
        Case{"q10_per_axis_scale_is_an_error", Q(), 10,
             {"float[N, 3]", "float[3]", "uint8[3]"}, {},
             "error: input 1 's': expected a scalar, got rank 1"},
        Case{"q10_one_element_scale_is_per_tensor", Q(), 10,
             {"float[N, 3]", "float[1]", "uint8[1]"}, {}, "uint8[N, 3]"},
        Case{"q13_per_axis", Q(), 13, {"float[N, 3, H]", "float[3]", "int8[3]"}, {},
             "int8[N, 3, H]"},
        Case{"q13_per_axis_length_mismatch", Q(), 13,
             {"float[N, 3, H]", "float[4]", "int8[4]"}, {},
             "error: input 1 's' length and input 0 'x' dim 1"},
        Case{"q13_per_axis_negative_axis", Q(IntAttr("axis", -1)), 13,
             {"float[N, 3, 5]", "float[5]", "int8[5]"}, {}, "int8[N, 3, 5]"},
        Case{"q13_axis_out_of_range", Q(IntAttr("axis", 3)), 13,
             {"float[N, 3, 5]", "float[5]", "int8[5]"}, {},
             "error: attribute 'axis': expected an axis in [-3, 2]"},
        Case{"q13_1d_x_ignores_axis", Q(), 13, {"float[6]", "float[6]", "uint8[6]"}, {},
             "uint8[6]"},
        Case{"q13_symbolic_scale_length_not_checked", Q(), 13,
             {"float[N, 3]", "float[K]", "uint8[K]"}, {}, "uint8[N, 3]"},
        Case{"q13_rank_2_scale", Q(), 13, {"float[N, 3]", "float[1, 3]", "uint8[1, 3]"}, {},
             "error: input 1 's': expected a scalar or a 1-D tensor, got rank 2"},
        Case{"q13_zero_point_shape_differs", Q(), 13, {"float[N, 3]", "float[3]", "uint8[]"}, {},
             "error: input 2 'z': expected the shape of input 1 's' [3], got []"},
        Case{"q19_float8_zero_point", Q(), 19, {"float16[4]", "float16[]", "float8e4m3fn[]"},
             {}, "float8e4m3fn[4]"},
        Case{"q19_scalar_scale_one_element_zero_point", Q(), 19,
             {"float[5]", "float[]", "float8e5m2[1]"}, {}, "float8e5m2[5]"},
        Case{"q21_output_dtype_without_zero_point", Q2(IntAttr("output_dtype", kInt4)), 21,
             {"float[3, 4]", "float[]"}, {}, "int4[3, 4]"},
        Case{"q21_output_dtype_agrees_with_zero_point", Q(IntAttr("output_dtype", kInt16)), 21,
             {"float[3, 4]", "float[]", "int16[]"}, {}, "int16[3, 4]"},
        Case{"q21_output_dtype_contradicts_zero_point", Q(IntAttr("output_dtype", kInt8)), 21,
             {"float[3, 4]", "float[]", "uint8[]"}, {},
             "error: attribute 'output_dtype': expected uint8 (the type of input 2 'z'), got int8"},
        Case{"q21_zero_point_type_unknown_uses_output_dtype", Q(IntAttr("output_dtype", kInt8)),
             21, {"float[3, 4]", "float[]", "?"}, {}, "int8[3, 4]"},
        Case{"q21_zero_point_type_unknown", Q(), 21, {"float[3, 4]", "float[]", "?"}, {},
             "?[3, 4]"},
        Case{"q21_blocked", Q(IntAttr("block_size", 2)), 21,
             {"float[3, 4]", "float[3, 2]", "uint8[3, 2]"}, {}, "uint8[3, 4]"},
        Case{"q21_blocked_ragged_last_block", Q(IntAttr("axis", 0) + IntAttr("block_size", 2)),
             21, {"float[5, 4]", "float[3, 4]", "uint8[3, 4]"}, {}, "uint8[5, 4]"},
        Case{"q21_blocked_symbolic", Q(IntAttr("block_size", 32)), 21,
             {"float[N, K]", "float[N, S]", "int4[N, S]"}, {}, "int4[N, K]"},
        Case{"q21_blocked_wrong_block_count", Q(IntAttr("block_size", 2)), 21,
             {"float[3, 4]", "float[3, 3]", "uint8[3, 3]"}, {},
             "error: input 1 's' dim 1 and ceil(x dim 1 / block_size 2)"},
        Case{"q21_blocked_other_dim_differs", Q(IntAttr("block_size", 2)), 21,
             {"float[3, 4]", "float[2, 2]", "uint8[2, 2]"}, {},
             "error: input 1 's' dim 0 and input 0 'x' dim 0"},
        Case{"q21_blocked_rank_differs", Q(IntAttr("block_size", 2)), 21,
             {"float[3, 4]", "float[2]", "uint8[2]"}, {},
             "error: input 1 's': expected rank 2 (the rank of x) for blocked quantization"},
        Case{"q21_rank_2_scale_needs_block_size", Q(), 21,
             {"float[3, 4]", "float[3, 2]", "uint8[3, 2]"}, {},
             "error: input 1 's': expected a scalar or a 1-D tensor (a blocked scale needs "
             "attribute 'block_size'), got rank 2"},
        Case{"q21_negative_block_size", Q2(IntAttr("block_size", -1)), 21,
             {"float[3, 4]", "float[]"}, {},
             "error: attribute 'block_size': expected >= 0, got -1"},
        Case{"q23_output_dtype_float4", Q2(IntAttr("output_dtype", kFloat4e2m1)), 23,
             {"float[3, 4]", "float[]"}, {}, "float4e2m1[3, 4]"},
        Case{"q24_e8m0_scale", Q(IntAttr("block_size", 2)), 24,
             {"float[3, 4]", "float8e8m0[3, 2]", "int4[3, 2]"}, {}, "int4[3, 4]"},
        Case{"q25_int2", Q2(IntAttr("output_dtype", kInt2)), 25, {"float[3, 4]", "float[]"}, {},
             "int2[3, 4]"},
        Case{"q25_bad_output_dtype", Q2(IntAttr("output_dtype", 99)), 25,
             {"float[3, 4]", "float[]"}, {},
             "error: attribute 'output_dtype': expected a data type in [1, 26], got 99"},
        Case{"q25_x_rank_unknown", Q2(), 25, {"float", "float[]"}, {}, "uint8"}));

INSTANTIATE_TEST_SUITE_P(
    DequantizeLinear, QuantMiscRuleTest,
    ::testing::Values(
        Case{"dq10_float", DQ(), 10, {"int8[N, 3]", "float[]", "int8[]"}, {}, "float[N, 3]"},
        Case{"dq10_per_axis_is_an_error", DQ(), 10, {"int8[N, 3]", "float[3]", "int8[3]"}, {},
             "error: input 1 's': expected a scalar, got rank 1"},
        Case{"dq13_per_axis", DQ(IntAttr("axis", 0)), 13,
             {"uint8[4, N]", "float[4]", "uint8[4]"}, {}, "float[4, N]"},
        Case{"dq13_int32_without_zero_point", DQ2(), 13, {"int32[N]", "float[]"}, {},
             "float[N]"},
        Case{"dq19_scale_type", DQ2(), 19, {"float8e4m3fn[5]", "float16[]"}, {}, "float16[5]"},
        Case{"dq19_scale_type_unknown", DQ2(), 19, {"int8[5]", "?"}, {}, "?[5]"},
        Case{"dq21_blocked", DQ(IntAttr("axis", 0) + IntAttr("block_size", 3)), 21,
             {"int4[N, 8]", "bfloat16[S, 8]", "int4[S, 8]"}, {}, "bfloat16[N, 8]"},
        Case{"dq21_blocked_wrong_count", DQ(IntAttr("axis", 0) + IntAttr("block_size", 3)), 21,
             {"int4[7, 8]", "float[2, 8]", "int4[2, 8]"}, {},
             "error: input 1 's' dim 0 and ceil(x dim 0 / block_size 3)"},
        Case{"dq21_zero_point_one_element", DQ(IntAttr("axis", 0)), 21,
             {"int4[5]", "float[]", "int4[1]"}, {}, "float[5]"},
        Case{"dq23_output_dtype", DQ2(IntAttr("output_dtype", kFloat16)), 23,
             {"int8[5]", "float[]"}, {}, "float16[5]"},
        Case{"dq23_default_is_scale_type", DQ2(), 23, {"int8[5]", "bfloat16[]"}, {},
             "bfloat16[5]"},
        Case{"dq24_e8m0_scale_with_output_dtype", DQ2(IntAttr("output_dtype", kFloat)), 24,
             {"float4e2m1[4]", "float8e8m0[]"}, {}, "float[4]"},
        Case{"dq24_e8m0_scale_needs_output_dtype", DQ2(), 24, {"float4e2m1[4]", "float8e8m0[]"},
             {}, "error: attribute 'output_dtype': required when input 1 's' is float8e8m0"},
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
    DynamicQuantizeAndBits, QuantMiscRuleTest,
    ::testing::Values(
        Case{"dynamic_quantize", Node("DynamicQuantizeLinear", {"x"}, {"y", "s", "z"}), 11,
             {"float[N, 4]"}, {}, "uint8[N, 4]; float[]; uint8[]"},
        Case{"dynamic_quantize_rank_unknown",
             Node("DynamicQuantizeLinear", {"x"}, {"y", "s", "z"}), 11, {"float"}, {},
             "uint8; float[]; uint8[]"},
        Case{"bitcast_same_width", Node("BitCast", {"x"}, {"y"}, IntAttr("to", kInt32)), 26,
             {"float[N, 3]"}, {}, "int32[N, 3]"},
        Case{"bitcast_bool_to_uint8", Node("BitCast", {"x"}, {"y"}, IntAttr("to", kUint8)), 26,
             {"bool[4]"}, {}, "uint8[4]"},
        Case{"bitcast_width_differs", Node("BitCast", {"x"}, {"y"}, IntAttr("to", kInt64)), 26,
             {"float[3]"}, {},
             "error: attribute 'to': expected a 32-bit type (input 0 'x' is float), got int64 "
             "(64 bits)"},
        Case{"bitcast_input_type_unknown", Node("BitCast", {"x"}, {"y"}, IntAttr("to", kInt64)),
             26, {"?"}, {}, "int64"},
        Case{"bitcast_to_required", Node("BitCast", {"x"}, {"y"}), 26, {"float[3]"}, {},
             "error: attribute 'to'"},
        Case{"isinf_10", Node("IsInf", {"x"}, {"y"}), 10, {"double[N, 2]"}, {}, "bool[N, 2]"},
        Case{"isinf_20", Node("IsInf", {"x"}, {"y"}, IntAttr("detect_negative", 0)), 20,
             {"float16[]"}, {}, "bool[]"},
        Case{"isnan_9", Node("IsNaN", {"x"}, {"y"}), 9, {"float[N]"}, {}, "bool[N]"},
        Case{"isnan_13", Node("IsNaN", {"x"}, {"y"}), 13, {"bfloat16[2, 3]"}, {}, "bool[2, 3]"},
        Case{"isnan_20", Node("IsNaN", {"x"}, {"y"}), 20, {"float8e4m3fn"}, {}, "bool"}));

INSTANTIATE_TEST_SUITE_P(
    Random, QuantMiscRuleTest,
    ::testing::Values(
        Case{"bernoulli_input_type", Node("Bernoulli", {"x"}, {"y"}), 15, {"double[N, 10]"}, {},
             "double[N, 10]"},
        Case{"bernoulli_dtype", Node("Bernoulli", {"x"}, {"y"}, IntAttr("dtype", kBool)), 22,
             {"float[10]"}, {}, "bool[10]"},
        Case{"random_normal_like_1", Node("RandomNormalLike", {"x"}, {"y"}), 1,
             {"float16[B, 3]"}, {}, "float16[B, 3]"},
        Case{"random_uniform_like_22_dtype",
             Node("RandomUniformLike", {"x"}, {"y"}, IntAttr("dtype", kDouble)), 22,
             {"int64[B, 3]"}, {}, "double[B, 3]"},
        Case{"random_uniform_like_dtype_0_is_input_type",
             Node("RandomUniformLike", {"x"}, {"y"}, IntAttr("dtype", 0)), 22,
             {"float[B, 3]"}, {}, "float[B, 3]"},
        Case{"random_normal_default_float",
             Node("RandomNormal", {}, {"y"}, IntsAttr("shape", {2, 3})), 1, {}, {},
             "float[2, 3]"},
        Case{"random_uniform_22_dtype",
             Node("RandomUniform", {}, {"y"}, IntsAttr("shape", {4}) + IntAttr("dtype", kFloat16)),
             22, {}, {}, "float16[4]"},
        Case{"random_uniform_scalar", Node("RandomUniform", {}, {"y"}, IntsAttr("shape", {})), 22,
             {}, {}, "float[]"},
        Case{"random_normal_negative_dim",
             Node("RandomNormal", {}, {"y"}, IntsAttr("shape", {2, -1})), 22, {}, {},
             "error: attribute 'shape': expected dims >= 0, got -1"},
        Case{"random_normal_shape_required", Node("RandomNormal", {}, {"y"}), 22, {}, {},
             "error: attribute 'shape'"},
        Case{"multinomial_default_int32",
             Node("Multinomial", {"x"}, {"y"}, IntAttr("sample_size", 5)), 7, {"float[B, 10]"},
             {}, "int32[B, 5]"},
        Case{"multinomial_22_int64_default_sample",
             Node("Multinomial", {"x"}, {"y"}, IntAttr("dtype", kInt64)), 22, {"double[3, 10]"},
             {}, "int64[3, 1]"},
        Case{"multinomial_rank_unknown", Node("Multinomial", {"x"}, {"y"}), 22, {"float"}, {},
             "int32[?, 1]"},
        Case{"multinomial_rank_1", Node("Multinomial", {"x"}, {"y"}), 7, {"float[10]"}, {},
             "error: input 0 'x': expected rank 2 ([batch_size, class_size]), got rank 1"}));

INSTANTIATE_TEST_SUITE_P(
    Strings, QuantMiscRuleTest,
    ::testing::Values(
        Case{"string_concat_broadcast", Node("StringConcat", {"a", "b"}, {"y"}), 20,
             {"string[N, 3]", "string[]"}, {}, "string[N, 3]"},
        Case{"string_concat_mismatch", Node("StringConcat", {"a", "b"}, {"y"}), 20,
             {"string[2]", "string[3]"}, {}, "error: "},
        Case{"regex_full_match", Node("RegexFullMatch", {"x"}, {"y"}, StrAttr("pattern", "a.*")),
             20, {"string[N, 2]"}, {}, "bool[N, 2]"},
        Case{"normalizer_no_stopwords_keeps_length",
             Node("StringNormalizer", {"x"}, {"y"}, StrAttr("case_change_action", "LOWER")), 10,
             {"string[4]"}, {}, "string[4]"},
        Case{"normalizer_empty_input_gives_one_empty_string",
             Node("StringNormalizer", {"x"}, {"y"}), 10, {"string[0]"}, {}, "string[1]"},
        Case{"normalizer_symbolic_length", Node("StringNormalizer", {"x"}, {"y"}), 10,
             {"string[1, C]"}, {}, "string[1, Max(1, C)]"},
        Case{"normalizer_stopwords_unknown_length",
             Node("StringNormalizer", {"x"}, {"y"}, StrsAttr("stopwords", {"monday"})), 10,
             {"string[1, 4]"}, {}, "string[1, ?]"},
        Case{"normalizer_first_dim_not_1", Node("StringNormalizer", {"x"}, {"y"}), 10,
             {"string[2, 4]"}, {}, "error: input 0 'x' dim 0 of [1, C]"},
        Case{"normalizer_rank_3", Node("StringNormalizer", {"x"}, {"y"}), 10,
             {"string[1, 2, 4]"}, {}, "error: input 0 'x': expected [C] or [1, C], got rank 3"},
        Case{"string_split", Node("StringSplit", {"x"}, {"y", "n"}, StrAttr("delimiter", ",")),
             20, {"string[N, 2]"}, {}, "string[N, 2, ?]; int64[N, 2]"},
        Case{"string_split_negative_maxsplit",
             Node("StringSplit", {"x"}, {"y", "n"}, IntAttr("maxsplit", -1)), 20, {"string[2]"},
             {}, "error: attribute 'maxsplit': expected >= 0, got -1"},
        Case{"tfidf_1d",
             Node("TfIdfVectorizer", {"x"}, {"y"},
                  StrAttr("mode", "TF") + IntAttr("min_gram_length", 2) +
                      IntAttr("max_gram_length", 2) + IntAttr("max_skip_count", 0) +
                      IntsAttr("ngram_counts", {0, 4}) + IntsAttr("ngram_indexes", {0, 1, 2, 3, 4, 5, 6}) +
                      IntsAttr("pool_int64s", {2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 9, 1, 2, 3})),
             9, {"int32[12]"}, {}, "float[7]"},
        Case{"tfidf_2d",
             Node("TfIdfVectorizer", {"x"}, {"y"},
                  StrAttr("mode", "TF") + IntAttr("min_gram_length", 1) +
                      IntAttr("max_gram_length", 1) + IntAttr("max_skip_count", 0) +
                      IntsAttr("ngram_counts", {0}) + IntsAttr("ngram_indexes", {2, 0, 1})),
             9, {"string[N, C]"}, {}, "float[N, 3]"},
        Case{"tfidf_rank_3",
             Node("TfIdfVectorizer", {"x"}, {"y"},
                  StrAttr("mode", "TF") + IntAttr("min_gram_length", 1) +
                      IntAttr("max_gram_length", 1) + IntAttr("max_skip_count", 0) +
                      IntsAttr("ngram_counts", {0}) + IntsAttr("ngram_indexes", {0})),
             9, {"int64[2, 3, 4]"}, {}, "error: input 0 'x': expected [C] or [N, C], got rank 3"},
        Case{"tfidf_negative_index",
             Node("TfIdfVectorizer", {"x"}, {"y"},
                  StrAttr("mode", "TF") + IntAttr("min_gram_length", 1) +
                      IntAttr("max_gram_length", 1) + IntAttr("max_skip_count", 0) +
                      IntsAttr("ngram_counts", {0}) + IntsAttr("ngram_indexes", {0, -1})),
             9, {"int64[4]"}, {},
             "error: attribute 'ngram_indexes': expected indexes >= 0, got -1"}));

INSTANTIATE_TEST_SUITE_P(
    ImagesAndBoxes, QuantMiscRuleTest,
    ::testing::Values(
        Case{"image_decoder_rank_3", Node("ImageDecoder", {"s"}, {"y"}), 20, {"uint8[N]"}, {},
             "uint8[?, ?, ?]"},
        Case{"image_decoder_grayscale",
             Node("ImageDecoder", {"s"}, {"y"}, StrAttr("pixel_format", "Grayscale")), 20,
             {"uint8"}, {}, "uint8[?, ?, ?]"},
        Case{"image_decoder_bad_format",
             Node("ImageDecoder", {"s"}, {"y"}, StrAttr("pixel_format", "RGBA")), 20,
             {"uint8[N]"}, {},
             "error: attribute 'pixel_format': expected RGB, BGR or Grayscale, got 'RGBA'"},
        Case{"image_decoder_stream_rank_2", Node("ImageDecoder", {"s"}, {"y"}), 20,
             {"uint8[2, 3]"}, {}, "error: input 0 's': expected rank 1 (a byte stream)"},
        Case{"nms_10", Node("NonMaxSuppression", {"b", "s", "m"}, {"y"}), 10,
             {"float[B, S, 4]", "float[B, C, S]", "int64[1]"}, {}, "int64[?, 3]"},
        Case{"nms_11_no_max_output_selects_nothing", Node("NonMaxSuppression", {"b", "s"}, {"y"}),
             11, {"float[1, 6, 4]", "float[1, 1, 6]"}, {}, "int64[0, 3]"},
        Case{"nms_11_max_output_zero", Node("NonMaxSuppression", {"b", "s", "m"}, {"y"}), 11,
             {"float[1, 6, 4]", "float[1, 1, 6]", "int64[1]"}, {Int64s({}), Int64s({}), Int64s({0})},
             "int64[0, 3]"},
        Case{"nms_11_max_output_negative_not_read",
             Node("NonMaxSuppression", {"b", "s", "m"}, {"y"}), 11,
             {"float[1, 6, 4]", "float[1, 1, 6]", "int64[1]"}, {Int64s({}), Int64s({}), Int64s({-1})},
             "int64[?, 3]"},
        Case{"nms_11_max_output_known", Node("NonMaxSuppression", {"b", "s", "m"}, {"y"}), 11,
             {"float[1, 6, 4]", "float[1, 1, 6]", "int64[1]"}, {Int64s({}), Int64s({}), Int64s({3})},
             "int64[?, 3]"},
        Case{"nms_box_coordinates", Node("NonMaxSuppression", {"b", "s"}, {"y"}), 11,
             {"float[1, 6, 5]", "float[1, 1, 6]"}, {},
             "error: input 0 'b' dim 2 (box coordinates)"},
        Case{"nms_spatial_dims_differ", Node("NonMaxSuppression", {"b", "s"}, {"y"}), 11,
             {"float[1, 6, 4]", "float[1, 1, 5]"}, {},
             "error: input 1 's' dim 2 and input 0 'b' dim 1 (spatial_dimension)"},
        Case{"nms_batches_differ", Node("NonMaxSuppression", {"b", "s"}, {"y"}), 11,
             {"float[2, 6, 4]", "float[1, 1, 6]"}, {},
             "error: input 1 's' dim 0 and input 0 'b' dim 0 (num_batches)"},
        Case{"nms_scores_rank", Node("NonMaxSuppression", {"b", "s"}, {"y"}), 11,
             {"float[1, 6, 4]", "float[1, 6]"}, {},
             "error: input 1 's': expected rank 3 ([num_batches, num_classes, "
             "spatial_dimension]), got rank 2"}));

}  // namespace
}  // namespace onnx_infer
