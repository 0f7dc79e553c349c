// API details of the driver: statistics, severities, how value_info is written back. What a
// model infers to, and which diagnostics it gets, is tested by the golden cases in
// testdata/cases/ (docs/testing.md).
#include "onnx_infer/inference/infer_shapes.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <map>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/syntax/parser.h"

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

// The built-in schemas plus domain "test" with operators that have no rule, so that what
// the driver does for such nodes is tested whatever built-in operators get rules:
// test.Opaque (T -> T, T a float type) and test.ToText (int64 -> string).
const SchemaRegistry& WithRulelessOps() {
  static const SchemaRegistry* registry = [] {
    auto* r = new SchemaRegistry(BuiltinSchemas());
    Status st = r->Register(OpSchema("test", "Opaque", 1)
                                .Input("X", "T")
                                .Input("W", "T")
                                .Output("Y", "T")
                                .TypeConstraint("T", {"tensor(float)", "tensor(double)"}));
    EXPECT_TRUE(st.ok()) << st.message();
    st = r->Register(
        OpSchema("test", "ToText", 1).Input("X", "tensor(int64)").Output("Y", "tensor(string)"));
    EXPECT_TRUE(st.ok()) << st.message();
    return r;
  }();
  return *registry;
}

onnx::ModelProto RulelessModel(const std::string& graph) {
  auto m =
      syntax::ParseModelText("<ir_version: 8, opset_import: [\"\" : 17, \"test\" : 1]>\n" + graph);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : onnx::ModelProto();
}

InferenceResult InferRuleless(onnx::ModelProto& model, bool strict = false) {
  InferenceOptions options;
  options.strict = strict;
  return InferShapes(model, WithRulelessOps(), options);
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

TEST(InferShapesTest, ValuesArePartitionedByHowMuchIsKnown) {
  onnx::ModelProto m = RulelessModel(R"(
    main (float[2, 3] x, float[N, 3] y, float[1, 3, 8, 8] img, float[4, 3, 3, 3] w,
          int64[2] s) => (a, b, c, d, e) {
      a = Relu(x)
      b = Relu(y)
      c = Reshape(x, s)
      d = test.Opaque(img, w)
      e = Identity(q)
      q = test.Opaque(d, w)
    })");
  InferenceResult r = InferRuleless(m);
  const InferenceStats& st = r.stats;
  EXPECT_EQ(st.values, 6);
  EXPECT_EQ(st.static_shaped, 1);  // a
  EXPECT_EQ(st.symbolic, 1);       // b
  EXPECT_EQ(st.partial, 1);        // c: rank 2 from the length of s, dims unknown
  EXPECT_EQ(st.type_only, 3);      // d, q, e: test.Opaque has no rule
  EXPECT_EQ(st.unknown, 0);
  EXPECT_EQ(st.static_shaped + st.symbolic + st.partial + st.type_only + st.unknown, st.values);
  EXPECT_EQ(st.shaped, st.static_shaped + st.symbolic);
  // The declared symbol N is listed with where it is declared; nothing was introduced.
  ASSERT_EQ(r.symbols.size(), 1u);
  EXPECT_EQ(r.symbols[0].name, "N");
  EXPECT_TRUE(r.symbols[0].declared);
  EXPECT_EQ(r.symbols[0].origin, "input 'y' dim 0 of graph 'main'");
}

TEST(InferShapesTest, ADeclaredSymbolMeetingAConstantBindsIt) {
  onnx::ModelProto m = Model(R"(
    main (float[N, 3] x, float[5, 3] w) => (z) <float[N, 3] h> {
      h = Relu(w)
      z = Add(x, h)
    })");
  InferenceResult r = Infer(m);
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.facts.size(), 1u);
  EXPECT_EQ(r.facts[0], "N == 5 (declared type of 'h' dim 0)");
  EXPECT_EQ(TypeFromProto(m.graph().output(0).type()).ToString(), "float[5, 3]");
}

TEST(InferShapesTest, NodesWithoutRuleAreCounted) {
  onnx::ModelProto m = RulelessModel(R"(
    main (float[1, 3, 8, 8] x, float[4, 3, 3, 3] w) => (c1, c2) {
      c1 = test.Opaque(x, w)
      c2 = test.Opaque(x, w)
    })");
  InferenceResult r = InferRuleless(m);
  EXPECT_EQ(r.stats.nodes_without_rule, 2);
  EXPECT_EQ(r.CountOf(Severity::kNote), 1);
  EXPECT_FALSE(r.HasErrors());
  onnx::ModelProto again =
      RulelessModel(R"(main (float[3] x, float[3] w) => (c) { c = test.Opaque(x, w) })");
  EXPECT_TRUE(InferRuleless(again, /*strict=*/true).HasErrors());
}

TEST(InferShapesTest, StrictTurnsWarningsIntoErrors) {
  const std::string graph = R"(main (float[4] x) => (float[5] y) { [r] y = Relu(x) })";
  InferenceOptions options;
  options.declared_policy = DeclaredPolicy::kRefine;  // whose contradictions are warnings
  onnx::ModelProto lenient = Model(graph);
  InferenceResult r = InferShapes(lenient, BuiltinSchemas(), options);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(r.diagnostics[0].node_index, 0);
  EXPECT_EQ(r.diagnostics[0].node_name, "r");
  EXPECT_EQ(r.diagnostics[0].op, "ai.onnx::Relu-14");
  onnx::ModelProto strict = Model(graph);
  options.strict = true;
  r = InferShapes(strict, BuiltinSchemas(), options);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::kError);
}

