// Attention and its relatives in ai.onnx: Attention, LinearAttention, RotaryEmbedding,
// CausalConvWithState, the normalizations (LayerNormalization, RMSNormalization,
// GroupNormalization), and ai.onnx.preview's FlexAttention.
//
// Most of these have ONNX function bodies built per node; the rules here give the same shapes
// directly, keep them symbolic, and record the facts the operators imply (Q's and K's head
// sizes agree, every batch dim is one dim).
#include "onnx_infer/schema/defs/ai_onnx/nn/attention.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// An int attribute as a dim: its value when given, else unknown.
StatusOr<Dim> AttrDim(const InferenceContext& ctx, const char* name) {
  if (!ctx.HasAttr(name)) return Dim();
  OI_ASSIGN_OR_RETURN(int64_t v, ctx.IntAttr(name));
  return Dim::Const(v);
}

// hidden / heads for a hidden dim that packs `heads` heads of equal size. Constant operands
// must divide; a symbolic hidden gives floor(hidden / heads), which is exact wherever the
// model is valid.
StatusOr<Dim> HeadSize(const InferenceContext& ctx, int input, Dim hidden, Dim heads,
                       const char* heads_attr) {
  if (hidden.is_const() && heads.is_const()) {
    const int64_t h = *heads.const_value();
    if (h <= 0 || *hidden.const_value() % h != 0) {
      return InputError(ctx, input, DiagCode::kInputDims,
                        StrCat("hidden size ", hidden.ToString(), " is not a multiple of ",
                               heads_attr, " = ", h));
    }
  }
  return Dim::FloorDiv(hidden, heads);
}

// Q, K or V seen as [batch, heads, seq, head_size]: a 4-D input is that already; a 3-D input
// [batch, seq, heads * head_size] takes its head count from attribute `heads_attr`.
struct HeadsView {
  Dim batch, heads, seq, head_size;
  bool packed = false;  // the input is 3-D
};

StatusOr<std::optional<HeadsView>> ViewHeads(const InferenceContext& ctx, int input,
                                             const char* heads_attr) {
  const Shape* s = ctx.InputShape(input);
  if (!s) return std::optional<HeadsView>();
  if (s->size() == 4)
    return std::optional<HeadsView>(HeadsView{(*s)[0], (*s)[1], (*s)[2], (*s)[3]});
  OI_RETURN_IF_ERROR(RequireRank(ctx, input, {3, 4}));
  if (!ctx.HasAttr(heads_attr)) {
    return AttrError(
        heads_attr, StrCat("required when ", InputLabel(ctx, input), " is 3-D ", ShapeToString(*s)),
        DiagCode::kInputCombination);
  }
  OI_ASSIGN_OR_RETURN(Dim heads, AttrDim(ctx, heads_attr));
  OI_ASSIGN_OR_RETURN(Dim head_size, HeadSize(ctx, input, (*s)[2], heads, heads_attr));
  return std::optional<HeadsView>(HeadsView{(*s)[0], heads, (*s)[1], head_size, true});
}

