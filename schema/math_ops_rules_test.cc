// Table tests of the non-elementwise math rules (schema/defs/ai_onnx/math_ops.cc).
#include <gtest/gtest.h>

#include "schema/builtin.h"
#include "schema/data_type.h"
#include "schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::RunRule;
using testing::T;

struct Case {
  const char* name;
  std::string node;  // NodeProto text
  int64_t opset;
  std::vector<const char*> inputs;  // types, "" for an absent input
  std::vector<std::optional<ConstValue>> values;
  std::string expected;  // RuleRun::Summary()
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

class MathOpsRuleTest : public ::testing::TestWithParam<Case> {};

TEST_P(MathOpsRuleTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, c.opset, inputs, c.values);
  if (c.expected.rfind("error: ", 0) == 0) {
    ASSERT_FALSE(run.status.ok()) << run.Summary();
    EXPECT_NE(run.status.message().find(c.expected.substr(7)), std::string::npos)
        << run.status.message();
  } else {
    EXPECT_EQ(run.Summary(), c.expected);
  }
}

// A scalar int64 value, possibly symbolic.
ConstValue Scalar(Dim d) {
  ConstValue v;
  v.elem_type = kInt64;
  v.ints = {d};
  return v;
}
ConstValue Scalar(int64_t i) { return Scalar(Dim::Const(i)); }

std::string Node(const char* op, std::vector<const char*> inputs, std::vector<const char*> outputs,
                 const std::string& attrs = "") {
  std::string s = std::string(R"(op_type: ")") + op + R"(")";
  for (const char* i : inputs) s += std::string(R"( input: ")") + i + R"(")";
  for (const char* o : outputs) s += std::string(R"( output: ")") + o + R"(")";
  return s + attrs;
}

std::string IntAttr(const char* name, int64_t i) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: INT i: )" + std::to_string(i) +
         " }";
}

std::string StrAttr(const char* name, const char* s) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: STRING s: ")" + s + R"(" })";
}

INSTANTIATE_TEST_SUITE_P(
    SoftmaxFamily, MathOpsRuleTest,
    ::testing::Values(Case{"softmax_13_keeps_type",
                           Node("Softmax", {"x"}, {"y"}),
                           13,
                           {"float[N, 3, 4]"},
                           {},
                           "float[N, 3, 4]"},
                      Case{"logsoftmax_11_coerced_shape_unchanged",
                           Node("LogSoftmax", {"x"}, {"y"}),
                           11,
                           {"float[N, 3, 4]"},
                           {},
                           "float[N, 3, 4]"},
                      Case{"hardmax_1_axis_equal_rank_allowed",
                           Node("Hardmax", {"x"}, {"y"}),
                           1,
                           {"float[5]"},
                           {},
                           "float[5]"},
                      Case{"softmax_11_axis_out_of_range",
                           Node("Softmax", {"x"}, {"y"}, IntAttr("axis", 2)),
                           11,
                           {"float[2, 3]"},
                           {},
                           "error: attribute 'axis': expected an axis in [-2, 1]"},
                      Case{"softmax_13_default_axis_scalar_invalid",
                           Node("Softmax", {"x"}, {"y"}),
                           13,
                           {"float[]"},
                           {},
                           "error: attribute 'axis'"}));

