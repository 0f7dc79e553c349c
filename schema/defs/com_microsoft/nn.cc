// onnxruntime's contrib operators (domain com.microsoft) for normalization, activations and
// fused matmul/Gemm/convolution, and onnxruntime's default-domain LayerNormalization-1 and
// SimplifiedLayerNormalization-1. Semantics come from ContribOperators.md; where it is silent
// about a shape, the comment says what onnxruntime's kernel allocates.
//
// Fused operators reuse the ai.onnx shape computations (MatMulShape, GemmOutputShape,
// ConvOutputShape, PoolOutputShape, ConvTransposeOutputShape) and the ai.onnx
// LayerNormalization rule itself.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/ai_onnx/math/math.h"
#include "onnx_infer/schema/defs/ai_onnx/nn/conv_pool.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

using symbolic::Tri;

constexpr const char* kMs = "com.microsoft";

// ---- Helpers.

// `acc` becomes the more specific of `acc` and `d`, which must be equal (recorded as a fact).
Status Unify(InferenceContext& ctx, Dim& acc, Dim d, const std::string& what) {
  OI_ASSIGN_OR_RETURN(acc, RequireEqualDims(ctx, acc, d, what));
  return OkStatus();
}

// Input `input`, when present, is a vector [len].
Status RequireVector(InferenceContext& ctx, int input, Dim& len, const std::string& len_name) {
  OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, input, {1}));
  if (!s) return OkStatus();
  return Unify(ctx, len, (*s)[0], StrCat(InputLabel(ctx, input), " dim 0 and ", len_name));
}

// Input `input`, when present, has the shape `shape` (`what` says whose); `shape` takes the
// more specific dims.
Status RequireShape(InferenceContext& ctx, int input, Shape& shape, const std::string& what) {
  const Shape* s = ctx.HasInput(input) ? ctx.InputShape(input) : nullptr;
  if (!s) return OkStatus();
  if (s->size() != shape.size()) {
    return InputError(
        ctx, input, DiagCode::kInputDims,
        StrCat("expected ", ShapeToString(shape), " (", what, "), got ", ShapeToString(*s)));
  }
  for (size_t i = 0; i < s->size(); ++i) {
    OI_RETURN_IF_ERROR(
        Unify(ctx, shape[i], (*s)[i], StrCat(InputLabel(ctx, input), " dim ", i, " and ", what)));
  }
  return OkStatus();
}

// Input `input`, when present, has input `of`'s shape `shape`.
Status RequireSameShape(InferenceContext& ctx, int input, Shape& shape, int of) {
  return RequireShape(ctx, input, shape, StrCat("the shape of ", InputLabel(ctx, of)));
}

// `d` is 1 (broadcast) or equals `target`; only a dim that cannot be 1 is unified.
Status OneOr(InferenceContext& ctx, Dim d, Dim& target, const std::string& what) {
  if (symbolic::Equal(d, Dim::Const(1)) != Tri::kFalse) return OkStatus();
  return Unify(ctx, target, d, what);
}

// The 32-bit words of a bit mask over every element of `shape`: [ceil(numel / 32)].
Shape BitmaskShape(const Shape& shape) { return {Dim::CeilDiv(Product(shape), Dim::Const(32))}; }

// ---- Layer normalizations.

