// Helpers for tests of rules and types (testonly).
#ifndef ONNX_INFER_SCHEMA_TEST_UTIL_H_
#define ONNX_INFER_SCHEMA_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/schema/type.h"
#include "onnx_infer/symbolic/unifier.h"

namespace onnx_infer::testing {

// Reads a type written as Type::ToString writes it: "float[N, 3, ?]", "int64[]", "float"
// (rank unknown), "?" (unknown), "seq(float[N])", "optional(int64[])",
// "sparse_tensor(float[M, K])", "map(string, float)". Fails the test on anything else.
Type T(const std::string& text);

// An int64 vector value, e.g. a Reshape's shape input.
ConstValue Int64s(const std::vector<int64_t>& values);

struct RuleRun {
  Status status;
  std::vector<Type> outputs;
  std::vector<std::optional<ConstValue>> values;
  std::vector<std::string> warnings;
  // The facts the rule recorded ("K == 64 (node of output 'y' (Gemm): contracted dims)"),
  // when RunRule was given a unifier.
  std::vector<std::string> facts;
  // "float[N, 5]" for one output, "float[2]; int64[]" for several, or "error: <message>".
  std::string Summary() const;
};

// Runs the rule of the schema that `node_text` (a NodeProto in protobuf text format) resolves
// to in `opset` of its domain, on inputs of the given types and values. With a unifier the
// rule records its facts there, as under the driver, and output shapes are resolved by them.
RuleRun RunRule(const SchemaRegistry& registry, const std::string& node_text, int64_t opset,
                const std::vector<Type>& inputs,
                const std::vector<std::optional<ConstValue>>& values = {},
                symbolic::Unifier* unifier = nullptr);

// Checks a rule run against a table row's expectation: "error: <text>" means the rule
// failed with a message containing <text>; anything else must equal run.Summary().
bool ExpectsError(const std::string& expected);
::testing::AssertionResult RunMatches(const RuleRun& run, const std::string& expected);

// A value's elements as "[B, 4]": integers and reals as they are, quotients as "N/2", or
// "(N + 1)/3~" when rounded, an unknown element as "?".
std::string ValueText(const ConstValue& v);

// An int64 scalar value, possibly symbolic.
ConstValue Scalar(Dim d);
ConstValue Scalar(int64_t i);

// An int64 vector of integers, symbols and expressions, as `int64[...]` dims read them:
// Dims({"B", "S + 1", "768"}). Ints gives it any shape: Ints({3, 2}, {"0", "N", ...}).
ConstValue Dims(const std::vector<std::string>& items);
ConstValue Ints(std::vector<int64_t> dims, const std::vector<std::string>& items);
// A float or double value of any shape.
ConstValue Reals(int32_t type, std::vector<int64_t> dims, std::vector<double> items);
// A float scalar holding a symbolic size, as Cast(Shape(x)[i]) to float makes it.
ConstValue FloatSize(const char* dim);
// An integer or bool value of element type `type` and any shape, elements given as dims:
// Ints(kBool, {2}, {Dim::Const(0), Dim::Const(1)}).
ConstValue Ints(int32_t type, std::vector<int64_t> dims, std::vector<Dim> items);
// A float or double value whose elements hold sizes, as a Cast of Shape(x) to float makes
// them: each a quotient Q(num, den), `rounded` when the float could not hold it exactly.
ConstValue Quotients(int32_t type, std::vector<int64_t> dims, std::vector<RealQuotient> items);
RealQuotient Q(Dim num, int64_t den = 1, bool rounded = false);
// The symbols H and W, for spatial sizes in value tables.
extern const Dim kH;
extern const Dim kW;

// NodeProto text: op_type (and domain, when not empty), inputs and outputs ("" for an
// omitted one), then `attrs` as made by IntAttr / IntsAttr.
std::string Node(const char* op, const std::vector<const char*>& inputs,
                 const std::vector<const char*>& outputs, const std::string& attrs = "",
                 const char* domain = "");
// A node of `op` with `n` inputs a, b, c... and the output y, then `attrs`: the nodes of
// the elementwise tables, OpNode("Add", 2).
std::string OpNode(const std::string& op, int n, const std::string& attrs = "");
std::string IntAttr(const char* name, int64_t i);
std::string IntsAttr(const char* name, const std::vector<int64_t>& values);
std::string FloatAttr(const char* name, float f);
std::string FloatsAttr(const char* name, const std::vector<float>& values);
std::string StrAttr(const char* name, const char* s);
std::string StrsAttr(const char* name, const std::vector<const char*>& values);

// One row of a rule's table test: the node, the opset of its domain, the input types ("" for
// an unknown one) and known values, and what RunMatches expects (RuleRun::Summary(), or
// "error: <part of the message>"). With `expected_value`, output 0's value is checked too:
// "" for none, "[B, 4]" for its elements (ValueText), or its whole ConstValue::ToString
// ("int64[2] {B, 4}"). A table test is its rows and two lines:
//   using XRuleTest = RuleTableTest;
//   TEST_P(XRuleTest, Infers) { EXPECT_TRUE(RunRuleCase(BuiltinSchemas(), GetParam())); }
struct RuleCase {
  const char* name;
  std::string node;  // NodeProto text, e.g. from Node()
  int64_t opset;
  std::vector<const char*> inputs;
  std::vector<std::optional<ConstValue>> values;
  std::string expected;
  std::optional<std::string> expected_value = std::nullopt;
};
std::ostream& operator<<(std::ostream& os, const RuleCase& c);  // the row's name
class RuleTableTest : public ::testing::TestWithParam<RuleCase> {};
::testing::AssertionResult RunRuleCase(const SchemaRegistry& registry, const RuleCase& c);

}  // namespace onnx_infer::testing

#endif  // ONNX_INFER_SCHEMA_TEST_UTIL_H_