INSTANTIATE_TEST_SUITE_P(
    Gemm, MathOpsRuleTest,
    ::testing::Values(Case{"gemm_plain",
                           Node("Gemm", {"a", "b", "c"}, {"y"}),
                           13,
                           {"float[M, K]", "float[K, N]", "float[N]"},
                           {},
                           "float[M, N]"},
                      Case{"gemm_transposed",
                           Node("Gemm", {"a", "b", "c"}, {"y"},
                                IntAttr("transA", 1) + IntAttr("transB", 1)),
                           11,
                           {"float[K, M]", "float[N, K]", "float[1, 1]"},
                           {},
                           "float[M, N]"},
                      Case{"gemm_c_fixes_output_dim",
                           Node("Gemm", {"a", "b", "c"}, {"y"}),
                           9,
                           {"float[M, 4]", "float[4, ?]", "float[1, 7]"},
                           {},
                           "float[M, 7]"},
                      Case{"gemm_11_c_omitted",
                           Node("Gemm", {"a", "b", ""}, {"y"}),
                           11,
                           {"float[2, 4]", "float[4, 3]", ""},
                           {},
                           "float[2, 3]"},
                      Case{"gemm_contracted_mismatch",
                           Node("Gemm", {"a", "b", "c"}, {"y"}),
                           13,
                           {"float[2, 4]", "float[5, 3]", "float[3]"},
                           {},
                           "error: contracted dims differ"},
                      Case{"gemm_c_does_not_broadcast",
                           Node("Gemm", {"a", "b", "c"}, {"y"}),
                           7,
                           {"float[2, 4]", "float[4, 3]", "float[5]"},
                           {},
                           "error: input 2 'c': [5] does not broadcast to [2, 3]"},
                      Case{"gemm_rank_3",
                           Node("Gemm", {"a", "b", "c"}, {"y"}),
                           13,
                           {"float[1, 2, 4]", "float[4, 3]", "float[3]"},
                           {},
                           "error: input 0 'a': expected rank 2, got rank 3"},
                      Case{"gemm_6_broadcast_attr",
                           Node("Gemm", {"a", "b", "c"}, {"y"}, IntAttr("broadcast", 1)),
                           6,
                           {"float[2, 4]", "float[4, 3]", "float[3]"},
                           {},
                           "float[2, 3]"},
                      Case{"gemm_6_no_broadcast_needs_mn",
                           Node("Gemm", {"a", "b", "c"}, {"y"}),
                           6,
                           {"float[2, 4]", "float[4, 3]", "float[3]"},
                           {},
                           "error: expected rank 2"},
                      Case{"gemm_1_c_unifies_without_broadcast",
                           Node("Gemm", {"a", "b", "c"}, {"y"}),
                           1,
                           {"float[?, 4]", "float[4, 3]", "float[2, 3]"},
                           {},
                           "float[2, 3]"}));

// Dims a rule unifies are recorded as facts (as under the driver), so the next node sees them.
TEST(MathOpsFactsTest, ContractedDimsAreRecorded) {
  symbolic::Unifier u;
  auto gemm = RunRule(BuiltinSchemas(), Node("Gemm", {"a", "b", "c"}, {"y"}), 13,
                      {T("float[M, K]"), T("float[64, N]"), T("float[1, 10]")}, {}, &u);
  EXPECT_EQ(gemm.Summary(), "float[M, 10]");
  EXPECT_EQ(gemm.facts,
            (std::vector<std::string>{
                "K == 64 (node of output 'y' (Gemm): contracted dims)",
                "N == 10 (node of output 'y' (Gemm): input 2 'c' dim 1 and Y's dim 1)"}));

  symbolic::Unifier u2;
  auto mmi = RunRule(BuiltinSchemas(), Node("MatMulInteger", {"a", "b"}, {"y"}), 10,
                     {T("uint8[B, M, K]"), T("int8[16, 3]")}, {}, &u2);
  EXPECT_EQ(mmi.Summary(), "int32[B, M, 3]");
  EXPECT_EQ(
      mmi.facts,
      (std::vector<std::string>{"K == 16 (node of output 'y' (MatMulInteger): contracted dims)"}));

  symbolic::Unifier u3;
  auto einsum =
      RunRule(BuiltinSchemas(), Node("Einsum", {"a", "b"}, {"y"}, StrAttr("equation", "ij,jk->ik")),
              12, {T("float[M, J]"), T("float[8, N]")}, {}, &u3);
  EXPECT_EQ(einsum.Summary(), "float[M, N]");
  EXPECT_EQ(einsum.facts,
            (std::vector<std::string>{"J == 8 (node of output 'y' (Einsum): label 'j')"}));
}