// Attention (23, 24, 25): Q [b, qh, qs, d] (or 3-D [b, qs, qh*d] with q_num_heads), K
// [b, kvh, kvs, d], V [b, kvh, kvs, dv] (3-D with kv_num_heads). Optional past_key/past_value
// [b, kvh, ps, d/dv] are concatenated before K/V along the sequence, so total = ps + kvs.
// Y [b, qh, qs, dv] (3-D: [b, qs, qh*dv]); present_key [b, kvh, total, d], present_value
// [b, kvh, total, dv]; qk_matmul_output [b, qh, qs, total]. qh must be a multiple of kvh
// (GQA/MQA). 24 adds nonpad_kv_seqlen [b] (an external cache: K/V are the whole cache) and lets
// attn_mask's last dim be shorter than total (padded with -inf).
Status InferAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 1);
  ctx.PropagateElemType(2, 2);
  ctx.PropagateElemType(0, 3);
  OI_ASSIGN_OR_RETURN(auto q, ViewHeads(ctx, 0, "q_num_heads"));
  OI_ASSIGN_OR_RETURN(auto k, ViewHeads(ctx, 1, "kv_num_heads"));
  OI_ASSIGN_OR_RETURN(auto v, ViewHeads(ctx, 2, "kv_num_heads"));
  const bool has_past_key = ctx.HasInput(4), has_past_value = ctx.HasInput(5);
  if (has_past_key != has_past_value) {
    return InputError(ctx, has_past_key ? 4 : 5, DiagCode::kInputCombination,
                      "past_key and past_value must be given together");
  }
  const Shape* past_key = has_past_key ? ctx.InputShape(4) : nullptr;
  const Shape* past_value = has_past_value ? ctx.InputShape(5) : nullptr;
  for (int i : {4, 5}) {
    const Shape* s = i == 4 ? past_key : past_value;
    if (s) OI_RETURN_IF_ERROR(RequireRank(ctx, i, *s, 4));
  }

  Dim batch, q_heads, q_seq, head_size, kv_heads, kv_seq, v_head_size, past_seq;
  if (q) {
    batch = q->batch;
    q_heads = q->heads;
    q_seq = q->seq;
    head_size = q->head_size;
  } else {
    OI_ASSIGN_OR_RETURN(q_heads, AttrDim(ctx, "q_num_heads"));
  }
  if (k) {
    OI_RETURN_IF_ERROR(Agree(ctx, batch, k->batch, "batch of Q and K"));
    OI_RETURN_IF_ERROR(Agree(ctx, head_size, k->head_size, "head size of Q and K"));
    kv_heads = k->heads;
    kv_seq = k->seq;
  }
  if (v) {
    OI_RETURN_IF_ERROR(Agree(ctx, batch, v->batch, "batch of Q and V"));
    OI_RETURN_IF_ERROR(Agree(ctx, kv_heads, v->heads, "heads of K and V"));
    OI_RETURN_IF_ERROR(Agree(ctx, kv_seq, v->seq, "sequence length of K and V"));
    v_head_size = v->head_size;
  }
  if (past_key) {
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*past_key)[0], "batch of Q and past_key"));
    OI_RETURN_IF_ERROR(Agree(ctx, kv_heads, (*past_key)[1], "heads of K and past_key"));
    OI_RETURN_IF_ERROR(Agree(ctx, head_size, (*past_key)[3], "head size of K and past_key"));
    past_seq = (*past_key)[2];
  }
  if (past_value) {
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*past_value)[0], "batch of Q and past_value"));
    OI_RETURN_IF_ERROR(Agree(ctx, kv_heads, (*past_value)[1], "heads of V and past_value"));
    OI_RETURN_IF_ERROR(
        Agree(ctx, past_seq, (*past_value)[2], "past sequence length of past_key and past_value"));
    OI_RETURN_IF_ERROR(Agree(ctx, v_head_size, (*past_value)[3], "head size of V and past_value"));
  }
  if (q_heads.is_const() && kv_heads.is_const() &&
      (*kv_heads.const_value() <= 0 || *q_heads.const_value() % *kv_heads.const_value() != 0)) {
    return RuleError(DiagCode::kInputDims,
                     StrCat("query heads (", q_heads.ToString(),
                            ") must be a multiple of key/value heads (", kv_heads.ToString(), ")"));
  }
  if (ctx.schema().since_version() >= 24 && ctx.HasInput(6)) {
    if (const Shape* nonpad = ctx.InputShape(6)) {
      OI_RETURN_IF_ERROR(RequireRank(ctx, 6, *nonpad, 1, "[batch]"));
      OI_RETURN_IF_ERROR(Agree(ctx, batch, (*nonpad)[0], "batch of Q and nonpad_kv_seqlen"));
    }
  }
  const Dim total_seq = has_past_key ? past_seq + kv_seq : kv_seq;

  if (ctx.HasInput(3)) {
    if (const Shape* mask = ctx.InputShape(3)) {
      // Broadcastable to [b, qh, qs, total]; from 24 the last dim may also be shorter.
      const Shape target = {batch, q_heads, q_seq, total_seq};
      if (mask->size() > 4) {
        return InputError(ctx, 3, DiagCode::kInputRank,
                          StrCat("expected rank <= 4, got rank ", mask->size()));
      }
      for (size_t i = 0; i < mask->size(); ++i) {
        const Dim m = (*mask)[mask->size() - 1 - i], t = target[3 - i];
        if (!m.is_const() || !t.is_const() || *m.const_value() == 1) continue;
        const bool shorter_ok = i == 0 && ctx.schema().since_version() >= 24;
        if (shorter_ok ? *m.const_value() > *t.const_value() : m != t) {
          return InputError(
              ctx, 3, DiagCode::kBroadcast,
              StrCat(ShapeToString(*mask), " does not broadcast to ", ShapeToString(target)));
        }
      }
    }
  }

  if (q && q->packed) {
    // qh * dv; with V packed too, qh * (V's hidden / kvh) = V's hidden * (qh / kvh) exactly.
    Dim hidden = q_heads * v_head_size;
    if (v && v->packed && q_heads.is_const() && kv_heads.is_const()) {
      hidden =
          ctx.InputShape(2)->at(2) * Dim::Const(*q_heads.const_value() / *kv_heads.const_value());
    }
    ctx.SetOutputShape(0, {batch, q_seq, hidden});
  } else if (q) {
    ctx.SetOutputShape(0, {batch, q_heads, q_seq, v_head_size});
  }
  ctx.SetOutputShape(1, {batch, kv_heads, total_seq, head_size});
  ctx.SetOutputShape(2, {batch, kv_heads, total_seq, v_head_size});
  ctx.SetOutputShape(3, {batch, q_heads, q_seq, total_seq});
  return OkStatus();
}

