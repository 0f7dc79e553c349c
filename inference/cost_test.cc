// Compute cost (inference/cost.h): each operator's formula on shapes small enough to count
// by hand (the numbers in the comments), control flow, function calls, what has no formula,
// and evaluation under bindings. docs/cost.md writes the formulas down; golden cases with
// `# options: cost` (testdata/cases/cost/) show whole estimates.
#include "onnx_infer/inference/cost.h"

#include <gtest/gtest.h>

#include <string>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

struct Estimated {
  onnx::ModelProto model;
  InferenceResult result;
  CostEstimate cost;
};

Estimated Estimate(const std::string& graph,
                   const std::string& opsets = R"("" : 17, "com.microsoft" : 1)") {
  Estimated e;
  auto m = syntax::ParseModelText("<ir_version: 10, opset_import: [" + opsets + "]>\n" + graph);
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (m.ok()) e.model = *m;
  e.result = InferShapes(e.model, BuiltinSchemas(), InferenceOptions{});
  for (const auto& d : e.result.diagnostics) {
    EXPECT_NE(d.severity, Severity::kError) << d.Render("test");
  }
  e.cost = EstimateCost(e.model, e.result);
  return e;
}

const NodeCost& Node(const Estimated& e, int index, const std::string& graph = "main") {
  for (const auto& n : e.cost.nodes) {
    if (n.graph == graph && n.node_index == index) return n;
  }
  static const NodeCost none;
  ADD_FAILURE() << "no node #" << index << " in " << graph;
  return none;
}

// An opset_import of ai.onnx alone.
std::string Onnx(int version) { return "\"\" : " + std::to_string(version); }

// "FLOPs / MACs" of node `index` of the main graph.
std::string Cost(const Estimated& e, int index) {
  const NodeCost& n = Node(e, index);
  return n.flops.ToString() + " / " + n.macs.ToString();
}

// A graph of one node `node` (a text line) over the given inputs, output y.
std::string OneNode(const std::string& inputs, const std::string& node,
                    const std::string& initializers = "") {
  return "main (" + inputs + ") => (y) " + initializers + "{\n  " + node + "\n}";
}

TEST(CostTest, MatMulCountsOutputElementsTimesK) {
  // [2, 3, 5] = 30 outputs, each 4 multiply-adds.
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3, 4] a, float[4, 5] b", "y = MatMul(a, b)")), 0),
            "240 / 120");
  // Batch dims broadcast: [2, 5, 3, 6] = 180 outputs x 4.
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 1, 3, 4] a, float[5, 4, 6] b", "y = MatMul(a, b)")), 0),
            "1440 / 720");
  // Vectors: [4] x [4, 5] gives [5]; [3, 4] x [4] gives [3].
  EXPECT_EQ(Cost(Estimate(OneNode("float[4] a, float[4, 5] b", "y = MatMul(a, b)")), 0), "40 / 20");
  EXPECT_EQ(Cost(Estimate(OneNode("float[3, 4] a, float[4] b", "y = MatMul(a, b)")), 0), "24 / 12");
  // Symbolic.
  EXPECT_EQ(Cost(Estimate(OneNode("float[B, S, 4] a, float[4, 5] b", "y = MatMul(a, b)")), 0),
            "40*B*S / 20*B*S");
}

TEST(CostTest, WeightsAreInitializers) {
  // Initializers are not among the listed values unless they are graph inputs.
  Estimated e = Estimate(R"(
    main (float[N, 2] x) => (y) <float[2, 3] w = {1, 2, 3, 4, 5, 6}> {
      y = MatMul(x, w)
    })");
  EXPECT_EQ(Cost(e, 0), "12*N / 6*N");
  Estimated c = Estimate(OneNode("float[1, 1, 4, 4] x", "y = Conv(x, w)",
                                 "<float[2, 1, 3, 3] w = {1, 1, 1, 1, 1, 1, 1, 1, 1, "
                                 "1, 1, 1, 1, 1, 1, 1, 1, 1}>"));
  EXPECT_EQ(Cost(c, 0), "144 / 72");  // Y [1, 2, 2, 2] = 8 x 9
}

