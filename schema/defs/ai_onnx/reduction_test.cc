// Table tests of the reduction rules (schema/defs/ai_onnx/reduction.cc): the Reduce* family
// across its axes conventions, ArgMax/ArgMin, and the data propagation of ReduceSum,
// ReduceProd, ReduceMax and ReduceMin.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::ExpectsError;
using testing::Int64s;
using testing::RunMatches;
using testing::RunRule;
using testing::T;

using Case = testing::RuleCase;

using ReductionRuleTest = testing::RuleTableTest;

TEST_P(ReductionRuleTest, Infers) {
  EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam()));
}

// A 2-D int64 value, row-major, of the given dims; "N" style symbols via Dim::Symbol.
ConstValue Ints(std::vector<int64_t> dims, std::vector<Dim> elems) {
  ConstValue v;
  v.elem_type = kInt64;
  v.dims = std::move(dims);
  v.ints = std::move(elems);
  return v;
}

std::string Attr(const char* name, int64_t i) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: INT i: )" + std::to_string(i) +
         " }";
}

std::string AxesAttr(std::vector<int64_t> axes) {
  std::string s = R"( attribute { name: "axes" type: INTS)";
  for (int64_t a : axes) s += " ints: " + std::to_string(a);
  return s + " }";
}

std::string Reduce(const char* op, const std::string& attrs = "", bool axes_input = false) {
  return std::string(R"(op_type: ")") + op + R"(" input: "x")" +
         (axes_input ? R"( input: "axes")" : "") + R"( output: "y")" + attrs;
}

const Dim N = Dim::Symbol("N");

INSTANTIATE_TEST_SUITE_P(
    AxesAttribute, ReductionRuleTest,
    ::testing::Values(
        Case{"default_all_axes_keepdims",
             Reduce("ReduceMean"),
             13,
             {"float[N, 3, 4]"},
             {},
             "float[1, 1, 1]",
             ""},
        Case{"all_axes_no_keepdims",
             Reduce("ReduceL2", Attr("keepdims", 0)),
             11,
             {"float[N, 3]"},
             {},
             "float[]",
             ""},
        Case{"axes_keep_symbolic_dims",
             Reduce("ReduceMax", AxesAttr({1})),
             13,
             {"float[B, 3, S]"},
             {},
             "float[B, 1, S]",
             ""},
        Case{"negative_axes_drop",
             Reduce("ReduceLogSumExp", AxesAttr({-1}) + Attr("keepdims", 0)),
             11,
             {"double[B, 3, S]"},
             {},
             "double[B, 3]",
             ""},
        Case{"v1_axes",
             Reduce("ReduceSumSquare", AxesAttr({0, 2}) + Attr("keepdims", 0)),
             1,
             {"float[2, 3, 4]"},
             {},
             "float[3]",
             ""},
        Case{"rank_unknown", Reduce("ReduceMin", AxesAttr({0})), 13, {"float"}, {}, "float", ""},
        Case{"axis_out_of_range",
             Reduce("ReduceProd", AxesAttr({3})),
             13,
             {"float[2, 3, 4]"},
             {},
             "error: axes: expected an axis in [-3, 2] for rank 3, got 3",
             ""},
        Case{"reduce_sum_v11_still_attribute",
             Reduce("ReduceSum", AxesAttr({1})),
             11,
             {"float[2, 3]"},
             {},
             "float[2, 1]",
             ""},
        Case{"reduce_l1_v13_still_attribute",
             Reduce("ReduceL1", AxesAttr({0})),
             13,
             {"int32[2, 3]"},
             {},
             "int32[1, 3]",
             ""}));

INSTANTIATE_TEST_SUITE_P(
    AxesInput, ReductionRuleTest,
    ::testing::Values(
        Case{"reduce_sum_13_axes_value",
             Reduce("ReduceSum", Attr("keepdims", 0), true),
             13,
             {"float[N, 3, 4]", "int64[1]"},
             {std::nullopt, Int64s({-2})},
             "float[N, 4]",
             ""},
        Case{"reduce_mean_18_axes_value",
             Reduce("ReduceMean", "", true),
             18,
             {"float[N, 3, 4]", "int64[2]"},
             {std::nullopt, Int64s({0, 2})},
             "float[1, 3, 1]",
             ""},
        Case{
            "no_axes_reduces_all", Reduce("ReduceMax"), 18, {"float[N, 3]"}, {}, "float[1, 1]", ""},
        Case{"empty_axes_noop",
             Reduce("ReduceSum", Attr("noop_with_empty_axes", 1), true),
             13,
             {"float[N, 3]", "int64[0]"},
             {std::nullopt, Int64s({})},
             "float[N, 3]",
             ""},
        Case{"absent_axes_noop",
             Reduce("ReduceL1", Attr("noop_with_empty_axes", 1)),
             18,
             {"float[N, 3]"},
             {},
             "float[N, 3]",
             ""},
        Case{"empty_axes_without_noop_reduce_all",
             Reduce("ReduceSum", Attr("keepdims", 0), true),
             13,
             {"float[N, 3]", "int64[0]"},
             {},
             "float[]",
             ""},
        Case{"unknown_axes_keepdims_keeps_rank_and_ones",
             Reduce("ReduceMin", "", true),
             20,
             {"float[N, 1, 4]", "int64[1]"},
             {},
             "float[?, 1, ?]",
             ""},
        // Two axes of unknown value may be one axis twice (onnxruntime reduces it once):
        // rank 1 or 2. One axis leaves rank 2.
        Case{"unknown_axes_no_keepdims_may_repeat",
             Reduce("ReduceLogSum", Attr("keepdims", 0), true),
             18,
             {"float[N, 3, 4]", "int64[2]"},
             {},
             "float",
             ""},
        Case{"unknown_axis_no_keepdims_rank_from_length",
             Reduce("ReduceLogSum", Attr("keepdims", 0), true),
             18,
             {"float[N, 3, 4]", "int64[1]"},
             {},
             "float[?, ?]",
             ""},
        Case{"unknown_axes_of_unknown_length",
             Reduce("ReduceSum", Attr("keepdims", 0), true),
             13,
             {"float[N, 3, 4]", "int64[?]"},
             {},
             "float",
             ""},
        Case{"too_many_axes",
             Reduce("ReduceSum", Attr("keepdims", 0), true),
             13,
             {"float[N, 3]", "int64[3]"},
             {},
             "error: input 1 'axes': expected at most 2 axes for input rank 2, got 3",
             ""},
        Case{"axes_value_out_of_range",
             Reduce("ReduceProd", "", true),
             18,
             {"float[2, 3]", "int64[1]"},
             {std::nullopt, Int64s({-3})},
             "error: axes: expected an axis in [-2, 1]",
             ""},
        Case{"reduce_max_20_bool",
             Reduce("ReduceMax", Attr("keepdims", 0), true),
             20,
             {"bool[4, 2]", "int64[1]"},
             {std::nullopt, Int64s({1})},
             "bool[4]",
             ""}));

INSTANTIATE_TEST_SUITE_P(
    ValuePropagation, ReductionRuleTest,
    ::testing::Values(Case{"reduce_prod_of_shape",
                           Reduce("ReduceProd", Attr("keepdims", 0)),
                           13,
                           {"int64[3]"},
                           {Int64s({2, 3, 4})},
                           "int64[]",
                           "int64[] {24}"},
                      Case{"reduce_sum_keepdims",
                           Reduce("ReduceSum"),
                           11,
                           {"int64[3]"},
                           {Int64s({2, 3, 4})},
                           "int64[1]",
                           "int64[1] {9}"},
                      Case{"reduce_sum_rows",
                           Reduce("ReduceSum", Attr("keepdims", 0), true),
                           13,
                           {"int64[2, 3]", "int64[1]"},
                           {Ints({2, 3}, {Dim::Const(1), Dim::Const(2), Dim::Const(3),
                                          Dim::Const(4), Dim::Const(5), Dim::Const(6)}),
                            Int64s({1})},
                           "int64[2]",
                           "int64[2] {6, 15}"},
                      Case{"reduce_sum_columns",
                           Reduce("ReduceSum", "", true),
                           13,
                           {"int64[2, 3]", "int64[1]"},
                           {Ints({2, 3}, {Dim::Const(1), Dim::Const(2), Dim::Const(3),
                                          Dim::Const(4), Dim::Const(5), Dim::Const(6)}),
                            Int64s({0})},
                           "int64[1, 3]",
                           "int64[1, 3] {5, 7, 9}"},
                      // Dim arithmetic carries symbolic elements through (here by its identities).
                      Case{"reduce_prod_symbol_times_one",
                           Reduce("ReduceProd", Attr("keepdims", 0)),
                           18,
                           {"int64[2]"},
                           {Ints({2}, {N, Dim::Const(1)})},
                           "int64[]",
                           "int64[] {N}"},
                      Case{"reduce_sum_symbol_plus_zero",
                           Reduce("ReduceSum", Attr("keepdims", 0)),
                           1,
                           {"int64[2]"},
                           {Ints({2}, {Dim::Const(0), N})},
                           "int64[]",
                           "int64[] {N}"},
                      Case{"reduce_max_of_shape_symbolic",
                           Reduce("ReduceMax", Attr("keepdims", 0)),
                           18,
                           {"int64[3]"},
                           {Ints({3}, {N, Dim::Const(4), Dim::Const(2)})},
                           "int64[]",
                           "int64[] {Max(4, N)}"},
                      Case{"reduce_min_rows",
                           Reduce("ReduceMin", Attr("keepdims", 0) + AxesAttr({1})),
                           13,
                           {"int64[2, 2]"},
                           {Ints({2, 2}, {Dim::Const(3), Dim::Const(1), N, N})},
                           "int64[2]",
                           "int64[2] {1, N}"},
                      Case{"reduce_max_over_empty_axis_no_value",
                           Reduce("ReduceMax", Attr("keepdims", 0)),
                           20,
                           {"int64[0]"},
                           {Ints({0}, {})},
                           "int64[]",
                           ""},
                      Case{"reduce_sum_over_empty_axis_is_zero",
                           Reduce("ReduceSum", Attr("keepdims", 0)),
                           13,
                           {"int64[0]"},
                           {Ints({0}, {})},
                           "int64[]",
                           "int64[] {0}"},
                      Case{"noop_passes_value",
                           Reduce("ReduceSum", Attr("noop_with_empty_axes", 1)),
                           13,
                           {"int64[2]"},
                           {Int64s({7, 8})},
                           "int64[2]",
                           "int64[2] {7, 8}"},
                      Case{"float_values_not_propagated",
                           Reduce("ReduceSum"),
                           13,
                           {"float[2]"},
                           {},
                           "float[1]",
                           ""},
                      Case{"reduce_mean_does_not_propagate",
                           Reduce("ReduceMean"),
                           13,
                           {"int64[2]"},
                           {Int64s({2, 4})},
                           "int64[1]",
                           ""}));

#define ARG(op, attrs) R"(op_type: ")" op R"(" input: "x" output: "y")" attrs

INSTANTIATE_TEST_SUITE_P(
    ArgReduce, ReductionRuleTest,
    ::testing::Values(Case{"argmax_default_axis0_keepdims",
                           ARG("ArgMax", ""),
                           13,
                           {"float[N, 3]"},
                           {},
                           "int64[1, 3]",
                           ""},
                      Case{"argmin_negative_axis_no_keepdims",
                           ARG("ArgMin", R"( attribute { name: "axis" type: INT i: -1 }
                 attribute { name: "keepdims" type: INT i: 0 })"),
                           11,
                           {"float[N, 3]"},
                           {},
                           "int64[N]",
                           ""},
                      Case{"argmax_select_last_index_same_shape",
                           ARG("ArgMax", R"( attribute { name: "axis" type: INT i: 1 }
                 attribute { name: "select_last_index" type: INT i: 1 })"),
                           12,
                           {"int32[B, S, 4]"},
                           {},
                           "int64[B, 1, 4]",
                           ""},
                      Case{"argmax_v1",
                           ARG("ArgMax", R"( attribute { name: "axis" type: INT i: 1 })"),
                           1,
                           {"float[2, 5]"},
                           {},
                           "int64[2, 1]",
                           ""},
                      Case{
                          "argmin_rank_unknown", ARG("ArgMin", ""), 13, {"float"}, {}, "int64", ""},
                      Case{"argmax_axis_out_of_range",
                           ARG("ArgMax", R"( attribute { name: "axis" type: INT i: 2 })"),
                           13,
                           {"float[2, 5]"},
                           {},
                           "error: attribute 'axis': expected an axis in [-2, 1] for rank 2, got 2",
                           ""}));

}  // namespace
}  // namespace onnx_infer
