// Table tests of the attention family (nn/attention.cc): Attention, LinearAttention,
// RotaryEmbedding, CausalConvWithState, FlexAttention.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::IntAttr;
using testing::Node;
using testing::RunMatches;
using testing::RunRule;
using testing::StrAttr;
using testing::T;

using Case = testing::RuleCase;

using AttentionRuleTest = testing::RuleTableTest;

TEST_P(AttentionRuleTest, Infers) {
  EXPECT_TRUE(testing::RunRuleCase(BuiltinSchemas(), GetParam()));
}

std::string Heads(int64_t q, int64_t kv) {
  return IntAttr("q_num_heads", q) + IntAttr("kv_num_heads", kv);
}

const std::vector<const char*> kAllOutputs = {"y", "present_key", "present_value", "qk"};

INSTANTIATE_TEST_SUITE_P(
    Attention, AttentionRuleTest,
    ::testing::Values(
        Case{"4d_mha",
             Node("Attention", {"q", "k", "v"}, {"y"}),
             23,
             {"float[B, 8, L, 64]", "float[B, 8, S, 64]", "float[B, 8, S, 32]"},
             {},
             "float[B, 8, L, 32]"},
        Case{"4d_all_outputs_no_past",
             Node("Attention", {"q", "k", "v"}, kAllOutputs),
             23,
             {"float16[B, 8, L, 64]", "float16[B, 2, S, 64]", "float[B, 2, S, 16]"},
             {},
             "float16[B, 8, L, 16]; float16[B, 2, S, 64]; float[B, 2, S, 16]; "
             "float16[B, 8, L, S]"},
        Case{"4d_past_concatenates_along_sequence",
             Node("Attention", {"q", "k", "v", "", "pk", "pv"}, kAllOutputs),
             24,
             {"float[B, 4, L, 8]", "float[B, 2, L, 8]", "float[B, 2, L, 10]", "",
              "float[B, 2, P, 8]", "float[B, 2, P, 10]"},
             {},
             "float[B, 4, L, 10]; float[B, 2, L + P, 8]; float[B, 2, L + P, 10]; "
             "float[B, 4, L, L + P]"},
        Case{"past_fills_unknown_dims",
             Node("Attention", {"q", "k", "v", "", "pk", "pv"}, kAllOutputs),
             23,
             {"float[?, 4, 3, ?]", "float", "float", "", "float[2, 2, 5, 8]", "float[2, 2, 5, 6]"},
             {},
             "float[2, 4, 3, 6]; float[2, 2, ?, 8]; float[2, 2, ?, 6]; float[2, 4, 3, ?]"},
        Case{"3d_gqa_hidden_sizes",
             Node("Attention", {"q", "k", "v"}, kAllOutputs, Heads(8, 2)),
             23,
             {"float[B, L, 64]", "float[B, S, 16]", "float[B, S, 24]"},
             {},
             "float[B, L, 96]; float[B, 2, S, 8]; float[B, 2, S, 12]; float[B, 8, L, S]"},
        Case{"3d_symbolic_hidden_scaled_exactly",
             Node("Attention", {"q", "k", "v"}, {"y", "pk"}, Heads(6, 3)),
             23,
             {"float[B, L, DQ]", "float[B, S, DK]", "float[B, S, DV]"},
             {},
             "float[B, L, 2*DV]; float[B, 3, S, floor(DQ/6)]"},
        Case{"3d_with_past",
             Node("Attention", {"q", "k", "v", "mask", "pk", "pv"}, kAllOutputs, Heads(3, 3)),
             23,
             {"float[2, 4, 24]", "float[2, 6, 24]", "float[2, 6, 30]", "float[4, 18]",
              "float[2, 3, 12, 8]", "float[2, 3, 12, 10]"},
             {},
             "float[2, 4, 30]; float[2, 3, 18, 8]; float[2, 3, 18, 10]; float[2, 3, 4, 18]"},
        Case{"3d_q_with_4d_kv",
             Node("Attention", {"q", "k", "v"}, {"y"}, IntAttr("q_num_heads", 4)),
             23,
             {"float[B, L, 32]", "float[B, 2, S, 8]", "float[B, 2, S, 5]"},
             {},
             "float[B, L, 20]"},
        Case{
            "24_nonpad_kv_seqlen_gives_batch",
            Node("Attention", {"q", "k", "v", "", "", "", "nonpad"}, kAllOutputs),
            24,
            {"float[?, 4, 1, 8]", "float[?, 2, 8, 8]", "float[?, 2, 8, 8]", "", "", "", "int64[2]"},
            {},
            "float[2, 4, 1, 8]; float[2, 2, 8, 8]; float[2, 2, 8, 8]; float[2, 4, 1, 8]"},
        Case{"24_mask_last_dim_may_be_shorter",
             Node("Attention", {"q", "k", "v", "mask"}, {"y"}),
             24,
             {"float[2, 3, 4, 8]", "float[2, 3, 6, 8]", "float[2, 3, 6, 10]", "float[2, 3, 4, 4]"},
             {},
             "float[2, 3, 4, 10]"},
        Case{"23_mask_last_dim_must_broadcast",
             Node("Attention", {"q", "k", "v", "mask"}, {"y"}),
             23,
             {"float[2, 3, 4, 8]", "float[2, 3, 6, 8]", "float[2, 3, 6, 10]", "float[2, 3, 4, 4]"},
             {},
             "error: input 3 'mask': [2, 3, 4, 4] does not broadcast to [2, 3, 4, 6]"},
        Case{"25_same_shapes",
             Node("Attention", {"q", "k", "v"}, {"y"},
                  IntAttr("left_window_size", 2) + IntAttr("right_window_size", 0)),
             25,
             {"bfloat16[B, 4, L, 8]", "bfloat16[B, 4, L, 8]", "bfloat16[B, 4, L, 8]"},
             {},
             "bfloat16[B, 4, L, 8]"},
        Case{"3d_requires_num_heads",
             Node("Attention", {"q", "k", "v"}, {"y"}),
             23,
             {"float[2, 4, 24]", "float[2, 6, 24]", "float[2, 6, 24]"},
             {},
             "error: attribute 'q_num_heads': required when input 0 'q' is 3-D"},
        Case{"3d_hidden_not_multiple_of_heads",
             Node("Attention", {"q", "k", "v"}, {"y"}, Heads(5, 5)),
             23,
             {"float[2, 4, 24]", "float[2, 6, 25]", "float[2, 6, 25]"},
             {},
             "error: input 0 'q': hidden size 24 is not a multiple of q_num_heads = 5"},
        Case{"head_sizes_differ",
             Node("Attention", {"q", "k", "v"}, {"y"}),
             23,
             {"float[2, 4, 3, 8]", "float[2, 4, 6, 16]", "float[2, 4, 6, 8]"},
             {},
             "error: head size of Q and K"},
        Case{"q_heads_not_multiple_of_kv_heads",
             Node("Attention", {"q", "k", "v"}, {"y"}),
             23,
             {"float[2, 6, 3, 8]", "float[2, 4, 6, 8]", "float[2, 4, 6, 8]"},
             {},
             "error: query heads (6) must be a multiple of key/value heads (4)"},
        Case{"kv_sequence_lengths_differ",
             Node("Attention", {"q", "k", "v"}, {"y"}),
             23,
             {"float[2, 4, 3, 8]", "float[2, 4, 6, 8]", "float[2, 4, 7, 8]"},
             {},
             "error: sequence length of K and V"},
        Case{"past_key_without_past_value",
             Node("Attention", {"q", "k", "v", "", "pk"}, {"y"}),
             23,
             {"float[2, 4, 3, 8]", "float[2, 4, 6, 8]", "float[2, 4, 6, 8]", "",
              "float[2, 4, 5, 8]"},
             {},
             "error: input 4 'pk': past_key and past_value must be given together"},
        Case{"q_rank_2",
             Node("Attention", {"q", "k", "v"}, {"y"}),
             23,
             {"float[4, 8]", "float[2, 4, 6, 8]", "float[2, 4, 6, 8]"},
             {},
             "error: input 0 'q': expected rank 3 or 4, got rank 2"}));

