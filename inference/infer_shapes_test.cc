// End-to-end tests of the driver on small models written in protobuf text format.
#include "inference/infer_shapes.h"

#include <map>

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "schema/builtin.h"
#include "schema/type_proto.h"

namespace onnx_infer {
namespace {

onnx::ModelProto Model(const std::string& graph_text, const std::string& opsets =
                                                          R"(opset_import { version: 17 })") {
  onnx::ModelProto m;
  std::string text = "ir_version: 8 " + opsets + " graph { " + graph_text + " }";
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &m)) << text;
  return m;
}

std::string TensorInput(const std::string& name, const std::string& dims, int elem = 1) {
  return "input { name: \"" + name + "\" type { tensor_type { elem_type: " +
         std::to_string(elem) + " shape { " + dims + " } } } }";
}

struct Inferred {
  onnx::ModelProto model;
  InferenceResult result;
  std::map<std::string, std::string> types;  // value_info and outputs, as text
  std::vector<std::string> diagnostics;      // rendered

  std::string Diagnostics() const {
    std::string s;
    for (const auto& d : diagnostics) s += d + "\n";
    return s;
  }
};

Inferred Infer(onnx::ModelProto model, bool strict = false) {
  Inferred out;
  InferenceOptions options;
  options.strict = strict;
  out.result = InferShapes(model, BuiltinSchemas(), options);
  for (const auto& vi : model.graph().value_info()) {
    EXPECT_EQ(out.types.count(vi.name()), 0u) << "value_info repeats " << vi.name();
    out.types[vi.name()] = TypeFromProto(vi.type()).ToString();
  }
  for (const auto& vi : model.graph().output()) {
    out.types[vi.name()] = TypeFromProto(vi.type()).ToString();
  }
  for (const auto& d : out.result.diagnostics) out.diagnostics.push_back(d.Render("m"));
  out.model = std::move(model);
  return out;
}

