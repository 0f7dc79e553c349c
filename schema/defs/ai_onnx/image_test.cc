// Table tests of ImageDecoder (image.cc).
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
using ImageRuleTest = testing::RuleTableTest;

TEST_P(ImageRuleTest, Infers) { EXPECT_TRUE(RunRuleCase(BuiltinSchemas(), GetParam())); }

INSTANTIATE_TEST_SUITE_P(
    ImagesAndBoxes, ImageRuleTest,
    ::testing::Values(
        Case{"image_decoder_rank_3",
             Node("ImageDecoder", {"s"}, {"y"}),
             20,
             {"uint8[N]"},
             {},
             "uint8[?, ?, ?]"},
        Case{"image_decoder_grayscale",
             Node("ImageDecoder", {"s"}, {"y"}, StrAttr("pixel_format", "Grayscale")),
             20,
             {"uint8"},
             {},
             "uint8[?, ?, ?]"},
        Case{"image_decoder_bad_format",
             Node("ImageDecoder", {"s"}, {"y"}, StrAttr("pixel_format", "RGBA")),
             20,
             {"uint8[N]"},
             {},
             "error: attribute 'pixel_format': expected RGB, BGR or Grayscale, got 'RGBA'"},
        Case{"image_decoder_stream_rank_2",
             Node("ImageDecoder", {"s"}, {"y"}),
             20,
             {"uint8[2, 3]"},
             {},
             "error: input 0 's': expected rank 1 (a byte stream)"}));

}  // namespace
}  // namespace onnx_infer