// RotaryEmbedding (23): Y is X, [b, heads, seq, head] or 3-D [b, seq, heads * head] with
// num_heads. cos_cache and sin_cache are [max_pos, rot / 2] indexed by position_ids [b, seq],
// or [b, seq, rot / 2] without position_ids; rot is rotary_embedding_dim, else the head size.
Status InferRotaryEmbedding(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  const Shape* x = ctx.InputShape(0);
  Dim batch, seq, head_size;
  if (x) {
    if (x->size() == 4) {
      batch = (*x)[0];
      seq = (*x)[2];
      head_size = (*x)[3];
    } else if (x->size() == 3) {
      if (!ctx.HasAttr("num_heads")) {
        return AttrError(
            "num_heads",
            StrCat("required when ", InputLabel(ctx, 0), " is 3-D ", ShapeToString(*x)),
            DiagCode::kInputCombination);
      }
      OI_ASSIGN_OR_RETURN(Dim heads, AttrDim(ctx, "num_heads"));
      OI_ASSIGN_OR_RETURN(head_size, HeadSize(ctx, 0, (*x)[2], heads, "num_heads"));
      batch = (*x)[0];
      seq = (*x)[1];
    } else {
      return RequireRank(ctx, 0, {3, 4});
    }
  }
  OI_ASSIGN_OR_RETURN(int64_t rotary_dim, ctx.IntAttr("rotary_embedding_dim", 0));
  const Dim rot = rotary_dim > 0 ? Dim::Const(rotary_dim) : head_size;
  const Dim half = Dim::FloorDiv(rot, Dim::Const(2));
  const bool has_positions = ctx.HasInput(3);
  if (has_positions) {
    OI_ASSIGN_OR_RETURN(const Shape* pos, RankedInput(ctx, 3, 2));
    if (pos) {
      OI_RETURN_IF_ERROR(Agree(ctx, batch, (*pos)[0], "batch of X and position_ids"));
      OI_RETURN_IF_ERROR(Agree(ctx, seq, (*pos)[1], "sequence length of X and position_ids"));
    }
  }
  for (int i : {1, 2}) {
    OI_ASSIGN_OR_RETURN(const Shape* cache, RankedInput(ctx, i, has_positions ? 2 : 3));
    if (!cache) continue;
    if (!has_positions) {
      OI_RETURN_IF_ERROR(
          Agree(ctx, batch, (*cache)[0], StrCat("batch of X and ", InputLabel(ctx, i))));
      OI_RETURN_IF_ERROR(
          Agree(ctx, seq, (*cache)[1], StrCat("sequence length of X and ", InputLabel(ctx, i))));
    }
    Dim h = half;
    OI_RETURN_IF_ERROR(Agree(ctx, h, cache->back(),
                             StrCat(InputLabel(ctx, i), " last dim and half the rotary dim"),
                             InputSubject(ctx, i)));
  }
  return OkStatus();
}

}  // namespace

