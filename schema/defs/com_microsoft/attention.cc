// The attention and KV-cache family of com.microsoft (onnxruntime's contrib operators):
// Attention, MultiHeadAttention, GroupQueryAttention, the packed, sparse, paged, decoder,
// Longformer and quantized variants, the rotary embeddings, the relative position biases and
// RemovePadding/RestorePadding.
//
// Shapes follow ContribOperators.md; where it and onnxruntime's kernels disagree on a KV cache
// length, the rule gives what the runtime allocates and says so (docs/contrib-ops.md, "KV
// cache"). Dims stay symbolic (past_seq + seq, floor(hidden/heads)); the facts an operator
// implies (batch dims equal, head sizes agree) are recorded, as the ONNX Attention rule does.
//
// Notation in the comments: B batch, S query sequence, L key/value sequence, P past length
// (dim of the past buffer), N heads, Nkv key/value heads, H head size, D = N * H, Dv the value
// hidden size, T the total (past + new) length.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

constexpr char kDomain[] = "com.microsoft";

StatusOr<int64_t> PositiveIntAttr(const InferenceContext& ctx, const char* name) {
  OI_ASSIGN_OR_RETURN(int64_t v, ctx.IntAttr(name));
  if (v <= 0) {
    return AttrError(name, StrCat("expected a positive count, got ", v));
  }
  return v;
}

// total / parts for a dim that packs `parts` equal pieces (a hidden size of N heads): known
// operands must divide; a symbolic total gives floor(total / parts), exact wherever the model
// is valid. `parts_what` names the divisor in the error ("num_heads = 4").
StatusOr<Dim> Divide(const InferenceContext& ctx, int input, Dim total, Dim parts,
                     const std::string& parts_what) {
  if (total.is_const() && parts.is_const()) {
    const int64_t p = *parts.const_value();
    if (p <= 0 || *total.const_value() % p != 0) {
      return InputError(
          ctx, input, DiagCode::kInputDims,
          StrCat("hidden size ", total.ToString(), " is not a multiple of ", parts_what));
    }
  }
  return Dim::FloorDiv(total, parts);
}

// The value of a one-element integer input (a scalar or [1]) when the driver knows it:
// a constant, or a symbol carried from a Shape. Unknown otherwise.
Dim ScalarValue(const InferenceContext& ctx, int input) {
  if (!ctx.HasInput(input)) return Dim();
  const std::vector<Dim>* v = IntValues(ctx, input);
  if (!v || v->size() != 1) return Dim();
  return (*v)[0];
}

// The value of a bool (or integer) flag input when it is a known constant.
std::optional<bool> FlagValue(const InferenceContext& ctx, int input) {
  if (!ctx.HasInput(input)) return std::nullopt;
  auto v = ConstInts(ctx, input);
  if (!v || v->size() != 1) return std::nullopt;
  return (*v)[0] != 0;
}

// [B + 1] cumulative sequence lengths (packed and paged attention).
Status CheckCumulative(InferenceContext& ctx, int input, Dim batch) {
  OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, input, 1));
  if (!s) return OkStatus();
  Dim b1 = batch.is_unknown() ? Dim() : batch + Dim::Const(1);
  return Agree(ctx, b1, (*s)[0], StrCat(InputLabel(ctx, input), " length and batch + 1"),
               InputSubject(ctx, input));
}

// An additive bias of QxK' [B or 1, N or 1, S, T]: its sequence dims must be S and T.
Status CheckAttentionBias(InferenceContext& ctx, int input, Dim seq, Dim total) {
  OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, input, 4));
  if (!s) return OkStatus();
  OI_RETURN_IF_ERROR(Agree(ctx, seq, (*s)[2],
                           StrCat(InputLabel(ctx, input), " dim 2 and the query sequence length"),
                           InputSubject(ctx, input)));
  return Agree(ctx, total, (*s)[3],
               StrCat(InputLabel(ctx, input), " dim 3 and the total sequence length"),
               InputSubject(ctx, input));
}

// ---- Merged Q/K/V projections: Attention, PackedAttention, DecoderMaskedSelfAttention, ...

struct QkvHidden {
  Dim qk;  // D: Q's and K's hidden size
  Dim v;   // Dv
};

// The hidden sizes of a merged Q/K/V projection `width` wide (weights' dim 1, bias' dim 0):
// qkv_hidden_sizes (D, D, Dv) when the node gives it (each a multiple of num_heads, Q's equal
// to K's, summing to the width), else a third of the width each.
StatusOr<QkvHidden> MergedQkvHidden(InferenceContext& ctx, int weights_input, Dim width,
                                    int64_t heads) {
  if (ctx.HasAttr("qkv_hidden_sizes")) {
    OI_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ctx.IntsAttr("qkv_hidden_sizes"));
    if (sizes.size() != 3) {
      return AttrError("qkv_hidden_sizes", StrCat("expected 3 values, got ", sizes.size()));
    }
    for (int64_t s : sizes) {
      if (s <= 0 || s % heads != 0) {
        return AttrError("qkv_hidden_sizes",
                         StrCat(s, " is not a positive multiple of num_heads = ", heads));
      }
    }
    if (sizes[0] != sizes[1]) {
      return AttrError("qkv_hidden_sizes",
                       StrCat("Q's hidden size ", sizes[0], " differs from K's ", sizes[1]));
    }
    Dim sum = Dim::Const(sizes[0] + sizes[1] + sizes[2]);
    OI_RETURN_IF_ERROR(
        Agree(ctx, sum, width,
              StrCat("sum of qkv_hidden_sizes and ", InputLabel(ctx, weights_input), " width")));
    return QkvHidden{Dim::Const(sizes[0]), Dim::Const(sizes[2])};
  }
  if (width.is_const() && *width.const_value() % 3 != 0) {
    return InputError(ctx, weights_input, DiagCode::kInputDims,
                      StrCat("width ", width.ToString(),
                             " is not a multiple of 3 (Q, K and V of equal hidden size; "
                             "otherwise qkv_hidden_sizes is required)"));
  }
  const Dim third = Dim::FloorDiv(width, Dim::Const(3));
  return QkvHidden{third, third};
}

// input [B, S, Di] (or [T, Di] for the packed form), weights [Di, W], bias [W]: the input's
// dims and W.
struct MergedInputs {
  const Shape* input = nullptr;
  Dim width;
};

StatusOr<MergedInputs> ReadMergedInputs(InferenceContext& ctx, size_t input_rank) {
  MergedInputs m;
  OI_ASSIGN_OR_RETURN(m.input, RankedInput(ctx, 0, input_rank));
  OI_ASSIGN_OR_RETURN(const Shape* w, RankedInput(ctx, 1, 2));
  OI_ASSIGN_OR_RETURN(const Shape* bias, RankedInput(ctx, 2, 1));
  Dim in_hidden = m.input ? m.input->back() : Dim();
  if (w) {
    OI_RETURN_IF_ERROR(Agree(ctx, in_hidden, (*w)[0], "input hidden size of input and weights"));
    m.width = (*w)[1];
  }
  if (bias) OI_RETURN_IF_ERROR(Agree(ctx, m.width, (*bias)[0], "Q/K/V width of weights and bias"));
  return m;
}

// past [2, B, N, P, H] of the merged-projection attentions; P, or unknown without a shape.
StatusOr<Dim> ReadStackedPast(InferenceContext& ctx, int input, Dim& batch, Dim heads,
                              Dim& head_size) {
  OI_ASSIGN_OR_RETURN(const Shape* past, RankedInput(ctx, input, 5));
  if (!past) return Dim();
  Dim two = Dim::Const(2);
  OI_RETURN_IF_ERROR(Agree(ctx, two, (*past)[0],
                           StrCat(InputLabel(ctx, input), " dim 0 (key and value)"),
                           InputSubject(ctx, input)));
  OI_RETURN_IF_ERROR(
      Agree(ctx, batch, (*past)[1], StrCat("batch of input and ", InputLabel(ctx, input))));
  OI_RETURN_IF_ERROR(
      Agree(ctx, heads, (*past)[2], StrCat("num_heads and ", InputLabel(ctx, input), " dim 2")));
  OI_RETURN_IF_ERROR(Agree(ctx, head_size, (*past)[4],
                           StrCat("head size and ", InputLabel(ctx, input), " dim 4")));
  return (*past)[3];
}

// The length of the present state of a merged-projection attention (Attention,
// DecoderMaskedSelfAttention, QAttention), whose new key/value length is the input's S:
//   no past: S;
//   past without past_present_share_buffer: P + S (the doc's past_sequence_length + S);
//   past with it: the past buffer's own length P (max_sequence_length). The doc's "effective"
//   length past_sequence_length + S lives inside that buffer; the runtime allocates the buffer.
Dim StackedPresentLength(bool has_past, bool share_buffer, Dim past_len, Dim seq) {
  if (!has_past) return seq;
  return share_buffer ? past_len : past_len + seq;
}

