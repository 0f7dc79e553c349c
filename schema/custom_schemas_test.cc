#include "onnx_infer/schema/custom_schemas.h"

#include <gtest/gtest.h>

#include "onnx_infer/base/limits.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/test_util.h"
#include "onnx_infer/schema/type_constraint.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

using testing::RunRule;
using testing::T;

constexpr char kOps[] = R"json({
  "domain": "my.ops",
  "operators": [
    {
      "name": "SplitHeads", "since_version": 1,
      "inputs": [{"name": "X", "type": "T"}],
      "outputs": [{"name": "Y", "type": "T"}],
      "attributes": [{"name": "heads", "type": "int", "required": true},
                     {"name": "mode", "type": "string", "default": "fast"},
                     {"name": "scales", "type": "floats", "default": [0.5, 2]},
                     {"name": "axes", "type": "ints", "default": [0, -1]},
                     {"name": "acts", "type": "strings", "default": ["Tanh", "Relu"]},
                     {"name": "alpha", "type": "float", "default": 0.25},
                     {"name": "k", "type": "int", "default": 3}],
      "type_constraints": [{"type_param": "T", "allowed": ["tensor(float)", "tensor(float16)"]}],
      "rule": {"kind": "shape", "ranks": {"0": 3},
               "dims": ["in0[0]", "attr.heads", "in0[1]", "in0[-1] / attr.heads"]}
    },
    {
      "name": "Passthrough",
      "inputs": [{"name": "X", "type": "T"}], "outputs": [{"name": "Y", "type": "T"}],
      "type_constraints": [{"type_param": "T", "allowed": ["tensor(float)"]}],
      "rule": {"kind": "same_as_input", "input": 0}
    },
    {
      "name": "FusedAdd",
      "inputs": [{"name": "A", "type": "T"}, {"name": "B", "type": "T"}, {"name": "C", "type": "T", "option": "optional"}],
      "outputs": [{"name": "Y", "type": "T"}, {"name": "Mask", "type": "tensor(bool)", "option": "optional"}],
      "type_constraints": [{"type_param": "T", "allowed": ["tensor(float)"]}],
      "rules": [{"output": 0, "kind": "broadcast"},
                {"output": 1, "kind": "elementwise", "input": 0, "elem_type": "bool"}]
    }
  ]
})json";

class CustomSchemasTest : public ::testing::Test {
 protected:
  void SetUp() override {
    registry_ = BuiltinSchemas();
    Status st = LoadCustomSchemas(kOps, "ops.json", registry_);
    ASSERT_TRUE(st.ok()) << st.message();
  }
  SchemaRegistry registry_;
};

TEST_F(CustomSchemasTest, SignatureIsRegistered) {
  const OpSchema* s = registry_.Lookup("my.ops", "SplitHeads", 3);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->Id(), "my.ops::SplitHeads-1");
  EXPECT_TRUE(s->FindAttribute("heads")->required);
  EXPECT_EQ(s->FindAttribute("mode")->default_value->s(), "fast");
  EXPECT_EQ(s->FindAttribute("scales")->default_value->floats_size(), 2);
  EXPECT_EQ(s->FindAttribute("axes")->default_value->ints(1), -1);
  EXPECT_EQ(s->FindAttribute("acts")->default_value->strings(1), "Relu");
  EXPECT_FLOAT_EQ(s->FindAttribute("alpha")->default_value->f(), 0.25f);
  EXPECT_EQ(s->FindAttribute("k")->default_value->i(), 3);
  EXPECT_EQ(s->AllowedTypes("T")->size(), 2u);
  // The built-ins are still there.
  EXPECT_NE(registry_.Lookup("", "Relu", 14), nullptr);
}

TEST_F(CustomSchemasTest, ShapeRuleEvaluatesExpressions) {
  auto run = RunRule(registry_, R"(op_type: "SplitHeads" domain: "my.ops" input: "x" output: "y"
      attribute { name: "heads" type: INT i: 12 })",
                     1, {T("float[B, S, 768]")});
  EXPECT_EQ(run.Summary(), "float[B, 12, S, 64]");
}