TEST(CostTest, GemmWithScalingAndBias) {
  // 3 x 5 outputs x K 4 = 60 MACs; + C: 15.
  EXPECT_EQ(
      Cost(Estimate(OneNode("float[3, 4] a, float[4, 5] b, float[5] c", "y = Gemm(a, b, c)")), 0),
      "135 / 60");
  // transA: A is [K, M]. alpha and beta not 1: a multiply each per output.
  EXPECT_EQ(Cost(Estimate(OneNode("float[4, 3] a, float[4, 5] b, float[5] c",
                                  "y = Gemm <transA = 1, alpha = 0.5, beta = 2.0> (a, b, c)")),
                 0),
            "165 / 60");
  EXPECT_EQ(
      Cost(Estimate(OneNode("float[3, 4] a, float[5, 4] b", "y = Gemm <transB = 1> (a, b)")), 0),
      "120 / 60");
}

TEST(CostTest, ConvGroupsDilationsBias) {
  // Y [1, 16, 8, 8] = 1024 outputs x 3*3*3 = 27648 MACs; bias 1024.
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 3, 8, 8] x, float[16, 3, 3, 3] w, float[16] b",
                                  "y = Conv <pads = [1, 1, 1, 1]> (x, w, b)")),
                 0),
            "56320 / 27648");
  // group 2: W [8, 2, 3, 3], Y [1, 8, 6, 6] = 288 x 18.
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 4, 8, 8] x, float[8, 2, 3, 3] w",
                                  "y = Conv <group = 2> (x, w)")),
                 0),
            "10368 / 5184");
  // Dilations change the output size only: Y [1, 1, 3, 3] = 9 x 9.
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 1, 7, 7] x, float[1, 1, 3, 3] w",
                                  "y = Conv <dilations = [2, 2]> (x, w)")),
                 0),
            "162 / 81");
  // ConvTranspose: 18 input elements x 4*3*3; Y [1, 4, 5, 5] = 100 bias adds.
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 2, 3, 3] x, float[2, 4, 3, 3] w, float[4] b",
                                  "y = ConvTranspose(x, w, b)")),
                 0),
            "1396 / 648");
}

TEST(CostTest, Pooling) {
  // 4 outputs of windows of 4: max 3 compares each, average 4.
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 1, 4, 4] x",
                                  "y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)")),
                 0),
            "12 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 1, 4, 4] x",
                                  "y = AveragePool <kernel_shape = [2, 2], strides = [2, 2]> (x)")),
                 0),
            "16 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 2, 3, 3] x", "y = GlobalAveragePool(x)")), 0),
            "18 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 2, 3, 3] x", "y = GlobalMaxPool(x)")), 0), "16 / 0");
}

TEST(CostTest, Normalization) {
  const std::string x = "float[2, 3, 4] x, float[4] s, float[4] b";
  EXPECT_EQ(
      Cost(Estimate(OneNode("float[2, 3, 4] x, float[3] s, float[3] b, float[3] m, float[3] v",
                            "y = BatchNormalization(x, s, b, m, v)")),
           0),
      "48 / 0");  // one multiply-add per element
  EXPECT_EQ(Cost(Estimate(OneNode(x, "y = LayerNormalization <axis = -1> (x, s, b)")), 0),
            "192 / 0");  // 24 x 8
  EXPECT_EQ(Cost(Estimate(OneNode(x, "y = LayerNormalization <axis = -1> (x, s)")), 0),
            "168 / 0");  // no bias: 24 x 7
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3, 4] x, float[3] s, float[3] b",
                                  "y = InstanceNormalization(x, s, b)")),
                 0),
            "192 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode(x, "y = RMSNormalization(x, s)"), Onnx(23)), 0), "96 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode(x, "y = SimplifiedLayerNormalization(x, s)"), Onnx(17)), 0),
            "96 / 0");  // onnxruntime's, in the default domain
  // input + skip + bias, LayerNorm with gamma and beta: 24 x (1 + 1 + 7 + 1).
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3, 4] x, float[2, 3, 4] k, float[4] g, float[4] be, "
                                  "float[4] bi",
                                  "y = com.microsoft.SkipLayerNormalization(x, k, g, be, bi)")),
                 0),
            "240 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 5] x", "y = Softmax(x)")), 0), "50 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 5] x", "y = LogSoftmax(x)")), 0), "50 / 0");
  // Training mode has no formula.
  Estimated t =
      Estimate(OneNode("float[2, 3] x, float[3] s, float[3] b, float[3] m, float[3] v",
                       "y, rm, rv = BatchNormalization <training_mode = 1> (x, s, b, m, v)"),
               Onnx(15));
  EXPECT_TRUE(Node(t, 0).flops.is_unknown());
  EXPECT_TRUE(t.cost.lower_bound);
}

