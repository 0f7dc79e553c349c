// The limits of docs/limits.md as the driver enforces them, and issue 17's silent
// acceptances: each hostile input ends quickly with a diagnostic naming what it hit.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "onnx_infer/inference/expansion_budget.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/symbolic/parse.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

onnx::ModelProto Parse(const std::string& text) {
  auto m = syntax::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : onnx::ModelProto();
}

// Every diagnostic of `severity`, one a line.
std::string Messages(const InferenceResult& r, Severity severity) {
  std::string out;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.severity == severity) out += d.Render("m") + "\n";
  }
  return out;
}

// Functions F1..Fn in domain "local", each calling the one before twice ("billion laughs"):
// inferring main through them infers 3 * 2^n nodes.
std::string Laughs(int n) {
  std::string text =
      "<ir_version: 8, opset_import: [\"\" : 17, \"local\" : 1]>\n"
      "main (float[N] x) => (y) { y = local.F" +
      std::to_string(n) +
      "(x) }\n"
      "<domain: \"local\", opset_import: [\"\" : 17]>\n"
      "F0 (x) => (y) { y = Relu(x) }\n";
  for (int i = 1; i <= n; ++i) {
    const std::string prev = "local.F" + std::to_string(i - 1);
    text += "<domain: \"local\", opset_import: [\"\" : 17, \"local\" : 1]>\nF" + std::to_string(i) +
            " (x) => (y) { a = " + prev + "(x)\n b = " + prev + "(a)\n y = Add(a, b) }\n";
  }
  return text;
}

TEST(ExpansionBudget, ChargesUntilTheLimit) {
  ExpansionBudget budget(10);
  EXPECT_TRUE(budget.Charge(4));
  EXPECT_TRUE(budget.Charge(0));  // an empty body still costs one
  EXPECT_EQ(budget.used(), 5);
  EXPECT_FALSE(budget.Charge(6));
  EXPECT_EQ(budget.used(), 5);  // a refusal takes nothing
  EXPECT_TRUE(budget.Charge(5));
  EXPECT_TRUE(budget.FirstRefusal());
  EXPECT_FALSE(budget.FirstRefusal());
  EXPECT_NE(budget.Message().find("exceed 10 nodes"), std::string::npos);
}

TEST(Limits, BillionLaughsEndsWithOneErrorNamingTheBudget) {
  onnx::ModelProto model = Parse(Laughs(40));  // 2^40 calls if nothing stopped it
  InferenceOptions options;
  options.max_expanded_nodes = 20000;
  const auto start = std::chrono::steady_clock::now();
  InferenceResult r = InferShapes(model, BuiltinSchemas(), options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 30);
  const std::string errors = Messages(r, Severity::kError);
  EXPECT_EQ(r.CountOf(Severity::kError), 1) << errors;
  EXPECT_NE(errors.find("function call expansion limit reached"), std::string::npos) << errors;
  EXPECT_NE(errors.find("--max-expanded-nodes"), std::string::npos) << errors;
  // What was not inferred stays unknown; it is never guessed.
  const Type* y = r.TypeOf("main", "y");
  EXPECT_TRUE(y == nullptr || !y->has_shape()) << (y ? y->ToString() : "");
}

TEST(Limits, FunctionsWithinTheBudgetInferFully) {
  onnx::ModelProto model = Parse(Laughs(6));  // 3 * 2^6 = 192 nodes
  InferenceOptions options;
  options.max_expanded_nodes = 1000;
  InferenceResult r = InferShapes(model, BuiltinSchemas(), options);
  EXPECT_FALSE(r.HasErrors()) << Messages(r, Severity::kError);
  const Type* y = r.TypeOf("main", "y");
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(y->ToString(), "float[N]");
}

TEST(Limits, SubgraphsCountTowardsTheBudget) {
  onnx::ModelProto model = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
main (bool c, float[N] x) => (y)
{
  y = If (c) <then_branch = g1 () => (a) { r = Relu(x)
                                           a = Neg(r) },
              else_branch = g2 () => (b) { b = Neg(x) }>
})");
  InferenceOptions options;
  options.max_expanded_nodes = 2;  // the then branch fits, the else branch does not
  InferenceResult r = InferShapes(model, BuiltinSchemas(), options);
  const std::string errors = Messages(r, Severity::kError);
  EXPECT_NE(errors.find("expansion limit reached"), std::string::npos) << errors;
}

TEST(Limits, ReshapeToAnOverflowingElementCountIsAnError) {
  onnx::ModelProto model = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[4] x) => (y)
