// InferNodeOutputs: one node on its own goes through the driver's per-node steps (schema by
// opset, signature check, rule, signature types) with the types and values it is given.
#include "onnx_infer/inference/infer_node.h"

#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

onnx::NodeProto Node(std::string_view text) {
  auto node = syntax::ParseNodeText(text);
  EXPECT_TRUE(node.ok()) << node.status().message();
  return node.ok() ? *node : onnx::NodeProto();
}

using testing::Int64s;
using testing::T;

std::string Rendered(const NodeInferenceResult& r) {
  std::string out;
  for (const auto& d : r.diagnostics) out += d.Render("") + "\n";
  return out;
}

TEST(InferNodeOutputsTest, ReshapeUsesTheKnownShapeValue) {
  onnx::NodeProto node = Node("y = Reshape(x, shape)");
  NodeInferenceResult r =
      InferNodeOutputs(BuiltinSchemas(), node, {{"", 17}}, {T("float[B, S, 768]"), T("int64[4]")},
                       {std::nullopt, Int64s({0, 0, 12, -1})});
  EXPECT_EQ(Rendered(r), "");
  ASSERT_NE(r.schema, nullptr);
  EXPECT_EQ(r.schema->Id(), "ai.onnx::Reshape-14");
  ASSERT_EQ(r.output_types.size(), 1u);
  EXPECT_EQ(r.output_types[0].ToString(), "float[B, S, 12, 64]");
  ASSERT_NE(r.OutputType("y"), nullptr);
  EXPECT_EQ(r.OutputType("y")->ToString(), "float[B, S, 12, 64]");
  EXPECT_EQ(r.OutputType("z"), nullptr);

  // Without the value only the rank is known.
  r = InferNodeOutputs(BuiltinSchemas(), node, {{"", 17}}, {T("float[B, S, 768]"), T("int64[4]")});
  EXPECT_EQ(r.output_types[0].ToString(), "float[?, ?, ?, ?]");
}

TEST(InferNodeOutputsTest, ShapeValuesFlowOut) {
  // Shape's output value is what a front end passes on to the next node's call.
  NodeInferenceResult shape =
      InferNodeOutputs(BuiltinSchemas(), Node("s = Shape(x)"), {{"", 17}}, {T("float[N, 3]")});
  ASSERT_TRUE(shape.output_values[0].has_value());
  EXPECT_EQ(shape.output_values[0]->ToString(), "int64[2] {N, 3}");
  NodeInferenceResult expand = InferNodeOutputs(BuiltinSchemas(), Node("y = Expand(v, s)"),
                                                {{"", 17}}, {T("float[1]"), shape.output_types[0]},
                                                {std::nullopt, shape.output_values[0]});
  EXPECT_EQ(Rendered(expand), "");
  EXPECT_EQ(expand.output_types[0].ToString(), "float[N, 3]");
}

TEST(InferNodeOutputsTest, TheSignatureIsChecked) {
  NodeInferenceResult r =
      InferNodeOutputs(BuiltinSchemas(), Node("[add] y = Add <alpha = 1.0> (a, b)"), {{"", 17}},
                       {T("float[3]"), T("int64[3]")});
  EXPECT_EQ(
      Rendered(r),
      "warning[OI2101]: node #0 'add' (ai.onnx::Add-14): attribute 'alpha' is not an attribute "
      "of Add-14\n"
      "error[OI2201]: node #0 'add' (ai.onnx::Add-14): input 1 'b': T is int64 here but float for "
      "input 0 'a'\n");
  EXPECT_TRUE(r.HasErrors());
  EXPECT_EQ(r.diagnostics[1].subject.ToString(), "input 1 'b'");
  // The shape still flows, as in InferShapes; the element type could be either input's.
  EXPECT_EQ(r.output_types[0].ToString(), "?[3]");

  // Strict makes the unknown attribute an error too.
  InferenceOptions strict;
  strict.strict = true;
  r = InferNodeOutputs(BuiltinSchemas(), Node("[add] y = Add <alpha = 1.0> (a, b)"), {{"", 17}},
                       {T("float[3]"), T("float[3]")}, {}, strict);
  EXPECT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::kError);

  // Wrong counts: the rule does not run.
  r = InferNodeOutputs(BuiltinSchemas(), Node("y = Relu(a, b)"), {{"", 17}},
                       {T("float[3]"), T("float[3]")});
  EXPECT_TRUE(r.HasErrors());
  EXPECT_TRUE(r.output_types[0].is_unknown());
}

TEST(InferNodeOutputsTest, TheOpsetSelectsTheOperatorVersion) {
  // Squeeze takes its axes as an attribute up to opset 12, as an input from 13.
  onnx::NodeProto node = Node("y = Squeeze <axes = [1]> (x)");
  NodeInferenceResult r11 =
      InferNodeOutputs(BuiltinSchemas(), node, {{"ai.onnx", 11}}, {T("float[N, 1, 3]")});
  EXPECT_EQ(Rendered(r11), "");
  ASSERT_NE(r11.schema, nullptr);
  EXPECT_EQ(r11.schema->since_version(), 11);
  EXPECT_EQ(r11.output_types[0].ToString(), "float[N, 3]");

  NodeInferenceResult r13 =
      InferNodeOutputs(BuiltinSchemas(), node, {{"", 13}}, {T("float[N, 1, 3]")});
  ASSERT_NE(r13.schema, nullptr);
  EXPECT_EQ(r13.schema->since_version(), 13);
  EXPECT_EQ(
      Rendered(r13),
      "warning[OI2101]: node #0 (ai.onnx::Squeeze-13): attribute 'axes' is not an attribute of "
      "Squeeze-13\n");

  // An operator newer than the import, an import that does not exist, none at all.
  NodeInferenceResult old =
      InferNodeOutputs(BuiltinSchemas(), Node("y = Gelu(x)"), {{"", 17}}, {T("float[3]")});
  EXPECT_EQ(old.schema, nullptr);
  EXPECT_EQ(Rendered(old),
            "error[OI2001]: node #0 (ai.onnx::Gelu): Gelu is not in opset 17 of ai.onnx (its first "
            "version is 20)\n");
  NodeInferenceResult none =
      InferNodeOutputs(BuiltinSchemas(), Node("y = Relu(x)"), {}, {T("float[3]")});
  EXPECT_EQ(Rendered(none),
            "error[OI1103]: node #0 (ai.onnx::Relu): the model does not import the operator set of "
            "domain 'ai.onnx' (opset_import has no entry for it)\n");
  NodeInferenceResult future =
      InferNodeOutputs(BuiltinSchemas(), Node("y = Relu(x)"), {{"", 99}}, {T("float[3]")});
  EXPECT_EQ(
      Rendered(future),
      "warning[OI1101]: the model imports opset 99 of ai.onnx; this build knows versions up to "
      "28, so operators resolve as of 28\n");
  EXPECT_EQ(future.output_types[0].ToString(), "float[3]");
}