// SkipLayerNormalization (input, skip, gamma, beta, bias) and SkipSimplifiedLayerNormalization
// (input, skip, gamma, bias): input is [batch, seq, hidden] or [tokens, hidden]; skip has
// input's shape, or for a 3-D input [1, seq, hidden] or [seq, hidden] (its last two dims are
// input's); gamma, beta and bias are [hidden]. output and input_skip_bias_sum (output 3) have
// input's shape and type (what onnxruntime's kernels allocate).
// mean and inv_std_var (outputs 1, 2) are U = float with input's dims and a last dim of 1
// ([B, S, 1], [T, 1]): the document gives them no shape, and onnxruntime 1.30's CPU kernel
// allocates that one (tools/verify_runtime/contrib_probe.py: input [2, 3, 8] gives mean
// [2, 3, 1], input [5, 8] gives [5, 1]).
Status InferSkipLayerNorm(InferenceContext& ctx, int beta_index, int bias_index) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 3);
  for (int out : {1, 2}) ctx.SetOutputType(out, Type::Tensor(kFloat));
  OI_ASSIGN_OR_RETURN(const Shape* input, RankedInput(ctx, 0, {2, 3}));
  OI_ASSIGN_OR_RETURN(const Shape* skip, RankedInput(ctx, 1, {2, 3}));
  std::optional<Shape> out;
  if (input) out = *input;
  if (input && skip) {
    if (skip->size() > input->size()) {
      return InputError(ctx, 1, DiagCode::kInputRank,
                        StrCat(ShapeToString(*skip), " has a higher rank than ", InputLabel(ctx, 0),
                               " ", ShapeToString(*input)));
    }
    for (size_t i = 1; i <= 2; ++i) {
      OI_RETURN_IF_ERROR(
          Unify(ctx, (*out)[out->size() - i], (*skip)[skip->size() - i],
                StrCat(InputLabel(ctx, 1), " and ", InputLabel(ctx, 0), " dim ", out->size() - i)));
    }
    // A 3-D skip's batch is input's or 1 (the document's three forms): one provably neither is
    // an error. It never fills input's batch, though: the output is allocated as input's shape,
    // and onnxruntime's CPU kernel also accepts a skip it can wrap around.
    if (skip->size() == 3) {
      const Dim sb = (*skip)[0], b = (*out)[0];
      if (symbolic::Equal(sb, Dim::Const(1)) == Tri::kFalse &&
          symbolic::Equal(sb, b) == Tri::kFalse) {
        return InputError(
            ctx, 1, DiagCode::kInputDims,
            StrCat("batch ", sb.ToString(), " is neither 1 nor input's batch ", b.ToString()));
      }
    }
  }
  Dim hidden = out ? out->back() : Dim();
  OI_RETURN_IF_ERROR(RequireVector(ctx, 2, hidden, "the hidden size"));
  OI_RETURN_IF_ERROR(RequireVector(ctx, beta_index, hidden, "the hidden size"));
  OI_RETURN_IF_ERROR(RequireVector(ctx, bias_index, hidden, "the hidden size"));
  if (!out) return OkStatus();
  out->back() = hidden;
  ctx.SetOutputShape(0, *out);
  ctx.SetOutputShape(3, *out);
  Shape stats = *out;
  stats.back() = Dim::Const(1);
  for (int i : {1, 2}) ctx.SetOutputShape(i, stats);
  return OkStatus();
}

Status InferSkipLayerNormalization(InferenceContext& ctx) { return InferSkipLayerNorm(ctx, 3, 4); }
Status InferSkipSimplifiedLayerNormalization(InferenceContext& ctx) {
  return InferSkipLayerNorm(ctx, -1, 3);
}

// onnxruntime's default-domain LayerNormalization-1 (X: T, Scale: V, B: V; Y: V; Mean and
// InvStdDev: stash_type) has LayerNormalization-17's shapes; Y takes Scale's element type.
// `ln17` is ai.onnx's LayerNormalization-17 rule.
//
// SimplifiedLayerNormalization-1 (RMS normalization: X, scale; Y of scale's type, inv_std_var of
// stash_type) lines up with it (no B, no Mean), so the same rule gives its shapes: inv_std_var
// keeps X's dims before `axis` and is 1 from `axis` on. That is what onnxruntime's kernel
// allocates (one statistic per normalized row); its schema inference sets only the dim at
// `axis` to 1, which differs for an axis other than the last. We follow the kernel.
Status InferLayerNormalization1(const InferenceRule& ln17, InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(ln17(ctx));
  Type y = Type::Tensor(InputElemType(ctx, 1));
  if (const Shape* x = ctx.InputShape(0)) y.set_shape(*x);
  ctx.SetOutputType(0, std::move(y));
  return OkStatus();
}