// A declared output that contradicts inference, under each policy: the severity, and which
// type the annotated model carries (and the next node reads).
TEST(InferShapesTest, DeclaredPolicies) {
  const std::string graph = R"(
    main (float[4] x) => (float[5] y, z) {
      y = Relu(x)
      z = Neg(y)
    })";
  struct Case {
    DeclaredPolicy policy;
    Severity severity;
    std::string written;  // y's type in the annotated model, and so z's
  };
  for (const Case& c : {Case{DeclaredPolicy::kInferred, Severity::kError, "float[4]"},
                        Case{DeclaredPolicy::kRefine, Severity::kWarning, "float[5]"},
                        Case{DeclaredPolicy::kOverride, Severity::kNote, "float[4]"},
                        Case{DeclaredPolicy::kStrict, Severity::kError, "float[4]"}}) {
    SCOPED_TRACE(DeclaredPolicyName(c.policy));
    EXPECT_EQ(ParseDeclaredPolicy(DeclaredPolicyName(c.policy)), c.policy);
    InferenceOptions options;
    options.declared_policy = c.policy;
    onnx::ModelProto m = Model(graph);
    InferenceResult r = InferShapes(m, BuiltinSchemas(), options);
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].severity, c.severity);
    EXPECT_EQ(r.diagnostics[0].code, kDiagDeclaredContradiction);
    EXPECT_EQ(TypeFromProto(m.graph().output(0).type()).ToString(), c.written);
    EXPECT_EQ(TypeFromProto(m.graph().output(1).type()).ToString(), c.written);
  }
  EXPECT_FALSE(ParseDeclaredPolicy("keep").has_value());
}

TEST(InferShapesTest, TheListingOfValueTypesCanBeLeftOut) {
  const std::string text = R"(
    main (float[N, 4] x) => (y) {
      h = Relu(x)
      y = Relu(h)
    })";
  onnx::ModelProto listed_model = Model(text), bare_model = Model(text);
  InferenceResult listed = InferShapes(listed_model, BuiltinSchemas(), InferenceOptions{});
  InferenceOptions options;
  options.record_value_types = false;
  InferenceResult bare = InferShapes(bare_model, BuiltinSchemas(), options);
  ASSERT_EQ(listed.value_types.count("main"), 1u);
  EXPECT_EQ(listed.value_types.at("main").values, std::vector<std::string>{"h"});
  EXPECT_EQ(listed.TypeOf("main", "h")->ToString(), "float[N, 4]");
  EXPECT_TRUE(bare.value_types.empty());
  // The annotated model and the statistics do not depend on it.
  EXPECT_EQ(bare_model.SerializeAsString(), listed_model.SerializeAsString());
  EXPECT_EQ(bare.stats.values, listed.stats.values);
  EXPECT_EQ(bare.stats.symbolic, listed.stats.symbolic);
}

// Without the listing, the main graph's write-back frees the driver's values as it goes (the
// types moved out in write order): nodes out of order, a value two nodes define, existing
// value_info, graph outputs and values of every kind of knowledge come out the same.
TEST(InferShapesTest, TheWriteBackWithoutTheListingWritesAndCountsTheSame) {
  const std::string text = R"(
    main (float[N, 4] x, int64[2] s, float u) => (y, w) <float h, float[7] d> {
      z = Relu(w)
      w = Relu(x)
      h = Relu(x)
      d = Relu(x)
      d = Relu(x)
      r = Reshape(x, s)
      k = Shape(x)
      q = Relu(u)
      y = Add(z, h)
    })";
  onnx::ModelProto listed_model = Model(text), bare_model = Model(text);
  InferenceResult listed = InferShapes(listed_model, BuiltinSchemas(), InferenceOptions{});
  InferenceOptions options;
  options.record_value_types = false;
  InferenceResult bare = InferShapes(bare_model, BuiltinSchemas(), options);
  EXPECT_EQ(bare_model.SerializeAsString(), listed_model.SerializeAsString());
  EXPECT_EQ(bare_model.graph().value_info_size(), 6);
  EXPECT_EQ(bare.stats.values, 9);  // d once per node
  for (auto count :
       {&InferenceStats::values, &InferenceStats::typed, &InferenceStats::shaped,
        &InferenceStats::static_shaped, &InferenceStats::symbolic, &InferenceStats::partial,
        &InferenceStats::type_only, &InferenceStats::unknown}) {
    EXPECT_EQ(bare.stats.*count, listed.stats.*count);
  }
  EXPECT_EQ(bare.diagnostics.size(), listed.diagnostics.size());
}

// Without the listing, the main graph's values hold their elements only up to the last node
// that reads them, in the order the nodes are inferred (here not their index order): every
// reader of `s` still gets its elements.
TEST(InferShapesTest, ElementsFreedAfterTheirLastReadInferTheSame) {
  const std::string text = R"(
    main (float[N, 6] x) => (z, w) {
      z = Reshape(x, t)
      t = Concat<axis = 0>(s, one)
      y = Reshape(x, s)
      w = Reshape(y, s)
      s = Shape(x)
      one = Constant<value = int64[1] {1}>()
    })";
  onnx::ModelProto listed_model = Model(text), bare_model = Model(text);
  InferShapes(listed_model, BuiltinSchemas(), InferenceOptions{});
  InferenceOptions options;
  options.record_value_types = false;
  InferShapes(bare_model, BuiltinSchemas(), options);
  EXPECT_EQ(bare_model.SerializeAsString(), listed_model.SerializeAsString());
  EXPECT_EQ(TypeFromProto(bare_model.graph().output(0).type()).ToString(), "float[N, 6, 1]");
  EXPECT_EQ(TypeFromProto(bare_model.graph().output(1).type()).ToString(), "float[N, 6]");
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

// ---- Tests on models in protobuf text format, for what the text syntax cannot say briefly
// (functions with attribute references, subgraph attributes, opset ranges).

onnx::ModelProto ProtoModel(const std::string& graph_text,
                            const std::string& opsets = R"(opset_import { version: 17 })") {
  onnx::ModelProto m;
  std::string text = "ir_version: 8 " + opsets + " graph { " + graph_text + " }";
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &m)) << text;
  return m;
}

std::string TensorInput(const std::string& name, const std::string& dims, int elem = 1) {
  return "input { name: \"" + name + "\" type { tensor_type { elem_type: " + std::to_string(elem) +
         " shape { " + dims + " } } } }";
}

// A model-local function local::Flip(x) = Transpose(Relu(x), perm = p), with its imports.
constexpr char kFlipFunction[] =
    R"(opset_import { version: 17 } opset_import { domain: "local" version: 1 }
         functions { name: "Flip" domain: "local" input: "x" output: "y" attribute: "p"
                     node { op_type: "Relu" input: "x" output: "r" }
                     node { op_type: "Transpose" input: "r" output: "y"
                            attribute { name: "perm" type: INTS ref_attr_name: "p" } }
                     opset_import { version: 17 } })";

