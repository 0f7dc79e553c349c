// Specialization (inference/specialize.h): the text forms of --bind, --input-shape and
// --set-input, the checks against a model, what Specialize does to the declarations, and how
// InferShapes uses the options (values by name or by index, from any symbol context). The
// end-to-end results are also golden cases (testdata/cases/specialize/).
#include "onnx_infer/inference/specialize.h"

#include <gtest/gtest.h>

#include <memory>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/symbolic/context.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

onnx::ModelProto Model(const std::string& graph, int ir_version = 8) {
  auto m = syntax::ParseModelText("<ir_version: " + std::to_string(ir_version) +
                                  ", opset_import: [\"\" : 17]>\n" + graph);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : onnx::ModelProto();
}

std::string InputType(const onnx::ModelProto& m, int i) {
  return TypeFromProto(m.graph().input(i).type()).ToString();
}

std::string OutputType(const onnx::ModelProto& m, int i) {
  return TypeFromProto(m.graph().output(i).type()).ToString();
}

std::vector<std::string> Messages(const InferenceResult& r) {
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics) out.push_back(d.message);
  return out;
}

// ---- Text forms.

TEST(ParseBindingsTest, ReadsSymbolsAndValues) {
  auto b = ParseBindings("B=1, S=128,S=128");
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->size(), 2u);
  EXPECT_EQ(b->at("B"), 1);
  EXPECT_EQ(b->at("S"), 128);
}

TEST(ParseBindingsTest, RefusesWhatIsNoBinding) {
  for (const char* bad : {"B", "=3", "B=-1", "B=x", "B=1.5", "B=1,B=2", ""}) {
    EXPECT_FALSE(ParseBindings(bad).ok()) << bad;
  }
  EXPECT_EQ(ParseBindings("B=1,B=2").status().message(), "B is bound twice: to 1 and to 2");
}

TEST(ParseInputShapeTest, ReadsNameAndDims) {
  auto s = ParseInputShape("x:1,3,H,W");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->first, "x");
  EXPECT_EQ(s->second, (std::vector<std::string>{"1", "3", "H", "W"}));
  // The name ends at the last ':'; commas inside parentheses belong to the dim; brackets and
  // '?' are allowed; "x:" is a scalar.
  s = ParseInputShape("input:0:[N, Max(A, B), ?]");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->first, "input:0");
  EXPECT_EQ(s->second, (std::vector<std::string>{"N", "Max(A, B)", "?"}));
  s = ParseInputShape("x:");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->second.empty());
}

TEST(ParseInputShapeTest, RefusesBadDims) {
  EXPECT_FALSE(ParseInputShape("x").ok());
  EXPECT_FALSE(ParseInputShape(":1,2").ok());
  EXPECT_FALSE(ParseInputShape("x:1,,2").ok());
  EXPECT_EQ(ParseInputShape("x:1,-2").status().message(), "dim '-2' is negative");
  EXPECT_FALSE(ParseInputShape("x:1,a b").ok());
}

TEST(ParseInputValueTest, ReadsIntegersRealsAndBooleans) {
  auto v = ParseInputValue("sr=16000");
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(v->name, "sr");
  EXPECT_TRUE(v->fit_dims);
  EXPECT_EQ(v->value.elem_type, 0);
  EXPECT_EQ(v->value.ConstInts(), (std::vector<int64_t>{16000}));
  v = ParseInputValue("pads=0, 1,-2");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->value.ConstInts(), (std::vector<int64_t>{0, 1, -2}));
  // One real makes every element a real.
  v = ParseInputValue("scales=1,2.5");
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->value.ints.empty());
  EXPECT_EQ(v->value.reals, (std::vector<double>{1.0, 2.5}));
  v = ParseInputValue("flag=true");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->value.ConstInts(), (std::vector<int64_t>{1}));
  // Brackets make a 1-D value whatever the declaration.
  v = ParseInputValue("axes=[1]");
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->fit_dims);
  EXPECT_EQ(v->value.dims, (std::vector<int64_t>{1}));
}

