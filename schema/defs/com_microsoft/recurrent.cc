// onnxruntime's recurrent and state-carrying operators (com.microsoft): AttnLSTM, the linear
// attention family (LinearAttention, LinearAttentionGate, GatedDeltaNet), the stateful causal
// convolutions (CausalConvWithState, VarlenCausalConvWithState) and the Engram block
// (EngramGate, NGramHashMapping, VarlenNGramHashMapping).
//
// The "Varlen" operators pack a batch of requests token-major: activations are
// [total_tokens, ...] and cumulative_sequence_length (cu_seqlens) is [batch + 1], so the
// batch of their per-request states is that dim minus 1. Each state a call returns
// (present_*, final_state) has the shape of the state it is given.
#include <cstdint>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/ai_onnx/nn/attention.h"
#include "onnx_infer/schema/defs/ai_onnx/rnn.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// Input i's dim `axis` is `acc`, when the input is there with a known shape of rank > axis.
Status AgreeDim(InferenceContext& ctx, Dim& acc, int i, size_t axis, std::string_view meaning) {
  const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
  if (!s || axis >= s->size()) return OkStatus();
  return Agree(ctx, acc, (*s)[axis], StrCat(meaning, " and ", InputLabel(ctx, i), " dim ", axis));
}

// The batch of a packed call from cumulative_sequence_length [batch + 1] (input i).
StatusOr<Dim> BatchFromOffsets(const InferenceContext& ctx, int i) {
  OI_ASSIGN_OR_RETURN(const Shape* cu, RankedInput(ctx, i, 1));
  return cu ? (*cu)[0] - Dim::Const(1) : Dim();
}

// An output the node asks for needs input `input`, which the document makes required then.
Status RequireInputFor(const InferenceContext& ctx, int output, int input) {
  if (output >= ctx.NumOutputs() || !ctx.HasOutput(output) || ctx.HasInput(input)) {
    return OkStatus();
  }
  return RuleError(
      DiagCode::kInputCombination,
      StrCat("input ", input, " '", ctx.schema().inputs()[input].name, "': required when output ",
             output, " '", ctx.node().output(output), "' is requested"),
      Subject::Input(input, ctx.schema().inputs()[input].name));
}

// ---- AttnLSTM

