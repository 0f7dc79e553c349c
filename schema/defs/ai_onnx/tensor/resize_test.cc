// Table tests of the resampling family (tensor/resize.cc, tensor/pad.cc): Resize, Upsample, Pad,
// CenterCropPad, GridSample, AffineGrid, Col2Im.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::RunRule;
using testing::T;
using testing::RunMatches;
using testing::IntsAttr;

struct Case {
  const char* name;
  std::string node;  // NodeProto text
  int64_t opset;
  std::vector<const char*> inputs;  // types, "" for unknown
  std::vector<std::optional<ConstValue>> values;
  std::string expected;  // RuleRun::Summary(), or "error: <part of the message>"
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

class ResizeRuleTest : public ::testing::TestWithParam<Case> {};

TEST_P(ResizeRuleTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, c.opset, inputs, c.values);
  EXPECT_TRUE(RunMatches(run, c.expected));
}

// A float vector value (scales, roi).
ConstValue Floats(std::vector<double> values) {
  ConstValue v;
  v.elem_type = kFloat;
  v.dims = {static_cast<int64_t>(values.size())};
  v.reals = std::move(values);
  return v;
}

// An int64 vector of constants and symbols: Dims({"N", "3"}).
ConstValue Dims(std::vector<std::string> items) {
  ConstValue v;
  v.elem_type = kInt64;
  v.dims = {static_cast<int64_t>(items.size())};
  for (const auto& i : items) {
    v.ints.push_back(std::isdigit(static_cast<unsigned char>(i[0])) || i[0] == '-'
                         ? Dim::Const(std::stoll(i))
                         : Dim::Symbol(i));
  }
  return v;
}

std::string Node(const char* op, std::vector<const char*> inputs, const std::string& attrs = "") {
  std::string s = std::string(R"(op_type: ")") + op + R"(")";
  for (const char* i : inputs) s += std::string(R"( input: ")") + i + R"(")";
  return s + R"( output: "y")" + attrs;
}

std::string StrAttr(const char* name, const char* s) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: STRING s: ")" + s + R"(" })";
}

std::string FloatAttr(const char* name, float f) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: FLOAT f: )" +
         std::to_string(f) + " }";
}