TEST_F(CustomSchemasTest, ShapeRuleErrorsNameTheProblem) {
  auto run = RunRule(registry_, R"(op_type: "SplitHeads" domain: "my.ops" input: "x" output: "y"
      attribute { name: "heads" type: INT i: 12 })",
                     1, {T("float[B]")});
  EXPECT_EQ(run.Summary(), "error: input 0 'x': the rule expects rank 3, got rank 1");
  run = RunRule(registry_, R"(op_type: "SplitHeads" domain: "my.ops" input: "x" output: "y")", 1,
                {T("float[B, S, 768]")});
  EXPECT_EQ(run.Summary(), "error: attribute 'heads': required but not given");
}

TEST_F(CustomSchemasTest, SameAsInputBroadcastAndElementwise) {
  EXPECT_EQ(RunRule(registry_, R"(op_type: "Passthrough" domain: "my.ops" input: "x" output: "y")",
                    1, {T("float[N, 3]")})
                .Summary(),
            "float[N, 3]");
  EXPECT_EQ(
      RunRule(
          registry_,
          R"(op_type: "FusedAdd" domain: "my.ops" input: "a" input: "b" output: "y" output: "m")",
          1, {T("float[N, 1]"), T("float[4]")})
          .Summary(),
      "float[N, 4]; bool[N, 1]");
}

// ---- The `shape` rule: formulas, slices and ranks (custom_shape_rule.h).

// Loads domain "t" with one operator, t.Op(X, W optional) -> Y, int attributes k (default 3)
// and pad (default 0) and a float attribute alpha, whose rule is the JSON object `rule`.
Status LoadOp(SchemaRegistry& registry, const std::string& rule) {
  return LoadCustomSchemas(R"j({"domain": "t", "operators": [{"name": "Op",
      "inputs": [{"name": "X", "type": "T"}, {"name": "W", "type": "T", "option": "optional"}],
      "outputs": [{"name": "Y", "type": "T"}],
      "attributes": [{"name": "k", "type": "int", "default": 3},
                     {"name": "pad", "type": "int", "default": 0},
                     {"name": "alpha", "type": "float", "default": 1.0}],
      "type_constraints": [{"type_param": "T", "allowed": ["tensor(float)"]}],
      "rule": )j" + rule + "}]}",
                           "t.json", registry);
}

// The rule applied to inputs x (and w) of these types, with `attrs` as NodeProto text: the
// output's type, "error: ..." from the rule, or "load error: ..." from the schema.
std::string Apply(const std::string& rule, const std::vector<Type>& inputs,
                  const std::string& attrs = "") {
  SchemaRegistry registry;
  Status st = LoadOp(registry, rule);
  if (!st.ok()) return "load error: " + st.message();
  std::string node = R"(op_type: "Op" domain: "t" input: "x" )";
  if (inputs.size() > 1) node += R"(input: "w" )";
  return RunRule(registry, node + R"(output: "y" )" + attrs, 1, inputs).Summary();
}

// The reported bug: a rule written for rank 4 gave float[3, H, floor(H/2), floor(W/2)] for
// a rank-3 input. Stated, the rank is checked; unstated, the rule does not load.
TEST(ShapeRuleRanks, RuleForRank4OnRank3IsAnError) {
  const std::string halve = R"({"kind": "shape", "ranks": {"0": 4},
      "dims": ["in0[0]", "in0[1]", "in0[-2] / 2", "in0[-1] / 2"]})";
  EXPECT_EQ(Apply(halve, {T("float[N, C, H, W]")}), "float[N, C, floor(H/2), floor(W/2)]");
  EXPECT_EQ(Apply(halve, {T("float[3, H, W]")}),
            "error: input 0 'x': the rule expects rank 4, got rank 3");
  // An input of unknown rank leaves the dims that use it unknown; the output's rank is the
  // rule's.
  EXPECT_EQ(Apply(halve, {T("float")}), "float[?, ?, ?, ?]");

  EXPECT_EQ(Apply(R"({"kind": "shape",
                      "dims": ["in0[0]", "in0[1]", "in0[-2] / 2", "in0[-1] / 2"]})",
                  {T("float[3, H, W]")}),
            "load error: t.json: operators[0].rule.dims[0]: in0[0]: the rule does not state the "
            "rank of input 0 and no slice of it runs to its end (like in0[1:] or in0[:-2]); add "
            "\"ranks\": {\"0\": R} for the rank R it is written for, or {\"0\": {\"min\": R1, "
            "\"max\": R2}}");
}

