// Table tests of signature checking against the built-in catalog: a node, the opset and input
// types in; the issues and the output types the signature implies out.
#include "onnx_infer/schema/signature.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/test_util.h"
#include "onnx_infer/schema/type_constraint.h"

namespace onnx_infer {
namespace {

using testing::T;

struct Case {
  const char* name;
  const char* node;
  int64_t opset;
  std::vector<std::string> inputs;  // type text; "" = unknown (or omitted)
  std::string issues;               // "error: ...; warning: ..." or ""
  std::string outputs;              // TypeFromSignature of each output, "; "-joined
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

Type ParseInput(const std::string& text) {
  if (text.empty()) return Type();
  if (text.find('(') != std::string::npos) {  // seq(...), map(...): no shapes needed here
    auto t = ParseTypeString(text);
    EXPECT_TRUE(t.ok()) << text;
    return t.ok() ? *t : Type();
  }
  return T(text);
}

class SignatureTest : public ::testing::TestWithParam<Case> {};

// A node in text form, its schema at `opset` and its input types (ParseInput's forms).
struct Prepared {
  onnx::NodeProto node;
  const OpSchema* schema = nullptr;
  std::vector<Type> types;
  std::vector<const Type*> ptrs;  // into `types`
};

void Prepare(const std::string& text, int64_t opset, const std::vector<std::string>& inputs,
             Prepared& p) {
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &p.node)) << text;
  p.schema = BuiltinSchemas().Lookup(p.node.domain(), p.node.op_type(), opset);
  ASSERT_NE(p.schema, nullptr) << text;
  for (const auto& t : inputs) p.types.push_back(ParseInput(t));
  for (const auto& t : p.types) p.ptrs.push_back(&t);
}

TEST_P(SignatureTest, Checks) {
  const Case& c = GetParam();
  Prepared p;
  ASSERT_NO_FATAL_FAILURE(Prepare(c.node, c.opset, c.inputs, p));
  SignatureCheck check = CheckSignature(p.node, *p.schema, p.ptrs);
  std::vector<std::string> issues;
  for (const auto& i : check.issues) {
    issues.push_back(StrCat(SeverityName(i.severity), ": ", i.message));
  }
  EXPECT_EQ(StrJoin(issues, "; "), c.issues);
  std::vector<std::string> outputs;
  for (int o = 0; o < p.node.output_size(); ++o) {
    outputs.push_back(TypeFromSignature(*p.schema, check, o).ToString());
    // The copy-free form says the same, null for unknown.
    const Type* type = SignatureOutputType(*p.schema, check, o);
    EXPECT_EQ(type ? type->ToString() : "?", outputs.back()) << "output " << o;
  }
  EXPECT_EQ(StrJoin(outputs, "; "), c.outputs);
}

// A SignatureCheck reused for the next node (the driver's way) says what a fresh one says:
// the last check's bindings (tensors, a sequence, more of them than the case binds) do not
// leak into it.
TEST_P(SignatureTest, ReusedCheckAgreesWithAFreshOne) {
  const Case& c = GetParam();
  Prepared p;
  ASSERT_NO_FATAL_FAILURE(Prepare(c.node, c.opset, c.inputs, p));
  const SignatureCheck fresh = CheckSignature(p.node, *p.schema, p.ptrs);

  struct Before {
    const char* node;
    std::vector<std::string> inputs;
    size_t bindings;
  };
  for (const Before& before :
       {Before{R"(op_type: "SequenceInsert" input: "s" input: "t" input: "i" output: "y")",
               {"seq(tensor(float))", "float[3]", "int64[]"},
               3},
        Before{R"(op_type: "Where" input: "c" input: "a" input: "b" output: "y")",
               {"bool[2]", "int64[2]", "int64[2]"},
               2},
        Before{R"(op_type: "Add" input: "a" input: "b" output: "y")",
               {"double[2]", "double[2]"},
               1}}) {
    Prepared first;
    ASSERT_NO_FATAL_FAILURE(Prepare(before.node, 17, before.inputs, first));
    SignatureCheck reused;
    CheckSignature(first.node, *first.schema, first.ptrs, reused);
    ASSERT_EQ(reused.bindings.size(), before.bindings) << before.node;
    ASSERT_TRUE(reused.issues.empty()) << before.node << ": " << reused.issues[0].message;

    CheckSignature(p.node, *p.schema, p.ptrs, reused);
    SCOPED_TRACE(before.node);
    EXPECT_EQ(reused.arity_error, fresh.arity_error);
    ASSERT_EQ(reused.issues.size(), fresh.issues.size());
    for (size_t i = 0; i < fresh.issues.size(); ++i) {
      EXPECT_EQ(reused.issues[i].severity, fresh.issues[i].severity);
      EXPECT_EQ(reused.issues[i].message, fresh.issues[i].message);
      EXPECT_EQ(reused.issues[i].type_constraint, fresh.issues[i].type_constraint);
      EXPECT_EQ(reused.issues[i].conflicting_param, fresh.issues[i].conflicting_param);
    }
    ASSERT_EQ(reused.bindings.size(), fresh.bindings.size());
    for (size_t b = 0; b < fresh.bindings.size(); ++b) {
      EXPECT_EQ(reused.bindings[b].param, fresh.bindings[b].param);
      EXPECT_EQ(reused.bindings[b].type, fresh.bindings[b].type);
      EXPECT_EQ(reused.bindings[b].type.has_shape(), fresh.bindings[b].type.has_shape());
      EXPECT_EQ(reused.bindings[b].type.denotation(), fresh.bindings[b].type.denotation());
      EXPECT_EQ(reused.bindings[b].input, fresh.bindings[b].input);
    }
    for (int o = 0; o < p.node.output_size(); ++o) {
      EXPECT_EQ(TypeFromSignature(*p.schema, reused, o).ToString(),
                TypeFromSignature(*p.schema, fresh, o).ToString())
          << "output " << o;
    }
  }
}

void ExpectSameCheck(const Prepared& p, const SignatureCheck& got, const SignatureCheck& want) {
  EXPECT_EQ(got.arity_error, want.arity_error);
  ASSERT_EQ(got.issues.size(), want.issues.size());
  for (size_t i = 0; i < want.issues.size(); ++i) {
    EXPECT_EQ(got.issues[i].severity, want.issues[i].severity);
    EXPECT_EQ(got.issues[i].message, want.issues[i].message);
    EXPECT_EQ(got.issues[i].strict_only, want.issues[i].strict_only);
    EXPECT_EQ(got.issues[i].subject.ToString(), want.issues[i].subject.ToString());
    EXPECT_EQ(got.issues[i].type_constraint, want.issues[i].type_constraint);
    EXPECT_EQ(got.issues[i].conflicting_param, want.issues[i].conflicting_param);
  }
  ASSERT_EQ(got.bindings.size(), want.bindings.size());
  for (size_t b = 0; b < want.bindings.size(); ++b) {
    EXPECT_EQ(got.bindings[b].param, want.bindings[b].param);
    EXPECT_EQ(got.bindings[b].type, want.bindings[b].type);
    EXPECT_EQ(got.bindings[b].type.has_shape(), want.bindings[b].type.has_shape());
    EXPECT_EQ(got.bindings[b].type.denotation(), want.bindings[b].type.denotation());
    EXPECT_EQ(got.bindings[b].input, want.bindings[b].input);
  }
  for (int o = 0; o < p.node.output_size(); ++o) {
    EXPECT_EQ(TypeFromSignature(*p.schema, got, o).ToString(),
              TypeFromSignature(*p.schema, want, o).ToString())
        << "output " << o;
  }
}

// A check through a SignatureMemo says what a fresh check says: for the node checked again
// (from the memo when the first check found nothing), and after a node of the same operator
// that differs in what the outcome depends on (its input types, its attributes) was
// remembered.
TEST_P(SignatureTest, MemoAgreesWithAFreshCheck) {
  const Case& c = GetParam();
  Prepared p;
  ASSERT_NO_FATAL_FAILURE(Prepare(c.node, c.opset, c.inputs, p));
  const SignatureCheck fresh = CheckSignature(p.node, *p.schema, p.ptrs);

  // What the memo keeps: a node whose check found nothing, with its names all given, few
  // inputs and attributes, and tensor or unknown inputs.
  bool kept = fresh.issues.empty() && p.node.input_size() <= SignatureMemo::kMaxInputs &&
              p.node.attribute_size() <= SignatureMemo::kMaxAttributes;
  for (const auto& name : p.node.input()) kept = kept && !name.empty();
  for (const auto& name : p.node.output()) kept = kept && !name.empty();
  for (const Type* t : p.ptrs) kept = kept && (t->is_unknown() || t->is_tensor());

  const std::vector<std::string> all_float(c.inputs.size(), "float[2]");
  const std::vector<std::string> all_int64(c.inputs.size(), "int64[]");
  std::vector<std::string> first_bool = c.inputs;
  if (!first_bool.empty()) first_bool[0] = "bool[3]";
  struct Before {
    const char* what;
    std::vector<std::string> inputs;
    bool drop_attributes;
  };
  for (const Before& before :
       {Before{"the node itself", c.inputs, false}, Before{"float inputs", all_float, false},
        Before{"int64 inputs", all_int64, false}, Before{"a bool first input", first_bool, false},
        Before{"no attributes", c.inputs, true}}) {
    SCOPED_TRACE(before.what);
    Prepared first;
    ASSERT_NO_FATAL_FAILURE(Prepare(c.node, c.opset, before.inputs, first));
    if (before.drop_attributes) first.node.clear_attribute();
    SignatureMemo memo;
    SignatureCheck check;
    CheckSignature(first.node, *first.schema, first.ptrs, check, &memo);
    if (before.inputs == c.inputs && !before.drop_attributes) {
      bool remembered = false;
      for (const auto& e : memo.entries) remembered = remembered || e.schema == p.schema;
      EXPECT_EQ(remembered, kept);
    }
    for (int round = 0; round < 2; ++round) {
      SCOPED_TRACE(round);
      CheckSignature(p.node, *p.schema, p.ptrs, check, &memo);
      ExpectSameCheck(p, check, fresh);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    TypeConstraints, SignatureTest,
    ::testing::Values(
        Case{"binds_shared_parameter",
             R"(op_type: "Add" input: "a" input: "b" output: "y")",
             14,
             {"float[2]", "float[N]"},
             "",
             "float"},
        Case{"shared_parameter_disagrees",
             R"(op_type: "Add" input: "a" input: "b" output: "y")",
             14,
             {"float[2]", "int64[2]"},
             "error: input 1 'b': T is int64 here but float for input 0 'a'",
             "float"},
        Case{"type_not_allowed",
             R"(op_type: "Add" input: "a" input: "b" output: "y")",
             14,
             {"string[2]", ""},
             "error: input 0 'a': type string is not allowed for T (allowed: uint8, uint16, "
             "uint32, uint64, int8, int16, int32, int64, ... (12 in all))",
             "?"},
        Case{"unknown_types_are_not_errors",
             R"(op_type: "Add" input: "a" input: "b" output: "y")",
             14,
             {"", "float"},
             "",
             "float"},
        Case{"literal_input_type",
             R"(op_type: "Reshape" input: "x" input: "s" output: "y")",
             14,
             {"float[6]", "float[2]"},
             "error: input 1 's': type float is not allowed for tensor(int64) (allowed: int64)",
             "float"},
        Case{"single_allowed_output_type",
             R"(op_type: "Shape" input: "x" output: "y")",
             21,
             {"float[N, 3]"},
             "",
             "int64"},
        Case{
            "variadic_homogeneous_must_agree",
            R"(op_type: "Concat" input: "a" input: "b" input: "c" output: "y" attribute { name: "axis" type: INT i: 0 })",
            13,
            {"float[1]", "float[2]", "int32[3]"},
            "error: input 2 'c': T is int32 here but float for input 0 'a'",
            "float"},
        Case{
            "variadic_heterogeneous_may_differ",
            R"(op_type: "Loop" input: "M" input: "cond" input: "v0" input: "v1" output: "o0" output: "o1" attribute { name: "body" type: GRAPH g { name: "b" } })",
            21,
            {"int64[]", "bool[]", "float[2]", "int64[3]"},
            "",
            "?; ?"},
        Case{
            "heterogeneous_outputs_are_not_bound_by_inputs",
            R"(op_type: "SequenceMap" input: "s" output: "o" attribute { name: "body" type: GRAPH g { name: "b" } })",
            17,
            {"seq(tensor(float))"},
            "",
            "?"},
        Case{"sequence_types",
             R"(op_type: "SequenceAt" input: "s" input: "p" output: "y")",
             11,
             {"seq(tensor(float))", "int64[]"},
             "",
             "?"},
        Case{"sequence_type_not_allowed",
             R"(op_type: "SequenceAt" input: "s" input: "p" output: "y")",
             11,
             {"float[2]", "int64[]"},
             "error: input 0 's': type float is not allowed for S (allowed: seq(uint8), "
             "seq(uint16), seq(uint32), seq(uint64), seq(int8), seq(int16), seq(int32), "
             "seq(int64), ... (15 in all))",
             "?"},
        Case{
            "map_output_literal",
            R"(op_type: "ZipMap" domain: "ai.onnx.ml" input: "x" output: "z" attribute { name: "classlabels_int64s" type: INTS ints: 1 })",
            1,
            {"float[N, 2]"},
            "",
            "?"}));

INSTANTIATE_TEST_SUITE_P(
    Arity, SignatureTest,
    ::testing::Values(
        Case{"too_many_inputs",
             R"(op_type: "Relu" input: "a" input: "b" output: "y")",
             14,
             {"float[1]", "float[1]"},
             "error: expected 1 inputs, got 2",
             "float"},
        Case{"too_few_inputs",
             R"(op_type: "Add" input: "a" output: "y")",
             14,
             {"float[1]"},
             "error: expected 2 inputs, got 1",
             "float"},
        Case{"trailing_optional_outputs_omitted",
             R"(op_type: "Dropout" input: "x" output: "y")",
             22,
             {"float[4]"},
             "",
             "float"},
        Case{"optional_output_given",
             R"(op_type: "Dropout" input: "x" input: "" input: "t" output: "y" output: "m")",
             22,
             {"float[4]", "", "bool[]"},
             "",
             "float; bool"},
        Case{"middle_optional_input_omitted",
             R"(op_type: "Clip" input: "x" input: "" input: "hi" output: "y")",
             13,
             {"float[4]", "", "float[]"},
             "",
             "float"},
        Case{"required_input_omitted",
             R"(op_type: "Reshape" input: "x" input: "" output: "y")",
             14,
             {"float[6]", ""},
             "error: input 1 ('shape') is required but omitted (empty name)",
             "float"},
        Case{"required_output_omitted",
             R"(op_type: "Relu" input: "x" output: "")",
             14,
             {"float[6]"},
             "error: output 0 ('Y') is required but omitted (empty name)",
             "float"},
        Case{
            "all_outputs_optional",
            R"(op_type: "LSTM" input: "x" input: "w" input: "r" output: "" output: "" output: "yc" attribute { name: "hidden_size" type: INT i: 4 })",
            22,
            {"float[S, B, 3]", "float[1, 16, 3]", "float[1, 16, 4]"},
            "",
            "float; float; float"},
        Case{"too_many_outputs",
             R"(op_type: "Relu" input: "x" output: "y" output: "z")",
             14,
             {"float[6]"},
             "error: expected 1 outputs, got 2",
             "float; ?"}));

INSTANTIATE_TEST_SUITE_P(
    Attributes, SignatureTest,
    ::testing::Values(
        Case{
            "unknown_attribute",
            R"(op_type: "Relu" input: "x" output: "y" attribute { name: "alpha" type: FLOAT f: 1 })",
            14,
            {"float[1]"},
            "warning: attribute 'alpha' is not an attribute of Relu-14",
            "float"},
        Case{"missing_required_attribute",
             R"(op_type: "Concat" input: "a" output: "y")",
             13,
             {"float[1]"},
             "error: attribute 'axis' is required but not given",
             "float"},
        Case{
            "wrong_attribute_type",
            R"(op_type: "Concat" input: "a" output: "y" attribute { name: "axis" type: INTS ints: 0 })",
            13,
            {"float[1]"},
            "error: attribute 'axis': expected type int, got ints",
            "float"},
        Case{"untyped_attribute_of_old_models",
             R"(op_type: "Concat" input: "a" output: "y" attribute { name: "axis" i: 0 })",
             4,
             {"float[1]"},
             "",
             "float"},
        Case{"empty_list_attribute",
             R"(op_type: "Transpose" input: "a" output: "y" attribute { name: "perm" })",
             13,
             {"float[1]"},
             "",
             "float"},
        Case{
            "repeated_attribute",
            R"(op_type: "Concat" input: "a" output: "y" attribute { name: "axis" type: INT i: 0 } attribute { name: "axis" type: INT i: 0 })",
            13,
            {"float[1]"},
            "error: attribute 'axis' is given more than once",
            "float"},
        Case{
            "attribute_reference_in_function",
            R"(op_type: "Concat" input: "a" output: "y" attribute { name: "axis" type: INT ref_attr_name: "ax" })",
            13,
            {"float[1]"},
            "",
            "float"}));

// Each issue about one input, output or attribute carries it as its subject.
TEST(SignatureSubjectTest, IssuesNameWhatTheyAreAbout) {
  onnx::NodeProto node;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      R"(op_type: "Concat" input: "a" input: "b" output: "y"
         attribute { name: "axis" type: FLOAT f: 1 }
         attribute { name: "bogus" type: INT i: 1 })",
      &node));
  const OpSchema* schema = BuiltinSchemas().Lookup("", "Concat", 13);
  ASSERT_NE(schema, nullptr);
  const Type f = testing::T("float"), i = testing::T("int64");
  SignatureCheck check = CheckSignature(node, *schema, {&f, &i});
  std::vector<std::string> subjects;
  for (const auto& issue : check.issues) {
    EXPECT_EQ(issue.message.rfind(issue.subject.ToString(), 0), 0u) << issue.message;
    subjects.push_back(issue.subject.ToString());
  }
  EXPECT_EQ(StrJoin(subjects, "; "), "attribute 'axis'; attribute 'bogus'; input 1 'b'");
}

