// Quantized operators of com.microsoft (onnxruntime's contrib operators, described in
// ContribOperators.md): the weight-only quantized matmuls with packed weights (MatMulNBits and
// its fused MLP and QKV forms, MatMulBnb4, MatMulFpQ4, MatMulBlockQuantizedFp4Weight and
// Fp8Weight), GatherBlockQuantized, the integer matmuls (DynamicQuantizeMatMul,
// MatMulIntegerToFloat, MatMulInteger16, MulInteger, QGemm), the QLinear* family, the
// com.microsoft QuantizeLinear/DequantizeLinear, the cublasLt-ordered QOrdered* operators, BFP
// quantization, DynamicQuantizeLSTM, ReduceSumInteger, and the mixtures of experts MoE and QMoE.
//
// Packed layouts are checked against the attributes that size them: MatMulNBits' B is
// [N, ceil(K / block_size), block_size * bits / 8], and a B of [64, ...] with N = 32 is the
// error "input 1 'B': dim 0 is 64 but attribute N = 32". Shapes the ai.onnx rules already
// compute (matmul, Gemm, Conv and pools, Concat, reductions, QuantizeLinear) come from them.
// Where the document and onnxruntime's kernels differ, the rules follow what the kernel
// accepts and allocates, and say so.
#include "onnx_infer/schema/defs/ai_onnx/quantization.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/ai_onnx/math/math.h"
#include "onnx_infer/schema/defs/ai_onnx/nn/conv_pool.h"
#include "onnx_infer/schema/defs/ai_onnx/reduction.h"
#include "onnx_infer/schema/defs/ai_onnx/tensor/reshape.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

constexpr char kDomain[] = "com.microsoft";

using symbolic::Tri;

// ---- Helpers.

// Input i's shape when it is present with a known rank; null otherwise.
const Shape* ShapeOf(const InferenceContext& ctx, int i) {
  if (i >= ctx.NumInputs() || !ctx.HasInput(i)) return nullptr;
  return ctx.InputShape(i);
}

// Input i's dim `axis`; unknown when the input is absent, unranked or shorter.
Dim InputDim(const InferenceContext& ctx, int i, size_t axis) {
  const Shape* s = ShapeOf(ctx, i);
  return s && axis < s->size() ? (*s)[axis] : Dim();
}

// A dim the operator fixes: input `input`'s dim `axis`, times `pack`, is `want`; `what` says
// where `want` comes from ("attribute N", "k_blocks = ceil(K / block_size)").
struct DimRule {
  int input;
  size_t axis;
  Dim want;
  std::string what;
  int64_t pack = 1;  // values per stored element along this dim (a packed weight's last dim)
};

// The message when the rule provably fails: "input 1 'B': dim 0 is 64 but attribute N = 32".
std::optional<std::string> Violation(const InferenceContext& ctx, const DimRule& r) {
  const Dim actual = InputDim(ctx, r.input, r.axis);
  if (actual.is_unknown() || r.want.is_unknown()) return std::nullopt;
  if (symbolic::Equal(actual * Dim::Const(r.pack), r.want) != Tri::kFalse) return std::nullopt;
  return StrCat(
      InputLabel(ctx, r.input), ": dim ", r.axis, " is ", actual, " but ", r.what,
      r.pack == 1 ? StrCat(" = ", r.want) : StrCat(" / pack_size = ", r.want, " / ", r.pack));
}

// Records what a rule that holds says (N == 64 for a symbolic N).
Status Record(InferenceContext& ctx, const DimRule& r) {
  const Dim actual = InputDim(ctx, r.input, r.axis);
  if (actual.is_unknown() || r.want.is_unknown()) return OkStatus();
  return ctx.RecordEqual(actual * Dim::Const(r.pack), r.want,
                         StrCat(InputLabel(ctx, r.input), " dim ", r.axis, " and ", r.what));
}

// Every rule holds (each recorded), or the first that provably fails is the error.
Status CheckDims(InferenceContext& ctx, const std::vector<DimRule>& rules) {
  for (const DimRule& r : rules) {
    if (auto v = Violation(ctx, r))
      return RuleError(DiagCode::kInputDims, *v, InputSubject(ctx, r.input));
    OI_RETURN_IF_ERROR(Record(ctx, r));
  }
  return OkStatus();
}

// `s` with its last dim replaced by `d` (a 1-D s becomes [d]).
Shape WithLastDim(Shape s, Dim d) {
  s.back() = d;
  return s;
}

// Output `out` has input `in`'s shape and element type `elem` (0: unknown).
void SetLike(InferenceContext& ctx, int out, int in, int32_t elem) {
  Type t = Type::Tensor(elem);
  if (const Shape* s = ShapeOf(ctx, in)) t.set_shape(*s);
  ctx.SetOutputType(out, std::move(t));
}

// An INT attribute that must be positive.
StatusOr<int64_t> PositiveAttr(const InferenceContext& ctx, const char* name) {
  OI_ASSIGN_OR_RETURN(int64_t v, ctx.IntAttr(name));
  if (v <= 0) return AttrError(name, StrCat("expected > 0, got ", v));
  return v;
}

bool IsPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// ---- MatMulNBits and its fused forms.

// The quantization of MatMulNBits-style weights: attributes K, bits and block_size, and the
// sizes they give. Each row of the weight [N, K] is cut into k_blocks = ceil(K / block_size)
// blocks, each stored as blob_size = block_size * bits / 8 bytes.
struct NBits {
  int64_t k = 0, bits = 0, block_size = 0;
  int64_t k_blocks = 0, blob_size = 0;
};

// bits: the document allows 2 to 8 (onnxruntime's kernels take 2, 4 and 8); block_size: a
// power of 2, at least 16.
StatusOr<NBits> ReadNBits(const InferenceContext& ctx) {
  NBits q;
  OI_ASSIGN_OR_RETURN(q.k, PositiveAttr(ctx, "K"));
  OI_ASSIGN_OR_RETURN(q.bits, ctx.IntAttr("bits", 4));
  OI_ASSIGN_OR_RETURN(q.block_size, ctx.IntAttr("block_size"));
  if (q.bits < 2 || q.bits > 8) {
    return AttrError("bits", StrCat("expected 2 to 8, got ", q.bits));
  }
  if (q.block_size < 16 || !IsPowerOfTwo(q.block_size)) {
    return AttrError("block_size", StrCat("expected a power of 2 >= 16, got ", q.block_size));
  }
  q.k_blocks = (q.k + q.block_size - 1) / q.block_size;
  q.blob_size = q.block_size * q.bits / 8;
  return q;
}

// One quantized weight of N rows: B [N, k_blocks, blob_size]; scales [N, k_blocks], or the
// 1-D [N * k_blocks] of older exports (onnxruntime accepts both); zero points packed uint8
// [N, ceil(k_blocks * bits / 8)] or in the scales' type [N, k_blocks], each also 1-D
// flattened; g_idx [K] or [k_blocks * block_size]; bias [N]. An index of -1 is an input the
// operator does not have. `n_what` names where N comes from.
struct NBitsWeight {
  int b = -1, scales = -1, zero_points = -1, g_idx = -1, bias = -1;
};