TEST(CostTest, ElementwiseWeights) {
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] x", "y = Relu(x)")), 0), "6 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] x", "y = Sigmoid(x)")), 0), "24 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] x", "y = Erf(x)")), 0), "6 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] x", "y = Gelu(x)"), Onnx(20)), 0), "30 / 0");
  EXPECT_EQ(
      Cost(Estimate(OneNode("float[2, 3] x", "y = Gelu <approximate = \"tanh\"> (x)"), Onnx(20)),
           0),
      "54 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] x, float[3] b", "y = Add(x, b)")), 0), "6 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[4] a, float[4] b, float[4] c", "y = Sum(a, b, c)")), 0),
            "8 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[4] a, float[4] b, float[4] c", "y = Mean(a, b, c)")), 0),
            "12 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("bool[4] c, float[4] a, float[4] b", "y = Where(c, a, b)")), 0),
            "4 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] x, float[] lo", "y = Clip(x, lo)")), 0), "6 / 0");
  EXPECT_EQ(
      Cost(Estimate(OneNode("float[2, 3] x, float[3] b", "y = com.microsoft.BiasGelu(x, b)")), 0),
      "36 / 0");
  EXPECT_EQ(
      Cost(Estimate(OneNode("float[2, 3] x, float[3] b", "y = com.microsoft.FastGelu(x, b)")), 0),
      "60 / 0");
}

TEST(CostTest, Reductions) {
  // 24 inputs into 8 outputs.
  const std::string x = "float[2, 3, 4] x";
  EXPECT_EQ(
      Cost(Estimate(OneNode(x, "y = ReduceSum <keepdims = 0> (x, ax)", "<int64[1] ax = {1}>")), 0),
      "16 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode(x, "y = ReduceMean <axes = [1], keepdims = 0> (x)")), 0),
            "24 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode(x, "y = ReduceL2 <axes = [1]> (x)")), 0), "48 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode(x, "y = ReduceSumSquare <axes = [1]> (x)")), 0), "40 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode(x, "y = ArgMax <axis = 1> (x)")), 0), "16 / 0");
}

TEST(CostTest, Einsum) {
  // Every assignment of b, i, j, k: 2*3*4*5 = 120 multiply-adds.
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3, 4] a, float[2, 4, 5] b",
                                  "y = Einsum <equation = \"bij,bjk->bik\"> (a, b)")),
                 0),
            "240 / 120");
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3, 4] a, float[2, 4, 5] b",
                                  "y = Einsum <equation = \"...ij,...jk->...ik\"> (a, b)")),
                 0),
            "240 / 120");
  EXPECT_EQ(Cost(Estimate(OneNode("float[3, 4] a, float[4, 5] b",
                                  "y = Einsum <equation = \"ij,jk\"> (a, b)")),
                 0),
            "120 / 60");  // implicit output ik
  // Nothing summed: multiplies only.
  EXPECT_EQ(
      Cost(Estimate(OneNode("float[5] a, float[5] b", "y = Einsum <equation = \"i,i->i\"> (a, b)")),
           0),
      "5 / 0");
  // One operand: 12 elements summed into 1 is 11 adds; a transpose is free.
  EXPECT_EQ(Cost(Estimate(OneNode("float[3, 4] a", "y = Einsum <equation = \"ij->\"> (a)")), 0),
            "11 / 0");
  EXPECT_EQ(Cost(Estimate(OneNode("float[3, 4] a", "y = Einsum <equation = \"ij->ji\"> (a)")), 0),
            "0 / 0");
}