TEST(ParseInputValueTest, RefusesWhatIsNoValue) {
  EXPECT_FALSE(ParseInputValue("sr").ok());
  EXPECT_FALSE(ParseInputValue("=1").ok());
  EXPECT_FALSE(ParseInputValue("sr=").ok());
  EXPECT_EQ(ParseInputValue("sr=16k").status().message(), "'16k' in 'sr=16k' is not a number");
}

// ---- Checks against a model.

TEST(CheckSpecializationTest, NamesTheFirstProblem) {
  onnx::ModelProto m = Model(R"(
    main (float[N, 4] x, int64[2] shape, seq(float[N]) s) => (y) { y = Reshape(x, shape) })");
  InferenceOptions options;
  EXPECT_TRUE(CheckSpecialization(m, options).ok());
  options.input_shapes["q"] = {"1"};
  EXPECT_EQ(CheckSpecialization(m, options).message(),
            "input shape for 'q': the model has no graph input 'q'");
  options.input_shapes = {{"s", {"2"}}};
  EXPECT_EQ(CheckSpecialization(m, options).message(),
            "input shape for 's': the input is a seq(float[N]), not a tensor");
  options.input_shapes.clear();
  options.input_values.push_back(*ParseInputValue("shape=1,2,3"));
  EXPECT_EQ(CheckSpecialization(m, options).message(),
            "input value for 'shape': the value's dim 0 is 3, the input is declared int64[2]");
  options.input_values = {*ParseInputValue("shape=2,2")};
  EXPECT_TRUE(CheckSpecialization(m, options).ok());
  // A value of a float input must fit too, and the facts the options state must agree: x's
  // value binds N == 2, which --bind N=3 contradicts.
  options.input_values = {*ParseInputValue("x=1,2,3,4,5,6,7,8")};
  EXPECT_EQ(CheckSpecialization(m, options).message(),
            "input value for 'x': the input is declared float[N, 4], of rank 2 with dims not "
            "known: state its shape with an input shape (--input-shape)");
  options.input_shapes["x"] = {"2", "4"};
  EXPECT_TRUE(CheckSpecialization(m, options).ok());
  options.input_values = {*ParseInputValue("shape=[2,2]")};
  options.input_shapes.clear();
  options.bind["N"] = 3;
  EXPECT_TRUE(CheckSpecialization(m, options).ok());
  // Checking leaves the model as it was.
  EXPECT_EQ(InputType(m, 0), "float[N, 4]");
}

TEST(CheckSpecializationTest, ValueFactsMustAgreeWithBindings) {
  onnx::ModelProto m = Model(R"(main (int64[N] pads, float[N] x) => (y) { y = Relu(x) })");
  InferenceOptions options;
  options.input_values = {*ParseInputValue("pads=1,2,3")};
  EXPECT_TRUE(CheckSpecialization(m, options).ok());
  options.bind["N"] = 4;
  // Bound first, N is 4 in the declaration: three elements do not fit.
  EXPECT_EQ(CheckSpecialization(m, options).message(),
            "input value for 'pads': the value's dim 0 is 3, the input is declared int64[4]");
}

// ---- What Specialize does to the declarations.