Status CheckNBitsWeight(InferenceContext& ctx, const NBits& q, int64_t n, const char* n_what,
                        const NBitsWeight& w, bool prepacked) {
  const Dim nd = Dim::Const(n);
  const std::string n_attr = StrCat("attribute ", n_what);
  std::vector<DimRule> rules;
  if (w.bias >= 0) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, w.bias, {1}));
    rules.push_back({w.bias, 0, nd, n_attr});
  }
  // A prepacked B (and its scales) is in an execution provider's own layout.
  if (!prepacked) {
    const std::string blocks =
        StrCat("k_blocks = ceil(K / block_size) (K = ", q.k, ", block_size = ", q.block_size, ")");
    OI_RETURN_IF_ERROR(RequireRank(ctx, w.b, {3}));
    rules.push_back({w.b, 0, nd, n_attr});
    rules.push_back({w.b, 1, Dim::Const(q.k_blocks), blocks});
    rules.push_back({w.b, 2, Dim::Const(q.blob_size),
                     StrCat("blob_size = block_size * bits / 8 (block_size = ", q.block_size,
                            ", bits = ", q.bits, ")")});
    // Per-block parameters: [N, per_row], or flattened to [N * per_row]; `name` is per_row's.
    auto per_block = [&](int input, int64_t per_row, const std::string& what,
                         const std::string& name) -> Status {
      if (input < 0 || !ShapeOf(ctx, input)) return OkStatus();
      OI_RETURN_IF_ERROR(RequireRank(ctx, input, {1, 2}));
      if (ShapeOf(ctx, input)->size() == 1) {
        rules.push_back({input, 0, Dim::Const(n * per_row),
                         StrCat(n_what, " * ", name, " (", n, " * ", per_row, ")")});
      } else {
        rules.push_back({input, 0, nd, n_attr});
        rules.push_back({input, 1, Dim::Const(per_row), what});
      }
      return OkStatus();
    };
    OI_RETURN_IF_ERROR(per_block(w.scales, q.k_blocks, blocks, "k_blocks"));
    const std::string zp_bytes = "ceil(k_blocks * bits / 8)";
    if (w.zero_points >= 0 && InputElemType(ctx, w.zero_points) == kUint8) {
      OI_RETURN_IF_ERROR(
          per_block(w.zero_points, (q.k_blocks * q.bits + 7) / 8, zp_bytes, zp_bytes));
    } else if (w.zero_points >= 0 && InputElemType(ctx, w.zero_points) != 0) {
      OI_RETURN_IF_ERROR(per_block(w.zero_points, q.k_blocks, blocks, "k_blocks"));
    }
    // g_idx (deprecated) has one of two lengths, so a symbolic one records nothing.
    if (w.g_idx >= 0 && ShapeOf(ctx, w.g_idx)) {
      OI_RETURN_IF_ERROR(RequireRank(ctx, w.g_idx, {1}));
      const std::optional<int64_t> g = InputDim(ctx, w.g_idx, 0).const_value();
      if (g && *g != q.k && *g != q.k_blocks * q.block_size) {
        return InputError(ctx, w.g_idx, DiagCode::kInputDims,
                          StrCat("dim 0 is ", *g, " but attribute K = ", q.k,
                                 " (or k_blocks * block_size = ", q.k_blocks * q.block_size, ")"));
      }
    }
  }
  return CheckDims(ctx, rules);
}

// The activation A [..., K]: its last dim is attribute K.
Status CheckActivation(InferenceContext& ctx, int a, int64_t k) {
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, a, 1));
  const Shape* s = ShapeOf(ctx, a);
  if (!s) return OkStatus();
  return CheckDims(ctx, {{a, s->size() - 1, Dim::Const(k), "attribute K"}});
}

// Output `out`: A's shape with its last dim n, in A's element type.
void SetProjection(InferenceContext& ctx, int out, int a, Dim n) {
  ctx.PropagateElemType(a, out);
  if (const Shape* s = ShapeOf(ctx, a); s && !s->empty())
    ctx.SetOutputShape(out, WithLastDim(*s, n));
}

// MatMulNBits: A [..., K], B the N-bit weight (inputs A, B, scales, zero_points, g_idx, bias);
// Y is A's shape with its last dim N ("the same rank as the input"). With weight_prepacked
// set, B is in an execution provider's layout and only N, K and the bias are checked.
Status InferMatMulNBits(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(NBits q, ReadNBits(ctx));
  OI_ASSIGN_OR_RETURN(int64_t n, PositiveAttr(ctx, "N"));
  OI_ASSIGN_OR_RETURN(int64_t prepacked, ctx.IntAttr("weight_prepacked", 0));
  SetProjection(ctx, 0, 0, Dim::Const(n));
  OI_RETURN_IF_ERROR(CheckActivation(ctx, 0, q.k));
  return CheckNBitsWeight(ctx, q, n, "N", {1, 2, 3, 4, 5}, prepacked != 0);
}

// The optional RMSNorm of the fused forms: skip [..., K] (a residual added to A, as
// SkipSimplifiedLayerNormalization's), norm_scale [K]; input_skip_bias_sum is that sum, of
// A's shape.
Status CheckFusedNorm(InferenceContext& ctx, int64_t k, int skip, int norm_scale,
                      int skip_sum_output) {
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, skip, 1));
  OI_RETURN_IF_ERROR(RequireRank(ctx, norm_scale, {1}));
  std::vector<DimRule> rules = {{norm_scale, 0, Dim::Const(k), "attribute K"}};
  if (const Shape* s = ShapeOf(ctx, skip))
    rules.push_back({skip, s->size() - 1, Dim::Const(k), "attribute K"});
  OI_RETURN_IF_ERROR(CheckDims(ctx, rules));
  if (skip_sum_output < ctx.NumOutputs() && ctx.HasOutput(skip_sum_output)) {
    SetLike(ctx, skip_sum_output, 0, InputElemType(ctx, 0));
  }
  return OkStatus();
}

// MatMulNBitsMlp: Y = activation(A gate) * (A up), both projections N-bit weights of [N, K]
// (inputs A, skip, norm_scale, gate_B, gate_scales, gate_bias, up_B, up_scales, up_bias): Y
// is A's shape with its last dim N, input_skip_bias_sum A's shape.
Status InferMatMulNBitsMlp(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(NBits q, ReadNBits(ctx));
  OI_ASSIGN_OR_RETURN(int64_t n, PositiveAttr(ctx, "N"));
  SetProjection(ctx, 0, 0, Dim::Const(n));
  OI_RETURN_IF_ERROR(CheckActivation(ctx, 0, q.k));
  OI_RETURN_IF_ERROR(CheckFusedNorm(ctx, q.k, 1, 2, 1));
  OI_RETURN_IF_ERROR(CheckNBitsWeight(ctx, q, n, "N", {.b = 3, .scales = 4, .bias = 5}, false));
  return CheckNBitsWeight(ctx, q, n, "N", {.b = 6, .scales = 7, .bias = 8}, false);
}