// Attention: input [B, S, Di], weights [Di, D + D + Dv], bias [D + D + Dv] give output
// [B, S, Dv]; past [2, B, N, P, H] and present [2, B, N, StackedPresentLength, H], H = D / N.
// With past, Q, K and V have one hidden size. attention_bias is [B or 1, N or 1, S, T] with
// T = P + S (with a shared buffer, the past_sequence_length value + S).
Status InferAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 1);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  OI_ASSIGN_OR_RETURN(MergedInputs in, ReadMergedInputs(ctx, 3));
  Dim batch, seq;
  if (in.input) {
    batch = (*in.input)[0];
    seq = (*in.input)[1];
  }
  OI_ASSIGN_OR_RETURN(QkvHidden hidden, MergedQkvHidden(ctx, 1, in.width, heads));
  const Dim n = Dim::Const(heads);
  OI_ASSIGN_OR_RETURN(Dim head_size, Divide(ctx, 1, hidden.qk, n, StrCat("num_heads = ", heads)));
  OI_ASSIGN_OR_RETURN(int64_t share, ctx.IntAttr("past_present_share_buffer", 0));
  const bool has_past = ctx.HasInput(4);
  Dim past_len;
  if (has_past) {
    OI_RETURN_IF_ERROR(
        Agree(ctx, hidden.qk, hidden.v, "Q/K and V hidden sizes (equal when past is given)"));
    OI_ASSIGN_OR_RETURN(past_len, ReadStackedPast(ctx, 4, batch, n, head_size));
  }
  const Dim total_attended = !has_past ? seq : share ? ScalarValue(ctx, 6) + seq : past_len + seq;
  OI_RETURN_IF_ERROR(CheckAttentionBias(ctx, 5, seq, total_attended));
  ctx.SetOutputShape(0, {batch, seq, hidden.v});
  ctx.SetOutputShape(1, {Dim::Const(2), batch, n,
                         StackedPresentLength(has_past, share != 0, past_len, seq), head_size});
  return OkStatus();
}

// DecoderMaskedSelfAttention: Attention for one new token (S = 1) with past required and no
// qkv_hidden_sizes: D = Dv = W / 3. present as Attention's.
Status InferDecoderMaskedSelfAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 1);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  OI_ASSIGN_OR_RETURN(MergedInputs in, ReadMergedInputs(ctx, 3));
  Dim batch, seq = Dim::Const(1);
  if (in.input) {
    batch = (*in.input)[0];
    OI_RETURN_IF_ERROR(
        Agree(ctx, seq, (*in.input)[1], "input sequence length and 1 (one new token)"));
  }
  OI_ASSIGN_OR_RETURN(QkvHidden hidden, MergedQkvHidden(ctx, 1, in.width, heads));
  const Dim n = Dim::Const(heads);
  OI_ASSIGN_OR_RETURN(Dim head_size, Divide(ctx, 1, hidden.qk, n, StrCat("num_heads = ", heads)));
  OI_ASSIGN_OR_RETURN(int64_t share, ctx.IntAttr("past_present_share_buffer", 0));
  const bool has_past = ctx.HasInput(4);
  Dim past_len;
  if (has_past) {
    OI_ASSIGN_OR_RETURN(past_len, ReadStackedPast(ctx, 4, batch, n, head_size));
  }
  const Dim total_attended = !has_past ? seq : share ? ScalarValue(ctx, 6) + seq : past_len + seq;
  OI_RETURN_IF_ERROR(CheckAttentionBias(ctx, 5, seq, total_attended));
  ctx.SetOutputShape(0, {batch, seq, hidden.v});
  ctx.SetOutputShape(1, {Dim::Const(2), batch, n,
                         StackedPresentLength(has_past, share != 0, past_len, seq), head_size});
  return OkStatus();
}

// QAttention: input [B, S, Di] (8-bit), weight [Di, 3D], bias [3D] (float, type T3) give
// output [B, S, D] of bias' type; past [2, B, N, P, H] and present [2, B, N, P + S, H]
// (the doc's past_sequence_length + sequence_length; a shared buffer keeps its length).
Status InferQAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(2, 0);
  ctx.PropagateElemType(2, 1);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  OI_ASSIGN_OR_RETURN(MergedInputs in, ReadMergedInputs(ctx, 3));
  Dim batch, seq;
  if (in.input) {
    batch = (*in.input)[0];
    seq = (*in.input)[1];
  }
  OI_ASSIGN_OR_RETURN(QkvHidden hidden, MergedQkvHidden(ctx, 1, in.width, heads));
  const Dim n = Dim::Const(heads);
  OI_ASSIGN_OR_RETURN(Dim head_size, Divide(ctx, 1, hidden.qk, n, StrCat("num_heads = ", heads)));
  OI_ASSIGN_OR_RETURN(int64_t share, ctx.IntAttr("past_present_share_buffer", 0));
  const bool has_past = ctx.HasInput(8);
  Dim past_len;
  if (has_past) {
    OI_ASSIGN_OR_RETURN(past_len, ReadStackedPast(ctx, 8, batch, n, head_size));
  }
  // weight_scale and weight_zero_point: a scalar, or one per output column [3D].
  for (int i : {4, 7}) {
    const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
    if (s && s->size() == 1 && !((*s)[0].is_const() && *(*s)[0].const_value() == 1)) {
      Dim w = in.width;
      OI_RETURN_IF_ERROR(Agree(ctx, w, (*s)[0],
                               StrCat(InputLabel(ctx, i), " length and the Q/K/V width"),
                               InputSubject(ctx, i)));
    }
  }
  ctx.SetOutputShape(0, {batch, seq, hidden.v});
  ctx.SetOutputShape(1, {Dim::Const(2), batch, n,
                         StackedPresentLength(has_past, share != 0, past_len, seq), head_size});
  return OkStatus();
}

// PackedAttention: input [T, Di] of the real tokens, weights [Di, D + D + Dv], bias; output
// [T, Dv]. token_offset [B, S]; cumulative_sequence_length [B + 1]; attention_bias
// [B or 1, N or 1, S, S].
Status InferPackedAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  OI_ASSIGN_OR_RETURN(MergedInputs in, ReadMergedInputs(ctx, 2));
  OI_ASSIGN_OR_RETURN(QkvHidden hidden, MergedQkvHidden(ctx, 1, in.width, heads));
  OI_RETURN_IF_ERROR(
      Divide(ctx, 1, hidden.qk, Dim::Const(heads), StrCat("num_heads = ", heads)).status());
  OI_ASSIGN_OR_RETURN(const Shape* offsets, RankedInput(ctx, 3, 2));
  Dim batch, seq;
  if (offsets) {
    batch = (*offsets)[0];
    seq = (*offsets)[1];
  }
  OI_RETURN_IF_ERROR(CheckCumulative(ctx, 4, batch));
  OI_RETURN_IF_ERROR(CheckAttentionBias(ctx, 5, seq, seq));
  ctx.SetOutputShape(0, {in.input ? (*in.input)[0] : Dim(), hidden.v});
  return OkStatus();
}

// PackedMultiHeadAttention: query [T, D] with key [T, D] and value [T, Dv], or packed QKV
// [T, N, 3, H]; output [T, Dv] (N * H when packed). token_offset [B, S];
// cumulative_sequence_length [B + 1]; attention_bias [B or 1, N or 1, S, S].
Status InferPackedMultiHeadAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  const Dim n = Dim::Const(heads);
  OI_ASSIGN_OR_RETURN(const Shape* q, RankedInput(ctx, 0, {2, 4}));
  OI_ASSIGN_OR_RETURN(const Shape* k, RankedInput(ctx, 1, 2));
  OI_ASSIGN_OR_RETURN(const Shape* v, RankedInput(ctx, 2, 2));
  Dim tokens, hidden, v_hidden;
  if (q) {
    tokens = (*q)[0];
    if (q->size() == 4) {
      Dim heads_dim = n, three = Dim::Const(3);
      OI_RETURN_IF_ERROR(Agree(ctx, heads_dim, (*q)[1], "num_heads and packed QKV query dim 1"));
      OI_RETURN_IF_ERROR(Agree(ctx, three, (*q)[2], "packed QKV query dim 2 (Q, K, V)"));
      hidden = v_hidden = n * (*q)[3];
    } else {
      hidden = (*q)[1];
      OI_RETURN_IF_ERROR(Divide(ctx, 0, hidden, n, StrCat("num_heads = ", heads)).status());
    }
  }
  if (k) {
    OI_RETURN_IF_ERROR(Agree(ctx, tokens, (*k)[0], "token count of query and key"));
    OI_RETURN_IF_ERROR(Agree(ctx, hidden, (*k)[1], "hidden size of query and key"));
  }
  if (v) {
    OI_RETURN_IF_ERROR(Agree(ctx, tokens, (*v)[0], "token count of query and value"));
    v_hidden = (*v)[1];
  }
  OI_ASSIGN_OR_RETURN(const Shape* bias, RankedInput(ctx, 3, 1));
  if (bias && !hidden.is_unknown() && !v_hidden.is_unknown()) {
    Dim width = hidden + hidden + v_hidden;
    OI_RETURN_IF_ERROR(Agree(ctx, width, (*bias)[0], "bias length and D + D + Dv"));
  }
  OI_ASSIGN_OR_RETURN(const Shape* offsets, RankedInput(ctx, 4, 2));
  Dim batch, seq;
  if (offsets) {
    batch = (*offsets)[0];
    seq = (*offsets)[1];
  }
  OI_RETURN_IF_ERROR(CheckCumulative(ctx, 5, batch));
  OI_RETURN_IF_ERROR(CheckAttentionBias(ctx, 6, seq, seq));
  if (q) ctx.SetOutputShape(0, {tokens, v_hidden});
  return OkStatus();
}