INSTANTIATE_TEST_SUITE_P(
    QuantizedMatMul, MathOpsRuleTest,
    ::testing::Values(
        Case{"matmulinteger_int32",
             Node("MatMulInteger", {"a", "b"}, {"y"}),
             10,
             {"uint8[B, M, K]", "int8[K, 3]"},
             {},
             "int32[B, M, 3]"},
        Case{"matmulinteger_zero_points",
             Node("MatMulInteger", {"a", "b", "az", "bz"}, {"y"}),
             10,
             {"uint8[4]", "uint8[4, N]", "uint8[]", "uint8[]"},
             {},
             "int32[N]"},
        Case{"matmulinteger_mismatch",
             Node("MatMulInteger", {"a", "b"}, {"y"}),
             10,
             {"uint8[2, 4]", "uint8[5, 3]"},
             {},
             "error: contracted dims differ"},
        Case{"qlinearmatmul_zero_point_type",
             Node("QLinearMatMul", {"a", "as", "az", "b", "bs", "bz", "ys", "yz"}, {"y"}),
             21,
             {"int8[2, 4]", "float[]", "int8[]", "int8[4, 3]", "float[]", "int8[]", "float[]",
              "uint8[]"},
             {},
             "uint8[2, 3]"},
        Case{"qlinearmatmul_10_batched",
             Node("QLinearMatMul", {"a", "as", "az", "b", "bs", "bz", "ys", "yz"}, {"y"}),
             10,
             {"uint8[B, 2, 4]", "float[]", "uint8[]", "uint8[4, 3]", "float[]", "uint8[]",
              "float[]", "uint8[]"},
             {},
             "uint8[B, 2, 3]"}));

#define EINSUM(eq) R"( attribute { name: "equation" type: STRING s: ")" eq R"(" })"

INSTANTIATE_TEST_SUITE_P(
    Einsum, MathOpsRuleTest,
    ::testing::Values(Case{"einsum_matmul",
                           Node("Einsum", {"a", "b"}, {"y"}, EINSUM("ij,jk->ik")),
                           12,
                           {"float[M, K]", "float[K, 5]"},
                           {},
                           "float[M, 5]"},
                      Case{"einsum_label_unifies_across_inputs",
                           Node("Einsum", {"a", "b"}, {"y"}, EINSUM("ij,jk->ik")),
                           12,
                           {"float[M, ?]", "float[8, N]"},
                           {},
                           "float[M, N]"},
                      Case{"einsum_implicit_sorted",
                           Node("Einsum", {"a", "b"}, {"y"}, EINSUM("bj,ja")),
                           12,
                           {"float[2, 3]", "float[3, 4]"},
                           {},
                           "float[4, 2]"},
                      Case{"einsum_ellipsis_batch",
                           Node("Einsum", {"a", "b"}, {"y"}, EINSUM("...ij,...jk->...ik")),
                           12,
                           {"float[B, 1, 2, 3]", "float[4, 3, 5]"},
                           {},
                           "float[B, 4, 2, 5]"},
                      Case{"einsum_implicit_ellipsis_first",
                           Node("Einsum", {"a"}, {"y"}, EINSUM("i...j")),
                           12,
                           {"float[2, 3, 4, 5]"},
                           {},
                           "float[3, 4, 2, 5]"},
                      Case{"einsum_trace_diagonal_unifies",
                           Node("Einsum", {"a"}, {"y"}, EINSUM("ii->i")),
                           12,
                           {"float[N, ?]"},
                           {},
                           "float[N]"},
                      Case{"einsum_transpose_spaces",
                           Node("Einsum", {"a"}, {"y"}, EINSUM("ij -> ji")),
                           12,
                           {"float[2, N]"},
                           {},
                           "float[N, 2]"},
                      Case{"einsum_sum_all",
                           Node("Einsum", {"a"}, {"y"}, EINSUM("ij->")),
                           12,
                           {"float[2, 3]"},
                           {},
                           "float[]"},
                      Case{"einsum_unknown_input_explicit_rank",
                           Node("Einsum", {"a", "b"}, {"y"}, EINSUM("ij,jk->ik")),
                           12,
                           {"float[M, 4]", "float"},
                           {},
                           "float[M, ?]"},
                      Case{"einsum_rank_mismatch",
                           Node("Einsum", {"a"}, {"y"}, EINSUM("ij->i")),
                           12,
                           {"float[2, 3, 4]"},
                           {},
                           "error: input 0 'a': term 'ij' expects rank 2, got rank 3"},
                      Case{"einsum_label_mismatch",
                           Node("Einsum", {"a", "b"}, {"y"}, EINSUM("ij,jk->ik")),
                           12,
                           {"float[2, 3]", "float[4, 5]"},
                           {},
                           "error: label 'j': dims differ"},
                      Case{"einsum_input_count",
                           Node("Einsum", {"a"}, {"y"}, EINSUM("ij,jk->ik")),
                           12,
                           {"float[2, 3]"},
                           {},
                           "error: expected 2 inputs, got 1"},
                      Case{"einsum_unknown_output_label",
                           Node("Einsum", {"a"}, {"y"}, EINSUM("ij->k")),
                           12,
                           {"float[2, 3]"},
                           {},
                           "error: output label 'k' is on no input"}));