<int64[3] s = {4611686018427387904, 4611686018427387904, 4611686018427387904}>
{
  y = Reshape(x, s)
})");
  InferenceResult r = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
  const std::string errors = Messages(r, Severity::kError);
  EXPECT_NE(errors.find("element count overflows int64"), std::string::npos) << errors;
}

TEST(Limits, ASubgraphRedefiningAnOuterValueIsAnError) {
  onnx::ModelProto model = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
main (bool c, float[N] x) => (y)
{
  t = Relu(x)
  y = If (c) <then_branch = g1 () => (t) { t = Identity(x) },
              else_branch = g2 () => (t) { t = Neg(x) }>
})");
  InferenceResult r = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
  const std::string errors = Messages(r, Severity::kError);
  EXPECT_EQ(r.CountOf(Severity::kError), 2) << errors;
  EXPECT_NE(errors.find("If_1.then_branch"), std::string::npos) << errors;
  EXPECT_NE(errors.find("If_1.else_branch"), std::string::npos) << errors;
  EXPECT_NE(errors.find("output 't' redefines a value of an enclosing graph"), std::string::npos)
      << errors;
}

TEST(Limits, AnOpsetNewerThanTheCatalogIsAnErrorUnderStrict) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 99]>
main (float[N] x) => (y) { y = Relu(x) })";
  onnx::ModelProto model = Parse(text);
  InferenceResult lax = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
  EXPECT_FALSE(lax.HasErrors());
  EXPECT_NE(Messages(lax, Severity::kWarning).find("imports opset 99"), std::string::npos);
  model = Parse(text);
  InferenceOptions strict;
  strict.strict = true;
  InferenceResult r = InferShapes(model, BuiltinSchemas(), strict);
  EXPECT_NE(Messages(r, Severity::kError).find("imports opset 99"), std::string::npos);
}

TEST(Limits, DeeplyNestedDimParamStaysAnOpaqueSymbol) {
  // 20,000 levels: the parser stops at kMaxDimNesting; the text is kept, as any dim_param
  // that is not an expression, and inference goes through.
  std::string deep;
  for (int i = 0; i < 20000; ++i) deep += "floor(";
  deep += "N" + std::string(20000, ')');
  onnx::TensorShapeProto::Dimension d;
  d.set_dim_param(deep);
  Dim dim = DimFromProto(d);
  EXPECT_TRUE(dim.is_symbol());
  onnx::ModelProto model = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[N] x) => (y) { y = Relu(x) })");
  model.mutable_graph()
      ->mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(0)
      ->set_dim_param(deep);
  InferenceResult r = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
  EXPECT_FALSE(r.HasErrors()) << Messages(r, Severity::kError);
  EXPECT_EQ(model.graph().output(0).type().tensor_type().shape().dim(0).dim_param(), deep);
}

// A model built in memory by a C++ caller never passes through a parser's depth limit: types
// and subgraphs nested far deeper than kMaxNestingDepth must end in a diagnostic, not in a
// stack overflow.
TEST(Limits, TypesNestedDeeplyInMemoryAreAnError) {
  onnx::ModelProto model = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[N] x) => (y) { y = Identity(x) })");
  onnx::TypeProto* t = model.mutable_graph()->mutable_input(0)->mutable_type();
  t->Clear();
  for (int i = 0; i < 3000; ++i) t = t->mutable_sequence_type()->mutable_elem_type();
  t->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  InferenceResult r = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
  EXPECT_NE(Messages(r, Severity::kError).find("nested"), std::string::npos)
      << Messages(r, Severity::kError);
}

TEST(Limits, SubgraphsNestedDeeplyInMemoryAreAnError) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 17]>
main (bool c, float[N] x) => (y) {
  y = If(c) <then_branch = g1 () => (t) { t = Identity(x) },
             else_branch = g2 () => (e) { e = Identity(x) }>
})";
  onnx::ModelProto model = Parse(text);
  // Wrapped from the inside out, each level's If moved (not copied) into the next one's
  // then_branch; 3,000 levels stay within what protobuf's own destructor recurses through.
  onnx::NodeProto node = model.graph().node(0);
  for (int i = 0; i < 3000; ++i) {
    onnx::NodeProto outer = model.graph().node(0);
    onnx::GraphProto* g = outer.mutable_attribute(0)->mutable_g();
    node.set_output(0, "t");
    g->mutable_node(0)->Swap(&node);
    node.Swap(&outer);
  }
  model.mutable_graph()->mutable_node(0)->Swap(&node);
  InferenceResult r = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
  EXPECT_NE(Messages(r, Severity::kError).find("nested deeper than"), std::string::npos)
      << Messages(r, Severity::kError);
}

}  // namespace
}  // namespace onnx_infer
