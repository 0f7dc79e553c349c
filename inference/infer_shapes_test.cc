// API details of the driver: statistics, severities, how value_info is written back. What a
// model infers to, and which diagnostics it gets, is tested by the golden cases in
// testdata/cases/ (docs/testing.md).
#include "inference/infer_shapes.h"

#include <gtest/gtest.h>

#include "schema/builtin.h"
#include "schema/type_proto.h"
#include "syntax/parser.h"

namespace onnx_infer {
namespace {

onnx::ModelProto Model(const std::string& graph) {
  auto m = syntax::ParseModelText("<ir_version: 8, opset_import: [\"\" : 17]>\n" + graph);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : onnx::ModelProto();
}

InferenceResult Infer(onnx::ModelProto& model, bool strict = false) {
  InferenceOptions options;
  options.strict = strict;
  return InferShapes(model, BuiltinSchemas(), options);
}

TEST(InferShapesTest, CountsTypedShapedAndStaticValues) {
  onnx::ModelProto m = Model(R"(
    main (float[B, S, 8] x) => (y) <int64[4] shape = {0, 0, 2, -1}> {
      h = Relu(x)
      h4 = Reshape(h, shape)
      y = Transpose <perm = [0, 2, 1, 3]> (h4)
      z = Identity(shape)
    })");
  InferenceResult r = Infer(m);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(r.stats.nodes, 4);
  EXPECT_EQ(r.stats.values, 4);
  EXPECT_EQ(r.stats.typed, 4);
  EXPECT_EQ(r.stats.shaped, 4);
  EXPECT_EQ(r.stats.static_shaped, 1);
  EXPECT_EQ(r.stats.nodes_without_rule, 0);
}

TEST(InferShapesTest, NodesWithoutRuleAreCounted) {
  onnx::ModelProto m = Model(R"(
    main (float[1, 3, 8, 8] x, float[4, 3, 3, 3] w) => (c1, c2) {
      c1 = Conv(x, w)
      c2 = Conv(x, w)
    })");
  InferenceResult r = Infer(m);
  EXPECT_EQ(r.stats.nodes_without_rule, 2);
  EXPECT_EQ(r.CountOf(Severity::kNote), 1);
  EXPECT_FALSE(r.HasErrors());
  onnx::ModelProto again = Model(R"(main (float[3] x, float[3] w) => (c) { c = Conv(x, w) })");
  EXPECT_TRUE(Infer(again, /*strict=*/true).HasErrors());
}

TEST(InferShapesTest, StrictTurnsWarningsIntoErrors) {
  const std::string graph = R"(main (float[4] x) => (float[5] y) { [r] y = Relu(x) })";
  onnx::ModelProto lenient = Model(graph);
  InferenceResult r = Infer(lenient);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(r.diagnostics[0].node_index, 0);
  EXPECT_EQ(r.diagnostics[0].node_name, "r");
  EXPECT_EQ(r.diagnostics[0].op, "ai.onnx::Relu-14");
  onnx::ModelProto strict = Model(graph);
  r = Infer(strict, /*strict=*/true);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::kError);
}

TEST(InferShapesTest, ExistingValueInfoIsUpdatedNotRepeated) {
  onnx::ModelProto m = Model(R"(
    main (float[4] x) => (y) <float h> {
      h = Relu(x)
      y = Relu(h)
    })");
  Infer(m);
  ASSERT_EQ(m.graph().value_info_size(), 1);
  EXPECT_EQ(TypeFromProto(m.graph().value_info(0).type()).ToString(), "float[4]");
  EXPECT_EQ(TypeFromProto(m.graph().output(0).type()).ToString(), "float[4]");
}

TEST(InferShapesTest, GraphOutputsAreNotRepeatedInValueInfo) {
  onnx::ModelProto m = Model(R"(main (float[2] x) => (y) { h = Relu(x)  y = Relu(h) })");
  Infer(m);
  ASSERT_EQ(m.graph().value_info_size(), 1);
  EXPECT_EQ(m.graph().value_info(0).name(), "h");
}

}  // namespace
}  // namespace onnx_infer