TEST(TypeStringTest, ParsesEveryFormOfTheCatalog) {
  EXPECT_EQ(ParseTypeString("tensor(float)")->ToString(), "float");
  EXPECT_EQ(ParseTypeString("seq(tensor(int64))")->ToString(), "seq(int64)");
  EXPECT_EQ(ParseTypeString("optional(seq(tensor(uint8)))")->ToString(), "optional(seq(uint8))");
  EXPECT_EQ(ParseTypeString("map(int64, float)")->ToString(), "map(int64, float)");
  EXPECT_EQ(ParseTypeString("seq(map(string, float))")->ToString(), "seq(map(string, float))");
  EXPECT_EQ(ParseTypeString("sparse_tensor(float)")->ToString(), "sparse_tensor(float)");
  EXPECT_FALSE(ParseTypeString("tensor(floaty)").ok());
  EXPECT_FALSE(ParseTypeString("tensor(float").ok());
  EXPECT_FALSE(ParseTypeString("float").ok());
  EXPECT_FALSE(ParseTypeString("tensor(float) x").ok());
}

TEST(VersionResolutionTest, BuiltinTable) {
  struct Row {
    const char* domain;
    const char* op;
    int opset;
    int expected;
  };
  const Row rows[] = {
      {"", "Reshape", 5, 5},
      {"", "Reshape", 13, 13},
      {"", "Reshape", 20, 19},
      {"", "Reshape", 28, 25},
      {"", "Reshape", 4, 1},
      {"", "Add", 6, 6},
      {"", "Add", 12, 7},
      {"ai.onnx", "Add", 14, 14},
      {"", "Gelu", 19, 0},
      {"ai.onnx.ml", "TreeEnsembleClassifier", 3, 3},
      {"ai.onnx.ml", "TreeEnsemble", 4, 0},
      {"ai.onnx.ml", "TreeEnsemble", 5, 5},
  };
  for (const Row& r : rows) {
    const OpSchema* s = BuiltinSchemas().Lookup(r.domain, r.op, r.opset);
    EXPECT_EQ(s ? s->since_version() : 0, r.expected) << r.op << " in opset " << r.opset;
  }
  EXPECT_TRUE(BuiltinSchemas().Lookup("", "Upsample", 10)->deprecated());
  EXPECT_EQ(BuiltinSchemas().OpsetRange(""), std::make_pair(1, 28));
  EXPECT_EQ(BuiltinSchemas().OpsetRange("ai.onnx.ml"), std::make_pair(1, 5));
  EXPECT_EQ(BuiltinSchemas().OpsetRange("com.unknown"), std::nullopt);
}

