#include "onnx_infer/inference/cost.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer {

using symbolic::Dim;

const char* CostKindName(CostKind kind) {
  switch (kind) {
    case CostKind::kFormula:
      return "formula";
    case CostKind::kDataMovement:
      return "data movement";
    case CostKind::kNoFormula:
      return "no formula";
  }
  return "?";
}

std::string FormatCount(int64_t count) {
  if (count < 1000) return StrCat(count);
  static constexpr const char* kUnits[] = {"k", "M", "G", "T", "P", "E"};
  double scaled = static_cast<double>(count) / 1000;
  int unit = 0;
  while (scaled >= 1000 && unit + 1 < 6) {
    scaled /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", scaled);
  return StrCat(count, " (", text, " ", kUnits[unit], ")");
}

std::string FormatCount(const Dim& count) {
  if (count.is_unknown()) return "?";
  if (auto v = count.const_value()) return FormatCount(*v);
  return count.ToString();
}

namespace {

Dim C(int64_t k) { return Dim::Const(k); }

// ---------------------------------------------------------------------------------------
// Attributes, read from the node with the operator's default when absent.

const onnx::AttributeProto* FindAttr(const onnx::NodeProto& node, std::string_view name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}
int64_t IntAttr(const onnx::NodeProto& node, std::string_view name, int64_t fallback) {
  const auto* a = FindAttr(node, name);
  return a && a->has_i() ? a->i() : fallback;
}
float FloatAttr(const onnx::NodeProto& node, std::string_view name, float fallback) {
  const auto* a = FindAttr(node, name);
  return a && a->has_f() ? a->f() : fallback;
}
std::string StringAttr(const onnx::NodeProto& node, std::string_view name, std::string fallback) {
  const auto* a = FindAttr(node, name);
  return a && a->has_s() ? a->s() : fallback;
}
std::optional<std::vector<int64_t>> IntsAttr(const onnx::NodeProto& node, std::string_view name) {
  const auto* a = FindAttr(node, name);
  if (!a) return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

// ---------------------------------------------------------------------------------------
// What a formula sees of its node: the node, and the shapes of its inputs and outputs.

struct Cost {
  Dim flops;
  Dim macs;
};

// The types of one graph being walked: what inference listed, and its initializers (which
// InferenceResult::value_types does not list unless they are also graph inputs).
struct ScopeTypes {
  const GraphValueTypes* types = nullptr;
  std::unordered_map<std::string, Type> initializers;

  const Type* Find(const std::string& name) const {
    if (types) {
      if (const Type* t = types->Find(name)) return t;
    }
    auto it = initializers.find(name);
    return it == initializers.end() ? nullptr : &it->second;
  }
};

class NodeView {
 public:
  // `scopes`: the types of the outermost graph, ..., of the node's graph (a subgraph reads
  // values of the graphs around it; the innermost that has a name holds it).
  NodeView(const onnx::NodeProto& node, const std::vector<ScopeTypes>& scopes)
      : node_(node), scopes_(scopes) {}

  const onnx::NodeProto& node() const { return node_; }
  bool HasInput(int i) const { return i < node_.input_size() && !node_.input(i).empty(); }
  bool HasOutput(int i) const { return i < node_.output_size() && !node_.output(i).empty(); }
  int NumInputs() const { return node_.input_size(); }

  // The shape of input (output) i; null when the value is absent or its shape not known,
  // and then the first such is remembered for the note.
  const Shape* In(int i) { return ShapeOf(i, /*output=*/false); }
  const Shape* Out(int i) { return ShapeOf(i, /*output=*/true); }
  // A dim of input (output) i, axis counted from the end when negative; unknown when the
  // shape is not known or has no such axis.
  Dim InDim(int i, int axis) { return DimOf(In(i), axis, i, false); }
  Dim OutDim(int i, int axis) { return DimOf(Out(i), axis, i, true); }
  Dim InElems(int i) { return Elements(In(i)); }
  Dim OutElems(int i) { return Elements(Out(i)); }

  static Dim Elements(const Shape* s) {
    if (!s) return Dim();
    return Dim::Product(*s);
  }
  // What made a formula's result unknown ("the shape of input 0 'x' is not known").
  const std::string& missing() const { return missing_; }
  void Missing(std::string why) {
    if (missing_.empty()) missing_ = std::move(why);
  }

 private:
  const Shape* ShapeOf(int i, bool output) {
    const int n = output ? node_.output_size() : node_.input_size();
    const std::string what = output ? "output" : "input";
    if (i >= n || (output ? node_.output(i) : node_.input(i)).empty()) {
      Missing(StrCat(what, " ", i, " is not given"));
      return nullptr;
    }
    const std::string& name = output ? node_.output(i) : node_.input(i);
    const Type* t = nullptr;
    for (auto it = scopes_.rbegin(); it != scopes_.rend() && !t; ++it) t = it->Find(name);
    if (!t || !t->is_tensor() || !t->has_shape()) {
      Missing(StrCat("the shape of ", what, " ", i, " '", name, "' is not known"));
      return nullptr;
    }
    for (const Dim& d : t->shape()) {
      if (d.is_unknown()) {
        Missing(StrCat("the shape of ", what, " ", i, " '", name, "' is not fully known"));
        return nullptr;
      }
    }
    return &t->shape();
  }
  Dim DimOf(const Shape* s, int axis, int i, bool output) {
    if (!s) return Dim();
    const int rank = static_cast<int>(s->size());
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) {
      Missing(StrCat(output ? "output " : "input ", i, " has rank ", rank, ", too small"));
      return Dim();
    }
    return (*s)[axis];
  }

  const onnx::NodeProto& node_;
  const std::vector<ScopeTypes>& scopes_;
  std::string missing_;
};

using Formula = Cost (*)(NodeView&);

// ---------------------------------------------------------------------------------------
// Elementwise operators: FLOPs = output elements x a weight (docs/cost.md lists them).

const std::unordered_map<std::string, int64_t>& UnaryWeights() {
  static const auto* weights = new std::unordered_map<std::string, int64_t>{
      // One operation per element.
      {"Abs", 1},
      {"Neg", 1},
      {"Exp", 1},
      {"Log", 1},
      {"Sqrt", 1},
      {"Reciprocal", 1},
      {"Floor", 1},
      {"Ceil", 1},
      {"Round", 1},
      {"Sign", 1},
      {"Sin", 1},
      {"Cos", 1},
      {"Tan", 1},
      {"Asin", 1},
      {"Acos", 1},
      {"Atan", 1},
      {"Sinh", 1},
      {"Cosh", 1},
      {"Asinh", 1},
      {"Acosh", 1},
      {"Atanh", 1},
      {"Tanh", 1},
      {"Erf", 1},
      {"Relu", 1},
      {"Not", 1},
      {"IsNaN", 1},
      {"IsInf", 1},
      {"BitwiseNot", 1},
      {"ThresholdedRelu", 1},
      {"NonZero", 1},
      // Composite activations: the operations of their definition.
      {"LeakyRelu", 2},    // compare, multiply
      {"Sigmoid", 4},      // negate, exp, add 1, divide
      {"HardSigmoid", 4},  // multiply, add, clamp (2 compares)
      {"HardSwish", 5},    // x * HardSigmoid(x)
      {"Elu", 4},          // compare, exp, subtract 1, multiply by alpha
      {"Selu", 5},         // Elu and the multiply by gamma
      {"Celu", 7},         // divide, exp, subtract, multiply, min, max, add
      {"Softplus", 3},     // exp, add 1, log
      {"Softsign", 3},     // abs, add 1, divide
      {"Mish", 5},         // Softplus, tanh, multiply
      {"Swish", 6},        // multiply by alpha, Sigmoid, multiply
      {"Shrink", 2},       // compare, add or subtract the bias
      {"QuickGelu", 6},    // multiply by alpha, Sigmoid, multiply (com.microsoft)
  };
  return *weights;
}

// 0.5 * x * (1 + erf(x / sqrt(2))): divide, erf, add, two multiplies.
constexpr int64_t kGeluErf = 5;
// 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))): x^3 (2), multiply, add, multiply,
// tanh, add, two multiplies.
constexpr int64_t kGeluTanh = 9;

// The FLOPs per element of the activation a fused operator names (FusedConv, FusedGemm);
// nullopt for one without a weight.
std::optional<int64_t> ActivationWeight(const std::string& name) {
  if (name.empty()) return 0;
  auto it = UnaryWeights().find(name);
  if (it != UnaryWeights().end()) return it->second;
  if (name == "Clip") return 2;
  return std::nullopt;
}

Cost Unary(NodeView& n) {
  auto it = UnaryWeights().find(n.node().op_type());
  Dim w = C(it == UnaryWeights().end() ? 1 : it->second);
  // NonZero compares every input element; the others compute every output element.
  if (n.node().op_type() == "NonZero") return {n.InElems(0) * w, C(0)};
  return {n.OutElems(0) * w, C(0)};
}

Cost Gelu(NodeView& n) {  // ai.onnx Gelu-20 (approximate) and com.microsoft Gelu
  const bool tanh = StringAttr(n.node(), "approximate", "none") == "tanh";
  return {n.OutElems(0) * C(tanh ? kGeluTanh : kGeluErf), C(0)};
}

// Binary (and variadic) elementwise operators: one operation per output element and pair
// of operands.
Cost Binary(NodeView& n) {
  int64_t operands = 0;
  for (int i = 0; i < n.NumInputs(); ++i) operands += n.HasInput(i);
  const std::string& op = n.node().op_type();
  int64_t w = std::max<int64_t>(operands - 1, 0);
  if (op == "Mean") w = operands;  // the adds and one divide
  if (op == "PRelu") w = 2;        // compare, multiply
  if (op == "Where") w = 1;        // one select
  return {n.OutElems(0) * C(w), C(0)};
}

// Clip: one compare per bound given.
Cost Clip(NodeView& n) {
  int64_t bounds = n.HasInput(1) + n.HasInput(2);
  bounds += FindAttr(n.node(), "min") != nullptr;
  bounds += FindAttr(n.node(), "max") != nullptr;
  return {n.OutElems(0) * C(bounds), C(0)};
}

// QuantizeLinear: divide by the scale, round, add the zero point, saturate (counted 1).
Cost Quantize(NodeView& n) { return {n.OutElems(0) * C(4), C(0)}; }
// DequantizeLinear: subtract the zero point, multiply by the scale.
Cost Dequantize(NodeView& n) { return {n.OutElems(0) * C(2), C(0)}; }

// com.microsoft BiasGelu: add the bias, Gelu.
Cost BiasGelu(NodeView& n) { return {n.OutElems(0) * C(1 + kGeluErf), C(0)}; }
// com.microsoft FastGelu: optional bias add, Gelu's tanh approximation.
Cost FastGelu(NodeView& n) { return {n.OutElems(0) * C(kGeluTanh + n.HasInput(1)), C(0)}; }
// com.microsoft BiasAdd: X + bias + skip.
Cost BiasAdd(NodeView& n) { return {n.OutElems(0) * C(2), C(0)}; }
// com.microsoft BiasSoftmax: add the bias, Softmax.
Cost BiasSoftmax(NodeView& n) { return {n.OutElems(0) * C(6), C(0)}; }

// Range: one add per element. CumSum: one add per element.
Cost OutputElements(NodeView& n) { return {n.OutElems(0), C(0)}; }

// Scatter*: data movement, unless the updates are combined with a reduction (one operation
// per update element).
Cost Scatter(NodeView& n) {
  if (StringAttr(n.node(), "reduction", "none") == "none") return {C(0), C(0)};
  return {n.InElems(2), C(0)};
}

// ---------------------------------------------------------------------------------------
// Softmax, normalization, reductions.

// Softmax: max (compare), subtract, exp, sum, divide. LogSoftmax: max, subtract, exp, sum,
// subtract the log of the sum (the log per row is not counted).
Cost Softmax(NodeView& n) { return {n.OutElems(0) * C(5), C(0)}; }
Cost Hardmax(NodeView& n) { return {n.OutElems(0), C(0)}; }

Cost BatchNorm(NodeView& n) {
  // At inference the per-channel constants fold into one multiply-add per element.
  if (IntAttr(n.node(), "training_mode", 0) != 0) {
    n.Missing("training_mode = 1 has no formula");
    return {Dim(), Dim()};
  }
  return {n.OutElems(0) * C(2), C(0)};
}
// Mean (1), variance (subtract, square, add: 3), normalize (subtract, multiply: 2), scale
// (1), bias (1) per element; the per-row divisions and square roots are not counted.
constexpr int64_t kLayerNorm = 7;
// Square and add (2), normalize (1), scale (1).
constexpr int64_t kRmsNorm = 4;
Cost LayerNorm(NodeView& n) { return {n.InElems(0) * C(kLayerNorm + n.HasInput(2)), C(0)}; }
Cost ScaleBiasNorm(NodeView& n) {  // InstanceNormalization, GroupNormalization
  return {n.InElems(0) * C(kLayerNorm + 1), C(0)};
}
// com.microsoft GroupNorm: GroupNormalization, then SiLU (x * Sigmoid(x): 5) with
// activation = 1.
Cost ContribGroupNorm(NodeView& n) {
  const int64_t act = IntAttr(n.node(), "activation", 0) == 1 ? 5 : 0;
  return {n.InElems(0) * C(kLayerNorm + 1 + act), C(0)};
}
Cost RmsNorm(NodeView& n) { return {n.InElems(0) * C(kRmsNorm), C(0)}; }
// Subtract the mean, square, add (variance), divide: MeanVarianceNormalization as LayerNorm
// without scale.
Cost Mvn(NodeView& n) { return {n.InElems(0) * C(kLayerNorm - 1), C(0)}; }
// |x|^p (or x^2), add, divide by the norm.
Cost LpNorm(NodeView& n) { return {n.InElems(0) * C(3), C(0)}; }
// LRN: per element, `size` squares and adds, then add bias, multiply alpha, power, divide.
Cost Lrn(NodeView& n) {
  const int64_t size = IntAttr(n.node(), "size", 0);
  if (size <= 0) {
    n.Missing("the size attribute is not given");
    return {Dim(), Dim()};
  }
  return {n.InElems(0) * C(2 * size + 4), C(0)};
}
// com.microsoft SkipLayerNormalization: input + skip (+ bias), then LayerNorm with gamma
// (and beta).
Cost SkipLayerNorm(NodeView& n) {
  const int64_t w = 1 + n.HasInput(4) + kLayerNorm + n.HasInput(3);
  return {n.InElems(0) * C(w), C(0)};
}
Cost SkipRmsNorm(NodeView& n) {
  const int64_t w = 1 + n.HasInput(3) + kRmsNorm;
  return {n.InElems(0) * C(w), C(0)};
}
// com.microsoft EmbedLayerNormalization: the gathers are data movement; word + position
// (+ segment) embeddings, LayerNorm with gamma and beta; the mask's sum per batch.
Cost EmbedLayerNorm(NodeView& n) {
  const int64_t w = 1 + n.HasInput(4) + kLayerNorm + 1;
  Dim flops = n.OutElems(0) * C(w);
  if (n.HasInput(7)) flops = flops + n.InElems(7);
  return {flops, C(0)};
}

// Reductions, from E input and O output elements: combining E values into O results takes
// E - O operations.
Cost Reduce(NodeView& n) {
  const std::string& op = n.node().op_type();
  Dim e = n.InElems(0), o = n.OutElems(0);
  Dim combine = e - o;
  Dim flops;
  if (op == "ReduceSum" || op == "ReduceMax" || op == "ReduceMin" || op == "ReduceProd" ||
      op == "ArgMax" || op == "ArgMin") {
    flops = combine;
  } else if (op == "ReduceMean" || op == "ReduceLogSum") {
    flops = combine + o;  // a divide (log) per result
  } else if (op == "ReduceSumSquare" || op == "ReduceL1") {
    flops = e + combine;  // a square (abs) per element
  } else if (op == "ReduceL2" || op == "ReduceLogSumExp") {
    flops = e + combine + o;  // square (exp) per element, sqrt (log) per result
  }
  return {flops, C(0)};
}

// ---------------------------------------------------------------------------------------
// Products.

// MatMul: each output element is a dot product of K pairs.
Cost MatMul(NodeView& n) {
  Dim macs = n.OutElems(0) * n.InDim(0, -1);
  return {macs * C(2), macs};
}

Cost Gemm(NodeView& n) {
  const bool trans_a = IntAttr(n.node(), "transA", 0) != 0;
  Dim k = n.InDim(0, trans_a ? 0 : 1);
  Dim o = n.OutElems(0);
  Dim macs = o * k;
  int64_t extra = FloatAttr(n.node(), "alpha", 1.0f) != 1.0f;                   // scale the product
  if (n.HasInput(2)) extra += 1 + (FloatAttr(n.node(), "beta", 1.0f) != 1.0f);  // + beta*C
  return {macs * C(2) + o * C(extra), macs};
}

// com.microsoft FusedGemm: Gemm, then its activation per output element.
Cost FusedGemm(NodeView& n) {
  auto w = ActivationWeight(StringAttr(n.node(), "activation", ""));
  if (!w) {
    n.Missing("the activation has no weight");
    return {Dim(), Dim()};
  }
  Cost c = Gemm(n);
  return {c.flops + n.OutElems(0) * C(*w), c.macs};
}

// com.microsoft FusedMatMul.
Cost FusedMatMul(NodeView& n) {
  if (IntAttr(n.node(), "transBatchA", 0) || IntAttr(n.node(), "transBatchB", 0)) {
    n.Missing("transBatchA/transBatchB have no formula");
    return {Dim(), Dim()};
  }
  const Shape* a = n.In(0);
  if (!a) return {Dim(), Dim()};
  const bool trans_a = IntAttr(n.node(), "transA", 0) != 0 && a->size() >= 2;
  Dim o = n.OutElems(0);
  Dim macs = o * n.InDim(0, trans_a ? -2 : -1);
  const int64_t extra = FloatAttr(n.node(), "alpha", 1.0f) != 1.0f;
  return {macs * C(2) + o * C(extra), macs};
}

// MatMulInteger: subtracting a zero point is one operation per element of its operand.
Cost MatMulInteger(NodeView& n) {
  Cost c = MatMul(n);
  Dim flops = c.flops;
  if (n.HasInput(2)) flops = flops + n.InElems(0);
  if (n.HasInput(3)) flops = flops + n.InElems(1);
  return {flops, c.macs};
}

// QLinearMatMul: zero points of both operands, requantizing each output (multiply by the
// scale, round, add the zero point: 3).
Cost QLinearMatMul(NodeView& n) {
  Dim o = n.OutElems(0);
  Dim macs = o * n.InDim(0, -1);
  return {macs * C(2) + n.InElems(0) + n.InElems(3) + o * C(3), macs};
}

// com.microsoft MatMulIntegerToFloat: zero points, the scale multiply, the bias.
Cost MatMulIntegerToFloat(NodeView& n) {
  Dim o = n.OutElems(0);
  Dim macs = o * n.InDim(0, -1);
  Dim flops = macs * C(2) + o * C(1 + n.HasInput(6));
  if (n.HasInput(4)) flops = flops + n.InElems(0);
  if (n.HasInput(5)) flops = flops + n.InElems(1);
  return {flops, macs};
}

// com.microsoft QOrderedMatMul: Y = alpha A B + bias + beta C in int8: the scale multiply and
// rounding of each output (2), the bias, and beta C (a multiply and an add).
Cost QOrderedMatMul(NodeView& n) {
  Dim o = n.OutElems(0);
  Dim macs = o * n.InDim(0, -1);
  return {macs * C(2) + o * C(2 + n.HasInput(5) + 2 * n.HasInput(6)), macs};
}

// com.microsoft DynamicQuantizeMatMul: A quantized at run time (its min and max: 2 compares,
// quantizing: 4, subtracting its zero point: 1, per element), B's zero point, the scale
// multiply of each output, the bias.
Cost DynamicQuantizeMatMul(NodeView& n) {
  Dim o = n.OutElems(0);
  Dim macs = o * n.InDim(0, -1);
  Dim flops = macs * C(2) + n.InElems(0) * C(7) + o * C(1 + n.HasInput(4));
  if (n.HasInput(3)) flops = flops + n.InElems(1);
  return {flops, macs};
}

// com.microsoft GemmFastGelu: MatMul, the optional bias, FastGelu.
Cost GemmFastGelu(NodeView& n) {
  Dim o = n.OutElems(0);
  Dim macs = o * n.InDim(0, -1);
  return {macs * C(2) + o * C(kGeluTanh + n.HasInput(2)), macs};
}

// com.microsoft MatMulNBits: A[..., K] x dequantized B[K, N]; dequantizing is 2 operations
// (subtract the zero point, multiply by the scale) per weight element, and the bias.
Cost MatMulNBits(NodeView& n) {
  const int64_t k = IntAttr(n.node(), "K", -1), cols = IntAttr(n.node(), "N", -1);
  if (k < 0 || cols < 0) {
    n.Missing("the K and N attributes are not given");
    return {Dim(), Dim()};
  }
  Dim o = n.OutElems(0);
  Dim macs = o * C(k);
  Dim flops = macs * C(2) + C(k) * C(cols) * C(2);
  if (n.HasInput(5)) flops = flops + o;
  return {flops, macs};
}

// The product of a weight's dims after the first.
Dim TrailingProduct(const Shape* w) {
  if (!w || w->empty()) return Dim();
  return Dim::Product(Shape(w->begin() + 1, w->end()));
}

// Conv: each output element is a dot product over C/group channels and the kernel; the bias
// is one add per output element. Taps on padding count like any other.
Cost ConvWith(NodeView& n, int weight, int bias) {
  Dim y = n.OutElems(0);
  Dim macs = y * TrailingProduct(n.In(weight));
  Dim flops = macs * C(2);
  if (bias >= 0 && n.HasInput(bias)) flops = flops + y;
  return {flops, macs};
}
Cost Conv(NodeView& n) { return ConvWith(n, 1, 2); }
Cost ConvInteger(NodeView& n) {
  Cost c = ConvWith(n, 1, -1);
  Dim flops = c.flops;
  if (n.HasInput(2)) flops = flops + n.InElems(0);
  if (n.HasInput(3)) flops = flops + n.InElems(1);
  return {flops, c.macs};
}
// QLinearConv: zero points of input and weight, requantizing (3) each output, the bias.
Cost QLinearConv(NodeView& n) {
  Cost c = ConvWith(n, 3, 8);
  return {c.flops + n.InElems(0) + n.InElems(3) + n.OutElems(0) * C(3), c.macs};
}
// com.microsoft FusedConv: Conv, the optional sum input Z, the activation.
Cost FusedConv(NodeView& n) {
  auto w = ActivationWeight(StringAttr(n.node(), "activation", ""));
  if (!w) {
    n.Missing("the activation has no weight");
    return {Dim(), Dim()};
  }
  Cost c = ConvWith(n, 1, 2);
  Dim y = n.OutElems(0);
  return {c.flops + y * C(*w + n.HasInput(3)), c.macs};
}
// ConvTranspose: each input element is multiplied into M/group channels x the kernel.
Cost ConvTranspose(NodeView& n) {
  Dim macs = n.InElems(0) * TrailingProduct(n.In(1));
  Dim flops = macs * C(2);
  if (n.HasInput(2)) flops = flops + n.OutElems(0);
  return {flops, macs};
}

// Pooling over a window of K = prod(kernel_shape) elements: max K - 1 compares, average K
// (K - 1 adds and a divide), Lp 2K (K powers, K - 1 adds, a root).
Cost Pool(NodeView& n) {
  auto kernel = IntsAttr(n.node(), "kernel_shape");
  if (!kernel || kernel->empty()) {
    n.Missing("kernel_shape is not given");
    return {Dim(), Dim()};
  }
  Dim k = C(1);
  for (int64_t d : *kernel) k = k * C(d);
  const std::string& op = n.node().op_type();
  Dim per = op == "MaxPool" ? k - C(1) : op == "AveragePool" ? k : k * C(2);
  return {n.OutElems(0) * per, C(0)};
}
Cost GlobalPool(NodeView& n) {
  const std::string& op = n.node().op_type();
  Dim x = n.InElems(0);
  if (op == "GlobalMaxPool") return {x - n.OutElems(0), C(0)};
  if (op == "GlobalAveragePool") return {x, C(0)};
  return {x * C(2), C(0)};  // GlobalLpPool
}

// Einsum with one or two operands, evaluated term by term: with two operands, one multiply
// for every assignment of all the equation's letters (P), accumulated when some letter is
// summed (a MAC each); with one operand, P - O adds.
Cost Einsum(NodeView& n) {
  std::string eq = StringAttr(n.node(), "equation", "");
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const size_t arrow = eq.find("->");
  std::vector<std::string> terms;
  const std::string lhs = eq.substr(0, arrow);
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() > 2 || static_cast<int>(terms.size()) != n.NumInputs()) {
    n.Missing("Einsum with more than two operands has no formula");
    return {Dim(), Dim()};
  }
  std::string out_term = arrow == std::string::npos ? "" : eq.substr(arrow + 2);
  const Shape* out = n.Out(0);
  if (!out) return {Dim(), Dim()};
  std::map<char, Dim> sizes;
  // The ellipsis' dims are those of the output, which must hold it.
  const bool ellipsis = eq.find("...") != std::string::npos;
  if (ellipsis && (arrow == std::string::npos || out_term.find("...") == std::string::npos)) {
    n.Missing("an ellipsis not kept in an explicit output has no formula");
    return {Dim(), Dim()};
  }
  Dim ellipsis_size = C(1);
  if (ellipsis) {
    const size_t at = out_term.find("...");
    const size_t named = out_term.size() - 3;
    if (out->size() < named) return {Dim(), Dim()};
    for (size_t i = at; i < at + (out->size() - named); ++i)
      ellipsis_size = ellipsis_size * (*out)[i];
  }
  for (size_t t = 0; t < terms.size(); ++t) {
    const Shape* s = n.In(static_cast<int>(t));
    if (!s) return {Dim(), Dim()};
    std::string term = terms[t];
    const size_t at = term.find("...");
    const size_t named = at == std::string::npos ? term.size() : term.size() - 3;
    if (s->size() < named) return {Dim(), Dim()};
    const size_t skip = at == std::string::npos ? 0 : s->size() - named;
    size_t axis = 0;
    for (size_t i = 0; i < term.size(); ++i) {
      if (i == at) {
        axis += skip;
        i += 2;
        continue;
      }
      const char c = term[i];
      if (axis >= s->size()) return {Dim(), Dim()};
      Dim d = (*s)[axis++];
      auto [it, inserted] = sizes.emplace(c, d);
      // A letter is one size; a broadcast 1 against another size would be an ellipsis' rule.
      if (!inserted && it->second != d) {
        n.Missing(StrCat("the sizes of letter '", c, "' differ between operands"));
        return {Dim(), Dim()};
      }
    }
  }
  Dim all = ellipsis_size;
  for (const auto& [c, d] : sizes) all = all * d;
  Dim o = NodeView::Elements(out);
  if (terms.size() == 1) return {all - o, C(0)};
  // Some letter summed: every product is accumulated.
  if (symbolic::Equal(all, o) == symbolic::Tri::kTrue) return {all, C(0)};
  bool summed = false;
  std::set<char> kept(out_term.begin(), out_term.end());
  if (arrow == std::string::npos) {
    // Implicit output: the letters that appear once.
    std::map<char, int> count;
    for (const auto& t : terms) {
      for (char c : t) count[c]++;
    }
    kept.clear();
    for (const auto& [c, k] : count) {
      if (k == 1) kept.insert(c);
    }
  }
  for (const auto& [c, d] : sizes) summed |= !kept.count(c);
  if (!summed) return {all, C(0)};
  return {all * C(2), all};
}

// ---------------------------------------------------------------------------------------
// Attention. Scores are batch x heads x query length x key length; each costs a scale (1),
// the softmax (5), a mask or bias add (1) when one applies, a softcap (3: divide, tanh,
// multiply) when set. The products Q.K^T and scores.V are MACs; causal masking counts every
// score.

constexpr int64_t kPerScore = 1 + 5;

// ai.onnx Attention (23, 24).
Cost OnnxAttention(NodeView& n) {
  const Shape* q = n.In(0);
  const Shape* k = n.In(1);
  if (!q || !k) return {Dim(), Dim()};
  const bool q4 = q->size() == 4;
  Dim heads = q4 ? (*q)[1] : C(IntAttr(n.node(), "q_num_heads", 0));
  if (!q4 && heads == C(0)) {
    n.Missing("q_num_heads is not given");
    return {Dim(), Dim()};
  }
  Dim batch = (*q)[0], q_len = q4 ? (*q)[2] : (*q)[1];
  Dim total = k->size() == 4 ? (*k)[2] : (*k)[1];
  if (n.HasInput(4)) total = total + n.InDim(4, 2);
  Dim scores = batch * heads * q_len * total;
  // Elements of Q (B x Sq x Hq x D) and of Y (B x Sq x Hq x Dv) in either layout.
  Dim macs = total * (n.InElems(0) + n.OutElems(0));
  int64_t per = kPerScore;
  per += n.HasInput(3) || n.HasInput(6) || IntAttr(n.node(), "is_causal", 0) != 0;
  if (FloatAttr(n.node(), "softcap", 0.0f) != 0.0f) per += 3;
  return {macs * C(2) + scores * C(per), macs};
}

// com.microsoft Attention and QAttention: the QKV projection input[B, S, In] x weights[In,
// Wc] (+ bias), then attention over past + S. QAttention's projection is dequantized (one
// multiply per projection output).
Cost ContribAttentionWith(NodeView& n, int mask, int past, bool quantized) {
  const Shape* x = n.In(0);
  const Shape* out = n.Out(0);
  if (!x || !out || x->size() != 3 || out->size() != 3) {
    n.Missing("input 0 and output 0 need rank-3 shapes");
    return {Dim(), Dim()};
  }
  if (IntAttr(n.node(), "past_present_share_buffer", 0) != 0) {
    n.Missing("with past_present_share_buffer the attended length is a value");
    return {Dim(), Dim()};
  }
  const int64_t heads = IntAttr(n.node(), "num_heads", 0);
  Dim wc = n.InDim(1, 1);
  Dim batch = (*x)[0], len = (*x)[1];
  Dim hidden_qk;
  if (auto sizes = IntsAttr(n.node(), "qkv_hidden_sizes"); sizes && sizes->size() == 3) {
    hidden_qk = C((*sizes)[0]);
  } else {
    hidden_qk = Dim::FloorDiv(wc, C(3));
  }
  Dim total = len;
  if (n.HasInput(past)) total = total + n.InDim(past, 3);
  Dim projected = batch * len * wc;
  Dim macs = projected * (*x)[2] + batch * len * total * (hidden_qk + (*out)[2]);
  Dim scores = batch * C(heads) * len * total;
  int64_t per = kPerScore;
  per += n.HasInput(mask) || n.HasInput(5) || IntAttr(n.node(), "unidirectional", 0) != 0;
  Dim flops = macs * C(2) + scores * C(per) +
              projected * C(static_cast<int64_t>(n.HasInput(2)) + quantized);
  if (heads <= 0) {
    n.Missing("num_heads is not given");
    return {Dim(), Dim()};
  }
  return {flops, macs};
}
Cost ContribAttention(NodeView& n) { return ContribAttentionWith(n, 3, 4, false); }
Cost QAttention(NodeView& n) { return ContribAttentionWith(n, 5, 8, true); }

// com.microsoft MultiHeadAttention.
Cost MultiHeadAttention(NodeView& n) {
  const Shape* q = n.In(0);
  const Shape* out = n.Out(0);
  if (!q || !out) return {Dim(), Dim()};
  const int64_t heads = IntAttr(n.node(), "num_heads", 0);
  if (heads <= 0) {
    n.Missing("num_heads is not given");
    return {Dim(), Dim()};
  }
  Dim batch = (*q)[0], len = q->size() >= 2 ? (*q)[1] : Dim();
  Dim total, qk;
  if (q->size() == 5) {  // packed QKV [B, S, H, 3, head]
    total = len;
    qk = n.OutElems(0);
  } else if (q->size() == 3 && n.HasInput(1)) {
    const Shape* k = n.In(1);
    if (!k) return {Dim(), Dim()};
    if (k->size() == 3) {
      total = (*k)[1];
      if (n.HasInput(6)) total = total + n.InDim(6, 2);
    } else if (k->size() == 4) {
      total = (*k)[2];  // BNSH, already the whole key
    } else if (k->size() == 5) {
      total = (*k)[1];  // packed KV [B, L, H, 2, head]
    }
    qk = n.InElems(0);
  } else {
    n.Missing("this layout of query and key has no formula");
    return {Dim(), Dim()};
  }
  Dim macs = total * (qk + n.OutElems(0));
  Dim scores = batch * C(heads) * len * total;
  int64_t per =
      kPerScore + (n.HasInput(4) || n.HasInput(5) || IntAttr(n.node(), "unidirectional", 0) != 0);
  Dim flops = macs * C(2) + scores * C(per);
  if (n.HasInput(3)) {  // the bias, added to the query, key and value given
    for (int i = 0; i < 3; ++i) {
      if (n.HasInput(i)) flops = flops + n.InElems(i);
    }
  }
  return {flops, macs};
}

// com.microsoft GroupQueryAttention: causal attention over the present key's length; with
// do_rotary, the rotary embedding of query and key (3 per element).
Cost GroupQueryAttention(NodeView& n) {
  const Shape* q = n.In(0);
  const Shape* out = n.Out(0);
  if (!q || !out) return {Dim(), Dim()};
  const int64_t heads = IntAttr(n.node(), "num_heads", 0);
  if (heads <= 0) {
    n.Missing("num_heads is not given");
    return {Dim(), Dim()};
  }
  Dim total;
  if (n.HasOutput(1)) {
    total = n.OutDim(1, 2);
  } else if (n.HasInput(1)) {
    total = n.InDim(1, 1);
    if (n.HasInput(3)) total = total + n.InDim(3, 2);
  } else {
    n.Missing("the key's length is not known");
    return {Dim(), Dim()};
  }
  Dim y = n.OutElems(0);
  Dim macs = total * y * C(2);
  Dim scores = (*out)[0] * (*out)[1] * C(heads) * total;
  int64_t per = kPerScore + 1;
  if (FloatAttr(n.node(), "softcap", 0.0f) != 0.0f) per += 3;
  Dim flops = macs * C(2) + scores * C(per);
  if (IntAttr(n.node(), "do_rotary", 0) != 0) {
    Dim k_elems = n.HasInput(1) ? n.InElems(1) : Dim::FloorDiv(n.InElems(0) - y, C(2));
    flops = flops + (y + k_elems) * C(3);
  }
  return {flops, macs};
}

// RotaryEmbedding (ai.onnx and com.microsoft): each rotated element is 2 multiplies and an
// add (3); rotary_embedding_dim limits the rotated part of each head.
Cost RotaryEmbedding(NodeView& n) {
  const Shape* x = n.In(0);
  if (!x) return {Dim(), Dim()};
  const int64_t rot = IntAttr(n.node(), "rotary_embedding_dim", 0);
  if (rot == 0) return {n.InElems(0) * C(3), C(0)};
  Dim rows;
  if (x->size() == 4) {
    rows = (*x)[0] * (*x)[1] * (*x)[2];
  } else if (x->size() == 3 && IntAttr(n.node(), "num_heads", 0) > 0) {
    rows = (*x)[0] * (*x)[1] * C(IntAttr(n.node(), "num_heads", 0));
  } else {
    n.Missing("the number of heads is not known");
    return {Dim(), Dim()};
  }
  return {rows * C(rot) * C(3), C(0)};
}

// RNN, GRU, LSTM: every step of the sequence, for each direction and batch row. The gates'
// products of the input and the hidden state are MACs (hidden x (input + hidden) per gate);
// then the biases (2 per gate with B), the activations by their weights, the gate
// arithmetic, and with `clip` 2 compares per gate. sequence_lens is not read: every step of
// X's sequence length counts.
Cost Recurrent(NodeView& n) {
  const std::string& op = n.node().op_type();
  const int64_t gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
  const Shape* x = n.In(0);
  const Shape* w = n.In(1);
  if (!x || !w || x->size() != 3 || w->size() != 3) {
    n.Missing("X and W need rank-3 shapes");
    return {Dim(), Dim()};
  }
  const bool batch_first = IntAttr(n.node(), "layout", 0) == 1;
  Dim seq = batch_first ? (*x)[1] : (*x)[0];
  Dim batch = batch_first ? (*x)[0] : (*x)[1];
  Dim input = (*x)[2];
  Dim dirs = (*w)[0];
  const int64_t hidden_attr = IntAttr(n.node(), "hidden_size", -1);
  Dim hidden = hidden_attr >= 0 ? C(hidden_attr) : Dim::FloorDiv((*w)[1], C(gates));
  // Activations: f for the gates, g for the candidate, h for LSTM's output (the defaults
  // Sigmoid, Tanh, Tanh; RNN's f Tanh).
  std::vector<std::string> acts = op == "RNN" ? std::vector<std::string>{"Tanh"}
                                  : op == "GRU"
                                      ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                      : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  if (const auto* a = FindAttr(n.node(), "activations"); a && a->strings_size() > 0) {
    acts.assign(a->strings().begin(), a->strings().end());
    acts.resize(std::min<size_t>(acts.size(), op == "RNN" ? 1 : op == "GRU" ? 2 : 3));
  }
  std::vector<int64_t> w_act;
  for (const auto& name : acts) {
    auto it = UnaryWeights().find(name);
    if (it == UnaryWeights().end()) {
      n.Missing(StrCat("the activation ", name, " has no weight"));
      return {Dim(), Dim()};
    }
    w_act.push_back(it->second);
  }
  if (w_act.size() < (op == "RNN" ? 1u : op == "GRU" ? 2u : 3u)) {
    n.Missing("activations lists too few functions");
    return {Dim(), Dim()};
  }
  // Per step, batch row and direction, in units of `hidden`.
  int64_t per_hidden = 0;
  int64_t mac_per_hidden = 0;  // peepholes
  if (op == "RNN") {
    per_hidden = w_act[0];
  } else if (op == "GRU") {
    // z and r gates (f), the candidate (g), r times the recurrent part, then
    // h = (1 - z) h~ + z h: subtract, two multiplies, an add.
    per_hidden = 2 * w_act[0] + w_act[1] + 1 + 4;
  } else {
    // i, o, f gates (f), the candidate (g), c = f c + i g (3), h = o h(c) (1 + h).
    per_hidden = 3 * w_act[0] + w_act[1] + 3 + 1 + w_act[2];
    if (n.HasInput(7)) mac_per_hidden = 3;  // peepholes: P (x) c for i, o, f
  }
  if (n.HasInput(3)) per_hidden += 2 * gates;  // input and recurrent biases
  if (FindAttr(n.node(), "clip")) per_hidden += 2 * gates;
  Dim steps = dirs * seq * batch;
  Dim macs = steps * (hidden * C(gates) * (input + hidden) + hidden * C(mac_per_hidden));
  return {macs * C(2) + steps * hidden * C(per_hidden), macs};
}

// ---------------------------------------------------------------------------------------
// The table.

constexpr const char* kDataMovement[] = {
    "Reshape",
    "Transpose",
    "Gather",
    "GatherElements",
    "GatherND",
    "Concat",
    "Slice",
    "Split",
    "Squeeze",
    "Unsqueeze",
    "Flatten",
    "Identity",
    "Expand",
    "Tile",
    "Pad",
    "Shape",
    "Size",
    "Constant",
    "ConstantOfShape",
    "EyeLike",
    "Cast",
    "CastLike",
    "BitCast",
    "DepthToSpace",
    "SpaceToDepth",
    "Trilu",
    "ReverseSequence",
    "Compress",
    "OneHot",
    "Dropout",
    "MaxUnpool",
    "Optional",
    "OptionalGetElement",
    "OptionalHasElement",
    "SequenceConstruct",
    "SequenceEmpty",
    "SequenceAt",
    "SequenceInsert",
    "SequenceErase",
    "SequenceLength",
    "SplitToSequence",
    "ConcatFromSequence",
};

std::unordered_map<std::string, Formula> MakeTable() {
  std::unordered_map<std::string, Formula> t;
  auto onnx = [&](std::initializer_list<const char*> ops, Formula f) {
    for (const char* op : ops) t[op] = f;
  };
  auto ms = [&](std::initializer_list<const char*> ops, Formula f) {
    for (const char* op : ops) t[StrCat("com.microsoft::", op)] = f;
  };
  for (const auto& [op, w] : UnaryWeights()) {
    if (op != "QuickGelu") t[op] = Unary;
  }
  ms({"QuickGelu"}, Unary);
  onnx({"Gelu"}, Gelu);
  ms({"Gelu"}, Gelu);
  onnx({"Add",        "Sub",       "Mul",        "Div",         "Pow",
        "Mod",        "BitShift",  "And",        "Or",          "Xor",
        "Equal",      "Less",      "Greater",    "LessOrEqual", "GreaterOrEqual",
        "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Sum",         "Max",
        "Min",        "Mean",      "PRelu",      "Where"},
       Binary);
  onnx({"Clip"}, Clip);
  onnx({"QuantizeLinear"}, Quantize);
  onnx({"DequantizeLinear"}, Dequantize);
  onnx({"Range", "CumSum"}, OutputElements);
  onnx({"ScatterElements", "ScatterND", "Scatter"}, Scatter);
  onnx({"Softmax", "LogSoftmax"}, Softmax);
  onnx({"Hardmax"}, Hardmax);
  onnx({"BatchNormalization"}, BatchNorm);
  onnx({"LayerNormalization"}, LayerNorm);
  onnx({"InstanceNormalization", "GroupNormalization"}, ScaleBiasNorm);
  onnx({"RMSNormalization", "SimplifiedLayerNormalization"}, RmsNorm);
  onnx({"MeanVarianceNormalization"}, Mvn);
  onnx({"LpNormalization"}, LpNorm);
  onnx({"LRN"}, Lrn);
  onnx({"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceMean", "ReduceLogSum",
        "ReduceSumSquare", "ReduceL1", "ReduceL2", "ReduceLogSumExp", "ArgMax", "ArgMin"},
       Reduce);
  onnx({"MatMul"}, MatMul);
  onnx({"Gemm"}, Gemm);
  onnx({"MatMulInteger"}, MatMulInteger);
  onnx({"QLinearMatMul"}, QLinearMatMul);
  onnx({"Conv"}, Conv);
  onnx({"ConvInteger"}, ConvInteger);
  onnx({"QLinearConv"}, QLinearConv);
  onnx({"ConvTranspose"}, ConvTranspose);
  onnx({"MaxPool", "AveragePool", "LpPool"}, Pool);
  onnx({"GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool"}, GlobalPool);
  onnx({"Einsum"}, Einsum);
  onnx({"RNN", "GRU", "LSTM"}, Recurrent);
  onnx({"Attention"}, OnnxAttention);
  onnx({"RotaryEmbedding"}, RotaryEmbedding);
  // onnxruntime's operators in the default domain.
  onnx({"SkipSimplifiedLayerNormalization"}, SkipRmsNorm);
  ms({"SimplifiedLayerNormalization", "RMSNormalization"}, RmsNorm);
  ms({"LayerNormalization"}, LayerNorm);
  ms({"SkipLayerNormalization"}, SkipLayerNorm);
  ms({"SkipSimplifiedLayerNormalization"}, SkipRmsNorm);
  ms({"EmbedLayerNormalization"}, EmbedLayerNorm);
  ms({"BiasGelu"}, BiasGelu);
  ms({"FastGelu"}, FastGelu);
  ms({"BiasAdd"}, BiasAdd);
  ms({"BiasSoftmax"}, BiasSoftmax);
  ms({"FusedMatMul", "TransposeMatMul"}, FusedMatMul);
  ms({"MatMulInteger16"}, MatMul);
  ms({"QuantizeLinear"}, Quantize);
  ms({"DequantizeLinear"}, Dequantize);
  ms({"Range"}, OutputElements);
  ms({"QLinearConv"}, QLinearConv);
  ms({"GroupNorm"}, ContribGroupNorm);
  ms({"FusedGemm"}, FusedGemm);
  ms({"FusedConv"}, FusedConv);
  ms({"MatMulNBits"}, MatMulNBits);
  ms({"MatMulIntegerToFloat"}, MatMulIntegerToFloat);
  ms({"QOrderedMatMul"}, QOrderedMatMul);
  ms({"DynamicQuantizeMatMul"}, DynamicQuantizeMatMul);
  ms({"GemmFastGelu"}, GemmFastGelu);
  ms({"Attention"}, ContribAttention);
  ms({"QAttention"}, QAttention);
  ms({"MultiHeadAttention"}, MultiHeadAttention);
  ms({"GroupQueryAttention"}, GroupQueryAttention);
  ms({"RotaryEmbedding"}, RotaryEmbedding);
  return t;
}

std::string TableKey(const onnx::NodeProto& node) {
  const std::string& d = node.domain();
  if (d.empty() || d == "ai.onnx") return node.op_type();
  return StrCat(d, "::", node.op_type());
}

// onnxruntime's data movement operators.
constexpr const char* kContribDataMovement[] = {"GatherND", "Pad", "Trilu", "ExpandDims"};

bool IsDataMovement(const onnx::NodeProto& node) {
  if (node.domain() == "com.microsoft") {
    for (const char* op : kContribDataMovement) {
      if (node.op_type() == op) return true;
    }
    return false;
  }
  if (!node.domain().empty() && node.domain() != "ai.onnx") return false;
  for (const char* op : kDataMovement) {
    if (node.op_type() == op) return true;
  }
  // Nearest-neighbour resizing copies elements (the default mode).
  if (node.op_type() == "Resize" || node.op_type() == "Upsample") {
    return StringAttr(node, "mode", "nearest") == "nearest";
  }
  return false;
}

// The value of a scalar integer or bool constant named `name` in `graph` (an initializer or
// a Constant node's output); nullopt otherwise.
std::optional<int64_t> ConstantScalar(const onnx::GraphProto& graph, const std::string& name) {
  auto scalar = [](const onnx::TensorProto& t) -> std::optional<int64_t> {
    auto v = ConstValueOfTensor(t, 1);
    if (!v || v->ints.size() != 1) return std::nullopt;
    return v->ints[0].const_value();
  };
  for (const auto& init : graph.initializer()) {
    if (init.name() == name) return scalar(init);
  }
  for (const auto& node : graph.node()) {
    if (node.op_type() != "Constant" || node.output_size() != 1 || node.output(0) != name) {
      continue;
    }
    for (const auto& a : node.attribute()) {
      if (a.name() == "value") return scalar(a.t());
      if (a.name() == "value_int") return a.i();
    }
  }
  return std::nullopt;
}

// The sum of a graph's nodes.
struct GraphCost {
  Dim flops = Dim::Const(0);
  Dim macs = Dim::Const(0);
  bool lower_bound = false;
  bool per_iteration = false;
};

class Estimator {
 public:
  Estimator(const onnx::ModelProto& model, const InferenceResult& result, CostEstimate& out)
      : model_(model), result_(result), out_(out), table_(MakeTable()) {
    for (const auto& opset : model.opset_import()) {
      if (opset.domain().empty() || opset.domain() == "ai.onnx") onnx_opset_ = opset.version();
    }
  }

  // The cost of `graph` at `path`, its nodes listed in out_; a function body (`own_scope`)
  // sees no enclosing graph.
  GraphCost Graph(const onnx::GraphProto& graph, const std::string& path, bool own_scope = false) {
    auto it = result_.value_types.find(path);
    const GraphValueTypes* types = it == result_.value_types.end() ? nullptr : &it->second;
    std::vector<ScopeTypes> saved;
    if (own_scope) saved.swap(scopes_);
    ScopeTypes scope;
    scope.types = types;
    for (const auto& init : graph.initializer()) {
      scope.initializers.try_emplace(init.name(), TypeOfTensor(init));
    }
    for (const auto& sparse : graph.sparse_initializer()) {
      Type t = TypeOfTensor(sparse.values());
      std::vector<Dim> dims;
      for (int64_t d : sparse.dims()) dims.push_back(Dim::Const(d));
      scope.initializers.try_emplace(sparse.values().name(),
                                     Type::SparseTensor(t.elem_type(), std::move(dims)));
    }
    scopes_.push_back(std::move(scope));
    GraphCost sum = Nodes(graph, path, types);
    scopes_.pop_back();
    if (own_scope) saved.swap(scopes_);
    return sum;
  }

 private:
  GraphCost Nodes(const onnx::GraphProto& graph, const std::string& path,
                  const GraphValueTypes* types) {
    GraphCost sum;
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::NodeProto& node = graph.node(i);
      const size_t at = out_.nodes.size();
      out_.nodes.emplace_back();
      NodeCost c = Node(graph, node, i, path, types);
      if (c.flops.is_unknown()) {
        sum.lower_bound = true;
      } else {
        sum.flops = sum.flops + c.flops;
        sum.macs = sum.macs + c.macs;
        sum.lower_bound |= c.lower_bound;
        sum.per_iteration |= c.per_iteration;
      }
      out_.nodes[at] = std::move(c);
    }
    return sum;
  }

  NodeCost Node(const onnx::GraphProto& graph, const onnx::NodeProto& node, int index,
                const std::string& path, const GraphValueTypes* types) {
    NodeCost c;
    c.graph = path;
    c.node_index = index;
    c.node_name = node.name();
    c.domain = node.domain();
    c.op_type = node.op_type();
    const bool onnx_domain = node.domain().empty() || node.domain() == "ai.onnx";
    auto unknown = [&](CostKind kind, std::string note) {
      c.kind = kind;
      c.flops = c.macs = Dim();
      c.note = std::move(note);
      if (kind == CostKind::kNoFormula) {
        out_.nodes_without_formula++;
        out_.ops_without_formula[TableKey(node)]++;
      } else {
        out_.nodes_unknown_shape++;
      }
    };
    if (onnx_domain &&
        (node.op_type() == "If" || node.op_type() == "Loop" || node.op_type() == "Scan")) {
      ControlFlow(graph, node, index, path, types, c);
      if (c.flops.is_unknown() && c.kind == CostKind::kNoFormula) {
        unknown(CostKind::kNoFormula, c.note);
      } else if (c.flops.is_unknown()) {
        unknown(CostKind::kFormula, c.note);
      }
      return c;
    }
    if (const onnx::FunctionProto* f = LocalFunction(node)) {
      const std::string body =
          StrCat(path, "/", node.op_type(), "_", index, ".", node.domain(), "::", node.op_type());
      if (!result_.value_types.count(body)) {
        unknown(CostKind::kNoFormula, "a function call whose body was not inferred");
        return c;
      }
      onnx::GraphProto g;
      for (const auto& n : f->node()) *g.add_node() = n;
      GraphCost sum = Graph(g, body, /*own_scope=*/true);
      c.flops = sum.flops;
      c.macs = sum.macs;
      c.lower_bound = sum.lower_bound;
      c.per_iteration = sum.per_iteration;
      c.note = StrCat("the function body (", body, ")");
      return c;
    }
    if (IsDataMovement(node)) {
      c.kind = CostKind::kDataMovement;
      c.flops = c.macs = Dim::Const(0);
      return c;
    }
    auto it = table_.find(TableKey(node));
    if (it == table_.end()) {
      unknown(CostKind::kNoFormula, "no cost formula");
      return c;
    }
    NodeView view(node, scopes_);
    Cost cost = it->second(view);
    if (cost.flops.is_unknown() || cost.macs.is_unknown()) {
      unknown(CostKind::kFormula,
              view.missing().empty() ? "the count overflows or is too large" : view.missing());
      return c;
    }
    c.flops = cost.flops;
    c.macs = cost.macs;
    return c;
  }

  const onnx::FunctionProto* LocalFunction(const onnx::NodeProto& node) const {
    for (const auto& f : model_.functions()) {
      if (f.domain() == node.domain() && f.name() == node.op_type() &&
          f.overload() == node.overload()) {
        return &f;
      }
    }
    return nullptr;
  }

  void ControlFlow(const onnx::GraphProto& graph, const onnx::NodeProto& node, int index,
                   const std::string& path, const GraphValueTypes* types, NodeCost& c) {
    auto body = [&](const char* attr) -> std::optional<GraphCost> {
      const auto* a = FindAttr(node, attr);
      if (!a || !a->has_g()) return std::nullopt;
      return Graph(a->g(), StrCat(path, "/", node.op_type(), "_", index, ".", attr));
    };
    const std::string& op = node.op_type();
    if (op == "If") {
      auto then_cost = body("then_branch");
      auto else_cost = body("else_branch");
      if (!then_cost || !else_cost) {
        c.kind = CostKind::kNoFormula;
        c.note = "a branch is missing";
        return;
      }
      c.flops = Dim::Max(then_cost->flops, else_cost->flops);
      c.macs = Dim::Max(then_cost->macs, else_cost->macs);
      c.lower_bound = then_cost->lower_bound || else_cost->lower_bound;
      c.per_iteration = then_cost->per_iteration || else_cost->per_iteration;
      c.note = StrCat("the larger branch: then ", FormatCount(then_cost->flops), ", else ",
                      FormatCount(else_cost->flops), " FLOPs");
      return;
    }
    auto b = body("body");
    if (!b) {
      c.kind = CostKind::kNoFormula;
      c.note = "the body is missing";
      return;
    }
    c.lower_bound = b->lower_bound;
    c.per_iteration = b->per_iteration;
    std::optional<Dim> trips;
    const onnx::GraphProto& g = FindAttr(node, "body")->g();
    if (op == "Loop") {
      std::optional<int64_t> m;
      if (node.input_size() > 0 && !node.input(0).empty()) m = ConstantScalar(graph, node.input(0));
      bool runs_all = node.input_size() < 2 || node.input(1).empty();
      if (!runs_all && g.input_size() >= 2 && g.output_size() >= 1 &&
          g.output(0).name() == g.input(1).name()) {
        auto cond = ConstantScalar(graph, node.input(1));
        runs_all = cond && *cond != 0;  // true, and passed through unchanged
      }
      if (m && runs_all) trips = Dim::Const(*m);
    } else if (onnx_opset_ >= 9) {  // Scan-9 and later: the length of the first scan input
      const int64_t scans = IntAttr(node, "num_scan_inputs", 0);
      const int64_t first = node.input_size() - scans;
      if (scans > 0 && first >= 0) {
        NodeView view(node, scopes_);
        int64_t axis = 0;
        if (auto axes = IntsAttr(node, "scan_input_axes"); axes && !axes->empty())
          axis = (*axes)[0];
        Dim len = view.InDim(static_cast<int>(first), static_cast<int>(axis));
        if (!len.is_unknown()) trips = len;
      }
    }
    if (trips) {
      c.flops = *trips * b->flops;
      c.macs = *trips * b->macs;
      c.note = StrCat(trips->ToString(), " iterations of ", FormatCount(b->flops), " FLOPs");
      if (c.flops.is_unknown()) c.note = "the count overflows or is too large";
      return;
    }
    c.flops = b->flops;
    c.macs = b->macs;
    c.per_iteration = true;
    c.note = "one iteration: the trip count is not known";
    out_.per_iteration_loops++;
  }

  const onnx::ModelProto& model_;
  const InferenceResult& result_;
  CostEstimate& out_;
  std::unordered_map<std::string, Formula> table_;
  int64_t onnx_opset_ = 0;
  std::vector<ScopeTypes> scopes_;  // the graphs being walked, outermost first
};

}  // namespace

