// Table tests of onnxruntime's operators outside attention, normalization, fused math and
// quantization (schema/defs/com_microsoft/): generation (generation.cc), recurrent and
// state-carrying operators (recurrent.cc), tensor operators (tensor.cc), EPContext and Snpe
// (execution_provider.cc), and the default-domain extras (ort_default_domain.cc).
#include <gtest/gtest.h>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::IntAttr;
using testing::IntsAttr;
using testing::RunMatches;
using testing::RunRule;
using testing::T;

struct Case {
  const char* name;
  std::string node;  // NodeProto text
  int64_t opset;
  std::vector<const char*> inputs;  // types ("sparse_tensor(float[M, K])" too), "" if absent
  std::vector<std::optional<ConstValue>> values;
  std::string expected;        // RuleRun::Summary(), or "error: <part of the message>"
  std::string expected_value;  // output 0's value as "[a, b]", or "" for none
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

Type Input(const std::string& text) {
  const std::string sparse = "sparse_tensor(";
  if (text.rfind(sparse, 0) != 0) return T(text);
  const Type dense = T(text.substr(sparse.size(), text.size() - sparse.size() - 1));
  return Type::SparseTensor(dense.elem_type(), dense.maybe_shape());
}

class ComMicrosoftMiscRuleTest : public ::testing::TestWithParam<Case> {};

TEST_P(ComMicrosoftMiscRuleTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? Input(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, c.opset, inputs, c.values);
  EXPECT_TRUE(RunMatches(run, c.expected));
  if (testing::ExpectsError(c.expected)) return;
  std::string value;
  if (!run.values.empty() && run.values[0]) value = "[" + StrJoin(run.values[0]->ints, ", ") + "]";
  EXPECT_EQ(value, c.expected_value);
}

// ---- Node and value builders

std::string Ms(const char* op, const std::vector<const char*>& inputs,
               const std::vector<const char*>& outputs, const std::string& attrs = "") {
  return testing::Node(op, inputs, outputs, attrs, "com.microsoft");
}
std::string Op(const char* op, const std::vector<const char*>& inputs,
               const std::vector<const char*>& outputs, const std::string& attrs = "") {
  return testing::Node(op, inputs, outputs, attrs);
}
std::string StrAttr(const char* name, const char* s) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: STRING s: ")" + s + R"(" })";
}
std::string FloatsAttr(const char* name, int n) {
  std::string s = std::string(R"( attribute { name: ")") + name + R"(" type: FLOATS)";
  for (int i = 0; i < n; ++i) s += " floats: 1";
  return s + " }";
}
// A decoder subgraph whose first output (the logits) is declared [?, ?, vocab].
std::string Decoder(int64_t vocab) {
  return StrCat(R"( attribute { name: "decoder" type: GRAPH g { name: "dec" output { )",
                R"(name: "logits" type { tensor_type { elem_type: 1 shape { dim { } dim { } )",
                R"(dim { dim_value: )", vocab, " } } } } } } }");
}
// An int32 tensor of one element (max_length, num_beams, ...), or of several.
ConstValue I32(std::vector<int64_t> v) {
  ConstValue c;
  c.elem_type = kInt32;
  c.dims = {static_cast<int64_t>(v.size())};
  for (int64_t x : v) c.ints.push_back(Dim::Const(x));
  return c;
}
ConstValue SymbolValue(const char* name) {
  ConstValue c;
  c.elem_type = kInt32;
  c.dims = {1};
  c.ints = {Dim::Symbol(name)};
  return c;
}
ConstValue Scalar(int64_t x) { return ConstValue{kInt64, {}, {Dim::Const(x)}, {}}; }
ConstValue ValueOf(const std::vector<std::string>& items) {
  ConstValue v;
  v.elem_type = kInt64;
  v.dims = {static_cast<int64_t>(items.size())};
  for (const auto& i : items) {
    v.ints.push_back(std::isdigit(static_cast<unsigned char>(i[0])) ? Dim::Const(std::stoll(i))
                                                                   : Dim::Symbol(i));
  }
  return v;
}

const std::vector<const char*> kBeamOutputs = {"seq", "seq_scores", "scores"};

// ---- Generation

INSTANTIATE_TEST_SUITE_P(
    Generation, ComMicrosoftMiscRuleTest,
    ::testing::Values(
        Case{"beam_gpt_lengths_from_values",
             Ms("BeamSearch", {"ids", "max", "", "beams", "ret", "lp"}, kBeamOutputs,
                IntAttr("vocab_size", 100)),
             1,
             {"int32[B, S]", "int32[1]", "", "int32[1]", "int32[1]", "float[1]"},
             {std::nullopt, I32({20}), std::nullopt, I32({4}), I32({2})},
             "int32[B, 2, 20]; float[B, 2]; float[-S + 20, B, 4, 100]"},
        Case{"beam_symbolic_max_length_unknown_counts",
             Ms("BeamSearch", {"ids", "max", "", "beams", "ret"}, {"seq"}),
             1,
             {"int32[B, S]", "int32[1]", "", "int32[1]", "int32[1]"},
             {std::nullopt, SymbolValue("L")},
             "int32[B, ?, L]"},
        Case{"beam_t5_counts_steps_from_one_vocab_from_decoder",
             Ms("BeamSearch", {"ids", "max", "", "beams", "ret"}, kBeamOutputs,
                IntAttr("model_type", 1) + Decoder(32128)),
             1,
             {"int32[B, S]", "int32[1]", "", "int32[1]", "int32[1]"},
             {std::nullopt, I32({20}), std::nullopt, I32({4}), I32({4})},
             "int32[B, 4, 20]; ?[B, 4]; ?[19, B, 4, 32128]"},
        Case{"beam_vocab_mask_must_match_vocab_size",
             Ms("BeamSearch", {"ids", "max", "", "beams", "ret", "", "", "mask"}, kBeamOutputs,
                IntAttr("vocab_size", 100)),
             1,
             {"int32[B, S]", "int32[1]", "", "int32[1]", "int32[1]", "", "", "int32[99]"},
             {},
             "error: vocab_size and input 7 'mask' dim 0"},
        Case{"beam_more_sequences_than_beams",
             Ms("BeamSearch", {"ids", "max", "", "beams", "ret"}, {"seq"}),
             1,
             {"int32[B, S]", "int32[1]", "", "int32[1]", "int32[1]"},
             {std::nullopt, I32({20}), std::nullopt, I32({2}), I32({3})},
             "error: input 4 'ret': expected at most num_beams = 2 sequences, got 3"},
        Case{"beam_max_length_within_prompt",
             Ms("BeamSearch", {"ids", "max", "", "beams", "ret"}, {"seq"}),
             1,
             {"int32[1, 20]", "int32[1]", "", "int32[1]", "int32[1]"},
             {std::nullopt, I32({10})},
             "error: input 1 'max': expected more than the 20 tokens generation starts from"},
        Case{"whisper_cross_qk_and_no_speech",
             Ms("WhisperBeamSearch",
                {"feats", "max", "", "beams", "ret", "lp", "", "", "", "", "dec_ids", "", "pairs"},
                {"seq", "seq_scores", "scores", "cross_qk", "no_speech"}),
             1,
             {"float[B, 80, 3000]", "int32[1]", "", "int32[1]", "int32[1]", "float[1]", "", "",
              "", "", "int32[B, 4]", "", "int32[6, 2]"},
             {std::nullopt, I32({448}), std::nullopt, I32({5}), I32({1})},
             "int32[B, 1, 448]; float[B, 1]; float[444, B, 5, ?]; float[B, 1, 6, ?, ?]; float[B]"},
        Case{"whisper_features_are_3d",
             Ms("WhisperBeamSearch", {"feats", "max", "", "beams", "ret"}, {"seq"}),
             1,
             {"float[B, 3000]", "int32[1]", "", "int32[1]", "int32[1]"},
             {},
             "error: input 0 'feats': expected rank 3, got rank 2"},
        Case{"greedy_symbolic_max_length",
             Ms("GreedySearch", {"ids", "max"}, {"seq"}),
             1,
             {"int32[B, S]", "int32[1]"},
             {std::nullopt, SymbolValue("L")},
             "int32[B, L]"},
        Case{"greedy_prefix_mask_batch",
             Ms("GreedySearch", {"ids", "max", "", "", "", "prefix"}, {"seq"}),
             1,
             {"int32[2, S]", "int32[1]", "", "", "", "int32[3, V]"},
             {},
             "error: batch of input_ids and input 5 'prefix'"},
        Case{"sampling_filtered_logits_vocab_from_presence_mask",
             Ms("Sampling", {"ids", "max", "", "", "", "", "", "presence"}, {"seq", "logits"}),
             1,
             {"int32[B, S]", "int32[1]", "", "", "", "", "", "int32[B, 500]"},
             {std::nullopt, I32({64})},
             "int32[B, 64]; float[B, 500]"},
        Case{"ngram_repeat_block_keeps_scores",
             Ms("NGramRepeatBlock", {"ids", "scores"}, {"out"}, IntAttr("ngram_size", 3)),
             1,
             {"int64[B, S]", "float[?, V]"},
             {},
             "float[B, V]"},
        Case{"ngram_repeat_block_batch",
             Ms("NGramRepeatBlock", {"ids", "scores"}, {"out"}, IntAttr("ngram_size", 3)),
             1,
             {"int64[2, S]", "float[3, V]"},
             {},
             "error: batch of scores and input_ids"},
        Case{"bifurcation_with_predictions_is_data_dependent",
             Ms("BifurcationDetector", {"src", "cur", "idx", "pred"}, {"tokens", "new_idx"}),
             1,
             {"int64[S]", "int64[C]", "int64[]", "int64[P]"},
             {},
             "int64[?]; int64[]"},
        Case{"bifurcation_without_predictions_keeps_tokens",
             Ms("BifurcationDetector", {"src", "cur", "idx"}, {"tokens", "new_idx"}),
             1,
             {"int64[S]", "int64[C]", "int64[]"},
             {},
             "int64[C]; int64[]"}));

// ---- Recurrent and state-carrying operators

// AttnLSTM's inputs: X, W, R, then (B, sequence_lens, initial_h, initial_c, P absent) QW, MW,
// V, M, memory_seq_lens, AW.
std::vector<const char*> AttnLstmInputs(const char* w, const char* mw, const char* m,
                                        const char* aw) {
  return {"float[T, B, 16]", w, "float[1, 32, 8]", "", "", "", "", "", "float[1, 8, 10]", mw,
          "float[1, 10]", m, "int32[B]", aw};
}
const std::vector<const char*> kAttnLstmNames = {"x", "w", "r", "", "", "", "", "",
                                                 "qw", "mw", "v", "m", "lens", "aw"};

std::string LinearHeads(int64_t q, int64_t kv) {
  return IntAttr("q_num_heads", q) + IntAttr("kv_num_heads", kv);
}

INSTANTIATE_TEST_SUITE_P(
    Recurrent, ComMicrosoftMiscRuleTest,
    ::testing::Values(
        Case{"attn_lstm_w_spans_input_and_memory",
             Ms("AttnLSTM", {"x", "w", "r", "", "", "", "", "", "qw", "mw", "v", "m", "lens"},
                {"y", "y_h", "y_c"}, IntAttr("hidden_size", 8)),
             1,
             {"float[T, B, 16]", "float[1, 32, 28]", "float[1, 32, 8]", "", "", "", "", "",
              "float[1, 8, 10]", "float[1, 12, 10]", "float[1, 10]", "float[B, MS, 12]",
              "int32[B]"},
             {},
             "float[T, 1, B, 8]; float[1, B, 8]; float[1, B, 8]"},
        Case{"attn_lstm_w_spans_attention_layer",
             Ms("AttnLSTM", kAttnLstmNames, {"y"}, IntAttr("hidden_size", 8)),
             1,
             AttnLstmInputs("float[1, 32, 28]", "float[1, 12, 10]", "float[B, MS, 12]",
                            "float[1, 20, 6]"),
             {},
             "error: input_size + attention_size and input 1 'w' dim 2: 22 vs 28"},
        Case{"attn_lstm_memory_depth",
             Ms("AttnLSTM", kAttnLstmNames, {"y"}, IntAttr("hidden_size", 8)),
             1,
             AttnLstmInputs("float[1, 32, 28]", "float[1, 12, 10]", "float[B, MS, 13]",
                            "float[1, 20, 6]"),
             {},
             "error: memory_depth and input 11 'm' dim 2"},
        Case{"linear_attention_gqa_state_type_from_past_only",
             Ms("LinearAttention", {"q", "k", "v"}, {"y", "state"}, LinearHeads(8, 4)),
             1,
             {"float16[B, T, 64]", "float16[B, T, 32]", "float16[B, T, 32]"},
             {},
             "float16[B, T, 64]; ?[B, 4, 8, 8]"},
        Case{"linear_attention_inverse_gqa",
             Ms("LinearAttention", {"q", "k", "v", "past"}, {"y", "state"}, LinearHeads(2, 4)),
             1,
             {"float[B, T, 16]", "float[B, T, 32]", "float[B, T, DV]", "float[B, 4, 8, ?]"},
             {},
             "float[B, T, DV]; float[B, 4, 8, floor(DV/4)]"},
        Case{"linear_attention_state_window",
             Ms("LinearAttention", {"q", "k", "v", "past"}, {"y", "state"},
                LinearHeads(4, 4) + IntAttr("state_window", 3)),
             1,
             {"float[B, T, 32]", "float[B, T, 32]", "float[B, T, 32]", "float[?, B, 4, 8, 8]"},
             {},
             "float[B, T, 32]; float[3, B, 4, 8, 8]"},
        Case{"linear_attention_window_of_past",
             Ms("LinearAttention", {"q", "k", "v", "past"}, {"y", "state"},
                LinearHeads(4, 4) + IntAttr("state_window", 3)),
             1,
             {"float[B, T, 32]", "float[B, T, 32]", "float[B, T, 32]", "float[2, B, 4, 8, 8]"},
             {},
             "error: state_window and past_state dim 0"},
        Case{"linear_attention_heads_must_nest",
             Ms("LinearAttention", {"q", "k", "v"}, {"y", "state"}, LinearHeads(3, 2)),
             1,
             {"float[B, T, 24]", "float[B, T, 16]", "float[B, T, 16]"},
             {},
             "error: attribute 'q_num_heads': expected a positive multiple of kv_num_heads = 2 (or "
             "a divisor of it), got 3"},
        Case{"linear_attention_gate",
             Ms("LinearAttentionGate", {"a", "dt", "scale", "b"}, {"decay", "beta"}),
             1,
             {"float16[B, T, H]", "float[H]", "float[?]", "float16[B, ?, H]"},
             {},
             "float16[B, T, H]; float16[B, T, H]"},
        Case{"linear_attention_gate_beta_needs_b",
             Ms("LinearAttentionGate", {"a", "dt", "scale"}, {"decay", "beta"}),
             1,
             {"float16[B, T, H]", "float[H]", "float[H]"},
             {},
             "error: input 3 'b': required when output 1 'beta' is requested"},
        Case{"linear_attention_gate_heads",
             Ms("LinearAttentionGate", {"a", "dt", "scale"}, {"decay"}),
             1,
             {"float[B, T, 8]", "float[4]", "float[8]"},
             {},
             "error: heads and input 1 'dt' dim 0"},
        Case{"gated_delta_net_packed_with_offsets",
             Ms("GatedDeltaNet", {"q", "k", "v", "cu", "decay", "beta", "state"},
                {"y", "final", "update"}, IntAttr("state_update_capacity", 2)),
             1,
             {"float16[N, 4, 64]", "float16[N, 4, 64]", "float16[N, 8, 32]", "int32[B + 1]",
              "float[N, 8]", "float[N, 8]", "float[?, 8, 32, 64]"},
             {},
             "float16[N, 8, 32]; float[B, 8, 32, 64]; float[B, 1040]"},
        Case{"gated_delta_net_batch_sequence_spelling",
             Ms("GatedDeltaNet", {"q", "k", "v", "", "decay"}, {"y", "final"}),
             1,
             {"float[B, S, 2, 16]", "float[B, S, 2, 16]", "float[B, S, 4, DV]", "",
              "float[B, S, 4, 16]"},
             {},
             "float[B, S, 4, DV]; float[B, 4, DV, 16]"},
        Case{"gated_delta_net_key_heads",
             Ms("GatedDeltaNet", {"q", "k", "v"}, {"y"}),
             1,
             {"float[N, 4, 64]", "float[N, 2, 64]", "float[N, 8, 32]"},
             {},
             "error: num_heads_q (query dim 1) and num_heads_k (key dim 1)"},
        Case{"gated_delta_net_value_heads_multiple",
             Ms("GatedDeltaNet", {"q", "k", "v"}, {"y"}),
             1,
             {"float[N, 4, 64]", "float[N, 4, 64]", "float[N, 6, 32]"},
             {},
             "error: input 2 'v': expected num_heads_v a positive multiple of num_heads_q = 4, "
             "got 6"},
        Case{"gated_delta_net_offsets_need_packed_tokens",
             Ms("GatedDeltaNet", {"q", "k", "v", "cu"}, {"y"}),
             1,
             {"float[B, S, 4, 64]", "float[B, S, 4, 64]", "float[B, S, 4, 32]", "int32[B + 1]"},
             {},
             "error: input 3 'cu': ragged packing needs rank-3 query, key and value"},
        Case{"causal_conv_dilation",
             Ms("CausalConvWithState", {"x", "w"}, {"y", "state"}, IntAttr("dilation", 2)),
             1,
             {"float[B, 64, L]", "float[64, 1, 4]"},
             {},
             "float[B, 64, L]; float[B, 64, 6]"},
        Case{"causal_conv_channels_last_window",
             Ms("CausalConvWithState", {"x", "w", "", "past"}, {"y", "state"},
                IntAttr("channels_last", 1) + IntAttr("state_window", 2)),
             1,
             {"float[B, S, 2, 32]", "float[64, 1, K]", "", "float[2, B, 3, 2, 32]"},
             {},
             "float[B, S, 2, 32]; float[2, B, 3, 2, 32]"},
        Case{"causal_conv_channels_last_symbolic_kernel",
             Ms("CausalConvWithState", {"x", "w"}, {"y", "state"},
                IntAttr("channels_last", 1) + IntAttr("dilation", 2) + IntAttr("state_window", 2)),
             1,
             {"float[B, S, 2, 32]", "float[64, 1, K]"},
             {},
             "float[B, S, 2, 32]; float[2, B, 2*K - 2, 2, 32]"},
        Case{"causal_conv_channels_last_channels",
             Ms("CausalConvWithState", {"x", "w"}, {"y", "state"}, IntAttr("channels_last", 1)),
             1,
             {"float[B, S, 2, 32]", "float[48, 1, 4]"},
             {},
             "error: channels of input and weight"},
        Case{"causal_conv_past_length_with_dilation",
             Ms("CausalConvWithState", {"x", "w", "", "past"}, {"y", "state"},
                IntAttr("dilation", 2)),
             1,
             {"float[B, 64, L]", "float[64, 1, 4]", "", "float[B, 64, 3]"},
             {},
             "error: past_state length and kernel size - 1, times dilation"},
        Case{"causal_conv_2d_state_not_stated",
             Ms("CausalConvWithState", {"x", "w"}, {"y", "state"}, IntAttr("ndim", 2)),
             1,
             {"float[B, C, H, W]", "float[C, 1, 3, 3]"},
             {},
             "float[B, C, H, W]; float"},
        Case{"varlen_causal_conv",
             Ms("VarlenCausalConvWithState", {"x", "w", "cu", "", "init", "count"},
                {"y", "final", "update"}, IntAttr("state_update_capacity", 2)),
             1,
             {"float16[N, 64]", "float16[64, 1, 4]", "int32[B + 1]", "", "float16[?, 64, 3]",
              "int32[B]"},
             {},
             "float16[N, 64]; float16[B, 64, 3]; float16[B, 2, 64]"},
        Case{"varlen_causal_conv_state_length",
             Ms("VarlenCausalConvWithState", {"x", "w", "cu", "", "init"}, {"y", "final"},
                IntAttr("dilation", 2)),
             1,
             {"float[N, 64]", "float[64, 1, 4]", "int32[B + 1]", "", "float[B, 64, 3]"},
             {},
             "error: (kernel size - 1) * dilation and input 4 'init' dim 2"},
        Case{"engram_gate",
             Ms("EngramGate", {"key", "query", "value", "ks", "qs", "cs"}, {"out", "normed"}),
             1,
             {"bfloat16[B, S, 4, 128]", "bfloat16[B, S, ?, ?]", "bfloat16[B, S, 128]",
              "bfloat16[4, 128]", "bfloat16[4, 128]", "bfloat16[4, 128]"},
             {},
             "bfloat16[B, S, 4, 128]; bfloat16[B, S, 4, 128]"},
        Case{"engram_gate_normed_needs_scale",
             Ms("EngramGate", {"key", "query", "value", "ks", "qs"}, {"out", "normed"}),
             1,
             {"float[B, S, 4, 128]", "float[B, S, 4, 128]", "float[B, S, 128]", "float[4, 128]",
              "float[4, 128]"},
             {},
             "error: input 5 'conv_norm_scale': required when output 1 'normed' is requested"},
        Case{"engram_gate_hidden",
             Ms("EngramGate", {"key", "query", "value", "ks", "qs"}, {"out"}),
             1,
             {"float[B, S, 4, 128]", "float[B, S, 4, 128]", "float[B, S, 64]", "float[4, 128]",
              "float[4, 128]"},
             {},
             "error: hidden size and input 2 'value' dim 2"},
        Case{"ngram_hash_mapping",
             Ms("NGramHashMapping", {"ids", "mult", "vocab", "past"}, {"hash", "present"},
                IntAttr("max_ngram_size", 3) + IntAttr("n_head_per_ngram", 4) +
                    IntAttr("pad_id", 0)),
             1,
             {"int64[B, S]", "int64[3]", "int64[8]", "int64[B, 2]"},
             {},
             "int64[B, S, 8]; int64[B, 2]"},
        Case{"ngram_hash_mapping_vocab_sizes",
             Ms("NGramHashMapping", {"ids", "mult", "vocab"}, {"hash"},
                IntAttr("max_ngram_size", 3) + IntAttr("n_head_per_ngram", 4) +
                    IntAttr("pad_id", 0)),
             1,
             {"int64[B, S]", "int64[3]", "int64[6]"},
             {},
             "error: (max_ngram_size - 1) * n_head_per_ngram and input 2 'vocab' dim 0"},
        Case{"ngram_hash_mapping_multipliers",
             Ms("NGramHashMapping", {"ids", "mult", "vocab"}, {"hash"},
                IntAttr("max_ngram_size", 3) + IntAttr("n_head_per_ngram", 4) +
                    IntAttr("pad_id", 0)),
             1,
             {"int64[B, S]", "int64[2]", "int64[8]"},
             {},
             "error: input 1 'mult': expected at least max_ngram_size = 3 values, got 2"},
        Case{"varlen_ngram_hash_mapping",
             Ms("VarlenNGramHashMapping", {"ids", "mult", "vocab", "cu", "past"},
                {"hash", "present", "present_segments"},
                IntAttr("max_ngram_size", 3) + IntAttr("n_head_per_ngram", 4) +
                    IntAttr("pad_id", 0)),
             1,
             {"int32[N]", "int32[4]", "int32[8]", "int32[B + 1]", "int32[?, 2]"},
             {},
             "int32[N, 8]; int32[B, 2]; int32[B, 2]"},
        Case{"varlen_ngram_hash_mapping_history",
             Ms("VarlenNGramHashMapping", {"ids", "mult", "vocab", "cu", "past"},
                {"hash", "present"},
                IntAttr("max_ngram_size", 3) + IntAttr("n_head_per_ngram", 4) +
                    IntAttr("pad_id", 0)),
             1,
             {"int32[N]", "int32[4]", "int32[8]", "int32[B + 1]", "int32[B, 3]"},
             {},
             "error: max_ngram_size - 1 and input 4 'past' dim 1"}));

// ---- Tensor operators

INSTANTIATE_TEST_SUITE_P(
    Tensor, ComMicrosoftMiscRuleTest,
    ::testing::Values(
        Case{"trilu", Ms("Trilu", {"x"}, {"y"}), 1, {"float[B, N, M]"}, {}, "float[B, N, M]"},
        Case{"trilu_k_scalar", Ms("Trilu", {"x", "k"}, {"y"}), 1, {"float[N, M]", "int64[2]"}, {},
             "error: input 1 'k': expected a scalar"},
        Case{"pad_2d_pads",
             Ms("Pad", {"x", "pads"}, {"y"}), 1, {"float[N, 3]", "int64[1, 4]"},
             {std::nullopt, Int64s({0, 2, 0, 1})}, "float[N, 6]"},
        Case{"pad_reflect_symbolic_pads",
             Ms("Pad", {"x", "pads"}, {"y"}, StrAttr("mode", "reflect")), 1,
             {"float[N, C]", "int64[4]"}, {std::nullopt, ValueOf({"1", "P", "1", "0"})},
             "float[N + 2, C + P]"},
        Case{"pad_pads_shape",
             Ms("Pad", {"x", "pads"}, {"y"}), 1, {"float[N, 3]", "int64[2, 4]"}, {},
             "error: input 1 'pads': expected [2 * rank] or [1, 2 * rank], got [2, 4]"},
        Case{"pad_wrap_is_onnx_19",
             Ms("Pad", {"x", "pads"}, {"y"}, StrAttr("mode", "wrap")), 1,
             {"float[N, 3]", "int64[4]"}, {}, "error: attribute 'mode'"},
        Case{"range_default_delta_values",
             Ms("Range", {"start", "limit"}, {"y"}), 1, {"int64[]", "int64[]"},
             {Scalar(2), Scalar(6)}, "int64[4]", "[2, 3, 4, 5]"},
        Case{"range_symbolic_limit",
             Ms("Range", {"start", "limit", "delta"}, {"y"}), 1, {"int64[]", "int64[]", "int64[]"},
             {Scalar(0), ValueOf({"N"}), Scalar(1)}, "int64[N]"},
        Case{"expand_dims_negative_appends",
             Ms("ExpandDims", {"x", "axis"}, {"y"}), 1, {"float[B, 3]", "int32[]"},
             {std::nullopt, I32({-1})}, "float[B, 3, 1]"},
        Case{"expand_dims_carries_value",
             Ms("ExpandDims", {"x", "axis"}, {"y"}), 1, {"int64[2]", "int32[1]"},
             {ValueOf({"B", "3"}), I32({0})}, "int64[1, 2]", "[B, 3]"},
        Case{"expand_dims_unknown_axis",
             Ms("ExpandDims", {"x", "axis"}, {"y"}), 1, {"float[B, 3]", "int32[]"}, {},
             "float[?, ?, ?]"},
        Case{"expand_dims_axis_range",
             Ms("ExpandDims", {"x", "axis"}, {"y"}), 1, {"float[B, 3]", "int32[]"},
             {std::nullopt, I32({-3})}, "error: input 1 'axis': expected an axis in [-2, 2]"},
        Case{"gather_nd", Ms("GatherND", {"data", "indices"}, {"y"}), 1,
             {"float[A, B, C]", "int64[N, 2]"}, {}, "float[N, C]"},
        Case{"grid_sample", Ms("GridSample", {"x", "grid"}, {"y"}), 1,
             {"float[N, C, H, W]", "float[N, Ho, Wo, 2]"}, {}, "float[N, C, Ho, Wo]"},
        Case{"grid_sample_is_2d", Ms("GridSample", {"x", "grid"}, {"y"}), 1,
             {"float[N, C, D, H, W]", "float[N, Do, Ho, Wo, 3]"}, {},
             "error: input 0 'x': expected rank 4, got rank 5"},
        Case{"unique_shares_a_fresh_count", Ms("Unique", {"x"}, {"y", "idx", "counts"}), 1,
             {"int64[N]"}, {}, "int64[y__d0]; int64[N]; int64[y__d0]"},
        Case{"unique_known_values", Ms("Unique", {"x"}, {"y", "idx", "counts"}), 1,
             {"int64[3]"}, {ValueOf({"3", "1", "3"})}, "int64[2]; int64[3]; int64[2]"},
        Case{"unique_is_1d", Ms("Unique", {"x"}, {"y", "idx", "counts"}), 1, {"int64[N, 2]"}, {},
             "error: input 0 'x': expected rank 1, got rank 2"},
        Case{"inverse", Ms("Inverse", {"x"}, {"y"}), 1, {"float[B, M, 3]"}, {}, "float[B, 3, 3]"},
        Case{"inverse_square", Ms("Inverse", {"x"}, {"y"}), 1, {"float[B, 3, 4]"}, {},
             "error: input 0 'x': expected square matrices"},
        Case{"rfft_onesided", Ms("Rfft", {"x"}, {"y"}, IntAttr("signal_ndim", 1)), 1,
             {"float[B, N]"}, {}, "float[B, floor(N/2) + 1, 2]"},
        Case{"rfft_full", Ms("Rfft", {"x"}, {"y"}, IntAttr("onesided", 0)), 1, {"float16[B, 16]"},
             {}, "float16[B, 16, 2]"},
        Case{"rfft_signal_rank", Ms("Rfft", {"x"}, {"y"}, IntAttr("signal_ndim", 2)), 1,
             {"float[N]"}, {}, "error: input 0 'x': expected rank >= 2 for signal_ndim = 2"},
        Case{"irfft_allocates_2m_minus_1", Ms("Irfft", {"x"}, {"y"}, IntAttr("signal_ndim", 1)),
             1, {"float[B, M, 2]"}, {}, "float[B, 2*M - 1]"},
        Case{"irfft_pairs", Ms("Irfft", {"x"}, {"y"}, IntAttr("signal_ndim", 1)), 1,
             {"float[B, 9, 3]"}, {}, "error: input 0 'x' dim 2 (real and imaginary parts)"},
        Case{"complex_mul_broadcasts", Ms("ComplexMul", {"a", "b"}, {"c"}), 1,
             {"float[B, 1, 8, 2]", "float[4, 8, 2]"}, {}, "float[B, 4, 8, 2]"},
        Case{"complex_mul_conj_pairs", Ms("ComplexMulConj", {"a", "b"}, {"c"}), 1,
             {"float[B, 8, 2]", "float[B, 8, 3]"}, {},
             "error: input 1 'b' dim 2 (real and imaginary parts)"},
        Case{"cdist", Ms("CDist", {"a", "b"}, {"c"}), 1, {"float[M, D]", "float[K, D]"}, {},
             "float[M, K]"},
        Case{"cdist_features", Ms("CDist", {"a", "b"}, {"c"}), 1, {"float[M, 3]", "float[K, 4]"},
             {}, "error: feature dims of A and B (dim 1)"},
        Case{"sparse_to_dense_matmul_trans_a",
             Ms("SparseToDenseMatMul", {"a", "b"}, {"y"}, IntAttr("transA", 1)), 1,
             {"sparse_tensor(float[K, M])", "float[K, N]"}, {}, "float[M, N]"},
        Case{"sparse_to_dense_matmul_contracted",
             Ms("SparseToDenseMatMul", {"a", "b"}, {"y"}), 1,
             {"sparse_tensor(float[M, 3])", "float[4, N]"}, {},
             "error: contracted dims of A (transA=0) and B (transB=0)"},
        Case{"murmur_hash_unsigned", Ms("MurmurHash3", {"x"}, {"y"}), 1, {"string[N]"}, {},
             "uint32[N]"},
        Case{"murmur_hash_signed", Ms("MurmurHash3", {"x"}, {"y"}, IntAttr("positive", 0)), 1,
             {"int64[N, 2]"}, {}, "int32[N, 2]"},
        Case{"is_all_finite", Ms("IsAllFinite", {"a", "b"}, {"y"}), 1,
             {"float[N]", "float[M, 2]"}, {}, "bool[]"},
        Case{"sample_op", Ms("SampleOp", {"x"}, {"y"}), 1, {"double[N, 2]"}, {}, "double[N, 2]"},
        Case{"crop_and_resize",
             Ms("CropAndResize", {"x", "rois", "idx", "size"}, {"y"}), 1,
             {"float[N, C, H, W]", "float[R, 4]", "int32[R]", "int32[2]"},
             {std::nullopt, std::nullopt, std::nullopt, I32({7, 5})}, "float[R, C, 7, 5]"},
        Case{"crop_and_resize_unknown_size",
             Ms("CropAndResize", {"x", "rois", "idx", "size"}, {"y"}), 1,
             {"float[N, C, H, W]", "float[?, 4]", "int32[R]", "int32[2]"}, {},
             "float[R, C, ?, ?]"},
        Case{"crop_and_resize_boxes",
             Ms("CropAndResize", {"x", "rois", "idx", "size"}, {"y"}), 1,
             {"float[N, C, H, W]", "float[R, 5]", "int32[R]", "int32[2]"}, {},
             "error: input 1 'rois' dim 1 (a box's [y1, x1, y2, x2])"},
        Case{"torch_embedding", Ms("TorchEmbedding", {"w", "idx"}, {"y"}), 1,
             {"float[V, 64]", "int64[B, S]"}, {}, "float[B, S, 64]"},
        Case{"word_conv_embedding",
             Ms("WordConvEmbedding", {"seq", "w", "b", "c"}, {"y"}), 1,
             {"int32[S, 20]", "float[32, 1, 3, 16]", "float[32]", "float[100, 16]"}, {},
             "float[S, 32]"},
        Case{"word_conv_embedding_char_size",
             Ms("WordConvEmbedding", {"seq", "w", "b", "c"}, {"y"}), 1,
             {"int32[S, 20]", "float[32, 1, 3, 16]", "float[32]", "float[100, 8]"}, {},
             "error: char embedding size of C (dim 1) and W (dim 3)"},
        Case{"word_conv_embedding_attribute",
             Ms("WordConvEmbedding", {"seq", "w", "b", "c"}, {"y"}, IntAttr("embedding_size", 64)),
             1, {"int32[S, 20]", "float[32, 1, 3, 16]", "float[32]", "float[100, 16]"}, {},
             "error: attribute 'embedding_size'"},
        Case{"unfold_tensor",
             Ms("UnfoldTensor", {"x"}, {"y"},
                IntAttr("dim", 1) + IntAttr("size", 4) + IntAttr("step", 2)), 1,
             {"float[B, 10, C]"}, {}, "float[B, 4, C, 4]"},
        Case{"unfold_tensor_symbolic_last",
             Ms("UnfoldTensor", {"x"}, {"y"}, IntAttr("size", 4)), 1, {"float[B, L]"}, {},
             "float[B, L - 3, 4]"},
        Case{"unfold_tensor_size",
             Ms("UnfoldTensor", {"x"}, {"y"}, IntAttr("dim", 1) + IntAttr("size", 12)), 1,
             {"float[B, 10]"}, {}, "error: attribute 'size': expected at most input 0 'x' dim 1"},
        Case{"tokenizer_adds_token_dim",
             Ms("Tokenizer", {"x"}, {"y"},
                IntAttr("mark", 0) + IntAttr("mincharnum", 1) + StrAttr("pad_value", "#")),
             1, {"string[N, 3]"}, {}, "string[N, 3, ?]"},
        Case{"tokenizer_empty_input_keeps_shape",
             Ms("Tokenizer", {"x"}, {"y"},
                IntAttr("mark", 0) + IntAttr("mincharnum", 1) + StrAttr("pad_value", "#")),
             1, {"string[N, 0]"}, {}, "string[N, 0]"},
        Case{"tokenizer_rank_depends_on_emptiness",
             Ms("Tokenizer", {"x"}, {"y"},
                IntAttr("mark", 0) + IntAttr("mincharnum", 1) + StrAttr("pad_value", "#")),
             1, {"string[C]"}, {}, "string"},
        Case{"dtw_path_is_data_dependent", Ms("DynamicTimeWarping", {"cost"}, {"path"}), 1,
             {"float[M, N]"}, {}, "int32[2, ?]"},
        Case{"dtw_single_row_is_forced", Ms("DynamicTimeWarping", {"cost"}, {"path"}), 1,
             {"float[1, 1, N]"}, {}, "int32[2, N]"},
        Case{"dtw_batch_of_one", Ms("DynamicTimeWarping", {"cost"}, {"path"}), 1,
             {"float[2, M, N]"}, {}, "error: input 0 'cost' dim 0 ([1, M, N])"},
        Case{"ep_context_outputs_are_the_payloads",
             Ms("EPContext", {"a", "b"}, {"y", "z"}), 1, {"float[N, 3]", "int64[2]"}, {}, "?; ?"},
        Case{"snpe_outputs_share_the_type", Ms("Snpe", {"x"}, {"y", "z"}, StrAttr("DLC", "dlc")),
             1, {"uint8[1, 3, 224, 224]"}, {}, "uint8; uint8"}));

// ---- onnxruntime's default-domain extras (legacy experimental ops, TensorRT plugins)

INSTANTIATE_TEST_SUITE_P(
    DefaultDomain, ComMicrosoftMiscRuleTest,
    ::testing::Values(
        Case{"affine", Op("Affine", {"x"}, {"y"}), 9, {"float[N, 3]"}, {}, "float[N, 3]"},
        Case{"scaled_tanh_deprecated_10", Op("ScaledTanh", {"x"}, {"y"}), 10, {"float16[N]"}, {},
             "float16[N]"},
        Case{"parametric_softplus", Op("ParametricSoftplus", {"x"}, {"y"}), 9, {"double[N]"}, {},
             "double[N]"},
        Case{"scale", Op("Scale", {"x"}, {"y"}), 7, {"float[B, C]"}, {}, "float[B, C]"},
        Case{"thresholded_relu_1", Op("ThresholdedRelu", {"x"}, {"y"}), 9, {"float[N, 2]"}, {},
             "float[N, 2]"},
        Case{"mean_variance_normalization_1", Op("MeanVarianceNormalization", {"x"}, {"y"}), 8,
             {"float[N, C, H, W]"}, {}, "float[N, C, H, W]"},
        Case{"mean_variance_normalization_1_is_nchw",
             Op("MeanVarianceNormalization", {"x"}, {"y"}), 8, {"float[N, C, H]"}, {},
             "error: input 0 'x': expected [N, C, H, W], got rank 3"},
        Case{"image_scaler", Op("ImageScaler", {"x"}, {"y"}, FloatsAttr("bias", 3)), 9,
             {"float[N, 3, H, W]"}, {}, "float[N, 3, H, W]"},
        Case{"image_scaler_bias_per_channel",
             Op("ImageScaler", {"x"}, {"y"}, FloatsAttr("bias", 2)), 9, {"float[N, 3, H, W]"}, {},
             "error: channels of input (dim 1) and the length of attribute 'bias'"},
        Case{"crop_border", Op("Crop", {"x"}, {"y"}, IntsAttr("border", {1, 2, 3, 4})), 9,
             {"float[N, C, 32, W]"}, {}, "float[N, C, 26, W - 4]"},
        Case{"crop_scale",
             Op("Crop", {"x"}, {"y"}, IntsAttr("border", {1, 2, 3, 4}) + IntsAttr("scale", {10, 12})),
             10, {"float[N, C, H, W]"}, {}, "float[N, C, 10, 12]"},
        Case{"crop_too_small", Op("Crop", {"x"}, {"y"}, IntsAttr("border", {1, 2, 3, 4})), 9,
             {"float[N, C, 5, W]"}, {},
             "error: input 0 'x' dim 2: expected at least 6 (the border), got 5"},
        Case{"dynamic_slice",
             Op("DynamicSlice", {"x", "starts", "ends", "axes"}, {"y"}), 9,
             {"float[N, 10]", "int64[1]", "int64[1]", "int64[1]"},
             {std::nullopt, Int64s({2}), Int64s({8}), Int64s({1})}, "float[N, 6]"},
        Case{"dynamic_slice_of_a_shape",
             Op("DynamicSlice", {"x", "starts", "ends"}, {"y"}), 9,
             {"int64[3]", "int64[1]", "int64[1]"},
             {ValueOf({"B", "S", "64"}), Int64s({1}), Int64s({3})}, "int64[2]", "[S, 64]"},
        Case{"given_tensor_fill_shape", Op("GivenTensorFill", {}, {"y"}, IntsAttr("shape", {2, 3})),
             9, {}, {}, "?[2, 3]"},
        Case{"given_tensor_fill_extra_shape",
             Op("GivenTensorFill", {"s"}, {"y"}, IntsAttr("extra_shape", {5})), 9, {"float[4]"}, {},
             "float[4, 5]"},
        Case{"gru_unit", Op("GRUUnit", {"h", "gates", "lens", "t"}, {"y"}), 9,
             {"float[N, D]", "float[N, 3*D]", "float[N]", "float[]"}, {}, "float[N, D]"},
        Case{"efficient_nms",
             Op("EfficientNMS_TRT", {"boxes", "scores"}, {"num", "boxes_out", "scores_out", "classes"},
                IntAttr("max_output_boxes", 100)),
             13, {"float[B, A, 4]", "float[B, A, C]"}, {},
             "int32[B, 1]; float[B, 100, 4]; float[B, 100]; int32[B, 100]"},
        Case{"multilevel_crop_and_resize",
             Op("MultilevelCropAndResize_TRT", {"boxes", "f0", "f1", "f2", "f3"}, {"patches"},
                IntAttr("pooled_size", 7)),
             13,
             {"float[B, 1000, 4]", "float[B, 256, 64, 64]", "float[B, 256, 32, 32]",
              "float[B, 256, 16, 16]", "float[B, 256, 8, 8]"},
             {}, "float[B, 1000, 256, 7, 7]"},
        Case{"pyramid_roi_align_batch",
             Op("PyramidROIAlign_TRT", {"boxes", "f0", "f1", "f2", "f3"}, {"patches"},
                IntAttr("pooled_size", 7)),
             13,
             {"float[2, 1000, 4]", "float[3, 256, 64, 64]", "float", "float", "float"}, {},
             "error: batch of boxes and feature_map_0"},
        Case{"disentangled_attention",
             Op("DisentangledAttention_TRT", {"c2c", "c2p", "p2c"}, {"y"}), 13,
             {"float16[B, S, S]", "float16[B, ?, S]", "float16"}, {}, "float16[B, S, S]"},
        Case{"disentangled_attention_3d",
             Op("DisentangledAttention_TRT", {"c2c", "c2p", "p2c"}, {"y"}), 13,
             {"float16[B, H, S, S]", "float16", "float16"}, {},
             "error: input 0 'c2c': expected rank 3, got rank 4"}));

}  // namespace
}  // namespace onnx_infer