// y = Flip(Flip(x)) on x: float[2, 3], the calls without `p` (the default perm reverses).
onnx::ModelProto TwoFlipCalls() {
  return ProtoModel(TensorInput("x", "dim { dim_value: 2 } dim { dim_value: 3 }") + R"(
      node { op_type: "Flip" domain: "local" input: "x" output: "a" }
      node { op_type: "Flip" domain: "local" input: "a" output: "y" }
      output { name: "y" })",
                    kFlipFunction);
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

Inferred InferProto(onnx::ModelProto model, bool strict = false) {
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

TEST(InferShapesTest, OpsetVersionsOutsideWhatExists) {
  const std::string graph =
      TensorInput("x", "dim { dim_value: 3 }") +
      R"(node { op_type: "Relu" input: "x" output: "y" } output { name: "y" })";
  auto r = InferProto(ProtoModel(graph, R"(opset_import { version: 99 })"));
  EXPECT_EQ(
      r.Diagnostics(),
      "m: warning[OI1101]: graph 'main': the model imports opset 99 of ai.onnx; this build knows "
      "versions up to 28, so operators resolve as of 28\n");
  EXPECT_EQ(r.types["y"], "float[3]");
  r = InferProto(ProtoModel(graph, R"(opset_import { version: 0 })"));
  EXPECT_EQ(
      r.Diagnostics(),
      "m: error[OI1102]: graph 'main': the model imports opset 0 of ai.onnx, which does not exist "
      "(versions start at 1)\n"
      "m: error[OI2001]: graph 'main' node #0 (ai.onnx::Relu): Relu is not in opset 0 of ai.onnx "
      "(its first version is 1)\n");
}

TEST(InferShapesTest, SignatureViolationsAreReportedAndTypesStillFlow) {
  const std::string graph =
      TensorInput("a", "dim { dim_value: 3 }") + TensorInput("b", "dim { dim_value: 3 }", 7) + R"(
      node { name: "add" op_type: "Add" input: "a" input: "b" output: "y"
             attribute { name: "alpha" type: FLOAT f: 1 } }
      output { name: "y" })";
  auto r = InferProto(ProtoModel(graph));
  EXPECT_EQ(r.Diagnostics(),
            "m: warning[OI2101]: graph 'main' node #0 'add' (ai.onnx::Add-14): attribute 'alpha' "
            "is not an "
            "attribute of Add-14\n"
            "m: error[OI2201]: graph 'main' node #0 'add' (ai.onnx::Add-14): input 1 'b': T is "
            "int64 here "
            "but float for input 0 'a'\n");
  // The shape flows; the element type could be either input's, so it is unknown.
  EXPECT_EQ(r.types["y"], "?[3]");
  auto strict = InferProto(ProtoModel(graph), true);
  EXPECT_EQ(strict.result.CountOf(Severity::kError), 2);
}

// onnx.proto: elem_type and data_type MUST NOT be UNDEFINED (onnx's test_empty_graph,
// test_concat_missing_shape, test_parse_data_with_undefined_tensor_type): an error for a
// model input and an initializer. An absent elem_type is not, nor a value_info's or a
// subgraph input's UNDEFINED, which onnx reads as "to be inferred" (test_transpose_partial,
// a Loop body's placeholders).
TEST(InferShapesTest, UndefinedElementTypesAreErrors) {
  const std::string graph = TensorInput("x", "", /*elem=*/0) +
                            TensorInput("k", "dim { dim_value: 2 }", 7) + TensorInput("n", "", 7) +
                            TensorInput("c", "", 9) + R"(
      input { name: "p" type { tensor_type { shape { dim { dim_value: 2 } } } } }
      initializer { name: "s" data_type: 0 dims: 2 }
      value_info { name: "t" type { tensor_type { elem_type: 0 shape { dim { dim_value: 2 } } } } }
      node { op_type: "Reshape" input: "x" input: "k" output: "y" }
      node { op_type: "ConstantOfShape" input: "s" output: "z" }
      node { op_type: "Transpose" input: "p" output: "t" }
      node { op_type: "Loop" input: "n" input: "c" input: "k" output: "l"
             attribute { name: "body" type: GRAPH g {
               input { name: "i" type { tensor_type { elem_type: 0 } } }
               input { name: "ci" type { tensor_type { elem_type: 0 } } }
               input { name: "v" type { tensor_type { elem_type: 0 } } }
               node { op_type: "Identity" input: "ci" output: "co" }
               node { op_type: "Identity" input: "v" output: "w" }
               output { name: "co" } output { name: "w" } } } }
      output { name: "y" } output { name: "z" } output { name: "l" })";
  auto r = InferProto(ProtoModel(graph));
  const std::string why = "the element type is UNDEFINED (0), which onnx.proto forbids\n";
  EXPECT_EQ(r.Diagnostics(), "m: error[OI1201]: graph 'main': input 0 'x': " + why +
                                 "m: error[OI1201]: graph 'main': initializer 's': " + why)
      << r.Diagnostics();
  // Inference goes on: the tensor's dims still say how long the shape is.
  EXPECT_EQ(r.types["z"], "float[?, ?]");
  EXPECT_EQ(r.types["l"], "int64[2]");
}

TEST(InferShapesTest, SignatureTypesOutputsOfOpsWithoutRules) {
  // test.ToText's output is string whatever its input; test.Opaque's is its input's type.
  onnx::ModelProto m = RulelessModel(R"(
    main (float[2, 3] x, int64[2] t) => (s, p) {
      s = test.ToText(t)
      p = test.Opaque(x, x)
    })");
  InferenceResult r = InferRuleless(m);
  EXPECT_EQ(TypeFromProto(m.graph().output(0).type()).ToString(), "string");
  EXPECT_EQ(TypeFromProto(m.graph().output(1).type()).ToString(), "float");
  EXPECT_EQ(r.stats.typed, 2);
  EXPECT_EQ(r.stats.shaped, 0);
}