// Through the driver, the diagnostic names the graph, node and operator too.
TEST(ShapeRuleRanks, TheDiagnosticNamesOperatorAndInput) {
  SchemaRegistry registry = BuiltinSchemas();
  ASSERT_TRUE(LoadOp(registry, R"({"kind": "shape", "ranks": {"0": 4},
      "dims": ["in0[0]", "in0[1]", "in0[-2] / 2", "in0[-1] / 2"]})")
                  .ok());
  auto model = syntax::ParseModelText(R"(<ir_version: 8, opset_import: ["" : 17, "t" : 1]>
      main (float[3, H, W] img) => (y) { y = t.Op(img) })");
  ASSERT_TRUE(model.ok()) << model.status().message();
  InferenceResult r = InferShapes(*model, registry, InferenceOptions());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(
      r.diagnostics[0].Render("m.onnx"),
      "m.onnx: error[OI8002]: graph 'main' node #0 (t::Op-1): input 0 'img': the rule expects "
      "rank 4, got rank 3");
}

// A formula is parsed at load, in the context current then, and evaluated in each run's own
// context (InferShapes opens one per run): its dims must be made in the run's context. Debug
// builds (tools/tsan.sh compiles with assertions) abort when two contexts' dims combine.
TEST(ShapeRuleRanks, FormulasEvaluateInTheRunsSymbolContext) {
  SchemaRegistry registry = BuiltinSchemas();
  ASSERT_TRUE(LoadOp(registry, R"({"kind": "shape", "ranks": {"0": 4},
      "dims": ["in0[0]", "in0[1] * 2", "in0[-2] / 2", "in0[-1] / 2"]})")
                  .ok());
  auto model = syntax::ParseModelText(R"(<ir_version: 8, opset_import: ["" : 17, "t" : 1]>
      main (float[N, C, H, W] img) => (y) { y = t.Op(img) })");
  ASSERT_TRUE(model.ok()) << model.status().message();
  for (int run = 0; run < 2; ++run) {
    onnx::ModelProto m = *model;
    InferenceResult r = InferShapes(m, registry, InferenceOptions());
    EXPECT_TRUE(r.diagnostics.empty());
    const Type* y = r.TypeOf("main", "y");
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->ToString(), "float[N, 2*C, floor(H/2), floor(W/2)]");
  }
}

