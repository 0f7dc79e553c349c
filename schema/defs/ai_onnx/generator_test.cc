// Table tests of the generator rules (generator.cc): the random generators (RandomNormal,
// RandomUniform, their Like forms, Bernoulli, Multinomial).
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
using GeneratorRuleTest = testing::RuleTableTest;

TEST_P(GeneratorRuleTest, Infers) { EXPECT_TRUE(RunRuleCase(BuiltinSchemas(), GetParam())); }

INSTANTIATE_TEST_SUITE_P(
    Random, GeneratorRuleTest,
    ::testing::Values(
        Case{"bernoulli_input_type",
             Node("Bernoulli", {"x"}, {"y"}),
             15,
             {"double[N, 10]"},
             {},
             "double[N, 10]"},
        Case{"bernoulli_dtype",
             Node("Bernoulli", {"x"}, {"y"}, IntAttr("dtype", kBool)),
             22,
             {"float[10]"},
             {},
             "bool[10]"},
        Case{"random_normal_like_1",
             Node("RandomNormalLike", {"x"}, {"y"}),
             1,
             {"float16[B, 3]"},
             {},
             "float16[B, 3]"},
        Case{"random_uniform_like_22_dtype",
             Node("RandomUniformLike", {"x"}, {"y"}, IntAttr("dtype", kDouble)),
             22,
             {"int64[B, 3]"},
             {},
             "double[B, 3]"},
        Case{"random_uniform_like_dtype_0_is_input_type",
             Node("RandomUniformLike", {"x"}, {"y"}, IntAttr("dtype", 0)),
             22,
             {"float[B, 3]"},
             {},
             "float[B, 3]"},
        Case{"random_normal_default_float",
             Node("RandomNormal", {}, {"y"}, IntsAttr("shape", {2, 3})),
             1,
             {},
             {},
             "float[2, 3]"},
        Case{"random_uniform_22_dtype",
             Node("RandomUniform", {}, {"y"}, IntsAttr("shape", {4}) + IntAttr("dtype", kFloat16)),
             22,
             {},
             {},
             "float16[4]"},
        Case{"random_uniform_scalar",
             Node("RandomUniform", {}, {"y"}, IntsAttr("shape", {})),
             22,
             {},
             {},
             "float[]"},
        Case{"random_normal_negative_dim",
             Node("RandomNormal", {}, {"y"}, IntsAttr("shape", {2, -1})),
             22,
             {},
             {},
             "error: attribute 'shape': expected dims >= 0, got -1"},
        Case{"random_normal_shape_required",
             Node("RandomNormal", {}, {"y"}),
             22,
             {},
             {},
             "error: attribute 'shape'"},
        Case{"multinomial_default_int32",
             Node("Multinomial", {"x"}, {"y"}, IntAttr("sample_size", 5)),
             7,
             {"float[B, 10]"},
             {},
             "int32[B, 5]"},
        Case{"multinomial_22_int64_default_sample",
             Node("Multinomial", {"x"}, {"y"}, IntAttr("dtype", kInt64)),
             22,
             {"double[3, 10]"},
             {},
             "int64[3, 1]"},
        Case{"multinomial_rank_unknown",
             Node("Multinomial", {"x"}, {"y"}),
             22,
             {"float"},
             {},
             "int32[?, 1]"},
        Case{"multinomial_rank_1",
             Node("Multinomial", {"x"}, {"y"}),
             7,
             {"float[10]"},
             {},
             "error: input 0 'x': expected rank 2 ([batch_size, class_size]), got rank 1"}));

}  // namespace
}  // namespace onnx_infer