// MatMulNBitsQkv: three projections of the normalized A (inputs A, skip, norm_scale, then B,
// scales and bias of Q, K and V): Q is A's shape with last dim Nq, K and V with Nkv;
// input_skip_bias_sum is A's shape.
Status InferMatMulNBitsQkv(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(NBits q, ReadNBits(ctx));
  OI_ASSIGN_OR_RETURN(int64_t nq, PositiveAttr(ctx, "Nq"));
  OI_ASSIGN_OR_RETURN(int64_t nkv, PositiveAttr(ctx, "Nkv"));
  for (int o = 0; o < 3 && o < ctx.NumOutputs(); ++o) {
    SetProjection(ctx, o, 0, Dim::Const(o == 0 ? nq : nkv));
  }
  OI_RETURN_IF_ERROR(CheckActivation(ctx, 0, q.k));
  OI_RETURN_IF_ERROR(CheckFusedNorm(ctx, q.k, 1, 2, 3));
  OI_RETURN_IF_ERROR(CheckNBitsWeight(ctx, q, nq, "Nq", {.b = 3, .scales = 4, .bias = 5}, false));
  OI_RETURN_IF_ERROR(CheckNBitsWeight(ctx, q, nkv, "Nkv", {.b = 6, .scales = 7, .bias = 8}, false));
  return CheckNBitsWeight(ctx, q, nkv, "Nkv", {.b = 9, .scales = 10, .bias = 11}, false);
}

// ---- Other weight-only quantized matmuls.

// MatMulBnb4: the weight [N, K] quantized to 4 bits in blocks of block_size and flattened:
// B is [ceil(N * K / 2)] bytes, absmax [ceil(N * K / block_size)]. With transB (default 1)
// A is [..., K] and Y [..., N]; without, A is [..., N] and Y [..., K].
Status InferMatMulBnb4(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t k, PositiveAttr(ctx, "K"));
  OI_ASSIGN_OR_RETURN(int64_t n, PositiveAttr(ctx, "N"));
  OI_ASSIGN_OR_RETURN(int64_t block_size, PositiveAttr(ctx, "block_size"));
  OI_ASSIGN_OR_RETURN(int64_t trans_b, ctx.IntAttr("transB", 1));
  const int64_t in = trans_b ? k : n, out = trans_b ? n : k;
  SetProjection(ctx, 0, 0, Dim::Const(out));
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, 1));
  OI_RETURN_IF_ERROR(RequireRank(ctx, 1, {1}));
  OI_RETURN_IF_ERROR(RequireRank(ctx, 2, {1}));
  std::vector<DimRule> rules = {
      {1, 0, Dim::Const((n * k + 1) / 2), StrCat("ceil(N * K / 2) (N = ", n, ", K = ", k, ")")},
      {2, 0, Dim::Const((n * k + block_size - 1) / block_size),
       StrCat("ceil(N * K / block_size) (N = ", n, ", K = ", k, ", block_size = ", block_size,
              ")")}};
  if (const Shape* a = ShapeOf(ctx, 0)) {
    rules.push_back({0, a->size() - 1, Dim::Const(in), trans_b ? "attribute K" : "attribute N"});
  }
  return CheckDims(ctx, rules);
}

// MatMulFpQ4: Y = A * B, B's shape being the value of input B_shape (B itself is a packed
// blob whose size the document does not give). Without that value, a B_shape of known
// length still gives B's rank.
Status InferMatMulFpQ4(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* a = ShapeOf(ctx, 0);
  if (!a) return OkStatus();
  Shape b;
  if (const std::vector<Dim>* v = IntValues(ctx, 2)) {
    b.assign(v->begin(), v->end());
  } else if (Dim len = InputDim(ctx, 2, 0); len.is_const() && ShapeOf(ctx, 2)->size() == 1) {
    b.assign(*len.const_value(), Dim());
  } else {
    return OkStatus();
  }
  if (a->empty() || b.empty()) {
    return RuleError(DiagCode::kInputRank,
                     StrCat(InputLabel(ctx, a->empty() ? 0 : 2),
                            a->empty() ? ": expected rank >= 1, got a scalar"
                                       : ": expected a shape of rank >= 1, got none"),
                     InputSubject(ctx, a->empty() ? 0 : 2));
  }
  OI_ASSIGN_OR_RETURN(Shape out, MatMulShape(*a, b, &ctx));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// MatMulBlockQuantizedFp4Weight (inputs A, B, weight_scale, weight_scale_2, input_scale,
// bias) and MatMulBlockQuantizedFp8Weight (A, B, b_scale, a_scale, bias): A [..., K] times
// the weight [N, K]^T gives [..., N] in A's type. B is [N, K / 2] (two FP4 values a byte) or
// [N, K] (FP8); the block scales are [N, ceil(K / block_size)]; the bias is [N].
Status InferBlockQuantizedMatMul(InferenceContext& ctx, int64_t values_per_byte, int bias,
                                 int64_t default_block_size) {
  OI_ASSIGN_OR_RETURN(int64_t block_size, ctx.IntAttr("block_size", default_block_size));
  if (block_size <= 0) {
    return AttrError("block_size", StrCat("expected > 0, got ", block_size));
  }
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, 1));
  OI_RETURN_IF_ERROR(RequireRank(ctx, 1, {2}));
  OI_RETURN_IF_ERROR(RequireRank(ctx, 2, {2}));
  OI_RETURN_IF_ERROR(RequireRank(ctx, bias, {1}));
  const Dim n = InputDim(ctx, 1, 0);
  const Shape* a = ShapeOf(ctx, 0);
  Dim k = Dim::Const(values_per_byte) * InputDim(ctx, 1, 1);
  const std::string k_what =
      StrCat(values_per_byte == 1 ? "" : "2 * ", InputLabel(ctx, 1), " dim 1 (K)");
  std::vector<DimRule> rules;
  if (a) {
    rules.push_back({0, a->size() - 1, k, k_what});
    if (k.is_unknown()) k = a->back();
  }
  const std::string n_what = StrCat(InputLabel(ctx, 1), " dim 0 (N)");
  rules.push_back({2, 0, n, n_what});
  rules.push_back({2, 1, Dim::CeilDiv(k, Dim::Const(block_size)),
                   StrCat("ceil(K / block_size) (block_size = ", block_size, ")")});
  rules.push_back({bias, 0, n, n_what});
  OI_RETURN_IF_ERROR(CheckDims(ctx, rules));
  SetProjection(ctx, 0, 0, n);
  return OkStatus();
}

Status InferMatMulBlockQuantizedFp4Weight(InferenceContext& ctx) {
  return InferBlockQuantizedMatMul(ctx, 2, 5, 16);
}

Status InferMatMulBlockQuantizedFp8Weight(InferenceContext& ctx) {
  return InferBlockQuantizedMatMul(ctx, 1, 4, 128);
}

// ---- GatherBlockQuantized.

bool IsFloat8Or4(int32_t t) {
  return t == kFloat8e4m3fn || t == kFloat8e4m3fnuz || t == kFloat8e5m2 || t == kFloat8e5m2fnuz ||
         t == kFloat4e2m1;
}