// ---- Separate Q, K, V with BNSH caches: MultiHeadAttention, DecoderMaskedMultiHeadAttention.

// past_key [B, N, P, H] and past_value [B, N, P, Hv], given together; P.
StatusOr<Dim> ReadPastPair(InferenceContext& ctx, int key_input, int value_input, Dim& batch,
                           Dim& heads, Dim& head_size, Dim& v_head_size) {
  if (ctx.HasInput(key_input) != ctx.HasInput(value_input)) {
    return InputError(ctx, ctx.HasInput(key_input) ? key_input : value_input,
                      DiagCode::kInputCombination,
                      "past_key and past_value must be given together");
  }
  Dim past_len;
  OI_ASSIGN_OR_RETURN(const Shape* pk, RankedInput(ctx, key_input, 4));
  OI_ASSIGN_OR_RETURN(const Shape* pv, RankedInput(ctx, value_input, 4));
  if (pk) {
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*pk)[0], "batch of query and past_key"));
    OI_RETURN_IF_ERROR(Agree(ctx, heads, (*pk)[1], "heads of query and past_key"));
    OI_RETURN_IF_ERROR(Agree(ctx, head_size, (*pk)[3], "head size of query and past_key"));
    past_len = (*pk)[2];
  }
  if (pv) {
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*pv)[0], "batch of query and past_value"));
    OI_RETURN_IF_ERROR(Agree(ctx, heads, (*pv)[1], "heads of query and past_value"));
    OI_RETURN_IF_ERROR(
        Agree(ctx, past_len, (*pv)[2], "past sequence length of past_key and past_value"));
    OI_RETURN_IF_ERROR(Agree(ctx, v_head_size, (*pv)[3], "head size of value and past_value"));
  }
  return past_len;
}

// What MultiHeadAttention and DecoderMaskedMultiHeadAttention know of Q, K and V.
struct QkvView {
  Dim batch, seq, kv_seq, head_size, v_head_size, v_hidden;
  bool kv_is_cache = false;  // key/value are [B, N, L, H] (cross attention over a cache)
};

// key [B, L, D] (or [B, N, L, H], a cache, for cross attention) and value [B, L, Dv] (or
// [B, N, L, Hv]); fills kv_seq, v_head_size, v_hidden.
Status ReadKeyValue(InferenceContext& ctx, int key_input, int value_input, Dim n, Dim hidden,
                    QkvView& x, bool allow_packed_kv) {
  const Shape* k = ctx.HasInput(key_input) ? ctx.InputShape(key_input) : nullptr;
  OI_ASSIGN_OR_RETURN(const Shape* v, RankedInput(ctx, value_input, {3, 4}));
  if (k) {
    if (k->size() == 3) {
      OI_RETURN_IF_ERROR(Agree(ctx, x.batch, (*k)[0], "batch of query and key"));
      OI_RETURN_IF_ERROR(Agree(ctx, hidden, (*k)[2], "hidden size of query and key"));
      x.kv_seq = (*k)[1];
    } else if (k->size() == 4) {
      OI_RETURN_IF_ERROR(Agree(ctx, x.batch, (*k)[0], "batch of query and key"));
      OI_RETURN_IF_ERROR(Agree(ctx, n, (*k)[1], "num_heads and key dim 1"));
      OI_RETURN_IF_ERROR(Agree(ctx, x.head_size, (*k)[3], "head size of query and key"));
      x.kv_seq = (*k)[2];
      x.kv_is_cache = true;
    } else if (k->size() == 5 && allow_packed_kv) {
      // Packed KV [B, L, N, 2, H]: value is absent and Dv = D.
      Dim two = Dim::Const(2);
      OI_RETURN_IF_ERROR(Agree(ctx, x.batch, (*k)[0], "batch of query and key"));
      OI_RETURN_IF_ERROR(Agree(ctx, n, (*k)[2], "num_heads and packed KV key dim 2"));
      OI_RETURN_IF_ERROR(Agree(ctx, two, (*k)[3], "packed KV key dim 3 (K, V)"));
      OI_RETURN_IF_ERROR(Agree(ctx, x.head_size, (*k)[4], "head size of query and packed KV key"));
      x.kv_seq = (*k)[1];
      x.v_head_size = x.head_size;
      x.v_hidden = hidden;
    } else {
      return allow_packed_kv ? RequireRank(ctx, key_input, {3, 4, 5})
                             : RequireRank(ctx, key_input, {3, 4});
    }
  }
  if (v) {
    if (k && (k->size() == 4) != (v->size() == 4)) {
      return InputError(ctx, value_input, DiagCode::kInputRank,
                        StrCat("rank ", v->size(), " does not match the key's rank ", k->size(),
                               " (both 4-D caches or neither)"));
    }
    OI_RETURN_IF_ERROR(Agree(ctx, x.batch, (*v)[0], "batch of query and value"));
    if (v->size() == 3) {
      OI_RETURN_IF_ERROR(Agree(ctx, x.kv_seq, (*v)[1], "sequence length of key and value"));
      x.v_hidden = (*v)[2];
      OI_ASSIGN_OR_RETURN(x.v_head_size, Divide(ctx, value_input, x.v_hidden, n,
                                                StrCat("num_heads = ", n.ToString())));
    } else {
      OI_RETURN_IF_ERROR(Agree(ctx, n, (*v)[1], "num_heads and value dim 1"));
      OI_RETURN_IF_ERROR(Agree(ctx, x.kv_seq, (*v)[2], "sequence length of key and value"));
      x.v_head_size = (*v)[3];
      x.v_hidden = n * x.v_head_size;
    }
  }
  return OkStatus();
}

// MultiHeadAttention: query [B, S, D] (or packed QKV [B, S, N, 3, H]), key [B, L, D] (or
// packed KV [B, L, N, 2, H], or a cache [B, N, L, H] for cross attention), value [B, L, Dv] (or
// [B, N, L, Hv]) give output [B, S, Dv]. bias is [D + D + Dv].
// present_key [B, N, P', H], present_value [B, N, P', Hv], qk [B, N, S, T]:
//   no past: P' = T = L (with a cache as key/value, present is that cache);
//   past [B, N, P, H] without past_sequence_length: P' = T = P + L (doc: total_sequence_length);
//   with past_sequence_length (buffer sharing): present is the past buffer, P' = P
//   (max_sequence_length, what the runtime allocates); the attended length T is that input's
//   value + L, known only when the driver knows the value.
Status InferMultiHeadAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 1);
  ctx.PropagateElemType(0, 2);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  Dim n = Dim::Const(heads);
  OI_ASSIGN_OR_RETURN(const Shape* q, RankedInput(ctx, 0, {3, 5}));
  QkvView x;
  Dim hidden;
  if (q) {
    x.batch = (*q)[0];
    x.seq = (*q)[1];
    if (q->size() == 5) {
      Dim three = Dim::Const(3);
      OI_RETURN_IF_ERROR(Agree(ctx, n, (*q)[2], "num_heads and packed QKV query dim 2"));
      OI_RETURN_IF_ERROR(Agree(ctx, three, (*q)[3], "packed QKV query dim 3 (Q, K, V)"));
      x.head_size = x.v_head_size = (*q)[4];
      hidden = x.v_hidden = n * x.head_size;
      x.kv_seq = x.seq;
      if (ctx.HasInput(1)) {
        return InputError(ctx, 1, DiagCode::kInputCombination,
                          StrCat("key must be absent with packed QKV query ", ShapeToString(*q)));
      }
    } else if (ctx.HasInput(1)) {
      hidden = (*q)[2];
      OI_ASSIGN_OR_RETURN(x.head_size, Divide(ctx, 0, hidden, n, StrCat("num_heads = ", heads)));
    }
    // A 3-D query without key is not a layout the doc defines: its hidden size stays open.
  }
  OI_RETURN_IF_ERROR(ReadKeyValue(ctx, 1, 2, n, hidden, x, /*allow_packed_kv=*/true));
  OI_ASSIGN_OR_RETURN(const Shape* bias, RankedInput(ctx, 3, 1));
  if (bias && !hidden.is_unknown() && !x.v_hidden.is_unknown()) {
    Dim width = hidden + hidden + x.v_hidden;
    OI_RETURN_IF_ERROR(Agree(ctx, width, (*bias)[0], "bias length and D + D + Dv"));
  }
  const bool has_past = ctx.HasInput(6) || ctx.HasInput(7);
  if (has_past && x.kv_is_cache) {
    return InputError(ctx, 6, DiagCode::kInputCombination,
                      "past_key and past_value must be absent when key and value are 4-D caches");
  }
  OI_ASSIGN_OR_RETURN(Dim past_len,
                      ReadPastPair(ctx, 6, 7, x.batch, n, x.head_size, x.v_head_size));
  const bool share = has_past && ctx.HasInput(8);
  Dim present_len, total;
  if (!has_past) {
    present_len = total = x.kv_seq;
  } else if (share) {
    present_len = past_len;
    total = ScalarValue(ctx, 8) + x.kv_seq;
  } else {
    present_len = total = past_len + x.kv_seq;
  }
  OI_RETURN_IF_ERROR(CheckAttentionBias(ctx, 5, x.seq, total));
  if (q) ctx.SetOutputShape(0, {x.batch, x.seq, x.v_hidden});
  ctx.SetOutputShape(1, {x.batch, n, present_len, x.head_size});
  ctx.SetOutputShape(2, {x.batch, n, present_len, x.v_head_size});
  ctx.SetOutputShape(3, {x.batch, n, x.seq, total});  // QK: its element type is its own
  return OkStatus();
}