std::string FloatsAttr(const char* name, std::vector<float> v) {
  std::string s = std::string(R"( attribute { name: ")") + name + R"(" type: FLOATS)";
  for (float f : v) s += " floats: " + std::to_string(f);
  return s + " }";
}

const std::vector<const char*> kResize13 = {"x", "", "scales"};
const std::vector<const char*> kResize13Sizes = {"x", "", "", "sizes"};

INSTANTIATE_TEST_SUITE_P(
    Resize, ResizeRuleTest,
    ::testing::Values(
        Case{"resize10_scales", Node("Resize", {"x", "scales"}), 10,
             {"float[1, 3, 4, 5]", "float[4]"}, {std::nullopt, Floats({1, 1, 2, 2})},
             "float[1, 3, 8, 10]"},
        Case{"resize10_integer_scales_of_symbols", Node("Resize", {"x", "scales"}), 10,
             {"float[N, 3, H, W]", "float[4]"}, {std::nullopt, Floats({1, 1, 2, 3})},
             "float[N, 3, 2*H, 3*W]"},
        Case{"resize10_scales_unknown_keep_rank", Node("Resize", {"x", "scales"}), 10,
             {"float[N, 3, H, W]", "float[4]"}, {}, "float[?, ?, ?, ?]"},
        Case{"resize10_wrong_scale_count", Node("Resize", {"x", "scales"}), 10,
             {"float[1, 3, 4, 5]", "float[3]"}, {std::nullopt, Floats({1, 2, 2})},
             "error: input 1 'scales': expected 4 values (the rank of X), got 3"},
        Case{"resize10_non_positive_scale", Node("Resize", {"x", "scales"}), 10,
             {"float[1, 3, 4, 5]", "float[4]"}, {std::nullopt, Floats({1, 1, 0, 2})},
             "error: input 1 'scales': expected scales > 0, got 0"},
        Case{"resize11_sizes_with_empty_scales", Node("Resize", {"x", "roi", "scales", "sizes"}),
             11, {"uint8[1, 3, 4, 5]", "float[0]", "float[0]", "int64[4]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({1, 3, 7, 9})},
             "uint8[1, 3, 7, 9]"},
        Case{"resize11_scales_with_roi_ignored", Node("Resize", {"x", "roi", "scales"}), 11,
             {"float[1, 3, 4, 5]", "float[0]", "float[4]"},
             {std::nullopt, std::nullopt, Floats({1, 1, 0.5, 0.6})}, "float[1, 3, 2, 3]"},
        Case{"resize11_both_scales_and_sizes", Node("Resize", {"x", "roi", "scales", "sizes"}),
             11, {"float[1, 3, 4, 5]", "float[0]", "float[4]", "int64[4]"}, {},
             "error: input 3 'sizes': expected no sizes when scales are given, got both"},
        Case{"resize11_neither", Node("Resize", {"x", "roi", "scales"}), 11,
             {"float[1, 3, 4, 5]", "float[0]", "float[0]"}, {},
             "error: expected one of them, got neither"},
        Case{"resize13_half_scale_of_symbols", Node("Resize", kResize13), 13,
             {"float[N, C, H, W]", "", "float[4]"},
             {std::nullopt, std::nullopt, Floats({1, 1, 0.5, 1.5})},
             "float[N, C, floor(H/2), W + floor(W/2)]"},
        Case{"resize13_inexact_scale_of_symbol_unknown", Node("Resize", kResize13), 13,
             {"float[N, C, H, W]", "", "float[4]"},
             {std::nullopt, std::nullopt, Floats({1, 1, static_cast<float>(0.6), 2})},
             "float[N, C, ?, 2*W]"},
        // floor(10 * 0.7f): the exact product 6.99999988 floors to 6, the float32 product
        // rounds to 7: the dim depends on the implementation, so it stays unknown.
        Case{"resize13_huge_scale_of_symbol_unknown", Node("Resize", kResize13), 13,
             {"float[N, C, H, W]", "", "float[4]"},
             {std::nullopt, std::nullopt, Floats({1, 1, std::ldexp(1.0, 60), 4})}, "float[N, C, ?, 4*W]"},
        Case{"resize13_rounding_dependent_unknown", Node("Resize", kResize13), 13,
             {"float[1, 1, 10, 10]", "", "float[4]"},
             {std::nullopt, std::nullopt, Floats({1, 1, static_cast<float>(0.7), 0.5})},
             "float[1, 1, ?, 5]"},
        Case{"resize13_downsample_constant", Node("Resize", kResize13), 13,
             {"float[1, 1, 2, 4]", "", "float[4]"},
             {std::nullopt, std::nullopt, Floats({1, 1, static_cast<float>(0.6),
                                                  static_cast<float>(0.6)})},
             "float[1, 1, 1, 2]"},
        Case{"resize13_sizes_symbolic", Node("Resize", kResize13Sizes), 13,
             {"float[N, 3, H, W]", "", "", "int64[4]"},
             {std::nullopt, std::nullopt, std::nullopt, Dims({"N", "3", "S", "224"})},
             "float[N, 3, S, 224]"},
        Case{"resize13_sizes_unknown_keep_rank", Node("Resize", kResize13Sizes), 13,
             {"float[N, 3, H, W]", "", "", "int64[4]"}, {}, "float[?, ?, ?, ?]"},
        Case{"resize13_sizes_wrong_count", Node("Resize", kResize13Sizes), 13,
             {"float[N, 3, H, W]", "", "", "int64[2]"}, {},
             "error: input 3 'sizes': expected 4 values (the rank of X), got 2"},
        Case{"resize13_negative_size", Node("Resize", kResize13Sizes), 13,
             {"float[N, 3, H, W]", "", "", "int64[4]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({1, 3, -1, 4})},
             "error: input 3 'sizes': expected sizes >= 0, got -1"},
        Case{"resize13_rank_from_sizes", Node("Resize", kResize13Sizes), 13, {"float", "", "", "int64[3]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({2, 3, 4})}, "float[2, 3, 4]"},
        Case{"resize13_rank_from_scales_shape", Node("Resize", kResize13), 13,
             {"float", "", "float[3]"}, {}, "float[?, ?, ?]"},
        Case{"resize13_crop_and_resize_scales_need_roi",
             Node("Resize", {"x", "roi", "scales"},
                  StrAttr("coordinate_transformation_mode", "tf_crop_and_resize")),
             13, {"float[1, 1, 4, 4]", "float[8]", "float[4]"},
             {std::nullopt, std::nullopt, Floats({1, 1, 2, 2})}, "float[?, ?, ?, ?]"},
        Case{"resize13_crop_and_resize_whole_roi",
             Node("Resize", {"x", "roi", "scales"},
                  StrAttr("coordinate_transformation_mode", "tf_crop_and_resize")),
             13, {"float[1, 1, 4, 4]", "float[8]", "float[4]"},
             {std::nullopt, Floats({0, 0, 0, 0, 1, 1, 1, 1}), Floats({1, 1, 2, 2})},
             "float[1, 1, 8, 8]"},
        Case{"resize18_axes_scales", Node("Resize", kResize13, IntsAttr("axes", {2, 3})), 18,
             {"float[N, C, H, W]", "", "float[2]"},
             {std::nullopt, std::nullopt, Floats({2, 3})}, "float[N, C, 2*H, 3*W]"},
        Case{"resize18_negative_axes_sizes",
             Node("Resize", kResize13Sizes, IntsAttr("axes", {-1, -2})), 18,
             {"float[N, C, H, W]", "", "", "int64[2]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({8, 7})}, "float[N, C, 7, 8]"},
        Case{"resize18_axes_unknown_scales_keep_other_dims",
             Node("Resize", kResize13, IntsAttr("axes", {2, 3})), 18,
             {"float[N, C, H, W]", "", "float[2]"}, {}, "float[N, C, ?, ?]"},
        Case{"resize18_axes_wrong_count", Node("Resize", kResize13, IntsAttr("axes", {2, 3})),
             18, {"float[N, C, H, W]", "", "float[4]"},
             {std::nullopt, std::nullopt, Floats({1, 1, 2, 2})},
             "error: input 2 'scales': expected 2 values (the length of axes), got 4"},
        Case{"resize18_axes_repeated", Node("Resize", kResize13, IntsAttr("axes", {2, -2})),
             18, {"float[N, C, H, W]", "", "float[2]"}, {},
             "error: attribute 'axes': axis -2 is repeated"},
        Case{"resize18_not_larger", Node("Resize", kResize13Sizes,
                                         StrAttr("keep_aspect_ratio_policy", "not_larger") +
                                             IntsAttr("axes", {2, 3})),
             18, {"float[1, 1, 2, 2]", "", "", "int64[2]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({7, 8})}, "float[1, 1, 7, 7]"},
        // Over every axis the batch and channel sizes (1 of 1) hold the scale at 1.
        Case{"resize18_not_larger_all_axes", Node("Resize", kResize13Sizes,
                                                  StrAttr("keep_aspect_ratio_policy", "not_larger")),
             18, {"float[1, 1, 2, 2]", "", "", "int64[4]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({1, 1, 7, 8})},
             "float[1, 1, 2, 2]"},
        // not_smaller: scale = max(1/2, 3/4); 2 * 3/4 = 1.5 rounds half up to 2.
        Case{"resize18_not_smaller_half_rounds_up",
             Node("Resize", {"x", "", "", "sizes"},
                  StrAttr("keep_aspect_ratio_policy", "not_smaller") + IntsAttr("axes", {2, 3})),
             18, {"float[1, 1, 2, 4]", "", "", "int64[2]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({1, 3})}, "float[1, 1, 2, 3]"},
        Case{"resize18_not_larger_symbolic_unknown",
             Node("Resize", kResize13Sizes, StrAttr("keep_aspect_ratio_policy", "not_larger")),
             18, {"float[N, C, H, W]", "", "", "int64[4]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({1, 1, 7, 8})},
             "float[?, ?, ?, ?]"},
        Case{"resize18_not_larger_one_axis_exact",
             Node("Resize", kResize13Sizes,
                  StrAttr("keep_aspect_ratio_policy", "not_larger") + IntsAttr("axes", {3})),
             18, {"float[N, C, H, W]", "", "", "int64[1]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({8})}, "float[N, C, H, 8]"},
        Case{"resize18_bad_policy",
             Node("Resize", kResize13Sizes, StrAttr("keep_aspect_ratio_policy", "fit")), 18,
             {"float[N, C, H, W]", "", "", "int64[4]"}, {},
             "error: attribute 'keep_aspect_ratio_policy': expected stretch, not_larger or "
             "not_smaller, got 'fit'"},
        Case{"resize19_scales", Node("Resize", kResize13), 19,
             {"float16[2, 3, 4, 5]", "", "float[4]"},
             {std::nullopt, std::nullopt, Floats({1, 1, 0.25, 4})}, "float16[2, 3, 1, 20]"}));

INSTANTIATE_TEST_SUITE_P(
    Upsample, ResizeRuleTest,
    ::testing::Values(
        Case{"upsample1_height_width",
             Node("Upsample", {"x"}, FloatAttr("height_scale", 2) + FloatAttr("width_scale", 3)),
             1, {"float[N, C, H, 5]"}, {}, "float[N, C, 2*H, 15]"},
        Case{"upsample1_needs_rank_4",
             Node("Upsample", {"x"}, FloatAttr("height_scale", 2) + FloatAttr("width_scale", 3)),
             1, {"float[C, H, 5]"}, {}, "error: input 0 'X': expected rank 4 ([N, C, H, W]), got rank 3"},
        Case{"upsample1_scale_required", Node("Upsample", {"x"}, FloatAttr("height_scale", 2)),
             1, {"float[N, C, H, W]"}, {}, "error: attribute 'width_scale'"},
        Case{"upsample7_scales_attr",
             Node("Upsample", {"x"}, FloatsAttr("scales", {1, 1, 2, 2})), 7,
             {"int32[N, C, H, W]"}, {}, "int32[N, C, 2*H, 2*W]"},
        Case{"upsample7_scales_count",
             Node("Upsample", {"x"}, FloatsAttr("scales", {2, 2})), 7, {"float[N, C, H, W]"}, {},
             "error: attribute 'scales': expected 4 values (the rank of X), got 2"},
        Case{"upsample9_scales_input", Node("Upsample", {"x", "scales"}), 9,
             {"float[1, 1, 2, 2]", "float[4]"}, {std::nullopt, Floats({1, 1, 2, 3})},
             "float[1, 1, 4, 6]"},
        Case{"upsample9_scales_unknown", Node("Upsample", {"x", "scales"}), 9,
             {"float[1, 1, 2, 2]", "float[4]"}, {}, "float[?, ?, ?, ?]"},
        Case{"upsample10_scales_input", Node("Upsample", {"x", "scales"}), 10,
             {"float[N, 1, H, W]", "float[4]"}, {std::nullopt, Floats({1, 1, 2, 0.5})},
             "float[N, 1, 2*H, floor(W/2)]"}));

INSTANTIATE_TEST_SUITE_P(
    Pad, ResizeRuleTest,
    ::testing::Values(
        Case{"pad1_paddings_attr", Node("Pad", {"x"}, IntsAttr("paddings", {0, 0, 1, 1, 0, 0, 2, 2})),
             1, {"float[1, 3, 4, 5]"}, {}, "float[1, 3, 7, 8]"},
        Case{"pad2_pads_attr_symbolic", Node("Pad", {"x"}, IntsAttr("pads", {0, 1, 0, 2})), 2,
             {"float[N, H]"}, {}, "float[N, H + 3]"},
        Case{"pad2_pads_count", Node("Pad", {"x"}, IntsAttr("pads", {0, 1, 0})), 2,
             {"float[N, H]"}, {},
             "error: attribute 'pads': expected 4 values (twice the rank of data), got 3"},
        Case{"pad11_pads_input_negative_crops", Node("Pad", {"x", "pads"}), 11,
             {"int32[1, 3, 4, 5]", "int64[8]"},
             {std::nullopt, Int64s({0, 0, -1, 1, 0, 0, -1, 2})}, "int32[1, 3, 2, 8]"},
        Case{"pad11_cropped_below_zero", Node("Pad", {"x", "pads"}), 11,
             {"float[1, 3, 4, 5]", "int64[8]"},
             {std::nullopt, Int64s({0, 0, -3, 0, 0, 0, -2, 0})},
             "error: input 1 'pads': dim 2 of data (4) is cropped by more than its size"},
        Case{"pad11_pads_unknown", Node("Pad", {"x", "pads", "v"}), 11,
             {"float[N, 3, H, W]", "int64[8]", "float[]"}, {}, "float[?, ?, ?, ?]"},
        Case{"pad11_pads_wrong_length", Node("Pad", {"x", "pads"}), 11,
             {"float[N, 3, H, W]", "int64[6]"}, {},
             "error: input 1 'pads': expected 8 values (twice the rank of data), got 6"},
        Case{"pad11_rank_from_pads", Node("Pad", {"x", "pads"}), 11, {"float", "int64[6]"}, {},
             "float[?, ?, ?]"},
        Case{"pad11_wrap_is_19", Node("Pad", {"x", "pads"}, StrAttr("mode", "wrap")), 11,
             {"float[N, 3]", "int64[4]"}, {},
             "error: attribute 'mode': expected constant, reflect, edge, got 'wrap'"},
        Case{"pad13_symbolic_pads", Node("Pad", {"x", "pads"}, StrAttr("mode", "reflect")), 13,
             {"float[N, 3, H, W]", "int64[8]"},
             {std::nullopt, Dims({"0", "0", "P", "P", "0", "0", "P", "Q"})},
             "float[N, 3, H + 2*P, P + Q + W]"},
        Case{"pad18_axes", Node("Pad", {"x", "pads", "", "axes"}), 18,
             {"float[1, 3, 4, 5]", "int64[4]", "", "int64[2]"},
             {std::nullopt, Int64s({0, 3, 0, 4}), std::nullopt, Int64s({1, 3})},
             "float[1, 3, 4, 12]"},
        Case{"pad18_negative_axes", Node("Pad", {"x", "pads", "", "axes"}), 18,
             {"float[N, 3, H, W]", "int64[4]", "", "int32[2]"},
             {std::nullopt, Int64s({0, 3, 0, 4}), std::nullopt, Int64s({-3, -1})},
             "float[N, 3, H, W + 7]"},
        Case{"pad18_axes_unknown", Node("Pad", {"x", "pads", "", "axes"}), 18,
             {"float[N, 3, H, W]", "int64[4]", "", "int64[2]"},
             {std::nullopt, Int64s({0, 3, 0, 4})}, "float[?, ?, ?, ?]"},
        Case{"pad18_axes_pads_unknown_keep_others", Node("Pad", {"x", "pads", "", "axes"}), 18,
             {"float[N, 3, H, W]", "int64[4]", "", "int64[2]"},
             {std::nullopt, std::nullopt, std::nullopt, Int64s({2, 3})}, "float[N, 3, ?, ?]"},
        Case{"pad18_axes_pads_count", Node("Pad", {"x", "pads", "", "axes"}), 18,
             {"float[N, 3, H, W]", "int64[8]", "", "int64[2]"},
             {std::nullopt, Int64s({0, 0, 0, 1, 0, 0, 0, 1}), std::nullopt, Int64s({2, 3})},
             "error: input 1 'pads': expected 4 values (twice the number of axes), got 8"},
        Case{"pad19_wrap", Node("Pad", {"x", "pads"}, StrAttr("mode", "wrap")), 19,
             {"int32[1, 3, 4, 5]", "int64[8]"}, {std::nullopt, Int64s({0, 0, 1, 1, 0, 0, 1, 1})},
             "int32[1, 3, 6, 7]"},
        Case{"pad25_edge", Node("Pad", {"x", "pads"}, StrAttr("mode", "edge")), 25,
             {"bfloat16[B, 8]", "int64[4]"}, {std::nullopt, Int64s({1, 0, 1, 0})},
             "bfloat16[B + 2, 8]"}));

INSTANTIATE_TEST_SUITE_P(
    CenterCropPad, ResizeRuleTest,
    ::testing::Values(
        Case{"center_crop_pad_all_axes", Node("CenterCropPad", {"x", "s"}), 18,
             {"float[20, 8, 3]", "int64[3]"}, {std::nullopt, Int64s({10, 10, 3})},
             "float[10, 10, 3]"},
        Case{"center_crop_pad_axes", Node("CenterCropPad", {"x", "s"}, IntsAttr("axes", {1, 2})),
             18, {"float[3, H, W]", "int32[2]"}, {std::nullopt, Dims({"10", "S"})},
             "float[3, 10, S]"},
        Case{"center_crop_pad_negative_axes",
             Node("CenterCropPad", {"x", "s"}, IntsAttr("axes", {-3, -2})), 18,
             {"float[H, W, 3]", "int64[2]"}, {std::nullopt, Int64s({10, 9})}, "float[10, 9, 3]"},
        Case{"center_crop_pad_shape_unknown",
             Node("CenterCropPad", {"x", "s"}, IntsAttr("axes", {0, 1})), 18,
             {"float[H, W, 3]", "int64[2]"}, {}, "float[?, ?, 3]"},
        Case{"center_crop_pad_rank_unknown", Node("CenterCropPad", {"x", "s"}), 18,
             {"float", "int64[3]"}, {}, "float[?, ?, ?]"},
        Case{"center_crop_pad_wrong_count", Node("CenterCropPad", {"x", "s"}), 18,
             {"float[H, W, 3]", "int64[2]"}, {},
             "error: input 1 's': expected 3 values (the rank of input), got 2"}));

INSTANTIATE_TEST_SUITE_P(
    GridSample, ResizeRuleTest,
    ::testing::Values(
        Case{"gridsample16_2d", Node("GridSample", {"x", "grid"}), 16,
             {"float[N, C, H, W]", "float[N, Ho, Wo, 2]"}, {}, "float[N, C, Ho, Wo]"},
        Case{"gridsample16_batch_from_grid", Node("GridSample", {"x", "grid"}), 16,
             {"float[N, 3, H, W]", "float[2, 6, 6, 2]"}, {}, "float[2, 3, 6, 6]"},
        Case{"gridsample16_only_4d", Node("GridSample", {"x", "grid"}), 16,
             {"float[N, C, D, H, W]", "float[N, 2, 4, 2, 3]"}, {},
             "error: input 0 'x': expected rank 4, got rank 5"},
        Case{"gridsample20_3d", Node("GridSample", {"x", "grid"}), 20,
             {"double[1, 1, 3, 2, 2]", "float[1, 2, 4, 2, 3]"}, {}, "double[1, 1, 2, 4, 2]"},
        Case{"gridsample22_x_unknown", Node("GridSample", {"x", "grid"}), 22,
             {"float", "float[N, 2, 4, 2, 3]"}, {}, "float[N, ?, 2, 4, 2]"},
        Case{"gridsample22_grid_unknown", Node("GridSample", {"x", "grid"}), 22,
             {"float[N, C, H, W]", "float"}, {}, "float[N, C, ?, ?]"},
        Case{"gridsample20_last_dim", Node("GridSample", {"x", "grid"}), 20,
             {"float[N, C, H, W]", "float[N, 4, 4, 3]"}, {},
             "error: input 1 'grid': expected last dim 2 (the number of spatial dims), got 3"},
        Case{"gridsample20_rank_mismatch", Node("GridSample", {"x", "grid"}), 20,
             {"float[N, C, H, W]", "float[N, 4, 4, 4, 3]"}, {},
             "error: input 1 'grid': expected rank 4 (the rank of X), got rank 5"},
        Case{"gridsample20_batch_mismatch", Node("GridSample", {"x", "grid"}), 20,
             {"float[1, C, H, W]", "float[2, 4, 4, 2]"}, {},
             "error: input 1 'grid': expected batch dim 1 (X's), got 2"}));

INSTANTIATE_TEST_SUITE_P(
    AffineGrid, ResizeRuleTest,
    ::testing::Values(
        Case{"affine_grid_2d", Node("AffineGrid", {"theta", "size"}), 20,
             {"float[N, 2, 3]", "int64[4]"}, {std::nullopt, Dims({"N", "3", "H", "W"})},
             "float[N, H, W, 2]"},
        Case{"affine_grid_3d", Node("AffineGrid", {"theta", "size"}), 20,
             {"double[2, 3, 4]", "int64[5]"}, {std::nullopt, Int64s({2, 3, 4, 5, 6})},
             "double[2, 4, 5, 6, 3]"},
        Case{"affine_grid_size_unknown", Node("AffineGrid", {"theta", "size"}), 20,
             {"float[N, 2, 3]", "int64[4]"}, {}, "float[N, ?, ?, 2]"},
        Case{"affine_grid_dims_from_theta", Node("AffineGrid", {"theta", "size"}), 20,
             {"float[N, 3, 4]", "int64"}, {}, "float[N, ?, ?, ?, 3]"},
        Case{"affine_grid_theta_mismatch", Node("AffineGrid", {"theta", "size"}), 20,
             {"float[N, 2, 4]", "int64[4]"}, {},
             "error: input 0 'theta': expected [N, 2, 3], got [N, 2, 4]"},
        Case{"affine_grid_size_length", Node("AffineGrid", {"theta", "size"}), 20,
             {"float[N, 2, 3]", "int64[3]"}, {},
             "error: input 1 'size': expected 4 or 5 values, got 3"},
        Case{"affine_grid_batch_mismatch", Node("AffineGrid", {"theta", "size"}), 20,
             {"float[2, 2, 3]", "int64[4]"}, {std::nullopt, Int64s({3, 1, 4, 4})},
             "error: input 1 'size': expected batch size 2 (theta's), got 3"}));

INSTANTIATE_TEST_SUITE_P(
    Col2Im, ResizeRuleTest,
    ::testing::Values(
        Case{"col2im_2d", Node("Col2Im", {"x", "image", "block"}), 18,
             {"float[1, 5, 5]", "int64[2]", "int64[2]"},
             {std::nullopt, Int64s({5, 5}), Int64s({1, 5})}, "float[1, 1, 5, 5]"},
        Case{"col2im_strides_pads_dilations",
             Node("Col2Im", {"x", "image", "block"},
                  IntsAttr("strides", {2, 2}) + IntsAttr("pads", {1, 1, 1, 1}) +
                      IntsAttr("dilations", {1, 1})),
             18, {"float[N, 18, 9]", "int64[2]", "int64[2]"},
             {std::nullopt, Int64s({5, 5}), Int64s({3, 3})}, "float[N, 2, 5, 5]"},
        Case{"col2im_symbolic_channels", Node("Col2Im", {"x", "image", "block"}), 18,
             {"float[N, K, L]", "int64[2]", "int64[2]"},
             {std::nullopt, Dims({"H", "W"}), Int64s({2, 2})},
             "float[N, floor(K/4), H, W]"},
        Case{"col2im_values_unknown", Node("Col2Im", {"x", "image", "block"}), 18,
             {"float[N, K, L]", "int64[3]", "int64[3]"}, {}, "float[N, ?, ?, ?, ?]"},
        Case{"col2im_block_count", Node("Col2Im", {"x", "image", "block"}), 18,
             {"float[1, 5, 4]", "int64[2]", "int64[2]"},
             {std::nullopt, Int64s({5, 5}), Int64s({1, 5})},
             "error: input 0 'x': expected 5 blocks in dim 2"},
        Case{"col2im_channels_multiple", Node("Col2Im", {"x", "image", "block"}), 18,
             {"float[1, 7, 5]", "int64[2]", "int64[2]"},
             {std::nullopt, Int64s({5, 5}), Int64s({1, 5})},
             "error: input 0 'x': dim 1 (7) is not a multiple of the block size 5"},
        Case{"col2im_lengths_differ", Node("Col2Im", {"x", "image", "block"}), 18,
             {"float[1, 5, 5]", "int64[2]", "int64[3]"}, {},
             "error: input 2 'block': expected 2 values (as many as image_shape), got 3"},
        Case{"col2im_rank", Node("Col2Im", {"x", "image", "block"}), 18,
             {"float[5, 5]", "int64[2]", "int64[2]"}, {},
             "error: input 0 'x': expected rank 3, got rank 2"}));

// Dims a rule unifies are recorded as facts, so later nodes see them.
TEST(ResizeRuleFacts, GridSampleRecordsBatchAndSpatialDims) {
  symbolic::Unifier unifier;
  auto run = RunRule(BuiltinSchemas(), Node("GridSample", {"x", "grid"}), 20,
                     {T("float[N, C, H, W]"), T("float[M, 4, 4, K]")}, {}, &unifier);
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_EQ(run.Summary(), "float[M, C, 4, 4]");  // N == M: the unifier keeps one of them
  EXPECT_EQ(run.facts,
            (std::vector<std::string>{
                "K == 2 (node of output 'y' (GridSample): grid's last dim and the number of "
                "spatial dims)",
                "N == M (node of output 'y' (GridSample): batch dims of X and grid)"}));
}

}  // namespace
}  // namespace onnx_infer
