// Session: each edit kind on a small model, and random edit sequences over the benchmark's
// generated workloads and (with SHARED_DIR) the shared real models, each step compared with a
// fresh InferShapes of the edited model: the annotated model byte for byte, the diagnostics,
// facts, conditions, symbols and statistics.
#include "onnx_infer/inference/session.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "onnx_infer/bench/workloads.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

onnx::ModelProto Parse(const std::string& graph) {
  auto m = syntax::ParseModelText("<ir_version: 8, opset_import: [\"\" : 17]>\n" + graph);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : onnx::ModelProto();
}

onnx::NodeProto ParseNode(const std::string& text) {
  auto n = syntax::ParseNodeText(text);
  EXPECT_TRUE(n.ok()) << n.status().message();
  return n.ok() ? *n : onnx::NodeProto();
}

std::string Bytes(const onnx::ModelProto& model) {
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  model.SerializeToCodedStream(&coded);
  coded.Trim();
  return out;
}

// Everything the guarantee covers besides the annotated model, as text.
std::string Summary(const InferenceResult& r) {
  std::ostringstream s;
  for (const Diagnostic& d : r.diagnostics) s << "diag " << d.Render("m") << "\n";
  for (const auto& f : r.facts) s << "fact " << f << "\n";
  for (const auto& c : r.conditions) s << "cond " << c << "\n";
  for (const auto& rel : r.relations) s << "rel " << rel << "\n";
  for (const auto& sym : r.symbols) {
    s << "sym " << sym.name << " " << sym.declared << " " << sym.origin << " "
      << (sym.value.is_unknown() ? std::string("?") : sym.value.ToString()) << "\n";
  }
  const InferenceStats& st = r.stats;
  s << "stats " << st.nodes << " " << st.values << " " << st.typed << " " << st.shaped << " "
    << st.static_shaped << " " << st.symbolic << " " << st.partial << " " << st.type_only << " "
    << st.unknown << " " << st.nodes_without_rule << "\n";
  return s.str();
}