// ---- Embedding layer normalizations.

struct EmbedInputs {
  int input_ids, segment_ids, word, position, segment, gamma, beta, mask, position_ids;
};

// input_ids, segment_ids and mask are [batch, seq]; position_ids [batch or 1, seq]; the
// embeddings [rows, hidden]; gamma and beta [hidden].
Status EmbedShape(InferenceContext& ctx, const EmbedInputs& in, Dim& batch, Dim& seq, Dim& hidden) {
  for (int i : {in.input_ids, in.segment_ids, in.mask, in.position_ids}) {
    OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, {2}));
    if (!s) continue;
    if (i == in.position_ids) {
      OI_RETURN_IF_ERROR(
          OneOr(ctx, (*s)[0], batch, StrCat(InputLabel(ctx, i), " dim 0 and the batch")));
    } else {
      OI_RETURN_IF_ERROR(
          Unify(ctx, batch, (*s)[0], StrCat(InputLabel(ctx, i), " dim 0 and the batch")));
    }
    OI_RETURN_IF_ERROR(
        Unify(ctx, seq, (*s)[1], StrCat(InputLabel(ctx, i), " dim 1 and the sequence length")));
  }
  for (int i : {in.word, in.position, in.segment}) {
    OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, {2}));
    if (!s) continue;
    OI_RETURN_IF_ERROR(
        Unify(ctx, hidden, (*s)[1], StrCat(InputLabel(ctx, i), " dim 1 and the hidden size")));
  }
  OI_RETURN_IF_ERROR(RequireVector(ctx, in.gamma, hidden, "the hidden size"));
  return RequireVector(ctx, in.beta, hidden, "the hidden size");
}

// EmbedLayerNormalization: output [batch, seq, hidden] of the embeddings' type T; mask_index
// [batch] int32; embedding_sum (the sum of the embeddings before normalization) is
// [batch, seq, hidden] of type T, as the document says and onnxruntime's kernels allocate
// (onnxruntime's schema inference gives it input_ids' type instead, which is int32 and wrong
// for a sum of float embeddings). mask_index is allocated whether or not mask is given.
Status InferEmbedLayerNormalization(InferenceContext& ctx) {
  ctx.PropagateElemType(2, 0);
  ctx.SetOutputType(1, Type::Tensor(kInt32));
  ctx.PropagateElemType(2, 2);
  Dim batch, seq, hidden;
  OI_RETURN_IF_ERROR(EmbedShape(ctx, {0, 1, 2, 3, 4, 5, 6, 7, 8}, batch, seq, hidden));
  if (!ctx.InputShape(0)) return OkStatus();
  ctx.SetOutputShape(0, {batch, seq, hidden});
  ctx.SetOutputShape(1, {batch});
  ctx.SetOutputShape(2, {batch, seq, hidden});
  return OkStatus();
}

// QEmbedLayerNormalization: EmbedLayerNormalization over int8/uint8 embeddings with their
// scales (inputs 8-12) and zero points (13-17). layernorm_out is [batch, seq, hidden] of the
// scales' type T (float); mask_index_out [batch] int32 (what onnxruntime's kernel allocates;
// the document states no shapes). segment_ids, segment_embedding and its scale and zero point
// are given together or not at all.
Status InferQEmbedLayerNormalization(InferenceContext& ctx) {
  ctx.PropagateElemType(8, 0);
  ctx.SetOutputType(1, Type::Tensor(kInt32));
  const std::pair<int, const char*> segment_group[] = {{1, "segment_ids"},
                                                       {4, "segment_embedding"},
                                                       {10, "segment_embedding_scale"},
                                                       {15, "segment_embedding_zero_point"}};
  for (auto [i, name] : segment_group) {
    for (const auto& given : segment_group) {
      const int j = given.first;
      if (ctx.HasInput(i) || !ctx.HasInput(j)) continue;
      return RuleError(DiagCode::kInputCombination,
                       StrCat("input ", i, " (", name, ") is absent while ", InputLabel(ctx, j),
                              " is given: segment_ids, segment_embedding, "
                              "segment_embedding_scale and segment_embedding_zero_point come "
                              "together or not at all"),
                       Subject::Input(i));
    }
  }
  Dim batch, seq, hidden;
  OI_RETURN_IF_ERROR(EmbedShape(ctx, {0, 1, 2, 3, 4, 5, 6, 7, -1}, batch, seq, hidden));
  if (!ctx.InputShape(0)) return OkStatus();
  ctx.SetOutputShape(0, {batch, seq, hidden});
  ctx.SetOutputShape(1, {batch});
  return OkStatus();
}