// GatherBlockQuantized (data, indices, scales, zero_points): a Gather of data along
// gather_axis, dequantized: data's dims before the axis, the indices' dims, data's dims
// after it (rank q + r - 1), in the scales' type. For uint8 data with bits < 8 each byte
// holds 8 / bits values along the last dim; the document says only that they are packed
// there, and the output being dequantized values, its last dim counts values: data's last
// dim * 8 / bits, which is what onnxruntime allocates. When data's element type is not
// known, whether it is packed is not either, and that dim stays unknown.
// scales has data's rank: on quantize_axis ceil(values / block_size) blocks, elsewhere
// data's dims (or 1, broadcast, for FP8/FP4 data, whose block_size 0 means one block).
// zero_points has the scales' shape, but holds 8 / bits blocks a byte on quantize_axis.
// Attribute defaults are the kernel's: gather_axis 0, quantize_axis 1, block_size 128,
// bits 4.
Status InferGatherBlockQuantized(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(InputElemType(ctx, 2)));
  OI_ASSIGN_OR_RETURN(int64_t gather_axis, ctx.IntAttr("gather_axis", 0));
  OI_ASSIGN_OR_RETURN(int64_t quantize_axis, ctx.IntAttr("quantize_axis", 1));
  OI_ASSIGN_OR_RETURN(int64_t block_size, ctx.IntAttr("block_size", 128));
  OI_ASSIGN_OR_RETURN(int64_t bits, ctx.IntAttr("bits", 4));
  const int32_t data_type = InputElemType(ctx, 0);
  const bool fp = IsFloat8Or4(data_type);
  if (!fp && bits != 2 && bits != 4 && bits != 8) {
    return AttrError("bits", StrCat("expected 2, 4 or 8, got ", bits));
  }
  if (block_size < 0 || (block_size == 0 && !fp) ||
      (block_size > 0 && (block_size < 16 || !IsPowerOfTwo(block_size)))) {
    return AttrError("block_size", StrCat("expected a power of 2 >= 16", fp ? " or 0" : "",
                                          ", got ", block_size));
  }
  const Shape* data = ShapeOf(ctx, 0);
  if (!data) return OkStatus();
  const int64_t rank = static_cast<int64_t>(data->size());
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *data, 1));
  OI_ASSIGN_OR_RETURN(gather_axis,
                      ctx.NormalizeAxis(gather_axis, rank, Subject::Attribute("gather_axis")));
  OI_ASSIGN_OR_RETURN(quantize_axis,
                      ctx.NormalizeAxis(quantize_axis, rank, Subject::Attribute("quantize_axis")));
  // Values a stored element holds along the last dim: 0 when it is not known.
  int64_t per_element = 1;
  if (data_type == kUint8) {
    per_element = 8 / bits;
    if (gather_axis != 0) {
      return AttrError("gather_axis", StrCat("expected 0 for uint8 data, got ", gather_axis));
    }
    // onnxruntime's check: a gather along the packed axis would pick bytes, not values.
    if (quantize_axis == gather_axis) {
      return AttrError("quantize_axis",
                       StrCat("expected an axis other than ", "gather_axis 0 for uint8 data, got ",
                              quantize_axis));
    }
  } else if (data_type == 0 && bits != 8) {
    per_element = 0;
  }
  // The logical dims: data's, the last one unpacked.
  Shape values = *data;
  values.back() = per_element == 0 ? Dim() : values.back() * Dim::Const(per_element);

  if (const Shape* indices = ShapeOf(ctx, 1)) {
    Shape out(values.begin(), values.begin() + gather_axis);
    out.insert(out.end(), indices->begin(), indices->end());
    out.insert(out.end(), values.begin() + gather_axis + 1, values.end());
    // Gathering along the packed last dim would pick bytes, not values; leave it unknown.
    if (gather_axis == rank - 1 && per_element != 1 && !out.empty()) out.back() = Dim();
    ctx.SetOutputShape(0, std::move(out));
  }

  std::vector<DimRule> rules;
  if (const Shape* scales = ShapeOf(ctx, 2)) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 2, {static_cast<size_t>(rank)}));
    for (int64_t i = 0; i < rank; ++i) {
      if (i == quantize_axis) {
        const Dim blocks =
            block_size == 0 ? Dim::Const(1) : Dim::CeilDiv(values[i], Dim::Const(block_size));
        rules.push_back(
            {2, static_cast<size_t>(i), blocks,
             StrCat("ceil(values along quantize_axis ", i, " / block_size ", block_size, ")")});
      } else if (!(fp && (*scales)[i].const_value() == 1)) {
        rules.push_back(
            {2, static_cast<size_t>(i), values[i],
             StrCat(InputLabel(ctx, 0),
                    per_element != 1 && i == rank - 1 ? " values along dim " : " dim ", i)});
      }
    }
    if (ShapeOf(ctx, 3)) {
      OI_RETURN_IF_ERROR(RequireRank(ctx, 3, {static_cast<size_t>(rank)}));
      for (int64_t i = 0; i < rank; ++i) {
        Dim want = (*scales)[i];
        std::string what = StrCat(InputLabel(ctx, 2), " dim ", i);
        if (i == quantize_axis && per_element != 1) {
          want = per_element == 0 ? Dim() : Dim::CeilDiv(want, Dim::Const(per_element));
          what = StrCat("ceil(", what, " / (8 / bits))");
        }
        rules.push_back({3, static_cast<size_t>(i), want, what});
      }
    }
  }
  return CheckDims(ctx, rules);
}

// ---- Integer matmuls.

// numpy matmul of inputs a and b into output 0 of type `elem`; an optional bias is [N],
// B's last dim.
Status InferIntegerMatMul(InferenceContext& ctx, int a, int b, int bias, int32_t elem) {
  ctx.SetOutputType(0, Type::Tensor(elem));
  OI_RETURN_IF_ERROR(RequireRank(ctx, bias, {1}));
  const Shape* sa = ShapeOf(ctx, a);
  const Shape* sb = ShapeOf(ctx, b);
  if (sb && !sb->empty() && bias >= 0) {
    OI_RETURN_IF_ERROR(
        CheckDims(ctx, {{bias, 0, sb->back(), StrCat("the last dim of ", InputLabel(ctx, b))}}));
  }
  if (!sa || !sb) return OkStatus();
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, a, *sa, 1));
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, b, *sb, 1));
  OI_ASSIGN_OR_RETURN(Shape out, MatMulShape(*sa, *sb, &ctx));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// DynamicQuantizeMatMul (A, B, b_scale, b_zero_point, bias): float A times int8 B.
Status InferDynamicQuantizeMatMul(InferenceContext& ctx) {
  return InferIntegerMatMul(ctx, 0, 1, 4, InputElemType(ctx, 0));
}

// MatMulIntegerToFloat (A, B, a_scale, b_scale, a_zero_point, b_zero_point, bias): the
// output has the scales' type (T3).
Status InferMatMulIntegerToFloat(InferenceContext& ctx) {
  return InferIntegerMatMul(ctx, 0, 1, 6, InputElemType(ctx, 2));
}

// MatMulInteger16: uint32 when both operands are uint16, int32 when either is int16.
Status InferMatMulInteger16(InferenceContext& ctx) {
  const int32_t a = InputElemType(ctx, 0), b = InputElemType(ctx, 1);
  int32_t elem = 0;
  if (a == kInt16 || b == kInt16) {
    elem = kInt32;
  } else if (a == kUint16 && b == kUint16) {
    elem = kUint32;
  }
  return InferIntegerMatMul(ctx, 0, 1, -1, elem);
}