// DecoderMaskedMultiHeadAttention: one new token (S = 1). query [B, 1, D], or packed QKV
// [B, 1, 3D] when key and value are absent (the runtime takes D = Dv and splits it in
// thirds); key/value [B, L, D] for self attention or caches [B, N, L, H] for cross attention.
// output [B, 1, Dv]. present_key/present_value [B, N, P', H] and qk [B, N, 1, T]:
//   cross attention (no past): T = L, present is not produced (left without a length);
//   past without past_present_share_buffer: P' = T = P + L;
//   with it: P' = P, the past buffer (max_sequence_length); T = past_sequence_length's value + L.
Status InferDecoderMaskedMultiHeadAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 1);
  ctx.PropagateElemType(0, 2);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  Dim n = Dim::Const(heads);
  OI_ASSIGN_OR_RETURN(const Shape* q, RankedInput(ctx, 0, 3));
  QkvView x;
  x.seq = Dim::Const(1);
  Dim hidden;
  const bool packed = !ctx.HasInput(1) && !ctx.HasInput(2);
  if (q) {
    x.batch = (*q)[0];
    OI_RETURN_IF_ERROR(Agree(ctx, x.seq, (*q)[1], "query sequence length and 1 (one new token)"));
    if (packed) {
      OI_ASSIGN_OR_RETURN(
          hidden, Divide(ctx, 0, (*q)[2], Dim::Const(3), "3 (packed Q, K, V of equal size)"));
      x.v_hidden = hidden;
      x.kv_seq = x.seq;
    } else {
      hidden = (*q)[2];
    }
    OI_ASSIGN_OR_RETURN(x.head_size, Divide(ctx, 0, hidden, n, StrCat("num_heads = ", heads)));
    if (packed) x.v_head_size = x.head_size;
  }
  if (!packed) OI_RETURN_IF_ERROR(ReadKeyValue(ctx, 1, 2, n, hidden, x, /*allow_packed_kv=*/false));
  OI_ASSIGN_OR_RETURN(const Shape* bias, RankedInput(ctx, 10, 1));
  if (bias && !hidden.is_unknown() && !x.v_hidden.is_unknown()) {
    Dim width = hidden + hidden + x.v_hidden;
    OI_RETURN_IF_ERROR(Agree(ctx, width, (*bias)[0], "bias length and D + D + Dv"));
  }
  const bool has_past = ctx.HasInput(5) || ctx.HasInput(6);
  OI_ASSIGN_OR_RETURN(Dim past_len,
                      ReadPastPair(ctx, 5, 6, x.batch, n, x.head_size, x.v_head_size));
  OI_ASSIGN_OR_RETURN(int64_t share, ctx.IntAttr("past_present_share_buffer", 0));
  Dim present_len, total;
  if (!has_past) {
    total = x.kv_seq;
  } else if (share) {
    present_len = past_len;
    total = ScalarValue(ctx, 7) + x.kv_seq;
  } else {
    present_len = total = past_len + x.kv_seq;
  }
  OI_RETURN_IF_ERROR(CheckAttentionBias(ctx, 4, x.seq, total));
  if (q) ctx.SetOutputShape(0, {x.batch, x.seq, x.v_hidden});
  ctx.SetOutputShape(1, {x.batch, n, present_len, x.head_size});
  ctx.SetOutputShape(2, {x.batch, n, present_len, x.v_head_size});
  ctx.SetOutputShape(3, {x.batch, n, x.seq, total});  // QK: its element type is its own
  return OkStatus();
}

// ---- Grouped-query heads: GroupQueryAttention, SparseAttention, PagedAttention.

struct GroupedQuery {
  Dim batch, seq;  // absent for the 2-D (token) query of PagedAttention
  Dim head_size;   // H
  Dim out_hidden;  // N * H
  Dim kv_hidden;   // Nkv * H
  bool packed = false;
};

// num_heads N and kv_num_heads Nkv (N a multiple of Nkv), and the query [.., D] or packed QKV
// [.., (N + 2 Nkv) * H] when key is absent. The hidden dim is the last; `rank` is 3 or 2.
StatusOr<GroupedQuery> ReadGroupedQuery(InferenceContext& ctx, size_t rank, int64_t& heads,
                                        int64_t& kv_heads) {
  OI_ASSIGN_OR_RETURN(heads, PositiveIntAttr(ctx, "num_heads"));
  OI_ASSIGN_OR_RETURN(kv_heads, PositiveIntAttr(ctx, "kv_num_heads"));
  if (heads % kv_heads != 0) {
    return AttrError("num_heads", StrCat(heads, " is not a multiple of kv_num_heads = ", kv_heads));
  }
  GroupedQuery g;
  g.packed = !ctx.HasInput(1);
  OI_ASSIGN_OR_RETURN(const Shape* q, RankedInput(ctx, 0, rank));
  if (!q) return g;
  if (rank == 3) {
    g.batch = (*q)[0];
    g.seq = (*q)[1];
  }
  const Dim d = q->back();
  if (g.packed) {
    const int64_t parts = heads + 2 * kv_heads;
    OI_ASSIGN_OR_RETURN(g.head_size,
                        Divide(ctx, 0, d, Dim::Const(parts),
                               StrCat("num_heads + 2 * kv_num_heads = ", parts, " (packed QKV)")));
    g.out_hidden = Dim::Const(heads) * g.head_size;
  } else {
    OI_ASSIGN_OR_RETURN(g.head_size,
                        Divide(ctx, 0, d, Dim::Const(heads), StrCat("num_heads = ", heads)));
    g.out_hidden = d;
  }
  g.kv_hidden = Dim::Const(kv_heads) * g.head_size;
  return g;
}

// key and value [.., L, Nkv * H] beside a grouped query (dims before the hidden one match the
// query's, except L, which is returned; for rank 2 there is none and L stays unknown).
StatusOr<Dim> ReadGroupedKeyValue(InferenceContext& ctx, size_t rank, GroupedQuery& g) {
  if (g.packed) {
    if (ctx.HasInput(2)) {
      return InputError(ctx, 2, DiagCode::kInputCombination,
                        "key and value must be given together (both absent for packed QKV)");
    }
    return g.seq;
  }
  Dim kv_seq;
  for (int i : {1, 2}) {
    OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, rank));
    if (!s) continue;
    if (rank == 3) {
      OI_RETURN_IF_ERROR(
          Agree(ctx, g.batch, (*s)[0], StrCat("batch of query and ", InputLabel(ctx, i))));
      OI_RETURN_IF_ERROR(Agree(ctx, kv_seq, (*s)[1], "sequence length of key and value"));
    }
    OI_RETURN_IF_ERROR(
        Agree(ctx, g.kv_hidden, s->back(),
              StrCat(InputLabel(ctx, i), " hidden size and kv_num_heads * head size"),
              InputSubject(ctx, i)));
  }
  return kv_seq;
}

// The total sequence length T of a GroupQueryAttention step, when the driver knows it:
// total_sequence_length's value; else 1 + the largest seqlens_k value (seqlens_k is each
// entry's total - 1, T their maximum); else attention_bias' last dim, which the doc fixes to
// total_sequence_length. Unknown otherwise.
Dim GqaTotal(const InferenceContext& ctx) {
  Dim t = ScalarValue(ctx, 6);
  if (!t.is_unknown()) return t;
  if (ctx.HasInput(5)) {
    if (const std::vector<Dim>* v = IntValues(ctx, 5); v && !v->empty()) {
      Dim m = (*v)[0];
      for (const Dim& d : *v) m = Dim::Max(m, d);
      if (!m.is_unknown()) return m + Dim::Const(1);
    }
  }
  if (const Shape* bias = ctx.HasInput(10) ? ctx.InputShape(10) : nullptr;
      bias && bias->size() == 4) {
    return bias->back();
  }
  return Dim();
}

