// The text syntax: parsing what Syntax.md shows, every extension of docs/syntax.md, exact
// round trips (field presence included), error positions, and no crash on any prefix.
#include "onnx_infer/syntax/parser.h"

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "onnx_infer/syntax/printer.h"

namespace onnx_infer::syntax {
namespace {

using google::protobuf::util::MessageDifferencer;

constexpr char kSample[] = R"(
# The Syntax.md example, plus an initializer and a subgraph.
<
  ir_version: 7,
  opset_import: ["" : 10, "com.microsoft" : 1],
  producer_name: "test",
  metadata_props: ["author": "me"]
>
agraph (float[N, 128] X, float[128, 10] W, float[10] B) => (float[N, 10] C)
<
  int64[2] shape = {-1, 10},
  float[N, 10] T
>
{
  T = MatMul(X, W)
  [add] S = Add(T, B)
  C = Softmax <axis = -1> (S)
  R = com.microsoft.Fancy <alpha = 0.5, names = ["a", "b"], t = float[2] {1, 2.5}> (S, "")
  Y = If (c) <then_branch = then_g () => (float[N] z) { z = Identity(X) },
              else_branch = else_g () => (float[N] z) { z = Identity(X) }>
}
<domain: "local", opset_import: ["" : 10]>
Square <scale: float = 1.0, mode> (x) => (y)
{
  y = Mul <alpha: float = @scale> (x, x)
}
)";

onnx::ModelProto Parse(const std::string& text) {
  auto m = ParseModelText(text, "t.onnxtxt");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : onnx::ModelProto();
}

// parse(print(m)) == m and print is idempotent.
void ExpectRoundTrip(const onnx::ModelProto& m) {
  std::string text = PrintModelText(m);
  auto again = ParseModelText(text, "printed");
  ASSERT_TRUE(again.ok()) << again.status().message() << "\n" << text;
  std::string diff;
  MessageDifferencer d;
  d.ReportDifferencesToString(&diff);
  EXPECT_TRUE(d.Compare(m, *again)) << diff << "\n" << text;
  EXPECT_EQ(PrintModelText(*again), text);
}

TEST(ParserTest, ParsesTheSample) {
  onnx::ModelProto m = Parse(kSample);
  EXPECT_EQ(m.ir_version(), 7);
  ASSERT_EQ(m.opset_import_size(), 2);
  EXPECT_EQ(m.opset_import(1).domain(), "com.microsoft");
  EXPECT_EQ(m.metadata_props(0).value(), "me");
  const auto& g = m.graph();
  EXPECT_EQ(g.name(), "agraph");
  ASSERT_EQ(g.input_size(), 3);
  EXPECT_EQ(g.input(0).type().tensor_type().shape().dim(0).dim_param(), "N");
  EXPECT_EQ(g.input(0).type().tensor_type().shape().dim(1).dim_value(), 128);
  ASSERT_EQ(g.initializer_size(), 1);
  EXPECT_EQ(g.initializer(0).int64_data(0), -1);
  ASSERT_EQ(g.value_info_size(), 1);
  ASSERT_EQ(g.node_size(), 5);
  EXPECT_FALSE(g.node(0).has_name());
  EXPECT_FALSE(g.node(0).has_domain());
  EXPECT_EQ(g.node(1).name(), "add");
  EXPECT_EQ(g.node(2).attribute(0).i(), -1);
  const auto& fancy = g.node(3);
  EXPECT_EQ(fancy.domain(), "com.microsoft");
  EXPECT_EQ(fancy.op_type(), "Fancy");
  EXPECT_EQ(fancy.input(1), "");
  EXPECT_EQ(fancy.attribute(0).type(), onnx::AttributeProto::FLOAT);
  EXPECT_EQ(fancy.attribute(1).type(), onnx::AttributeProto::STRINGS);
  EXPECT_EQ(fancy.attribute(2).t().float_data(1), 2.5f);
  EXPECT_EQ(g.node(4).attribute(1).g().name(), "else_g");
  ASSERT_EQ(m.functions_size(), 1);
  const auto& f = m.functions(0);
  EXPECT_EQ(f.domain(), "local");
  EXPECT_EQ(f.attribute(0), "mode");
  EXPECT_EQ(f.attribute_proto(0).name(), "scale");
  EXPECT_EQ(f.node(0).attribute(0).ref_attr_name(), "scale");
  ExpectRoundTrip(m);
}

TEST(ParserTest, TypesOfEveryKind) {
  for (const char* text :
       {"float[N, 3, ?]", "float", "float[]", "seq(float[N])", "optional(seq(int64[2]))",
        "map(int64, float)", "map(string, seq(double[?]))", "sparse_tensor(float[3, 4])",
        "opaque()", "opaque(Rng)", "opaque(test.rng, RNG)", "bfloat16[\"N + 5\", 2]",
        "float8e4m3fn[1]"}) {
    auto t = ParseTypeText(text);
    ASSERT_TRUE(t.ok()) << text << ": " << t.status().message();
    auto again = ParseTypeText(PrintTypeText(*t));
    ASSERT_TRUE(again.ok()) << PrintTypeText(*t);
    EXPECT_TRUE(MessageDifferencer::Equals(*t, *again)) << text;
  }
  EXPECT_EQ(PrintTypeText(*ParseTypeText("float[\"N + 5\", N, ?, 3]")),
            "float[\"N + 5\", N, ?, 3]");
  auto opaque = *ParseTypeText("opaque(test.rng, RNG)");
  EXPECT_EQ(opaque.opaque_type().domain(), "test.rng");
  EXPECT_EQ(opaque.opaque_type().name(), "RNG");
  EXPECT_FALSE(ParseTypeText("float[").ok());
  EXPECT_FALSE(ParseTypeText("map(float)").ok());
}

TEST(ParserTest, SymbolicDimsKeepTheirSpelling) {
  onnx::ModelProto m = Parse(R"M(<> g (float["N + 5", "2*N"] x) => (float["floor(N / 2)"] y) {})M");
  EXPECT_EQ(m.graph().input(0).type().tensor_type().shape().dim(0).dim_param(), "N + 5");
  EXPECT_NE(PrintModelText(m).find("float[\"N + 5\", \"2*N\"] x"), std::string::npos);
  ExpectRoundTrip(m);
}

TEST(ParserTest, FieldPresenceSurvives) {
  onnx::ModelProto m;
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* a = g->add_node();
  a->set_op_type("Relu");  // domain absent
  a->add_input("x");
  a->add_output("y");
  auto* b = g->add_node();
  b->set_op_type("Relu");
  b->set_domain("");  // domain present and empty
  b->set_name("");
  b->set_doc_string("");
  b->add_input("y");
  b->add_output("z");
  auto* opset = m.add_opset_import();
  opset->set_version(17);                // no domain field
  m.add_opset_import()->set_domain("");  // no version field
  m.set_model_version(0);
  std::string text = PrintModelText(m);
  EXPECT_NE(text.find("y = Relu(x)"), std::string::npos) << text;
  EXPECT_NE(text.find("[\"\", doc_string: \"\"] z = \"\".Relu(y)"), std::string::npos) << text;
  EXPECT_NE(text.find("opset_import: [17, \"\" : ?]"), std::string::npos) << text;
  ExpectRoundTrip(m);
}

TEST(ParserTest, ExactFloatsNanInfAndNegativeZero) {
  onnx::ModelProto m = Parse(R"(<> g () => () <
      float[6] f = {nan, inf, -inf, -0.0, 1.17549435e-38, 1e-45},
      double[2] d = {0.1, 1.7976931348623157e308}> {
    y = Foo <a = 0.1, b = [1.0, 3], c = -inf> ()
  })");
  const auto& f = m.graph().initializer(0);
  EXPECT_TRUE(std::isnan(f.float_data(0)));
  EXPECT_EQ(f.float_data(2), -INFINITY);
  EXPECT_TRUE(std::signbit(f.float_data(3)));
  EXPECT_EQ(f.float_data(5), 1e-45f);
  EXPECT_EQ(m.graph().initializer(1).double_data(0), 0.1);
  const auto& attrs = m.graph().node(0).attribute();
  EXPECT_EQ(attrs[0].f(), 0.1f);
  EXPECT_EQ(attrs[1].type(), onnx::AttributeProto::FLOATS);
  // Floats are printed so they read back as floats: 1 is written `1.0`.
  std::string text = PrintModelText(m);
  EXPECT_NE(text.find("b = [1.0, 3.0]"), std::string::npos) << text;
  auto again = ParseModelText(text);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(PrintModelText(*again), text);
}

TEST(ParserTest, TensorStorageExtensions) {
  onnx::ModelProto m;
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* raw = g->add_initializer();
  raw->set_name("raw_w");
  raw->set_data_type(1);
  raw->add_dims(2);
  raw->set_raw_data(std::string("\x00\x00\x80\x3f\x00\x00\x00\x40", 8));
  auto* ext = g->add_initializer();
  ext->set_name("ext_w");
  ext->set_data_type(1);
  ext->add_dims(4);
  auto* kv = ext->add_external_data();
  kv->set_key("location");
  kv->set_value("w.bin");
  ext->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* odd = g->add_initializer();  // values in a field its type does not use: the escape
  odd->set_name("odd");
  odd->set_data_type(1);
  odd->add_int64_data(3);
  odd->set_doc_string("d");
  auto* str = g->add_initializer();
  str->set_name("s");
  str->set_data_type(8);
  str->add_string_data(std::string("a\"\\\n\xff", 5));
  std::string text = PrintModelText(m);
  EXPECT_NE(text.find("float[2] raw_w = raw \"AACAPwAAAEA=\""), std::string::npos) << text;
  EXPECT_NE(text.find("float[4] ext_w = [\"location\": \"w.bin\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("textproto \""), std::string::npos) << text;
  EXPECT_NE(text.find("string[] s = {\"a\\\"\\\\\\n\\xff\"}"), std::string::npos) << text;
  ExpectRoundTrip(m);
}

TEST(ParserTest, EscapesCarryWhatTheSyntaxCannotSpell) {
  onnx::ModelProto m;
  auto* g = m.mutable_graph();
  g->set_name("g");
  g->add_sparse_initializer()->add_dims(3);
  auto* vi = g->add_input();
  vi->set_name("x");
  vi->mutable_type()->set_denotation("IMAGE");
  vi->mutable_type()->mutable_tensor_type()->set_elem_type(1);
  auto* n = g->add_node();
  n->set_op_type("Foo");
  auto* attr = n->add_attribute();  // an INT attribute without a value
  attr->set_name("k");
  attr->set_type(onnx::AttributeProto::INT);
  n->add_device_configurations()->set_configuration_id("c");
  m.add_training_info()->mutable_algorithm()->set_name("train");
  std::string text = PrintModelText(m);
  EXPECT_NE(text.find("k: textproto = \"type: INT\""), std::string::npos) << text;
  ExpectRoundTrip(m);
}

TEST(ParserTest, SparseTensors) {
  onnx::ModelProto m = Parse(R"(<> g () => ()
  <sparse_tensor[3, 4] {float[2] sw = {1.5, 2}, int64[2] {1, 10}}, float[2] w = {1, 2}> {
    y = Foo <s = sparse_tensor[5] {int32[1] {7}, int64[1] {4}},
             l = [sparse_tensor[2] {float[1] {1}, int64[1] {0}}], e: sparse_tensors = []> ()
  })");
  const auto& sp = m.graph().sparse_initializer(0);
  EXPECT_EQ(sp.dims(1), 4);
  EXPECT_EQ(sp.values().name(), "sw");
  EXPECT_EQ(sp.indices().int64_data(1), 10);
  const auto& attrs = m.graph().node(0).attribute();
  EXPECT_EQ(attrs[0].type(), onnx::AttributeProto::SPARSE_TENSOR);
  EXPECT_EQ(attrs[0].sparse_tensor().values().int32_data(0), 7);
  EXPECT_EQ(attrs[1].type(), onnx::AttributeProto::SPARSE_TENSORS);
  EXPECT_EQ(attrs[2].type(), onnx::AttributeProto::SPARSE_TENSORS);
  ExpectRoundTrip(m);
  EXPECT_EQ(PrintModelText(m).find("textproto"), std::string::npos) << PrintModelText(m);
}

TEST(ParserTest, ListsAttributesOfEveryKind) {
  onnx::ModelProto m = Parse(R"(<> g () => () {
    y = Foo <ints = [1, 2], e: ints = [], ts = [float[1] {1}, int64[] {2}],
             gs = [a () => () {}, b () => () {}], tp: type_proto = seq(float[N]),
             tps: type_protos = [float, map(int64, string)], s = "x", named = float[1] w {3}> ()
  })");
  const auto& attrs = m.graph().node(0).attribute();
  EXPECT_EQ(attrs[1].type(), onnx::AttributeProto::INTS);
  EXPECT_EQ(attrs[2].tensors_size(), 2);
  EXPECT_EQ(attrs[3].type(), onnx::AttributeProto::GRAPHS);
  EXPECT_EQ(attrs[4].tp().sequence_type().elem_type().tensor_type().elem_type(), 1);
  EXPECT_EQ(attrs[5].type_protos_size(), 2);
  EXPECT_EQ(attrs[7].t().name(), "w");
  ExpectRoundTrip(m);
}