// CausalConvWithState (ai.onnx 27; com.microsoft 1 adds ndim, dilation, channels_last and
// state_window, which ai.onnx's schema lacks, so they take their defaults there): input
// [b, c, s_1..s_ndim], weight [c, 1, k_1..k_ndim], bias [c]; output is input. The carry state
// holds L = (k_1 - 1) * dilation positions: past_state and present_state are [b, c, L] for
// ndim = 1, or [b, L, d_1..d_n] channels-last, where input is [b, seq, d_1..d_n] and
// c = d_1 * ... * d_n; state_window = W > 0 adds a leading [W] axis. For ndim > 1 neither
// document gives the state's shape, so present_state gets only its type.
Status InferCausalConvWithState(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  ctx.PropagateElemType(0, 1);
  OI_ASSIGN_OR_RETURN(std::string activation, ctx.StringAttr("activation", "none"));
  if (activation != "none" && activation != "silu" && activation != "swish") {
    return AttrError("activation",
                     StrCat("expected 'none', 'silu' or 'swish', got '", activation, "'"));
  }
  OI_ASSIGN_OR_RETURN(int64_t ndim, ctx.IntAttr("ndim", 1));
  OI_ASSIGN_OR_RETURN(int64_t dilation, ctx.IntAttr("dilation", 1));
  OI_ASSIGN_OR_RETURN(int64_t channels_last, ctx.IntAttr("channels_last", 0));
  OI_ASSIGN_OR_RETURN(int64_t window, ctx.IntAttr("state_window", 0));
  if (ndim < 1 || ndim > 3) {
    return AttrError("ndim", StrCat("expected 1, 2 or 3, got ", ndim));
  }
  if (dilation < 1) {
    return AttrError("dilation", StrCat("expected >= 1, got ", dilation));
  }
  if (channels_last != 0 && (channels_last != 1 || ndim != 1)) {
    return AttrError("channels_last", StrCat("expected 0, or 1 with ndim = 1, got ", channels_last,
                                             " with ndim = ", ndim));
  }
  if (window < 0 || window > 8) {
    return AttrError("state_window", StrCat("expected a value in [0, 8], got ", window));
  }
  const Shape* in = ctx.InputShape(0);
  if (channels_last) {
    OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, 3));
  } else {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 0, static_cast<size_t>(2 + ndim)));
  }
  OI_ASSIGN_OR_RETURN(const Shape* weight, RankedInput(ctx, 1, 2 + ndim));
  OI_ASSIGN_OR_RETURN(const Shape* bias, RankedInput(ctx, 2, 1));
  Dim batch, channels, kernel;
  if (in) {
    batch = (*in)[0];
    channels = channels_last ? Product(Shape(in->begin() + 2, in->end())) : (*in)[1];
  }
  if (weight) {
    OI_RETURN_IF_ERROR(Agree(ctx, channels, (*weight)[0], "channels of input and weight"));
    Dim one = Dim::Const(1);
    OI_RETURN_IF_ERROR(Agree(ctx, one, (*weight)[1], "weight dim 1 (depthwise)"));
    kernel = (*weight)[2];
  }
  if (bias) OI_RETURN_IF_ERROR(Agree(ctx, channels, (*bias)[0], "channels of input and bias"));
  if (ndim != 1) return OkStatus();
  // The state's dims, each with what it is for a message.
  const Dim state = (kernel - Dim::Const(1)) * Dim::Const(dilation);
  const std::string length_meaning =
      dilation == 1 ? "kernel size - 1" : "(kernel size - 1) * dilation";
  Shape present;
  std::vector<std::string> meaning;
  if (window > 0) {
    present.push_back(Dim::Const(window));
    meaning.push_back("state_window");
  }
  if (!channels_last) {
    present.insert(present.end(), {batch, channels, state});
    meaning.insert(meaning.end(), {"batch of input", "channels of input", length_meaning});
  } else if (in) {
    present.insert(present.end(), {batch, state});
    meaning.insert(meaning.end(), {"batch of input", length_meaning});
    for (size_t i = 2; i < in->size(); ++i) {
      present.push_back((*in)[i]);
      meaning.push_back(StrCat("input dim ", i));
    }
  }
  if (present.empty()) return OkStatus();  // channels-last with an input of unknown rank
  OI_ASSIGN_OR_RETURN(const Shape* past, RankedInput(ctx, 3, present.size()));
  for (size_t i = 0; past && i < present.size(); ++i) {
    const std::string what = meaning[i] == length_meaning
                                 ? StrCat("past_state length and ", length_meaning)
                                 : StrCat(meaning[i], " and past_state dim ", i);
    OI_RETURN_IF_ERROR(Agree(ctx, present[i], (*past)[i], what));
  }
  ctx.SetOutputShape(1, present);
  return OkStatus();
}