CostEstimate EstimateCost(const onnx::ModelProto& model, const InferenceResult& result) {
  CostEstimate out;
  out.symbol_context = result.symbol_context;
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  Estimator estimator(model, result, out);
  GraphCost sum = estimator.Graph(model.graph(), "main");
  out.total_flops = sum.flops;
  out.total_macs = sum.macs;
  out.lower_bound = sum.lower_bound || out.nodes_without_formula > 0 || out.nodes_unknown_shape > 0;
  return out;
}

CostValues EvaluateCost(const CostEstimate& cost, const CostBinding& binding) {
  CostValues v;
  v.nodes.reserve(cost.nodes.size());
  for (const auto& n : cost.nodes) {
    v.nodes.push_back({symbolic::Evaluate(n.flops, binding), symbolic::Evaluate(n.macs, binding)});
  }
  v.total_flops = symbolic::Evaluate(cost.total_flops, binding);
  v.total_macs = symbolic::Evaluate(cost.total_macs, binding);
  std::set<std::string> unbound;
  for (const Dim& d : {cost.total_flops, cost.total_macs}) {
    if (d.is_unknown()) continue;
    for (const auto& s : d.Symbols()) {
      if (!binding.count(s)) unbound.insert(s);
    }
  }
  v.unbound_symbols.assign(unbound.begin(), unbound.end());
  return v;
}

}  // namespace onnx_infer