// Output 0 is the multidirectional broadcast of the listed inputs, in type `elem`.
Status InferBroadcastOf(InferenceContext& ctx, std::initializer_list<int> inputs, int32_t elem) {
  ctx.SetOutputType(0, Type::Tensor(elem));
  std::optional<Shape> out;
  for (int i : inputs) {
    const Shape* s = ShapeOf(ctx, i);
    if (!s) return OkStatus();
    if (!out) {
      out = *s;
      continue;
    }
    OI_ASSIGN_OR_RETURN(out, BroadcastShapes(*out, *s, &ctx));
  }
  if (out) ctx.SetOutputShape(0, std::move(*out));
  return OkStatus();
}

// MulInteger (A, A_zero_point, B, B_zero_point): int32 of the broadcast shape.
Status InferMulInteger(InferenceContext& ctx) { return InferBroadcastOf(ctx, {0, 2}, kInt32); }

// QGemm (A, a_scale, a_zero_point, B, b_scale, b_zero_point, C, y_scale, y_zero_point):
// Gemm's [M, N], C broadcasting unidirectionally. The output is quantized to y_zero_point's
// type when that is given, else float (onnxruntime writes float whenever y_zero_point is
// absent, y_scale or not).
Status InferQGemm(InferenceContext& ctx) {
  const bool quantized = ctx.NumInputs() > 8 && ctx.HasInput(8);
  ctx.SetOutputType(0, Type::Tensor(quantized ? InputElemType(ctx, 8) : kFloat));
  OI_ASSIGN_OR_RETURN(Shape out, GemmOutputShape(ctx, 0, 3, 6, /*exact_c=*/false));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ---- QLinear* (quantized operands with per-tensor scales and zero points).

// QLinearAdd, QLinearMul (A, A_scale, A_zero_point, B, B_scale, B_zero_point, C_scale,
// C_zero_point): the broadcast of A and B, in A's type.
Status InferQLinearBinary(InferenceContext& ctx) {
  return InferBroadcastOf(ctx, {0, 3}, InputElemType(ctx, 0));
}

// QLinearWhere (condition, X, x_scale, x_zero_point, Y, y_scale, y_zero_point, z_scale,
// z_zero_point): the broadcast of condition, X and Y, in X's type.
Status InferQLinearWhere(InferenceContext& ctx) {
  return InferBroadcastOf(ctx, {0, 1, 4}, InputElemType(ctx, 1));
}

// QLinearLeakyRelu, QLinearSigmoid, QOrderedGelu, QOrderedLayerNormalization,
// QuantizeWithOrder's int8: elementwise, X's shape (the cublasLt order changes the layout in
// memory, not the shape).
Status InferSameShape(InferenceContext& ctx) {
  SetLike(ctx, 0, 0, InputElemType(ctx, 0));
  return OkStatus();
}

// QLinearSoftmax: X's shape. `axis` (default -1) names one of its dims; with `opset` < 13
// the input is coerced to 2-D at axis, where axis = rank is allowed.
Status InferQLinearSoftmax(InferenceContext& ctx) {
  SetLike(ctx, 0, 0, InputElemType(ctx, 0));
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", -1));
  OI_ASSIGN_OR_RETURN(int64_t opset, ctx.IntAttr("opset", 13));
  const Shape* x = ShapeOf(ctx, 0);
  if (!x) return OkStatus();
  const int64_t rank = static_cast<int64_t>(x->size());
  return ctx.NormalizeAxis(axis, opset < 13 ? rank + 1 : rank, Subject::Attribute("axis")).status();
}

// QLinearConv (x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point,
// B): Conv's output in y_zero_point's type. With channels_last, x is [N, D1, ..., C] and y
// [N, out1, ..., M] while w keeps its [M, C/group, k1, ...] layout, as onnxruntime's kernel
// reads it.
Status InferQLinearConv(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(InputElemType(ctx, 7)));
  OI_ASSIGN_OR_RETURN(int64_t channels_last, ctx.IntAttr("channels_last", 0));
  OI_ASSIGN_OR_RETURN(Shape out, ConvOutputShape(ctx, 0, 3, 8, channels_last != 0));
  if (!out.empty()) ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// QLinearAveragePool (X, x_scale, x_zero_point, y_scale, y_zero_point): AveragePool's
// output (floor, or ceil with ceil_mode), channels last with channels_last.
Status InferQLinearAveragePool(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t channels_last, ctx.IntAttr("channels_last", 0));
  OI_ASSIGN_OR_RETURN(Shape out, PoolOutputShape(ctx, 0, channels_last != 0));
  if (!out.empty()) ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// QLinearGlobalAveragePool: X's shape with every spatial dim 1 (N and C kept): [N, C, 1, ...],
// or [N, 1, ..., C] with channels_last.
Status InferQLinearGlobalAveragePool(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t channels_last, ctx.IntAttr("channels_last", 0));
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, 2));
  const Shape* x = ShapeOf(ctx, 0);
  if (!x) return OkStatus();
  Shape out = *x;
  const size_t first = channels_last ? 1 : 2, end = channels_last ? x->size() - 1 : x->size();
  for (size_t i = first; i < end; ++i) out[i] = Dim::Const(1);
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// QLinearConcat (Y_scale, Y_zero_point, then a (tensor, scale, zero point) triple per
// input): the tensors concatenated along `axis`, in Y_zero_point's type.
Status InferQLinearConcat(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(InputElemType(ctx, 1)));
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis"));
  if ((ctx.NumInputs() - 2) % 3 != 0) {
    return RuleError(DiagCode::kSignature,
                     StrCat("expected Y_scale, Y_zero_point and (tensor, scale, zero point) ",
                            "triples, got ", ctx.NumInputs(), " inputs"));
  }
  std::vector<int> tensors;
  for (int i = 2; i < ctx.NumInputs(); i += 3) tensors.push_back(i);
  OI_ASSIGN_OR_RETURN(std::optional<Shape> out, ConcatOutputShape(ctx, tensors, axis));
  if (out) ctx.SetOutputShape(0, std::move(*out));
  return OkStatus();
}

// QLinearReduceMean (data, data_scale, data_zero_point, reduced_scale, reduced_zero_point):
// ReduceMean over the `axes` attribute (empty: all), keepdims default 1, in data's type.
Status InferQLinearReduceMean(InferenceContext& ctx) { return InferReduceWithAxesAttribute(ctx); }

// ReduceSumInteger: the same reduction; int8 sums to int32, uint8 to uint32.
Status InferReduceSumInteger(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(InferReduceWithAxesAttribute(ctx));
  const int32_t in = InputElemType(ctx, 0);
  Type out = ctx.OutputType(0);
  out.set_elem_type(in == kInt8 ? kInt32 : in == kUint8 ? kUint32 : 0);
  ctx.SetOutputType(0, std::move(out));
  return OkStatus();
}

// ---- Quantize / dequantize.

// com.microsoft's QuantizeLinear and DequantizeLinear are ai.onnx's of version 19 in shape:
// a per-tensor scale, or a 1-D per-axis one along `axis` (onnxruntime's kernel, shared with
// ai.onnx's, takes axis 1 when the attribute is absent); y is x's shape. QuantizeLinear's y
// has the zero point's type (uint8 without one), DequantizeLinear's the scale's (T2).
Status InferQuantizeLinear(InferenceContext& ctx) { return InferQuantizeLinearAsVersion(ctx, 19); }
Status InferDequantizeLinear(InferenceContext& ctx) {
  return InferDequantizeLinearAsVersion(ctx, 19);
}

