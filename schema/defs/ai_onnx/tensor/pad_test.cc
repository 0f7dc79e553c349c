// Table tests of the Pad rule (tensor/pad.cc): pads as an attribute or an input, symbolic
// and negative pads, axes, modes across versions.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Dims;
using testing::Int64s;
using testing::IntsAttr;
using testing::StrAttr;

using Case = testing::RuleCase;
using PadRuleTest = testing::RuleTableTest;

TEST_P(PadRuleTest, Infers) { EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam())); }

// A node of `op` with the given inputs, output "y", then `attrs`.
std::string Node(const char* op, std::vector<const char*> inputs, const std::string& attrs = "") {
  std::string s = std::string(R"(op_type: ")") + op + R"(")";
  for (const char* i : inputs) s += std::string(R"( input: ")") + i + R"(")";
  return s + R"( output: "y")" + attrs;
}

INSTANTIATE_TEST_SUITE_P(
    Pad, PadRuleTest,
    ::testing::Values(
        Case{"pad1_paddings_attr",
             Node("Pad", {"x"}, IntsAttr("paddings", {0, 0, 1, 1, 0, 0, 2, 2})),
             1,
             {"float[1, 3, 4, 5]"},
             {},
             "float[1, 3, 7, 8]"},
        Case{"pad2_pads_attr_symbolic",
             Node("Pad", {"x"}, IntsAttr("pads", {0, 1, 0, 2})),
             2,
             {"float[N, H]"},
             {},
             "float[N, H + 3]"},
        // A dim at the int64 limit padded by one at the start and cropped by one at the end
        // stays exact: the pads are summed before they are added to the dim.
        Case{"pad2_total_padding_cancels_at_the_int64_limit",
             Node("Pad", {"x"}, IntsAttr("pads", {1, -1})),
             2,
             {"float[9223372036854775807]"},
             {},
             "float[9223372036854775807]"},
        Case{"pad2_pads_count",
             Node("Pad", {"x"}, IntsAttr("pads", {0, 1, 0})),
             2,
             {"float[N, H]"},
             {},
             "error: attribute 'pads': expected 4 values (twice the rank of data), got 3"},
        Case{"pad11_pads_input_negative_crops",
             Node("Pad", {"x", "pads"}),
             11,
             {"int32[1, 3, 4, 5]", "int64[8]"},
             {std::nullopt, Int64s({0, 0, -1, 1, 0, 0, -1, 2})},
             "int32[1, 3, 2, 8]"},
        Case{"pad11_cropped_below_zero",
             Node("Pad", {"x", "pads"}),
             11,
             {"float[1, 3, 4, 5]", "int64[8]"},
             {std::nullopt, Int64s({0, 0, -3, 0, 0, 0, -2, 0})},
             "error: input 1 'pads': dim 2 of data (4) is cropped by more than its size"},
        Case{"pad11_pads_unknown",
             Node("Pad", {"x", "pads", "v"}),
             11,
             {"float[N, 3, H, W]", "int64[8]", "float[]"},
             {},
             "float[?, ?, ?, ?]"},
        Case{"pad11_pads_wrong_length",
             Node("Pad", {"x", "pads"}),
             11,
             {"float[N, 3, H, W]", "int64[6]"},
             {},
             "error: input 1 'pads': expected 8 values (twice the rank of data), got 6"},
        Case{"pad11_rank_from_pads",
             Node("Pad", {"x", "pads"}),
             11,
             {"float", "int64[6]"},
             {},
             "float[?, ?, ?]"},
        Case{"pad11_wrap_is_19",
             Node("Pad", {"x", "pads"}, StrAttr("mode", "wrap")),
             11,
             {"float[N, 3]", "int64[4]"},
             {},
             "error: attribute 'mode': expected constant, reflect, edge, got 'wrap'"},
        Case{"pad13_symbolic_pads",
             Node("Pad", {"x", "pads"}, StrAttr("mode", "reflect")),
             13,
             {"float[N, 3, H, W]", "int64[8]"},
             {std::nullopt, Dims({"0", "0", "P", "P", "0", "0", "P", "Q"})},
             "float[N, 3, H + 2*P, P + Q + W]"},
        Case{"pad18_axes",
             Node("Pad", {"x", "pads", "", "axes"}),
             18,
             {"float[1, 3, 4, 5]", "int64[4]", "", "int64[2]"},
             {std::nullopt, Int64s({0, 3, 0, 4}), std::nullopt, Int64s({1, 3})},
             "float[1, 3, 4, 12]"},
        Case{"pad18_negative_axes",
             Node("Pad", {"x", "pads", "", "axes"}),
             18,
             {"float[N, 3, H, W]", "int64[4]", "", "int32[2]"},
             {std::nullopt, Int64s({0, 3, 0, 4}), std::nullopt, Int64s({-3, -1})},
             "float[N, 3, H, W + 7]"},
        Case{"pad18_axes_unknown",
             Node("Pad", {"x", "pads", "", "axes"}),
             18,
             {"float[N, 3, H, W]", "int64[4]", "", "int64[2]"},
             {std::nullopt, Int64s({0, 3, 0, 4})},
             "float[?, ?, ?, ?]"},
        Case{"pad18_axes_pads_unknown_keep_others",
             Node("Pad", {"x", "pads", "", "axes"}),
             18,
             {"float[N, 3, H, W]", "int64[4]", "", "int64[2]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({2, 3})},
             "float[N, 3, ?, ?]"},
        Case{"pad18_axes_pads_count",
             Node("Pad", {"x", "pads", "", "axes"}),
             18,
             {"float[N, 3, H, W]", "int64[8]", "", "int64[2]"},
             {std::nullopt, Int64s({0, 0, 0, 1, 0, 0, 0, 1}), std::nullopt, Int64s({2, 3})},
             "error: input 1 'pads': expected 4 values (twice the number of axes), got 8"},
        Case{"pad19_wrap",
             Node("Pad", {"x", "pads"}, StrAttr("mode", "wrap")),
             19,
             {"int32[1, 3, 4, 5]", "int64[8]"},
             {std::nullopt, Int64s({0, 0, 1, 1, 0, 0, 1, 1})},
             "int32[1, 3, 6, 7]"},
        Case{"pad25_edge",
             Node("Pad", {"x", "pads"}, StrAttr("mode", "edge")),
             25,
             {"bfloat16[B, 8]", "int64[4]"},
             {std::nullopt, Int64s({1, 0, 1, 0})},
             "bfloat16[B + 2, 8]"}));

}  // namespace
}  // namespace onnx_infer