// AttnLSTM: an LSTM (X, W, R, B, sequence_lens, initial_h, initial_c, P in; Y, Y_h, Y_c out,
// as LSTM's) whose cell input is X concatenated with the attention state. The attention
// inputs are QW [dirs, hidden, am_attn], MW [dirs, memory_depth, am_attn], V [dirs, am_attn],
// M [batch, max_memory_step, memory_depth], memory_seq_lens [batch] and AW
// [dirs, memory_depth + hidden, aw_attn]. The document gives W as [dirs, 4*hidden,
// input_size]; onnxruntime's kernel reads [dirs, 4*hidden, input_size + attention_size],
// attention_size being AW's dim 2 with AW and memory_depth without, and so is W checked here.
Status InferAttnLSTM(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(InferRecurrent(ctx, 4, /*w_spans_input=*/false));
  OI_ASSIGN_OR_RETURN(std::string direction, ctx.StringAttr("direction", "forward"));
  Dim dirs = Dim::Const(direction == "bidirectional" ? 2 : 1);
  Dim hidden, batch, input_size, am_attn, memory_depth;
  if (ctx.HasAttr("hidden_size")) {
    OI_ASSIGN_OR_RETURN(int64_t h, ctx.IntAttr("hidden_size"));
    hidden = Dim::Const(h);
  }
  OI_RETURN_IF_ERROR(AgreeDim(ctx, hidden, 2, 2, "hidden_size"));  // R
  if (const Shape* x = ctx.InputShape(0); x && x->size() == 3) {
    batch = (*x)[1];
    input_size = (*x)[2];
  }
  const std::vector<std::pair<int, size_t>> ranks = {{8, 3},  {9, 3},  {10, 2},
                                                     {11, 3}, {12, 1}, {13, 3}};
  for (auto [i, rank] : ranks) OI_RETURN_IF_ERROR(RankedInput(ctx, i, rank).status());
  for (int i : {8, 9, 10, 13}) OI_RETURN_IF_ERROR(AgreeDim(ctx, dirs, i, 0, "num_directions"));
  OI_RETURN_IF_ERROR(AgreeDim(ctx, hidden, 8, 1, "hidden_size"));          // QW
  OI_RETURN_IF_ERROR(AgreeDim(ctx, am_attn, 8, 2, "am_attn_size"));        // QW
  OI_RETURN_IF_ERROR(AgreeDim(ctx, am_attn, 9, 2, "am_attn_size"));        // MW
  OI_RETURN_IF_ERROR(AgreeDim(ctx, am_attn, 10, 1, "am_attn_size"));       // V
  OI_RETURN_IF_ERROR(AgreeDim(ctx, memory_depth, 9, 1, "memory_depth"));   // MW
  OI_RETURN_IF_ERROR(AgreeDim(ctx, memory_depth, 11, 2, "memory_depth"));  // M
  OI_RETURN_IF_ERROR(AgreeDim(ctx, batch, 11, 0, "batch_size"));           // M
  OI_RETURN_IF_ERROR(AgreeDim(ctx, batch, 12, 0, "batch_size"));           // memory_seq_lens
  Dim attention_size = memory_depth;
  if (const Shape* aw = ctx.HasInput(13) ? ctx.InputShape(13) : nullptr) {
    Dim width = memory_depth + hidden;
    OI_RETURN_IF_ERROR(AgreeDim(ctx, width, 13, 1, "memory_depth + hidden_size"));
    attention_size = (*aw)[2];
  }
  Dim w_width = input_size + attention_size;
  return AgreeDim(ctx, w_width, 1, 2, "input_size + attention_size");
}

// ---- Linear attention

// LinearAttention (com.microsoft): ai.onnx's, plus inverse GQA and state_window.
Status InferLinearAttention(InferenceContext& ctx) {
  return InferLinearAttentionOf(ctx, LinearAttentionForm::kContrib);
}

// LinearAttentionGate: decay and beta are [B, T, H] like a and b; dt_bias and decay_scale [H].
Status InferLinearAttentionGate(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireInputFor(ctx, 1, 3));
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(3, 1);
  Dim batch, seq, heads;
  for (int i : {0, 3}) {
    OI_ASSIGN_OR_RETURN(const Shape* s, RankedInput(ctx, i, 3));
    if (!s) continue;
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*s)[0], StrCat("batch of a and ", InputLabel(ctx, i))));
    OI_RETURN_IF_ERROR(
        Agree(ctx, seq, (*s)[1], StrCat("sequence length of a and ", InputLabel(ctx, i))));
    OI_RETURN_IF_ERROR(Agree(ctx, heads, (*s)[2], StrCat("heads of a and ", InputLabel(ctx, i))));
  }
  for (int i : {1, 2}) {
    OI_RETURN_IF_ERROR(RankedInput(ctx, i, 1).status());
    OI_RETURN_IF_ERROR(AgreeDim(ctx, heads, i, 0, "heads"));
  }
  ctx.SetOutputShape(0, {batch, seq, heads});
  ctx.SetOutputShape(1, {batch, seq, heads});
  return OkStatus();
}