TEST(CostTest, OnnxAttention) {
  // Q [2, 4, 3, 8], K [2, 4, 5, 8], V [2, 4, 5, 6]: 120 scores; 120*8 + 120*6 = 1680 MACs;
  // each score scaled and soft-maxed (6).
  const std::string io = "float[2, 4, 3, 8] q, float[2, 4, 5, 8] k, float[2, 4, 5, 6] v";
  EXPECT_EQ(Cost(Estimate(OneNode(io, "y = Attention(q, k, v)"), Onnx(23)), 0), "4080 / 1680");
  EXPECT_EQ(Cost(Estimate(OneNode(io, "y = Attention <is_causal = 1> (q, k, v)"), Onnx(23)), 0),
            "4200 / 1680");  // the mask: 1 per score
  // 3-D: Q [2, 3, 32] with 4 heads of 8.
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3, 32] q, float[2, 5, 32] k, float[2, 5, 24] v",
                                  "y = Attention <q_num_heads = 4, kv_num_heads = 4> (q, k, v)"),
                          Onnx(23)),
                 0),
            "4080 / 1680");
}

TEST(CostTest, ContribAttention) {
  // input [2, 3, 8] x weights [8, 24]: 144 projected values x 8 = 1152 MACs, bias 144;
  // attention over 3: 2*3*3*(8 + 8) = 288 MACs; 2 heads: 36 scores x 6.
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3, 8] x, float[8, 24] w, float[24] b",
                                  "y = com.microsoft.Attention <num_heads = 2> (x, w, b)")),
                 0),
            "3240 / 1440");
  // MultiHeadAttention: q [2, 3, 8], k and v [2, 5, 8]: 5*(48 + 48) MACs, 60 scores x 6.
  EXPECT_EQ(
      Cost(Estimate(OneNode("float[2, 3, 8] q, float[2, 5, 8] k, float[2, 5, 8] v",
                            "y = com.microsoft.MultiHeadAttention <num_heads = 2> (q, k, v)")),
           0),
      "1320 / 480");
}

TEST(CostTest, GroupQueryAttentionOverThePresentKey) {
  const std::string io =
      "float[1, 2, 16] q, float[1, 2, 8] k, float[1, 2, 8] v, float[1, 2, 3, 4] pk, "
      "float[1, 2, 3, 4] pv, int32[1] sl";
  const std::string node =
      "y, yk, yv = com.microsoft.GroupQueryAttention <num_heads = 4, kv_num_heads = 2> (q, k, v, "
      "pk, pv, sl, total)";
  // The total length 5 makes the present key [1, 2, 5, 4]: 32 outputs, each a dot product of
  // 4 with 5 keys and a sum of 5 values of 4 (320 MACs); 1*2*4*5 = 40 scores, each scaled,
  // soft-maxed and causally masked (7).
  Estimated e = Estimate(OneNode(io + ", int32[] t", node, "<int32 total = {5}>"));
  EXPECT_EQ(e.result.TypeOf("main", "yk")->ToString(), "float[1, 2, 5, 4]");
  EXPECT_EQ(Cost(e, 0), "920 / 320");
  // A total length only known at run time: the present key's length is not known, and
  // neither is the cost.
  Estimated open = Estimate(OneNode(io + ", int32[] total", node));
  EXPECT_TRUE(Node(open, 0).flops.is_unknown());
  EXPECT_EQ(Node(open, 0).note, "the shape of output 1 'yk' is not fully known");
}

