// The attribute accessors of InferenceContext: every type, given, absent and of
// the wrong type.
#include "onnx_infer/schema/inference_context.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::FloatAttr;
using testing::FloatsAttr;
using testing::Node;
using testing::RunRule;
using testing::StrAttr;
using testing::StrsAttr;

// The rule reports what the accessors read as its error, so the test can compare it.
Status ReportAttrs(InferenceContext& ctx) {
  std::string out;
  auto add = [&](const std::string& piece) { out += (out.empty() ? "" : "; ") + piece; };
  auto f = ctx.FloatAttr("f");
  add(f.ok() ? StrCat("f=", *f) : f.status().message());
  auto s = ctx.StringAttr("s");
  add(s.ok() ? StrCat("s=", *s) : s.status().message());
  auto fs = ctx.FloatsAttr("fs");
  add(fs.ok() ? StrCat("fs=", fs->size()) : fs.status().message());
  auto ofs = ctx.OptionalFloatsAttr("fs");
  add(ofs.ok() ? StrCat("ofs=", ofs->has_value() ? "set" : "none") : ofs.status().message());
  auto ss = ctx.StringsAttr("ss");
  add(ss.ok() ? StrCat("ss=", ss->empty() ? "" : ss->back()) : ss.status().message());
  auto oss = ctx.OptionalStringsAttr("ss");
  add(oss.ok() ? StrCat("oss=", oss->has_value() ? "set" : "none") : oss.status().message());
  auto g = ctx.GraphAttr("g");
  add(g.ok() ? StrCat("g=", *g ? (*g)->name() : "none") : g.status().message());
  return Status::Error(out);
}

SchemaRegistry Registry() {
  SchemaRegistry r;
  OpSchema s("test", "Attrs", 1);
  s.Input("X", "T").Output("Y", "T").TypeConstraint("T", {"tensor(float)"});
  s.Attr("f", onnx::AttributeProto::FLOAT).Attr("s", onnx::AttributeProto::STRING);
  s.Attr("fs", onnx::AttributeProto::FLOATS).Attr("ss", onnx::AttributeProto::STRINGS);
  s.Attr("g", onnx::AttributeProto::GRAPH);
  s.Rule(ReportAttrs);
  EXPECT_TRUE(r.Register(std::move(s)).ok());
  return r;
}

std::string RunAttrs(const std::string& attrs) {
  const SchemaRegistry r = Registry();
  auto run = RunRule(r, Node("Attrs", {"x"}, {"y"}, attrs, "test"), 1, {testing::T("float[2]")});
  return run.status.message();
}

TEST(InferenceContextAttrTest, ReadsEveryTypeGiven) {
  EXPECT_EQ(RunAttrs(FloatAttr("f", 0.5f) + StrAttr("s", "a") + FloatsAttr("fs", {1, 2}) +
                     StrsAttr("ss", {"p", "q"}) +
                     R"( attribute { name: "g" type: GRAPH g { name: "body" } })"),
            "f=0.5; s=a; fs=2; ofs=set; ss=q; oss=set; g=body");
}

TEST(InferenceContextAttrTest, AbsentIsAnErrorOrNullopt) {
  EXPECT_EQ(RunAttrs(""),
            "attribute 'f': required but not given; attribute 's': required but not given; "
            "attribute 'fs': required but not given; ofs=none; "
            "attribute 'ss': required but not given; oss=none; g=none");
}

TEST(InferenceContextAttrTest, WrongTypeNamesBothTypes) {
  const std::string out = RunAttrs(StrAttr("f", "x"));
  EXPECT_NE(out.find("attribute 'f': expected type float, got string"), std::string::npos) << out;
}

// An empty list whose `type` is unset (older exporters) carries no field to tell its type
// by: it is the empty list the accessor asks for, as the signature check takes it too.
TEST(InferenceContextAttrTest, EmptyListWithoutTypeIsEmpty) {
  EXPECT_EQ(RunAttrs(FloatAttr("f", 1) + StrAttr("s", "a") + R"( attribute { name: "fs" })" +
                     R"( attribute { name: "ss" })"),
            "f=1; s=a; fs=0; ofs=set; ss=; oss=set; g=none");
}

TEST(AttributeTypeNameTest, ProtobufNamesInLowerCaseBothWays) {
  EXPECT_EQ(AttributeTypeName(onnx::AttributeProto::SPARSE_TENSORS), "sparse_tensors");
  EXPECT_EQ(AttributeTypeName(onnx::AttributeProto::UNDEFINED), "undefined");
  EXPECT_EQ(AttributeTypeName(static_cast<AttrType>(99)), "unknown");
  EXPECT_EQ(AttributeTypeFromName("type_proto"), onnx::AttributeProto::TYPE_PROTO);
  EXPECT_EQ(AttributeTypeFromName("ints"), onnx::AttributeProto::INTS);
  EXPECT_FALSE(AttributeTypeFromName("INTS").has_value());
  EXPECT_FALSE(AttributeTypeFromName("undefined").has_value());
  EXPECT_FALSE(AttributeTypeFromName("integer").has_value());
}