TEST(InferShapesTest, ModelLocalFunctionsAreInferredThroughTheirBodies) {
  // Two calls that agree on every value: the function's value_info is filled. Attribute
  // references bind to the call's attributes, or to the function's defaults.
  onnx::ModelProto m = TwoFlipCalls();
  auto r = InferProto(m);
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["a"], "float[3, 2]");
  EXPECT_EQ(r.types["y"], "float[2, 3]");
  const auto& f = r.model.functions(0);
  ASSERT_EQ(f.value_info_size(), 0) << "calls disagree on x and r, so nothing is written";

  // Calls with the same input types: value_info is written.
  onnx::ModelProto same =
      ProtoModel(TensorInput("x", "dim { dim_value: 4 } dim { dim_value: 4 }") + R"(
      node { op_type: "Flip" domain: "local" input: "x" output: "a" attribute { name: "p" type: INTS ints: 1 ints: 0 } }
      node { op_type: "Flip" domain: "local" input: "x" output: "y" attribute { name: "p" type: INTS ints: 1 ints: 0 } }
      output { name: "a" } output { name: "y" })",
                 kFlipFunction);
  auto r2 = InferProto(same);
  EXPECT_EQ(r2.Diagnostics(), "");
  std::map<std::string, std::string> fn_types;
  for (const auto& vi : r2.model.functions(0).value_info()) {
    fn_types[vi.name()] = TypeFromProto(vi.type()).ToString();
  }
  EXPECT_EQ(fn_types["r"], "float[4, 4]");
  EXPECT_EQ(fn_types["y"], "float[4, 4]");
}

TEST(InferShapesTest, EveryCatalogFunctionBodyParses) {
  int bodies = 0;
  for (const OpSchema* s : BuiltinSchemas().All()) {
    for (const auto& body : s->function_bodies()) {
      ++bodies;
      auto f = syntax::ParseFunctionText(body.text, s->Id());
      EXPECT_TRUE(f.ok()) << s->Id() << ": " << f.status().message();
    }
  }
  EXPECT_GE(bodies, 40);
}

TEST(InferShapesTest, OpsWithoutARuleAreInferredThroughTheirSchemaBody) {
  // Shrink-9 and MeanVarianceNormalization-13 have no hand-written rule; their catalog
  // bodies give the shapes, with the schema's attribute defaults bound (MVN's axes).
  onnx::ModelProto m = Model(R"(
    main (float[N, 3] x, float[N, C, H, W] img) => (s, mvn) {
      s = Shrink <lambd = 0.5> (x)
      mvn = MeanVarianceNormalization(img)
    })");
  InferenceResult r = Infer(m, /*strict=*/true);
  EXPECT_FALSE(r.HasErrors()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].message);
  EXPECT_EQ(r.stats.nodes_without_rule, 0);
  std::map<std::string, std::string> outputs;
  for (const auto& o : m.graph().output()) outputs[o.name()] = TypeFromProto(o.type()).ToString();
  EXPECT_EQ(outputs["s"], "float[N, 3]");
  EXPECT_EQ(outputs["mvn"], "float[N, C, H, W]");
  // Nothing from inside the bodies is written into the model.
  EXPECT_EQ(m.functions_size(), 0);
  for (const auto& vi : m.graph().value_info()) ADD_FAILURE() << "unexpected " << vi.name();
}

TEST(InferShapesTest, RecursiveFunctionsAreDetected) {
  onnx::ModelProto m =
      ProtoModel(TensorInput("x", "dim { dim_value: 2 }") + R"(
      node { op_type: "Loopy" domain: "local" input: "x" output: "y" } output { name: "y" })",
                 R"(opset_import { version: 17 } opset_import { domain: "local" version: 1 }
         functions { name: "Loopy" domain: "local" input: "x" output: "y"
                     node { op_type: "Loopy" domain: "local" input: "x" output: "y" }
                     opset_import { version: 17 } opset_import { domain: "local" version: 1 } })");
  auto r = InferProto(m);
  EXPECT_EQ(r.Diagnostics(),
            "m: error[OI6101]: graph 'main/Loopy_0.local::Loopy' node #0 (local::Loopy): function "
            "local::Loopy calls itself (directly or through other functions)\n");
}

// The If branches of these tests: `then` gives x (float[N, 3] outside), `else` a constant.
constexpr char kIfBranches[] = R"(
    attribute { name: "then_branch" type: GRAPH g { name: "then"
      node { op_type: "Relu" input: "x" output: "t" }
      output { name: "t" } } }
    attribute { name: "else_branch" type: GRAPH g { name: "else"
      node { op_type: "Constant" output: "e" attribute { name: "value" type: TENSOR t {
        data_type: 1 dims: 5 dims: 3 float_data: 0 float_data: 0 float_data: 0 float_data: 0
        float_data: 0 float_data: 0 float_data: 0 float_data: 0 float_data: 0 float_data: 0
        float_data: 0 float_data: 0 float_data: 0 float_data: 0 float_data: 0 } } }
      output { name: "e" } } })";

TEST(SubgraphTest, IfMergesBranchesAndAnnotatesThem) {
  auto r = InferProto(
      ProtoModel(TensorInput("x", R"(dim { dim_param: "N" } dim { dim_value: 3 })") +
                 TensorInput("c", "", 9) + "node { op_type: \"If\" input: \"c\" output: \"y\" " +
                 kIfBranches + " } output { name: \"y\" }"));
  EXPECT_EQ(r.Diagnostics(), "");
  // N and 5 differ, so the merged dim is a fresh symbol named after the output; 3 stays.
  EXPECT_EQ(r.types["y"], "float[y__d0, 3]");
  // Inside the then-branch, the outer x is seen and t is annotated.
  const auto& then_graph = r.model.graph().node(0).attribute(0).g();
  EXPECT_EQ(TypeFromProto(then_graph.output(0).type()).ToString(), "float[N, 3]");
}

TEST(SubgraphTest, AConstantConditionPicksItsBranch) {
  auto r =
      InferProto(ProtoModel(TensorInput("x", R"(dim { dim_param: "N" } dim { dim_value: 3 })") + R"(
      node { op_type: "Constant" output: "c" attribute { name: "value" type: TENSOR t { data_type: 9 int32_data: 0 } } }
      node { op_type: "If" input: "c" output: "y" )" +
                            std::string(kIfBranches) + R"( }
      output { name: "y" })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["y"], "float[5, 3]");
}