// GroupQueryAttention: query [B, S, D] with key/value [B, L, Nkv * H] (H = D / N), or packed
// QKV [B, S, (N + 2 Nkv) * H]; output [B, S, N * H]. present_key/present_value
// [B, Nkv, P', Hc] (element type of past, else of query; Hc = H, or ceil(H / 2) bytes for a
// 4-bit cache), output_qk [B, N, S, T]. With T the total sequence length (GqaTotal):
//   past [B, Nkv, P, Hc] given: P' = max(T, P). This is the runtime's allocation, not the doc's
//     "past_sequence_length + kv_sequence_length": for a separate past (P = past length) and
//     T = P + L they agree; with a shared buffer (P = max_sequence_length >= T) present is the
//     buffer. With T unknown, which case holds is unknown, and so is P'.
//   sliding_window_cache = 1: P' = P, the window's capacity.
//   no past: P' = T (the runtime's max(T, 0)); with T unknown, the doc's 0 + L.
Status InferGroupQueryAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(ctx.HasInput(3) ? 3 : 0, 1);
  ctx.PropagateElemType(ctx.HasInput(4) ? 4 : 0, 2);
  ctx.PropagateElemType(0, 3);
  int64_t heads = 0, kv_heads = 0;
  OI_ASSIGN_OR_RETURN(GroupedQuery g, ReadGroupedQuery(ctx, 3, heads, kv_heads));
  OI_ASSIGN_OR_RETURN(Dim kv_seq, ReadGroupedKeyValue(ctx, 3, g));
  const Dim n = Dim::Const(heads), nkv = Dim::Const(kv_heads);
  OI_ASSIGN_OR_RETURN(int64_t bits, ctx.IntAttr("kv_cache_bit_width", 0));
  Dim cache_head =
      bits == 4 ? Dim::FloorDiv(g.head_size + Dim::Const(1), Dim::Const(2)) : g.head_size;
  Dim heads_kv = nkv;
  const bool has_past = ctx.HasInput(3) || ctx.HasInput(4);
  Dim value_cache_head = cache_head;
  OI_ASSIGN_OR_RETURN(Dim past_len,
                      ReadPastPair(ctx, 3, 4, g.batch, heads_kv, cache_head, value_cache_head));
  OI_RETURN_IF_ERROR(
      Agree(ctx, cache_head, value_cache_head, "head size of past_key and past_value"));
  OI_ASSIGN_OR_RETURN(const Shape* seqlens, RankedInput(ctx, 5, 1));
  if (seqlens)
    OI_RETURN_IF_ERROR(Agree(ctx, g.batch, (*seqlens)[0], "batch of query and seqlens_k"));
  // position_ids [B, >= S]: the runtime reads the first S positions of each row.
  OI_ASSIGN_OR_RETURN(const Shape* pos, RankedInput(ctx, 9, 2));
  if (pos) OI_RETURN_IF_ERROR(Agree(ctx, g.batch, (*pos)[0], "batch of query and position_ids"));
  OI_ASSIGN_OR_RETURN(const Shape* cos, RankedInput(ctx, 7, 2));
  OI_ASSIGN_OR_RETURN(const Shape* sin, RankedInput(ctx, 8, 2));
  if (cos && sin) {
    Dim rows = (*cos)[0], half = (*cos)[1];
    OI_RETURN_IF_ERROR(Agree(ctx, rows, (*sin)[0], "dim 0 of cos_cache and sin_cache"));
    OI_RETURN_IF_ERROR(Agree(ctx, half, (*sin)[1], "dim 1 of cos_cache and sin_cache"));
  }
  OI_ASSIGN_OR_RETURN(const Shape* sink, RankedInput(ctx, 11, 1));
  if (sink) {
    Dim h = n;
    OI_RETURN_IF_ERROR(Agree(ctx, h, (*sink)[0], "head_sink length and num_heads"));
  }
  for (int i : {14, 15}) {
    OI_ASSIGN_OR_RETURN(const Shape* w, RankedInput(ctx, i, 1));
    if (w)
      OI_RETURN_IF_ERROR(Agree(ctx, g.head_size, (*w)[0],
                               StrCat(InputLabel(ctx, i), " length and head size"),
                               InputSubject(ctx, i)));
  }
  const Dim total = GqaTotal(ctx);
  OI_RETURN_IF_ERROR(CheckAttentionBias(ctx, 10, g.seq, total));
  OI_ASSIGN_OR_RETURN(int64_t window_cache, ctx.IntAttr("sliding_window_cache", 0));
  Dim present_len;
  if (!has_past) {
    present_len = total.is_unknown() ? kv_seq : total;
  } else if (window_cache != 0) {
    present_len = past_len;
  } else if (!total.is_unknown() && !past_len.is_unknown()) {
    present_len = Dim::Max(total, past_len);
  }
  // output_qk exists exactly when qk_output asks for it (onnxruntime's schema rejects the
  // output without the attribute, its kernel the attribute without the output).
  OI_ASSIGN_OR_RETURN(int64_t qk_output, ctx.IntAttr("qk_output", 0));
  if (ctx.HasOutput(3) && qk_output == 0) {
    return RuleError(DiagCode::kInputCombination,
                     "output 3 'output_qk': given, but attribute 'qk_output' is 0 (no QK output)");
  }
  if (!ctx.HasOutput(3) && qk_output != 0) {
    return AttrError(
        "qk_output",
        StrCat(qk_output, " asks for output 3 'output_qk', which the node does not have"),
        DiagCode::kInputCombination);
  }
  ctx.SetOutputShape(0, {g.batch, g.seq, g.out_hidden});
  ctx.SetOutputShape(1, {g.batch, nkv, present_len, cache_head});
  ctx.SetOutputShape(2, {g.batch, nkv, present_len, cache_head});
  ctx.SetOutputShape(3, {g.batch, n, g.seq, total});
  return OkStatus();
}

// SparseAttention: query [B, S, D] with key/value [B, S, Nkv * H], or packed QKV; output
// [B, S, N * H]. The caches are always shared: past_key/past_value [B, Nkv, M, H] are
// present_key/present_value, M = max_cache_sequence_length (doc and runtime agree).
// block_row_indices [layouts, max_blocks + 1] and block_col_indices [layouts, max_nnz];
// key_total_sequence_lengths [B].
Status InferSparseAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(3, 1);
  ctx.PropagateElemType(4, 2);
  int64_t heads = 0, kv_heads = 0;
  OI_ASSIGN_OR_RETURN(GroupedQuery g, ReadGroupedQuery(ctx, 3, heads, kv_heads));
  OI_ASSIGN_OR_RETURN(Dim kv_seq, ReadGroupedKeyValue(ctx, 3, g));
  OI_RETURN_IF_ERROR(Agree(ctx, kv_seq, g.seq, "sequence length of query and key"));
  Dim nkv = Dim::Const(kv_heads), v_head = g.head_size;
  OI_ASSIGN_OR_RETURN(Dim max_len, ReadPastPair(ctx, 3, 4, g.batch, nkv, g.head_size, v_head));
  OI_ASSIGN_OR_RETURN(const Shape* rows, RankedInput(ctx, 5, 2));
  OI_ASSIGN_OR_RETURN(const Shape* cols, RankedInput(ctx, 6, 2));
  if (rows && cols) {
    Dim layouts = (*rows)[0];
    OI_RETURN_IF_ERROR(
        Agree(ctx, layouts, (*cols)[0], "layouts of block_row_indices and block_col_indices"));
    if (layouts.is_const() && *layouts.const_value() > 0 && heads % *layouts.const_value() != 0) {
      return InputError(ctx, 5, DiagCode::kInputDims,
                        StrCat("num_heads = ", heads, " is not a multiple of the layout count ",
                               layouts.ToString()));
    }
  }
  OI_ASSIGN_OR_RETURN(const Shape* lengths, RankedInput(ctx, 8, 1));
  if (lengths) {
    OI_RETURN_IF_ERROR(
        Agree(ctx, g.batch, (*lengths)[0], "batch of query and key_total_sequence_lengths"));
  }
  ctx.SetOutputShape(0, {g.batch, g.seq, g.out_hidden});
  ctx.SetOutputShape(1, {g.batch, nkv, max_len, g.head_size});
  ctx.SetOutputShape(2, {g.batch, nkv, max_len, v_head});
  return OkStatus();
}

