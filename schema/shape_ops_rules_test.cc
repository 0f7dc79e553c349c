// Table tests of the shape-tensor operators, and of the values they propagate.
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
    v.ints.push_back(std::isdigit(static_cast<unsigned char>(i[0])) || i[0] == '-'
                         ? Dim::Const(std::stoll(i))
                         : T("int64[" + i + "]").shape()[0]);  // a symbol or an expression
  }
  return v;
}

ConstValue Scalar(int64_t x) { return ConstValue{kInt64, {}, {Dim::Const(x)}, {}}; }

class ShapeOpsTest : public ::testing::TestWithParam<Case> {};

TEST_P(ShapeOpsTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, c.opset, inputs, c.values);
  EXPECT_TRUE(RunMatches(run, c.expected));
  if (ExpectsError(c.expected)) return;
  std::string value;
  if (!run.values.empty() && run.values[0]) {
    value = "[" + (run.values[0]->ints.empty() ? StrJoin(run.values[0]->reals, ", ")
                                               : StrJoin(run.values[0]->ints, ", ")) + "]";
  }
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
             {"int64[2]", "float[]"}, {Dims({"B", "4"})}, "float[2]", ""},
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
             {Dims({"B", "S"})}, "int64[2]", "[B, S]"}));

}  // namespace
}  // namespace onnx_infer