TEST(SubgraphTest, ErrorsInsideSubgraphsNameTheirPath) {
  auto r = InferProto(ProtoModel(TensorInput("c", "", 9) + R"(
      node { name: "branch" op_type: "If" input: "c" output: "y"
        attribute { name: "then_branch" type: GRAPH g { name: "then"
          node { op_type: "Relu" input: "ghost" output: "t" } output { name: "t" } } }
        attribute { name: "else_branch" type: GRAPH g { name: "else"
          node { op_type: "Relu" input: "ghost" output: "e" } output { name: "e" } } } }
      output { name: "y" })"));
  // In the order the rule inferred the branches.
  EXPECT_EQ(
      r.Diagnostics(),
      "m: error[OI1202]: graph 'main/If_0.then_branch' node #0 (ai.onnx::Relu): input 0 'ghost' is "
      "not defined by any node, graph input or initializer\n"
      "m: error[OI1202]: graph 'main/If_0.else_branch' node #0 (ai.onnx::Relu): input 0 'ghost' is "
      "not defined by any node, graph input or initializer\n");
}

// Loop body: (i, cond, acc) -> (cond, acc ++ [1]), scan output: acc's shape each pass.
constexpr char kLoopBody[] = R"(
    attribute { name: "body" type: GRAPH g { name: "body"
      input { name: "i" type { tensor_type { elem_type: 7 shape {} } } }
      input { name: "cond_in" type { tensor_type { elem_type: 9 shape {} } } }
      input { name: "acc" }
      node { op_type: "Identity" input: "cond_in" output: "cond_out" }
      node { op_type: "Concat" input: "acc" input: "one" output: "acc_out"
             attribute { name: "axis" type: INT i: 0 } }
      node { op_type: "Relu" input: "w" output: "scan" }
      output { name: "cond_out" } output { name: "acc_out" } output { name: "scan" } } })";

TEST(SubgraphTest, LoopCarriedValuesReachAFixpointAndScanOutputsStack) {
  const std::string graph = TensorInput("acc0", "dim { dim_value: 2 }") +
                            TensorInput("one", "dim { dim_value: 1 }") +
                            TensorInput("w", "dim { dim_value: 4 }") + R"(
      node { op_type: "Constant" output: "m" attribute { name: "value_int" type: INT i: 6 } }
      node { op_type: "Loop" input: "m" input: "" input: "acc0" output: "acc" output: "scans" )" +
                            std::string(kLoopBody) + R"( }
      output { name: "acc" } output { name: "scans" })";
  auto r = InferProto(ProtoModel(graph));
  EXPECT_EQ(r.Diagnostics(), "");
  // acc grows every pass: inside the body its dim is unknown (it differs per iteration); the
  // final value's dim is one value, a fresh symbol. The trip count is 6 (no condition input).
  EXPECT_EQ(r.types["acc"], "float[acc__d0]");
  EXPECT_EQ(r.types["scans"], "float[6, 4]");
  const auto& body = r.model.graph().node(1).attribute(0).g();
  EXPECT_EQ(TypeFromProto(body.input(2).type()).ToString(), "float[?]");
}

TEST(SubgraphTest, ScanSlicesAndStacks) {
  auto r = InferProto(
      ProtoModel(TensorInput("init", "dim { dim_value: 2 }") +
                     TensorInput("xs", R"(dim { dim_param: "T" } dim { dim_value: 2 })") + R"(
      node { op_type: "Scan" input: "init" input: "xs" output: "final" output: "ys"
        attribute { name: "num_scan_inputs" type: INT i: 1 }
        attribute { name: "body" type: GRAPH g { name: "body"
          input { name: "s" } input { name: "x" }
          node { op_type: "Add" input: "s" input: "x" output: "s2" }
          node { op_type: "Identity" input: "s2" output: "y" }
          output { name: "s2" } output { name: "y" } } } }
      output { name: "final" } output { name: "ys" })",
                 R"(opset_import { version: 16 })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["final"], "float[2]");
  EXPECT_EQ(r.types["ys"], "float[T, 2]");
}

TEST(SubgraphTest, NestedIfInsideLoopInsideAFunction) {
  onnx::ModelProto m =
      ProtoModel(TensorInput("x", R"(dim { dim_param: "N" } dim { dim_value: 3 })") + R"(
      node { op_type: "Body" domain: "local" input: "x" output: "y" }
      output { name: "y" })",
                 R"(opset_import { version: 17 } opset_import { domain: "local" version: 1 }
         functions { name: "Body" domain: "local" input: "x" output: "y"
           opset_import { version: 17 }
           node { op_type: "Constant" output: "m" attribute { name: "value_int" type: INT i: 2 } }
           node { op_type: "Loop" input: "m" input: "" input: "x" output: "y"
             attribute { name: "body" type: GRAPH g { name: "lb"
               input { name: "i" type { tensor_type { elem_type: 7 shape {} } } }
               input { name: "c" type { tensor_type { elem_type: 9 shape {} } } }
               input { name: "v" }
               node { op_type: "Identity" input: "c" output: "c2" }
               node { op_type: "If" input: "c" output: "v2"
                 attribute { name: "then_branch" type: GRAPH g { name: "t"
                   node { op_type: "Relu" input: "v" output: "r" } output { name: "r" } } }
                 attribute { name: "else_branch" type: GRAPH g { name: "e"
                   node { op_type: "Identity" input: "v" output: "q" } output { name: "q" } } } }
               output { name: "c2" } output { name: "v2" } } } } })");
  auto r = InferProto(m);
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["y"], "float[N, 3]");
}