// PagedAttention: query [T, D] with key/value [T, Nkv * H], or packed QKV [T, (N + 2 Nkv) * H];
// output [T, N * Hv], Hv = v_head_size for the LATENT layout (when set), else H. The block
// caches [blocks, block_size, Nkv, Hc] are updated in place: key_cache_out and value_cache_out
// alias them (same shape and element type). cumulative_sequence_length [B + 1], past_seqlens
// [B], block_table [B, max_blocks].
Status InferPagedAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.SetOutputType(1, ctx.InputType(3));
  if (ctx.HasInput(4)) ctx.SetOutputType(2, ctx.InputType(4));
  int64_t heads = 0, kv_heads = 0;
  OI_ASSIGN_OR_RETURN(GroupedQuery g, ReadGroupedQuery(ctx, 2, heads, kv_heads));
  OI_ASSIGN_OR_RETURN(std::string layout, ctx.StringAttr("kv_cache_layout", "SEPARATE"));
  const bool latent = layout == "LATENT";
  if (!latent && layout != "SEPARATE") {
    return AttrError("kv_cache_layout",
                     StrCat("expected 'SEPARATE' or 'LATENT', got '", layout, "'"));
  }
  if (latent && (ctx.HasInput(2) || ctx.HasInput(4) || ctx.HasOutput(2))) {
    return AttrError(
        "kv_cache_layout",
        "'LATENT' has one cache; value, value_cache and value_cache_out must be absent",
        DiagCode::kInputCombination);
  }
  const Shape* q = ctx.InputShape(0);
  Dim tokens = q && q->size() == 2 ? (*q)[0] : Dim();
  if (!g.packed) {
    for (int i : {1, 2}) {
      OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, 2));
      if (!s) continue;
      OI_RETURN_IF_ERROR(
          Agree(ctx, tokens, (*s)[0], StrCat("token count of query and ", InputLabel(ctx, i))));
      OI_RETURN_IF_ERROR(
          Agree(ctx, g.kv_hidden, (*s)[1],
                StrCat(InputLabel(ctx, i), " hidden size and kv_num_heads * head size"),
                InputSubject(ctx, i)));
    }
  } else if (ctx.HasInput(2)) {
    return InputError(ctx, 2, DiagCode::kInputCombination,
                      "key and value must be given together (both absent for packed QKV)");
  }
  OI_ASSIGN_OR_RETURN(const Shape* kc, RankedInput(ctx, 3, 4));
  OI_ASSIGN_OR_RETURN(const Shape* vc, RankedInput(ctx, 4, 4));
  if (kc) {
    Dim nkv = Dim::Const(kv_heads);
    OI_RETURN_IF_ERROR(Agree(ctx, nkv, (*kc)[2], "kv_num_heads and key_cache dim 2"));
  }
  if (kc && vc) {
    for (size_t i = 0; i < 4; ++i) {
      Dim d = (*kc)[i];
      OI_RETURN_IF_ERROR(
          Agree(ctx, d, (*vc)[i], StrCat("dim ", i, " of key_cache and value_cache")));
    }
  }
  OI_ASSIGN_OR_RETURN(const Shape* table, RankedInput(ctx, 7, 2));
  Dim batch = table ? (*table)[0] : Dim();
  OI_ASSIGN_OR_RETURN(const Shape* past, RankedInput(ctx, 6, 1));
  if (past)
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*past)[0], "batch of past_seqlens and block_table"));
  OI_RETURN_IF_ERROR(CheckCumulative(ctx, 5, batch));
  OI_ASSIGN_OR_RETURN(const Shape* slots, RankedInput(ctx, 10, 1));
  if (slots)
    OI_RETURN_IF_ERROR(Agree(ctx, tokens, (*slots)[0], "token count of query and slot_mapping"));
  OI_ASSIGN_OR_RETURN(int64_t v_head_size, ctx.IntAttr("v_head_size", 0));
  Dim out_hidden = g.out_hidden;
  if (latent && v_head_size > 0) out_hidden = Dim::Const(heads * v_head_size);
  ctx.SetOutputShape(0, {tokens, out_hidden});
  if (kc) ctx.SetOutputShape(1, *kc);
  if (vc) ctx.SetOutputShape(2, *vc);
  return OkStatus();
}

// ---- Other attentions.

// DecoderAttention: query [S, B, D], key [L, B, D], q_weight [D, D], kv_weight [D, 2D], bias
// [3D]; output is query's type and shape. new_key_cache/new_value_cache [B, N, L', H] with L'
// from the runtime flags (bool inputs), when their values are known:
//   has_layer_state and use_past: static_kv ? the cache's length : the cache's length + S;
//   otherwise: static_kv ? L (cross attention over key) : S (self attention).
Status InferDecoderAttention(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  ctx.PropagateElemType(0, 1);
  ctx.PropagateElemType(0, 2);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  const Dim n = Dim::Const(heads);
  OI_ASSIGN_OR_RETURN(const Shape* q, RankedInput(ctx, 0, 3));
  OI_ASSIGN_OR_RETURN(const Shape* k, RankedInput(ctx, 1, 3));
  Dim seq, batch, hidden, key_len;
  if (q) {
    seq = (*q)[0];
    batch = (*q)[1];
    hidden = (*q)[2];
  }
  if (k) {
    key_len = (*k)[0];
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*k)[1], "batch of query and key"));
    OI_RETURN_IF_ERROR(Agree(ctx, hidden, (*k)[2], "hidden size of query and key"));
  }
  OI_ASSIGN_OR_RETURN(Dim head_size, Divide(ctx, 0, hidden, n, StrCat("num_heads = ", heads)));
  OI_ASSIGN_OR_RETURN(const Shape* qw, RankedInput(ctx, 2, 2));
  OI_ASSIGN_OR_RETURN(const Shape* kvw, RankedInput(ctx, 3, 2));
  OI_ASSIGN_OR_RETURN(const Shape* bias, RankedInput(ctx, 4, 1));
  if (qw) {
    OI_RETURN_IF_ERROR(Agree(ctx, hidden, (*qw)[0], "hidden size and q_weight dim 0"));
    OI_RETURN_IF_ERROR(Agree(ctx, hidden, (*qw)[1], "hidden size and q_weight dim 1"));
  }
  if (kvw) {
    OI_RETURN_IF_ERROR(Agree(ctx, hidden, (*kvw)[0], "hidden size and kv_weight dim 0"));
    Dim two_d = hidden * Dim::Const(2);
    OI_RETURN_IF_ERROR(Agree(ctx, two_d, (*kvw)[1], "2 * hidden size and kv_weight dim 1"));
  }
  if (bias) {
    Dim three_d = hidden * Dim::Const(3);
    OI_RETURN_IF_ERROR(Agree(ctx, three_d, (*bias)[0], "3 * hidden size and bias length"));
  }
  Dim cache_len;
  for (int i : {6, 7}) {
    OI_ASSIGN_OR_RETURN(const Shape* c, RankedInput(ctx, i, 4));
    if (!c) continue;
    OI_RETURN_IF_ERROR(
        Agree(ctx, batch, (*c)[0], StrCat("batch of query and ", InputLabel(ctx, i))));
    Dim heads_dim = n;
    OI_RETURN_IF_ERROR(
        Agree(ctx, heads_dim, (*c)[1], StrCat("num_heads and ", InputLabel(ctx, i), " dim 1")));
    OI_RETURN_IF_ERROR(
        Agree(ctx, cache_len, (*c)[2], "sequence length of key_cache and value_cache"));
    OI_RETURN_IF_ERROR(
        Agree(ctx, head_size, (*c)[3], StrCat("head size and ", InputLabel(ctx, i), " dim 3")));
  }
  const std::optional<bool> static_kv = FlagValue(ctx, 8), use_past = FlagValue(ctx, 9),
                            layer_state = FlagValue(ctx, 10);
  Dim new_len;
  if (static_kv && use_past && layer_state) {
    if (*layer_state && *use_past) {
      new_len = *static_kv ? cache_len : cache_len + seq;
    } else {
      new_len = *static_kv ? key_len : seq;
    }
  }
  ctx.SetOutputShape(1, {batch, n, new_len, head_size});
  ctx.SetOutputShape(2, {batch, n, new_len, head_size});
  return OkStatus();
}

// LongformerAttention: input [B, S, D], weight and global_weight [D, 3D], bias and
// global_bias [3D], mask and global [B, S]; output [B, S, D]. S is a multiple of 2 * window.
Status InferLongformerAttention(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  OI_ASSIGN_OR_RETURN(int64_t window, PositiveIntAttr(ctx, "window"));
  OI_ASSIGN_OR_RETURN(const Shape* in, RankedInput(ctx, 0, 3));
  Dim batch, seq, hidden;
  if (in) {
    batch = (*in)[0];
    seq = (*in)[1];
    hidden = (*in)[2];
    OI_RETURN_IF_ERROR(
        Divide(ctx, 0, hidden, Dim::Const(heads), StrCat("num_heads = ", heads)).status());
    if (seq.is_const() && *seq.const_value() % (2 * window) != 0) {
      return InputError(ctx, 0, DiagCode::kInputDims,
                        StrCat("sequence length ", seq.ToString(),
                               " is not a multiple of 2 * window = ", 2 * window));
    }
  }
  for (int i : {1, 4}) {
    OI_ASSIGN_OR_RETURN(const Shape* w, RankedInput(ctx, i, 2));
    if (!w) continue;
    OI_RETURN_IF_ERROR(
        Agree(ctx, hidden, (*w)[0], StrCat("hidden size and ", InputLabel(ctx, i), " dim 0")));
    Dim three_d = hidden * Dim::Const(3);
    OI_RETURN_IF_ERROR(
        Agree(ctx, three_d, (*w)[1], StrCat("3 * hidden size and ", InputLabel(ctx, i), " dim 1")));
  }
  for (int i : {2, 5}) {
    OI_ASSIGN_OR_RETURN(const Shape* b, RankedInput(ctx, i, 1));
    if (!b) continue;
    Dim three_d = hidden * Dim::Const(3);
    OI_RETURN_IF_ERROR(Agree(ctx, three_d, (*b)[0],
                             StrCat("3 * hidden size and ", InputLabel(ctx, i), " length")));
  }
  for (int i : {3, 6}) {
    OI_ASSIGN_OR_RETURN(const Shape* m, RankedInput(ctx, i, 2));
    if (!m) continue;
    OI_RETURN_IF_ERROR(
        Agree(ctx, batch, (*m)[0], StrCat("batch of input and ", InputLabel(ctx, i))));
    OI_RETURN_IF_ERROR(
        Agree(ctx, seq, (*m)[1], StrCat("sequence length of input and ", InputLabel(ctx, i))));
  }
  if (in) ctx.SetOutputShape(0, {batch, seq, hidden});
  return OkStatus();
}