Status InferLinearAttentionOf(InferenceContext& ctx, LinearAttentionForm form) {
  ctx.PropagateElemType(0, 0);
  if (ctx.HasInput(3) || form == LinearAttentionForm::kOnnx) {
    ctx.PropagateElemType(ctx.HasInput(3) ? 3 : 0, 1);
  }
  OI_ASSIGN_OR_RETURN(int64_t qh, ctx.IntAttr("q_num_heads"));
  OI_ASSIGN_OR_RETURN(int64_t kvh, ctx.IntAttr("kv_num_heads"));
  const bool inverse = form == LinearAttentionForm::kContrib && qh > 0 && kvh > qh;
  if (inverse ? kvh % qh != 0 : (qh <= 0 || kvh <= 0 || qh % kvh != 0)) {
    return AttrError(
        "q_num_heads",
        StrCat("expected a positive multiple of kv_num_heads = ", kvh,
               form == LinearAttentionForm::kContrib ? " (or a divisor of it)" : "", ", got ", qh));
  }
  OI_ASSIGN_OR_RETURN(int64_t window, ctx.IntAttr("state_window", 0));
  if (window < 0 || window > 8) {
    return AttrError("state_window", StrCat("expected a value in [0, 8], got ", window));
  }
  const Dim q_heads = Dim::Const(qh), kv_heads = Dim::Const(kvh);
  Dim batch, seq, dk, dv;
  const char* names[] = {"query", "key", "value"};
  for (int i : {0, 1, 2}) {
    OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, 3));
    if (!s) continue;
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*s)[0], StrCat("batch of query and ", names[i])));
    OI_RETURN_IF_ERROR(Agree(ctx, seq, (*s)[1], StrCat("sequence length of query and ", names[i])));
    OI_ASSIGN_OR_RETURN(Dim d, HeadSize(ctx, i, (*s)[2], i == 0 ? q_heads : kv_heads,
                                        i == 0 ? "q_num_heads" : "kv_num_heads"));
    OI_RETURN_IF_ERROR(i == 2 ? Agree(ctx, dv, d, "value head size")
                              : Agree(ctx, dk, d, StrCat("key head size of query and ", names[i])));
  }
  // present_state: [b, kvh, dk, dv], after a [W] window axis when state_window = W > 0.
  Shape present = {batch, kv_heads, dk, dv};
  if (window > 0) present.insert(present.begin(), Dim::Const(window));
  OI_ASSIGN_OR_RETURN(const Shape* past, RankedInput(ctx, 3, present.size()));
  if (past) {
    const char* meaning[] = {"batch of query", "kv_num_heads", "key head size", "value head size"};
    const size_t lead = window > 0 ? 1 : 0;
    if (lead) {
      OI_RETURN_IF_ERROR(Agree(ctx, present[0], (*past)[0], "state_window and past_state dim 0"));
    }
    for (size_t i = 0; i < 4; ++i) {
      OI_RETURN_IF_ERROR(Agree(ctx, present[lead + i], (*past)[lead + i],
                               StrCat(meaning[i], " and past_state dim ", lead + i)));
    }
    batch = present[lead];
    dk = present[lead + 2];
    dv = present[lead + 3];
  }
  for (int i : {4, 5}) {  // decay, beta: [b, t, ...]
    OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, 3));
    if (!s) continue;
    OI_RETURN_IF_ERROR(
        Agree(ctx, batch, (*s)[0], StrCat("batch of query and ", InputLabel(ctx, i))));
    OI_RETURN_IF_ERROR(
        Agree(ctx, seq, (*s)[1], StrCat("sequence length of query and ", InputLabel(ctx, i))));
  }
  // max(qh, kvh) * dv, from value's packed dim (kvh * dv) exactly: value[2] * (qh / kvh), or
  // value[2] itself for inverse GQA.
  const Shape* value = ctx.InputShape(2);
  const int64_t heads = std::max(qh, kvh);
  const Dim hidden =
      value && value->size() == 3 ? (*value)[2] * Dim::Const(heads / kvh) : Dim::Const(heads) * dv;
  ctx.SetOutputShape(0, {batch, seq, hidden});
  ctx.SetOutputShape(1, std::move(present));
  return OkStatus();
}

