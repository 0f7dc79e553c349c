// Memory estimates (inference/memory.h): bytes of a type, the weights of every kind, and the
// liveness model of docs/memory.md step by step. Golden cases with `# options: memory`
// (testdata/cases/memory/) show whole estimates.
#include "onnx_infer/inference/memory.h"

#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

using symbolic::Dim;
using testing::T;

struct BytesCase {
  const char* type;
  const char* bytes;
};

TEST(BytesOfTypeTest, ElementsTimesElementSize) {
  const BytesCase cases[] = {
      {"float[2, 3]", "24"},
      {"float[N, 3]", "12*N"},
      {"double[N, M]", "8*M*N"},
      {"bool[7]", "7"},
      {"float16[N]", "2*N"},
      {"complex128[2]", "32"},
      {"float[]", "4"},
      {"float[0, 5]", "0"},
      {"int4[3]", "2"},                  // packed two a byte, rounded up
      {"uint4[N]", "floor((N + 1)/2)"},  // ceiling(N/2)
      {"int2[5]", "2"},                  // four a byte
      {"float4e2m1[2, 3]", "3"},
      {"float[N, ?]", "?"},  // a dim unknown
      {"float", "?"},        // rank unknown
      {"string[4]", "?"},    // each string its own size
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.type);
    EXPECT_EQ(BytesOfType(T(c.type)).ToString(), c.bytes);
  }
  EXPECT_TRUE(BytesOfType(Type()).is_unknown());
  EXPECT_TRUE(BytesOfType(Type::Sequence(T("float[2]"))).is_unknown());
  EXPECT_TRUE(BytesOfType(Type::SparseTensor(kFloat, Shape{Dim::Const(4)})).is_unknown());
}

TEST(FormatBytesTest, ConstantsGetAUnit) {
  EXPECT_EQ(FormatBytes(Dim::Const(1023)), "1023");
  EXPECT_EQ(FormatBytes(Dim::Const(1024)), "1024 (1.0 KiB)");
  EXPECT_EQ(FormatBytes(Dim::Const(4482816)), "4482816 (4.3 MiB)");
  EXPECT_EQ(FormatBytes(Dim::Const(3LL << 30)), "3221225472 (3.0 GiB)");
  EXPECT_EQ(FormatBytes(Dim::Symbol("N") * Dim::Const(4)), "4*N");
  EXPECT_EQ(FormatBytes(Dim()), "?");
}

struct Estimated {
  onnx::ModelProto model;
  InferenceResult result;
  MemoryEstimate memory;
};

Estimated Estimate(const std::string& text, int opset = 17) {
  Estimated e;
  auto m = syntax::ParseModelText(
      "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + text);
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (m.ok()) e.model = *m;
  e.result = InferShapes(e.model, BuiltinSchemas(), InferenceOptions{});
  e.memory = EstimateMemory(e.model, e.result);
  return e;
}

// "Op: bytes" of every step, in order.
std::vector<std::string> Steps(const MemoryEstimate& m) {
  std::vector<std::string> out;
  for (const auto& s : m.steps) out.push_back(s.op_type + ": " + s.live_bytes.ToString());
  return out;
}

TEST(EstimateMemoryTest, EveryKindOfWeight) {
  Estimated e = Estimate(R"(
    main (float[N, 4] x) => (y) <float[4, 4] w = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}> {
      a = MatMul(x, w)
      i = Constant <value_ints = [1, 2, 3]> ()
      f = Constant <value_float = 1.0> ()
      t = Constant <value = int4[3] {1, 2, 3}> ()
      y = Relu(a)
    })",
                         21);
  // An external initializer counts by its dims: its file is never opened (there is none).
  auto* ext = e.model.mutable_graph()->add_initializer();
  ext->set_name("big");
  ext->set_data_type(kFloat16);
  ext->add_dims(1000);
  ext->add_dims(1000);
  ext->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* entry = ext->add_external_data();
  entry->set_key("location");
  entry->set_value("missing.bin");
  auto* sparse = e.model.mutable_graph()->add_sparse_initializer();
  sparse->add_dims(100);
  sparse->mutable_values()->set_name("sp");
  sparse->mutable_values()->set_data_type(kFloat);
  sparse->mutable_values()->add_dims(5);
  sparse->mutable_indices()->set_data_type(kInt64);
  sparse->mutable_indices()->add_dims(5);
  auto* text = e.model.mutable_graph()->add_initializer();
  text->set_name("words");
  text->set_data_type(kString);
  text->add_dims(2);
  MemoryEstimate m = EstimateMemory(e.model, e.result);
  // 64 (w) + 2,000,000 (big) + 20 + 40 (sparse) + 24 (ints) + 4 (float) + 2 (int4).
  EXPECT_EQ(m.weight_bytes.ToString(), "2000154");
  EXPECT_EQ(m.weights, 7);
  EXPECT_EQ(m.weights_unknown_size, 1);  // the strings
  // Constant nodes are weights, not activations: their steps hold only x and a.
  EXPECT_EQ(Steps(m), (std::vector<std::string>{"MatMul: 32*N", "Constant: 16*N", "Constant: 16*N",
                                                "Constant: 16*N", "Relu: 32*N"}));
}