// QuantizeWithOrder: int8 of the input's shape.
Status InferQuantizeWithOrder(InferenceContext& ctx) {
  SetLike(ctx, 0, 0, kInt8);
  return OkStatus();
}

// DequantizeWithOrder: the input's shape in the type `to` names (float or float16).
Status InferDequantizeWithOrder(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t to, ctx.IntAttr("to"));
  if (to != kFloat && to != kFloat16) {
    return AttrError("to", StrCat("expected 1 (float) or 10 (float16), got ", to));
  }
  SetLike(ctx, 0, 0, static_cast<int32_t>(to));
  return OkStatus();
}

// QOrderedMatMul (A, scale_A, B, scale_B, scale_Y, bias, C, scale_C): A [..., M, K] times
// B [..., K, N] gives A's shape with its last dim N (onnxruntime's kernel takes A and B of
// rank 2 or 3, B's batch 1 or A's); bias is [N], C [..., M, N].
Status InferQOrderedMatMul(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  for (int i : {0, 2, 6}) OI_RETURN_IF_ERROR(RequireRank(ctx, i, {2, 3}));
  OI_RETURN_IF_ERROR(RequireRank(ctx, 5, {1}));
  const Shape* a = ShapeOf(ctx, 0);
  const Shape* b = ShapeOf(ctx, 2);
  const Dim n = b ? b->back() : Dim();
  const std::string n_what = StrCat("N (the last dim of ", InputLabel(ctx, 2), ")");
  std::vector<DimRule> rules = {{5, 0, n, n_what}};
  if (a && b) {
    rules.push_back(
        {2, b->size() - 2, a->back(), StrCat("K (the last dim of ", InputLabel(ctx, 0), ")")});
  }
  if (const Shape* c = ShapeOf(ctx, 6)) {
    rules.push_back({6, c->size() - 1, n, n_what});
    if (a) {
      rules.push_back({6, c->size() - 2, (*a)[a->size() - 2],
                       StrCat(InputLabel(ctx, 0), " dim ", a->size() - 2, " (M)")});
    }
  }
  OI_RETURN_IF_ERROR(CheckDims(ctx, rules));
  if (a) ctx.SetOutputShape(0, WithLastDim(*a, n));
  return OkStatus();
}

// QuantizeBFP: y is the 1-D BFP byte stream (its length depends on bfp_type's encoding,
// which the document does not give); shape and strides are 1-D int64 of x's rank, and
// shape's value is x's dims.
Status InferQuantizeBFP(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(kUint8, Shape{Dim()}));
  const Shape* x = ShapeOf(ctx, 0);
  const std::optional<Shape> meta =
      x ? std::optional<Shape>(Shape{Dim::Const(static_cast<int64_t>(x->size()))}) : std::nullopt;
  for (int o = 1; o < 3 && o < ctx.NumOutputs(); ++o)
    ctx.SetOutputType(o, Type::Tensor(kInt64, meta));
  if (x && ctx.NumOutputs() > 1 && static_cast<int64_t>(x->size()) <= ctx.max_value_elements()) {
    bool known = true;
    for (Dim d : *x) known = known && !d.is_unknown();
    if (known) {
      ctx.SetOutputValue(1, ConstValue{kInt64, {static_cast<int64_t>(x->size())}, *x, {}});
    }
  }
  return OkStatus();
}

// DequantizeBFP (x, shape, strides): y has the dims of shape's value, in the type `dtype`
// names (default float); without the value, shape's length still gives y's rank.
Status InferDequantizeBFP(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", kFloat));
  if (dtype != kFloat && dtype != kFloat16 && dtype != kBfloat16) {
    return AttrError("dtype",
                     StrCat("expected 1 (float), 10 (float16) or 16 (bfloat16), got ", dtype));
  }
  ctx.SetOutputType(0, Type::Tensor(static_cast<int32_t>(dtype)));
  if (const std::vector<Dim>* v = IntValues(ctx, 1)) {
    ctx.SetOutputShape(0, Shape(v->begin(), v->end()));
  } else if (Dim len = InputDim(ctx, 1, 0); len.is_const() && ShapeOf(ctx, 1)->size() == 1) {
    ctx.SetOutputShape(0, Shape(*len.const_value()));
  }
  return OkStatus();
}

// ---- DynamicQuantizeLSTM.

// An LSTM whose W and R are 8-bit and stored transposed from ai.onnx's:
//   X [seq_length, batch_size, input_size]    W [num_directions, input_size, 4*hidden]
//   R [num_directions, hidden, 4*hidden]      B [num_directions, 8*hidden]
//   sequence_lens [batch_size]   initial_h, initial_c [num_directions, batch_size, hidden]
//   P [num_directions, 3*hidden]
//   Y [seq_length, num_directions, batch_size, hidden]; Y_h, Y_c [num_directions, batch_size,
//   hidden], all float.
// hidden_size is the attribute's, else R's dim 1, else initial_h's dim 2, else W's dim 2 / 4.
Status InferDynamicQuantizeLSTM(InferenceContext& ctx) {
  enum { kX, kW, kR, kB, kSeqLens, kInitialH, kInitialC, kP };
  OI_ASSIGN_OR_RETURN(std::string direction, ctx.StringAttr("direction", "forward"));
  int64_t num_directions = 0;
  if (direction == "forward" || direction == "reverse") {
    num_directions = 1;
  } else if (direction == "bidirectional") {
    num_directions = 2;
  } else {
    return AttrError("direction",
                     StrCat("expected forward, reverse or bidirectional, got '", direction, "'"));
  }
  for (int i : {kX, kW, kR, kInitialH, kInitialC}) OI_RETURN_IF_ERROR(RequireRank(ctx, i, {3}));
  for (int i : {kB, kP}) OI_RETURN_IF_ERROR(RequireRank(ctx, i, {2}));
  OI_RETURN_IF_ERROR(RequireRank(ctx, kSeqLens, {1}));
  Dim hidden;
  std::string hidden_what = "hidden_size";
  if (ctx.HasAttr("hidden_size")) {
    OI_ASSIGN_OR_RETURN(int64_t h, PositiveAttr(ctx, "hidden_size"));
    hidden = Dim::Const(h);
    hidden_what = "attribute hidden_size";
  }
  if (hidden.is_unknown()) hidden = InputDim(ctx, kR, 1);
  if (hidden.is_unknown()) hidden = InputDim(ctx, kInitialH, 2);
  if (hidden.is_unknown()) {
    const Dim w = InputDim(ctx, kW, 2);
    if (Dim::Mod(w, Dim::Const(4)).const_value() == 0) hidden = Dim::FloorDiv(w, Dim::Const(4));
  }
  const Dim dirs = Dim::Const(num_directions);
  const Dim seq = InputDim(ctx, kX, 0), input_size = InputDim(ctx, kX, 2);
  Dim batch = InputDim(ctx, kX, 1);
  const std::string dirs_what = StrCat("num_directions (direction '", direction, "')");
  const std::string batch_what = StrCat(InputLabel(ctx, kX), " dim 1 (batch_size)");
  std::vector<DimRule> rules = {
      {kW, 1, input_size, StrCat(InputLabel(ctx, kX), " dim 2 (input_size)")},
      {kW, 2, Dim::Const(4) * hidden, "4 * " + hidden_what},
      {kR, 1, hidden, hidden_what},
      {kR, 2, Dim::Const(4) * hidden, "4 * " + hidden_what},
      {kB, 1, Dim::Const(8) * hidden, "8 * " + hidden_what},
      {kP, 1, Dim::Const(3) * hidden, "3 * " + hidden_what},
      {kSeqLens, 0, batch, batch_what},
  };
  for (int i : {kW, kR, kB, kP, kInitialH, kInitialC}) rules.push_back({i, 0, dirs, dirs_what});
  for (int i : {kInitialH, kInitialC}) {
    rules.push_back({i, 1, batch, batch_what});
    rules.push_back({i, 2, hidden, hidden_what});
  }
  OI_RETURN_IF_ERROR(CheckDims(ctx, rules));
  if (batch.is_unknown()) batch = InputDim(ctx, kInitialH, 1);
  if (batch.is_unknown()) batch = InputDim(ctx, kSeqLens, 0);
  const Shape y = {seq, dirs, batch, hidden}, state = {dirs, batch, hidden};
  for (int o = 0; o < 3 && o < ctx.NumOutputs(); ++o) {
    if (!ctx.HasOutput(o)) continue;
    ctx.SetOutputType(o, Type::Tensor(InputElemType(ctx, kX), o == 0 ? y : state));
  }
  return OkStatus();
}