// The session's state equals a fresh inference of its edited model.
::testing::AssertionResult MatchesFresh(const Session& session, const InferenceOptions& options) {
  onnx::ModelProto fresh = session.EditedModel();
  InferenceResult r = InferShapes(fresh, BuiltinSchemas(), options);
  const std::string want = Summary(r), got = Summary(session.result());
  if (want != got) {
    return ::testing::AssertionFailure() << "results differ\n--- fresh\n"
                                         << want << "--- session\n"
                                         << got;
  }
  if (Bytes(fresh) != Bytes(session.Model())) {
    return ::testing::AssertionFailure() << "annotated models differ";
  }
  // The listing of values of the main graph (names in model order, declarations).
  auto listing = [](const InferenceResult& res) {
    std::ostringstream s;
    auto it = res.value_types.find("main");
    if (it == res.value_types.end()) return std::string("none");
    const GraphValueTypes& g = it->second;
    for (const auto& n : g.inputs) s << "in " << n << "\n";
    for (const auto& n : g.values) s << "value " << n << "\n";
    for (const auto& n : g.outputs) s << "out " << n << "\n";
    for (const auto& [n, t] : g.types) s << "type " << n << " " << t.ToString() << "\n";
    for (const auto& [n, t] : g.declared) s << "declared " << n << " " << t.ToString() << "\n";
    for (const auto& [n, t] : g.inferred) s << "inferred " << n << " " << t.ToString() << "\n";
    return s.str();
  };
  if (listing(r) != listing(session.result())) {
    return ::testing::AssertionFailure() << "value listings differ\n--- fresh\n"
                                         << listing(r) << "--- session\n"
                                         << listing(session.result());
  }
  for (const auto& [path, graph] : r.value_types) {
    for (const auto& [name, type] : graph.types) {
      const Type* t = session.result().TypeOf(path, name);
      if (!t || t->ToString() != type.ToString()) {
        return ::testing::AssertionFailure() << "type of " << path << "/" << name << " differs";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

const char* kSmall = R"(
agraph (float[N, 4] x) => (float[N, 4] y) <int64[2] shape = {-1, 4}> {
  a = Relu(x)
  b = Sigmoid(a)
  c = Softmax <axis = -1> (b)
  y = Reshape(c, shape)
}
)";

TEST(SessionTest, ConstructionInfers) {
  Session s(Parse(kSmall), BuiltinSchemas());
  ASSERT_NE(s.TypeOf("c"), nullptr);
  EXPECT_EQ(s.TypeOf("c")->ToString(), "float[N, 4]");
  EXPECT_FALSE(s.dirty());
  EXPECT_TRUE(MatchesFresh(s, {}));
  SessionUpdate u = s.Update();
  EXPECT_TRUE(u.changed_values.empty());
  EXPECT_EQ(s.stats().empty_updates, 1);
}

TEST(SessionTest, ReplaceNodeKeepingTypesIsIncremental) {
  Session s(Parse(kSmall), BuiltinSchemas());
  ASSERT_TRUE(s.ReplaceNode(1, ParseNode("b = Tanh(a)")).ok());
  EXPECT_TRUE(s.dirty());
  SessionUpdate u = s.Update();
  EXPECT_TRUE(u.incremental);
  EXPECT_TRUE(u.changed_values.empty());
  EXPECT_EQ(s.stats().incremental_updates, 1);
  EXPECT_EQ(s.stats().full_updates, 0);
  EXPECT_EQ(s.Model().graph().node(1).op_type(), "Tanh");
  EXPECT_TRUE(MatchesFresh(s, {}));
}

TEST(SessionTest, ChangedTypesPropagateUntilCutOff) {
  Session s(Parse(R"(
agraph (float[N, 4] x) => (float y) {
  a = Relu(x)
  b = Transpose <perm = [1, 0]> (a)
  c = Neg(b)
  y = ReduceSum <keepdims = 0> (c)
}
)"),
            BuiltinSchemas());
  ASSERT_EQ(s.TypeOf("c")->ToString(), "float[4, N]");
  onnx::AttributeProto perm;
  perm.set_name("perm");
  perm.set_type(onnx::AttributeProto::INTS);
  perm.add_ints(0);
  perm.add_ints(1);
  ASSERT_TRUE(s.SetNodeAttribute(1, perm).ok());
  SessionUpdate u = s.Update();
  EXPECT_TRUE(u.incremental);
  EXPECT_EQ(u.changed_values, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(s.stats().nodes_inferred, 3);  // Transpose, Neg, ReduceSum (unchanged: stop)
  EXPECT_EQ(s.TypeOf("c")->ToString(), "float[N, 4]");
  EXPECT_TRUE(MatchesFresh(s, {}));
}

TEST(SessionTest, ReplaceNodeChangingTypesIsFull) {
  Session s(Parse(kSmall), BuiltinSchemas());
  ASSERT_TRUE(s.ReplaceNode(1, ParseNode("b = Cast <to = 7> (a)")).ok());
  SessionUpdate u = s.Update();
  EXPECT_FALSE(u.incremental);
  EXPECT_EQ(s.stats().full_updates, 1);
  EXPECT_EQ(s.TypeOf("b")->ToString(), "int64[N, 4]");
  // b's type changed, and so did everything downstream (Softmax rejects int64: unknown).
  EXPECT_NE(std::find(u.changed_values.begin(), u.changed_values.end(), "b"),
            u.changed_values.end());
  EXPECT_FALSE(u.added_diagnostics.empty());
  EXPECT_TRUE(MatchesFresh(s, {}));
  // And back: the diagnostic goes away.
  ASSERT_TRUE(s.ReplaceNode(1, ParseNode("b = Sigmoid(a)")).ok());
  u = s.Update();
  EXPECT_FALSE(u.removed_diagnostics.empty());
  EXPECT_TRUE(u.added_diagnostics.empty());
  EXPECT_TRUE(MatchesFresh(s, {}));
}

TEST(SessionTest, SetNodeAttribute) {
  Session s(Parse(kSmall), BuiltinSchemas());
  onnx::AttributeProto axis;
  axis.set_name("axis");
  axis.set_type(onnx::AttributeProto::INT);
  axis.set_i(1);  // the same axis as -1 on a rank-2 input: nothing changes
  ASSERT_TRUE(s.SetNodeAttribute(2, axis).ok());
  EXPECT_TRUE(s.Update().incremental);
  EXPECT_EQ(s.Model().graph().node(2).attribute(0).i(), 1);
  EXPECT_TRUE(MatchesFresh(s, {}));
  axis.set_i(5);  // out of range: an error, found by a full update
  ASSERT_TRUE(s.SetNodeAttribute(2, axis).ok());
  SessionUpdate u = s.Update();
  EXPECT_FALSE(u.incremental);
  EXPECT_TRUE(s.result().HasErrors());
  EXPECT_TRUE(MatchesFresh(s, {}));
  EXPECT_FALSE(s.SetNodeAttribute(9, axis).ok());
  onnx::AttributeProto unnamed;
  EXPECT_FALSE(s.SetNodeAttribute(0, unnamed).ok());
}

TEST(SessionTest, InsertAndRemoveNode) {
  Session s(Parse(kSmall), BuiltinSchemas());
  ASSERT_TRUE(s.InsertNode(1, ParseNode("t = Transpose(a)")).ok());
  s.Update();
  EXPECT_EQ(s.TypeOf("t")->ToString(), "float[4, N]");
  EXPECT_TRUE(MatchesFresh(s, {}));
  ASSERT_TRUE(s.InsertNode(s.EditedModel().graph().node_size(), ParseNode("z = Neg(y)")).ok());
  s.Update();
  EXPECT_EQ(s.TypeOf("z")->ToString(), "float[N, 4]");
  EXPECT_TRUE(MatchesFresh(s, {}));
  ASSERT_TRUE(s.RemoveNode(0).ok());  // 'a' is no longer defined: an error
  s.Update();
  EXPECT_TRUE(s.result().HasErrors());
  EXPECT_EQ(s.TypeOf("a"), nullptr);
  EXPECT_TRUE(MatchesFresh(s, {}));
  EXPECT_FALSE(s.RemoveNode(100).ok());
  EXPECT_FALSE(s.InsertNode(-1, ParseNode("q = Neg(x)")).ok());
}

TEST(SessionTest, SetInitializer) {
  Session s(Parse(kSmall), BuiltinSchemas());
  onnx::TensorProto shape;
  shape.set_name("shape");
  shape.set_data_type(onnx::TensorProto::INT64);
  shape.add_dims(1);
  shape.add_int64_data(-1);
  ASSERT_TRUE(s.SetInitializer(shape).ok());
  s.Update();
  EXPECT_EQ(s.TypeOf("y")->ToString(), "float[4*N]");  // declared [N, 4]: an error
  EXPECT_TRUE(s.result().HasErrors());
  EXPECT_TRUE(MatchesFresh(s, {}));
  shape.set_name("other");
  ASSERT_TRUE(s.SetInitializer(shape).ok());
  s.Update();
  EXPECT_EQ(s.EditedModel().graph().initializer_size(), 2);
  EXPECT_TRUE(MatchesFresh(s, {}));
}

TEST(SessionTest, SetInputType) {
  Session s(Parse(kSmall), BuiltinSchemas());
  auto type = syntax::ParseTypeText("float[3, 4]");
  ASSERT_TRUE(type.ok());
  ASSERT_TRUE(s.SetInputType("x", *type).ok());
  SessionUpdate u = s.Update();
  EXPECT_EQ(s.TypeOf("c")->ToString(), "float[3, 4]");
  EXPECT_NE(std::find(u.changed_values.begin(), u.changed_values.end(), "c"),
            u.changed_values.end());
  EXPECT_TRUE(MatchesFresh(s, {}));
  EXPECT_FALSE(s.SetInputType("nope", *type).ok());
}

TEST(SessionTest, AddAndRemoveOutput) {
  Session s(Parse(kSmall), BuiltinSchemas());
  onnx::ValueInfoProto out;
  out.set_name("b");
  ASSERT_TRUE(s.AddOutput(out).ok());
  EXPECT_FALSE(s.AddOutput(out).ok());  // already an output
  s.Update();
  EXPECT_EQ(s.Model().graph().output_size(), 2);
  EXPECT_TRUE(s.Model().graph().output(1).type().has_tensor_type());
  EXPECT_TRUE(MatchesFresh(s, {}));
  ASSERT_TRUE(s.RemoveOutput("y").ok());
  EXPECT_FALSE(s.RemoveOutput("y").ok());
  s.Update();
  EXPECT_EQ(s.Model().graph().output_size(), 1);
  EXPECT_TRUE(MatchesFresh(s, {}));
}

TEST(SessionTest, RenameValue) {
  Session s(Parse(kSmall), BuiltinSchemas());
  ASSERT_TRUE(s.RenameValue("b", "b2").ok());
  s.Update();
  EXPECT_EQ(s.TypeOf("b"), nullptr);
  EXPECT_EQ(s.TypeOf("b2")->ToString(), "float[N, 4]");
  EXPECT_EQ(s.EditedModel().graph().node(2).input(0), "b2");
  EXPECT_TRUE(MatchesFresh(s, {}));
  EXPECT_FALSE(s.RenameValue("b2", "c").ok());  // c exists
  EXPECT_FALSE(s.RenameValue("nope", "q").ok());
  ASSERT_TRUE(s.RenameValue("x", "input").ok());  // a graph input
  s.Update();
  EXPECT_FALSE(s.result().HasErrors());
  EXPECT_TRUE(MatchesFresh(s, {}));
}

TEST(SessionTest, FoldReconnectsReadersByRenaming) {
  Session s(Parse(R"(
agraph (float[N, 4] x) => (float[N, 4] y) {
  a = Relu(x)
  i = Identity(a)
  y = Neg(i)
}
)"),
            BuiltinSchemas());
  ASSERT_TRUE(s.RemoveNode(1).ok());
  ASSERT_TRUE(s.RenameValue("a", "i").ok());  // 'i' is read, no longer defined
  SessionUpdate u = s.Update();
  EXPECT_FALSE(s.result().HasErrors());
  EXPECT_EQ(s.EditedModel().graph().node(0).output(0), "i");
  EXPECT_EQ(s.TypeOf("y")->ToString(), "float[N, 4]");
  EXPECT_NE(std::find(u.changed_values.begin(), u.changed_values.end(), "a"),
            u.changed_values.end());
  EXPECT_TRUE(MatchesFresh(s, {}));
}

TEST(SessionTest, RenameReachesSubgraphsUnlessShadowed) {
  Session s(Parse(R"(
agraph (bool cond, float[2] x) => (float[2] y) {
  y = If (cond) <then_branch = g1 () => (float[2] t) { t = Neg(x) },
                 else_branch = g2 () => (float[2] e) { x = Identity(cond) e = Abs(x) }>
}
)"),
            BuiltinSchemas());
  ASSERT_TRUE(s.RenameValue("x", "x2").ok());
  s.Update();
  const onnx::NodeProto& node = s.EditedModel().graph().node(0);
  EXPECT_EQ(node.attribute(0).g().node(0).input(0), "x2");  // reads the outer value
  EXPECT_EQ(node.attribute(1).g().node(1).input(0), "x");   // its own x
  EXPECT_TRUE(MatchesFresh(s, {}));
}

TEST(SessionTest, DeclaredPolicyAcrossUpdates) {
  // A stale value_info: under `override` a note, and the inferred type written; the same
  // after an edit, on both paths.
  const char* text = R"(
agraph (float[N, 4] x) => (float[N, 4] y) <float[N, 3] a> {
  a = Relu(x)
  b = Sigmoid(a)
  y = Neg(b)
}
)";
  for (DeclaredPolicy policy : {DeclaredPolicy::kInferred, DeclaredPolicy::kRefine,
                                DeclaredPolicy::kOverride, DeclaredPolicy::kStrict}) {
    InferenceOptions options;
    options.declared_policy = policy;
    Session s(Parse(text), BuiltinSchemas(), options);
    EXPECT_TRUE(MatchesFresh(s, options)) << DeclaredPolicyName(policy);
    ASSERT_TRUE(s.ReplaceNode(1, ParseNode("b = Tanh(a)")).ok());
    s.Update();
    EXPECT_TRUE(MatchesFresh(s, options)) << DeclaredPolicyName(policy);
    ASSERT_TRUE(s.ReplaceNode(0, ParseNode("a = Tanh(x)")).ok());  // declared: full
    EXPECT_FALSE(s.Update().incremental);
    EXPECT_TRUE(MatchesFresh(s, options)) << DeclaredPolicyName(policy);
  }
}

// A node edit whose lone inference learns a fact about the symbols (N == M at an Add): a
// full run lists the fact, so the update must be one.
TEST(SessionTest, EditThatLearnsAFactIsFull) {
  Session s(Parse(R"(
agraph (float[N, 4] x, float[M, 4] w) => (float z) {
  a = Relu(x)
  b = Relu(w)
  c = Add(a, a)
  z = ReduceSum <keepdims = 0> (c)
}
)"),
            BuiltinSchemas());
  ASSERT_TRUE(s.result().facts.empty());
  ASSERT_TRUE(s.ReplaceNode(2, ParseNode("c = Add(a, b)")).ok());
  s.Update();
  EXPECT_TRUE(MatchesFresh(s, {}));
}

// A model with a condition about N and M: an edit of nodes clear of those symbols stays
// incremental; one touching them is full.
TEST(SessionTest, EditsAwayFromFactsAreIncremental) {
  Session s(Parse(R"(
agraph (float[N, 4] x, float[M, 4] w, float[K, 3] u) => (float z, float v) {
  c = Add(x, w)
  z = ReduceSum <keepdims = 0> (c)
  a = Relu(u)
  b = Sigmoid(a)
  v = ReduceSum <keepdims = 0> (b)
}
)"),
            BuiltinSchemas());
  ASSERT_FALSE(s.result().conditions.empty() && s.result().facts.empty());
  ASSERT_TRUE(s.ReplaceNode(3, ParseNode("b = Tanh(a)")).ok());
  EXPECT_TRUE(s.Update().incremental);
  EXPECT_TRUE(MatchesFresh(s, {}));
  ASSERT_TRUE(s.ReplaceNode(0, ParseNode("c = Add(x, x)")).ok());  // the condition goes
  EXPECT_FALSE(s.Update().incremental);
  EXPECT_EQ(s.stats().full_reasons.count("node near facts"), 1u);
  EXPECT_TRUE(MatchesFresh(s, {}));
}

// ---- Structural edits on the incremental path.

// Removing y = Identity(a) and renaming a to y (its readers read a's value under y's name):
// the producer and the renamed value's readers are inferred again, nothing else.
TEST(SessionTest, RemoveAndRenameIsIncremental) {
  Session s(Parse(R"(
agraph (float[N, 4] x) => (float[N, 4] y) {
  a = Relu(x)
  i = Identity(a)
  b = Neg(i)
  c = Sigmoid(b)
  y = Abs(c)
}
)"),
            BuiltinSchemas());
  ASSERT_TRUE(s.RemoveNode(1).ok());
  ASSERT_TRUE(s.RenameValue("a", "i").ok());
  SessionUpdate u = s.Update();
  EXPECT_TRUE(u.incremental);
  EXPECT_EQ(s.stats().structural_updates, 1);
  EXPECT_EQ(s.stats().nodes_inferred, 1);  // the Relu, now defining i: same type, cut off
  EXPECT_EQ(u.changed_values, (std::vector<std::string>{"a"}));  // gone
  EXPECT_EQ(s.TypeOf("a"), nullptr);
  EXPECT_TRUE(MatchesFresh(s, {}));
}

// Rewiring by hand: the readers of a removed node's output replaced to read its input.
TEST(SessionTest, RemoveAndRewireReadersIsIncremental) {
  Session s(Parse(R"(
agraph (float[N, 4] x) => (float[N, 4] y) {
  a = Relu(x)
  t = Transpose <perm = [1, 0]> (a)
  b = Neg(a)
  y = Abs(b)
}
)"),
            BuiltinSchemas());
  ASSERT_TRUE(s.ReplaceNode(2, ParseNode("b = Neg(x)")).ok());
  ASSERT_TRUE(s.RemoveNode(0).ok());  // a's readers: t, still reading it (an error), so...
  ASSERT_TRUE(s.RemoveNode(0).ok());  // ...t goes too
  SessionUpdate u = s.Update();
  EXPECT_TRUE(u.incremental);
  EXPECT_EQ(s.EditedModel().graph().node_size(), 2);
  EXPECT_TRUE(MatchesFresh(s, {}));
}

// Inserting a node whose output a later node is rewired to read; the new value gets its
// value_info entry where a full run writes it (in node order among the added ones).
TEST(SessionTest, InsertAndRewireIsIncremental) {
  Session s(Parse(R"(
agraph (float[N, 4] x) => (float y) {
  a = Relu(x)
  b = Neg(a)
  c = Sigmoid(b)
  y = ReduceSum <keepdims = 0> (c)
}
)"),
            BuiltinSchemas());
  ASSERT_TRUE(s.InsertNode(1, ParseNode("t = Transpose <perm = [1, 0]> (a)")).ok());
  ASSERT_TRUE(s.ReplaceNode(2, ParseNode("b = Neg(t)")).ok());
  SessionUpdate u = s.Update();
  EXPECT_TRUE(u.incremental);
  EXPECT_EQ(s.TypeOf("t")->ToString(), "float[4, N]");
  EXPECT_EQ(s.TypeOf("c")->ToString(), "float[4, N]");
  EXPECT_EQ(u.changed_values, (std::vector<std::string>{"b", "c", "t"}));
  EXPECT_TRUE(MatchesFresh(s, {}));
  // And out again.
  ASSERT_TRUE(s.ReplaceNode(2, ParseNode("b = Neg(a)")).ok());
  ASSERT_TRUE(s.RemoveNode(1).ok());
  EXPECT_TRUE(s.Update().incremental);
  EXPECT_EQ(s.TypeOf("t"), nullptr);
  EXPECT_TRUE(MatchesFresh(s, {}));
  EXPECT_EQ(s.stats().full_updates, 0);
}

// A node replaced by an initializer of its output's name: readers see the initializer.
TEST(SessionTest, NodeReplacedByInitializer) {
  Session s(Parse(R"(
agraph (float[N, 4] x, float[4, 3] w0) => (float[N, 3] y) {
  w = Abs(w0)
  y = MatMul(x, w)
}
)"),
            BuiltinSchemas());
  onnx::TensorProto w;
  w.set_name("w");
  w.set_data_type(onnx::TensorProto::FLOAT);
  w.add_dims(4);
  w.add_dims(3);
  for (int i = 0; i < 12; ++i) w.add_float_data(1.0f);
  ASSERT_TRUE(s.RemoveNode(0).ok());
  ASSERT_TRUE(s.SetInitializer(w).ok());
  SessionUpdate u = s.Update();
  EXPECT_TRUE(u.incremental);
  EXPECT_EQ(s.TypeOf("w"), nullptr);  // an initializer: not a node output any more
  EXPECT_TRUE(MatchesFresh(s, {}));
}

// A node given another output name, its reader rewired to it: both in place, so the node
// list keeps its shape, but the values change names.
TEST(SessionTest, RewiredOutputsAreIncremental) {
  Session s(Parse(kSmall), BuiltinSchemas());
  ASSERT_TRUE(s.ReplaceNode(1, ParseNode("b2 = Sigmoid(a)")).ok());
  ASSERT_TRUE(s.ReplaceNode(2, ParseNode("c = Softmax <axis = -1> (b2)")).ok());
  SessionUpdate u = s.Update();
  EXPECT_TRUE(u.incremental);
  EXPECT_EQ(u.changed_values, (std::vector<std::string>{"b", "b2"}));
  EXPECT_EQ(s.TypeOf("b"), nullptr);
  EXPECT_EQ(s.TypeOf("b2")->ToString(), "float[N, 4]");
  EXPECT_TRUE(MatchesFresh(s, {}));
}

// An edit whose result a full run reports (a reader left without its input) is full.
TEST(SessionTest, DanglingReaderIsFull) {
  Session s(Parse(kSmall), BuiltinSchemas());
  ASSERT_TRUE(s.RemoveNode(1).ok());  // c reads b, defined nowhere now
  EXPECT_FALSE(s.Update().incremental);
  EXPECT_TRUE(s.result().HasErrors());
  EXPECT_TRUE(MatchesFresh(s, {}));
}

// ---- Random edit sequences.

class Editor {
 public:
  Editor(Session& session, uint32_t seed) : s_(session), rng_(seed) {}

  // Applies one random edit; returns what it did.
  std::string Step() {
    const onnx::GraphProto& g = s_.EditedModel().graph();
    const int n = g.node_size();
    for (int attempt = 0; attempt < 20; ++attempt) {
      // Kinds 100 and up: an optimizer's rewrites (fold, bypass, constant, insert).
      const int kind = Pick(130);
      if (kind >= 100 && n > 0) {
        if (auto d = Rewrite(kind - 100); !d.empty()) return d;
      } else if (kind < 30 && n > 0) {
        if (auto d = SwapUnary(); !d.empty()) return d;
      } else if (kind < 50 && n > 0) {
        if (auto d = TweakAttribute(); !d.empty()) return d;
      } else if (kind < 58 && n > 0) {
        const int i = Pick(n);
        const onnx::NodeProto& node = g.node(i);
        std::string value;
        for (const auto& in : node.input()) {
          if (!in.empty()) value = in;
        }
        if (value.empty()) continue;
        const std::string out = Fresh("ins");
        onnx::NodeProto relu;
        relu.set_op_type("Relu");
        relu.add_input(value);
        relu.add_output(out);
        if (!s_.InsertNode(i, relu).ok()) continue;
        return "insert Relu(" + value + ") at " + std::to_string(i);
      } else if (kind < 62 && n > 1) {
        const int i = Pick(n);
        if (!s_.RemoveNode(i).ok()) continue;
        return "remove node " + std::to_string(i);
      } else if (kind < 72) {
        if (auto d = TweakInitializer(); !d.empty()) return d;
      } else if (kind < 80) {
        if (auto d = TweakInput(); !d.empty()) return d;
      } else if (kind < 86 && n > 0) {
        const onnx::NodeProto& node = g.node(Pick(n));
        if (node.output_size() == 0 || node.output(0).empty()) continue;
        onnx::ValueInfoProto vi;
        vi.set_name(node.output(0));
        if (!s_.AddOutput(vi).ok()) continue;
        return "add output " + vi.name();
      } else if (kind < 90 && g.output_size() > 1) {
        const std::string name = g.output(Pick(g.output_size())).name();
        if (!s_.RemoveOutput(name).ok()) continue;
        return "remove output " + name;
      } else if (n > 0) {
        const onnx::NodeProto& node = g.node(Pick(n));
        if (node.output_size() == 0 || node.output(0).empty()) continue;
        const std::string from = node.output(0), to = Fresh("ren");
        if (!s_.RenameValue(from, to).ok()) continue;
        return "rename " + from + " -> " + to;
      }
    }
    return "nothing";
  }

 private:
  int Pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }
  std::string Fresh(const char* prefix) { return std::string(prefix) + std::to_string(next_++); }

  // A unary elementwise node becomes another (usually the same types: incremental).
  std::string SwapUnary() {
    static const std::vector<std::string> kUnary = {"Relu", "Sigmoid", "Tanh", "Neg", "Abs", "Exp"};
    const onnx::GraphProto& g = s_.EditedModel().graph();
    for (int tries = 0; tries < 8; ++tries) {
      const int i = Pick(g.node_size());
      const onnx::NodeProto& node = g.node(i);
      if (!node.domain().empty() ||
          std::find(kUnary.begin(), kUnary.end(), node.op_type()) == kUnary.end()) {
        continue;
      }
      onnx::NodeProto copy = node;
      copy.set_op_type(kUnary[Pick(static_cast<int>(kUnary.size()))]);
      if (!s_.ReplaceNode(i, copy).ok()) return "";
      return "node " + std::to_string(i) + " " + node.op_type() + " -> " + copy.op_type();
    }
    return "";
  }

  // An int attribute of a random node set to another value (or the same).
  std::string TweakAttribute() {
    const onnx::GraphProto& g = s_.EditedModel().graph();
    const int i = Pick(g.node_size());
    const onnx::NodeProto& node = g.node(i);
    for (const auto& attr : node.attribute()) {
      if (attr.type() == onnx::AttributeProto::INTS && attr.ints_size() > 1) {
        // Reversed (a Transpose's perm, a Reshape-like list): types change downstream.
        onnx::AttributeProto a = attr;
        std::reverse(a.mutable_ints()->begin(), a.mutable_ints()->end());
        if (!s_.SetNodeAttribute(i, a).ok()) return "";
        return "node " + std::to_string(i) + " attr " + a.name() + " reversed";
      }
      if (attr.type() != onnx::AttributeProto::INT) continue;
      onnx::AttributeProto a = attr;
      const int64_t choices[] = {attr.i(), attr.i() + 1, attr.i() - 1, -1, 0};
      a.set_i(choices[Pick(5)]);
      if (!s_.SetNodeAttribute(i, a).ok()) return "";
      return "node " + std::to_string(i) + " attr " + a.name() + "=" + std::to_string(a.i());
    }
    return "";
  }

  // The node outputs of the main graph that are not graph outputs or declared.
  bool Internal(const std::string& name) const {
    const onnx::GraphProto& g = s_.EditedModel().graph();
    for (const auto& vi : g.output()) {
      if (vi.name() == name) return false;
    }
    for (const auto& vi : g.value_info()) {
      if (vi.name() == name) return false;
    }
    for (const auto& vi : g.input()) {
      if (vi.name() == name) return false;
    }
    for (const auto& t : g.initializer()) {
      if (t.name() == name) return false;
    }
    return true;
  }

  // An optimizer's rewrite of a random node: 0-9 fold (remove a one-input node whose output
  // has its input's type, its input renamed to its output), 10-19 bypass (remove it, its
  // readers rewired to its input), 20-24 constant (a node with a static output becomes an
  // initializer of zeros), 25-29 insert a Neg between a value and one of its readers.
  std::string Rewrite(int what) {
    const onnx::GraphProto& g = s_.EditedModel().graph();
    const int n = g.node_size();
    const int i = Pick(n);
    const onnx::NodeProto& node = g.node(i);
    if (node.output_size() != 1 || node.output(0).empty() || !Internal(node.output(0))) return "";
    const std::string out = node.output(0);
    if (what < 20) {
      if (node.input_size() < 1 || node.input(0).empty()) return "";
      const std::string in = node.input(0);
      const Type* ti = s_.TypeOf(in);
      const Type* to = s_.TypeOf(out);
      if (!ti || !to || !(*ti == *to)) return "";
      if (what < 10) {
        if (!Internal(in)) return "";
        if (!s_.RemoveNode(i).ok() || !s_.RenameValue(in, out).ok()) return "";
        return "fold node " + std::to_string(i) + ": " + in + " renamed " + out;
      }
      std::vector<std::pair<int, onnx::NodeProto>> readers;
      for (int r = 0; r < n; ++r) {
        onnx::NodeProto copy = g.node(r);
        bool reads = false;
        for (auto& x : *copy.mutable_input()) {
          if (x == out) {
            x = in;
            reads = true;
          }
        }
        if (reads) readers.emplace_back(r > i ? r - 1 : r, std::move(copy));
      }
      if (!s_.RemoveNode(i).ok()) return "";
      for (auto& [r, copy] : readers) {
        if (!s_.ReplaceNode(r, copy).ok()) return "";
      }
      return "bypass node " + std::to_string(i) + " (" + std::to_string(readers.size()) +
             " readers)";
    }
    if (what < 25) {
      const Type* t = s_.TypeOf(out);
      if (!t || !t->is_tensor() || !t->has_shape() || !IsStatic(t->shape())) return "";
      if (t->elem_type() != onnx::TensorProto::FLOAT && t->elem_type() != onnx::TensorProto::INT64)
        return "";
      int64_t count = 1;
      onnx::TensorProto c;
      c.set_name(out);
      c.set_data_type(t->elem_type());
      for (const auto& d : t->shape()) {
        c.add_dims(*d.const_value());
        count *= *d.const_value();
      }
      if (count > 4096) return "";
      for (int64_t k = 0; k < count; ++k) {
        if (t->elem_type() == onnx::TensorProto::FLOAT) {
          c.add_float_data(0.0f);
        } else {
          c.add_int64_data(1);
        }
      }
      if (!s_.RemoveNode(i).ok() || !s_.SetInitializer(c).ok()) return "";
      return "constant node " + std::to_string(i) + " -> initializer " + out;
    }
    // Insert Neg(out) after node i, and rewire one reader of out to it.
    for (int r = i + 1; r < n; ++r) {
      onnx::NodeProto copy = g.node(r);
      bool reads = false;
      const std::string neg = Fresh("neg");
      for (auto& x : *copy.mutable_input()) {
        if (x == out && !reads) {
          x = neg;
          reads = true;
        }
      }
      if (!reads) continue;
      onnx::NodeProto node_neg;
      node_neg.set_op_type("Neg");
      node_neg.add_input(out);
      node_neg.add_output(neg);
      if (!s_.InsertNode(i + 1, node_neg).ok() || !s_.ReplaceNode(r + 1, copy).ok()) return "";
      return "insert " + neg + " = Neg(" + out + ") before node " + std::to_string(r + 1);
    }
    return "";
  }

  std::string TweakInitializer() {
    const onnx::GraphProto& g = s_.EditedModel().graph();
    if (g.initializer_size() == 0) return "";
    onnx::TensorProto t = g.initializer(Pick(g.initializer_size()));
    if (t.data_location() == onnx::TensorProto::EXTERNAL) return "";
    if (t.data_type() == onnx::TensorProto::INT64 && t.int64_data_size() > 0 &&
        t.int64_data_size() <= 16) {
      t.set_int64_data(Pick(t.int64_data_size()), Pick(3) - 1);
    } else {
      // Any other: a float scalar of the same name.
      onnx::TensorProto scalar;
      scalar.set_name(t.name());
      scalar.set_data_type(onnx::TensorProto::FLOAT);
      scalar.add_float_data(1.0f);
      t = scalar;
    }
    if (!s_.SetInitializer(t).ok()) return "";
    return "initializer " + t.name();
  }

  std::string TweakInput() {
    const onnx::GraphProto& g = s_.EditedModel().graph();
    if (g.input_size() == 0) return "";
    const onnx::ValueInfoProto& in = g.input(Pick(g.input_size()));
    if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape() ||
        in.type().tensor_type().shape().dim_size() == 0) {
      return "";
    }
    onnx::TypeProto type = in.type();
    auto* shape = type.mutable_tensor_type()->mutable_shape();
    auto* dim = shape->mutable_dim(Pick(shape->dim_size()));
    switch (Pick(3)) {
      case 0:
        dim->set_dim_value(1 + Pick(4));
        break;
      case 1:
        dim->set_dim_param(Fresh("D"));
        break;
      default:
        dim->clear_dim_value();
        dim->clear_dim_param();
        break;
    }
    if (!s_.SetInputType(in.name(), type).ok()) return "";
    return "input type " + in.name();
  }

  Session& s_;
  std::mt19937 rng_;
  int next_ = 0;
};

// Runs `steps` random edits on `model`, one Update() after each (after two, every fourth
// step), comparing with a fresh inference each time.
void RandomEdits(onnx::ModelProto model, const std::string& label, int steps, uint32_t seed,
                 Session::Stats* total) {
  InferenceOptions options;
  Session s(std::move(model), BuiltinSchemas(), options);
  ASSERT_TRUE(MatchesFresh(s, options)) << label << " at construction";
  Editor editor(s, seed);
  std::string history;
  for (int step = 0; step < steps; ++step) {
    history += "  " + editor.Step() + "\n";
    if (step % 4 == 3) history += "  " + editor.Step() + "\n";
    s.Update();
    ASSERT_TRUE(MatchesFresh(s, options)) << label << " after step " << step << ":\n" << history;
  }
  total->incremental_updates += s.stats().incremental_updates;
  total->full_updates += s.stats().full_updates;
  total->nodes_inferred += s.stats().nodes_inferred;
  total->structural_updates += s.stats().structural_updates;
  for (const auto& [reason, n] : s.stats().full_reasons) total->full_reasons[reason] += n;
}

TEST(SessionPropertyTest, Workloads) {
  Session::Stats total;
  uint32_t seed = 1;
  for (bench::WorkloadKind kind :
       {bench::WorkloadKind::kDecoder, bench::WorkloadKind::kChain, bench::WorkloadKind::kCnn}) {
    const int64_t nodes = std::max<int64_t>(bench::MinimumNodes(kind), 60);
    bench::Workload w = bench::MakeWorkload(kind, nodes);
    RandomEdits(std::move(w.model), std::string(bench::WorkloadKindName(kind)), 100, seed++,
                &total);
  }
  std::printf(
      "workloads: %lld incremental updates (%lld with structural edits, %lld nodes inferred), "
      "%lld full\n",
      static_cast<long long>(total.incremental_updates),
      static_cast<long long>(total.structural_updates),
      static_cast<long long>(total.nodes_inferred), static_cast<long long>(total.full_updates));
  for (const auto& [reason, n] : total.full_reasons) {
    std::printf("  full (%s): %lld\n", reason.c_str(), static_cast<long long>(n));
  }
  EXPECT_GT(total.incremental_updates, 0);
}

// Random permutations of two Transposes: types change and reach several readers, and stop
// at the reductions to scalars; every update is incremental and equals a fresh inference.
TEST(SessionPropertyTest, PropagationWithCutOff) {
  Session s(Parse(R"(
agraph (float[A, B, C, D] x) => (float y) {
  t1 = Transpose <perm = [0, 1, 2, 3]> (x)
  r1 = Relu(t1)
  t2 = Transpose <perm = [0, 1, 2, 3]> (r1)
  s1 = Sigmoid(t2)
  n1 = Neg(r1)
  a1 = Add(s1, s1)
  u = ReduceSum <keepdims = 0> (a1)
  v = ReduceSum <keepdims = 0> (n1)
  y = Add(u, v)
}
)"),
            BuiltinSchemas());
  std::mt19937 rng(5);
  const int steps = 40;
  for (int step = 0; step < steps; ++step) {
    onnx::AttributeProto perm;
    perm.set_name("perm");
    perm.set_type(onnx::AttributeProto::INTS);
    std::vector<int64_t> p = {0, 1, 2, 3};
    std::shuffle(p.begin(), p.end(), rng);
    for (int64_t v : p) perm.add_ints(v);
    const int node = rng() % 2 == 0 ? 0 : 2;
    ASSERT_TRUE(s.SetNodeAttribute(node, perm).ok());
    s.Update();
    ASSERT_TRUE(MatchesFresh(s, {})) << "step " << step;
  }
  EXPECT_EQ(s.stats().incremental_updates, steps);
  EXPECT_GT(s.stats().nodes_inferred, steps);  // readers inferred again, not only the edit
}

TEST(SessionPropertyTest, RealModels) {
  const char* shared = std::getenv("SHARED_DIR");
  if (!shared) GTEST_SKIP() << "SHARED_DIR is not set";
  const fs::path dir = fs::path(shared) / "models" / "real";
  if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " does not exist";
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".onnx") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  Session::Stats total;
  uint32_t seed = 100;
  for (const auto& path : paths) {
    auto model = LoadBinaryModel(path.string());
    if (!model.ok()) continue;  // the corpus test covers what does not load
    RandomEdits(std::move(*model), path.filename().string(), 8, seed++, &total);
  }
  std::printf("real models: %lld incremental updates (%lld with structural edits), %lld full\n",
              static_cast<long long>(total.incremental_updates),
              static_cast<long long>(total.structural_updates),
              static_cast<long long>(total.full_updates));
  for (const auto& [reason, n] : total.full_reasons) {
    std::printf("  full (%s): %lld\n", reason.c_str(), static_cast<long long>(n));
  }
}

}  // namespace
}  // namespace onnx_infer