// The errors the context makes carry what they are about, for Diagnostic::subject; the
// message starts with it.
Status ReportSubjects(InferenceContext& ctx) {
  std::string out;
  auto add = [&](const Status& st) {
    out += StrCat(out.empty() ? "" : "; ", st.subject().ToString(), " | ", st.message());
  };
  add(InputError(ctx, 0, DiagCode::kInputRank, "in"));
  add(OutputError(ctx, 0, DiagCode::kInputDims, "out"));
  add(AttrError("g", "attr"));
  add(ctx.FloatAttr("f").status());
  add(ctx.NormalizeAxis(3, 2, Subject::Attribute("axis")).status());
  add(ctx.NormalizeAxis(3, 2, "axes").status());
  return Status::Error(out);
}

TEST(InferenceContextSubjectTest, ErrorsCarryTheirSubject) {
  SchemaRegistry r;
  OpSchema s("test", "Subjects", 1);
  s.Input("X", "T").Output("Y", "T").TypeConstraint("T", {"tensor(float)"});
  s.Attr("f", onnx::AttributeProto::FLOAT).Attr("g", onnx::AttributeProto::GRAPH);
  s.Rule(ReportSubjects);
  ASSERT_TRUE(r.Register(std::move(s)).ok());
  auto run = RunRule(r, Node("Subjects", {"x"}, {"y"}, StrAttr("f", "z"), "test"), 1,
                     {testing::T("float[2]")});
  EXPECT_EQ(run.status.message(),
            "input 0 'x' | input 0 'x': in; output 0 'y' | output 0 'y': out; "
            "attribute 'g' | attribute 'g': attr; "
            "attribute 'f' | attribute 'f': expected type float, got string; "
            "attribute 'axis' | attribute 'axis': expected an axis in [-2, 1] for rank 2, got 3; "
            " | axes: expected an axis in [-2, 1] for rank 2, got 3");
}

// BoundedValueElement: a symbol with its bounds and origin, the constant when the bounds meet,
// and unknown wherever a symbol cannot stand for the element.
TEST(InferenceContextBoundedValueTest, ASymbolOnlyWhereOneCanStand) {
  OpSchema schema("test", "Pick", 1);
  onnx::NodeProto node;
  node.set_op_type("Pick");
  node.set_name("p");
  node.add_output("v.1");
  const std::vector<const Type*> types;
  const std::vector<const ConstValue*> values;
  symbolic::Unifier u;
  InferenceContext::SymbolLog log;
  InferenceContext ctx(node, schema, 1, types, values);
  // Alone (no unifier to keep the bounds): unknown, but a single value is that value.
  EXPECT_TRUE(ctx.BoundedValueElement(0, 0, 2, 8, "a table").is_unknown());
  EXPECT_EQ(ctx.BoundedValueElement(0, 0, 4, 4, "a table"), symbolic::Dim::Const(4));
  ctx.set_unifier(&u);
  ctx.set_symbol_log(&log);
  // The name is the value's (letters, digits and '_') and the element.
  const symbolic::Dim d = ctx.BoundedValueElement(0, 3, 2, 8, "a table");
  EXPECT_EQ(d.ToString(), "v_1__e3");
  ASSERT_EQ(u.BoundsOfSymbols().size(), 1u);
  const symbolic::SymbolBounds b = u.BoundsOfSymbols()[0];
  EXPECT_EQ(b.lo, 2);
  EXPECT_EQ(b.hi, 8);
  EXPECT_EQ(StrJoin(b.origins, "; "),
            "v_1__e3 >= 2 (node 'p' (Pick): a table); v_1__e3 <= 8 (node 'p' (Pick): a table)");
  EXPECT_EQ(log.at("v_1__e3"), "node 'p' (Pick): output 0 'v.1' element 3, a table");
  // Made again (the rule run again for the node): the same symbol, nothing new.
  EXPECT_EQ(ctx.BoundedValueElement(0, 3, 2, 8, "a table"), d);
  EXPECT_EQ(u.BoundsOfSymbols()[0].origins.size(), 2u);
  // A lower bound of 0 is every symbol's: only the upper one is stated.
  EXPECT_EQ(ctx.BoundedValueElement(0, 4, 0, 8, "a table").ToString(), "v_1__e4");
  // A negative element may be read: no symbol (a symbol is a size, >= 0).
  EXPECT_TRUE(ctx.BoundedValueElement(0, 5, -1, 8, "a table").is_unknown());
  EXPECT_TRUE(ctx.BoundedValueElement(0, 5, 3, 2, "a table").is_unknown());
  // In a subgraph or function body, or with values not kept: no symbol.
  ctx.set_nested(true);
  EXPECT_TRUE(ctx.BoundedValueElement(0, 6, 2, 8, "a table").is_unknown());
  ctx.set_nested(false);
  ctx.set_values_kept(false);
  EXPECT_TRUE(ctx.BoundedValueElement(0, 6, 2, 8, "a table").is_unknown());
  EXPECT_EQ(u.BoundsOfSymbols().size(), 2u);
}

}  // namespace
}  // namespace onnx_infer
