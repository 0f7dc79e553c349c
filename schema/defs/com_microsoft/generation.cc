// onnxruntime's text-generation operators (com.microsoft): BeamSearch, WhisperBeamSearch,
// GreedySearch and Sampling run a decoder subgraph in a loop until max_length tokens;
// NGramRepeatBlock and BifurcationDetector are steps of such loops.
//
// The generated length is an input value (max_length), as are num_beams and
// num_return_sequences: a dim that comes from one is exact when the driver knows the value
// (an initializer, a Constant, Shape arithmetic) and unknown otherwise. The batch is
// input_ids' dim 0. The shapes are those onnxruntime allocates (its beam_search_impl_*.h and
// greedy_search_impl_gpt.h), which the document states too, except where a comment says.
#include <cstdint>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer {
namespace {

// model_type: GPT-style decoder only (0), encoder-decoder such as T5 or BART (1), Whisper (2).
constexpr int64_t kGpt = 0, kWhisper = 2;

// Where a generation operator keeps its optional inputs (-1: it has none).
struct GenerationInputs {
  int vocab_mask, prefix_vocab_mask, attention_mask;
  int decoder_input_ids = -1;
  int presence_mask = -1;
};

constexpr GenerationInputs kBeamInputs{7, 8, 9, 10};
constexpr GenerationInputs kGreedyInputs{4, 5, 6};
constexpr GenerationInputs kSamplingInputs{4, 5, 6, -1, 7};

// What the loop's outputs are made of.
struct GenerationDims {
  Dim batch, max_length, vocab;
  // The length the runtime counts generated steps from (its sequence_length): input_ids' dim
  // 1 for GPT; 1 for encoder-decoder models, whose decoder starts from
  // decoder_start_token_id; decoder_input_ids' dim 1 (1 without it) for Whisper.
  Dim start_length;
};

// A known int attribute's value; `fallback` when absent.
int64_t IntOr(const InferenceContext& ctx, const char* name, int64_t fallback) {
  auto v = ctx.IntAttr(name, fallback);
  return v.ok() ? *v : fallback;
}

// The decoder subgraph's vocabulary: the last dim of its first output (the logits), when the
// graph declares it as a constant. Symbols of the subgraph are its own, so only constants
// are taken.
Dim DecoderVocab(const InferenceContext& ctx) {
  const onnx::AttributeProto* a = ctx.Attr("decoder");
  if (!a || !a->has_g() || a->g().output_size() == 0) return Dim();
  const Type logits = TypeFromProto(a->g().output(0).type());
  if (!logits.is_tensor() || !logits.has_shape() || logits.shape().empty()) return Dim();
  const Dim v = logits.shape().back();
  return v.is_const() ? v : Dim();
}

// Reads and checks what the generation operators share: input_ids (rank 2, or 3 for
// Whisper's input features), max_length, the start length, the masks' batch and vocabulary
// dims. The vocabulary is the vocab_size attribute
// when positive, else the decoder's logits dim (the runtime's order); the masks must agree.
StatusOr<GenerationDims> ReadGeneration(InferenceContext& ctx, const GenerationInputs& in,
                                        int64_t model_type) {
  GenerationDims g;
  OI_ASSIGN_OR_RETURN(const Shape* ids, RankedInput(ctx, 0, model_type == kWhisper ? 3 : 2));
  if (ids) g.batch = (*ids)[0];
  g.max_length = ScalarInputDim(ctx, 1);
  if (auto m = g.max_length.const_value(); m && *m <= 0) {
    return InputError(ctx, 1, DiagCode::kInputValue,
                      StrCat("expected a positive length, got ", *m));
  }
  if (model_type == kGpt) {
    g.start_length = ids ? (*ids)[1] : Dim();
  } else if (model_type == kWhisper && in.decoder_input_ids >= 0 &&
             ctx.HasInput(in.decoder_input_ids)) {
    OI_ASSIGN_OR_RETURN(const Shape* d, RankedInput(ctx, in.decoder_input_ids, 2));
    if (d) {
      OI_RETURN_IF_ERROR(
          Agree(ctx, g.batch, (*d)[0],
                StrCat("batch of input_ids and ", InputLabel(ctx, in.decoder_input_ids))));
      g.start_length = (*d)[1];
    }
  } else {
    g.start_length = Dim::Const(1);
  }
  const int64_t vocab_attr = IntOr(ctx, "vocab_size", -1);
  g.vocab = vocab_attr > 0 ? Dim::Const(vocab_attr) : DecoderVocab(ctx);
  OI_ASSIGN_OR_RETURN(const Shape* vocab_mask, RankedInput(ctx, in.vocab_mask, 1));
  if (vocab_mask) {
    OI_RETURN_IF_ERROR(Agree(ctx, g.vocab, (*vocab_mask)[0],
                             StrCat("vocab_size and ", InputLabel(ctx, in.vocab_mask), " dim 0")));
  }
  for (int i : {in.prefix_vocab_mask, in.presence_mask}) {
    if (i < 0) continue;
    OI_ASSIGN_OR_RETURN(const Shape* mask, RankedInput(ctx, i, 2));
    if (!mask) continue;
    OI_RETURN_IF_ERROR(
        Agree(ctx, g.batch, (*mask)[0], StrCat("batch of input_ids and ", InputLabel(ctx, i))));
    OI_RETURN_IF_ERROR(
        Agree(ctx, g.vocab, (*mask)[1], StrCat("vocab_size and ", InputLabel(ctx, i), " dim 1")));
  }
  OI_ASSIGN_OR_RETURN(const Shape* attention_mask, RankedInput(ctx, in.attention_mask, 2));
  if (attention_mask) {
    OI_RETURN_IF_ERROR(
        Agree(ctx, g.batch, (*attention_mask)[0],
              StrCat("batch of input_ids and ", InputLabel(ctx, in.attention_mask))));
  }
  return g;
}

// max_length must exceed the start length (the runtime checks it for every model type).
Status CheckMaxLength(const InferenceContext& ctx, const GenerationDims& g) {
  auto m = g.max_length.const_value(), s = g.start_length.const_value();
  if (m && s && *m <= *s) {
    return InputError(
        ctx, 1, DiagCode::kInputValue,
        StrCat("expected more than the ", *s, " tokens generation starts from, got ", *m));
  }
  return OkStatus();
}

// BeamSearch and WhisperBeamSearch:
//   sequences        [batch, num_return_sequences, max_length]
//   sequences_scores [batch, num_return_sequences]
//   scores           [max_length - start_length, batch, num_beams, vocab]
// WhisperBeamSearch adds cross_qk [batch, num_return_sequences, pairs, steps, frames] (pairs
// is cross_qk_layer_head's dim 0, which the runtime requires; the decoded steps and the
// frames are known only at run time) and non_speech_probs [batch].
// onnxruntime's own shape inference takes scores' dim 0 from input_ids' dim 1 for every model
// type; its kernels count from the start length above (1 for T5, the decoder prompt for
// Whisper), which is what is allocated, so that is used here.
Status InferBeamSearchOf(InferenceContext& ctx, bool whisper) {
  const int64_t model_type = IntOr(ctx, "model_type", whisper ? kWhisper : kGpt);
  OI_ASSIGN_OR_RETURN(GenerationDims g, ReadGeneration(ctx, kBeamInputs, model_type));
  OI_RETURN_IF_ERROR(CheckMaxLength(ctx, g));
  const Dim beams = ScalarInputDim(ctx, 3), returned = ScalarInputDim(ctx, 4);
  auto b = beams.const_value(), r = returned.const_value();
  if (b && *b < 1)
    return InputError(ctx, 3, DiagCode::kInputValue, StrCat("expected >= 1, got ", *b));
  if (r && *r < 1)
    return InputError(ctx, 4, DiagCode::kInputValue, StrCat("expected >= 1, got ", *r));
  if (b && r && *r > *b) {
    return InputError(ctx, 4, DiagCode::kInputValue,
                      StrCat("expected at most num_beams = ", *b, " sequences, got ", *r));
  }
  ctx.SetOutputShape(0, {g.batch, returned, g.max_length});
  ctx.SetOutputShape(1, {g.batch, returned});
  ctx.SetOutputShape(2, {g.max_length - g.start_length, g.batch, beams, g.vocab});
  if (!whisper) return OkStatus();
  Dim pairs;
  OI_ASSIGN_OR_RETURN(const Shape* layer_head, RankedInput(ctx, 12, 2));
  if (layer_head) {
    pairs = (*layer_head)[0];
    Dim two = Dim::Const(2);
    OI_RETURN_IF_ERROR(Agree(ctx, two, (*layer_head)[1],
                             StrCat(InputLabel(ctx, 12), " dim 1 ([layer, head] pairs)"),
                             InputSubject(ctx, 12)));
  }
  ctx.SetOutputShape(3, {g.batch, returned, pairs, Dim(), Dim()});
  ctx.SetOutputShape(4, {g.batch});
  return OkStatus();
}

Status InferBeamSearch(InferenceContext& ctx) { return InferBeamSearchOf(ctx, /*whisper=*/false); }
Status InferWhisperBeamSearch(InferenceContext& ctx) {
  return InferBeamSearchOf(ctx, /*whisper=*/true);
}

// GreedySearch: sequences [batch, max_length]. Greedy search and sampling count from
// input_ids' dim 1 whatever the model type (the runtime's GreedySearchParameters).
Status InferGreedySearch(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(GenerationDims g, ReadGeneration(ctx, kGreedyInputs, kGpt));
  OI_RETURN_IF_ERROR(CheckMaxLength(ctx, g));
  ctx.SetOutputShape(0, {g.batch, g.max_length});
  return OkStatus();
}

// Sampling: sequences [batch, max_length]; filtered_logits [batch, vocab] (the runtime writes
// it only in its debug builds; the document gives the shape).
Status InferSampling(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(GenerationDims g, ReadGeneration(ctx, kSamplingInputs, kGpt));
  OI_RETURN_IF_ERROR(CheckMaxLength(ctx, g));
  ctx.SetOutputShape(0, {g.batch, g.max_length});
  ctx.SetOutputShape(1, {g.batch, g.vocab});
  return OkStatus();
}

// NGramRepeatBlock: scores_out is scores [batch, vocab]; input_ids is [batch, seq].
Status InferNGramRepeatBlock(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(1));
  OI_ASSIGN_OR_RETURN(const Shape* ids, RankedInput(ctx, 0, 2));
  OI_ASSIGN_OR_RETURN(const Shape* scores, RankedInput(ctx, 1, 2));
  if (ids && scores) {
    Dim batch = (*scores)[0];
    OI_RETURN_IF_ERROR(Agree(ctx, batch, (*ids)[0], "batch of scores and input_ids"));
    ctx.SetOutputShape(0, {batch, (*scores)[1]});
  }
  return OkStatus();
}

// BifurcationDetector (onnxruntime's kernel; the document gives no shapes): without
// pred_tokens, tokens is cur_tokens; with them it is cur_tokens extended by the predicted
// tokens up to the bifurcation point, a 1-D length known only at run time. suffix_match_idx
// has prev_suffix_match_idx's shape.
Status InferBifurcationDetector(InferenceContext& ctx) {
  ctx.SetOutputType(1, ctx.InputType(2));
  if (!ctx.HasInput(3)) {
    ctx.SetOutputType(0, ctx.InputType(1));
    return OkStatus();
  }
  ctx.PropagateElemType(1, 0);
  ctx.SetOutputShape(0, {Dim()});
  return OkStatus();
}

}  // namespace

Status RegisterComMicrosoftGenerationRules(SchemaRegistry& r) {
  const char* ms = "com.microsoft";
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "BeamSearch", {1}, InferBeamSearch));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "WhisperBeamSearch", {1}, InferWhisperBeamSearch));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "GreedySearch", {1}, InferGreedySearch));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "Sampling", {1}, InferSampling));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "NGramRepeatBlock", {1}, InferNGramRepeatBlock));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "BifurcationDetector", {1}, InferBifurcationDetector));
  return OkStatus();
}

}  // namespace onnx_infer