TEST(ParserTest, KeyedFieldsOnEveryEntity) {
  onnx::ModelProto m = Parse(R"(
<ir_version: 9, doc_string: "model doc", domain: "d", model_version: 3, producer_version: "1">
g <doc_string: "graph doc", metadata_props: ["k": "v"]>
  (float[2] x <doc_string: "input doc", metadata_props: ["a": "b"]>) => (y)
{
  [n, doc_string: "node doc", overload: "o2", metadata_props: ["m": "n"]] y = local.F(x)
  [doc_string: "unnamed"] z = Relu(x)
}
<domain: "local", overload: "o2", doc_string: "fn doc"> F (a) => (b) <float[2] b> { b = Relu(a) }
)");
  EXPECT_EQ(m.graph().doc_string(), "graph doc");
  EXPECT_EQ(m.graph().input(0).doc_string(), "input doc");
  EXPECT_FALSE(m.graph().output(0).has_type());
  EXPECT_EQ(m.graph().node(0).overload(), "o2");
  EXPECT_FALSE(m.graph().node(1).has_name());
  EXPECT_EQ(m.functions(0).value_info(0).name(), "b");
  ExpectRoundTrip(m);
}

TEST(ParserTest, NamesThatAreNotIdentifiersAreQuoted) {
  onnx::ModelProto m = Parse(R"(<> "main graph" (float[2] "/x:0", float "float") => () {
    "out/0" = "my-domain"."Op-1"("/x:0", "float")
  })");
  EXPECT_EQ(m.graph().node(0).domain(), "my-domain");
  EXPECT_EQ(m.graph().node(0).op_type(), "Op-1");
  EXPECT_EQ(m.graph().input(1).name(), "float");
  ExpectRoundTrip(m);
}