TEST(ShapeRuleRanks, ExactMinAndMax) {
  const std::string at_least_2 =
      R"({"kind": "shape", "ranks": {"0": {"min": 2}}, "dims": ["in0[-1]", "in0[0]"]})";
  EXPECT_EQ(Apply(at_least_2, {T("float[A, B, C]")}), "float[C, A]");
  EXPECT_EQ(Apply(at_least_2, {T("float[A]")}),
            "error: input 0 'x': the rule expects rank >= 2, got rank 1");
  const std::string two_to_3 =
      R"({"kind": "shape", "ranks": {"0": {"min": 2, "max": 3}}, "dims": ["in0[-1]", "in0[0]"]})";
  EXPECT_EQ(Apply(two_to_3, {T("float[A, B]")}), "float[B, A]");
  EXPECT_EQ(Apply(two_to_3, {T("float[A, B, C, D]")}),
            "error: input 0 'x': the rule expects rank 2 to 3, got rank 4");
  // Every kind of rule may state ranks; inputs it does not use included.
  const std::string elementwise = R"({"kind": "elementwise", "ranks": {"0": {"max": 2}, "1": 1}})";
  EXPECT_EQ(Apply(elementwise, {T("float[A, B]"), T("float[B]")}), "float[A, B]");
  EXPECT_EQ(Apply(elementwise, {T("float[A, B, C]"), T("float[B]")}),
            "error: input 0 'x': the rule expects rank <= 2, got rank 3");
  EXPECT_EQ(Apply(elementwise, {T("float[A, B]"), T("float[B, 1]")}),
            "error: input 1 'w': the rule expects rank 1, got rank 2");
  // An index must exist at every rank the statement allows.
  EXPECT_EQ(Apply(R"({"kind": "shape", "ranks": {"0": {"max": 3}}, "dims": ["in0[0]"]})",
                  {T("float[A]")}),
            "load error: t.json: operators[0].rule.dims[0]: in0[0] needs rank >= 1, but "
            "\"ranks\" allows input 0 rank 0");
  EXPECT_EQ(Apply(R"({"kind": "shape", "ranks": {"0": {"min": 1}}, "dims": [1, "in0[:-2]"]})",
                  {T("float[A]")}),
            "load error: t.json: operators[0].rule.dims[1]: in0[:-2] needs rank >= 2, but "
            "\"ranks\" allows input 0 rank 1");
}

TEST(ShapeRuleSlices, SpliceDimsOfAnyRank) {
  // A slice that runs to the input's end states how the output rank follows the input's,
  // so the rank need not be stated: the least rank at which every reference exists is.
  const std::string pool =
      R"({"kind": "shape", "dims": ["in0[:-2]", "in0[-2] / 2", "in0[-1] / 2"]})";
  EXPECT_EQ(Apply(pool, {T("float[N, C, H, W]")}), "float[N, C, floor(H/2), floor(W/2)]");
  EXPECT_EQ(Apply(pool, {T("float[H, 9]")}), "float[floor(H/2), 4]");
  EXPECT_EQ(Apply(pool, {T("float[W]")}),
            "error: input 0 'x': the rule expects rank >= 2, got rank 1");
  EXPECT_EQ(Apply(pool, {T("float")}), "float");  // the output's rank is unknown
  EXPECT_EQ(Apply(R"({"kind": "shape", "dims": ["in0[1:]", "in0[0]"]})", {T("float[A, B, C]")}),
            "float[B, C, A]");
  EXPECT_EQ(Apply(R"({"kind": "shape", "dims": ["in0[1:]"]})", {T("float[A]")}), "float[]");
  EXPECT_EQ(
      Apply(R"({"kind": "shape", "dims": ["in0[:]", "in0[0] * attr.k"]})", {T("float[A, B]")}),
      "float[A, B, 3*A]");
  const std::string middle = R"({"kind": "shape", "dims": ["in0[0]", "in0[2:-1]", "in0[-1]"]})";
  EXPECT_EQ(Apply(middle, {T("float[A, B, C, D, E]")}), "float[A, C, D, E]");
  EXPECT_EQ(Apply(middle, {T("float[A, B, C]")}), "float[A, C]");
  EXPECT_EQ(Apply(middle, {T("float[A, B]")}),
            "error: input 0 'x': the rule expects rank >= 3, got rank 2");
  // A slice of fixed length (both bounds from one end) says nothing of the rank.
  EXPECT_EQ(Apply(R"({"kind": "shape", "dims": ["in0[-2:]"]})", {T("float[A, B, C]")}),
            "load error: t.json: operators[0].rule.dims[0]: in0[-2:]: the rule does not state "
            "the rank of input 0 and no slice of it runs to its end (like in0[1:] or in0[:-2]); "
            "add \"ranks\": {\"0\": R} for the rank R it is written for, or {\"0\": {\"min\": "
            "R1, \"max\": R2}}");
  EXPECT_EQ(
      Apply(R"({"kind": "shape", "ranks": {"0": {"min": 2}}, "dims": ["in0[-2:]", "in0[0:1]"]})",
            {T("float[A, B, C]")}),
      "float[B, C, A]");
  // Each input on its own: a slice of input 0 does not excuse an index into input 1.
  EXPECT_EQ(
      Apply(R"({"kind": "shape", "dims": ["in0[:]", "in1[-1]"]})", {T("float[A]"), T("float[B]")})
          .substr(0, 99),
      "load error: t.json: operators[0].rule.dims[1]: in1[-1]: the rule does not state the "
      "rank of input 1");
  EXPECT_EQ(Apply(R"({"kind": "shape", "ranks": {"1": 1}, "dims": ["in0[:]", "in1[-1]"]})",
                  {T("float[A]"), T("float[B]")}),
            "float[A, B]");
}