INSTANTIATE_TEST_SUITE_P(
    RotaryEmbedding, AttentionRuleTest,
    ::testing::Values(Case{"4d_with_position_ids",
                           Node("RotaryEmbedding", {"x", "cos", "sin", "pos"}, {"y"}),
                           23,
                           {"float[B, 4, S, 8]", "float[P, 4]", "float[P, 4]", "int64[B, S]"},
                           {},
                           "float[B, 4, S, 8]"},
                      Case{"3d_partial_rotation_without_position_ids",
                           Node("RotaryEmbedding", {"x", "cos", "sin"}, {"y"},
                                IntAttr("num_heads", 4) + IntAttr("rotary_embedding_dim", 4)),
                           23,
                           {"float16[B, S, 32]", "float16[B, S, 2]", "float16[B, S, 2]"},
                           {},
                           "float16[B, S, 32]"},
                      Case{"cache_must_be_half_the_head_size",
                           Node("RotaryEmbedding", {"x", "cos", "sin", "pos"}, {"y"}),
                           23,
                           {"float[2, 4, 3, 8]", "float[50, 8]", "float[50, 8]", "int64[2, 3]"},
                           {},
                           "error: input 1 'cos' last dim and half the rotary dim"},
                      Case{"cache_rank_without_position_ids",
                           Node("RotaryEmbedding", {"x", "cos", "sin"}, {"y"}),
                           23,
                           {"float[2, 4, 3, 8]", "float[50, 4]", "float[50, 4]"},
                           {},
                           "error: input 1 'cos': expected rank 3, got rank 2"},
                      Case{"3d_requires_num_heads",
                           Node("RotaryEmbedding", {"x", "cos", "sin"}, {"y"}),
                           23,
                           {"float[2, 3, 32]", "float[2, 3, 4]", "float[2, 3, 4]"},
                           {},
                           "error: attribute 'num_heads': required when input 0 'x' is 3-D"}));