// QOrderedLongformerAttention: LongformerAttention over int8 tensors in cublasLt orders;
// output [B, S, D] int8. mask and global [B, S].
Status InferQOrderedLongformerAttention(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  OI_ASSIGN_OR_RETURN(const Shape* in, RankedInput(ctx, 0, 3));
  if (!in) return OkStatus();
  Dim batch = (*in)[0], seq = (*in)[1];
  OI_RETURN_IF_ERROR(
      Divide(ctx, 0, (*in)[2], Dim::Const(heads), StrCat("num_heads = ", heads)).status());
  for (int i : {7, 12}) {
    OI_ASSIGN_OR_RETURN(const Shape* m, RankedInput(ctx, i, 2));
    if (!m) continue;
    OI_RETURN_IF_ERROR(
        Agree(ctx, batch, (*m)[0], StrCat("batch of input and ", InputLabel(ctx, i))));
    OI_RETURN_IF_ERROR(
        Agree(ctx, seq, (*m)[1], StrCat("sequence length of input and ", InputLabel(ctx, i))));
  }
  ctx.SetOutputShape(0, {batch, seq, (*in)[2]});
  return OkStatus();
}

// QOrderedAttention: input [B, S, Di] (int8), Q_weight/K_weight/V_weight [Di, D*] (widths
// qkv_hidden_sizes when given), biases [D*]; output [B, S, Dv] int8.
Status InferQOrderedAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  OI_ASSIGN_OR_RETURN(const Shape* in, RankedInput(ctx, 0, 3));
  Dim batch, seq, in_hidden;
  if (in) {
    batch = (*in)[0];
    seq = (*in)[1];
    in_hidden = (*in)[2];
  }
  std::vector<Dim> widths(3);
  if (ctx.HasAttr("qkv_hidden_sizes")) {
    OI_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ctx.IntsAttr("qkv_hidden_sizes"));
    if (sizes.size() != 3) {
      return AttrError("qkv_hidden_sizes", StrCat("expected 3 values, got ", sizes.size()));
    }
    for (int i = 0; i < 3; ++i) widths[i] = Dim::Const(sizes[i]);
  }
  const char* names[] = {"Q", "K", "V"};
  for (int i = 0; i < 3; ++i) {
    OI_ASSIGN_OR_RETURN(const Shape* w, RankedInput(ctx, 5 + i, 2));
    if (w) {
      OI_RETURN_IF_ERROR(Agree(ctx, in_hidden, (*w)[0],
                               StrCat("input hidden size of input and ", names[i], "_weight")));
      OI_RETURN_IF_ERROR(Agree(ctx, widths[i], (*w)[1],
                               StrCat(names[i], " hidden size of ", names[i], "_weight")));
    }
    OI_ASSIGN_OR_RETURN(const Shape* b, RankedInput(ctx, 11 + i, 1));
    if (b)
      OI_RETURN_IF_ERROR(
          Agree(ctx, widths[i], (*b)[0], StrCat(names[i], " hidden size of ", names[i], "_bias")));
    OI_RETURN_IF_ERROR(
        Divide(ctx, 5 + i, widths[i], Dim::Const(heads), StrCat("num_heads = ", heads)).status());
  }
  OI_RETURN_IF_ERROR(Agree(ctx, widths[0], widths[1], "hidden sizes of Q and K"));
  if (in) ctx.SetOutputShape(0, {batch, seq, widths[2]});
  return OkStatus();
}

// ---- Rotary embeddings.

// cos_cache and sin_cache [max_positions, rotary_dim / 2], of one shape.
Status CheckRotaryCaches(InferenceContext& ctx, int cos_input, int sin_input) {
  OI_ASSIGN_OR_RETURN(const Shape* cos, RankedInput(ctx, cos_input, 2));
  OI_ASSIGN_OR_RETURN(const Shape* sin, RankedInput(ctx, sin_input, 2));
  if (!cos || !sin) return OkStatus();
  Dim rows = (*cos)[0], half = (*cos)[1];
  OI_RETURN_IF_ERROR(Agree(ctx, rows, (*sin)[0], "dim 0 of cos_cache and sin_cache"));
  return Agree(ctx, half, (*sin)[1], "dim 1 of cos_cache and sin_cache");
}

// (batch, sequence) of a rotary input [B, S, hidden] or [B, N, S, H].
StatusOr<std::pair<Dim, Dim>> RotaryBatchSeq(const InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(const Shape* x, RankedInput(ctx, 0, {3, 4}));
  if (!x) return std::pair<Dim, Dim>();
  return std::pair<Dim, Dim>((*x)[0], x->size() == 4 ? (*x)[2] : (*x)[1]);
}

// RotaryEmbedding: output has input's type and shape ([B, S, hidden] or [B, N, S, H]).
// position_ids is one offset ([1] or a scalar) or [B, S]; rotary_embedding_dim needs
// num_heads.
Status InferRotaryEmbedding(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(auto bs, RotaryBatchSeq(ctx));
  OI_ASSIGN_OR_RETURN(int64_t rotary_dim, ctx.IntAttr("rotary_embedding_dim", 0));
  OI_ASSIGN_OR_RETURN(int64_t heads, ctx.IntAttr("num_heads", 0));
  if (rotary_dim > 0 && heads <= 0) {
    return AttrError("num_heads", "required when rotary_embedding_dim is set",
                     DiagCode::kInputCombination);
  }
  OI_ASSIGN_OR_RETURN(int64_t packed_batching, ctx.IntAttr("is_packed_batching", 0));
  const Shape* pos = ctx.InputShape(1);
  if (pos && packed_batching == 0) {
    if (pos->size() == 2) {
      OI_RETURN_IF_ERROR(Agree(ctx, bs.first, (*pos)[0], "batch of input and position_ids"));
      OI_RETURN_IF_ERROR(
          Agree(ctx, bs.second, (*pos)[1], "sequence length of input and position_ids"));
    } else if (pos->size() > 2) {
      return InputError(
          ctx, 1, DiagCode::kInputDims,
          StrCat("expected one position or [batch, sequence], got ", ShapeToString(*pos)));
    }
  }
  return CheckRotaryCaches(ctx, 2, 3);
}

// MRotaryEmbedding: output has input's type and shape. position_ids [3, B, S] holds the
// temporal, height and width positions; mrope_section's three parts sum to the caches'
// width (rotary_dim / 2).
Status InferMRotaryEmbedding(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(auto bs, RotaryBatchSeq(ctx));
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> section, ctx.IntsAttr("mrope_section"));
  if (section.size() != 3) {
    return AttrError("mrope_section", StrCat("expected 3 values (t, h, w), got ", section.size()));
  }
  for (int64_t s : section) {
    if (s < 0) return AttrError("mrope_section", StrCat("expected values >= 0, got ", s));
  }
  OI_ASSIGN_OR_RETURN(const Shape* pos, RankedInput(ctx, 1, 3));
  if (pos) {
    Dim three = Dim::Const(3);
    OI_RETURN_IF_ERROR(Agree(ctx, three, (*pos)[0], "position_ids dim 0 (t, h, w)"));
    OI_RETURN_IF_ERROR(Agree(ctx, bs.first, (*pos)[1], "batch of input and position_ids"));
    OI_RETURN_IF_ERROR(
        Agree(ctx, bs.second, (*pos)[2], "sequence length of input and position_ids"));
  }
  OI_RETURN_IF_ERROR(CheckRotaryCaches(ctx, 2, 3));
  // The sections cover rotary_embedding_dim / 2; without that attribute the whole head is
  // rotated and the caches are head_size / 2 wide. (With it, the caches may be either width.)
  const int64_t sum = section[0] + section[1] + section[2];
  OI_ASSIGN_OR_RETURN(int64_t rotary_dim, ctx.IntAttr("rotary_embedding_dim", 0));
  if (rotary_dim > 0 && 2 * sum != rotary_dim) {
    return AttrError("mrope_section",
                     StrCat("sums to ", sum, ", not rotary_embedding_dim / 2 = ", rotary_dim / 2));
  }
  if (const Shape* cos = ctx.InputShape(2); rotary_dim == 0 && cos && cos->size() == 2) {
    Dim s = Dim::Const(sum);
    OI_RETURN_IF_ERROR(Agree(ctx, s, (*cos)[1], "sum of mrope_section and cos_cache dim 1"));
  }
  return OkStatus();
}