TEST(SpecializeTest, BindEvaluatesEveryDeclaredDim) {
  onnx::ModelProto m = Model(R"(
    main (float[B, "S + 1"] x, bool[] c) => (float[B, "2*S"] y) <float["S*B"] v> {
      y = If (c) <then_branch = g () => (float[B, S] t) { t = Identity(x) },
                  else_branch = h () => (float[S] e) { e = Identity(x) }>
    })");
  InferenceOptions options;
  options.bind = {{"B", 2}, {"S", 5}};
  Specialization s = Specialize(m, options);
  EXPECT_TRUE(s.errors.empty());
  EXPECT_EQ(InputType(m, 0), "float[2, 6]");
  EXPECT_EQ(OutputType(m, 0), "float[2, 10]");
  EXPECT_EQ(TypeFromProto(m.graph().value_info(0).type()).ToString(), "float[10]");
  const auto& then_branch = m.graph().node(0).attribute(0).g();
  EXPECT_EQ(TypeFromProto(then_branch.output(0).type()).ToString(), "float[2, 5]");
  EXPECT_EQ(s.bound_and_declared, (std::vector<std::string>{"B", "S"}));
  ASSERT_EQ(s.facts.size(), 2u);
  EXPECT_EQ(s.facts[0].lhs.ToString(), "B");
  EXPECT_EQ(s.facts[0].rhs.ToString(), "2");
}

TEST(SpecializeTest, InputShapeReplacesTheDeclaration) {
  onnx::ModelProto m = Model(R"(main (float[N, 3, 224, 224] x, y) => (z) { z = Relu(x) })");
  InferenceOptions options;
  options.input_shapes["x"] = {"1", "3", "H", "?"};
  options.input_shapes["y"] = {"2"};  // undeclared: a tensor of unknown element type
  Specialization s = Specialize(m, options);
  EXPECT_TRUE(s.errors.empty()) << s.errors.front();
  // The dim given as '?' is anonymous, so it is named.
  EXPECT_EQ(InputType(m, 0), "float[1, 3, H, x_d3]");
  EXPECT_EQ(m.graph().input(1).type().tensor_type().shape().dim_size(), 1);
  EXPECT_EQ(s.named_dims.count("x_d3"), 1u);
}

TEST(SpecializeTest, ValuesAreFittedToTheirInputs) {
  onnx::ModelProto m = Model(R"(
    main (int64[1] k, int64[2, 2] grid, int64[N] pads, int64[?] axes, float[2] scales,
          bool[] flag, uint8[] small, undeclared) => (y) { y = Identity(k) })");
  InferenceOptions options;
  for (const char* text : {"k=3", "grid=1,2,3,4", "pads=0,1,0,1", "axes=1,2", "scales=2,3",
                           "flag=false", "undeclared=7"}) {
    options.input_values.push_back(*ParseInputValue(text));
  }
  Specialization s = Specialize(m, options);
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  const auto& v = s.input_values;
  EXPECT_EQ(v.at("k").dims, (std::vector<int64_t>{1}));
  EXPECT_EQ(v.at("grid").dims, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(v.at("pads").dims, (std::vector<int64_t>{4}));
  EXPECT_EQ(v.at("scales").elem_type, kFloat);
  EXPECT_EQ(v.at("scales").reals, (std::vector<double>{2.0, 3.0}));
  EXPECT_TRUE(v.at("scales").ints.empty());
  EXPECT_EQ(v.at("flag").elem_type, kBool);
  EXPECT_TRUE(v.at("flag").dims.empty());
  EXPECT_EQ(v.at("undeclared").elem_type, kInt64);
  // The declarations take the values' shapes: an unknown dim is filled in; a declared symbol
  // stays and is bound by a fact.
  EXPECT_EQ(InputType(m, 3), "int64[2]");
  EXPECT_EQ(InputType(m, 2), "int64[N]");
  EXPECT_EQ(InputType(m, 7), "int64[]");
  ASSERT_EQ(s.facts.size(), 1u);
  EXPECT_EQ(s.facts[0].lhs.ToString(), "N");
  EXPECT_EQ(s.facts[0].rhs.ToString(), "4");
  EXPECT_EQ(s.facts[0].origin, "value given for input 'pads' dim 0");

  options.input_values = {*ParseInputValue("small=300"), *ParseInputValue("flag=2"),
                          *ParseInputValue("k=1.5"), *ParseInputValue("k=1")};
  s = Specialize(m, options);
  EXPECT_EQ(s.errors, (std::vector<std::string>{
                          "input value for 'small': 300 does not fit uint8",
                          "input value for 'flag': 2 does not fit bool",
                          "input value for 'k': 1.5 is not an integer, but the input is int64",
                      }));
  EXPECT_EQ(s.input_values.size(), 1u);  // k=1: the rejected k=1.5 did not count as given
}

TEST(SpecializeTest, AnonymousInputDimsGetStableNames) {
  onnx::ModelProto m = Model(R"(
    main (float[?, -1, N] "in.0", float[x_d0] y, float[?] x, float[?] w) => (z) { z = Relu(x) }
    )",
                             /*ir_version=*/8);
  auto* w = m.mutable_graph()->add_initializer();
  w->set_name("w");
  w->set_data_type(kFloat);
  w->add_dims(2);
  w->add_float_data(1);
  w->add_float_data(2);
  Specialization s = Specialize(m, InferenceOptions{});
  EXPECT_EQ(InputType(m, 0), "float[in_0_d0, in_0_d1, N]");
  EXPECT_EQ(InputType(m, 2), "float[x_d0_2]");  // x_d0 is declared by y
  EXPECT_EQ(InputType(m, 3), "float[?]");       // initializer-backed: its dims are the tensor's
  EXPECT_EQ(s.named_dims.at("in_0_d1"),
            "input 'in.0' dim 1 of graph 'main', which the model declares as -1");
  EXPECT_EQ(s.named_dims.at("x_d0_2"),
            "input 'x' dim 0 of graph 'main', which the model leaves unnamed");
  // The same model names the same way every time; the option turns it off.
  onnx::ModelProto again = Model(R"(main (float[?] x) => (z) { z = Relu(x) })");
  InferenceOptions off;
  off.name_anonymous_dims = false;
  EXPECT_TRUE(Specialize(again, off).named_dims.empty());
  EXPECT_EQ(InputType(again, 0), "float[?]");
}

