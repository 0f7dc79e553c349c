// Table tests of the object detection rules (object_detection.cc): RoiAlign,
// NonMaxSuppression.
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
using ObjectDetectionRuleTest = testing::RuleTableTest;

TEST_P(ObjectDetectionRuleTest, Infers) { EXPECT_TRUE(RunRuleCase(BuiltinSchemas(), GetParam())); }

INSTANTIATE_TEST_SUITE_P(
    ImagesAndBoxes, ObjectDetectionRuleTest,
    ::testing::Values(Case{"nms_10",
                           Node("NonMaxSuppression", {"b", "s", "m"}, {"y"}),
                           10,
                           {"float[B, S, 4]", "float[B, C, S]", "int64[1]"},
                           {},
                           "int64[?, 3]"},
                      Case{"nms_11_no_max_output_selects_nothing",
                           Node("NonMaxSuppression", {"b", "s"}, {"y"}),
                           11,
                           {"float[1, 6, 4]", "float[1, 1, 6]"},
                           {},
                           "int64[0, 3]"},
                      Case{"nms_11_max_output_zero",
                           Node("NonMaxSuppression", {"b", "s", "m"}, {"y"}),
                           11,
                           {"float[1, 6, 4]", "float[1, 1, 6]", "int64[1]"},
                           {Int64s({}), Int64s({}), Int64s({0})},
                           "int64[0, 3]"},
                      Case{"nms_11_max_output_negative_not_read",
                           Node("NonMaxSuppression", {"b", "s", "m"}, {"y"}),
                           11,
                           {"float[1, 6, 4]", "float[1, 1, 6]", "int64[1]"},
                           {Int64s({}), Int64s({}), Int64s({-1})},
                           "int64[?, 3]"},
                      Case{"nms_11_max_output_known",
                           Node("NonMaxSuppression", {"b", "s", "m"}, {"y"}),
                           11,
                           {"float[1, 6, 4]", "float[1, 1, 6]", "int64[1]"},
                           {Int64s({}), Int64s({}), Int64s({3})},
                           "int64[?, 3]"},
                      Case{"nms_box_coordinates",
                           Node("NonMaxSuppression", {"b", "s"}, {"y"}),
                           11,
                           {"float[1, 6, 5]", "float[1, 1, 6]"},
                           {},
                           "error: input 0 'b' dim 2 (box coordinates)"},
                      Case{"nms_spatial_dims_differ",
                           Node("NonMaxSuppression", {"b", "s"}, {"y"}),
                           11,
                           {"float[1, 6, 4]", "float[1, 1, 5]"},
                           {},
                           "error: input 1 's' dim 2 and input 0 'b' dim 1 (spatial_dimension)"},
                      Case{"nms_batches_differ",
                           Node("NonMaxSuppression", {"b", "s"}, {"y"}),
                           11,
                           {"float[2, 6, 4]", "float[1, 1, 6]"},
                           {},
                           "error: input 1 's' dim 0 and input 0 'b' dim 0 (num_batches)"},
                      Case{"nms_scores_rank",
                           Node("NonMaxSuppression", {"b", "s"}, {"y"}),
                           11,
                           {"float[1, 6, 4]", "float[1, 6]"},
                           {},
                           "error: input 1 's': expected rank 3 ([num_batches, num_classes, "
                           "spatial_dimension]), got rank 2"}));

INSTANTIATE_TEST_SUITE_P(RoiAlign, ObjectDetectionRuleTest,
                         ::testing::Values(Case{"roialign_default",
                                                Node("RoiAlign", {"x", "rois", "bi"}, {"y"}),
                                                10,
                                                {"float[N, C, H, W]", "float[R, 4]", "int64[?]"},
                                                {},
                                                "float[R, C, 1, 1]"},
                                           Case{"roialign_sizes",
                                                Node("RoiAlign", {"x", "rois", "bi"}, {"y"},
                                                     IntAttr("output_height", 5) +
                                                         IntAttr("output_width", 3)),
                                                16,
                                                {"float[1, 2, 10, 10]", "float[?, 4]", "int64[R]"},
                                                {},
                                                "float[R, 2, 5, 3]"},
                                           Case{"roialign_batch_mismatch",
                                                Node("RoiAlign", {"x", "rois", "bi"}, {"y"}),
                                                22,
                                                {"float[1, 2, 10, 10]", "float[3, 4]", "int64[4]"},
                                                {},
                                                "error: rois' dim 0 and batch_indices' dim 0"}));

}  // namespace
}  // namespace onnx_infer
