#include "onnx_infer/schema/custom_schemas.h"

#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/test_util.h"

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
      "rule": {"kind": "shape", "dims": ["in0[0]", "attr.heads", "in0[1]", "in0[-1] / attr.heads"]}
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
      attribute { name: "heads" type: INT i: 12 })", 1, {T("float[B, S, 768]")});
  EXPECT_EQ(run.Summary(), "float[B, 12, S, 64]");
}

TEST_F(CustomSchemasTest, ShapeRuleErrorsNameTheProblem) {
  auto run = RunRule(registry_, R"(op_type: "SplitHeads" domain: "my.ops" input: "x" output: "y"
      attribute { name: "heads" type: INT i: 12 })", 1, {T("float[B]")});
  EXPECT_EQ(run.Summary(), "error: in0[1]: input 0 has rank 1");
  run = RunRule(registry_, R"(op_type: "SplitHeads" domain: "my.ops" input: "x" output: "y")", 1,
                {T("float[B, S, 768]")});
  EXPECT_EQ(run.Summary(), "error: attribute 'heads': required but not given");
}

TEST_F(CustomSchemasTest, SameAsInputBroadcastAndElementwise) {
  EXPECT_EQ(RunRule(registry_, R"(op_type: "Passthrough" domain: "my.ops" input: "x" output: "y")",
                    1, {T("float[N, 3]")}).Summary(),
            "float[N, 3]");
  EXPECT_EQ(RunRule(registry_,
                    R"(op_type: "FusedAdd" domain: "my.ops" input: "a" input: "b" output: "y" output: "m")",
                    1, {T("float[N, 1]"), T("float[4]")}).Summary(),
            "float[N, 4]; bool[N, 1]");
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
       "x.json: operators[0].rule.dims[0]: 'in0[0] +' at column 9: expected a number"},
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

}  // namespace
}  // namespace onnx_infer
