// Table tests of the cast rules (cast.cc): Cast, CastLike, BitCast, IsInf, IsNaN, and the
// exactness condition a cast of a float size back to an integer records.
#include <gtest/gtest.h>

#include <cmath>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Dims;
using testing::FloatAttr;
using testing::FloatSize;
using testing::Int64s;
using testing::IntAttr;
using testing::IntsAttr;
using testing::Node;
using testing::Reals;
using testing::RunMatches;
using testing::RunRule;
using testing::RunRuleCase;
using testing::StrAttr;
using testing::StrsAttr;
using testing::T;

using Case = testing::RuleCase;
using CastRuleTest = testing::RuleTableTest;

TEST_P(CastRuleTest, Infers) { EXPECT_TRUE(RunRuleCase(BuiltinSchemas(), GetParam())); }

INSTANTIATE_TEST_SUITE_P(
    DynamicQuantizeAndBits, CastRuleTest,
    ::testing::Values(
        Case{"bitcast_same_width",
             Node("BitCast", {"x"}, {"y"}, IntAttr("to", kInt32)),
             26,
             {"float[N, 3]"},
             {},
             "int32[N, 3]"},
        Case{"bitcast_bool_to_uint8",
             Node("BitCast", {"x"}, {"y"}, IntAttr("to", kUint8)),
             26,
             {"bool[4]"},
             {},
             "uint8[4]"},
        Case{"bitcast_width_differs",
             Node("BitCast", {"x"}, {"y"}, IntAttr("to", kInt64)),
             26,
             {"float[3]"},
             {},
             "error: attribute 'to': expected a 32-bit type (input 0 'x' is float), got int64 "
             "(64 bits)"},
        Case{"bitcast_input_type_unknown",
             Node("BitCast", {"x"}, {"y"}, IntAttr("to", kInt64)),
             26,
             {"?"},
             {},
             "int64"},
        Case{"bitcast_to_required",
             Node("BitCast", {"x"}, {"y"}),
             26,
             {"float[3]"},
             {},
             "error: attribute 'to'"},
        Case{"isinf_10", Node("IsInf", {"x"}, {"y"}), 10, {"double[N, 2]"}, {}, "bool[N, 2]"},
        Case{"isinf_20",
             Node("IsInf", {"x"}, {"y"}, IntAttr("detect_negative", 0)),
             20,
             {"float16[]"},
             {},
             "bool[]"},
        Case{"isnan_9", Node("IsNaN", {"x"}, {"y"}), 9, {"float[N]"}, {}, "bool[N]"},
        Case{"isnan_13", Node("IsNaN", {"x"}, {"y"}), 13, {"bfloat16[2, 3]"}, {}, "bool[2, 3]"},
        Case{"isnan_20", Node("IsNaN", {"x"}, {"y"}), 20, {"float8e4m3fn"}, {}, "bool"}));

#define NODE(op, ins) R"(op_type: ")" op R"(" )" ins R"( output: "y")"

INSTANTIATE_TEST_SUITE_P(
    CastAndCastLike, CastRuleTest,
    ::testing::Values(
        Case{"cast_keeps_symbolic_values",
             R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 6 })",
             13,
             {"int64[2]"},
             {Dims({"B", "4"})},
             "int32[2]",
             "[B, 4]"},
        Case{"cast_to_float",
             R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 1 })",
             13,
             {"int64[2]"},
             {Int64s({3, 4})},
             "float[2]",
             "[3, 4]"},
        Case{"cast_overflow_drops_value",
             R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 3 })",
             13,
             {"int64[1]"},
             {Int64s({300})},
             "int8[1]",
             ""},
        Case{"castlike_takes_the_target_type",
             NODE("CastLike", R"(input: "x" input: "t")"),
             15,
             {"int64[2]", "float[]"},
             {Dims({"B", "4"})},
             "float[2]",
             "[B, 4]"},
        Case{"castlike_keeps_integer_values",
             NODE("CastLike", R"(input: "x" input: "t")"),
             21,
             {"int64[2]", "int32[7]"},
             {Dims({"B", "4"})},
             "int32[2]",
             "[B, 4]"},
        Case{"castlike_unknown_target_keeps_shape",
             NODE("CastLike", R"(input: "x" input: "t")"),
             19,
             {"float[N, 3]", "?"},
             {},
             "?[N, 3]",
             ""},

        // Casts between integers and floats (values_ops.h: CastValue).
        Case{"cast_reals_truncate_to_int",
             R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 7 })",
             13,
             {"float[3]"},
             {Reals(kFloat, {3}, {2.9, -2.9, 0})},
             "int64[3]",
             "[2, -2, 0]"},
        Case{"cast_nan_to_int_drops_value",
             R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 7 })",
             13,
             {"float[1]"},
             {Reals(kFloat, {1}, {std::nan("")})},
             "int64[1]",
             ""},
        Case{"cast_float32_rounds",
             R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 1 })",
             13,
             {"int64[1]"},
             {Int64s({16777217})},
             "float[1]",
             "[1.67772e+07]"},
        Case{"cast_symbolic_size_to_float",
             R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 1 })",
             13,
             {"int64[2]"},
             {Dims({"H", "4"})},
             "float[2]",
             "[H, 4]"},
        Case{"cast_float_size_back_to_int",
             R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 7 })",
             13,
             {"float[]"},
             {FloatSize("H")},
             "int64[]",
             "[H]"}));

// A float computation of sizes records, where its result becomes an integer again, the
// condition under which the float arithmetic was exact.
TEST(FloatSizes, CastBackRecordsTheExactnessCondition) {
  ConstValue scaled{kFloat, {}, {}, {}};
  scaled.quotients.push_back(RealQuotient{Dim::Symbol("H") * Dim::Const(3), 2, false});
  scaled.conditions.push_back(ExactnessCondition{Dim::Symbol("H") * Dim::Const(3), 1 << 24, 24});
  symbolic::Unifier unifier;
  auto run =
      RunRule(BuiltinSchemas(),
              R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 7 })",
              13, {T("float[]")}, {scaled}, &unifier);
  ASSERT_TRUE(RunMatches(run, "int64[]"));
  ASSERT_TRUE(run.values[0]);
  EXPECT_EQ(testing::ValueText(*run.values[0]), "[H + floor(H/2)]");
  ASSERT_EQ(unifier.conditions().size(), 1u);
  EXPECT_EQ(unifier.conditions()[0],
            "3*H <= 16777216 (exact in float32) (node of output 'y' (Cast))");
}

}  // namespace
}  // namespace onnx_infer