// ---- Group normalizations.

// GroupNorm (X, gamma, beta) and SkipGroupNorm (X, gamma, beta, skip, bias): X is [N, H, W, C]
// (channels_last = 1, the default) or [N, C, H, W]; gamma, beta and bias are [C]; `groups`
// divides C. Y, and SkipGroupNorm's S (x + skip + bias), are X. skip is [N, H, W, C],
// [N, 1, 1, C] or [N, C] (the document gives these channels-last forms only).
Status InferGroupNorm(InferenceContext& ctx) {
  const bool with_skip = ctx.schema().name() == "SkipGroupNorm";
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 1);
  OI_ASSIGN_OR_RETURN(int64_t groups, ctx.IntAttr("groups"));
  OI_ASSIGN_OR_RETURN(int64_t channels_last, ctx.IntAttr("channels_last", 1));
  if (groups <= 0) {
    return AttrError("groups", StrCat("expected a positive count, got ", groups));
  }
  OI_ASSIGN_OR_RETURN(const Shape* x, RankedInput(ctx, 0, {4}));
  std::optional<Shape> out;
  if (x) out = *x;
  const size_t c_axis = channels_last ? 3 : 1;
  Dim channels = out ? (*out)[c_axis] : Dim();
  OI_RETURN_IF_ERROR(RequireVector(ctx, 1, channels, "X's channels"));
  OI_RETURN_IF_ERROR(RequireVector(ctx, 2, channels, "X's channels"));
  if (with_skip) {
    OI_RETURN_IF_ERROR(RequireVector(ctx, 4, channels, "X's channels"));
    OI_ASSIGN_OR_RETURN(const Shape* skip, RankedInput(ctx, 3, {2, 4}));
    if (skip && out && channels_last) {
      const std::string what =
          StrCat(InputLabel(ctx, 3), " ", ShapeToString(*skip), " and X ", ShapeToString(*out));
      OI_RETURN_IF_ERROR(Unify(ctx, (*out)[0], (*skip)[0], what + ", dim 0"));
      OI_RETURN_IF_ERROR(Unify(ctx, channels, skip->back(), what + ", channels"));
      if (skip->size() == 4) {
        for (size_t i : {1, 2}) {
          OI_RETURN_IF_ERROR(OneOr(ctx, (*skip)[i], (*out)[i], StrCat(what, ", dim ", i)));
        }
      }
    }
  }
  if (channels.is_const() && *channels.const_value() % groups != 0) {
    return InputError(
        ctx, 0, DiagCode::kInputDims,
        StrCat("channels ", channels.ToString(), " are not a multiple of groups = ", groups));
  }
  if (!out) return OkStatus();
  (*out)[c_axis] = channels;
  ctx.SetOutputShape(0, *out);
  ctx.SetOutputShape(1, *out);
  return OkStatus();
}

