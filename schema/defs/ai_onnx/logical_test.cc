// Table tests of the logical and bitwise family (logical.cc): And, Or, Xor, Not, the
// comparisons and the Bitwise* operators, and the values they propagate.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using symbolic::Dim;
using testing::Int64s;
using testing::IntAttr;
using testing::Ints;
using testing::kH;
using testing::kW;
using testing::OpNode;
using testing::Q;
using testing::Quotients;
using testing::Reals;
using testing::Scalar;
using testing::StrAttr;

using Case = testing::RuleCase;

using LogicalRuleTest = testing::RuleTableTest;

TEST_P(LogicalRuleTest, Infers) { EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam())); }

INSTANTIATE_TEST_SUITE_P(
    Unary, LogicalRuleTest,
    ::testing::Values(
        Case{"not_bool", OpNode("Not", 1), 1, {"bool[N]"}, {}, "bool[N]", ""},
        Case{"bitwise_not", OpNode("BitwiseNot", 1), 18, {"uint8[3, 4]"}, {}, "uint8[3, 4]", ""},
        Case{"not_values",
             OpNode("Not", 1),
             1,
             {"bool[2]"},
             {Ints(kBool, {2}, {Dim::Const(0), Dim::Const(1)})},
             "bool[2]",
             "bool[2] {1, 0}"}));

INSTANTIATE_TEST_SUITE_P(
    Broadcast, LogicalRuleTest,
    ::testing::Values(
        Case{"and_legacy_broadcast",
             OpNode("And", 2, IntAttr("broadcast", 1)),
             1,
             {"bool[4, 5]", "bool[5]"},
             {},
             "bool[4, 5]",
             ""},
        // Logical, bitwise, comparisons.
        Case{"equal_outputs_bool",
             OpNode("Equal", 2),
             19,
             {"string[N]", "string[]"},
             {},
             "bool[N]",
             ""},
        Case{"greater_broadcast",
             OpNode("Greater", 2),
             13,
             {"float[3, 1]", "float[1, 4]"},
             {},
             "bool[3, 4]",
             ""},
        Case{"less_or_equal_16",
             OpNode("LessOrEqual", 2),
             16,
             {"int64[B, 2]", "int64[2]"},
             {},
             "bool[B, 2]",
             ""},
        Case{"greater_or_equal_rank_unknown",
             OpNode("GreaterOrEqual", 2),
             12,
             {"float", "float[2]"},
             {},
             "bool",
             ""},
        Case{"equal_v1_legacy_equal_shapes",
             OpNode("Equal", 2),
             1,
             {"int32[2]", "int32[3]"},
             {},
             "error: expected equal shapes",
             ""},
        Case{"xor_7", OpNode("Xor", 2), 7, {"bool[2, 1]", "bool[3]"}, {}, "bool[2, 3]", ""},
        Case{"bitwise_or",
             OpNode("BitwiseOr", 2),
             18,
             {"int32[4, 1]", "int32[5]"},
             {},
             "int32[4, 5]",
             ""},
        Case{"bit_shift",
             OpNode("BitShift", 2, StrAttr("direction", "LEFT")),
             11,
             {"uint32[3]", "uint32[1]"},
             {},
             "uint32[3]",
             ""},
        Case{"bit_shift_bad_direction",
             OpNode("BitShift", 2, StrAttr("direction", "UP")),
             11,
             {"uint32[3]", "uint32[1]"},
             {},
             "error: attribute 'direction': expected \"LEFT\" or \"RIGHT\", got \"UP\"",
             ""}));

INSTANTIATE_TEST_SUITE_P(
    Values, LogicalRuleTest,
    ::testing::Values(
        Case{"equal_values",
             OpNode("Equal", 2),
             13,
             {"int64[3]", "int64[]"},
             {Ints(kInt64, {3}, {Dim::Const(0), Dim::Symbol("N"), Dim::Const(5)}), Scalar(0)},
             "bool[3]",
             "bool[3] {1, ?, 0}"},
        Case{"equal_symbol_itself",
             OpNode("Equal", 2),
             13,
             {"int64[1]", "int64[1]"},
             {Ints(kInt64, {1}, {Dim::Symbol("N")}), Ints(kInt64, {1}, {Dim::Symbol("N")})},
             "bool[1]",
             "bool[1] {1}"},
        Case{"greater_values",
             OpNode("Greater", 2),
             13,
             {"int64[2]", "int64[]"},
             {Int64s({1, 5}), Scalar(3)},
             "bool[2]",
             "bool[2] {0, 1}"},
        Case{"less_or_equal_reals",
             OpNode("LessOrEqual", 2),
             16,
             {"float[2]", "float[]"},
             {Reals(kFloat, {2}, {1, 3}), Reals(kFloat, {}, {1})},
             "bool[2]",
             "bool[2] {1, 0}"},
        Case{"and_values",
             OpNode("And", 2),
             7,
             {"bool[2]", "bool[]"},
             {Ints(kBool, {2}, {Dim::Const(0), Dim::Const(1)}), Ints(kBool, {}, {Dim::Const(1)})},
             "bool[2]",
             "bool[2] {0, 1}"},
        // Symbolic comparisons decided by the algebra, left unknown when they are not.
        Case{"less_than_successor",
             OpNode("Less", 2),
             13,
             {"int64[1]", "int64[1]"},
             {Ints(kInt64, {1}, {kH}), Ints(kInt64, {1}, {kH + Dim::Const(1)})},
             "bool[1]",
             "bool[1] {1}"},
        Case{"greater_or_equal_zero",
             OpNode("GreaterOrEqual", 2),
             16,
             {"int64[2]", "int64[]"},
             {Ints(kInt64, {2}, {kH, Dim::FloorDiv(kW, Dim::Const(2))}), Scalar(0)},
             "bool[2]",
             "bool[2] {1, 1}"},
        Case{"greater_than_zero_undecided",
             OpNode("Greater", 2),
             13,
             {"int64[1]", "int64[]"},
             {Ints(kInt64, {1}, {kH}), Scalar(0)},
             "bool[1]",
             "bool[1] {?}"},
        Case{"less_float_sizes",
             OpNode("Less", 2),
             13,
             {"float[]", "float[]"},
             {Quotients(kFloat, {}, {Q(kH, 2)}), Quotients(kFloat, {}, {Q(kH)})},
             "bool[]",
             "bool[] {?}"},
        Case{"less_or_equal_float_sizes",
             OpNode("LessOrEqual", 2),
             16,
             {"float[]", "float[]"},
             {Quotients(kFloat, {}, {Q(kH, 2)}), Quotients(kFloat, {}, {Q(kH)})},
             "bool[]",
             "bool[] {1}"}));

// Every version of every operator of the family has a rule, so a version added to the
// catalog and missing from the table shows up here.
TEST(LogicalCoverageTest, EveryVersionHasARule) {
  const char* ops[] = {"Not",        "BitwiseNot", "BitShift",    "BitwiseAnd",    "BitwiseOr",
                       "BitwiseXor", "And",        "Or",          "Xor",           "Equal",
                       "Greater",    "Less",       "LessOrEqual", "GreaterOrEqual"};
  for (const char* op : ops) {
    auto versions = BuiltinSchemas().Versions("", op);
    EXPECT_FALSE(versions.empty()) << op;
    for (const OpSchema* s : versions)
      EXPECT_TRUE(s->has_rule()) << op << "-" << s->since_version();
  }
}

}  // namespace
}  // namespace onnx_infer