INSTANTIATE_TEST_SUITE_P(
    CausalConvWithState, AttentionRuleTest,
    ::testing::Values(
        Case{"state_is_kernel_minus_one",
             Node("CausalConvWithState", {"x", "w"}, {"y", "state"}),
             27,
             {"float[B, 4, L]", "float[4, 1, K]"},
             {},
             "float[B, 4, L]; float[B, 4, K - 1]"},
        Case{"past_state_and_bias",
             Node("CausalConvWithState", {"x", "w", "bias", "past"}, {"y", "state"},
                  StrAttr("activation", "silu")),
             27,
             {"float16[2, C, 1]", "float16[?, 1, 4]", "float16[8]", "float16[2, C, 3]"},
             {},
             "float16[2, C, 1]; float16[2, 8, 3]"},
        Case{"past_state_length_must_match_kernel",
             Node("CausalConvWithState", {"x", "w", "", "past"}, {"y", "state"}),
             27,
             {"float[2, 4, 8]", "float[4, 1, 4]", "", "float[2, 4, 2]"},
             {},
             "error: past_state length and kernel size - 1"},
        Case{"weight_must_be_depthwise",
             Node("CausalConvWithState", {"x", "w"}, {"y", "state"}),
             27,
             {"float[2, 4, 8]", "float[4, 2, 4]"},
             {},
             "error: weight dim 1 (depthwise)"},
        Case{"unknown_activation",
             Node("CausalConvWithState", {"x", "w"}, {"y", "state"}, StrAttr("activation", "relu")),
             27,
             {"float[2, 4, 8]", "float[4, 1, 4]"},
             {},
             "error: attribute 'activation': expected 'none', 'silu' or 'swish', got 'relu'"}));