// GatedRMSNorm: X [..., H * C], scale [C], gate X's shape; Y is X. X's last dim must be a
// multiple of C.
Status InferGatedRMSNorm(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* x = ctx.InputShape(0);
  if (x) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *x, 1));
  Dim c;
  OI_RETURN_IF_ERROR(RequireVector(ctx, 1, c, "C"));
  if (!x) return OkStatus();
  Shape out = *x;
  OI_RETURN_IF_ERROR(RequireSameShape(ctx, 2, out, 0));
  const Dim last = out.back();
  if (last.is_const() && c.is_const() &&
      (*c.const_value() <= 0 || *last.const_value() % *c.const_value() != 0)) {
    return InputError(ctx, 0, DiagCode::kInputDims,
                      StrCat("last dim ", last.ToString(), " is not a multiple of C = ",
                             c.ToString(), " (the length of ", InputLabel(ctx, 1), ")"));
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ---- Activations and biases.

// BiasGelu (A, B) and FastGelu (X, optional bias): the output is input 0; the bias is a vector
// of input 0's last dim (what onnxruntime's kernels check).
Status InferBiasedActivation(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* x = ctx.InputShape(0);
  if (x) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *x, 1));
  Dim last = x ? x->back() : Dim();
  OI_RETURN_IF_ERROR(RequireVector(ctx, 1, last, StrCat("the last dim of ", InputLabel(ctx, 0))));
  if (!x) return OkStatus();
  Shape out = *x;
  out.back() = last;
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// BiasAdd: X [N, S, C] + bias [C] + skip [N, S, C]; Y is X.
Status InferBiasAdd(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* x, RankedInput(ctx, 0, {3}));
  OI_ASSIGN_OR_RETURN(const Shape* skip, RankedInput(ctx, 2, {3}));
  std::optional<Shape> out;
  if (x)
    out = *x;
  else if (skip)
    out = *skip;
  if (x && skip) OI_RETURN_IF_ERROR(RequireSameShape(ctx, 2, *out, 0));
  Dim c = out ? (*out)[2] : Dim();
  OI_RETURN_IF_ERROR(RequireVector(ctx, 1, c, "the channels"));
  if (!out) return OkStatus();
  (*out)[2] = c;
  ctx.SetOutputShape(0, std::move(*out));
  return OkStatus();
}

// BiasSplitGelu: X [N, S, D] + bias [D] is split in two halves along D; Y is [N, S, D / 2]. D
// must be even; a symbolic D gives floor(D / 2), exact for every valid D.
Status InferBiasSplitGelu(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* x, RankedInput(ctx, 0, {3}));
  Dim d = x ? (*x)[2] : Dim();
  OI_RETURN_IF_ERROR(RequireVector(ctx, 1, d, "X's dim 2"));
  if (d.is_const() && *d.const_value() % 2 != 0) {
    return InputError(
        ctx, 0, DiagCode::kInputDims,
        StrCat("hidden dim ", d.ToString(), " is odd; it is split into two equal halves"));
  }
  if (!x) return OkStatus();
  ctx.SetOutputShape(0, {(*x)[0], (*x)[1], Dim::FloorDiv(d, Dim::Const(2))});
  return OkStatus();
}

// BiasSoftmax: softmax(data + bias) over the dims from `axis` on; output is data. `axis`
// defaults to 1 in onnxruntime's schema (the document gives no default).
Status InferBiasSoftmax(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  const Shape* data = ctx.InputShape(0);
  if (!data) return OkStatus();
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 1));
  return ctx.NormalizeAxis(axis, static_cast<int64_t>(data->size()), Subject::Attribute("axis"))
      .status();
}