INSTANTIATE_TEST_SUITE_P(
    TopK, MathOpsRuleTest,
    ::testing::Values(Case{"topk_1_k_attribute",
                           Node("TopK", {"x"}, {"v", "i"}, IntAttr("k", 3)),
                           1,
                           {"float[N, 10]"},
                           {},
                           "float[N, 3]; int64[N, 3]"},
                      Case{"topk_10_k_input",
                           Node("TopK", {"x", "k"}, {"v", "i"}),
                           10,
                           {"float[N, 10]", "int64[1]"},
                           {std::nullopt, Int64s({4})},
                           "float[N, 4]; int64[N, 4]"},
                      Case{"topk_11_axis_0",
                           Node("TopK", {"x", "k"}, {"v", "i"}, IntAttr("axis", 0)),
                           11,
                           {"float[N, 10]", "int64[1]"},
                           {std::nullopt, Int64s({2})},
                           "float[2, 10]; int64[2, 10]"},
                      Case{"topk_k_symbol_flows",
                           Node("TopK", {"x", "k"}, {"v", "i"}),
                           24,
                           {"int32[5, L]", "int64[1]"},
                           {std::nullopt, Scalar(Dim::Symbol("K"))},
                           "int32[5, K]; int64[5, K]"},
                      Case{"topk_k_unknown",
                           Node("TopK", {"x", "k"}, {"v", "i"}),
                           11,
                           {"float[N, 10]", "int64[1]"},
                           {},
                           "float[N, ?]; int64[N, ?]"},
                      Case{"topk_k_too_large",
                           Node("TopK", {"x", "k"}, {"v", "i"}),
                           11,
                           {"float[N, 10]", "int64[1]"},
                           {std::nullopt, Int64s({11})},
                           "error: k: expected at most the axis dim 10, got 11"}));

INSTANTIATE_TEST_SUITE_P(
    CumulativeAndDet, MathOpsRuleTest,
    ::testing::Values(
        Case{"cumsum_same",
             Node("CumSum", {"x", "axis"}, {"y"}),
             14,
             {"float[N, 3]", "int64[]"},
             {},
             "float[N, 3]"},
        Case{"cumprod_same",
             Node("CumProd", {"x", "axis"}, {"y"}),
             26,
             {"int64[N, 3]", "int32[]"},
             {std::nullopt, Scalar(-1)},
             "int64[N, 3]"},
        Case{"cumsum_axis_out_of_range",
             Node("CumSum", {"x", "axis"}, {"y"}),
             11,
             {"float[N, 3]", "int64[]"},
             {std::nullopt, Scalar(2)},
             "error: axis: expected an axis in [-2, 1]"},
        Case{"det_batched", Node("Det", {"x"}, {"y"}), 11, {"float[B, M, M]"}, {}, "float[B]"},
        Case{"det_single", Node("Det", {"x"}, {"y"}), 22, {"float[3, ?]"}, {}, "float[]"},
        Case{"det_not_square",
             Node("Det", {"x"}, {"y"}),
             22,
             {"float[3, 4]"},
             {},
             "error: expected square matrices, got [3, 4]"},
        Case{"det_vector",
             Node("Det", {"x"}, {"y"}),
             22,
             {"float[3]"},
             {},
             "error: expected rank >= 2, got rank 1"}));