struct ErrorCase {
  const char* text;
  const char* error;
};

TEST(ParserTest, ErrorsNameLineColumnAndWhatWasExpected) {
  for (const ErrorCase& c : std::initializer_list<ErrorCase>{
           {"<>\ng (float x = ) => () {}", "m:2:14: expected '{' to open the tensor values"},
           {"<>\ng (float x\n => () {}",
            "m:3:2: expected ',' or ')' after a graph input, got '=>'"},
           {"<>\ng () => () {\n  y = Relu(x\n}",
            "m:4:1: expected ',' or ')' after a node input, got '}'"},
           {"<ir_version: \"8\"> g () => () {}", "m:1:14: expected an integer, got string \"8\""},
           {"<frob: 1> g () => () {}", "m:1:2: unknown model field 'frob'"},
           {"<> g () => () { y = F <e = []> () }", "m:1:28: an empty list needs its type"},
           {"<> g () => () {} extra", "m:1:23: expected"},
           {"<> g () => () { y = F(\"x) }", "m:1:23: unterminated string"},
           {"<> g () => () { y = F($) }", "m:1:23: unexpected character '$'"},
           {"<> g (float[N x) => () {}", "m:1:15: expected ',' or ']' in a list, got 'x'"},
           {"<> g () => () { y = F <t = float[2] raw \"!!\"> () }", "raw data is not valid base64"},
           {"<> g () => () { y = F <a: textproto = \"bogus\"> () }", "protobuf text"},
       }) {
    auto m = ParseModelText(c.text, "m");
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_NE(m.status().message().find(c.error), std::string::npos)
        << c.text << "\n  got: " << m.status().message() << "\n  want: " << c.error;
  }
}