// GatedDeltaNet: query [N, hq, dk], key [N, hk, dk], value [N, hv, dv], token-major; the
// token axis N may be spelled [B, S] (rank 4), which cu_seqlens does not allow. hq == hk, and
// hv is a positive multiple of hq, so the document's max(hq, hv) output heads are hv:
//   output [N, hv, dv] (query's type)   final_state [batch, hv, dv, dk] (float)
//   state_update [batch, C * (hv + hk * dk + hv * dv)] (float), C = state_update_capacity
// The batch is B, initial_state's dim 0, capture_count's, or cu_seqlens' dim 0 minus 1.
// decay is [N, hv] or [N, hv, dk], beta [N, hv], a_log and dt_bias [hv].
Status InferGatedDeltaNet(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t capacity, ctx.IntAttr("state_update_capacity", 0));
  if (capacity < 0 || capacity > 8) {
    return AttrError("state_update_capacity", StrCat("expected a value in [0, 8], got ", capacity));
  }
  const Shape* q = ctx.InputShape(0);
  const Shape* k = ctx.InputShape(1);
  const Shape* v = ctx.InputShape(2);
  size_t rank = 0;
  for (int i : {0, 1, 2}) {
    const Shape* s = ctx.InputShape(i);
    if (!s) continue;
    if (rank) {
      OI_RETURN_IF_ERROR(RequireRank(ctx, i, *s, rank, "query's"));
    } else {
      OI_RETURN_IF_ERROR(RequireRank(ctx, i, {3, 4}));
    }
    rank = s->size();
  }
  if (rank == 0) return OkStatus();
  const size_t lead = rank - 2;  // the token dims: [N] or [B, S]
  if (lead == 2 && ctx.HasInput(3)) {
    return InputError(ctx, 3, DiagCode::kInputRank,
                      "ragged packing needs rank-3 query, key and value, got rank 4");
  }
  Shape tokens(lead);
  Dim hq, hk, hv, dk, dv;
  for (int i : {0, 1, 2}) {
    for (size_t d = 0; d < lead; ++d) {
      OI_RETURN_IF_ERROR(AgreeDim(ctx, tokens[d], i, d, StrCat("token dim ", d, " of query")));
    }
  }
  if (q) hq = (*q)[lead];
  if (k) hk = (*k)[lead];
  if (v) {
    hv = (*v)[lead];
    dv = (*v)[lead + 1];
  }
  OI_RETURN_IF_ERROR(AgreeDim(ctx, dk, 0, lead + 1, "head_size_qk"));
  OI_RETURN_IF_ERROR(AgreeDim(ctx, dk, 1, lead + 1, "head_size_qk"));
  if (q && k)
    OI_RETURN_IF_ERROR(Agree(ctx, hq, hk, "num_heads_q (query dim 1) and num_heads_k (key dim 1)"));
  if (auto a = hq.const_value(), b = hv.const_value(); a && b && (*a <= 0 || *b % *a != 0)) {
    return InputError(
        ctx, 2, DiagCode::kInputValue,
        StrCat("expected num_heads_v a positive multiple of num_heads_q = ", *a, ", got ", *b));
  }
  // decay [N.., hv] or [N.., hv, dk]; beta [N.., hv].
  for (int i : {4, 5}) {
    const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
    if (!s) continue;
    if (i == 4) {
      OI_RETURN_IF_ERROR(RequireRank(ctx, i, {lead + 1, lead + 2}));
    } else {
      OI_RETURN_IF_ERROR(RequireRank(ctx, i, *s, lead + 1));
    }
    for (size_t d = 0; d < lead; ++d) {
      OI_RETURN_IF_ERROR(AgreeDim(ctx, tokens[d], i, d, StrCat("token dim ", d, " of query")));
    }
    OI_RETURN_IF_ERROR(AgreeDim(ctx, hv, i, lead, "num_heads_v"));
    if (s->size() == lead + 2) OI_RETURN_IF_ERROR(AgreeDim(ctx, dk, i, lead + 1, "head_size_qk"));
  }
  for (int i : {7, 8}) {  // a_log, dt_bias
    OI_RETURN_IF_ERROR(RankedInput(ctx, i, 1).status());
    OI_RETURN_IF_ERROR(AgreeDim(ctx, hv, i, 0, "num_heads_v"));
  }
  Dim batch = lead == 2 ? tokens[0] : Dim();
  OI_ASSIGN_OR_RETURN(Dim from_offsets, BatchFromOffsets(ctx, 3));
  if (!from_offsets.is_unknown())
    OI_RETURN_IF_ERROR(Agree(ctx, batch, from_offsets, "batch and cu_seqlens' dim 0 - 1"));
  OI_ASSIGN_OR_RETURN(const Shape* state, RankedInput(ctx, 6, 4));
  if (state) {
    OI_RETURN_IF_ERROR(AgreeDim(ctx, batch, 6, 0, "batch"));
    OI_RETURN_IF_ERROR(AgreeDim(ctx, hv, 6, 1, "num_heads_v"));
    OI_RETURN_IF_ERROR(AgreeDim(ctx, dv, 6, 2, "head_size_v"));
    OI_RETURN_IF_ERROR(AgreeDim(ctx, dk, 6, 3, "head_size_qk"));
  }
  OI_RETURN_IF_ERROR(RankedInput(ctx, 9, 1).status());
  OI_RETURN_IF_ERROR(AgreeDim(ctx, batch, 9, 0, "batch"));  // capture_count
  Shape out = tokens;
  out.insert(out.end(), {hv, dv});
  ctx.SetOutputShape(0, std::move(out));
  ctx.SetOutputShape(1, {batch, hv, dv, dk});
  const Dim per_step = hv + hk * dk + hv * dv;
  ctx.SetOutputShape(2, {batch, Dim::Const(capacity) * per_step});
  return OkStatus();
}