namespace {

// LinearAttention (27): query [b, t, qh * dk], key [b, t, kvh * dk], value [b, t, kvh * dv]
// (always 3-D; q_num_heads and kv_num_heads required, qh a multiple of kvh), past_state
// [b, kvh, dk, dv]. output [b, t, qh * dv], present_state [b, kvh, dk, dv] of past_state's type
// (query's without it, as ONNX's tests expect).
Status InferLinearAttention(InferenceContext& ctx) {
  return InferLinearAttentionOf(ctx, LinearAttentionForm::kOnnx);
}

// FlexAttention (ai.onnx.preview 1): Q [b, qh, l, d], K [b, kvh, s, d], V [b, kvh, s, dv] give
// Y [b, qh, l, dv]. The optional score_mod and prob_mod graphs map [b, qh, l, s] to itself in
// softmax_precision (float, or double for double inputs).
Status InferFlexAttention(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* q, RankedInput(ctx, 0, 4));
  OI_ASSIGN_OR_RETURN(const Shape* k, RankedInput(ctx, 1, 4));
  OI_ASSIGN_OR_RETURN(const Shape* v, RankedInput(ctx, 2, 4));
  Dim batch, q_heads, q_seq, head_size, kv_heads, kv_seq, v_head_size;
  if (q) {
    batch = (*q)[0];
    q_heads = (*q)[1];
    q_seq = (*q)[2];
    head_size = (*q)[3];
  }
  if (k) {
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*k)[0], "batch of Q and K"));
    OI_RETURN_IF_ERROR(Agree(ctx, head_size, (*k)[3], "head size of Q and K"));
    kv_heads = (*k)[1];
    kv_seq = (*k)[2];
  }
  if (v) {
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*v)[0], "batch of Q and V"));
    OI_RETURN_IF_ERROR(Agree(ctx, kv_heads, (*v)[1], "heads of K and V"));
    OI_RETURN_IF_ERROR(Agree(ctx, kv_seq, (*v)[2], "sequence length of K and V"));
    v_head_size = (*v)[3];
  }
  if (q_heads.is_const() && kv_heads.is_const() &&
      (*kv_heads.const_value() <= 0 || *q_heads.const_value() % *kv_heads.const_value() != 0)) {
    return RuleError(DiagCode::kInputDims,
                     StrCat("query heads (", q_heads.ToString(),
                            ") must be a multiple of key/value heads (", kv_heads.ToString(), ")"));
  }
  if (q) ctx.SetOutputShape(0, {batch, q_heads, q_seq, v_head_size});

  const Type& qt = ctx.InputType(0);
  int32_t softmax_elem = qt.is_tensor() && qt.elem_type() == kDouble ? kDouble : kFloat;
  if (ctx.HasAttr("softmax_precision")) {
    OI_ASSIGN_OR_RETURN(int64_t p, ctx.IntAttr("softmax_precision"));
    softmax_elem = static_cast<int32_t>(p);
  }
  const Type scores = Type::Tensor(softmax_elem, Shape{batch, q_heads, q_seq, kv_seq});
  for (const char* graph : {"score_mod", "prob_mod"}) {
    if (!ctx.HasAttr(graph)) continue;
    OI_ASSIGN_OR_RETURN(std::vector<Type> out, ctx.InferSubgraph(graph, {scores}));
    if (out.size() != 1) {
      return AttrError(graph, StrCat("expected 1 output, got ", out.size()));
    }
    if (out[0].is_tensor() && out[0].has_shape() && out[0].shape().size() != 4) {
      return AttrError(graph, StrCat("expected a rank 4 output, got ", out[0].ToString()),
                       DiagCode::kSubgraphMismatch);
    }
  }
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxAttentionRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Attention", {23, 24, 25}, InferAttention));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RotaryEmbedding", {23}, InferRotaryEmbedding));
  OI_RETURN_IF_ERROR(r.AttachRule("", "CausalConvWithState", {27}, InferCausalConvWithState));
  OI_RETURN_IF_ERROR(r.AttachRule("", "LinearAttention", {27}, InferLinearAttention));
  OI_RETURN_IF_ERROR(r.AttachRule("ai.onnx.preview", "FlexAttention", {1}, InferFlexAttention));
  return OkStatus();
}

}  // namespace onnx_infer