INSTANTIATE_TEST_SUITE_P(
    Spectral, MathOpsRuleTest,
    ::testing::Values(Case{"dft17_real_to_complex",
                           Node("DFT", {"x"}, {"y"}),
                           17,
                           {"float[B, N, 1]"},
                           {},
                           "float[B, N, 2]"},
                      Case{"dft17_rfft_axis_attr",
                           Node("DFT", {"x"}, {"y"}, IntAttr("onesided", 1)),
                           17,
                           {"float[1, 10, 3, 1]"},
                           {},
                           "float[1, 6, 3, 2]"},
                      Case{"dft17_dft_length",
                           Node("DFT", {"x", "n"}, {"y"}),
                           17,
                           {"float[B, 10, 2]", "int64[]"},
                           {std::nullopt, Scalar(16)},
                           "float[B, 16, 2]"},
                      Case{"dft20_default_axis_is_last_signal_axis",
                           Node("DFT", {"x"}, {"y"}, IntAttr("onesided", 1)),
                           20,
                           {"float[1, 7, 10, 1]"},
                           {},
                           "float[1, 7, 6, 2]"},
                      Case{"dft20_axis_input",
                           Node("DFT", {"x", "", "axis"}, {"y"}, IntAttr("onesided", 1)),
                           20,
                           {"float[1, 10, 10, 1]", "", "int64[]"},
                           {std::nullopt, std::nullopt, Scalar(1)},
                           "float[1, 6, 10, 2]"},
                      Case{"dft20_irfft_default_length",
                           Node("DFT", {"x", "", "axis"}, {"y"},
                                IntAttr("onesided", 1) + IntAttr("inverse", 1)),
                           20,
                           {"float[1, 6, 10, 2]", "", "int64[]"},
                           {std::nullopt, std::nullopt, Scalar(-3)},
                           "float[1, 10, 10, 1]"},
                      Case{"dft20_unknown_axis_full_transform_keeps_dims",
                           Node("DFT", {"x", "", "axis"}, {"y"}),
                           20,
                           {"float[B, N, 1]", "", "int64[]"},
                           {},
                           "float[B, N, 2]"},
                      Case{"dft20_unknown_axis_onesided",
                           Node("DFT", {"x", "", "axis"}, {"y"}, IntAttr("onesided", 1)),
                           20,
                           {"float[B, N, 1]", "", "int64[]"},
                           {},
                           "float[?, ?, 2]"},
                      Case{"dft_axis_is_last",
                           Node("DFT", {"x", "", "axis"}, {"y"}),
                           20,
                           {"float[B, N, 1]", "", "int64[]"},
                           {std::nullopt, std::nullopt, Scalar(-1)},
                           "error: axis: expected an axis in [-3, -2] or [0, 1]"},
                      Case{"dft_bad_last_dim",
                           Node("DFT", {"x"}, {"y"}),
                           17,
                           {"float[B, N, 3]"},
                           {},
                           "error: expected a last dim of 1 (real) or 2 (complex), got 3"},
                      Case{"stft_frames_and_bins",
                           Node("STFT", {"x", "step", "", "len"}, {"y"}),
                           17,
                           {"float[1, 128, 1]", "int64[]", "", "int64[]"},
                           {std::nullopt, Scalar(8), std::nullopt, Scalar(16)},
                           "float[1, 15, 9, 2]"},
                      Case{"stft_window_gives_length",
                           Node("STFT", {"x", "step", "w"}, {"y"}, IntAttr("onesided", 0)),
                           17,
                           {"float[B, 128, 2]", "int64[]", "float[16]"},
                           {std::nullopt, Scalar(8)},
                           "float[B, 15, 16, 2]"},
                      Case{"stft_step_unknown",
                           Node("STFT", {"x", "step", "w"}, {"y"}),
                           17,
                           {"float[B, 128, 1]", "int64[]", "float[16]"},
                           {},
                           "float[B, ?, 9, 2]"},
                      Case{"stft_window_and_length_differ",
                           Node("STFT", {"x", "step", "w", "len"}, {"y"}),
                           17,
                           {"float[1, 128, 1]", "int64[]", "float[16]", "int64[]"},
                           {std::nullopt, Scalar(8), std::nullopt, Scalar(32)},
                           "error: frame_length and the window's length differ"},
                      Case{"hann_window_size_value",
                           Node("HannWindow", {"size"}, {"y"}),
                           17,
                           {"int64[]"},
                           {Scalar(10)},
                           "float[10]"},
                      Case{"hamming_window_output_datatype",
                           Node("HammingWindow", {"size"}, {"y"}, IntAttr("output_datatype", 11)),
                           17,
                           {"int32[]"},
                           {Scalar(Dim::Symbol("W"))},
                           "double[W]"},
                      Case{"blackman_window_size_unknown",
                           Node("BlackmanWindow", {"size"}, {"y"}),
                           17,
                           {"int64[]"},
                           {},
                           "float[?]"},
                      Case{"mel_weight_matrix",
                           Node("MelWeightMatrix", {"m", "n", "sr", "lo", "hi"}, {"y"},
                                IntAttr("output_datatype", 10)),
                           17,
                           {"int64[]", "int64[]", "int64[]", "float[]", "float[]"},
                           {Scalar(8), Scalar(16), Scalar(8192)},
                           "float16[9, 8]"}));

