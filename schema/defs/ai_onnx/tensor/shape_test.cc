// Table tests of the shape-tensor operators, and of the values they propagate.
#include <cmath>

#include <gtest/gtest.h>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::RunRule;
using testing::T;
using testing::RunMatches;
using testing::ExpectsError;
using testing::ValueText;

struct Case {
  const char* name;
  const char* node;
  int64_t opset;
  std::vector<const char*> inputs;
  std::vector<std::optional<ConstValue>> values;
  std::string expected;        // output types, or "error: ..."
  std::string expected_value;  // output 0's value as "[a, b]", or "" for none
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

// A value of symbols and constants: Dims("B", "3").
ConstValue Dims(std::vector<std::string> items) {
  ConstValue v;
  v.elem_type = kInt64;
  v.dims = {static_cast<int64_t>(items.size())};
  for (const auto& i : items) {
    const bool integer = i.find_first_not_of("-0123456789") == std::string::npos;
    v.ints.push_back(integer ? Dim::Const(std::stoll(i))
                             : T("int64[" + i + "]").shape()[0]);  // a symbol or an expression
  }
  return v;
}

ConstValue Scalar(int64_t x) { return ConstValue{kInt64, {}, {Dim::Const(x)}, {}}; }

// An int64 value of any shape, elements as for Dims: Ints({3, 2}, {"0", "0", "N", ...}).
ConstValue Ints(std::vector<int64_t> dims, std::vector<std::string> items) {
  ConstValue v = Dims(std::move(items));
  v.dims = std::move(dims);
  return v;
}

// A float or double value of any shape.
ConstValue Reals(int32_t type, std::vector<int64_t> dims, std::vector<double> items) {
  return ConstValue{type, std::move(dims), {}, std::move(items)};
}

// A float scalar holding a symbolic size, as Cast(Shape(x)[i]) to float makes it.
ConstValue FloatSize(const char* dim) {
  ConstValue v{kFloat, {}, {}, {}};
  v.quotients.push_back(RealQuotient{T(std::string("int64[") + dim + "]").shape()[0], 1, false});
  return v;
}

class ShapeOpsTest : public ::testing::TestWithParam<Case> {};

TEST_P(ShapeOpsTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, c.opset, inputs, c.values);
  EXPECT_TRUE(RunMatches(run, c.expected));
  if (ExpectsError(c.expected)) return;
  std::string value;
  if (!run.values.empty() && run.values[0]) value = ValueText(*run.values[0]);
  EXPECT_EQ(value, c.expected_value);
}

#define NODE(op, ins) R"(op_type: ")" op R"(" )" ins R"( output: "y")"