TEST(CostTest, FusedAndQuantizedMatMuls) {
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] a, float[3, 4] b",
                                  "y = com.microsoft.FusedMatMul <alpha = 2.0> (a, b)")),
                 0),
            "56 / 24");  // 8 outputs x 3, and the alpha multiply
  EXPECT_EQ(Cost(Estimate(OneNode("float[3, 2] a, float[3, 4] b",
                                  "y = com.microsoft.FusedMatMul <transA = 1> (a, b)")),
                 0),
            "48 / 24");
  // A [1, 5, 16] x 4-bit B of K 16, N 8: 40 outputs x 16; dequantizing 2 x 128.
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 5, 16] a, uint8[8, 1, 8] b, float[8] s",
                                  "y = com.microsoft.MatMulNBits <K = 16, N = 8, bits = 4, "
                                  "block_size = 16> (a, b, s)")),
                 0),
            "1536 / 640");
  EXPECT_EQ(Cost(Estimate(OneNode("uint8[2, 3] a, uint8[3, 4] b", "y = MatMulInteger(a, b)")), 0),
            "48 / 24");
}

TEST(CostTest, FusedActivationsAndRequantization) {
  // 8 outputs x 3; Relu 1 per output.
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] a, float[3, 4] b",
                                  "y = com.microsoft.FusedGemm <activation = \"Relu\"> (a, b)")),
                 0),
            "56 / 24");
  // Y [1, 1, 2, 2]: 4 x 9 MACs, the bias and the Relu.
  EXPECT_EQ(Cost(Estimate(OneNode("float[1, 1, 4, 4] x, float[1, 1, 3, 3] w, float[1] b",
                                  "y = com.microsoft.FusedConv <activation = \"Relu\"> (x, w, b)")),
                 0),
            "80 / 36");
  // 24 MACs; zero points of a (6) and b (12); requantizing 8 outputs (24).
  EXPECT_EQ(Cost(Estimate(OneNode("uint8[2, 3] a, float as, uint8 az, uint8[3, 4] b, float bs, "
                                  "uint8 bz, float ys, uint8 yz",
                                  "y = QLinearMatMul(a, as, az, b, bs, bz, ys, yz)")),
                 0),
            "90 / 24");
  // GemmFastGelu: 8 outputs x 3; bias and FastGelu 10 per output.
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] a, float[3, 4] b, float[4] c",
                                  "y = com.microsoft.GemmFastGelu(a, b, c)")),
                 0),
            "128 / 24");
  // DynamicQuantizeMatMul: 24 MACs; A's 6 elements x 7; scale and bias 2 x 8.
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 3] a, uint8[3, 4] b, float s, float[4] c",
                                  "y = com.microsoft.DynamicQuantizeMatMul(a, b, s, \"\", c)")),
                 0),
            "106 / 24");
  // An activation without a weight: no count.
  Estimated e = Estimate(OneNode("float[2, 3] a, float[3, 4] b",
                                 "y = com.microsoft.FusedGemm <activation = \"Foo\"> (a, b)"));
  EXPECT_TRUE(Node(e, 0).flops.is_unknown());
}

TEST(CostTest, AttentionWithPast) {
  // ai.onnx: past 5 + 3 new keys: 1*2*3*8 = 48 scores; 48*4 + 48*4 MACs.
  Estimated a = Estimate(OneNode("float[1, 2, 3, 4] q, float[1, 2, 3, 4] k, float[1, 2, 3, 4] v, "
                                 "float[1, 2, 5, 4] pk, float[1, 2, 5, 4] pv",
                                 "y, yk, yv = Attention(q, k, v, \"\", pk, pv)"),
                         Onnx(23));
  EXPECT_EQ(Cost(a, 0), "1056 / 384");
  // MultiHeadAttention: past 4 + 3: 28 scores; 7*(16 + 16) MACs.
  Estimated m = Estimate(
      OneNode("float[1, 2, 8] q, float[1, 3, 8] k, float[1, 3, 8] v, float[1, 2, 4, 4] pk, "
              "float[1, 2, 4, 4] pv",
              "y, yk, yv = com.microsoft.MultiHeadAttention <num_heads = 2> (q, k, v, \"\", \"\", "
              "\"\", pk, pv)"));
  EXPECT_EQ(Cost(m, 0), "616 / 224");
}

