// Table tests of the Dropout rule (nn/dropout.cc): its outputs and mask across versions.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Node;

using Case = testing::RuleCase;
using DropoutRuleTest = testing::RuleTableTest;

TEST_P(DropoutRuleTest, Infers) { EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam())); }

INSTANTIATE_TEST_SUITE_P(
    Dropout, DropoutRuleTest,
    ::testing::Values(Case{"dropout_1_mask_input_type",
                           Node("Dropout", {"x"}, {"y", "mask"}),
                           1,
                           {"float[N, 4]"},
                           {},
                           "float[N, 4]; float[N, 4]"},
                      Case{"dropout_7_mask_input_type",
                           Node("Dropout", {"x"}, {"y", "mask"}),
                           7,
                           {"double[N, 4]"},
                           {},
                           "double[N, 4]; double[N, 4]"},
                      Case{"dropout_10_mask_bool",
                           Node("Dropout", {"x"}, {"y", "mask"}),
                           10,
                           {"float[N, 4]"},
                           {},
                           "float[N, 4]; bool[N, 4]"},
                      Case{"dropout_12_inputs",
                           Node("Dropout", {"x", "r", "t"}, {"y", "mask"}),
                           12,
                           {"float[N, 4]", "float[]", "bool[]"},
                           {},
                           "float[N, 4]; bool[N, 4]"},
                      Case{"dropout_22_no_mask",
                           Node("Dropout", {"x", "r"}, {"y"}),
                           22,
                           {"bfloat16[2, 3]", "float[]"},
                           {},
                           "bfloat16[2, 3]"},
                      Case{"dropout_13_ratio_not_scalar",
                           Node("Dropout", {"x", "r"}, {"y"}),
                           13,
                           {"float[2, 3]", "float[1]"},
                           {},
                           "error: input 1 'r': expected a scalar, got rank 1"}));

}  // namespace
}  // namespace onnx_infer