TEST(InferShapesTest, FactsFromOneNodeHoldAtTheNextAndContradictionsNameBoth) {
  const std::string inputs = TensorInput("x", R"(dim { dim_param: "N" } dim { dim_param: "K" })") +
                             TensorInput("w", "dim { dim_value: 4 } dim { dim_value: 8 }") +
                             TensorInput("v", "dim { dim_value: 3 } dim { dim_value: 8 }");
  auto r = InferProto(ProtoModel(inputs + R"(
      node { name: "mm" op_type: "MatMul" input: "x" input: "w" output: "y" }
      node { op_type: "Relu" input: "x" output: "r" }
      node { op_type: "Concat" input: "x" input: "x" output: "c" attribute { name: "axis" type: INT i: 1 } }
      output { name: "y" } output { name: "r" } output { name: "c" })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["y"], "float[N, 8]");
  EXPECT_EQ(r.types["r"], "float[N, 4]");  // K == 4 was learnt at "mm"
  EXPECT_EQ(r.types["c"], "float[N, 8]");  // 2*K, resolved

  auto bad = InferProto(ProtoModel(inputs + R"(
      node { name: "mm" op_type: "MatMul" input: "x" input: "w" output: "y" }
      node { name: "mm2" op_type: "MatMul" input: "x" input: "v" output: "z" }
      output { name: "y" } output { name: "z" })"));
  EXPECT_NE(bad.Diagnostics().find("K == 3 (node 'mm2' (MatMul): contracted dims) contradicts "
                                   "K == 4 (node 'mm' (MatMul): contracted dims)"),
            std::string::npos)
      << bad.Diagnostics();
}

TEST(InferShapesTest, ExpressionDimParamsAndSums) {
  auto r = InferProto(
      ProtoModel(TensorInput("a", R"(dim { dim_param: "N" } dim { dim_value: 2 })") +
                 TensorInput("b", R"(dim { dim_param: "N+1" } dim { dim_value: 2 })") + R"(
      node { op_type: "Concat" input: "a" input: "b" output: "y" attribute { name: "axis" type: INT i: 0 } }
      output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "unk__0" } dim { dim_value: 2 } } } } })"));
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(r.types["y"], "float[2*N + 1, 2]");
  EXPECT_EQ(r.model.graph().output(0).type().tensor_type().shape().dim(0).dim_param(), "2*N + 1");
}

// ---- InferenceResult::value_types: every value's type by graph path, and FormatValues.

std::vector<std::string> Keys(const InferenceResult& r) {
  std::vector<std::string> keys;
  for (const auto& [path, values] : r.value_types) keys.push_back(path);
  return keys;
}

std::string TypeText(const InferenceResult& r, std::string_view graph, std::string_view name) {
  const Type* t = r.TypeOf(graph, name);
  return t ? t->ToString() : "(none)";
}

TEST(ValueTypesTest, TheMainGraphInModelOrder) {
  auto m = syntax::ParseModelText(R"(<ir_version: 8, opset_import: ["" : 17, "my.ops" : 1]>
    main (float[B, S, 8] x) => (y, u) <int64[4] shape = {0, 0, 2, -1}> {
      h = Relu(x)
      u = my.ops.Fancy(h)
      h4 = Reshape(h, shape)
      v = my.ops.Fancy(h4)
      y = Transpose <perm = [0, 2, 1, 3]> (h4)
    })");
  ASSERT_TRUE(m.ok()) << m.status().message();
  InferenceResult r = Infer(*m);
  EXPECT_EQ(Keys(r), std::vector<std::string>{"main"});
  const GraphValueTypes& main = r.value_types.at("main");
  EXPECT_EQ(main.inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(main.values, (std::vector<std::string>{"h", "h4", "v"}));
  EXPECT_EQ(main.outputs, (std::vector<std::string>{"y", "u"}));
  EXPECT_EQ(TypeText(r, "main", "h4"), "float[B, S, 2, 4]");
  EXPECT_EQ(TypeText(r, "main", "v"), "?");           // a custom operator without a schema
  EXPECT_EQ(TypeText(r, "main", "shape"), "(none)");  // initializers are not listed
  EXPECT_EQ(TypeText(r, "nowhere", "x"), "(none)");
  // What infer-shapes --values prints; unknown values too.
  EXPECT_EQ(FormatValues(main),
            "inputs:\n"
            "  x: float[B, S, 8]\n"
            "values:\n"
            "  h: float[B, S, 8]\n"
            "  h4: float[B, S, 2, 4]\n"
            "  v: ?\n"
            "outputs:\n"
            "  y: float[B, 2, S, 4]\n"
            "  u: ?\n");
}

TEST(ValueTypesTest, GraphOutputsHaveTheirMergedType) {
  // y is declared float[N, 4]; inference finds float[N, ?] from the Reshape without a value:
  // the output's type is the merge, as written back.
  auto m = syntax::ParseModelText(R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[N, 8] x, int64[2] s) => (float[N, 4] y) {
      y = Reshape(x, s)
    })");
  ASSERT_TRUE(m.ok()) << m.status().message();
  InferenceResult r = Infer(*m);
  EXPECT_EQ(TypeText(r, "main", "y"), "float[N, 4]");
  EXPECT_EQ(TypeText(r, "main", "y"), TypeFromProto(m->graph().output(0).type()).ToString());
}

TEST(ValueTypesTest, SubgraphsByTheirPath) {
  auto m = syntax::ParseModelText(R"(<ir_version: 8, opset_import: ["" : 17]>
    main (bool[] c, float[N, 3] x) => (y) {
      y = If (c) <then_branch = then_g () => (t) { r = Relu(x)  t = Neg(r) },
                  else_branch = else_g () => (e) { e = Identity(x) }>
    })");
  ASSERT_TRUE(m.ok()) << m.status().message();
  InferenceResult r = Infer(*m);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(Keys(r),
            (std::vector<std::string>{"main", "main/If_0.else_branch", "main/If_0.then_branch"}));
  const GraphValueTypes& then_g = r.value_types.at("main/If_0.then_branch");
  EXPECT_TRUE(then_g.inputs.empty());
  EXPECT_EQ(then_g.values, std::vector<std::string>{"r"});
  EXPECT_EQ(then_g.outputs, std::vector<std::string>{"t"});
  EXPECT_EQ(TypeText(r, "main/If_0.then_branch", "r"), "float[N, 3]");
  EXPECT_EQ(TypeText(r, "main/If_0.then_branch", "t"), "float[N, 3]");
  EXPECT_EQ(TypeText(r, "main/If_0.then_branch", "x"), "(none)");  // the outer graph's
  EXPECT_EQ(TypeText(r, "main", "y"), "float[N, 3]");
}