TEST(CostTest, RecurrentOperators) {
  // X [seq 5, batch 2, input 3], hidden 4, one direction: 10 steps.
  // LSTM: 4 gates x 4 x (3 + 4) = 112 MACs a step; 3 Sigmoids (12 each), tanh, c = f c + i g
  // (3), h = o tanh(c) (2): 18 per hidden unit; biases 8.
  const std::string x = "float[5, 2, 3] x";
  EXPECT_EQ(Cost(Estimate(OneNode(x + ", float[1, 16, 3] w, float[1, 16, 4] r, float[1, 32] b",
                                  "y = LSTM <hidden_size = 4> (x, w, r, b)")),
                 0),
            "3280 / 1120");  // 10 x (224 + 4 x (18 + 8))
  // GRU: 3 gates x 4 x 7 = 84 MACs; 2 Sigmoids, tanh, r multiply, 4: 14 per unit.
  EXPECT_EQ(Cost(Estimate(OneNode(x + ", float[1, 12, 3] w, float[1, 12, 4] r",
                                  "y = GRU <hidden_size = 4> (x, w, r)")),
                 0),
            "2240 / 840");  // 10 x (168 + 4 x 14)
  // RNN, bidirectional, batch first: 2 x 5 x 2 steps of 4 x 7 MACs; tanh 1 per unit.
  EXPECT_EQ(Cost(Estimate(OneNode("float[2, 5, 3] x, float[2, 4, 3] w, float[2, 4, 4] r",
                                  "y = RNN <hidden_size = 4, direction = \"bidirectional\", "
                                  "layout = 1> (x, w, r)"),
                          Onnx(14)),
                 0),
            "1200 / 560");  // 20 x (56 + 4)
}

TEST(CostTest, DataMovementAndNoFormula) {
  Estimated e = Estimate(R"(
    main (float[2, 3] x, int64[1] k) => (v, i, t) {
      t = Transpose(x)
      v, i = TopK(x, k)
    })");
  EXPECT_EQ(Node(e, 0).kind, CostKind::kDataMovement);
  EXPECT_EQ(Cost(e, 0), "0 / 0");
  EXPECT_EQ(Node(e, 1).kind, CostKind::kNoFormula);
  EXPECT_TRUE(Node(e, 1).flops.is_unknown());
  EXPECT_EQ(Node(e, 1).note, "no cost formula");
  EXPECT_TRUE(e.cost.lower_bound);
  EXPECT_EQ(e.cost.nodes_without_formula, 1);
  EXPECT_EQ(e.cost.ops_without_formula.at("TopK"), 1);
  EXPECT_EQ(e.cost.total_flops.ToString(), "0");
  // Resize: nearest copies, linear has no formula.
  Estimated r = Estimate(R"(
    main (float[1, 1, 2, 2] x) => (n, l) <float[4] s = {1.0, 1.0, 2.0, 2.0}> {
      n = Resize(x, "", s)
      l = Resize <mode = "linear"> (x, "", s)
    })");
  EXPECT_EQ(Node(r, 0).kind, CostKind::kDataMovement);
  EXPECT_EQ(Node(r, 1).kind, CostKind::kNoFormula);
}

TEST(CostTest, UnknownShapeIsNotZero) {
  Estimated e = Estimate(R"(
    main (float[4] z, int64[2] s, float x) => (y, w) {
      r = Reshape(z, s)
      y = Relu(r)
      w = Relu(x)
    })");
  EXPECT_EQ(Node(e, 1).kind, CostKind::kFormula);
  EXPECT_TRUE(Node(e, 1).flops.is_unknown());
  EXPECT_EQ(Node(e, 1).note, "the shape of output 0 'y' is not fully known");  // [?, ?]
  EXPECT_EQ(Node(e, 2).note, "the shape of output 0 'w' is not known");        // rank unknown
  EXPECT_EQ(e.cost.nodes_unknown_shape, 2);
  EXPECT_TRUE(e.cost.lower_bound);
  EXPECT_EQ(e.cost.total_flops.ToString(), "0");
}