// ---- Causal convolutions

// VarlenCausalConvWithState: input [total_tokens, channels] (output is it), weight
// [channels, 1, k], bias [channels], cumulative_sequence_length [batch + 1]; initial_state and
// final_state [batch, channels, (k - 1) * dilation] of the input's type; state_update
// [batch, state_update_capacity, channels].
Status InferVarlenCausalConvWithState(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  ctx.PropagateElemType(0, 1);
  ctx.PropagateElemType(0, 2);
  OI_ASSIGN_OR_RETURN(std::string activation, ctx.StringAttr("activation", "none"));
  if (activation != "none" && activation != "silu" && activation != "swish") {
    return AttrError("activation",
                     StrCat("expected 'none', 'silu' or 'swish', got '", activation, "'"));
  }
  OI_ASSIGN_OR_RETURN(int64_t dilation, ctx.IntAttr("dilation", 1));
  if (dilation < 1) return AttrError("dilation", StrCat("expected >= 1, got ", dilation));
  OI_ASSIGN_OR_RETURN(int64_t capacity, ctx.IntAttr("state_update_capacity", 0));
  if (capacity < 0 || capacity > 8) {
    return AttrError("state_update_capacity", StrCat("expected a value in [0, 8], got ", capacity));
  }
  const std::vector<std::pair<int, size_t>> ranks = {{0, 2}, {1, 3}, {3, 1}, {4, 3}, {5, 1}};
  for (auto [i, rank] : ranks) OI_RETURN_IF_ERROR(RankedInput(ctx, i, rank).status());
  Dim channels, kernel, batch;
  OI_RETURN_IF_ERROR(AgreeDim(ctx, channels, 0, 1, "channels"));
  OI_RETURN_IF_ERROR(AgreeDim(ctx, channels, 1, 0, "channels"));
  OI_RETURN_IF_ERROR(AgreeDim(ctx, channels, 3, 0, "channels"));
  OI_RETURN_IF_ERROR(AgreeDim(ctx, kernel, 1, 2, "kernel size"));
  Dim one = Dim::Const(1);
  OI_RETURN_IF_ERROR(AgreeDim(ctx, one, 1, 1, "1 (depthwise)"));
  OI_ASSIGN_OR_RETURN(batch, BatchFromOffsets(ctx, 2));
  const Dim state = (kernel - Dim::Const(1)) * Dim::Const(dilation);
  Shape final_state = {batch, channels, state};
  const char* meaning[] = {"batch (cumulative_sequence_length's dim 0 - 1)", "channels",
                           "(kernel size - 1) * dilation"};
  for (size_t d = 0; d < 3; ++d)
    OI_RETURN_IF_ERROR(AgreeDim(ctx, final_state[d], 4, d, meaning[d]));
  OI_RETURN_IF_ERROR(AgreeDim(ctx, final_state[0], 5, 0, "batch"));  // capture_count
  ctx.SetOutputShape(1, final_state);
  ctx.SetOutputShape(2, {final_state[0], Dim::Const(capacity), final_state[1]});
  return OkStatus();
}