TEST(ParserTest, EveryPrefixOfTheSampleIsAnErrorNotACrash) {
  std::string text = kSample;
  int ok = 0;
  for (size_t n = 0; n < text.size(); ++n) {
    auto m = ParseModelText(std::string_view(text).substr(0, n), "prefix");
    if (m.ok()) {
      ++ok;
    } else {
      EXPECT_EQ(m.status().message().rfind("prefix:", 0), 0u) << m.status().message();
    }
  }
  // Only prefixes that end after the graph or a whole function can be complete models.
  EXPECT_LT(ok, 40);
  // Garbage: every byte value at every position of a short model.
  std::string small = "<> g (float[2] x) => (y) { y = Relu <a = 1> (x) }";
  for (size_t i = 0; i < small.size(); ++i) {
    for (int b :
         std::initializer_list<int>{0, '"', '<', '>', '[', '(', '{', '@', '-', 0xff, '\\'}) {
      std::string bad = small;
      bad[i] = static_cast<char>(b);
      (void)ParseModelText(bad, "garbage");
    }
  }
}

TEST(ParserTest, DeepNestingIsAnErrorNotAStackOverflow) {
  std::string type;
  for (int i = 0; i < 100000; ++i) type += "seq(";
  auto t = ParseTypeText(type + "float" + std::string(100000, ')'));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("nesting deeper than"), std::string::npos);
  std::string graph;
  for (int i = 0; i < 5000; ++i) graph += "g () => () { y = If <b = ";
  auto m = ParseModelText("<> " + graph);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("nesting deeper than"), std::string::npos);
  // Within the limit, fine.
  std::string ok;
  for (int i = 0; i < 20; ++i) ok += "seq(";
  EXPECT_TRUE(ParseTypeText(ok + "float" + std::string(20, ')')).ok());
}

