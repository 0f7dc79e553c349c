// Table tests of EPContext and Snpe (execution_provider.cc).
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/defs/com_microsoft/table_test_rows.h"

namespace onnx_infer::com_microsoft_test {
namespace {

using ComMicrosoftExecutionProviderRuleTest = testing::RuleTableTest;

TEST_P(ComMicrosoftExecutionProviderRuleTest, Infers) {
  EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Tensor, ComMicrosoftExecutionProviderRuleTest,
                         ::testing::Values(Case{"ep_context_outputs_are_the_payloads",
                                                Ms("EPContext", {"a", "b"}, {"y", "z"}),
                                                1,
                                                {"float[N, 3]", "int64[2]"},
                                                {},
                                                "?; ?",
                                                ""},
                                           Case{
                                               "snpe_outputs_share_the_type",
                                               Ms("Snpe", {"x"}, {"y", "z"}, StrAttr("DLC", "dlc")),
                                               1,
                                               {"uint8[1, 3, 224, 224]"},
                                               {},
                                               "uint8; uint8",
                                               ""}));

}  // namespace
}  // namespace onnx_infer::com_microsoft_test