// BiasDropout and BitmaskBiasDropout (data, bias, residual, ratio, training_mode): output is
// data; bias is a vector of data's last dim or has data's shape; residual has data's shape.
// The mask (output 1) is bool of data's shape, or for the bitmask form the bit-packed uint32
// [ceil(numel / 32)] (see InferBitmaskDropout).
Status InferBiasDropout(InferenceContext& ctx) {
  const bool bitmask = ctx.schema().name() == "BitmaskBiasDropout";
  ctx.PropagateElemType(0, 0);
  ctx.SetOutputType(1, Type::Tensor(bitmask ? kUint32 : kBool));
  const Shape* data = ctx.InputShape(0);
  if (!data) return OkStatus();
  Shape out = *data;
  OI_RETURN_IF_ERROR(RequireSameShape(ctx, 2, out, 0));
  if (const Shape* bias = ctx.InputShape(1)) {
    if (bias->size() == 1 && out.size() != 1) {
      OI_RETURN_IF_ERROR(Unify(ctx, out.back(), (*bias)[0],
                               StrCat(InputLabel(ctx, 1), " dim 0 and data's last dim")));
    } else {
      OI_RETURN_IF_ERROR(RequireSameShape(ctx, 1, out, 0));
    }
  }
  ctx.SetOutputShape(1, bitmask ? BitmaskShape(out) : out);
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// BitmaskDropout: output is data; mask is "bit-packed uint32" (the document): onnxruntime's
// kernel allocates it 1-D with one 32-bit word per 32 elements of data, [ceil(numel / 32)].
Status InferBitmaskDropout(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  ctx.SetOutputType(1, Type::Tensor(kUint32));
  if (const Shape* data = ctx.InputShape(0)) ctx.SetOutputShape(1, BitmaskShape(*data));
  return OkStatus();
}

// GatedAdd: output = X + Y * gate with X and Y [..., C] and gate [..., 1]; output is X.
Status InferGatedAdd(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* x = ctx.InputShape(0);
  if (!x) return OkStatus();
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *x, 1));
  Shape out = *x;
  OI_RETURN_IF_ERROR(RequireSameShape(ctx, 1, out, 0));
  if (ctx.InputShape(2)) {
    Shape per_row = out;
    per_row.back() = Dim::Const(1);
    OI_RETURN_IF_ERROR(
        RequireShape(ctx, 2, per_row, StrCat("one value per row of ", InputLabel(ctx, 0))));
    for (size_t i = 0; i + 1 < out.size(); ++i) out[i] = per_row[i];
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ---- MatMul and Gemm.

// FusedMatMul, FusedMatMulActivation, TransposeMatMul: numpy matmul after transposing A and B.
// transBatchA moves A's first dim behind its other batch dims ([d0, d1, ..., dn-2, dn-1] ->
// [d1, ..., dn-2, d0, dn-1]); onnxruntime requires A and B of one rank >= 3 for it (likewise
// transBatchB). transA then swaps the last two dims; onnxruntime ignores it for a vector.
Status InferFusedMatMul(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t trans_a, ctx.IntAttr("transA", 0));
  OI_ASSIGN_OR_RETURN(int64_t trans_b, ctx.IntAttr("transB", 0));
  OI_ASSIGN_OR_RETURN(int64_t trans_batch_a, ctx.IntAttr("transBatchA", 0));
  OI_ASSIGN_OR_RETURN(int64_t trans_batch_b, ctx.IntAttr("transBatchB", 0));
  const Shape* a = ctx.InputShape(0);
  const Shape* b = ctx.InputShape(1);
  for (int i : {0, 1}) {
    const Shape* s = i == 0 ? a : b;
    if (s) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, i, *s, 1));
  }
  if ((trans_batch_a || trans_batch_b) && a && b && (a->size() != b->size() || a->size() < 3)) {
    return RuleError(DiagCode::kInputRank,
                     StrCat("transBatchA/transBatchB need A and B of one rank >= 3, got A ",
                            ShapeToString(*a), " and B ", ShapeToString(*b)));
  }
  if (!a || !b) return OkStatus();
  auto view = [](Shape s, bool trans, bool trans_batch) {
    if (trans_batch && s.size() >= 3) {
      const Dim first = s[0];
      s.erase(s.begin());
      s.insert(s.end() - 1, first);
    }
    if (trans && s.size() >= 2) std::swap(s[s.size() - 1], s[s.size() - 2]);
    return s;
  };
  OI_ASSIGN_OR_RETURN(Shape out, MatMulShape(view(*a, trans_a, trans_batch_a),
                                             view(*b, trans_b, trans_batch_b), &ctx));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// GemmFastGelu: FastGelu(MatMul(X, W) + bias), bias a vector of the output's last dim.
