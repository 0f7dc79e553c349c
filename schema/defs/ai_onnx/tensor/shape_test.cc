// Table tests of the shape-tensor operators (tensor/shape.cc: Shape, Size, Gather, Squeeze,
// Unsqueeze, Slice, Tile, Flatten, Identity, Expand...), and of the values they propagate.
#include <gtest/gtest.h>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Dims;
using testing::ExpectsError;
using testing::FloatSize;
using testing::Int64s;
using testing::IntAttr;
using testing::Ints;
using testing::Node;
using testing::Reals;
using testing::RunMatches;
using testing::RunRule;
using testing::Scalar;
using testing::T;
using testing::ValueText;

using Case = testing::RuleCase;

using ShapeOpsTest = testing::RuleTableTest;

TEST_P(ShapeOpsTest, Infers) { EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam())); }

#define NODE(op, ins) R"(op_type: ")" op R"(" )" ins R"( output: "y")"

INSTANTIATE_TEST_SUITE_P(
    Table, ShapeOpsTest,
    ::testing::Values(
        Case{"shape_symbolic_value",
             NODE("Shape", R"(input: "x")"),
             13,
             {"float[B, S, 768]"},
             {},
             "int64[3]",
             "[B, S, 768]"},
        Case{
            "shape_start_end",
            R"(op_type: "Shape" input: "x" output: "y" attribute { name: "start" type: INT i: 1 } attribute { name: "end" type: INT i: -1 })",
            15,
            {"float[B, S, 768]"},
            {},
            "int64[1]",
            "[S]"},
        Case{
            "shape_start_end_clamped",
            R"(op_type: "Shape" input: "x" output: "y" attribute { name: "start" type: INT i: -10 } attribute { name: "end" type: INT i: 10 })",
            15,
            {"float[B, S]"},
            {},
            "int64[2]",
            "[B, S]"},
        Case{"shape_rank_unknown",
             NODE("Shape", R"(input: "x")"),
             13,
             {"float"},
             {},
             "int64[?]",
             ""},
        Case{"size", NODE("Size", R"(input: "x")"), 13, {"float[2, 3, 4]"}, {}, "int64[]", "[24]"},
        Case{"gather_shape_element",
             NODE("Gather", R"(input: "s" input: "i")"),
             13,
             {"int64[3]", "int64[]"},
             {Dims({"B", "S", "768"}), Scalar(1)},
             "int64[]",
             "[S]"},
        Case{"gather_negative_index",
             NODE("Gather", R"(input: "s" input: "i")"),
             13,
             {"int64[3]", "int64[1]"},
             {Dims({"B", "S", "768"}), Int64s({-1})},
             "int64[1]",
             "[768]"},
        Case{
            "gather_axis_shape",
            R"(op_type: "Gather" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
            13,
            {"float[N, 5, 7]", "int64[2, 3]"},
            {},
            "float[N, 2, 3, 7]",
            ""},
        Case{"gather_index_out_of_range",
             NODE("Gather", R"(input: "s" input: "i")"),
             13,
             {"int64[2]", "int64[]"},
             {Dims({"B", "S"}), Scalar(2)},
             "error: index 2 is out of range for 2 elements",
             ""},
        Case{
            "gather_elements_takes_the_indices_shape",
            R"(op_type: "GatherElements" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
            13,
            {"float[N, 5]", "int64[N, K]"},
            {},
            "float[N, K]",
            ""},
        Case{"gather_elements_rank_mismatch",
             NODE("GatherElements", R"(input: "x" input: "i")"),
             11,
             {"float[N, 5]", "int64[3]"},
             {},
             "error: input 1 'i': expected rank 2 (the rank of data), got rank 1",
             ""},
        Case{
            "gather_elements_axis_out_of_range",
            R"(op_type: "GatherElements" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 2 })",
            13,
            {"float[N, 5]", "int64[N, 2]"},
            {},
            "error: attribute 'axis': expected an axis in [-2, 1] for rank 2, got 2",
            ""},
        Case{"unsqueeze_input_axes",
             NODE("Unsqueeze", R"(input: "x" input: "a")"),
             13,
             {"int64[]", "int64[1]"},
             {Scalar(7), Int64s({0})},
             "int64[1]",
             "[7]"},
        Case{
            "unsqueeze_attribute_axes",
            R"(op_type: "Unsqueeze" input: "x" output: "y" attribute { name: "axes" type: INTS ints: 0 ints: -1 })",
            11,
            {"float[N, 3]"},
            {},
            "float[1, N, 3, 1]",
            ""},
        Case{"unsqueeze_unknown_axes_value",
             NODE("Unsqueeze", R"(input: "x" input: "a")"),
             13,
             {"float[N, 3]", "int64[2]"},
             {},
             "float[?, ?, ?, ?]",
             ""},
        // A scalar axes input is one axis (onnx's test_unsqueeze_scalar): a scalar becomes [1].
        Case{"unsqueeze_scalar_by_unknown_scalar_axes",
             NODE("Unsqueeze", R"(input: "x" input: "a")"),
             13,
             {"float[]", "int64[]"},
             {},
             "float[1]",
             ""},
        // Output dim j is a new 1 or one of input dims j-k..j: 1 when those are all 1.
        Case{"unsqueeze_unknown_axes_keeps_ones",
             NODE("Unsqueeze", R"(input: "x" input: "a")"),
             13,
             {"float[1, N]", "int64[1]"},
             {},
             "float[1, ?, ?]",
             ""},
        Case{"unsqueeze_unknown_axes_all_ones",
             NODE("Unsqueeze", R"(input: "x" input: "a")"),
             13,
             {"float[1, 1]", "int64[2]"},
             {},
             "float[1, 1, 1, 1]",
             ""},
        Case{"unsqueeze_unknown_axes_symbolic_count",
             NODE("Unsqueeze", R"(input: "x" input: "a")"),
             13,
             {"float[1, 1]", "int64[K]"},
             {},
             "float",
             ""},
        Case{
            "unsqueeze_repeated_axis",
            R"(op_type: "Unsqueeze" input: "x" output: "y" attribute { name: "axes" type: INTS ints: 0 ints: 0 })",
            11,
            {"float[3]"},
            {},
            "error: axes: axis 0 is repeated",
            ""},
        Case{"squeeze_given_axes",
             NODE("Squeeze", R"(input: "x" input: "a")"),
             13,
             {"float[1, N, 1]", "int64[1]"},
             {std::nullopt, Int64s({0})},
             "float[N, 1]",
             ""},
        Case{"squeeze_all_ones",
             NODE("Squeeze", R"(input: "x")"),
             13,
             {"float[1, 4, 1]"},
             {},
             "float[4]",
             ""},
        Case{"squeeze_all_needs_known_dims",
             NODE("Squeeze", R"(input: "x")"),
             13,
             {"float[1, N]"},
             {},
             "float",
             ""},
        Case{"squeeze_not_one",
             NODE("Squeeze", R"(input: "x" input: "a")"),
             13,
             {"float[2, 3]", "int64[1]"},
             {std::nullopt, Int64s({0})},
             "error: axes: dim 0 is 2, not 1",
             ""},
        Case{"squeeze_unknown_axes_value",
             NODE("Squeeze", R"(input: "x" input: "a")"),
             13,
             {"float[1, N, 1]", "int64[2]"},
             {},
             "float[?]",
             ""},
        // Output dim j is input dim j or j + 1: N when both are.
        Case{"squeeze_unknown_axes_keeps_equal_neighbours",
             NODE("Squeeze", R"(input: "x" input: "a")"),
             13,
             {"float[N, N, 1]", "int64[]"},
             {},
             "float[N, ?]",
             ""},
        Case{"slice_shape_value",
             NODE("Slice", R"(input: "s" input: "b" input: "e")"),
             13,
             {"int64[3]", "int64[1]", "int64[1]"},
             {Dims({"B", "S", "768"}), Int64s({0}), Int64s({2})},
             "int64[2]",
             "[B, S]"},
        Case{"slice_negative_step",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"int64[5]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {Int64s({1, 2, 3, 4, 5}), Int64s({-1}), Int64s({-6}), Int64s({0}), Int64s({-2})},
             "int64[3]",
             "[5, 3, 1]"},
        Case{"slice_to_end_of_symbolic_dim",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13,
             {"float[N, 10]", "int64[2]", "int64[2]", "int64[2]"},
             {std::nullopt, Int64s({0, 2}), Int64s({INT64_MAX, -2}), Int64s({0, 1})},
             "float[N, 6]",
             ""},
        Case{"slice_symbolic_bounds",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13,
             {"float[B, C, P + K - 1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"P"}), Dims({"P + K - 1"}), Int64s({2})},
             "float[B, C, Max(0, K - 1)]",
             ""},
        Case{"slice_last_three_of_symbolic_dim",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13,
             {"float[N, 10]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({-3}), Int64s({INT64_MAX}), Int64s({0})},
             "float[Min(3, N), 10]",
             ""},
        Case{"slice_symbolic_start_constant_dim",
             NODE("Slice", R"(input: "x" input: "b" input: "e")"),
             13,
             {"float[10]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"K"}), Int64s({INT64_MAX})},
             "float[Max(0, -K + 10)]",
             ""},
        Case{"slice_drop_first_of_symbolic_dim",
             NODE("Slice", R"(input: "x" input: "b" input: "e")"),
             13,
             {"float[N]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({1}), Int64s({INT64_MAX})},
             "float[Max(0, N - 1)]",
             ""},
        Case{"slice_reverse_symbolic_dim",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[N]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({-1}), Int64s({INT64_MIN}), Int64s({0}), Int64s({-1})},
             "float[N]",
             ""},
        Case{"slice_symbolic_step_two",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[N]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Int64s({INT64_MAX}), Int64s({0}), Int64s({2})},
             "float[floor((N + 1)/2)]",
             ""},
        Case{"slice_symbolic_start_and_end",
             NODE("Slice", R"(input: "x" input: "b" input: "e")"),
             13,
             {"float[N]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"A"}), Dims({"A + 4"})},
             "float[Max(0, -Min(A, N) + Min(N, A + 4))]",
             ""},
        Case{"slice_reverse_by_two_from_symbolic_start",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[N]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"A"}), Int64s({0}), Int64s({0}), Int64s({-2})},
             "float[Min(N, floor((Max(0, -Min(0, N - 1) + Min(A, N - 1)) + 1)/2))]",
             ""},
        Case{"slice_start_that_may_be_negative",
             NODE("Slice", R"(input: "x" input: "b" input: "e")"),
             13,
             {"float[N]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"N - 4"}), Int64s({INT64_MAX})},
             "float[?]",
             ""},
        Case{"slice_unknown_starts",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13,
             {"float[N, 10]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({1})},
             "float[N, ?]",
             ""},
        // Steps of unknown value: the sliced axis is unknown, the others keep their dims.
        Case{"slice_unknown_steps_keeps_other_axes",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[N, 10, 7]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Int64s({5}), Int64s({1}), std::nullopt},
             "float[N, ?, 7]",
             ""},
        Case{"slice_unknown_steps_and_bounds_keeps_other_axes",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[N, 10, 0]", "int64[2]", "int64[2]", "int64[2]", "int64[2]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({-1, 1}), std::nullopt},
             "float[N, ?, 0]",
             ""},
        // Unknown axes: any axis may be sliced, but an empty one stays empty.
        Case{"slice_unknown_axes_keeps_empty_axes",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13,
             {"float[0, N, 1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Int64s({1})},
             "float[0, ?, ?]",
             ""},
        // A symbolic step is a dim (>= 0) and never 0, so it is >= 1: ceil(T/S) from the start
        // (the normal form of ceil(T/S) is floor((T + S - 1)/S)).
        Case{"slice_symbolic_step",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[T, 4]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Int64s({INT64_MAX}), Int64s({0}), Dims({"S"})},
             "float[floor((S + T - 1)/S), 4]",
             ""},
        Case{"slice_symbolic_negative_step",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[T, 4]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({-1}), Int64s({INT64_MIN}), Int64s({0}), Dims({"-S"})},
             "float[floor((S + T - 1)/S), 4]",
             ""},
        Case{"slice_symbolic_step_of_either_sign",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[T, 4]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Int64s({INT64_MAX}), Int64s({0}), Dims({"S - 2"})},
             "float[?, 4]",
             ""},
        Case{"slice_symbolic_step_of_empty_axis",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[0, 4]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"A"}), Int64s({INT64_MAX}), Int64s({0}), Dims({"S - 2"})},
             "float[0, 4]",
             ""},
        Case{"slice_steps_count_differs",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[T, 4]", "int64[1]", "int64[1]", "int64[1]", "int64[2]"},
             {std::nullopt, Int64s({0}), Int64s({2}), Int64s({0}), Int64s({1, 1})},
             "error: steps has 2 values but starts has 1",
             ""},
        Case{
            "slice_v1_attributes",
            R"(op_type: "Slice" input: "x" output: "y" attribute { name: "starts" type: INTS ints: 1 } attribute { name: "ends" type: INTS ints: 3 })",
            1,
            {"float[10, 4]"},
            {},
            "float[2, 4]",
            ""},
        Case{"slice_zero_step",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"float[10]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Int64s({5}), Int64s({0}), Int64s({0})},
             "error: steps: a step of 0",
             ""},
        Case{"tile",
             NODE("Tile", R"(input: "x" input: "r")"),
             13,
             {"float[2, 3]", "int64[2]"},
             {std::nullopt, Int64s({3, 1})},
             "float[6, 3]",
             ""},
        Case{"tile_repeats_a_shape_value",
             NODE("Tile", R"(input: "x" input: "r")"),
             13,
             {"int64[2]", "int64[1]"},
             {Dims({"B", "S"}), Int64s({2})},
             "int64[4]",
             "[B, S, B, S]"},
        Case{"tile_two_dims_value",
             NODE("Tile", R"(input: "x" input: "r")"),
             13,
             {"int64[2, 1]", "int64[2]"},
             {ConstValue{kInt64, {2, 1}, {Dim::Const(1), Dim::Const(2)}, {}}, Int64s({2, 2})},
             "int64[4, 2]",
             "[1, 1, 2, 2, 1, 1, 2, 2]"},
        Case{"tile_wrong_length",
             NODE("Tile", R"(input: "x" input: "r")"),
             13,
             {"float[2, 3]", "int64[1]"},
             {std::nullopt, Int64s({3})},
             "error: input 1 'r': expected 2 values, got 1",
             ""},
        Case{
            "flatten",
            R"(op_type: "Flatten" input: "x" output: "y" attribute { name: "axis" type: INT i: 2 })",
            13,
            {"float[2, 3, 4, 5]"},
            {},
            "float[6, 20]",
            ""},
        Case{
            "flatten_axis_zero",
            R"(op_type: "Flatten" input: "x" output: "y" attribute { name: "axis" type: INT i: 0 })",
            13,
            {"float[2, 3]"},
            {},
            "float[1, 6]",
            ""},
        Case{"identity_passes_values",
             NODE("Identity", R"(input: "x")"),
             16,
             {"int64[2]"},
             {Dims({"B", "S"})},
             "int64[2]",
             "[B, S]"},

        // Values of any rank (F.pad's pads: [3, 2] pairs reversed by a Slice of step -1).
        Case{"slice_rank2_value_reversed_rows",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"int64[3, 2]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {Ints({3, 2}, {"3", "5", "0", "0", "N", "1"}), Int64s({-1}), Int64s({INT64_MIN + 1}),
              Int64s({0}), Int64s({-1})},
             "int64[3, 2]",
             "[N, 1, 0, 0, 3, 5]"},
        Case{"slice_rank2_value_columns",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13,
             {"int64[2, 3]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {Ints({2, 3}, {"B", "S", "8", "1", "2", "3"}), Int64s({0}), Int64s({INT64_MAX}),
              Int64s({1}), Int64s({2})},
             "int64[2, 2]",
             "[B, 8, 1, 3]"},
        Case{"slice_float_value",
             NODE("Slice", R"(input: "x" input: "b" input: "e")"),
             13,
             {"float[4]", "int64[1]", "int64[1]"},
             {Reals(kFloat, {4}, {0.5, 1, 2, 4}), Int64s({1}), Int64s({3})},
             "float[2]",
             "[1, 2]"},
        Case{"gather_rows_of_rank2_value",
             NODE("Gather", R"(input: "x" input: "i")"),
             13,
             {"int64[2, 3]", "int64[2]"},
             {Ints({2, 3}, {"B", "S", "8", "1", "2", "3"}), Int64s({1, 0})},
             "int64[2, 3]",
             "[1, 2, 3, B, S, 8]"},
        Case{
            "gather_column_by_scalar",
            R"(op_type: "Gather" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
            13,
            {"int64[2, 3]", "int64[]"},
            {Ints({2, 3}, {"B", "S", "8", "1", "2", "3"}), Scalar(-1)},
            "int64[2]",
            "[8, 3]"},
        Case{
            "gather_rank2_index_out_of_range",
            R"(op_type: "Gather" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
            13,
            {"int64[2, 3]", "int64[]"},
            {Ints({2, 3}, {"B", "S", "8", "1", "2", "3"}), Scalar(3)},
            "error: index 3 is out of range for 3 elements",
            ""},
        Case{
            "gather_elements_value",
            R"(op_type: "GatherElements" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
            13,
            {"int64[2, 2]", "int64[2, 1]"},
            {Ints({2, 2}, {"B", "S", "H", "W"}), Ints({2, 1}, {"1", "0"})},
            "int64[2, 1]",
            "[S, H]"},
        Case{"tile_value_any_rank_reals",
             NODE("Tile", R"(input: "x" input: "r")"),
             13,
             {"float[1, 2]", "int64[2]"},
             {Reals(kFloat, {1, 2}, {1, 2}), Int64s({2, 1})},
             "float[2, 2]",
             "[1, 2, 1, 2]"},
        Case{
            "flatten_value",
            R"(op_type: "Flatten" input: "x" output: "y" attribute { name: "axis" type: INT i: 1 })",
            13,
            {"int64[2, 1, 2]"},
            {Ints({2, 1, 2}, {"B", "S", "H", "W"})},
            "int64[2, 2]",
            "[B, S, H, W]"},

        // Symbolic negative starts (pattern 2 of issue 15): -S is S from the end unless S is
        // 0, when the slice takes everything.
        Case{"slice_symbolic_negative_start",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13,
             {"float[B, T]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"-S"}), Int64s({INT64_MAX}), Int64s({1})},
             "float[B, -T*Min(1, S) + Min(1, S)*Min(S, T) + T]",
             ""},
        Case{"slice_symbolic_negative_start_of_own_dim",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13,
             {"float[B, T]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"-T"}), Int64s({INT64_MAX}), Int64s({1})},
             "float[B, T]",
             ""},
        Case{"slice_symbolic_negative_start_one_more",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13,
             {"float[B, T]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"-S - 1"}), Int64s({INT64_MAX}), Int64s({1})},
             "float[B, Min(T, S + 1)]",
             ""},
        Case{"slice_symbolic_negative_end",
             NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13,
             {"float[B, T]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Dims({"-S"}), Int64s({1})},
             "float[B, Min(1, S)*Max(0, -S + T)]",
             ""}));

INSTANTIATE_TEST_SUITE_P(Expand, ShapeOpsTest,
                         ::testing::Values(Case{"expand_value",
                                                NODE("Expand", R"(input: "x" input: "shape")"),
                                                13,
                                                {"float[3, 1]", "int64[3]"},
                                                {std::nullopt, Int64s({2, 1, 6})},
                                                "float[2, 3, 6]",
                                                ""},
                                           Case{"expand_symbolic_target",
                                                NODE("Expand", R"(input: "x" input: "shape")"),
                                                8,
                                                {"float[1]", "int64[2]"},
                                                {std::nullopt, Dims({"B", "S"})},
                                                "float[B, S]",
                                                ""},
                                           Case{"expand_shape_smaller",
                                                NODE("Expand", R"(input: "x" input: "shape")"),
                                                13,
                                                {"float[2, 3]", "int64[1]"},
                                                {std::nullopt, Int64s({1})},
                                                "float[2, 3]",
                                                ""},
                                           Case{"expand_rank_from_shape_length",
                                                NODE("Expand", R"(input: "x" input: "shape")"),
                                                13,
                                                {"float[N, 4]", "int64[3]"},
                                                {},
                                                "float[?, ?, 4]",
                                                ""},
                                           Case{"expand_mismatch",
                                                NODE("Expand", R"(input: "x" input: "shape")"),
                                                13,
                                                {"float[3]", "int64[1]"},
                                                {std::nullopt, Int64s({4})},
                                                "error: cannot broadcast 3 with 4",
                                                ""},
                                           Case{"expand_negative",
                                                NODE("Expand", R"(input: "x" input: "shape")"),
                                                13,
                                                {"float[3]", "int64[1]"},
                                                {std::nullopt, Int64s({-1})},
                                                "error: expected dims >= 0, got -1",
                                                ""},
                                           Case{"expand_propagates_value",
                                                NODE("Expand", R"(input: "x" input: "shape")"),
                                                13,
                                                {"int64[1]", "int64[1]"},
                                                {Int64s({7}), Int64s({3})},
                                                "int64[3]",
                                                "int64[3] {7, 7, 7}"},
                                           Case{"expand_rank2_value",
                                                NODE("Expand", R"(input: "x" input: "shape")"),
                                                13,
                                                {"int64[2, 1]", "int64[2]"},
                                                {Ints({2, 1}, {"H", "W"}), Int64s({1, 2})},
                                                "int64[2, 2]",
                                                "int64[2, 2] {H, H, W, W}"},
                                           Case{"expand_float_value",
                                                NODE("Expand", R"(input: "x" input: "shape")"),
                                                13,
                                                {"float[2]", "int64[2]"},
                                                {Reals(kFloat, {2}, {0.5, 2}), Int64s({2, 1})},
                                                "float[2, 2]",
                                                "float[2, 2] {0.5, 2, 0.5, 2}"}));

INSTANTIATE_TEST_SUITE_P(Identity, ShapeOpsTest,
                         ::testing::Values(Case{"identity_passes_anything",
                                                R"(op_type: "Identity" input: "x" output: "y")",
                                                16,
                                                {"int64[]"},
                                                {},
                                                "int64[]"}));

// Every version of Expand has a rule (a version added to the catalog shows up here).
TEST(ShapeCoverageTest, EveryExpandVersionHasARule) {
  auto versions = BuiltinSchemas().Versions("", "Expand");
  EXPECT_FALSE(versions.empty());
  for (const OpSchema* s : versions) EXPECT_TRUE(s->has_rule()) << "Expand-" << s->since_version();
}

// The bounds the run recorded, one line per symbol: "128 <= n__e0 <= 512: origin; origin".
std::string BoundsText(const symbolic::Unifier& u) {
  std::string out;
  for (const auto& b : u.BoundsOfSymbols()) {
    out += StrCat(b.lo, " <= ", b.symbol, " <= ", b.hi ? StrCat(*b.hi) : "inf", ":");
    for (const auto& o : b.origins) out += " " + o + ";";
    out += "\n";
  }
  return out;
}

// A constant table of sizes read at an index that is not known: the element is a symbol with
// the least and greatest element in reach as bounds, the node and the table as origin.
TEST(GatherTableTest, AnElementAtAnUnknownIndexIsBoundedByTheTable) {
  const std::string gather = Node("Gather", {"sizes", "i"}, {"n"});
  const ConstValue sizes = Int64s({256, 128, 512});
  {
    symbolic::Unifier u;
    auto run = RunRule(BuiltinSchemas(), gather, 13, {T("int64[3]"), T("int64[]")},
                       {sizes, std::nullopt}, &u);
    EXPECT_EQ(run.Summary(), "int64[]");
    ASSERT_TRUE(run.values[0]);
    EXPECT_EQ(ValueText(*run.values[0]), "[n__e0]");
    EXPECT_EQ(BoundsText(u),
              "128 <= n__e0 <= 512: n__e0 >= 128 (node of output 'n' (Gather): an element of "
              "constant 'sizes' [3 values]); n__e0 <= 512 (node of output 'n' (Gather): an element "
              "of constant 'sizes' [3 values]);\n");
  }
  {
    // An index the model bounds (K <= 1, K >= 0 as every symbol) reaches the first two only.
    symbolic::Unifier u;
    ASSERT_TRUE(u.AssumeAtMost("K", 1, "a test").ok());
    auto run = RunRule(BuiltinSchemas(), gather, 13, {T("int64[3]"), T("int64[]")},
                       {sizes, Scalar(Dim::Symbol("K"))}, &u);
    ASSERT_TRUE(run.values[0]);
    EXPECT_EQ(ValueText(*run.values[0]), "[n__e0]");
    EXPECT_NE(BoundsText(u).find("128 <= n__e0 <= 256: n__e0 >= 128 (node of output 'n' "
                                 "(Gather): an element of constant 'sizes' [3 values] at index "
                                 "K within [0, 1])"),
              std::string::npos)
        << BoundsText(u);
  }
  {
    // Indices [?, -1]: the known one reads its element (-1: the last), the other is bounded.
    symbolic::Unifier u;
    auto run = RunRule(BuiltinSchemas(), gather, 13, {T("int64[3]"), T("int64[2]")},
                       {sizes, Ints(kInt64, {2}, {Dim(), Dim::Const(-1)})}, &u);
    EXPECT_EQ(run.Summary(), "int64[2]");
    ASSERT_TRUE(run.values[0]);
    EXPECT_EQ(ValueText(*run.values[0]), "[n__e0, 512]");
  }
  {
    // Every element in reach is the same: the value is that constant, no symbol is made.
    symbolic::Unifier u;
    ASSERT_TRUE(u.AssumeAtMost("K", 1, "a test").ok());
    auto run = RunRule(BuiltinSchemas(), gather, 13, {T("int64[3]"), T("int64[]")},
                       {Int64s({5, 5, 9}), Scalar(Dim::Symbol("K"))}, &u);
    ASSERT_TRUE(run.values[0]);
    EXPECT_EQ(ValueText(*run.values[0]), "[5]");
    EXPECT_EQ(BoundsText(u), "0 <= K <= 1: K <= 1 (a test);\n");
  }
  {
    // A table with a negative element: a symbol is a size (>= 0) and cannot stand for it.
    symbolic::Unifier u;
    auto run = RunRule(BuiltinSchemas(), gather, 13, {T("int64[3]"), T("int64[]")},
                       {Int64s({-1, 4, 8}), std::nullopt}, &u);
    EXPECT_FALSE(run.values[0]);
    EXPECT_EQ(BoundsText(u), "");
  }
  {
    // Without a unifier (a rule run alone) there is nowhere to keep the bounds: unknown.
    auto run =
        RunRule(BuiltinSchemas(), gather, 13, {T("int64[3]"), T("int64[]")}, {sizes, std::nullopt});
    EXPECT_FALSE(run.values[0]);
  }
  {
    // A known index out of range is still the error it was.
    symbolic::Unifier u;
    auto run = RunRule(BuiltinSchemas(), gather, 13, {T("int64[3]"), T("int64[2]")},
                       {sizes, Ints(kInt64, {2}, {Dim(), Dim::Const(3)})}, &u);
    EXPECT_EQ(run.status.message(), "input 1 'indices': index 3 is out of range for 3 elements");
  }
  {
    // A row of a 2-D table of shapes: each element ranges over its column, a column of one
    // value is that value.
    symbolic::Unifier u;
    auto run = RunRule(BuiltinSchemas(), Node("Gather", {"shapes", "i"}, {"s"}), 13,
                       {T("int64[3, 2]"), T("int64[]")},
                       {Ints(kInt64, {3, 2},
                             {Dim::Const(1), Dim::Const(256), Dim::Const(1), Dim::Const(128),
                              Dim::Const(1), Dim::Const(512)}),
                        std::nullopt},
                       &u);
    EXPECT_EQ(run.Summary(), "int64[2]");
    ASSERT_TRUE(run.values[0]);
    EXPECT_EQ(ValueText(*run.values[0]), "[1, s__e1]");
    EXPECT_NE(BoundsText(u).find("128 <= s__e1 <= 512: s__e1 >= 128 (node of output 's' "
                                 "(Gather): an element of constant 'shapes' [3x2 values] along "
                                 "axis 0)"),
              std::string::npos)
        << BoundsText(u);
    // Along axis 1, by indices [?, 0]: rows stay, each unknown element ranges over its row.
    symbolic::Unifier u2;
    auto by_column =
        RunRule(BuiltinSchemas(), Node("Gather", {"shapes", "i"}, {"s"}, IntAttr("axis", 1)), 13,
                {T("int64[3, 2]"), T("int64[2]")},
                {Ints(kInt64, {3, 2},
                      {Dim::Const(1), Dim::Const(256), Dim::Const(1), Dim::Const(128),
                       Dim::Const(1), Dim::Const(512)}),
                 Ints(kInt64, {2}, {Dim(), Dim::Const(0)})},
                &u2);
    EXPECT_EQ(by_column.Summary(), "int64[3, 2]");
    ASSERT_TRUE(by_column.values[0]);
    EXPECT_EQ(ValueText(*by_column.values[0]), "[s__e0, 1, s__e2, 1, s__e4, 1]");
    EXPECT_NE(BoundsText(u2).find("1 <= s__e4 <= 512"), std::string::npos) << BoundsText(u2);
  }
  {
    // GatherElements of a 1-D table reads it as Gather does.
    symbolic::Unifier u;
    auto run = RunRule(BuiltinSchemas(), Node("GatherElements", {"sizes", "i"}, {"e"}), 13,
                       {T("int64[3]"), T("int64[2]")},
                       {sizes, Ints(kInt64, {2}, {Dim(), Dim::Const(0)})}, &u);
    EXPECT_EQ(run.Summary(), "int64[2]");
    ASSERT_TRUE(run.values[0]);
    EXPECT_EQ(ValueText(*run.values[0]), "[e__e0, 256]");
    EXPECT_NE(BoundsText(u).find("128 <= e__e0 <= 512"), std::string::npos) << BoundsText(u);
  }
}

}  // namespace
}  // namespace onnx_infer