// ---- Mixtures of experts.

// The expert weights, by input index (-1: the operator has none).
struct MoEInputs {
  int fc1 = 2, fc1_bias = -1, fc2 = -1, fc2_bias = -1, fc3 = -1, fc3_bias = -1;
  int fc1_scales = -1, fc2_scales = -1, fc3_scales = -1;
};

// The dims rules of one weight layout. `legacy`: the layout onnxruntime still accepts from
// older exports (and that CUDA's prepacked QMoE weights have), fc1 [E, hidden, f*inter/pack],
// fc2 [E, inter, hidden/pack], fc3 [E, hidden, inter/pack]; otherwise the document's
// fc1 [E, f*inter, hidden/pack], fc2 [E, hidden, inter/pack], fc3 [E, inter, hidden/pack].
// inter_size comes from fc2. Biases are [E, f*inter], [E, hidden], [E, inter] either way;
// with `scale_block` > 0 the scales are [E, rows, ceil(columns / scale_block)], with 0
// [E, rows], and with -1 not checked.
std::vector<DimRule> ExpertRules(const InferenceContext& ctx, const MoEInputs& in, bool legacy,
                                 Dim hidden, int64_t fusion, int64_t pack, int64_t scale_block) {
  const Dim inter = legacy ? InputDim(ctx, in.fc2, 1) : InputDim(ctx, in.fc2, 2) * Dim::Const(pack);
  const Dim f_inter = Dim::Const(fusion) * inter;
  const std::string h = StrCat("hidden_size (the last dim of ", InputLabel(ctx, 0), ")");
  const std::string i = StrCat("inter_size (from ", InputLabel(ctx, in.fc2), ")");
  const std::string fi = fusion == 1 ? i : "2 * inter_size (fused swiglu)";
  std::vector<DimRule> rules;
  auto weight = [&](int input, Dim rows, const std::string& rows_what, Dim cols,
                    const std::string& cols_what) {
    if (input < 0) return;
    rules.push_back({input, 1, rows, rows_what});
    rules.push_back({input, 2, cols, cols_what, pack});
  };
  if (legacy) {
    weight(in.fc1, hidden, h, f_inter, fi);
    weight(in.fc2, inter, i, hidden, h);
    weight(in.fc3, hidden, h, inter, i);
  } else {
    weight(in.fc1, f_inter, fi, hidden, h);
    weight(in.fc2, hidden, h, inter, i);
    weight(in.fc3, inter, i, hidden, h);
  }
  auto bias = [&](int input, Dim rows, const std::string& what) {
    if (input >= 0) rules.push_back({input, 1, rows, what});
  };
  bias(in.fc1_bias, f_inter, fi);
  bias(in.fc2_bias, hidden, h);
  bias(in.fc3_bias, inter, i);
  auto scales = [&](int input, Dim rows, const std::string& rows_what, Dim cols,
                    const std::string& cols_what) {
    if (input < 0 || scale_block < 0 || !ShapeOf(ctx, input)) return;
    rules.push_back({input, 1, rows, rows_what});
    if (scale_block > 0 && ShapeOf(ctx, input)->size() == 3) {
      rules.push_back({input, 2, Dim::CeilDiv(cols, Dim::Const(scale_block)),
                       StrCat("ceil(", cols_what, " / block_size ", scale_block, ")")});
    }
  };
  scales(in.fc1_scales, f_inter, fi, hidden, h);
  scales(in.fc2_scales, hidden, h, inter, i);
  scales(in.fc3_scales, inter, i, hidden, h);
  return rules;
}

// MoE and QMoE: the output has the input's shape, (num_tokens, hidden) or (batch, seq,
// hidden). router_probs is [num_tokens, num_experts] with num_tokens the product of the
// input's leading dims, and every expert tensor has num_experts first. The weights fit the
// document's layout or the legacy one (ExpertRules); an error only when they fit neither.
// fusion_size is 2 when the activation is swiglu and FC1 carries both GEMMs, i.e. when fc3 is
// absent (onnxruntime treats swiglu_fusion = 0 without fc3 as fused, for older exports).
Status InferMixtureOfExperts(InferenceContext& ctx, const MoEInputs& in, int64_t pack,
                             int64_t scale_block) {
  SetLike(ctx, 0, 0, InputElemType(ctx, 0));
  OI_ASSIGN_OR_RETURN(std::string activation, ctx.StringAttr("activation_type", "relu"));
  const bool has_fc3 = in.fc3 >= 0 && ctx.HasInput(in.fc3);
  const int64_t fusion = activation == "swiglu" && !has_fc3 ? 2 : 1;
  OI_RETURN_IF_ERROR(RequireRank(ctx, 0, {2, 3}));
  OI_RETURN_IF_ERROR(RequireRank(ctx, 1, {2}));
  for (int i : {in.fc1, in.fc2, in.fc3}) {
    if (i >= 0) OI_RETURN_IF_ERROR(RequireRank(ctx, i, {3}));
  }
  for (int i : {in.fc1_bias, in.fc2_bias, in.fc3_bias}) {
    if (i >= 0) OI_RETURN_IF_ERROR(RequireRank(ctx, i, {2}));
  }
  for (int i : {in.fc1_scales, in.fc2_scales, in.fc3_scales}) {
    if (i >= 0) OI_RETURN_IF_ERROR(RequireRank(ctx, i, {2, 3}));
  }
  const Shape* x = ShapeOf(ctx, 0);
  const Dim hidden = x ? x->back() : Dim();
  Dim experts = InputDim(ctx, 1, 1);
  const int experts_from = experts.is_unknown() ? in.fc1 : 1;
  if (experts.is_unknown()) experts = InputDim(ctx, in.fc1, 0);
  const std::string e_what =
      StrCat(InputLabel(ctx, experts_from), " dim ", experts_from == 1 ? 1 : 0, " (num_experts)");
  std::vector<DimRule> common;
  if (x) {
    common.push_back(
        {1, 0, Product(Shape(x->begin(), x->end() - 1)),
         StrCat("the number of tokens (the leading dims of ", InputLabel(ctx, 0), ")")});
  }
  for (int i : {in.fc1, in.fc1_bias, in.fc2, in.fc2_bias, in.fc3, in.fc3_bias, in.fc1_scales,
                in.fc2_scales, in.fc3_scales}) {
    if (i >= 0) common.push_back({i, 0, experts, e_what});
  }
  OI_RETURN_IF_ERROR(CheckDims(ctx, common));

  const std::vector<DimRule> doc = ExpertRules(ctx, in, false, hidden, fusion, pack, scale_block);
  const std::vector<DimRule> legacy = ExpertRules(ctx, in, true, hidden, fusion, pack, scale_block);
  std::optional<std::string> doc_violation, legacy_violation;
  int doc_input = -1;  // the input the first violation is about
  for (const DimRule& r : doc) {
    if (!doc_violation && (doc_violation = Violation(ctx, r))) doc_input = r.input;
  }
  for (const DimRule& r : legacy) {
    if (!legacy_violation) legacy_violation = Violation(ctx, r);
  }
  if (doc_violation && legacy_violation) {
    return RuleError(DiagCode::kInputDims,
                     StrCat(*doc_violation,
                            " (nor do the weights fit the legacy layout: ", *legacy_violation, ")"),
                     InputSubject(ctx, doc_input));
  }
  // Facts only from the one layout that fits.
  if (doc_violation || legacy_violation) {
    for (const DimRule& r : doc_violation ? legacy : doc) OI_RETURN_IF_ERROR(Record(ctx, r));
  }
  return OkStatus();
}