Status InferGemmFastGelu(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* x = ctx.InputShape(0);
  const Shape* w = ctx.InputShape(1);
  Dim n = w && !w->empty() ? w->back() : Dim();
  if (x && w) {
    OI_ASSIGN_OR_RETURN(Shape out, MatMulShape(*x, *w, &ctx));
    if (!out.empty() && w->size() > 1) {
      OI_RETURN_IF_ERROR(RequireVector(ctx, 2, n, "W's last dim"));
      out.back() = n;
    }
    ctx.SetOutputShape(0, std::move(out));
    return OkStatus();
  }
  return RequireVector(ctx, 2, n, "W's last dim");
}

// FusedGemm: Gemm (from 7: C broadcasts unidirectionally) followed by an activation.
Status InferFusedGemm(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(Shape out, GemmOutputShape(ctx, 0, 1, 2, /*exact_c=*/false));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// GemmFloat8: Y [M, N] as Gemm; its element type is attribute `dtype` (as Cast's `to`), else
// what the signature binds to TR.
Status InferGemmFloat8(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", 0));
  if (dtype < 0 || dtype > kMaxDataType) {
    return AttrError("dtype", StrCat("expected a data type, got ", dtype));
  }
  ctx.SetOutputType(0, Type::Tensor(static_cast<int32_t>(dtype)));
  OI_ASSIGN_OR_RETURN(Shape out, GemmOutputShape(ctx, 0, 1, 2, /*exact_c=*/false));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ---- Convolutions and pools.

// FusedConv (X, W, B, Z) and NhwcFusedConv: Conv, then Z (the same shape as Y, which
// onnxruntime's kernel checks and the NhwcFusedConv document states) is added. NhwcConv and
// NhwcFusedConv take X [N, D1, ..., C] and give Y [N, out1, ..., M]; W stays [M, C/group, k...].
Status InferFusedConv(InferenceContext& ctx) {
  const bool nhwc = ctx.schema().name() != "FusedConv";
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(Shape out, ConvOutputShape(ctx, 0, 1, 2, /*channels_last=*/nhwc));
  if (out.empty()) return OkStatus();
  if (ctx.NumInputs() > 3) OI_RETURN_IF_ERROR(RequireShape(ctx, 3, out, "the shape of Y"));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// NhwcMaxPool: MaxPool over x [N, D1, ..., C] giving [N, out1, ..., C]; MaxpoolWithMask: MaxPool
// of X [N, C, D1, ...] (the mask M selects the elements that take part) giving
// [N, C, out1, ...].
Status InferMsPool(InferenceContext& ctx) {
  const bool nhwc = ctx.schema().name() == "NhwcMaxPool";
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(Shape out, PoolOutputShape(ctx, 0, /*channels_last=*/nhwc));
  if (!out.empty()) ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ConvTransposeWithDynamicPads (X, W, Pads, B): ConvTranspose whose pads come from input Pads
// [2 * spatial rank] (int64) rather than an attribute. Spatial dims under explicit padding need
// its value; onnxruntime's kernel requires Pads (it reads it unconditionally) and applies it
// under VALID too, so without its value those dims stay unknown.
Status InferConvTransposeWithDynamicPads(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* pads_shape, RankedInput(ctx, 2, {1}));
  std::optional<std::vector<int64_t>> pads;
  if (ctx.HasInput(2)) pads = ConstInts(ctx, 2);
  const Shape* x = ctx.InputShape(0);
  if (x && x->size() >= 2) {
    const Dim expected = Dim::Const(2 * static_cast<int64_t>(x->size() - 2));
    if (pads_shape) {
      OI_RETURN_IF_ERROR(
          RequireEqualDims(ctx, (*pads_shape)[0], expected,
                           StrCat(InputLabel(ctx, 2), " length and 2 * X's spatial rank"),
                           InputSubject(ctx, 2))
              .status());
    }
    if (pads && static_cast<int64_t>(pads->size()) != *expected.const_value()) {
      return InputError(ctx, 2, DiagCode::kInputValue,
                        StrCat("expected ", expected.ToString(),
                               " values (2 * X's spatial rank), got ", pads->size()));
    }
  }
  OI_ASSIGN_OR_RETURN(Shape out, ConvTransposeOutputShape(ctx, 3, pads));
  if (!out.empty()) ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

}  // namespace

Status RegisterComMicrosoftNnRules(SchemaRegistry& r) {
  // Normalizations.
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "SkipLayerNormalization", {1}, InferSkipLayerNormalization));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "SkipSimplifiedLayerNormalization", {1},
                                  InferSkipSimplifiedLayerNormalization));
  OI_RETURN_IF_ERROR(
      r.AttachRule(kMs, "EmbedLayerNormalization", {1}, InferEmbedLayerNormalization));
  OI_RETURN_IF_ERROR(
      r.AttachRule(kMs, "QEmbedLayerNormalization", {1}, InferQEmbedLayerNormalization));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "GroupNorm", {1}, InferGroupNorm));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "SkipGroupNorm", {1}, InferGroupNorm));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "GatedRMSNorm", {1}, InferGatedRMSNorm));
  // ai.onnx's rules are attached before the contrib ones (builtin.cc).
  const OpSchema* ln17 = r.Lookup("", "LayerNormalization", 17);
  if (!ln17 || !ln17->has_rule()) {
    return RuleError(DiagCode::kNoRule,
                     "LayerNormalization-17 has no rule to build LayerNormalization-1 on");
  }
  auto ln1 = [rule = ln17->rule()](InferenceContext& ctx) {
    return InferLayerNormalization1(rule, ctx);
  };
  OI_RETURN_IF_ERROR(r.AttachRule("", "LayerNormalization", {1}, ln1));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SimplifiedLayerNormalization", {1}, ln1));
  // Activations, biases, dropouts.
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "BiasGelu", {1}, InferBiasedActivation));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "FastGelu", {1}, InferBiasedActivation));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "Gelu", {1}, InferSameAsInput));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "QuickGelu", {1}, InferSameAsInput));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "BiasAdd", {1}, InferBiasAdd));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "BiasSplitGelu", {1}, InferBiasSplitGelu));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "BiasSoftmax", {1}, InferBiasSoftmax));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "BiasDropout", {1}, InferBiasDropout));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "BitmaskBiasDropout", {1}, InferBiasDropout));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "BitmaskDropout", {1}, InferBitmaskDropout));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "GatedAdd", {1}, InferGatedAdd));
  // MatMul and Gemm.
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "FusedMatMul", {1}, InferFusedMatMul));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "FusedMatMulActivation", {1}, InferFusedMatMul));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "TransposeMatMul", {1}, InferFusedMatMul));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "GemmFastGelu", {1}, InferGemmFastGelu));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "FusedGemm", {1}, InferFusedGemm));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "GemmFloat8", {1}, InferGemmFloat8));
  // Convolutions and pools.
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "FusedConv", {1}, InferFusedConv));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "NhwcConv", {1}, InferFusedConv));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "NhwcFusedConv", {1}, InferFusedConv));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "NhwcMaxPool", {1}, InferMsPool));
  OI_RETURN_IF_ERROR(r.AttachRule(kMs, "MaxpoolWithMask", {1}, InferMsPool));
  OI_RETURN_IF_ERROR(
      r.AttachRule(kMs, "ConvTransposeWithDynamicPads", {1}, InferConvTransposeWithDynamicPads));
  return OkStatus();
}

}  // namespace onnx_infer