// ---- Engram

// EngramGate: key and query [B, S, hc_mult, hidden], value [B, S, hidden], the norm scales
// [hc_mult, hidden]; output and gated_value_normed (which needs conv_norm_scale) are
// [B, S, hc_mult, hidden].
Status InferEngramGate(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireInputFor(ctx, 1, 5));
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 1);
  const std::vector<std::pair<int, size_t>> ranks = {{0, 4}, {1, 4}, {2, 3},
                                                     {3, 2}, {4, 2}, {5, 2}};
  for (auto [i, rank] : ranks) OI_RETURN_IF_ERROR(RankedInput(ctx, i, rank).status());
  Shape out(4);
  const char* meaning[] = {"batch", "sequence length", "hc_mult", "hidden size"};
  for (int i : {0, 1}) {
    for (size_t d = 0; d < 4; ++d) OI_RETURN_IF_ERROR(AgreeDim(ctx, out[d], i, d, meaning[d]));
  }
  for (size_t d : {0, 1}) OI_RETURN_IF_ERROR(AgreeDim(ctx, out[d], 2, d, meaning[d]));
  OI_RETURN_IF_ERROR(AgreeDim(ctx, out[3], 2, 2, meaning[3]));
  for (int i : {3, 4, 5}) {
    OI_RETURN_IF_ERROR(AgreeDim(ctx, out[2], i, 0, meaning[2]));
    OI_RETURN_IF_ERROR(AgreeDim(ctx, out[3], i, 1, meaning[3]));
  }
  ctx.SetOutputShape(0, out);
  ctx.SetOutputShape(1, out);
  return OkStatus();
}

// What the n-gram hash operators share: max_ngram_size - 1 history slots, and
// (max_ngram_size - 1) * n_head_per_ngram output heads. multipliers has at least
// max_ngram_size values; vocab_sizes and head_offsets (input `offsets`) one per head.
struct NGramDims {
  Dim history, heads;
};

StatusOr<NGramDims> ReadNGram(InferenceContext& ctx, int offsets) {
  OI_ASSIGN_OR_RETURN(int64_t max_ngram, ctx.IntAttr("max_ngram_size"));
  OI_ASSIGN_OR_RETURN(int64_t per_ngram, ctx.IntAttr("n_head_per_ngram"));
  if (max_ngram < 2) {
    return AttrError("max_ngram_size", StrCat("expected >= 2, got ", max_ngram));
  }
  if (per_ngram < 1) {
    return AttrError("n_head_per_ngram", StrCat("expected >= 1, got ", per_ngram));
  }
  NGramDims n{Dim::Const(max_ngram - 1), Dim::Const((max_ngram - 1) * per_ngram)};
  OI_ASSIGN_OR_RETURN(const Shape* multipliers, RankedInput(ctx, 1, 1));
  if (auto m = multipliers ? (*multipliers)[0].const_value() : std::nullopt; m && *m < max_ngram) {
    return InputError(
        ctx, 1, DiagCode::kInputValue,
        StrCat("expected at least max_ngram_size = ", max_ngram, " values, got ", *m));
  }
  for (int i : {2, offsets}) {
    OI_RETURN_IF_ERROR(RankedInput(ctx, i, 1).status());
    OI_RETURN_IF_ERROR(AgreeDim(ctx, n.heads, i, 0, "(max_ngram_size - 1) * n_head_per_ngram"));
  }
  return n;
}

