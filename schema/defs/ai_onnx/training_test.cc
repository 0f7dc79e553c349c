// Table tests of the training rules: Adagrad, Adam, Momentum, Gradient (training.cc).
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Node;
using testing::StrAttr;
using testing::StrsAttr;

using Case = testing::RuleCase;

using TrainingRuleTest = testing::RuleTableTest;

TEST_P(TrainingRuleTest, Infers) {
  EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam()));
}

constexpr const char* kTraining = "ai.onnx.preview.training";

INSTANTIATE_TEST_SUITE_P(
    Training, TrainingRuleTest,
    ::testing::Values(
        Case{"adagrad_one_tensor",
             Node("Adagrad", {"R", "T", "X", "G", "H"}, {"X_new", "H_new"}, "", kTraining),
             1,
             {"float[]", "int64[]", "float[N, 3]", "float[N, 3]", "float[N, 3]"},
             {},
             "float[N, 3]; float[N, 3]"},
        Case{"adagrad_two_tensors",
             Node("Adagrad", {"R", "T", "X1", "X2", "G1", "G2", "H1", "H2"},
                  {"X1_new", "X2_new", "H1_new", "H2_new"}, "", kTraining),
             1,
             {"float[]", "int64[]", "float[2]", "double[3, 4]", "float[2]", "double[3, 4]",
              "float[2]", "double[3, 4]"},
             {},
             "float[2]; double[3, 4]; float[2]; double[3, 4]"},
        Case{"adagrad_inputs_not_in_groups",
             Node("Adagrad", {"R", "T", "X", "G"}, {"X_new"}, "", kTraining),
             1,
             {"float[]", "int64[]", "float[2]", "float[2]"},
             {},
             "error: expected 2 + 3n inputs (R, T, then X, G and H for each of n tensors), got 4"},
        Case{"adagrad_too_many_outputs",
             Node("Adagrad", {"R", "T", "X", "G", "H"}, {"a", "b", "c"}, "", kTraining),
             1,
             {"float[]", "int64[]", "float[2]", "float[2]", "float[2]"},
             {},
             "error: expected at most 2 outputs for 1 optimized tensors, got 3"},
        Case{"momentum_one_tensor",
             Node("Momentum", {"R", "T", "X", "G", "V"}, {"X_new", "V_new"},
                  StrAttr("mode", "standard"), kTraining),
             1,
             {"float[]", "int64[]", "double[N]", "double[N]", "double[N]"},
             {},
             "double[N]; double[N]"},
        Case{"momentum_two_tensors",
             Node("Momentum", {"R", "T", "X1", "X2", "G1", "G2", "V1", "V2"},
                  {"X1_new", "X2_new", "V1_new", "V2_new"}, StrAttr("mode", "nesterov"), kTraining),
             1,
             {"float[]", "int64[]", "float[1]", "float[2, 2]", "float[1]", "float[2, 2]",
              "float[1]", "float[2, 2]"},
             {},
             "float[1]; float[2, 2]; float[1]; float[2, 2]"},
        Case{"adam_one_tensor",
             Node("Adam", {"R", "T", "X", "G", "V", "H"}, {"X_new", "V_new", "H_new"}, "",
                  kTraining),
             1,
             {"float[]", "int64[]", "float[3, M]", "float[3, M]", "float[3, M]", "float[3, M]"},
             {},
             "float[3, M]; float[3, M]; float[3, M]"},
        Case{"adam_two_tensors_outputs_by_group",
             Node("Adam", {"R", "T", "X1", "X2", "G1", "G2", "V1", "V2", "H1", "H2"},
                  {"X1_new", "X2_new", "V1_new", "V2_new", "H1_new", "H2_new"}, "", kTraining),
             1,
             {"float[]", "int64[]", "float[1]", "float[2]", "float[1]", "float[2]", "float[1]",
              "float[2]", "float[1]", "float[2]"},
             {},
             "float[1]; float[2]; float[1]; float[2]; float[1]; float[2]"},
        Case{"adam_inputs_not_in_groups",
             Node("Adam", {"R", "T", "X", "G", "V"}, {"X_new"}, "", kTraining),
             1,
             {"float[]", "int64[]", "float[1]", "float[1]", "float[1]"},
             {},
             "error: expected 2 + 4n inputs"},
        Case{
            "gradient_typed_like_xs",
            Node("Gradient", {"a", "b", "c"}, {"da", "db"},
                 StrsAttr("xs", {"a", "b"}) + StrsAttr("zs", {"c"}) + StrAttr("y", "y"), kTraining),
            1,
            {"float[N, 2]", "float[2]", "int64[3]"},
            {},
            "float[N, 2]; float[2]"},
        Case{"gradient_unknown_input_unknown_output",
             Node("Gradient", {"a", "b"}, {"da", "db"},
                  StrsAttr("xs", {"a", "b"}) + StrAttr("y", "y"), kTraining),
             1,
             {"?", "double[2]"},
             {},
             "?; double[2]"},
        Case{"gradient_input_count",
             Node("Gradient", {"a"}, {"da"}, StrsAttr("xs", {"a", "b"}) + StrAttr("y", "y"),
                  kTraining),
             1,
             {"float[2]"},
             {},
             "error: expected 2 inputs (one per name in 'xs' and 'zs'), got 1"},
        Case{"gradient_too_many_outputs",
             Node("Gradient", {"a", "c"}, {"da", "dc"},
                  StrsAttr("xs", {"a"}) + StrsAttr("zs", {"c"}) + StrAttr("y", "y"), kTraining),
             1,
             {"float[2]", "float[2]"},
             {},
             "error: expected at most 1 outputs (one per name in 'xs'), got 2"},
        Case{"gradient_xs_required",
             Node("Gradient", {"a"}, {"da"}, StrAttr("y", "y"), kTraining),
             1,
             {"float[2]"},
             {},
             "error: attribute 'xs'"},
        Case{"gradient_xs_of_another_type",
             Node("Gradient", {"a"}, {"da"}, StrAttr("xs", "a") + StrAttr("y", "y"), kTraining),
             1,
             {"float[2]"},
             {},
             "error: attribute 'xs'"}));

}  // namespace
}  // namespace onnx_infer