// Issue 27: the `textproto` escapes are read by protobuf's text parser, which recursed without
// a limit; now it stops at the nesting limit counted in messages (kMaxProtobufDepth).
std::string DeepTypeText(int levels) {
  std::string text = "type { ";
  for (int i = 0; i < levels; ++i) text += "sequence_type { elem_type { ";
  text += "tensor_type { elem_type: 1 }";
  for (int i = 0; i < levels; ++i) text += " } }";
  return text + " }";
}

TEST(ParserTest, DeepProtobufTextIsAnErrorNotAStackOverflow) {
  const std::string limit =
      "protobuf text nested deeper than 400 messages (the nesting limit, docs/limits.md)";
  const std::string head = "<ir_version: 8, opset_import: [\"\" : 17]>\n";
  auto value_info = ParseModelText(head + "g (float x) => (y <textproto: \"" + DeepTypeText(20000) +
                                   "\">) { y = Identity (x) }");
  ASSERT_FALSE(value_info.ok());
  EXPECT_NE(value_info.status().message().find(limit), std::string::npos)
      << value_info.status().message().substr(0, 200);
  std::string graphs = "graph { ";
  for (int i = 0; i < 5000; ++i) {
    graphs += "node { op_type: \\\"If\\\" attribute { name: \\\"b\\\" type: GRAPH g { ";
  }
  auto model = ParseModelText("<ir_version: 8, textproto: \"" + graphs + "\">\ng () => () {}");
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find(limit), std::string::npos)
      << model.status().message().substr(0, 200);
  auto attribute = ParseModelText(head + "g (float x) => (y) { y = Cast <t: textproto = \"tp " +
                                  DeepTypeText(20000).substr(5) + "\"> (x) }");
  ASSERT_FALSE(attribute.ok());
  EXPECT_NE(attribute.status().message().find(limit), std::string::npos)
      << attribute.status().message().substr(0, 200);
  // Within the limit (150 levels of types: 300 messages and a few above), fine, and printed.
  auto fine = ParseModelText(head + "g (float x) => (y <textproto: \"" + DeepTypeText(150) +
                             "\">) { y = Identity (x) }");
  ASSERT_TRUE(fine.ok()) << fine.status().message();
  EXPECT_NE(PrintModelText(*fine).find("seq(seq("), std::string::npos);
}

TEST(ParserTest, SingleNodesAndFunctions) {
  auto n = ParseNodeText("[n1] a, b = ai.onnx.ml.Foo <x = 1> (c, d)");
  ASSERT_TRUE(n.ok()) << n.status().message();
  EXPECT_EQ(n->domain(), "ai.onnx.ml");
  EXPECT_EQ(n->output_size(), 2);
  EXPECT_EQ(PrintNodeText(*n), "[n1] a, b = ai.onnx.ml.Foo <x = 1> (c, d)");
  auto f = ParseFunctionText("F <a> (float[N] x, y) => (z) { z = Add(x, y) }");
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->input(0), "x");
  EXPECT_EQ(f->value_info(0).name(), "x");
}

TEST(ParserTest, LooksLikeModelText) {
  EXPECT_TRUE(LooksLikeModelText("# comment\n<ir_version: 8> g () => () {}"));
  EXPECT_TRUE(LooksLikeModelText("main (float x) => (y) {}"));
  EXPECT_FALSE(LooksLikeModelText(std::string("\x08\x07\x12\x00", 4)));
  EXPECT_FALSE(LooksLikeModelText(""));
}

}  // namespace
}  // namespace onnx_infer::syntax