TEST(InferShapesTest, AnnotatesIntermediatesAndOutputs) {
  auto r = Infer(Model(TensorInput("x", R"(dim { dim_param: "B" } dim { dim_param: "S" } dim { dim_value: 8 })") +
                       R"(
      node { op_type: "Relu" input: "x" output: "h" }
      node { op_type: "Reshape" input: "h" input: "shape" output: "h4" }
      node { op_type: "Transpose" input: "h4" output: "y"
             attribute { name: "perm" type: INTS ints: 0 ints: 2 ints: 1 ints: 3 } }
      initializer { name: "shape" data_type: 7 dims: 4 int64_data: 0 int64_data: 0 int64_data: 2 int64_data: -1 }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["h"], "float[B, S, 8]");
  EXPECT_EQ(r.types["h4"], "float[B, S, 2, 4]");
  EXPECT_EQ(r.types["y"], "float[B, 2, S, 4]");
  EXPECT_EQ(r.result.stats.nodes, 3);
  EXPECT_EQ(r.result.stats.values, 3);
  EXPECT_EQ(r.result.stats.typed, 3);
  EXPECT_EQ(r.result.stats.shaped, 3);
  EXPECT_EQ(r.result.stats.static_shaped, 0);
}

TEST(InferShapesTest, OutOfOrderNodesAreSortedNotRejected) {
  auto r = Infer(Model(TensorInput("x", "dim { dim_value: 3 }") + R"(
      node { op_type: "Relu" input: "a" output: "y" }
      node { op_type: "Identity" input: "x" output: "a" }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["a"], "float[3]");
  EXPECT_EQ(r.types["y"], "float[3]");
}

TEST(InferShapesTest, CycleIsAnErrorAndTheRestIsStillInferred) {
  auto r = Infer(Model(TensorInput("x", "dim { dim_value: 3 }") + R"(
      node { name: "p" op_type: "Add" input: "x" input: "q_out" output: "p_out" }
      node { name: "q" op_type: "Relu" input: "p_out" output: "q_out" }
      node { name: "free" op_type: "Relu" input: "x" output: "y" }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: error: graph 'main': the nodes #0 'p', #1 'q' form a cycle; their outputs are "
            "left unknown\n");
  EXPECT_EQ(r.types["y"], "float[3]");
  EXPECT_EQ(r.types.count("p_out"), 0u);
}

TEST(InferShapesTest, UndefinedInput) {
  auto r = Infer(Model(R"(
      node { name: "n" op_type: "Relu" input: "ghost" output: "y" }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: error: graph 'main' node #0 'n' (ai.onnx::Relu): input 0 'ghost' is not defined "
            "by any node, graph input or initializer\n");
}

TEST(InferShapesTest, OpsetProblems) {
  // No import of the default domain.
  auto r = Infer(Model(TensorInput("x", "dim { dim_value: 3 }") +
                           R"(node { op_type: "Relu" input: "x" output: "y" } output { name: "y" })",
                       R"(opset_import { domain: "ai.onnx.ml" version: 3 })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: error: graph 'main' node #0 (ai.onnx::Relu): the model does not import the "
            "operator set of domain 'ai.onnx' (opset_import has no entry for it)\n");
  // An op newer than the imported opset.
  r = Infer(Model(TensorInput("x", "dim { dim_value: 3 }") +
                  R"(node { op_type: "Gelu" input: "x" output: "y" } output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: error: graph 'main' node #0 (ai.onnx::Gelu): Gelu is not in opset 17 of ai.onnx "
            "(its first version is 20)\n");
  // An op that ONNX does not have.
  r = Infer(Model(TensorInput("x", "dim { dim_value: 3 }") +
                  R"(node { op_type: "Frobnicate" input: "x" output: "y" } output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: error: graph 'main' node #0 (ai.onnx::Frobnicate): unknown operator 'Frobnicate' "
            "in domain ai.onnx\n");
}

TEST(InferShapesTest, CustomOpsAreReportedOncePerOpAndInferenceCarriesOn) {
  const std::string graph = TensorInput("x", "dim { dim_value: 3 }") + R"(
      node { op_type: "Fancy" domain: "my.ops" input: "x" output: "a" }
      node { op_type: "Fancy" domain: "my.ops" input: "a" output: "b" }
      node { op_type: "Relu" input: "x" output: "y" }
      output { name: "b" } output { name: "y" })";
  const std::string opsets = R"(opset_import { version: 17 } opset_import { domain: "my.ops" version: 1 })";
  auto r = Infer(Model(graph, opsets));
  EXPECT_EQ(r.Diagnostics(),
            "m: warning: graph 'main' node #0 (my.ops::Fancy): no schema for custom operator "
            "my.ops::Fancy; its outputs are left unknown (reported once per operator)\n");
  EXPECT_EQ(r.types["y"], "float[3]");
  EXPECT_EQ(r.types["b"], "?");
  EXPECT_FALSE(r.result.HasErrors());
  EXPECT_TRUE(Infer(Model(graph, opsets), /*strict=*/true).result.HasErrors());
}

TEST(InferShapesTest, MissingRuleIsANoteAndLeavesTheOutputUnknown) {
  auto r = Infer(Model(TensorInput("x", "dim { dim_value: 1 } dim { dim_value: 3 } dim { dim_value: 8 } dim { dim_value: 8 }") +
                       TensorInput("w", "dim { dim_value: 4 } dim { dim_value: 3 } dim { dim_value: 3 } dim { dim_value: 3 }") + R"(
      node { op_type: "Conv" input: "x" input: "w" output: "c1" }
      node { op_type: "Conv" input: "x" input: "w" output: "c2" }
      output { name: "c1" } output { name: "c2" })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: note: graph 'main' node #0 (ai.onnx::Conv-11): no inference rule for this "
            "operator yet; its outputs are left unknown (reported once per operator version)\n");
  EXPECT_EQ(r.types["c1"], "?");
  EXPECT_EQ(r.result.stats.nodes_without_rule, 2);
  auto strict = Infer(Model(TensorInput("x", "dim { dim_value: 3 }") + TensorInput("w", "dim { dim_value: 3 }") + R"(
      node { op_type: "Conv" input: "x" input: "w" output: "c" } output { name: "c" })"), true);
  EXPECT_TRUE(strict.result.HasErrors());
}

TEST(InferShapesTest, RuleErrorsCarryTheirNode) {
  auto r = Infer(Model(TensorInput("a", "dim { dim_value: 5 } dim { dim_value: 2 }") +
                       TensorInput("b", "dim { dim_value: 5 }") + R"(
      node { name: "cat0" op_type: "Concat" input: "a" input: "b" output: "y"
             attribute { name: "axis" type: INT i: 0 } }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: error: graph 'main' node #0 'cat0' (ai.onnx::Concat-13): input 1 'b': expected "
            "rank 2, got rank 1\n");
}

TEST(InferShapesTest, ArityIsChecked) {
  auto r = Infer(Model(TensorInput("a", "dim { dim_value: 5 }") + R"(
      node { op_type: "Add" input: "a" output: "y" } output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: error: graph 'main' node #0 (ai.onnx::Add-14): expected 2 inputs, got 1\n");
}

TEST(InferShapesTest, DeclaredTypesMerge) {
  // A declared symbol meets an inferred constant: the constant wins. A declared dim the rule
  // cannot know fills in what inference leaves open.
  auto r = Infer(Model(TensorInput("x", "dim { dim_value: 4 } dim {}") + R"(
      node { op_type: "Relu" input: "x" output: "y" }
      output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "N" } dim { dim_value: 7 } } } } })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["y"], "float[4, 7]");
}

TEST(InferShapesTest, ContradictionWithDeclaredTypeKeepsTheDeclaration) {
  const std::string graph = TensorInput("x", "dim { dim_value: 4 }") + R"(
      node { name: "r" op_type: "Relu" input: "x" output: "y" }
      output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 5 } } } } })";
  auto r = Infer(Model(graph));
  EXPECT_EQ(r.Diagnostics(),
            "m: warning: graph 'main' node #0 'r' (ai.onnx::Relu-14): output 0 'y': inferred type "
            "float[4] contradicts the declared float[5] (dim 0: 5 vs 4); keeping the declared "
            "type\n");
  EXPECT_EQ(r.types["y"], "float[5]");
  auto strict = Infer(Model(graph), true);
  ASSERT_EQ(strict.result.diagnostics.size(), 1u);
  EXPECT_EQ(strict.result.diagnostics[0].severity, Severity::kError);
}