// ---- Through InferShapes.

TEST(InferShapesSpecializationTest, ValueByIndexFromAnotherContext) {
  // As the conformance harness gives a case's inputs: by position, with a ConstValue made
  // outside the run (here in a context that is not the run's).
  onnx::ModelProto m = Model(R"(
    main (float[B, 12] x, int64[3] shape) => (y) { y = Reshape(x, shape) })");
  KnownInputValue given;
  given.index = 1;
  {
    auto other = std::make_shared<symbolic::SymbolContext>();
    symbolic::SymbolContext::Scope scope(*other);
    given.value.elem_type = kInt64;
    given.value.dims = {3};
    given.value.ints = {symbolic::Dim::Const(0), symbolic::Dim::Const(3), symbolic::Dim::Const(-1)};
    InferenceOptions options;
    options.input_values.push_back(given);
    InferenceResult r = InferShapes(m, BuiltinSchemas(), options);
    EXPECT_TRUE(r.diagnostics.empty()) << r.diagnostics.front().message;
  }
  EXPECT_EQ(OutputType(m, 0), "float[B, 3, 4]");
}

TEST(InferShapesSpecializationTest, AGivenValueOverridesAnInitializer) {
  // An initializer-backed input (IR >= 4) is a default: its value is used (a condition says
  // so), unless the caller takes it as overridable; a given value replaces it either way.
  onnx::ModelProto m = Model(R"(
    main (float[6] x, int64[2] shape) => (y) <int64[2] shape = {2, 3}> {
      y = Reshape(x, shape)
    })");
  onnx::ModelProto unspecialized = m;
  InferShapes(unspecialized, BuiltinSchemas(), InferenceOptions{});
  EXPECT_EQ(OutputType(unspecialized, 0), "float[2, 3]");
  onnx::ModelProto overridable = m;
  InferenceOptions strict_reading;
  strict_reading.overridable_initializers = true;
  InferShapes(overridable, BuiltinSchemas(), strict_reading);
  EXPECT_EQ(OutputType(overridable, 0), "float[?, ?]");
  InferenceOptions options;
  options.input_values = {*ParseInputValue("shape=3,2")};
  InferenceResult r = InferShapes(m, BuiltinSchemas(), options);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(OutputType(m, 0), "float[3, 2]");
}