INSTANTIATE_TEST_SUITE_P(
    LinearAttention, AttentionRuleTest,
    ::testing::Values(
        Case{"gqa_state_without_past_takes_query_type",
             Node("LinearAttention", {"q", "k", "v", "", "decay", "beta"}, {"y", "state"},
                  Heads(8, 4)),
             27,
             {"float16[B, T, 64]", "float16[B, T, 32]", "float16[B, T, 32]", "",
              "float16[B, T, 32]", "float16[B, T, 4]"},
             {},
             "float16[B, T, 64]; float16[B, 4, 8, 8]"},
        Case{"past_state_type_and_symbolic_value_size",
             Node("LinearAttention", {"q", "k", "v", "past"}, {"y", "state"}, Heads(4, 2)),
             27,
             {"float16[B, T, 32]", "float16[B, T, 16]", "float16[B, T, DV]", "float[B, 2, 8, ?]"},
             {},
             "float16[B, T, 2*DV]; float[B, 2, 8, floor(DV/2)]"},
        Case{"q_heads_not_multiple",
             Node("LinearAttention", {"q", "k", "v"}, {"y"}, Heads(3, 2)),
             27,
             {"float[2, 4, 24]", "float[2, 4, 16]", "float[2, 4, 16]"},
             {},
             "error: attribute 'q_num_heads': expected a positive multiple of kv_num_heads = 2"},
        Case{"query_and_key_head_sizes_differ",
             Node("LinearAttention", {"q", "k", "v"}, {"y"}, Heads(4, 4)),
             27,
             {"float[2, 4, 32]", "float[2, 4, 16]", "float[2, 4, 16]"},
             {},
             "error: key head size of query and key"},
        Case{"packed_inputs_only",
             Node("LinearAttention", {"q", "k", "v"}, {"y"}, Heads(4, 4)),
             27,
             {"float[2, 4, 4, 8]", "float[2, 4, 32]", "float[2, 4, 32]"},
             {},
             "error: input 0 'q': expected rank 3, got rank 4"}));

INSTANTIATE_TEST_SUITE_P(
    FlexAttention, AttentionRuleTest,
    ::testing::Values(Case{"gqa",
                           Node("FlexAttention", {"q", "k", "v"}, {"y"}, "", "ai.onnx.preview"),
                           1,
                           {"float[B, 8, L, 16]", "float[B, 2, S, 16]", "float[B, 2, S, 32]"},
                           {},
                           "float[B, 8, L, 32]"},
                      Case{"rank_4_only",
                           Node("FlexAttention", {"q", "k", "v"}, {"y"}, "", "ai.onnx.preview"),
                           1,
                           {"float[B, L, 16]", "float[B, 2, S, 16]", "float[B, 2, S, 32]"},
                           {},
                           "error: input 0 'q': expected rank 4, got rank 3"},
                      Case{"heads_not_multiple",
                           Node("FlexAttention", {"q", "k", "v"}, {"y"}, "", "ai.onnx.preview"),
                           1,
                           {"float[B, 3, L, 16]", "float[B, 2, S, 16]", "float[B, 2, S, 32]"},
                           {},
                           "error: query heads (3) must be a multiple of key/value heads (2)"}));

// Dims the rules unify are recorded as facts, so the next node sees them.
TEST(AttentionFactsTest, SharedDimsAreRecorded) {
  symbolic::Unifier u;
  auto run = RunRule(BuiltinSchemas(),
                     Node("Attention", {"q", "k", "v", "", "pk", "pv"}, {"y", "present_key"}), 23,
                     {T("float[B, 4, L, D]"), T("float[B2, 4, S, 8]"), T("float[B, 4, S, 8]"),
                      Type(), T("float[B, 4, P, 8]"), T("float[B, 4, P, 8]")},
                     {}, &u);
  EXPECT_EQ(run.Summary(), "float[B, 4, L, 8]; float[B, 4, P + S, 8]");
  EXPECT_EQ(run.facts, (std::vector<std::string>{
                           "B == B2 (node of output 'y' (Attention): batch of Q and K)",
                           "D == 8 (node of output 'y' (Attention): head size of Q and K)"}));
}

}  // namespace
}  // namespace onnx_infer