TEST(FunctionBodyTest, CatalogBodiesAreKept) {
  const OpSchema* celu = BuiltinSchemas().Lookup("", "Celu", 28);
  ASSERT_EQ(celu->function_bodies().size(), 1u);
  EXPECT_EQ(celu->function_bodies()[0].opset, 28);
  EXPECT_NE(celu->function_bodies()[0].text.find("Celu"), std::string::npos);
  int with_body = 0, context_dependent = 0;
  for (const OpSchema* s : BuiltinSchemas().All()) {
    with_body += !s->function_bodies().empty();
    context_dependent += s->context_dependent_function();
  }
  EXPECT_EQ(with_body, 40);
  EXPECT_EQ(context_dependent, 32);
}

// The bit test of OpSchema::Finalize()'s allowed sets against the slow path it replaces:
// every formal parameter of every built-in schema, every element type, with and without a
// shape, and the kinds the bits do not decide.
TEST(AllowedTypeSetTest, BitTestAgreesWithMatchingEachPattern) {
  using symbolic::Tri;
  int checked = 0;
  for (const OpSchema* schema : BuiltinSchemas().All()) {
    for (const auto* params : {&schema->inputs(), &schema->outputs()}) {
      for (const auto& p : *params) {
        const AllowedTypeSet* set = schema->Allowed(p);
        ASSERT_NE(set, nullptr) << schema->Id() << " " << p.name;
        EXPECT_EQ(&set->types, schema->AllowedTypes(p.type)) << schema->Id() << " " << p.name;
        bool is_param = false;
        for (const auto& c : schema->type_constraints()) is_param |= c.param == p.type;
        EXPECT_EQ(set->type_param, is_param) << schema->Id() << " " << p.name;
        for (int32_t e = 0; e <= 30; ++e) {
          for (const Type& t : {Type::Tensor(e), Type::Tensor(e, Shape{Dim::Const(2)}),
                                Type::SparseTensor(e), Type::Sequence(Type::Tensor(e))}) {
            bool any_unknown = false;
            Tri expected = Tri::kFalse;
            for (const auto& pattern : set->types) {
              Tri m = MatchesPattern(t, pattern);
              if (m == Tri::kTrue) expected = Tri::kTrue;
              any_unknown |= m == Tri::kUnknown;
            }
            if (expected != Tri::kTrue && any_unknown) expected = Tri::kUnknown;
            EXPECT_TRUE(set->Matches(t) == expected)
                << schema->Id() << " " << p.name << " " << t.ToString();
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 100000);
}

}  // namespace
}  // namespace onnx_infer