TEST(CostTest, IfCountsTheLargerBranch) {
  Estimated e = Estimate(R"(
    main (bool c, float[4] x) => (y) {
      y = If (c) <then_branch = t () => (r) { r = Relu(x) },
                  else_branch = f () => (q) { a = Neg(x)  q = Abs(a) }>
    })");
  EXPECT_EQ(Cost(e, 0), "8 / 0");
  EXPECT_EQ(Node(e, 0, "main/If_0.then_branch").flops.ToString(), "4");
  EXPECT_EQ(Node(e, 1, "main/If_0.else_branch").flops.ToString(), "4");
  EXPECT_EQ(e.cost.total_flops.ToString(), "8");
  EXPECT_FALSE(e.cost.lower_bound);
}

TEST(CostTest, LoopTimesItsTripCount) {
  Estimated e = Estimate(R"(
    main (float[4] x, int64 n) => (y, z) <int64 m = {3}> {
      y = Loop (m, "", x) <body = b (int64 i, bool c, float[4] v) => (bool c2, float[4] v2) {
        c2 = Identity(c)
        v2 = Add(v, v)
      }>
      z = Loop (n, "", x) <body = b2 (int64 i, bool c, float[4] v) => (bool c2, float[4] v2) {
        c2 = Identity(c)
        v2 = Add(v, v)
      }>
    })");
  EXPECT_EQ(Cost(e, 0), "12 / 0");
  EXPECT_FALSE(Node(e, 0).per_iteration);
  EXPECT_EQ(Cost(e, 1), "4 / 0");  // one iteration: n is not known
  EXPECT_TRUE(Node(e, 1).per_iteration);
  EXPECT_EQ(e.cost.per_iteration_loops, 1);
}

TEST(CostTest, ScanTimesTheScannedLength) {
  Estimated e = Estimate(R"(
    main (float[4] s0, float[5, 4] xs) => (s, ys) {
      s, ys = Scan <num_scan_inputs = 1, body = b (float[4] acc, float[4] x) => (float[4] n, float[4] o) {
        n = Add(acc, x)
        o = Identity(n)
      }> (s0, xs)
    })");
  EXPECT_EQ(Cost(e, 0), "20 / 0");
}

TEST(CostTest, FunctionCallsCountTheirBody) {
  auto m = R"(
    main (float[2, 3] x, float[3, 4] w) => (y) {
      y = local.Proj (x, w)
    }
    <domain: "local", opset_import: ["" : 17]>
    Proj (a, b) => (c) {
      p = MatMul(a, b)
      c = Relu(p)
    })";
  Estimated e = Estimate(m, Onnx(17) + ", \"local\" : 1");
  EXPECT_EQ(Cost(e, 0), "56 / 24");  // 8 x 3 multiply-adds, 8 Relus
  EXPECT_EQ(Node(e, 0, "main/Proj_0.local::Proj").flops.ToString(), "48");
}

TEST(CostTest, EvaluateUnderAnyBinding) {
  Estimated e = Estimate(R"(
    main (float[B, S, 4] a, float[4, 5] b) => (y) {
      m = MatMul(a, b)
      y = Relu(m)
    })");
  EXPECT_EQ(e.cost.total_flops.ToString(), "45*B*S");
  CostValues one = EvaluateCost(e.cost, {{"B", 2}, {"S", 3}});
  EXPECT_EQ(one.total_flops, 270);
  EXPECT_EQ(one.total_macs, 120);
  EXPECT_EQ(one.nodes[0].flops, 240);
  EXPECT_EQ(one.nodes[1].flops, 30);
  EXPECT_TRUE(one.unbound_symbols.empty());
  CostValues two = EvaluateCost(e.cost, {{"B", 1}, {"S", 128}});
  EXPECT_EQ(two.total_flops, 5760);
  CostValues partial = EvaluateCost(e.cost, {{"B", 1}});
  EXPECT_FALSE(partial.total_flops.has_value());
  EXPECT_EQ(partial.unbound_symbols, std::vector<std::string>{"S"});
}

TEST(CostTest, FormatCount) {
  EXPECT_EQ(FormatCount(int64_t{999}), "999");
  EXPECT_EQ(FormatCount(int64_t{180355072}), "180355072 (180.4 M)");
  EXPECT_EQ(FormatCount(symbolic::Dim()), "?");
}

}  // namespace
}  // namespace onnx_infer