TEST(EstimateMemoryTest, LiveFromProducerToLastConsumer) {
  Estimated e = Estimate(R"(
    main (float[N] x) => (y) {
      a = Relu(x)
      b = Neg(a)
      c = Abs(b)
      d = Add(a, c)
      y = Sigmoid(d)
    })");
  const MemoryEstimate& m = e.memory;
  // x until its last consumer (step 0); a until d (step 3); each of b, c, d until its next
  // node; y, a graph output, to the end.
  EXPECT_EQ(Steps(m), (std::vector<std::string>{"Relu: 8*N", "Neg: 8*N", "Abs: 12*N", "Add: 12*N",
                                                "Sigmoid: 8*N"}));
  EXPECT_EQ(m.peak_bytes.ToString(), "12*N");
  EXPECT_TRUE(m.peak_decided);
  EXPECT_EQ(m.peak_steps, (std::vector<int>{2}));
  EXPECT_EQ(m.unknown_activations, 0);
  ASSERT_EQ(m.values.size(), 6u);
  EXPECT_EQ(m.values[0].name, "x");
  EXPECT_EQ(m.values[0].bytes.ToString(), "4*N");
}

TEST(EstimateMemoryTest, RunsInTheDriversOrder) {
  // Listed out of order: the estimate follows the order the nodes can run in.
  Estimated e = Estimate(R"(
    main (float[4] x) => (y) {
      y = Relu(a)
      a = Neg(x)
    })");
  ASSERT_EQ(e.memory.steps.size(), 2u);
  EXPECT_EQ(e.memory.steps[0].node_index, 1);
  EXPECT_EQ(e.memory.steps[0].op_type, "Neg");
  EXPECT_EQ(Steps(e.memory), (std::vector<std::string>{"Neg: 32", "Relu: 32"}));
}

TEST(EstimateMemoryTest, SubgraphsCountAtTheirNode) {
  // The larger branch runs inside the If's step; a branch's output is the If's own output,
  // not counted twice; outer values a branch reads stay live until the If.
  Estimated e = Estimate(R"(
    main (bool[] c, float[N] x, float[N] z) => (y, w) {
      w = Relu(z)
      y = If (c) <then_branch = g () => (t) { e = Exp(x)  f = Neg(e)  t = Abs(f) },
                  else_branch = h () => (u) { u = Identity(x) }>
    })");
  // Step 0 (Relu): c, x, z, w = 12*N + 1. Step 1 (If): c, x, w, y + the then branch's peak,
  // 8*N (e and f at the Neg) = 20*N + 1.
  EXPECT_EQ(Steps(e.memory), (std::vector<std::string>{"Relu: 12*N + 1", "If: 20*N + 1"}));
}

TEST(EstimateMemoryTest, UndecidedPeaksListEveryCandidate) {
  Estimated e = Estimate(R"(
    main (float[A] a, float[B] b, float[C] c) => (ra, rb, rc) {
      ra = Relu(a)
      rb = Relu(b)
      rc = Relu(c)
    })");
  // 8A + 4B + 4C, 4A + 8B + 4C, 4A + 4B + 8C: each the largest for some A, B, C.
  EXPECT_FALSE(e.memory.peak_decided);
  EXPECT_EQ(e.memory.peak_steps, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(e.memory.peak_bytes.ToString(),
            "Max(Max(4*A + 8*B + 4*C, 8*A + 4*B + 4*C), 4*A + 4*B + 8*C)");
}

TEST(EstimateMemoryTest, UnknownSizesAreCountedNotGuessed) {
  Estimated e = Estimate(R"(
    main (float[N, 2] x) => (n) {
      u = NonZero(x)
      n = Shape(u)
    })");
  EXPECT_EQ(e.memory.unknown_activations, 1);
  ASSERT_EQ(e.memory.steps.size(), 2u);
  EXPECT_EQ(e.memory.steps[0].unknown_values, 1);
  EXPECT_EQ(e.memory.steps[0].live_bytes.ToString(), "8*N");
  EXPECT_EQ(e.memory.steps[1].unknown_values, 1);
  EXPECT_EQ(e.memory.steps[1].live_bytes.ToString(), "16");
}

TEST(EstimateMemoryTest, BoundSymbolsGiveNumbers) {
  auto m = syntax::ParseModelText(R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[B, S] x) => (y) { y = Relu(x) })");
  ASSERT_TRUE(m.ok());
  InferenceOptions options;
  options.bind = {{"B", 2}, {"S", 1024}};
  InferenceResult r = InferShapes(*m, BuiltinSchemas(), options);
  MemoryEstimate memory = EstimateMemory(*m, r);
  EXPECT_EQ(memory.peak_bytes.ToString(), "16384");
  EXPECT_TRUE(memory.peak_decided);
}

}  // namespace
}  // namespace onnx_infer