TEST(InferShapesTest, ExistingValueInfoIsUpdatedNotRepeated) {
  auto r = Infer(Model(TensorInput("x", "dim { dim_value: 4 }") + R"(
      node { op_type: "Relu" input: "x" output: "h" }
      node { op_type: "Relu" input: "h" output: "y" }
      value_info { name: "h" type { tensor_type { elem_type: 1 } } }
      output { name: "y" })"));
  EXPECT_EQ(r.model.graph().value_info_size(), 1);
  EXPECT_EQ(r.types["h"], "float[4]");
}

TEST(InferShapesTest, DuplicateDefinitions) {
  auto r = Infer(Model(TensorInput("x", "dim { dim_value: 4 }") + R"(
      node { op_type: "Relu" input: "x" output: "y" }
      node { op_type: "Relu" input: "x" output: "y" }
      node { op_type: "Relu" input: "x" output: "x" }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: error: graph 'main' node #1 (ai.onnx::Relu): output 'y' is also produced by node #0\n"
            "m: error: graph 'main' node #2 (ai.onnx::Relu): output 'x' redefines a graph input or "
            "initializer\n");
}

TEST(InferShapesTest, InitializerThatIsAlsoAnInputIsNotAConstant) {
  // The shape can be overridden at run time, so only its rank is known.
  auto r = Infer(Model(TensorInput("x", "dim { dim_value: 6 }") +
                       TensorInput("shape", "dim { dim_value: 2 }", 7) + R"(
      node { op_type: "Reshape" input: "x" input: "shape" output: "y" }
      initializer { name: "shape" data_type: 7 dims: 2 int64_data: 2 int64_data: 3 }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["y"], "float[?, ?]");
}

TEST(InferShapesTest, ConstantNodeValuesFeedReshape) {
  auto r = Infer(Model(TensorInput("x", "dim { dim_value: 6 }") + R"(
      node { op_type: "Constant" output: "shape" attribute { name: "value_ints" type: INTS ints: 3 ints: -1 } }
      node { op_type: "Reshape" input: "x" input: "shape" output: "y" }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["shape"], "int64[2]");
  EXPECT_EQ(r.types["y"], "float[3, 2]");
}

TEST(InferShapesTest, InitializerTypeMustMatchItsInput) {
  auto r = Infer(Model(TensorInput("w", "dim { dim_value: 3 }") + R"(
      node { op_type: "Relu" input: "w" output: "y" }
      initializer { name: "w" data_type: 1 dims: 4 float_data: 1 float_data: 1 float_data: 1 float_data: 1 }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(),
            "m: error: graph 'main': initializer 'w' does not match its graph input: dim 0: 3 vs 4\n");
}

TEST(InferShapesTest, FactsFromOneNodeHoldAtTheNextAndContradictionsNameBoth) {
  const std::string inputs = TensorInput("x", R"(dim { dim_param: "N" } dim { dim_param: "K" })") +
                             TensorInput("w", "dim { dim_value: 4 } dim { dim_value: 8 }") +
                             TensorInput("v", "dim { dim_value: 3 } dim { dim_value: 8 }");
  auto r = Infer(Model(inputs + R"(
      node { name: "mm" op_type: "MatMul" input: "x" input: "w" output: "y" }
      node { op_type: "Relu" input: "x" output: "r" }
      node { op_type: "Concat" input: "x" input: "x" output: "c" attribute { name: "axis" type: INT i: 1 } }
      output { name: "y" } output { name: "r" } output { name: "c" })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["y"], "float[N, 8]");
  EXPECT_EQ(r.types["r"], "float[N, 4]");  // K == 4 was learnt at "mm"
  EXPECT_EQ(r.types["c"], "float[N, 8]");  // 2*K, resolved

  auto bad = Infer(Model(inputs + R"(
      node { name: "mm" op_type: "MatMul" input: "x" input: "w" output: "y" }
      node { name: "mm2" op_type: "MatMul" input: "x" input: "v" output: "z" }
      output { name: "y" } output { name: "z" })"));
  EXPECT_NE(bad.Diagnostics().find("K == 3 (node 'mm2' (MatMul): contracted dims) contradicts "
                                   "K == 4 (node 'mm' (MatMul): contracted dims)"),
            std::string::npos)
      << bad.Diagnostics();
}

TEST(InferShapesTest, ExpressionDimParamsAndSums) {
  auto r = Infer(Model(TensorInput("a", R"(dim { dim_param: "N" } dim { dim_value: 2 })") +
                       TensorInput("b", R"(dim { dim_param: "N+1" } dim { dim_value: 2 })") + R"(
      node { op_type: "Concat" input: "a" input: "b" output: "y" attribute { name: "axis" type: INT i: 0 } }
      output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "unk__0" } dim { dim_value: 2 } } } } })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["y"], "float[2*N + 1, 2]");
  EXPECT_EQ(r.model.graph().output(0).type().tensor_type().shape().dim(0).dim_param(),
            "2*N + 1");
}

}  // namespace
}  // namespace onnx_infer
