// Table tests of onnxruntime-training's operators (schema/defs/com_microsoft/training.cc): the
// ATen fallback's embedding and embedding_backward, ConcatTraining, SplitTraining, YieldOp and
// the gradients SimplifiedLayerNormalizationGrad, QuickGeluGrad and SoftmaxGrad_13.
#include <gtest/gtest.h>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::IntAttr;
using testing::IntsAttr;
using testing::RunMatches;
using testing::RunRule;
using testing::Scalar;
using testing::T;

using Case = testing::RuleCase;

using ComMicrosoftTrainingRuleTest = testing::RuleTableTest;

TEST_P(ComMicrosoftTrainingRuleTest, Infers) {
  EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam()));
}

std::string Ms(const char* op, const std::vector<const char*>& inputs,
               const std::vector<const char*>& outputs, const std::string& attrs = "") {
  return testing::Node(op, inputs, outputs, attrs, "com.microsoft");
}
std::string Aten(const char* op, const std::vector<const char*>& inputs) {
  return testing::Node("ATen", inputs, {"y"},
                       StrCat(R"( attribute { name: "operator" type: STRING s: ")", op, R"(" })"),
                       "org.pytorch.aten");
}

INSTANTIATE_TEST_SUITE_P(
    ATen, ComMicrosoftTrainingRuleTest,
    ::testing::Values(Case{"embedding_appends_weight_dim_1",
                           Aten("embedding", {"w", "ids", "pad"}),
                           1,
                           {"float[32000, 4096]", "int64[B, S]", "int64[]"},
                           {},
                           "float[B, S, 4096]",
                           ""},
                      Case{"embedding_weight_must_be_a_matrix",
                           Aten("embedding", {"w", "ids"}),
                           1,
                           {"float[32000]", "int64[B, S]"},
                           {},
                           "error: expected rank 2",
                           ""},
                      Case{"embedding_backward_num_weights_from_value",
                           Aten("embedding_backward", {"dy", "ids", "n", "pad", "freq"}),
                           1,
                           {"float16[B, S, 4096]", "int64[B, S]", "int64[]", "int64[]", "bool[]"},
                           {std::nullopt, std::nullopt, Scalar(32000)},
                           "float16[32000, 4096]",
                           ""},
                      Case{"embedding_backward_unknown_num_weights",
                           Aten("embedding_backward", {"dy", "ids", "n"}),
                           1,
                           {"float[B, S, 64]", "int64[B, S]", "int64[]"},
                           {},
                           "float[?, 64]",
                           ""},
                      Case{"other_operators_stay_unknown",
                           Aten("softmax", {"x"}),
                           1,
                           {"float[B, S]"},
                           {},
                           "?",
                           ""}));

INSTANTIATE_TEST_SUITE_P(
    ConcatSplit, ComMicrosoftTrainingRuleTest,
    ::testing::Values(Case{"concat_sums_axis_and_counts_inputs",
                           Ms("ConcatTraining", {"a", "b", "c"}, {"y", "len"}, IntAttr("axis", -1)),
                           1,
                           {"float[B, 3]", "float[B, N]", "float[?, 2]"},
                           {},
                           "float[B, N + 5]; int64[3]",
                           ""},
                      Case{"concat_joins_shape_values",
                           Ms("ConcatTraining", {"a", "b"}, {"y"}, IntAttr("axis", 0)),
                           1,
                           {"int64[1]", "int64[2]"},
                           {Int64s({1}), Int64s({7, 8})},
                           "int64[3]",
                           "[1, 7, 8]"},
                      Case{"concat_rank_mismatch_is_an_error",
                           Ms("ConcatTraining", {"a", "b"}, {"y"}, IntAttr("axis", 0)),
                           1,
                           {"float[2, 3]", "float[2]"},
                           {},
                           "error: rank",
                           ""},
                      Case{"split_by_input_sizes",
                           Ms("SplitTraining", {"x", "s"}, {"a", "b"}, IntAttr("axis", 1)),
                           1,
                           {"float[B, 10]", "int64[2]"},
                           {std::nullopt, Int64s({4, 6})},
                           "float[B, 4]; float[B, 6]",
                           ""},
                      Case{"split_sizes_unknown_keep_other_dims",
                           Ms("SplitTraining", {"x", "s"}, {"a", "b"}),
                           1,
                           {"float[B, 10]", "int64[2]"},
                           {},
                           "float[?, 10]; float[?, 10]",
                           ""},
                      Case{"split_sizes_must_add_up",
                           Ms("SplitTraining", {"x", "s"}, {"a", "b"}, IntAttr("axis", 1)),
                           1,
                           {"float[B, 10]", "int64[2]"},
                           {std::nullopt, Int64s({4, 5})},
                           "error: adding up",
                           ""}));

INSTANTIATE_TEST_SUITE_P(
    YieldAndGradients, ComMicrosoftTrainingRuleTest,
    ::testing::Values(
        Case{"yield_full_shape_only_where_listed",
             Ms("YieldOp", {"loss", "ids", "h"}, {"dloss", "dh"},
                IntsAttr("full_shape_outputs", {2}) + IntsAttr("non_differentiable_outputs", {1})),
             1,
             {"float[]", "int64[B]", "float16[B, 8]"},
             {},
             "float; float16[B, 8]",
             ""},
        Case{"yield_counts_outputs_and_skipped_inputs",
             Ms("YieldOp", {"a", "b"}, {"da"}, IntsAttr("full_shape_outputs", {0})),
             1,
             {"float[2]", "float[3]"},
             {},
             "error: expected 1 inputs",
             ""},
        Case{"simplified_layer_norm_grad_like_x_and_scale",
             Ms("SimplifiedLayerNormalizationGrad", {"dy", "x", "scale", "isv"}, {"dx", "dscale"}),
             1,
             {"float16[B, S, 64]", "float16[B, S, 64]", "float16[64]", "float[B, S, 1]"},
             {},
             "float16[B, S, 64]; float16[64]",
             ""},
        Case{"quick_gelu_grad_like_dy",
             Ms("QuickGeluGrad", {"dy", "x"}, {"dx"}),
             1,
             {"float[B, 11008]", "float[B, 11008]"},
             {},
             "float[B, 11008]",
             ""},
        Case{"softmax_grad_13_like_dy",
             Ms("SoftmaxGrad_13", {"dy", "y"}, {"dx"}, IntAttr("axis", -1)),
             1,
             {"float[B, 32, S, S]", "float[B, 32, S, S]"},
             {},
             "float[B, 32, S, S]",
             ""}));

}  // namespace
}  // namespace onnx_infer