TEST(ShapeRuleFormulas, FunctionsOfSymbolicDims) {
  const std::string conv = R"j({"kind": "shape", "ranks": {"0": 4}, "dims": [
      "floor((in0[2] - 1) / 2) + 1", "ceiling(in0[3] / 2)", "Mod(in0[1], 4)",
      "Min(in0[0], in0[1]) + Max(in0[2], 1)"]})j";
  EXPECT_EQ(Apply(conv, {T("float[N, C, H, W]")}),
            "float[floor((H + 1)/2), floor((W + 1)/2), Mod(C, 4), Min(C, N) + Max(1, H)]");
  EXPECT_EQ(Apply(conv, {T("float[2, 6, 7, 9]")}), "float[4, 5, 2, 9]");
  EXPECT_EQ(Apply(conv, {T("float[?, 6, H, ?]")}), "float[floor((H + 1)/2), ?, 2, ?]");
  // Outside floor(...) and ceiling(...), `/` is floor division, as it always was; `//` and
  // `%` are Python's.
  const std::string halves = R"j({"kind": "shape", "ranks": {"0": 1}, "dims": [
      "in0[0] / 2 * 2", "ceiling(in0[0] / 2)", "in0[0] // 2", "in0[0] % 2",
      "ceiling(in0[0] / 2) / 2", "ceiling(Max(in0[0] / 2, 1) / 2)"]})j";
  // The last: Max is the nearest call around the first `/`, so it floors (3); the second
  // is directly inside ceiling, so exact (3/2 rounds up to 2).
  EXPECT_EQ(Apply(halves, {T("float[7]")}), "float[6, 4, 3, 1, 2, 2]");
  EXPECT_EQ(Apply(halves, {T("float[N]")}),
            "float[2*floor(N/2), floor((N + 1)/2), floor(N/2), Mod(N, 2), floor((N + 1)/4), "
            "floor((Max(1, floor(N/2)) + 1)/2)]");
}

TEST(ShapeRuleFormulas, AttributesAreTheirValues) {
  const std::string padded = R"j({"kind": "shape", "ranks": {"0": 1},
      "dims": ["in0[0] + Max(attr.pad, 0)", "in0[0] / attr.k"]})j";
  EXPECT_EQ(Apply(padded, {T("float[N]")}), "float[N, floor(N/3)]");  // the defaults
  EXPECT_EQ(Apply(padded, {T("float[N]")}, R"(attribute { name: "pad" type: INT i: 5 })"),
            "float[N + 5, floor(N/3)]");
  // Attributes may be negative, so they are not symbols (which are >= 0) but values.
  EXPECT_EQ(Apply(padded, {T("float[N]")}, R"(attribute { name: "pad" type: INT i: -2 })"),
            "float[N, floor(N/3)]");
  EXPECT_EQ(Apply(padded, {T("float[12]")}, R"(attribute { name: "k" type: INT i: 0 })"),
            "error: output 0 dim 1 'in0[0] / attr.k' with k = 0: overflow or division by zero");
  EXPECT_EQ(Apply(R"({"kind": "shape", "dims": ["attr.pad - 1"]})", {T("float[A]")}),
            "error: output 0 dim 0 'attr.pad - 1': evaluates to -1, a negative size");
  EXPECT_EQ(Apply(R"({"kind": "shape", "dims": ["attr.alpha"]})", {T("float[A]")}),
            "load error: t.json: operators[0].rule.dims[0]: attr.alpha: the operator has no int "
            "attribute 'alpha'");
  EXPECT_EQ(Apply(R"({"kind": "shape", "dims": ["attr.heads"]})", {T("float[A]")}),
            "load error: t.json: operators[0].rule.dims[0]: attr.heads: the operator has no int "
            "attribute 'heads'");
}