INSTANTIATE_TEST_SUITE_P(
    Losses, MathOpsRuleTest,
    ::testing::Values(
        Case{"nll_mean_scalar",
             Node("NegativeLogLikelihoodLoss", {"x", "t"}, {"loss"}),
             13,
             {"float[N, C]", "int64[N]"},
             {},
             "float[]"},
        Case{"nll_none_per_element",
             Node("NegativeLogLikelihoodLoss", {"x", "t"}, {"loss"}, StrAttr("reduction", "none")),
             22,
             {"float[N, C, ?, 4]", "int64[?, D, 4]"},
             {},
             "float[N, D, 4]"},
        Case{"nll_sum_with_weight",
             Node("NegativeLogLikelihoodLoss", {"x", "t", "w"}, {"loss"},
                  StrAttr("reduction", "sum")),
             12,
             {"double[N, C]", "int64[N]", "double[C]"},
             {},
             "double[]"},
        Case{"nll_target_rank_mismatch",
             Node("NegativeLogLikelihoodLoss", {"x", "t"}, {"loss"}),
             13,
             {"float[N, C, 3]", "int64[N]"},
             {},
             "error: input 1 't': expected rank 2 for input [N, C, 3], got rank 1"},
        Case{"nll_target_dim_mismatch",
             Node("NegativeLogLikelihoodLoss", {"x", "t"}, {"loss"}, StrAttr("reduction", "none")),
             13,
             {"float[2, C, 3]", "int64[2, 4]"},
             {},
             "error: input 1 't': [2, 4] does not match"},
        Case{"sce_log_prob",
             Node("SoftmaxCrossEntropyLoss", {"x", "t"}, {"loss", "log_prob"}),
             13,
             {"float[N, C, D]", "int64[N, D]"},
             {},
             "float[]; float[N, C, D]"},
        Case{"sce_none",
             Node("SoftmaxCrossEntropyLoss", {"x", "t"}, {"loss"}, StrAttr("reduction", "none")),
             12,
             {"float[N, C, D]", "int64[N, D]"},
             {},
             "float[N, D]"},
        Case{"sce_scores_rank_1",
             Node("SoftmaxCrossEntropyLoss", {"x", "t"}, {"loss"}),
             13,
             {"float[C]", "int64[]"},
             {},
             "error: expected rank >= 2, got rank 1"}));

}  // namespace
}  // namespace onnx_infer