TEST(InferNodeOutputsTest, OperatorsDefinedAsFunctionsAreInferredThroughTheirBody) {
  NodeInferenceResult r = InferNodeOutputs(BuiltinSchemas(), Node("y = Shrink <lambd = 0.5> (x)"),
                                           {{"", 17}}, {T("float[N, 3]")});
  EXPECT_EQ(Rendered(r), "");
  EXPECT_EQ(r.output_types[0].ToString(), "float[N, 3]");
}

TEST(InferNodeOutputsTest, ProtoInputsByName) {
  // ONNX's infer_node_outputs: TypeProto and TensorProto by input name.
  onnx::NodeProto node = Node("y = Reshape(x, shape)");
  std::map<std::string, onnx::TypeProto> types = {{"x", TypeToProto(T("float[B, 6, 4]"))}};
  onnx::TensorProto shape;  // no type given for it: the tensor's own
  shape.set_data_type(kInt64);
  shape.add_dims(3);
  for (int64_t d : {0, 12, 2}) shape.add_int64_data(d);
  NodeInferenceResult r =
      InferNodeOutputsByName(BuiltinSchemas(), node, {{"", 17}}, types, {{"shape", shape}});
  EXPECT_EQ(Rendered(r), "");
  auto protos = r.OutputTypeProtos();
  ASSERT_EQ(protos.count("y"), 1u);
  EXPECT_EQ(TypeFromProto(protos["y"]).ToString(), "float[B, 12, 2]");
}

TEST(InferNodeOutputsTest, SubgraphsSeeTheNodeInputsAndNothingElseOfOuterGraphs) {
  // The branches read the If's own input c: its type is known there.
  onnx::NodeProto node = Node(R"(y = If (c) <
      then_branch = then_g () => (t) { t = Identity(c) },
      else_branch = else_g () => (e) { e = Not(c) }>)");
  NodeInferenceResult r = InferNodeOutputs(BuiltinSchemas(), node, {{"", 17}}, {T("bool[]")});
  EXPECT_EQ(Rendered(r), "");
  EXPECT_EQ(r.output_types[0].ToString(), "bool[]");

  // The then branch reads x, a value of the enclosing graph the call was not given: unknown
  // there, not an error; so is what the If gives.
  node = Node(R"(y = If (c) <
      then_branch = then_g () => (t) { t = Identity(x) },
      else_branch = else_g () => (e) { e = Constant <value = float[2, 3] {0, 0, 0, 0, 0, 0}> () }>)");
  r = InferNodeOutputs(BuiltinSchemas(), node, {{"", 17}}, {T("bool[]")});
  EXPECT_EQ(Rendered(r), "");
  EXPECT_TRUE(r.output_types[0].is_unknown());

  // A mistake inside a branch is reported with the branch's path.
  onnx::NodeProto bad = Node(R"(y = If (c) <
      then_branch = then_g () => (t) { t = Relu(c) },
      else_branch = else_g () => (e) { e = Constant <value = float[2] {0, 0}> () }>)");
  r = InferNodeOutputs(BuiltinSchemas(), bad, {{"", 17}}, {T("bool[]")});
  ASSERT_TRUE(r.HasErrors());
  EXPECT_EQ(r.diagnostics[0].graph, "If_0.then_branch");
  EXPECT_EQ(r.diagnostics[0].subject.ToString(), "input 0 'c'");
  // Subgraph inference annotates a copy: the caller's node is untouched.
  EXPECT_EQ(Node(R"(y = If (c) <
      then_branch = then_g () => (t) { t = Relu(c) },
      else_branch = else_g () => (e) { e = Constant <value = float[2] {0, 0}> () }>)")
                .SerializeAsString(),
            bad.SerializeAsString());
}

TEST(InferNodeOutputsTest, CustomOperatorsWithoutASchema) {
  NodeInferenceResult r = InferNodeOutputs(BuiltinSchemas(), Node("y = my.ops.Fancy(x)"),
                                           {{"", 17}, {"my.ops", 1}}, {T("float[3]")});
  EXPECT_EQ(r.schema, nullptr);
  EXPECT_EQ(
      Rendered(r),
      "warning[OI2002]: node #0 (my.ops::Fancy): no schema for custom operator my.ops::Fancy; its "
      "outputs are left unknown (reported once per operator)\n");
  EXPECT_TRUE(r.output_types[0].is_unknown());
  EXPECT_TRUE(r.OutputTypeProtos().empty());
}

}  // namespace
}  // namespace onnx_infer