TEST(ShapeRuleErrors, SayWhereInTheFormula) {
  const std::pair<const char*, const char*> cases[] = {
      {R"(["N + 1"])",
       "dims[0]: 'N + 1' at column 1: unknown name 'N': expected inK[i], inK[a:b], attr.NAME or "
       "one of the functions floor, ceiling, Mod, Min, Max"},
      {R"(["in0[0] in0[1]"])", "dims[0]: 'in0[0] in0[1]' at column 8: unexpected 'in0[1]'"},
      {R"([1, "floor(in0[0]"])",
       "dims[1]: 'floor(in0[0]' at column 13: expected ')' after the arguments of floor"},
      {R"j(["foo(in0[0])"])j", "dims[0]: 'foo(in0[0])' at column 1: unknown name 'foo'"},
      {R"(["floor in0[0]"])", "dims[0]: 'floor in0[0]' at column 7: expected '(' after 'floor'"},
      {R"(["in0[1:] * 2"])",
       "dims[0]: 'in0[1:] * 2' at column 1: a slice (in0[1:]) is spliced into the shape as a "
       "dims entry of its own; it cannot be part of a formula"},
      {R"(["in0[-0]"])", "dims[0]: 'in0[-0]' at column 5: -0 is 0 (the front); write 0"},
      {R"(["in0[-2:1]"])",
       "dims[0]: 'in0[-2:1]' at column 1: in0[-2:1] starts from the back and stops from the "
       "front"},
      {R"(["in0[3:1]"])", "dims[0]: 'in0[3:1]' at column 1: in0[3:1] starts after it stops"},
      {R"(["in0[0"])", "dims[0]: 'in0[0' at column 6: expected ']'"},
      {R"(["in0[]"])", "dims[0]: 'in0[]' at column 5: expected an index or a slice"},
      {R"(["in0.5"])", "dims[0]: 'in0.5' at column 4: expected '[' after 'in0'"},
      {R"(["attr."])", "dims[0]: 'attr.' at column 6: expected an attribute name after 'attr.'"},
      {R"(["in2[0]"])", "dims[0]: in2[0]: there is no input 2 (the operator has 2)"},
      {R"([-1])", "dims[0]: a dim cannot be negative, got -1"},
      {R"([true])", "dims[0]: expected a string or integer"},
  };
  for (const auto& [dims, error] : cases) {
    SchemaRegistry r;
    Status st =
        LoadOp(r, std::string(R"({"kind": "shape", "ranks": {"0": 1}, "dims": )") + dims + "}");
    ASSERT_FALSE(st.ok()) << dims;
    const std::string expected = std::string("t.json: operators[0].rule.") + error;
    EXPECT_EQ(st.message().substr(0, expected.size()), expected) << st.message();
  }
}

TEST(ShapeRuleErrors, NestingIsBounded) {
  SchemaRegistry r;
  const std::string deep = std::string(5000, '(') + "in0[0]" + std::string(5000, ')');
  Status st = LoadOp(r, R"({"kind": "shape", "ranks": {"0": 1}, "dims": [")" + deep + R"("]})");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("nested too deeply"), std::string::npos) << st.message();
}

TEST(ShapeRuleErrors, RankStatements) {
  const std::pair<const char*, const char*> cases[] = {
      {R"([4])", "ranks: expected an object from input numbers to ranks, like {\"0\": 4}"},
      {R"({"x": 4})", "ranks.x: expected an input number (\"0\", \"1\", ...) as the key"},
      {R"({"-1": 4})", "ranks.-1: expected an input number"},
      {R"({"2": 4})", "ranks.2: there is no input 2 (the operator has 2)"},
      {R"({"0": "4"})", "ranks.0: expected a rank (an integer) or {\"min\": ..., \"max\": ...}"},
      {R"({"0": -1})", "ranks.0: expected ranks from 0 to 1000"},
      {R"({"0": {}})", "ranks.0: give min, max or both"},
      {R"({"0": {"mn": 1}})", "ranks.0.mn: unknown key (expected one of: min, max)"},
      {R"({"0": {"min": 3, "max": 2}})", "ranks.0.max: is below min (3)"},
      {R"({"0": {"min": 1.5}})", "ranks.0.min: expected an integer"},
  };
  for (const auto& [ranks, error] : cases) {
    SchemaRegistry r;
    Status st = LoadOp(r, std::string(R"({"kind": "same_as_input", "ranks": )") + ranks + "}");
    ASSERT_FALSE(st.ok()) << ranks;
    const std::string expected = std::string("t.json: operators[0].rule.") + error;
    EXPECT_EQ(st.message().substr(0, expected.size()), expected) << st.message();
  }
}

struct BadCase {
  const char* json;
  const char* error;
};

TEST(CustomSchemasErrorsTest, SayWhereTheProblemIs) {
  const BadCase cases[] = {
      {"{", "x.json: not valid JSON: "},
      {"[1]", "x.json: [0]: expected an object, got number"},
      {R"j({"operators": []})j", "x.json: domain: required"},
      {R"j({"domain": "", "operators": []})j",
       "x.json: domain: custom operators need a domain of their own, not ai.onnx"},
      {R"j({"domain": "d", "operators": [{"nam": "X"}]})j",
       "x.json: operators[0].nam: unknown key (expected one of: name, since_version, doc, "
       "inputs, outputs, attributes, type_constraints, rule, rules)"},
      {R"j({"domain": "d", "operators": [{"name": "X", "inputs": [{"name": "a"}]}]})j",
       "x.json: operators[0].inputs[0].type: required"},
      {R"j({"domain": "d", "operators": [{"name": "X", "inputs": [{"name": "a", "type": "T", "option": "maybe"}]}]})j",
       "x.json: operators[0].inputs[0].option: expected single, optional or variadic, got 'maybe'"},
      {R"j({"domain": "d", "operators": [{"name": "X", "inputs": [{"name": "a", "type": "T"}]}]})j",
       "x.json: operators[0]: d::X-1: 'a' has type 'T', which is neither a constrained type "
       "parameter nor a type"},
      {R"j({"domain": "d", "operators": [{"name": "X", "attributes": [{"name": "k", "type": "int", "default": "x"}]}]})j",
       "x.json: operators[0].attributes[0].default: does not match the attribute's type"},
      {R"j({"domain": "d", "operators": [{"name": "X", "outputs": [{"name": "y", "type": "tensor(float)"}], "rule": {"kind": "same"}}]})j",
       "x.json: operators[0].rule.kind: expected one of same_as_input, broadcast, elementwise, "
       "shape; got 'same'"},
      {R"j({"domain": "d", "operators": [{"name": "X", "outputs": [{"name": "y", "type": "tensor(float)"}], "rule": {"kind": "shape", "dims": ["in0[0] +"]}}]})j",
       "x.json: operators[0].rule.dims[0]: 'in0[0] +' at column 9: unexpected end"},
      {R"j({"domain": "d", "operators": [{"name": "X", "outputs": [{"name": "y", "type": "tensor(float)"}], "rule": {"kind": "same_as_input", "output": 3}}]})j",
       "x.json: operators[0].rule: output 3 does not exist"},
      {R"j({"domain": "d", "operators": [{"name": "X"}, {"name": "X"}]})j",
       "x.json: operators[1]: schema d::X-1 is already registered"},
  };
  for (const auto& c : cases) {
    SchemaRegistry r;
    Status st = LoadCustomSchemas(c.json, "x.json", r);
    ASSERT_FALSE(st.ok()) << c.json;
    EXPECT_EQ(st.message().substr(0, std::string(c.error).size()), c.error) << st.message();
  }
}

// Issue 27: type strings and JSON nested past the nesting limit are errors at load, not a
// stack overflow, whether or not a model uses the operator; a type nested just below the
// limit still loads.
std::string Nest(const std::string& open, const std::string& inner, const std::string& close,
                 int depth) {
  std::string out;
  for (int i = 0; i < depth; ++i) out += open;
  out += inner;
  for (int i = 0; i < depth; ++i) out += close;
  return out;
}

std::string OpWithTypes(const std::string& input_type, const std::string& allowed) {
  return R"({"domain": "d", "operators": [{"name": "X", "inputs": [{"name": "a", "type": ")" +
         input_type + R"("}], "outputs": [{"name": "y", "type": "T"}], "type_constraints": )" +
         R"([{"type_param": "T", "allowed": [")" + allowed + R"("]}]}]})";
}