// GemmaRotaryEmbedding: emb [B, S, dim] (float), q and q_rot [B, N, S, dim], k and k_rot
// [B, N, S, dim] (float16); output1 is q's shape, output2 k's.
Status InferGemmaRotaryEmbedding(InferenceContext& ctx) {
  ctx.PropagateElemType(1, 0);
  ctx.PropagateElemType(3, 1);
  OI_ASSIGN_OR_RETURN(const Shape* emb, RankedInput(ctx, 0, 3));
  Dim batch, seq, dim;
  if (emb) {
    batch = (*emb)[0];
    seq = (*emb)[1];
    dim = (*emb)[2];
  }
  Shape outs[2];
  for (int pair = 0; pair < 2; ++pair) {
    Dim heads;
    for (int i : {1 + 2 * pair, 2 + 2 * pair}) {
      OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, 4));
      if (!s) continue;
      OI_RETURN_IF_ERROR(
          Agree(ctx, batch, (*s)[0], StrCat("batch of emb and ", InputLabel(ctx, i))));
      OI_RETURN_IF_ERROR(Agree(ctx, heads, (*s)[1], StrCat("heads of ", InputLabel(ctx, i))));
      OI_RETURN_IF_ERROR(
          Agree(ctx, seq, (*s)[2], StrCat("sequence length of emb and ", InputLabel(ctx, i))));
      OI_RETURN_IF_ERROR(Agree(ctx, dim, (*s)[3], StrCat("dim of emb and ", InputLabel(ctx, i))));
    }
    if (ctx.InputShape(1 + 2 * pair) || ctx.InputShape(2 + 2 * pair))
      outs[pair] = {batch, heads, seq, dim};
  }
  for (int o = 0; o < 2; ++o) {
    if (!outs[o].empty()) ctx.SetOutputShape(o, outs[o]);
  }
  return OkStatus();
}

// ---- Relative position biases and padding.

// RelativePositionBias (T5): bias_table [buckets, N] and the query_length and key_length
// values give [1, N, query_length, key_length], the doc's [1, N, seq, seq]: self attention
// requires the two lengths to be equal (the runtime rejects others).
Status InferRelativePositionBias(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* table, RankedInput(ctx, 0, 2));
  for (int i : {1, 2}) {  // one length each: a scalar or [1]
    const Shape* s = ctx.InputShape(i);
    if (!s || s->empty()) continue;
    if (s->size() > 1) {
      return InputError(ctx, i, DiagCode::kInputDims,
                        StrCat("expected a single length, got ", ShapeToString(*s)));
    }
    Dim one = Dim::Const(1);
    OI_RETURN_IF_ERROR(Agree(ctx, one, (*s)[0], StrCat(InputLabel(ctx, i), " element count"),
                             InputSubject(ctx, i)));
  }
  Dim query_len = ScalarValue(ctx, 1), key_len = ScalarValue(ctx, 2);
  OI_RETURN_IF_ERROR(
      Agree(ctx, query_len, key_len, "query_length and key_length values (self attention)"));
  ctx.SetOutputShape(0, {Dim::Const(1), table ? (*table)[1] : Dim(), query_len, query_len});
  return OkStatus();
}

// GatedRelativePositionBias: query_layer [B, S, N * H], or [tokens, N * H] with padding
// removed and token_offset [B, S] giving B and S; rel_pos [1, N, S, S], eco_a [1, N, 1, 1];
// output [B, N, S, S].
Status InferGatedRelativePositionBias(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t heads, PositiveIntAttr(ctx, "num_heads"));
  Dim n = Dim::Const(heads);
  const bool padding_removed = ctx.HasInput(6);
  OI_ASSIGN_OR_RETURN(const Shape* q, RankedInput(ctx, 0, padding_removed ? 2 : 3));
  Dim batch, seq, hidden;
  if (q) {
    hidden = q->back();
    OI_RETURN_IF_ERROR(Divide(ctx, 0, hidden, n, StrCat("num_heads = ", heads)).status());
    if (!padding_removed) {
      batch = (*q)[0];
      seq = (*q)[1];
    }
  }
  OI_ASSIGN_OR_RETURN(const Shape* offsets, RankedInput(ctx, 6, 2));
  if (offsets) {
    batch = (*offsets)[0];
    seq = (*offsets)[1];
  }
  OI_ASSIGN_OR_RETURN(const Shape* bias, RankedInput(ctx, 1, 1));
  if (bias)
    OI_RETURN_IF_ERROR(Agree(ctx, hidden, (*bias)[0], "hidden size of query_layer and query_bias"));
  OI_ASSIGN_OR_RETURN(const Shape* eco, RankedInput(ctx, 5, 4));
  if (eco) OI_RETURN_IF_ERROR(Agree(ctx, n, (*eco)[1], "num_heads and eco_a dim 1"));
  OI_ASSIGN_OR_RETURN(const Shape* rel, RankedInput(ctx, 2, 4));
  if (rel) {
    Dim one = Dim::Const(1);
    OI_RETURN_IF_ERROR(Agree(ctx, one, (*rel)[0], "rel_pos dim 0"));
    OI_RETURN_IF_ERROR(Agree(ctx, n, (*rel)[1], "num_heads and rel_pos dim 1"));
    OI_RETURN_IF_ERROR(Agree(ctx, seq, (*rel)[2], "sequence length and rel_pos dim 2"));
    OI_RETURN_IF_ERROR(Agree(ctx, seq, (*rel)[3], "sequence length and rel_pos dim 3"));
  }
  OI_ASSIGN_OR_RETURN(const Shape* w, RankedInput(ctx, 3, 2));
  OI_ASSIGN_OR_RETURN(const Shape* b, RankedInput(ctx, 4, 1));
  if (w) {
    Dim head_size = hidden.is_unknown() ? Dim() : Dim::FloorDiv(hidden, n);
    OI_RETURN_IF_ERROR(Agree(ctx, head_size, (*w)[0], "head size and weight dim 0"));
    Dim d = (*w)[1];
    if (d.is_const() && *d.const_value() % 2 != 0) {
      return InputError(ctx, 3, DiagCode::kInputDims,
                        StrCat("dim 1 ", d.ToString(), " is not even"));
    }
    if (b) OI_RETURN_IF_ERROR(Agree(ctx, d, (*b)[0], "weight dim 1 and bias length"));
  }
  ctx.SetOutputShape(0, {batch, n, seq, seq});
  return OkStatus();
}

// RemovePadding: input [B, S, hidden] and sequence_token_count [B] give output
// [total_tokens, hidden] (total_tokens, the count of real tokens, is data: unknown),
// token_offset [B, S], cumulated_seq_len [B + 1], max_seq_len [1].
Status InferRemovePadding(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  for (int o : {1, 2, 3}) ctx.PropagateElemType(1, o);
  OI_ASSIGN_OR_RETURN(const Shape* in, RankedInput(ctx, 0, 3));
  OI_ASSIGN_OR_RETURN(const Shape* counts, RankedInput(ctx, 1, 1));
  Dim batch, seq, hidden;
  if (in) {
    batch = (*in)[0];
    seq = (*in)[1];
    hidden = (*in)[2];
  }
  if (counts)
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*counts)[0], "batch of input and sequence_token_count"));
  ctx.SetOutputShape(0, {Dim(), hidden});
  ctx.SetOutputShape(1, {batch, seq});
  ctx.SetOutputShape(2, {batch.is_unknown() ? Dim() : batch + Dim::Const(1)});
  ctx.SetOutputShape(3, {Dim::Const(1)});
  return OkStatus();
}

// RestorePadding: input [tokens, hidden] and token_offset [B, S] give output [B, S, hidden].
Status InferRestorePadding(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* in, RankedInput(ctx, 0, 2));
  OI_ASSIGN_OR_RETURN(const Shape* offsets, RankedInput(ctx, 1, 2));
  ctx.SetOutputShape(
      0, {offsets ? (*offsets)[0] : Dim(), offsets ? (*offsets)[1] : Dim(), in ? (*in)[1] : Dim()});
  return OkStatus();
}

}  // namespace

Status RegisterComMicrosoftAttentionRules(SchemaRegistry& r) {
  struct Row {
    const char* name;
    InferenceRule rule;
  };
  const Row rows[] = {
      {"Attention", InferAttention},
      {"MultiHeadAttention", InferMultiHeadAttention},
      {"GroupQueryAttention", InferGroupQueryAttention},
      {"PackedAttention", InferPackedAttention},
      {"PackedMultiHeadAttention", InferPackedMultiHeadAttention},
      {"SparseAttention", InferSparseAttention},
      {"PagedAttention", InferPagedAttention},
      {"DecoderMaskedMultiHeadAttention", InferDecoderMaskedMultiHeadAttention},
      {"DecoderMaskedSelfAttention", InferDecoderMaskedSelfAttention},
      {"DecoderAttention", InferDecoderAttention},
      {"LongformerAttention", InferLongformerAttention},
      {"QAttention", InferQAttention},
      {"QOrderedAttention", InferQOrderedAttention},
      {"QOrderedLongformerAttention", InferQOrderedLongformerAttention},
      {"RotaryEmbedding", InferRotaryEmbedding},
      {"GemmaRotaryEmbedding", InferGemmaRotaryEmbedding},
      {"MRotaryEmbedding", InferMRotaryEmbedding},
      {"RelativePositionBias", InferRelativePositionBias},
      {"GatedRelativePositionBias", InferGatedRelativePositionBias},
      {"RemovePadding", InferRemovePadding},
      {"RestorePadding", InferRestorePadding},
  };
  for (const Row& row : rows) OI_RETURN_IF_ERROR(r.AttachRule(kDomain, row.name, {1}, row.rule));
  return OkStatus();
}

}  // namespace onnx_infer