TEST(InferShapesSpecializationTest, OptionsApplyInOrderAndFactsMustAgree) {
  // Shapes, then bindings, then values: pads becomes int64[M], then int64[3], which the value
  // fits. A binding of a symbol the model does not have is a warning.
  onnx::ModelProto m = Model(R"(main (int64[N] pads, float[N] x) => (y) { y = Relu(x) })");
  InferenceOptions options;
  options.input_values = {*ParseInputValue("pads=[1,2,3]")};
  options.input_shapes["pads"] = {"M"};
  options.bind["M"] = 3;
  options.bind["Q"] = 1;
  InferenceResult r = InferShapes(m, BuiltinSchemas(), options);
  EXPECT_EQ(InputType(m, 0), "int64[3]");
  EXPECT_EQ(Messages(r), (std::vector<std::string>{"bind Q=1: the model has no symbol 'Q'"}));
  EXPECT_EQ(r.diagnostics.front().severity, Severity::kWarning);

  // A value binds a declared symbol for the rest of the model.
  onnx::ModelProto m2 = Model(R"(main (int64[N] pads, float[N] x) => (y) { y = Relu(x) })");
  options = InferenceOptions{};
  options.input_values = {*ParseInputValue("pads=1,2,3")};
  InferenceResult r2 = InferShapes(m2, BuiltinSchemas(), options);
  EXPECT_EQ(r2.facts, (std::vector<std::string>{"N == 3 (value given for input 'pads' dim 0)"}));
  EXPECT_EQ(OutputType(m2, 0), "float[3]");

  // Two values that bind N differently contradict each other: an error naming both.
  onnx::ModelProto m3 =
      Model(R"(main (int64[N] pads, int64[N] axes) => (y) { y = Identity(pads) })");
  options.input_values = {*ParseInputValue("pads=1,2,3"), *ParseInputValue("axes=0,1")};
  InferenceResult r3 = InferShapes(m3, BuiltinSchemas(), options);
  ASSERT_EQ(r3.diagnostics.size(), 1u);
  EXPECT_EQ(r3.diagnostics[0].severity, Severity::kError);
  EXPECT_NE(r3.diagnostics[0].message.find("value given for input 'axes' dim 0"), std::string::npos)
      << r3.diagnostics[0].message;
  EXPECT_NE(r3.diagnostics[0].message.find("value given for input 'pads' dim 0"), std::string::npos)
      << r3.diagnostics[0].message;
}

TEST(InferShapesSpecializationTest, NamedDimsAreListedAsIntroducedSymbols) {
  onnx::ModelProto m = Model(R"(main (float[?, 8] x) => (y) { y = Relu(x) })");
  InferenceResult r = InferShapes(m, BuiltinSchemas(), InferenceOptions{});
  ASSERT_EQ(r.symbols.size(), 1u);
  EXPECT_EQ(r.symbols[0].name, "x_d0");
  EXPECT_FALSE(r.symbols[0].declared);
  EXPECT_EQ(r.symbols[0].origin, "input 'x' dim 0 of graph 'main', which the model leaves unnamed");
  EXPECT_EQ(OutputType(m, 0), "float[x_d0, 8]");
  // Inferring the annotated model again keeps the name (now declared).
  InferenceResult again = InferShapes(m, BuiltinSchemas(), InferenceOptions{});
  ASSERT_EQ(again.symbols.size(), 1u);
  EXPECT_TRUE(again.symbols[0].declared);
}

}  // namespace
}  // namespace onnx_infer