// A subgraph reads a name of its own where it defines one (wherever the defining node is in
// the graph's list: the shadowing is reported, the inner value still wins), and the enclosing
// graph's value otherwise.
TEST(ValueTypesTest, ASubgraphReadsItsOwnValueBeforeAnOuterOne) {
  auto m = syntax::ParseModelText(R"(<ir_version: 8, opset_import: ["" : 17]>
    main (bool[] c, float[N] x) => (y) {
      t = Relu(x)
      y = If (c) <then_branch = then_g () => (u) { u = Identity(t)  t = Shape(x) },
                  else_branch = else_g () => (v) { v = Identity(t) }>
    })");
  ASSERT_TRUE(m.ok()) << m.status().message();
  InferenceResult r = Infer(*m);
  EXPECT_EQ(TypeText(r, "main/If_1.then_branch", "t"), "int64[1]");
  EXPECT_EQ(TypeText(r, "main/If_1.then_branch", "u"), "int64[1]");
  EXPECT_EQ(TypeText(r, "main/If_1.else_branch", "v"), "float[N]");
  EXPECT_EQ(TypeText(r, "main", "t"), "float[N]");
  int redefinitions = 0;
  for (const auto& d : r.diagnostics) {
    redefinitions += d.message == "output 't' redefines a value of an enclosing graph";
  }
  EXPECT_EQ(redefinitions, 1);
}

TEST(ValueTypesTest, ALoopBodyHasItsLastPassTypes) {
  const std::string graph = TensorInput("acc0", "dim { dim_value: 2 }") +
                            TensorInput("one", "dim { dim_value: 1 }") +
                            TensorInput("w", "dim { dim_value: 4 }") + R"(
      node { op_type: "Constant" output: "m" attribute { name: "value_int" type: INT i: 6 } }
      node { op_type: "Loop" input: "m" input: "" input: "acc0" output: "acc" output: "scans" )" +
                            std::string(kLoopBody) + R"( }
      output { name: "acc" } output { name: "scans" })";
  auto r = InferProto(ProtoModel(graph));
  EXPECT_EQ(r.Diagnostics(), "");
  const auto& body = r.result.value_types.at("main/Loop_1.body");
  EXPECT_EQ(body.inputs, (std::vector<std::string>{"i", "cond_in", "acc"}));
  // As annotated in the model: the carried value's dim differs per pass.
  EXPECT_EQ(TypeText(r.result, "main/Loop_1.body", "acc"), "float[?]");
  EXPECT_EQ(TypeText(r.result, "main/Loop_1.body", "scan"), "float[4]");
}

TEST(ValueTypesTest, ModelLocalFunctionBodiesPerCall) {
  // Two calls with different input types: each body is listed under its call's path.
  onnx::ModelProto m = TwoFlipCalls();
  auto r = InferProto(m);
  EXPECT_EQ(r.Diagnostics(), "");
  EXPECT_EQ(Keys(r.result), (std::vector<std::string>{"main", "main/Flip_0.local::Flip",
                                                      "main/Flip_1.local::Flip"}));
  EXPECT_EQ(TypeText(r.result, "main/Flip_0.local::Flip", "x"), "float[2, 3]");
  EXPECT_EQ(TypeText(r.result, "main/Flip_0.local::Flip", "r"), "float[2, 3]");
  EXPECT_EQ(TypeText(r.result, "main/Flip_0.local::Flip", "y"), "float[3, 2]");
  EXPECT_EQ(TypeText(r.result, "main/Flip_1.local::Flip", "r"), "float[3, 2]");
  EXPECT_EQ(TypeText(r.result, "main", "a"), "float[3, 2]");
}

TEST(ValueTypesTest, BodiesOfOperatorsDefinedAsFunctionsAreNotListed) {
  onnx::ModelProto m = Model(R"(
    main (float[N, 3] x) => (s) {
      s = Shrink <lambd = 0.5> (x)
    })");
  InferenceResult r = Infer(m);
  EXPECT_EQ(Keys(r), std::vector<std::string>{"main"});
  EXPECT_EQ(TypeText(r, "main", "s"), "float[N, 3]");
}

// InferenceOptions::input_values: a known input value folds the shape computations on it and
// the input declares the value's shape; a contradiction or an unknown name is an error.
KnownInputValue Int64Value(std::string name, std::vector<int64_t> dims, std::vector<int64_t> data) {
  KnownInputValue v;
  v.name = std::move(name);
  v.value.elem_type = onnx::TensorProto::INT64;
  v.value.dims = std::move(dims);
  for (int64_t e : data) v.value.ints.push_back(Dim::Const(e));
  return v;
}

TEST(InferShapesTest, GivenInputValuesFoldShapeComputations) {
  const std::string graph = R"(
    main (float[B, 12] x, int64[?] shape) => (y) {
      y = Reshape(x, shape)
    })";
  onnx::ModelProto unknown = Model(graph);
  Infer(unknown);
  EXPECT_EQ(TypeFromProto(unknown.graph().output(0).type()).ToString(), "float");

  onnx::ModelProto m = Model(graph);
  InferenceOptions options;
  options.input_values.push_back(Int64Value("shape", {3}, {0, 3, 4}));
  InferenceResult r = InferShapes(m, BuiltinSchemas(), options);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(TypeFromProto(m.graph().output(0).type()).ToString(), "float[B, 3, 4]");
  EXPECT_EQ(TypeFromProto(m.graph().input(1).type()).ToString(), "int64[3]")
      << "the input declares the value's shape";
  EXPECT_EQ(r.TypeOf("main", "shape")->ToString(), "int64[3]");

  // With data propagation off, a given value is still a constant, as an initializer is.
  onnx::ModelProto off = Model(graph);
  options.data_propagation = false;
  InferShapes(off, BuiltinSchemas(), options);
  EXPECT_EQ(TypeFromProto(off.graph().output(0).type()).ToString(), "float[B, 3, 4]");
}