INSTANTIATE_TEST_SUITE_P(
    Table, ShapeOpsTest,
    ::testing::Values(
        Case{"shape_symbolic_value", NODE("Shape", R"(input: "x")"), 13, {"float[B, S, 768]"}, {},
             "int64[3]", "[B, S, 768]"},
        Case{"shape_start_end", R"(op_type: "Shape" input: "x" output: "y" attribute { name: "start" type: INT i: 1 } attribute { name: "end" type: INT i: -1 })",
             15, {"float[B, S, 768]"}, {}, "int64[1]", "[S]"},
        Case{"shape_start_end_clamped", R"(op_type: "Shape" input: "x" output: "y" attribute { name: "start" type: INT i: -10 } attribute { name: "end" type: INT i: 10 })",
             15, {"float[B, S]"}, {}, "int64[2]", "[B, S]"},
        Case{"shape_rank_unknown", NODE("Shape", R"(input: "x")"), 13, {"float"}, {}, "int64[?]",
             ""},
        Case{"size", NODE("Size", R"(input: "x")"), 13, {"float[2, 3, 4]"}, {}, "int64[]", "[24]"},
        Case{"gather_shape_element", NODE("Gather", R"(input: "s" input: "i")"), 13,
             {"int64[3]", "int64[]"}, {Dims({"B", "S", "768"}), Scalar(1)}, "int64[]", "[S]"},
        Case{"gather_negative_index", NODE("Gather", R"(input: "s" input: "i")"), 13,
             {"int64[3]", "int64[1]"}, {Dims({"B", "S", "768"}), Int64s({-1})}, "int64[1]",
             "[768]"},
        Case{"gather_axis_shape", R"(op_type: "Gather" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
             13, {"float[N, 5, 7]", "int64[2, 3]"}, {}, "float[N, 2, 3, 7]", ""},
        Case{"gather_index_out_of_range", NODE("Gather", R"(input: "s" input: "i")"), 13,
             {"int64[2]", "int64[]"}, {Dims({"B", "S"}), Scalar(2)},
             "error: index 2 is out of range for 2 elements", ""},
        Case{"gather_elements_takes_the_indices_shape", R"(op_type: "GatherElements" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
             13, {"float[N, 5]", "int64[N, K]"}, {}, "float[N, K]", ""},
        Case{"gather_elements_rank_mismatch", NODE("GatherElements", R"(input: "x" input: "i")"),
             11, {"float[N, 5]", "int64[3]"}, {},
             "error: input 1 'indices': expected rank 2 (the rank of data), got rank 1", ""},
        Case{"gather_elements_axis_out_of_range", R"(op_type: "GatherElements" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 2 })",
             13, {"float[N, 5]", "int64[N, 2]"}, {},
             "error: attribute 'axis': expected an axis in [-2, 1] for rank 2, got 2", ""},
        Case{"unsqueeze_input_axes", NODE("Unsqueeze", R"(input: "x" input: "a")"), 13,
             {"int64[]", "int64[1]"}, {Scalar(7), Int64s({0})}, "int64[1]", "[7]"},
        Case{"unsqueeze_attribute_axes", R"(op_type: "Unsqueeze" input: "x" output: "y" attribute { name: "axes" type: INTS ints: 0 ints: -1 })",
             11, {"float[N, 3]"}, {}, "float[1, N, 3, 1]", ""},
        Case{"unsqueeze_unknown_axes_value", NODE("Unsqueeze", R"(input: "x" input: "a")"), 13,
             {"float[N, 3]", "int64[2]"}, {}, "float[?, ?, ?, ?]", ""},
        Case{"unsqueeze_repeated_axis", R"(op_type: "Unsqueeze" input: "x" output: "y" attribute { name: "axes" type: INTS ints: 0 ints: 0 })",
             11, {"float[3]"}, {}, "error: axes: axis 0 is repeated", ""},
        Case{"squeeze_given_axes", NODE("Squeeze", R"(input: "x" input: "a")"), 13,
             {"float[1, N, 1]", "int64[1]"}, {std::nullopt, Int64s({0})}, "float[N, 1]", ""},
        Case{"squeeze_all_ones", NODE("Squeeze", R"(input: "x")"), 13, {"float[1, 4, 1]"}, {},
             "float[4]", ""},
        Case{"squeeze_all_needs_known_dims", NODE("Squeeze", R"(input: "x")"), 13,
             {"float[1, N]"}, {}, "float", ""},
        Case{"squeeze_not_one", NODE("Squeeze", R"(input: "x" input: "a")"), 13,
             {"float[2, 3]", "int64[1]"}, {std::nullopt, Int64s({0})},
             "error: axes: dim 0 is 2, not 1", ""},
        Case{"squeeze_unknown_axes_value", NODE("Squeeze", R"(input: "x" input: "a")"), 13,
             {"float[1, N, 1]", "int64[2]"}, {}, "float[?]", ""},
        Case{"cast_keeps_symbolic_values", R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 6 })",
             13, {"int64[2]"}, {Dims({"B", "4"})}, "int32[2]", "[B, 4]"},
        Case{"cast_to_float", R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 1 })",
             13, {"int64[2]"}, {Int64s({3, 4})}, "float[2]", "[3, 4]"},
        Case{"cast_overflow_drops_value", R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 3 })",
             13, {"int64[1]"}, {Int64s({300})}, "int8[1]", ""},
        Case{"castlike_takes_the_target_type", NODE("CastLike", R"(input: "x" input: "t")"), 15,
             {"int64[2]", "float[]"}, {Dims({"B", "4"})}, "float[2]", "[B, 4]"},
        Case{"castlike_keeps_integer_values", NODE("CastLike", R"(input: "x" input: "t")"), 21,
             {"int64[2]", "int32[7]"}, {Dims({"B", "4"})}, "int32[2]", "[B, 4]"},
        Case{"castlike_unknown_target_keeps_shape", NODE("CastLike", R"(input: "x" input: "t")"),
             19, {"float[N, 3]", "?"}, {}, "?[N, 3]", ""},
        Case{"slice_shape_value", NODE("Slice", R"(input: "s" input: "b" input: "e")"), 13,
             {"int64[3]", "int64[1]", "int64[1]"},
             {Dims({"B", "S", "768"}), Int64s({0}), Int64s({2})}, "int64[2]", "[B, S]"},
        Case{"slice_negative_step", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13, {"int64[5]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {Int64s({1, 2, 3, 4, 5}), Int64s({-1}), Int64s({-6}), Int64s({0}), Int64s({-2})},
             "int64[3]", "[5, 3, 1]"},
        Case{"slice_to_end_of_symbolic_dim", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13, {"float[N, 10]", "int64[2]", "int64[2]", "int64[2]"},
             {std::nullopt, Int64s({0, 2}), Int64s({INT64_MAX, -2}), Int64s({0, 1})},
             "float[N, 6]", ""},
        Case{"slice_symbolic_bounds", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13, {"float[B, C, P + K - 1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"P"}), Dims({"P + K - 1"}), Int64s({2})}, "float[B, C, Max(0, K - 1)]",
             ""},
        Case{"slice_last_three_of_symbolic_dim", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13, {"float[N, 10]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({-3}), Int64s({INT64_MAX}), Int64s({0})}, "float[Min(3, N), 10]",
             ""},
        Case{"slice_symbolic_start_constant_dim", NODE("Slice", R"(input: "x" input: "b" input: "e")"),
             13, {"float[10]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"K"}), Int64s({INT64_MAX})}, "float[Max(0, -K + 10)]", ""},
        Case{"slice_drop_first_of_symbolic_dim", NODE("Slice", R"(input: "x" input: "b" input: "e")"),
             13, {"float[N]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({1}), Int64s({INT64_MAX})}, "float[Max(0, N - 1)]", ""},
        Case{"slice_reverse_symbolic_dim", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13, {"float[N]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({-1}), Int64s({INT64_MIN}), Int64s({0}), Int64s({-1})},
             "float[N]", ""},
        Case{"slice_symbolic_step_two", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13, {"float[N]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Int64s({INT64_MAX}), Int64s({0}), Int64s({2})},
             "float[floor((N + 1)/2)]", ""},
        Case{"slice_symbolic_start_and_end", NODE("Slice", R"(input: "x" input: "b" input: "e")"),
             13, {"float[N]", "int64[1]", "int64[1]"}, {std::nullopt, Dims({"A"}), Dims({"A + 4"})},
             "float[Max(0, -Min(A, N) + Min(N, A + 4))]", ""},
        Case{"slice_reverse_by_two_from_symbolic_start", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13, {"float[N]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"A"}), Int64s({0}), Int64s({0}), Int64s({-2})},
             "float[Min(N, floor((Max(0, -Min(0, N - 1) + Min(A, N - 1)) + 1)/2))]", ""},
        Case{"slice_start_that_may_be_negative", NODE("Slice", R"(input: "x" input: "b" input: "e")"),
             13, {"float[N]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"N - 4"}), Int64s({INT64_MAX})}, "float[?]", ""},
        Case{"slice_unknown_starts", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13, {"float[N, 10]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({1})}, "float[N, ?]", ""},
        Case{"slice_v1_attributes", R"(op_type: "Slice" input: "x" output: "y" attribute { name: "starts" type: INTS ints: 1 } attribute { name: "ends" type: INTS ints: 3 })",
             1, {"float[10, 4]"}, {}, "float[2, 4]", ""},
        Case{"slice_zero_step", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13, {"float[10]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Int64s({5}), Int64s({0}), Int64s({0})},
             "error: steps: a step of 0", ""},
        Case{"constant_of_shape_symbolic", NODE("ConstantOfShape", R"(input: "s")"), 9,
             {"int64[2]"}, {Dims({"B", "4"})}, "float[B, 4]", ""},
        Case{"constant_of_shape_typed_value", R"(op_type: "ConstantOfShape" input: "s" output: "y" attribute { name: "value" type: TENSOR t { data_type: 7 dims: 1 int64_data: 5 } })",
             9, {"int64[1]"}, {Int64s({3})}, "int64[3]", "[5, 5, 5]"},
        Case{"constant_of_shape_rank_only", NODE("ConstantOfShape", R"(input: "s")"), 9,
             {"int64[3]"}, {}, "float[?, ?, ?]", ""},
        Case{"range_ints", NODE("Range", R"(input: "a" input: "b" input: "c")"), 11,
             {"int64[]", "int64[]", "int64[]"}, {Scalar(1), Scalar(10), Scalar(3)}, "int64[3]",
             "[1, 4, 7]"},
        Case{"range_negative_delta", NODE("Range", R"(input: "a" input: "b" input: "c")"), 11,
             {"int64[]", "int64[]", "int64[]"}, {Scalar(10), Scalar(4), Scalar(-3)}, "int64[2]",
             "[10, 7]"},
        Case{"range_symbolic_limit", NODE("Range", R"(input: "a" input: "b" input: "c")"), 11,
             {"int64[]", "int64[]", "int64[]"}, {Scalar(0), Dims({"N"}), Scalar(1)}, "int64[N]",
             ""},
        Case{"range_symbolic_step_two", NODE("Range", R"(input: "a" input: "b" input: "c")"), 11,
             {"int64[]", "int64[]", "int64[]"}, {Scalar(1), Dims({"N"}), Scalar(2)},
             "int64[floor(N/2)]", ""},
        Case{"range_symbolic_negative_step", NODE("Range", R"(input: "a" input: "b" input: "c")"),
             11, {"int64[]", "int64[]", "int64[]"}, {Dims({"N"}), Scalar(0), Scalar(-1)},
             "int64[N]", ""},
        Case{"range_unknown", NODE("Range", R"(input: "a" input: "b" input: "c")"), 11,
             {"float[]", "float[]", "float[]"}, {}, "float[?]", ""},
        Case{"tile", NODE("Tile", R"(input: "x" input: "r")"), 13, {"float[2, 3]", "int64[2]"},
             {std::nullopt, Int64s({3, 1})}, "float[6, 3]", ""},
        Case{"tile_repeats_a_shape_value", NODE("Tile", R"(input: "x" input: "r")"), 13,
             {"int64[2]", "int64[1]"}, {Dims({"B", "S"}), Int64s({2})}, "int64[4]",
             "[B, S, B, S]"},
        Case{"tile_two_dims_value", NODE("Tile", R"(input: "x" input: "r")"), 13,
             {"int64[2, 1]", "int64[2]"},
             {ConstValue{kInt64, {2, 1}, {Dim::Const(1), Dim::Const(2)}, {}}, Int64s({2, 2})},
             "int64[4, 2]", "[1, 1, 2, 2, 1, 1, 2, 2]"},
        Case{"tile_wrong_length", NODE("Tile", R"(input: "x" input: "r")"), 13,
             {"float[2, 3]", "int64[1]"}, {std::nullopt, Int64s({3})},
             "error: input 1 'r': expected 2 values, got 1", ""},
        Case{"where_broadcasts_and_selects", NODE("Where", R"(input: "c" input: "x" input: "y")"),
             16, {"bool[2]", "int64[2]", "int64[2]"},
             {Int64s({1, 0}), Dims({"B", "1"}), Dims({"7", "S"})}, "int64[2]", "[B, S]"},
        Case{"flatten", R"(op_type: "Flatten" input: "x" output: "y" attribute { name: "axis" type: INT i: 2 })",
             13, {"float[2, 3, 4, 5]"}, {}, "float[6, 20]", ""},
        Case{"flatten_axis_zero", R"(op_type: "Flatten" input: "x" output: "y" attribute { name: "axis" type: INT i: 0 })",
             13, {"float[2, 3]"}, {}, "float[1, 6]", ""},
        Case{"identity_passes_values", NODE("Identity", R"(input: "x")"), 16, {"int64[2]"},
             {Dims({"B", "S"})}, "int64[2]", "[B, S]"},

        // Values of any rank (F.pad's pads: [3, 2] pairs reversed by a Slice of step -1).
        Case{"slice_rank2_value_reversed_rows", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13, {"int64[3, 2]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {Ints({3, 2}, {"3", "5", "0", "0", "N", "1"}), Int64s({-1}),
              Int64s({INT64_MIN + 1}), Int64s({0}), Int64s({-1})},
             "int64[3, 2]", "[N, 1, 0, 0, 3, 5]"},
        Case{"slice_rank2_value_columns", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a" input: "st")"),
             13, {"int64[2, 3]", "int64[1]", "int64[1]", "int64[1]", "int64[1]"},
             {Ints({2, 3}, {"B", "S", "8", "1", "2", "3"}), Int64s({0}), Int64s({INT64_MAX}),
              Int64s({1}), Int64s({2})},
             "int64[2, 2]", "[B, 8, 1, 3]"},
        Case{"slice_float_value", NODE("Slice", R"(input: "x" input: "b" input: "e")"), 13,
             {"float[4]", "int64[1]", "int64[1]"},
             {Reals(kFloat, {4}, {0.5, 1, 2, 4}), Int64s({1}), Int64s({3})}, "float[2]", "[1, 2]"},
        Case{"gather_rows_of_rank2_value", NODE("Gather", R"(input: "x" input: "i")"), 13,
             {"int64[2, 3]", "int64[2]"}, {Ints({2, 3}, {"B", "S", "8", "1", "2", "3"}), Int64s({1, 0})},
             "int64[2, 3]", "[1, 2, 3, B, S, 8]"},
        Case{"gather_column_by_scalar", R"(op_type: "Gather" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
             13, {"int64[2, 3]", "int64[]"}, {Ints({2, 3}, {"B", "S", "8", "1", "2", "3"}), Scalar(-1)},
             "int64[2]", "[8, 3]"},
        Case{"gather_rank2_index_out_of_range", R"(op_type: "Gather" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
             13, {"int64[2, 3]", "int64[]"}, {Ints({2, 3}, {"B", "S", "8", "1", "2", "3"}), Scalar(3)},
             "error: index 3 is out of range for 3 elements", ""},
        Case{"gather_elements_value", R"(op_type: "GatherElements" input: "x" input: "i" output: "y" attribute { name: "axis" type: INT i: 1 })",
             13, {"int64[2, 2]", "int64[2, 1]"}, {Ints({2, 2}, {"B", "S", "H", "W"}), Ints({2, 1}, {"1", "0"})},
             "int64[2, 1]", "[S, H]"},
        Case{"where_rank2_broadcast_condition", NODE("Where", R"(input: "c" input: "x" input: "y")"),
             16, {"bool[2, 1]", "int64[2, 2]", "int64[]"},
             {Ints({2, 1}, {"1", "0"}), Ints({2, 2}, {"B", "S", "H", "W"}), Scalar(0)},
             "int64[2, 2]", "[B, S, 0, 0]"},
        Case{"where_unknown_condition_drops_value", NODE("Where", R"(input: "c" input: "x" input: "y")"),
             16, {"bool[1]", "int64[1]", "int64[1]"}, {std::nullopt, Dims({"B"}), Dims({"S"})},
             "int64[1]", ""},
        Case{"tile_value_any_rank_reals", NODE("Tile", R"(input: "x" input: "r")"), 13,
             {"float[1, 2]", "int64[2]"}, {Reals(kFloat, {1, 2}, {1, 2}), Int64s({2, 1})},
             "float[2, 2]", "[1, 2, 1, 2]"},
        Case{"flatten_value", R"(op_type: "Flatten" input: "x" output: "y" attribute { name: "axis" type: INT i: 1 })",
             13, {"int64[2, 1, 2]"}, {Ints({2, 1, 2}, {"B", "S", "H", "W"})}, "int64[2, 2]",
             "[B, S, H, W]"},
        Case{"constant_of_shape_default_float_zeros", NODE("ConstantOfShape", R"(input: "s")"), 9,
             {"int64[1]"}, {Int64s({2})}, "float[2]", "[0, 0]"},
        Case{"constant_of_shape_untracked_fill_type", R"(op_type: "ConstantOfShape" input: "s" output: "y" attribute { name: "value" type: TENSOR t { data_type: 10 dims: 1 int32_data: 15360 } })",
             9, {"int64[1]"}, {Int64s({2})}, "float16[2]", ""},

        // Casts between integers and floats (values_ops.h: CastValue).
        Case{"cast_reals_truncate_to_int", R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 7 })",
             13, {"float[3]"}, {Reals(kFloat, {3}, {2.9, -2.9, 0})}, "int64[3]", "[2, -2, 0]"},
        Case{"cast_nan_to_int_drops_value", R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 7 })",
             13, {"float[1]"}, {Reals(kFloat, {1}, {std::nan("")})}, "int64[1]", ""},
        Case{"cast_float32_rounds", R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 1 })",
             13, {"int64[1]"}, {Int64s({16777217})}, "float[1]", "[1.67772e+07]"},
        Case{"cast_symbolic_size_to_float", R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 1 })",
             13, {"int64[2]"}, {Dims({"H", "4"})}, "float[2]", "[H, 4]"},
        Case{"cast_float_size_back_to_int", R"(op_type: "Cast" input: "x" output: "y" attribute { name: "to" type: INT i: 7 })",
             13, {"float[]"}, {FloatSize("H")}, "int64[]", "[H]"},

        // Symbolic negative starts (pattern 2 of issue 15): -S is S from the end unless S is
        // 0, when the slice takes everything.
        Case{"slice_symbolic_negative_start", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13, {"float[B, T]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"-S"}), Int64s({INT64_MAX}), Int64s({1})},
             "float[B, -T*Min(1, S) + Min(1, S)*Min(S, T) + T]", ""},
        Case{"slice_symbolic_negative_start_of_own_dim", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13, {"float[B, T]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"-T"}), Int64s({INT64_MAX}), Int64s({1})}, "float[B, T]", ""},
        Case{"slice_symbolic_negative_start_one_more", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13, {"float[B, T]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Dims({"-S - 1"}), Int64s({INT64_MAX}), Int64s({1})},
             "float[B, Min(T, S + 1)]", ""},
        Case{"slice_symbolic_negative_end", NODE("Slice", R"(input: "x" input: "b" input: "e" input: "a")"),
             13, {"float[B, T]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({0}), Dims({"-S"}), Int64s({1})},
             "float[B, Min(1, S)*Max(0, -S + T)]", ""},

        // Float bounds holding sizes (pattern 4): Range(0.0, Cast(H), 1.0) has H elements.
        Case{"range_float_symbolic_limit", NODE("Range", R"(input: "a" input: "b" input: "c")"), 11,
             {"float[]", "float[]", "float[]"},
             {Reals(kFloat, {}, {0}), FloatSize("H"), Reals(kFloat, {}, {1})}, "float[H]", ""},
        Case{"range_float_symbolic_step_half", NODE("Range", R"(input: "a" input: "b" input: "c")"), 11,
             {"float[]", "float[]", "float[]"},
             {Reals(kFloat, {}, {0}), FloatSize("H"), Reals(kFloat, {}, {0.5})}, "float[2*H]", ""},
        Case{"range_float_symbolic_step_three", NODE("Range", R"(input: "a" input: "b" input: "c")"), 11,
             {"float[]", "float[]", "float[]"},
             {Reals(kFloat, {}, {1}), FloatSize("H"), Reals(kFloat, {}, {3})},
             "float[floor((H + 1)/3)]", ""},
        Case{"range_float_tenth_step_stays_unknown", NODE("Range", R"(input: "a" input: "b" input: "c")"), 11,
             {"float[]", "float[]", "float[]"},
             {Reals(kFloat, {}, {0}), FloatSize("H"), Reals(kFloat, {}, {0.1})}, "float[?]", ""}));

// A float computation of sizes records, where its result becomes an integer again, the
// condition under which the float arithmetic was exact.
TEST(FloatSizes, CastBackRecordsTheExactnessCondition) {
  ConstValue scaled{kFloat, {}, {}, {}};
  scaled.quotients.push_back(RealQuotient{Dim::Symbol("H") * Dim::Const(3), 2, false});
  scaled.conditions.push_back(ExactnessCondition{Dim::Symbol("H") * Dim::Const(3), 1 << 24, 24});
  symbolic::Unifier unifier;
  auto run = RunRule(BuiltinSchemas(),
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