TEST(CustomSchemasErrorsTest, DeepTypeStringsAreRefused) {
  const std::string limit =
      "nested too deeply: more than 128 levels (the nesting limit, "
      "docs/limits.md)";
  const std::pair<std::string, std::string> cases[] = {
      {OpWithTypes("T", Nest("seq(", "tensor(float)", ")", 20000)),
       "x.json: operators[0]: d::X-1: type constraint T: type string 'seq(seq("},
      {OpWithTypes("T", Nest("map(int64, ", "float", ")", 20000)),
       "x.json: operators[0]: d::X-1: type constraint T: type string 'map(int64, "},
      {OpWithTypes(Nest("optional(", "tensor(float)", ")", 20000), "tensor(float)"),
       "x.json: operators[0]: d::X-1: 'a': type string 'optional(optional("},
  };
  for (const auto& [json, start] : cases) {
    SchemaRegistry r;
    Status st = LoadCustomSchemas(json, "x.json", r);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.message().substr(0, start.size()), start) << st.message().substr(0, 300);
    EXPECT_NE(st.message().find(limit), std::string::npos) << st.message().substr(0, 300);
    EXPECT_LT(st.message().size(), 300u) << "the type string is quoted in full";
  }
  // Real types nest a few levels; just below the limit loads.
  SchemaRegistry r;
  EXPECT_TRUE(
      LoadCustomSchemas(OpWithTypes("T", Nest("seq(", "tensor(float)", ")", 127)), "x.json", r)
          .ok());
  EXPECT_TRUE(ParseTypeString(Nest("optional(", "tensor(float)", ")", kMaxNestingDepth - 1)).ok());
  EXPECT_FALSE(ParseTypeString(Nest("optional(", "tensor(float)", ")", kMaxNestingDepth)).ok());
}

TEST(CustomSchemasErrorsTest, DeepJsonIsRefused) {
  for (const std::string& deep :
       {Nest("[", "", "]", 100000), Nest("{\"a\": ", "1", "}", 100000),
        R"({"domain": "d", "operators": [{"name": "X", "doc": "[[[[", "inputs": )" +
            Nest("[", "", "]", 200) + "}]}"}) {
    SchemaRegistry r;
    Status st = LoadCustomSchemas(deep, "x.json", r);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.message(),
              "x.json:1: arrays and objects nested deeper than 128 levels (the "
              "nesting limit, docs/limits.md)");
  }
  // Brackets inside strings do not count, escaped quotes do not end them.
  SchemaRegistry r;
  const std::string doc = R"({"domain": "d", "operators": [{"name": "X", "doc": "\"[[[)" +
                          std::string(500, '[') + R"("}]})";
  Status st = LoadCustomSchemas(doc, "x.json", r);
  EXPECT_TRUE(st.ok()) << st.message();
}

}  // namespace
}  // namespace onnx_infer
