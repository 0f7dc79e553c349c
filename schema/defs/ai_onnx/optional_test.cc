// Table tests of the optional rules (optional.cc).
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Node;

using Case = testing::RuleCase;

using OptionalRuleTest = testing::RuleTableTest;

TEST_P(OptionalRuleTest, Infers) {
  EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam()));
}

// A `type` attribute holding a float tensor of the given dims.
std::string FloatTypeAttr(std::vector<int64_t> dims) {
  std::string s =
      R"( attribute { name: "type" type: TYPE_PROTO tp { tensor_type { elem_type: 1 shape {)";
  for (int64_t d : dims) s += " dim { dim_value: " + std::to_string(d) + " }";
  return s + " } } } }";
}

INSTANTIATE_TEST_SUITE_P(
    Optionals, OptionalRuleTest,
    ::testing::Values(
        Case{"optional_of_input",
             Node("Optional", {"x"}, {"o"}),
             15,
             {"float[N, 2]"},
             {},
             "optional(float[N, 2])"},
        Case{"optional_of_sequence",
             Node("Optional", {"x"}, {"o"}),
             15,
             {"seq(int64[3])"},
             {},
             "optional(seq(int64[3]))"},
        Case{"optional_empty_from_type_attribute",
             Node("Optional", {}, {"o"}, FloatTypeAttr({2, 3})),
             15,
             {},
             {},
             "optional(float[2, 3])"},
        Case{"optional_input_and_type_merge",
             Node("Optional", {"x"}, {"o"}, FloatTypeAttr({2, 3})),
             15,
             {"float[N, 3]"},
             {},
             "optional(float[2, 3])"},
        Case{"optional_input_contradicts_type",
             Node("Optional", {"x"}, {"o"}, FloatTypeAttr({2, 3})),
             15,
             {"float[2, 4]"},
             {},
             "error: input 0 'x': expected the type of attribute 'type'"},
        Case{"optional_neither_input_nor_type",
             Node("Optional", {}, {"o"}),
             15,
             {},
             {},
             "error: attribute 'type': required when input 0 is omitted"},
        Case{"get_element_15",
             Node("OptionalGetElement", {"o"}, {"x"}),
             15,
             {"optional(float[4])"},
             {},
             "float[4]"},
        Case{"get_element_15_of_optional_sequence",
             Node("OptionalGetElement", {"o"}, {"x"}),
             15,
             {"optional(seq(int32[4]))"},
             {},
             "seq(int32[4])"},
        Case{"get_element_15_tensor_input",
             Node("OptionalGetElement", {"o"}, {"x"}),
             15,
             {"float[4]"},
             {},
             "error: input 0 'o': expected an optional, got a tensor"},
        Case{"get_element_18_tensor_input",
             Node("OptionalGetElement", {"o"}, {"x"}),
             18,
             {"float[N]"},
             {},
             "float[N]"},
        Case{"get_element_18_sequence_input",
             Node("OptionalGetElement", {"o"}, {"x"}),
             18,
             {"seq(float[N])"},
             {},
             "seq(float[N])"},
        Case{"get_element_18_optional",
             Node("OptionalGetElement", {"o"}, {"x"}),
             18,
             {"optional(float[N])"},
             {},
             "float[N]"},
        Case{"has_element_15",
             Node("OptionalHasElement", {"o"}, {"b"}),
             15,
             {"optional(float[4])"},
             {},
             "bool[]"},
        Case{"has_element_15_tensor_input",
             Node("OptionalHasElement", {"o"}, {"b"}),
             15,
             {"float[4]"},
             {},
             "error: input 0 'o': expected an optional"},
        Case{"has_element_18_tensor_input",
             Node("OptionalHasElement", {"o"}, {"b"}),
             18,
             {"float[4]"},
             {},
             "bool[]"},
        Case{
            "has_element_18_no_input", Node("OptionalHasElement", {}, {"b"}), 18, {}, {}, "bool[]"},
        Case{"has_element_18_sequence_input",
             Node("OptionalHasElement", {"o"}, {"b"}),
             18,
             {"seq(float)"},
             {},
             "bool[]"}));

}  // namespace
}  // namespace onnx_infer