// Input i is [batch, max_ngram_size - 1] (past_ids, past_segment_ids).
Status AgreeHistory(InferenceContext& ctx, Dim& batch, const NGramDims& n, int i) {
  OI_RETURN_IF_ERROR(RankedInput(ctx, i, 2).status());
  OI_RETURN_IF_ERROR(AgreeDim(ctx, batch, i, 0, "batch"));
  Dim history = n.history;
  return AgreeDim(ctx, history, i, 1, "max_ngram_size - 1");
}

// NGramHashMapping: input_ids and segment_ids [B, S]; hash_ids
// [B, S, (max_ngram_size - 1) * n_head_per_ngram]; past_ids and present_ids
// [B, max_ngram_size - 1].
Status InferNGramHashMapping(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 1);
  OI_ASSIGN_OR_RETURN(NGramDims n, ReadNGram(ctx, 4));
  Dim batch, seq;
  for (int i : {0, 6}) {
    OI_RETURN_IF_ERROR(RankedInput(ctx, i, 2).status());
    OI_RETURN_IF_ERROR(AgreeDim(ctx, batch, i, 0, "batch"));
    OI_RETURN_IF_ERROR(AgreeDim(ctx, seq, i, 1, "sequence length"));
  }
  OI_RETURN_IF_ERROR(AgreeHistory(ctx, batch, n, 3));
  ctx.SetOutputShape(0, {batch, seq, n.heads});
  ctx.SetOutputShape(1, {batch, n.history});
  return OkStatus();
}

// VarlenNGramHashMapping: input_ids and segment_ids [total_tokens]; hash_ids
// [total_tokens, (max_ngram_size - 1) * n_head_per_ngram]; past_ids, past_segment_ids and
// present_ids, present_segment_ids (int32) [batch, max_ngram_size - 1], the batch being
// cumulative_sequence_length's dim 0 - 1.
Status InferVarlenNGramHashMapping(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.PropagateElemType(0, 1);
  ctx.SetOutputType(2, Type::Tensor(kInt32));
  OI_ASSIGN_OR_RETURN(NGramDims n, ReadNGram(ctx, 5));
  Dim tokens;
  for (int i : {0, 7}) {
    OI_RETURN_IF_ERROR(RankedInput(ctx, i, 1).status());
    OI_RETURN_IF_ERROR(AgreeDim(ctx, tokens, i, 0, "total_tokens"));
  }
  OI_ASSIGN_OR_RETURN(Dim batch, BatchFromOffsets(ctx, 3));
  for (int i : {4, 8}) OI_RETURN_IF_ERROR(AgreeHistory(ctx, batch, n, i));
  ctx.SetOutputShape(0, {tokens, n.heads});
  ctx.SetOutputShape(1, {batch, n.history});
  ctx.SetOutputShape(2, {batch, n.history});
  return OkStatus();
}

}  // namespace

Status RegisterComMicrosoftRecurrentRules(SchemaRegistry& r) {
  const char* ms = "com.microsoft";
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "AttnLSTM", {1}, InferAttnLSTM));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "LinearAttention", {1}, InferLinearAttention));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "LinearAttentionGate", {1}, InferLinearAttentionGate));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "GatedDeltaNet", {1}, InferGatedDeltaNet));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "CausalConvWithState", {1}, InferCausalConvWithState));
  OI_RETURN_IF_ERROR(
      r.AttachRule(ms, "VarlenCausalConvWithState", {1}, InferVarlenCausalConvWithState));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "EngramGate", {1}, InferEngramGate));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "NGramHashMapping", {1}, InferNGramHashMapping));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "VarlenNGramHashMapping", {1}, InferVarlenNGramHashMapping));
  return OkStatus();
}

}  // namespace onnx_infer
