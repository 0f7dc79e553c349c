// Table tests of the cast rules (cast.cc): BitCast, IsInf, IsNaN.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::FloatAttr;
using testing::Int64s;
using testing::IntAttr;
using testing::IntsAttr;
using testing::Node;
using testing::RunRuleCase;
using testing::StrAttr;
using testing::StrsAttr;

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

}  // namespace
}  // namespace onnx_infer