// MoE (input, router_probs, fc1_experts_weights, fc1_experts_bias, fc2_experts_weights,
// fc2_experts_bias, fc3_experts_weights, fc3_experts_bias): unquantized weights.
Status InferMoE(InferenceContext& ctx) {
  MoEInputs in;
  in.fc1_bias = 3;
  in.fc2 = 4;
  in.fc2_bias = 5;
  in.fc3 = 6;
  in.fc3_bias = 7;
  return InferMixtureOfExperts(ctx, in, 1, -1);
}

// QMoE (input, router_probs, fc1_experts_weights, fc1_scales, fc1_experts_bias,
// fc2_experts_weights, fc2_scales, fc2_experts_bias, fc3_experts_weights, fc3_scales,
// fc3_experts_bias, zero points, router_weights, global and activation scales): the weights'
// last dim packs pack_size values a byte: 8 / expert_weight_bits for quant_type 'int', 2 for
// the FP4 types ('fp4', 'nvfp4', 'wfp4afp8'), 1 for 'fp8'. The scales are [E, rows] or, with
// block_size, [E, rows, ceil(columns / block_size)] for 'int'; [E, rows, columns / 32] for
// 'fp4' and 'wfp4afp8', / 16 for 'nvfp4'; 'fp8' has none.
Status InferQMoE(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::string quant_type, ctx.StringAttr("quant_type", "int"));
  OI_ASSIGN_OR_RETURN(int64_t bits, ctx.IntAttr("expert_weight_bits", 4));
  OI_ASSIGN_OR_RETURN(int64_t block_size, ctx.IntAttr("block_size", 0));
  int64_t pack = 0, scale_block = -1;
  if (quant_type == "int") {
    if (bits != 2 && bits != 4 && bits != 8) {
      return AttrError("expert_weight_bits", StrCat("expected 2, 4 or 8, got ", bits));
    }
    pack = 8 / bits;
    scale_block = block_size;
  } else if (quant_type == "fp4" || quant_type == "wfp4afp8" || quant_type == "nvfp4") {
    pack = 2;
    scale_block = quant_type == "nvfp4" ? 16 : 32;
  } else if (quant_type == "fp8") {
    pack = 1;
  } else {
    return AttrError("quant_type", StrCat("expected 'int', 'fp4', 'nvfp4', 'fp8' ",
                                          "or 'wfp4afp8', got '", quant_type, "'"));
  }
  MoEInputs in;
  in.fc1_scales = 3;
  in.fc1_bias = 4;
  in.fc2 = 5;
  in.fc2_scales = 6;
  in.fc2_bias = 7;
  in.fc3 = 8;
  in.fc3_scales = 9;
  in.fc3_bias = 10;
  return InferMixtureOfExperts(ctx, in, pack, scale_block);
}

}  // namespace

Status RegisterComMicrosoftQuantizationRules(SchemaRegistry& r) {
  const struct {
    const char* name;
    InferenceRule rule;
  } kRules[] = {
      {"MatMulNBits", InferMatMulNBits},
      {"MatMulNBitsMlp", InferMatMulNBitsMlp},
      {"MatMulNBitsQkv", InferMatMulNBitsQkv},
      {"MatMulBnb4", InferMatMulBnb4},
      {"MatMulFpQ4", InferMatMulFpQ4},
      {"MatMulBlockQuantizedFp4Weight", InferMatMulBlockQuantizedFp4Weight},
      {"MatMulBlockQuantizedFp8Weight", InferMatMulBlockQuantizedFp8Weight},
      {"GatherBlockQuantized", InferGatherBlockQuantized},
      {"DynamicQuantizeMatMul", InferDynamicQuantizeMatMul},
      {"MatMulIntegerToFloat", InferMatMulIntegerToFloat},
      {"MatMulInteger16", InferMatMulInteger16},
      {"MulInteger", InferMulInteger},
      {"QGemm", InferQGemm},
      {"QLinearAdd", InferQLinearBinary},
      {"QLinearMul", InferQLinearBinary},
      {"QLinearAveragePool", InferQLinearAveragePool},
      {"QLinearConcat", InferQLinearConcat},
      {"QLinearConv", InferQLinearConv},
      {"QLinearGlobalAveragePool", InferQLinearGlobalAveragePool},
      {"QLinearLeakyRelu", InferSameShape},
      {"QLinearSigmoid", InferSameShape},
      {"QLinearSoftmax", InferQLinearSoftmax},
      {"QLinearReduceMean", InferQLinearReduceMean},
      {"QLinearWhere", InferQLinearWhere},
      {"QuantizeLinear", InferQuantizeLinear},
      {"DequantizeLinear", InferDequantizeLinear},
      {"QuantizeWithOrder", InferQuantizeWithOrder},
      {"DequantizeWithOrder", InferDequantizeWithOrder},
      {"QOrderedGelu", InferSameShape},
      {"QOrderedLayerNormalization", InferSameShape},
      {"QOrderedMatMul", InferQOrderedMatMul},
      {"QuantizeBFP", InferQuantizeBFP},
      {"DequantizeBFP", InferDequantizeBFP},
      {"DynamicQuantizeLSTM", InferDynamicQuantizeLSTM},
      {"ReduceSumInteger", InferReduceSumInteger},
      {"MoE", InferMoE},
      {"QMoE", InferQMoE},
  };
  for (const auto& [name, rule] : kRules)
    OI_RETURN_IF_ERROR(r.AttachRule(kDomain, name, {1}, rule));
  return OkStatus();
}

}  // namespace onnx_infer