TEST(InferShapesTest, GivenInputValueMustMatchTheDeclaredTypeAndName) {
  onnx::ModelProto m = Model(R"(
    main (float[B, 12] x, int64[2] shape) => (y) {
      y = Reshape(x, shape)
    })");
  InferenceOptions options;
  options.input_values.push_back(Int64Value("shape", {3}, {0, 3, 4}));
  options.input_values.push_back(Int64Value("nonesuch", {}, {1}));
  InferenceResult r = InferShapes(m, BuiltinSchemas(), options);
  std::vector<std::string> messages;
  for (const auto& d : r.diagnostics) messages.push_back(d.message);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_NE(messages[0].find("the value's dim 0 is 3, the input is declared int64[2]"),
            std::string::npos)
      << messages[0];
  EXPECT_NE(messages[1].find("the model has no graph input 'nonesuch'"), std::string::npos)
      << messages[1];
  // The contradicting value is not used.
  EXPECT_EQ(TypeFromProto(m.graph().output(0).type()).ToString(), "float[?, ?]");
}

// An initializer's elements are read when something asks for them: a rule inside a subgraph
// (through the enclosing scope), a function body (all its inputs' values), a branch whose
// output is the initializer itself. Each reads an initializer of its own, which nothing read
// before.
TEST(InferShapesTest, InitializerValuesReachWhatAsksForThem) {
  auto m = syntax::ParseModelText(R"(<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
    main (bool c, float[2, 12] x) => (y, z, w) <int64[2] s = {4, 6}, int64[2] s2 = {4, 6}, int64[2] s3 = {4, 6}> {
      y = If (c) <then_branch = g1 () => (a) { a = Reshape(x, s) },
                  else_branch = g2 () => (b) { b = Reshape(x, s) }>
      z = local.ReshapeBy(x, s3)
      t = Constant <value = bool {1}> ()
      u = If (t) <then_branch = g3 () => (s2) { },
                  else_branch = g4 () => (v) { v = Constant <value = int64[2] {3, 8}> () }>
      w = Reshape(x, u)
    }
    <domain: "local", opset_import: ["" : 17]>
    ReshapeBy (data, shape) => (out) { out = Reshape(data, shape) })");
  ASSERT_TRUE(m.ok()) << m.status().message();
  InferenceResult r = Infer(*m);
  EXPECT_EQ(r.CountOf(Severity::kError), 0);
  EXPECT_EQ(TypeFromProto(m->graph().output(0).type()).ToString(), "float[4, 6]");
  EXPECT_EQ(TypeFromProto(m->graph().output(1).type()).ToString(), "float[4, 6]");
  EXPECT_EQ(TypeFromProto(m->graph().output(2).type()).ToString(), "float[4, 6]");
}

// A value given for an input that has an initializer overrides the initializer, at any IR
// version (before IR 4 such initializers are otherwise constants).
TEST(InferShapesTest, GivenInputValueOverridesAnInitializer) {
  auto m = syntax::ParseModelText(R"(<ir_version: 3, opset_import: ["" : 9]>
    main (float[2, 12] x, int64[2] shape) => (y) <int64[2] shape = {4, 6}> {
      y = Reshape(x, shape)
    })");
  ASSERT_TRUE(m.ok()) << m.status().message();
  onnx::ModelProto plain = *m;
  Infer(plain);
  EXPECT_EQ(TypeFromProto(plain.graph().output(0).type()).ToString(), "float[4, 6]");
  InferenceOptions options;
  options.input_values.push_back(Int64Value("shape", {2}, {3, 8}));
  InferShapes(*m, BuiltinSchemas(), options);
  EXPECT_EQ(TypeFromProto(m->graph().output(0).type()).ToString(), "float[3, 8]");
}

// A default input (an initializer listed as a graph input) read inside a subgraph is a
// condition naming the subgraph; one read by no rule is not (Relu reads no values); one too
// large to track is not read at all.
TEST(InferShapesTest, DefaultInputsReadAreConditionsWhereverTheyAreRead) {
  onnx::ModelProto m = Model(R"(
    main (bool c, float[6] x, int64[2] shape, float[2000] w) => (y, r)
      <int64[2] shape = {3, 2}, float[2000] w = {0.0}>
    {
      r = Relu(w)
      y = If(c) <then_branch = t () => (float[3, 2] a) { a = Reshape(x, shape) },
                 else_branch = e () => (float[3, 2] b) { b = Reshape(x, shape) }>
    })");
  InferenceResult r = Infer(m);
  ASSERT_EQ(r.conditions.size(), 2u);
  EXPECT_NE(r.conditions[0].find("input 'shape' keeps its initializer's value (in main/"),
            std::string::npos)
      << r.conditions[0];
  for (const auto& c : r.conditions) EXPECT_EQ(c.find("'w'"), std::string::npos) << c;
}

// check_types off: a type-constraint violation is a warning with its code; other signature
// findings keep their severity.
TEST(InferShapesTest, UncheckedTypesAreWarningsWithTheirCode) {
  const std::string graph = R"(
    main (bool[2] a, bool[2] b) => (c, d) {
      c = Greater(a, b)
      d = Relu<alpha = 1.0>(a)
    })";
  onnx::ModelProto m = Model(graph);
  InferenceOptions options;
  options.check_types = false;
  InferenceResult r = InferShapes(m, BuiltinSchemas(), options);
  int type_constraint = 0;
  for (const auto& d : r.diagnostics) {
    if (d.code == kDiagTypeConstraint) {
      ++type_constraint;
      EXPECT_EQ(d.severity, Severity::kWarning) << d.message;
    }
  }
  EXPECT_EQ(type_constraint, 3);  // a and b of Greater, a of Relu
  onnx::ModelProto checked = Model(graph);
  InferenceResult e = Infer(checked);
  EXPECT_EQ(e.CountOf(Severity::kError), 3);
}

// Operators of a domain beside ONNX's that the model does not import are read at the
// domain's newest version, with one warning for the domain; an ONNX domain stays an error.
TEST(InferShapesTest, ContribDomainsAreReadWithoutTheirImport) {
  onnx::ModelProto m = Model(R"(
    main (float[B, 8] x) => (y, z) {
      y = com.microsoft.FastGelu(x)
      z = com.microsoft.FastGelu(y)
    })");
  InferenceResult r = Infer(m);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(TypeFromProto(m.graph().output(1).type()).ToString(), "float[B, 8]");
  onnx::ModelProto ml = Model(R"(
    main (float[B, 8] x) => (y) {
      y = ai.onnx.ml.Normalizer(x)
    })");
  EXPECT_EQ(Infer(ml).CountOf(Severity::kError), 1);
}

}  // namespace
}  // namespace onnx_infer
