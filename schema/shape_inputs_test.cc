#include "onnx_infer/schema/shape_inputs.h"

#include <gtest/gtest.h>

#include <vector>

namespace onnx_infer {
namespace {

using Inputs = std::vector<int>;

TEST(ShapeValueInputs, KnowTheirDomains) {
  EXPECT_EQ(ShapeValueInputs("", "Reshape", 14), Inputs{1});
  EXPECT_EQ(ShapeValueInputs("ai.onnx", "Slice", 13), (Inputs{1, 2, 3, 4}));
  EXPECT_EQ(ShapeValueInputs("com.microsoft", "GroupQueryAttention", 1), Inputs{6});
  EXPECT_TRUE(ShapeValueInputs("com.microsoft", "Reshape", 1).empty());
  EXPECT_TRUE(ShapeValueInputs("", "Add", 14).empty());
}

// The inputs moved between versions: each version gets its own positions.
TEST(ShapeValueInputs, FollowTheOperatorsVersions) {
  EXPECT_EQ(ShapeValueInputs("", "Resize", 10), Inputs{1});       // X, scales
  EXPECT_EQ(ShapeValueInputs("", "Resize", 13), (Inputs{2, 3}));  // input 1 is roi
  EXPECT_EQ(ShapeValueInputs("", "Resize", 19), (Inputs{2, 3}));
  EXPECT_EQ(ShapeValueInputs("", "Pad", 13), Inputs{1});       // 2 is the constant value
  EXPECT_EQ(ShapeValueInputs("", "Pad", 18), (Inputs{1, 3}));  // axes
  EXPECT_TRUE(ShapeValueInputs("", "Pad", 2).empty());         // pads an attribute
  EXPECT_EQ(ShapeValueInputs("", "DFT", 17), Inputs{1});
  EXPECT_EQ(ShapeValueInputs("", "DFT", 20), (Inputs{1, 2}));  // the axis became input 2
  EXPECT_TRUE(ShapeValueInputs("", "Squeeze", 11).empty());    // axes an attribute
  EXPECT_EQ(ShapeValueInputs("", "Squeeze", 13), Inputs{1});
  EXPECT_TRUE(ShapeValueInputs("", "ReduceMean", 13).empty());
  EXPECT_EQ(ShapeValueInputs("", "ReduceMean", 18), Inputs{1});
  EXPECT_EQ(ShapeValueInputs("", "ReduceSum", 13), Inputs{1});
  EXPECT_EQ(ShapeValueInputs("", "Resize", 0), (Inputs{2, 3}));  // unknown: the newest
}

TEST(ShapeValueInputs, ReadTheModelsImport) {
  onnx::ModelProto model;
  auto* op = model.add_opset_import();
  op->set_domain("");
  op->set_version(10);
  onnx::NodeProto resize;
  resize.set_op_type("Resize");
  resize.add_input("x");
  resize.add_input("scales");
  EXPECT_EQ(ImportedOpset(model, "ai.onnx"), 10);
  EXPECT_EQ(ImportedOpset(model, "com.microsoft"), 0);
  EXPECT_TRUE(IsShapeValueInput(model, resize, 1));
  op->set_version(11);
  EXPECT_FALSE(IsShapeValueInput(model, resize, 1));
  EXPECT_TRUE(IsShapeValueInput(model, resize, 2));
  EXPECT_FALSE(IsShapeValueInput(model, resize, 0));
}

}  // namespace
}  // namespace onnx_infer
