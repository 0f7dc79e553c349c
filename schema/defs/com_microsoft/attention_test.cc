// Table tests of the com.microsoft attention and KV-cache family
// (schema/defs/com_microsoft/attention.cc): symbolic batch, sequence, past length, heads and
// head size in; output types, KV cache lengths (past + new, buffers kept, GroupQueryAttention's
// max(total, past)) and contradictions out.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::IntAttr;
using testing::IntsAttr;
using testing::RunMatches;
using testing::RunRule;
using testing::T;

constexpr char kMs[] = "com.microsoft";

struct Case {
  const char* name;
  std::string node;                 // NodeProto text
  std::vector<const char*> inputs;  // types, "" for an absent input
  std::string expected;             // RuleRun::Summary(), or "error: <part of the message>"
  std::vector<std::optional<ConstValue>> values = {};  // known input values
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

class ComMicrosoftAttentionTest : public ::testing::TestWithParam<Case> {};

TEST_P(ComMicrosoftAttentionTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, 1, inputs, c.values);
  EXPECT_TRUE(RunMatches(run, c.expected));
}

std::string Node(const char* op, const std::vector<const char*>& inputs,
                 const std::vector<const char*>& outputs, const std::string& attrs = "") {
  return testing::Node(op, inputs, outputs, attrs, kMs);
}

std::string StrAttr(const char* name, const char* s) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: STRING s: ")" + s + R"(" })";
}

std::string Heads(int64_t n) { return IntAttr("num_heads", n); }
std::string GqaHeads(int64_t n, int64_t kv) {
  return IntAttr("num_heads", n) + IntAttr("kv_num_heads", kv);
}

Dim S(const char* name) { return Dim::Symbol(name); }

// A known integer value: a scalar (rank 0) or a 1-D tensor of these elements.
ConstValue Scalar(Dim d) { return testing::Scalar(d); }
ConstValue Vector(const std::vector<Dim>& elements) {
  ConstValue v;
  v.elem_type = kInt32;
  v.dims = {static_cast<int64_t>(elements.size())};
  v.ints = elements;
  return v;
}
ConstValue Bool(bool b) {
  ConstValue v;
  v.elem_type = kBool;
  v.dims = {1};
  v.ints = {Dim::Const(b ? 1 : 0)};
  return v;
}

INSTANTIATE_TEST_SUITE_P(
    Attention, ComMicrosoftAttentionTest,
    ::testing::Values(
        Case{"gpt2_past_plus_new",
             Node("Attention", {"x", "w", "b", "mask", "past"}, {"y", "present"},
                  Heads(4) + IntAttr("unidirectional", 1)),
             {"float[B, S, 32]", "float[32, 96]", "float[96]", "int32[B, T]",
              "float[2, B, 4, P, 8]"},
             "float[B, S, 32]; float[2, B, 4, P + S, 8]"},
        Case{"present_without_past_is_the_new_length",
             Node("Attention", {"x", "w", "b"}, {"y", "present"}, Heads(4)),
             {"float16[B, S, 32]", "float16[32, 96]", "float16[96]"},
             "float16[B, S, 32]; float16[2, B, 4, S, 8]"},
        Case{"qkv_hidden_sizes_give_v_hidden",
             Node("Attention", {"x", "w", "b"}, {"y"},
                  Heads(4) + IntsAttr("qkv_hidden_sizes", {32, 32, 64})),
             {"float[B, S, 16]", "float[16, 128]", "float[128]"},
             "float[B, S, 64]"},
        Case{"shared_buffer_keeps_its_length",
             Node("Attention", {"x", "w", "b", "mask", "past", "", "psl"}, {"y", "present"},
                  Heads(4) + IntAttr("past_present_share_buffer", 1)),
             {"float[B, 1, 32]", "float[32, 96]", "float[96]", "int32[B, 1, M, M]",
              "float[2, B, 4, M, 8]", "", "int32[1]"},
             "float[B, 1, 32]; float[2, B, 4, M, 8]"},
        Case{"symbolic_width_is_split_in_thirds",
             Node("Attention", {"x", "w"}, {"y", "present"}, Heads(4)),
             {"float[B, S, DI]", "float[DI, W]"},
             "float[B, S, floor(W/3)]; float[2, B, 4, S, floor(W/12)]"},
        Case{"past_fills_unknown_dims",
             Node("Attention", {"x", "w", "b", "", "past"}, {"y", "present"}, Heads(2)),
             {"float[?, ?, 16]", "float[16, 48]", "float[48]", "", "float[2, 3, 2, 7, 8]"},
             "float[3, ?, 16]; float[2, 3, 2, ?, 8]"},
        Case{"attention_bias_with_past",
             Node("Attention", {"x", "w", "b", "", "past", "bias"}, {"y", "present"}, Heads(4)),
             {"float[2, 3, 32]", "float[32, 96]", "float[96]", "", "float[2, 2, 4, 5, 8]",
              "float[1, 4, 3, 8]"},
             "float[2, 3, 32]; float[2, 2, 4, 8, 8]"},
        Case{"attention_bias_total_contradicts",
             Node("Attention", {"x", "w", "b", "", "", "bias"}, {"y"}, Heads(4)),
             {"float[2, 3, 32]", "float[32, 96]", "float[96]", "", "", "float[1, 4, 3, 5]"},
             "error: input 5 'bias' dim 3 and the total sequence length: expected equal dims, "
             "got 3 vs 5"},
        Case{"weights_rows_differ_from_input_hidden",
             Node("Attention", {"x", "w", "b"}, {"y"}, Heads(4)),
             {"float[2, 3, 32]", "float[16, 96]", "float[96]"},
             "error: input hidden size of input and weights: expected equal dims, got 32 vs 16"},
        Case{"bias_differs_from_weights",
             Node("Attention", {"x", "w", "b"}, {"y"}, Heads(4)),
             {"float[2, 3, 32]", "float[32, 96]", "float[48]"},
             "error: Q/K/V width of weights and bias: expected equal dims, got 96 vs 48"},
        Case{"width_not_a_multiple_of_three",
             Node("Attention", {"x", "w"}, {"y"}, Heads(4)),
             {"float[2, 3, 32]", "float[32, 100]"},
             "error: input 1 'w': width 100 is not a multiple of 3"},
        Case{"qkv_hidden_sizes_sum_contradicts_weights",
             Node("Attention", {"x", "w"}, {"y"},
                  Heads(4) + IntsAttr("qkv_hidden_sizes", {32, 32, 64})),
             {"float[2, 3, 16]", "float[16, 96]"},
             "error: sum of qkv_hidden_sizes and input 1 'w' width: expected equal dims, "
             "got 128 vs 96"},
        Case{"qkv_hidden_sizes_not_multiple_of_heads",
             Node("Attention", {"x", "w"}, {"y"},
                  Heads(4) + IntsAttr("qkv_hidden_sizes", {30, 30, 30})),
             {"float[2, 3, 16]", "float[16, 90]"},
             "error: attribute 'qkv_hidden_sizes': 30 is not a positive multiple of num_heads = 4"},
        Case{"past_heads_contradict_num_heads",
             Node("Attention", {"x", "w", "b", "", "past"}, {"y", "present"}, Heads(4)),
             {"float[B, S, 32]", "float[32, 96]", "float[96]", "", "float[2, B, 8, P, 4]"},
             "error: num_heads and input 4 'past' dim 2: expected equal dims, got 4 vs 8"},
        Case{"past_head_size_contradicts",
             Node("Attention", {"x", "w", "b", "", "past"}, {"y", "present"}, Heads(4)),
             {"float[B, S, 32]", "float[32, 96]", "float[96]", "", "float[2, B, 4, P, 16]"},
             "error: head size and input 4 'past' dim 4: expected equal dims, got 8 vs 16"},
        Case{"past_requires_equal_v_hidden",
             Node("Attention", {"x", "w", "b", "", "past"}, {"y", "present"},
                  Heads(4) + IntsAttr("qkv_hidden_sizes", {32, 32, 64})),
             {"float[B, S, 16]", "float[16, 128]", "float[128]", "", "float[2, B, 4, P, 8]"},
             "error: Q/K and V hidden sizes (equal when past is given): expected equal dims, "
             "got 32 vs 64"},
        Case{"past_dim0_is_two",
             Node("Attention", {"x", "w", "b", "", "past"}, {"y", "present"}, Heads(4)),
             {"float[B, S, 32]", "float[32, 96]", "float[96]", "", "float[3, B, 4, P, 8]"},
             "error: input 4 'past' dim 0 (key and value): expected equal dims, got 2 vs 3"}));

INSTANTIATE_TEST_SUITE_P(
    MultiHeadAttention, ComMicrosoftAttentionTest,
    ::testing::Values(
        Case{"separate_past_present",
             Node("MultiHeadAttention", {"q", "k", "v", "", "", "", "pk", "pv"},
                  {"y", "present_key", "present_value", "qk"}, Heads(8)),
             {"float16[B, S, 64]", "float16[B, S, 64]", "float16[B, S, 64]", "", "", "",
              "float16[B, 8, P, 8]", "float16[B, 8, P, 8]"},
             "float16[B, S, 64]; float16[B, 8, P + S, 8]; float16[B, 8, P + S, 8]; "
             "?[B, 8, S, P + S]"},
        Case{"no_past_present_is_kv_length",
             Node("MultiHeadAttention", {"q", "k", "v"}, {"y", "present_key", "present_value"},
                  Heads(4)),
             {"float[B, S, 32]", "float[B, L, 32]", "float[B, L, 16]"},
             "float[B, S, 16]; float[B, 4, L, 8]; float[B, 4, L, 4]"},
        Case{"cross_attention_over_caches",
             Node("MultiHeadAttention", {"q", "k", "v"},
                  {"y", "present_key", "present_value", "qk"}, Heads(8)),
             {"float[B, S, 64]", "float[B, 8, L, 8]", "float[B, 8, L, 8]"},
             "float[B, S, 64]; float[B, 8, L, 8]; float[B, 8, L, 8]; ?[B, 8, S, L]"},
        Case{"packed_qkv",
             Node("MultiHeadAttention", {"q"}, {"y", "present_key"}, Heads(8)),
             {"float[B, S, 8, 3, 16]"},
             "float[B, S, 128]; float[B, 8, S, 16]"},
        Case{"query_alone_3d_is_not_split",
             Node("MultiHeadAttention", {"q"}, {"y", "present_key"}, Heads(8)),
             {"float[B, S, 192]"},
             "float[B, S, ?]; float[B, 8, ?, ?]"},
        Case{
            "packed_kv",
            Node("MultiHeadAttention", {"q", "k"}, {"y", "present_key", "present_value"}, Heads(8)),
            {"float[B, S, 64]", "float[B, L, 8, 2, 8]"},
            "float[B, S, 64]; float[B, 8, L, 8]; float[B, 8, L, 8]"},
        Case{"shared_buffer_keeps_its_length_qk_uses_the_value",
             Node("MultiHeadAttention", {"q", "k", "v", "", "", "", "pk", "pv", "psl"},
                  {"y", "present_key", "present_value", "qk"}, Heads(8)),
             {"float[B, 1, 64]", "float[B, 1, 64]", "float[B, 1, 64]", "", "", "",
              "float[B, 8, M, 8]", "float[B, 8, M, 8]", "int32[1]"},
             "float[B, 1, 64]; float[B, 8, M, 8]; float[B, 8, M, 8]; ?[B, 8, 1, P + 1]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              std::nullopt, std::nullopt, Vector({S("P")})}},
        Case{"shared_buffer_unknown_value",
             Node("MultiHeadAttention", {"q", "k", "v", "", "", "", "pk", "pv", "psl"},
                  {"y", "present_key", "present_value", "qk"}, Heads(8)),
             {"float[B, 1, 64]", "float[B, 1, 64]", "float[B, 1, 64]", "", "", "",
              "float[B, 8, M, 8]", "float[B, 8, M, 8]", "int32[1]"},
             "float[B, 1, 64]; float[B, 8, M, 8]; float[B, 8, M, 8]; ?[B, 8, 1, ?]"},
        Case{"symbolic_hidden",
             Node("MultiHeadAttention", {"q", "k", "v"}, {"y", "present_key"}, Heads(8)),
             {"float[B, S, D]", "float[B, S, D]", "float[B, S, D]"},
             "float[B, S, D]; float[B, 8, S, floor(D/8)]"},
        Case{"attention_bias_gives_nothing_new_but_must_agree",
             Node("MultiHeadAttention", {"q", "k", "v", "", "", "ab", "pk", "pv"},
                  {"y", "present_key"}, Heads(2)),
             {"float[1, 2, 16]", "float[1, 2, 16]", "float[1, 2, 16]", "", "", "float[1, 2, 2, 6]",
              "float[1, 2, 3, 8]", "float[1, 2, 3, 8]"},
             "error: input 5 'ab' dim 3 and the total sequence length: expected equal dims, "
             "got 5 vs 6"},
        Case{"batch_of_key_differs",
             Node("MultiHeadAttention", {"q", "k", "v"}, {"y"}, Heads(4)),
             {"float[2, S, 32]", "float[3, L, 32]", "float[3, L, 32]"},
             "error: batch of query and key: expected equal dims, got 2 vs 3"},
        Case{"hidden_of_key_differs",
             Node("MultiHeadAttention", {"q", "k", "v"}, {"y"}, Heads(4)),
             {"float[B, S, 32]", "float[B, L, 16]", "float[B, L, 16]"},
             "error: hidden size of query and key: expected equal dims, got 32 vs 16"},
        Case{"key_and_value_lengths_differ",
             Node("MultiHeadAttention", {"q", "k", "v"}, {"y"}, Heads(4)),
             {"float[B, S, 32]", "float[B, 5, 32]", "float[B, 6, 32]"},
             "error: sequence length of key and value: expected equal dims, got 5 vs 6"},
        Case{"past_with_4d_caches",
             Node("MultiHeadAttention", {"q", "k", "v", "", "", "", "pk", "pv"}, {"y"}, Heads(8)),
             {"float[B, S, 64]", "float[B, 8, L, 8]", "float[B, 8, L, 8]", "", "", "",
              "float[B, 8, P, 8]", "float[B, 8, P, 8]"},
             "error: input 6 'pk': past_key and past_value must be absent when key and value are "
             "4-D caches"},
        Case{"past_key_without_past_value",
             Node("MultiHeadAttention", {"q", "k", "v", "", "", "", "pk"}, {"y"}, Heads(8)),
             {"float[B, S, 64]", "float[B, S, 64]", "float[B, S, 64]", "", "", "",
              "float[B, 8, P, 8]"},
             "error: input 6 'pk': past_key and past_value must be given together"},
        Case{"past_heads_differ",
             Node("MultiHeadAttention", {"q", "k", "v", "", "", "", "pk", "pv"}, {"y"}, Heads(8)),
             {"float[B, S, 64]", "float[B, S, 64]", "float[B, S, 64]", "", "", "",
              "float[B, 4, P, 16]", "float[B, 4, P, 16]"},
             "error: heads of query and past_key: expected equal dims, got 8 vs 4"},
        Case{"hidden_not_a_multiple_of_heads",
             Node("MultiHeadAttention", {"q", "k", "v"}, {"y"}, Heads(5)),
             {"float[2, 3, 32]", "float[2, 3, 32]", "float[2, 3, 32]"},
             "error: input 0 'q': hidden size 32 is not a multiple of num_heads = 5"}));

INSTANTIATE_TEST_SUITE_P(
    GroupQueryAttention, ComMicrosoftAttentionTest,
    ::testing::Values(
        Case{"separate_past_total_from_shape_is_past_plus_new",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value"}, GqaHeads(4, 2)),
             {"float16[B, S, 64]", "float16[B, S, 32]", "float16[B, S, 32]", "float16[B, 2, P, 16]",
              "float16[B, 2, P, 16]", "int32[B]", "int32[]"},
             "float16[B, S, 64]; float16[B, 2, P + S, 16]; float16[B, 2, P + S, 16]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              Scalar(S("P") + S("S"))}},
        Case{"total_symbol_gives_max_of_total_and_past",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value"}, GqaHeads(4, 2)),
             {"float16[B, S, 64]", "float16[B, S, 32]", "float16[B, S, 32]", "float16[B, 2, P, 16]",
              "float16[B, 2, P, 16]", "int32[B]", "int32[]"},
             "float16[B, S, 64]; float16[B, 2, Max(P, T), 16]; float16[B, 2, Max(P, T), 16]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              Scalar(S("T"))}},
        Case{"shared_buffer_keeps_its_length",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value"}, GqaHeads(4, 2)),
             {"float[1, 1, 64]", "float[1, 1, 32]", "float[1, 1, 32]", "float[1, 2, 4096, 16]",
              "float[1, 2, 4096, 16]", "int32[1]", "int32[]"},
             "float[1, 1, 64]; float[1, 2, 4096, 16]; float[1, 2, 4096, 16]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              Scalar(Dim::Const(7))}},
        Case{"unknown_total_with_past_leaves_the_length_open",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value"}, GqaHeads(4, 2)),
             {"float[1, 1, 64]", "float[1, 1, 32]", "float[1, 1, 32]", "float[1, 2, 5, 16]",
              "float[1, 2, 5, 16]", "int32[1]", "int32[]"},
             "float[1, 1, 64]; float[1, 2, ?, 16]; float[1, 2, ?, 16]"},
        Case{"seqlens_values_give_the_total",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value"}, GqaHeads(4, 2)),
             {"float[2, 1, 64]", "float[2, 1, 32]", "float[2, 1, 32]", "float[2, 2, 5, 16]",
              "float[2, 2, 5, 16]", "int32[2]", "int32[]"},
             "float[2, 1, 64]; float[2, 2, 7, 16]; float[2, 2, 7, 16]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              Vector({Dim::Const(4), Dim::Const(6)})}},
        Case{"attention_bias_gives_the_total",
             Node("GroupQueryAttention",
                  {"q", "k", "v", "pk", "pv", "seqlens", "total", "", "", "", "ab"},
                  {"y", "present_key", "present_value"}, GqaHeads(4, 2)),
             {"float[B, S, 64]", "float[B, S, 32]", "float[B, S, 32]", "float[B, 2, P, 16]",
              "float[B, 2, P, 16]", "int32[B]", "int32[]", "", "", "", "float[B, 1, S, P + S]"},
             "float[B, S, 64]; float[B, 2, P + S, 16]; float[B, 2, P + S, 16]"},
        Case{"prompt_without_past_is_the_new_length",
             Node("GroupQueryAttention", {"q", "k", "v", "", "", "seqlens", "total"},
                  {"y", "present_key", "present_value"}, GqaHeads(8, 2)),
             {"bfloat16[B, S, 128]", "bfloat16[B, S, 32]", "bfloat16[B, S, 32]", "", "", "int32[B]",
              "int32[]"},
             "bfloat16[B, S, 128]; bfloat16[B, 2, S, 16]; bfloat16[B, 2, S, 16]"},
        Case{"prompt_without_past_known_total",
             Node("GroupQueryAttention", {"q", "k", "v", "", "", "seqlens", "total"},
                  {"y", "present_key", "present_value"}, GqaHeads(8, 2)),
             {"float[B, S, 128]", "float[B, S, 32]", "float[B, S, 32]", "", "", "int32[B]",
              "int32[]"},
             "float[B, S, 128]; float[B, 2, T, 16]; float[B, 2, T, 16]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              Scalar(S("T"))}},
        Case{"packed_qkv",
             Node("GroupQueryAttention", {"q", "", "", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value"}, GqaHeads(4, 2)),
             {"float[B, S, 128]", "", "", "float[B, 2, P, 16]", "float[B, 2, P, 16]", "int32[B]",
              "int32[]"},
             "float[B, S, 64]; float[B, 2, P + S, 16]; float[B, 2, P + S, 16]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              Scalar(S("P") + S("S"))}},
        Case{"packed_symbolic_hidden",
             Node("GroupQueryAttention", {"q", "", "", "", "", "seqlens", "total"},
                  {"y", "present_key"}, GqaHeads(4, 2)),
             {"float[B, S, D]", "", "", "", "", "int32[B]", "int32[]"},
             "float[B, S, 4*floor(D/8)]; float[B, 2, S, floor(D/8)]"},
        Case{"output_qk",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value", "qk"},
                  GqaHeads(4, 2) + IntAttr("qk_output", 1)),
             {"float[B, S, 64]", "float[B, S, 32]", "float[B, S, 32]", "float[B, 2, P, 16]",
              "float[B, 2, P, 16]", "int32[B]", "int32[]"},
             "float[B, S, 64]; float[B, 2, P + S, 16]; float[B, 2, P + S, 16]; "
             "float[B, 4, S, P + S]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              Scalar(S("P") + S("S"))}},
        Case{"output_qk_needs_qk_output",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value", "qk"}, GqaHeads(4, 2)),
             {"float[B, S, 64]", "float[B, S, 32]", "float[B, S, 32]", "float[B, 2, P, 16]",
              "float[B, 2, P, 16]", "int32[B]", "int32[]"},
             "error: output 3 'output_qk': given, but attribute 'qk_output' is 0"},
        Case{"qk_output_needs_the_output",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value"}, GqaHeads(4, 2) + IntAttr("qk_output", 2)),
             {"float[B, S, 64]", "float[B, S, 32]", "float[B, S, 32]", "float[B, 2, P, 16]",
              "float[B, 2, P, 16]", "int32[B]", "int32[]"},
             "error: attribute 'qk_output': 2 asks for output 3 'output_qk', which the node does "
             "not have"},
        Case{"position_ids_may_be_longer_than_the_query",
             Node("GroupQueryAttention",
                  {"q", "k", "v", "", "", "seqlens", "total", "cos", "sin", "pos"},
                  {"y", "present_key"}, GqaHeads(4, 2) + IntAttr("do_rotary", 1)),
             {"float[2, 3, 64]", "float[2, 3, 32]", "float[2, 3, 32]", "", "", "int32[2]",
              "int32[]", "float[64, 8]", "float[64, 8]", "int64[2, 5]"},
             "float[2, 3, 64]; float[2, 2, 3, 16]"},
        Case{
            "quantized_cache_keeps_its_type",
            Node("GroupQueryAttention",
                 {"q", "k", "v", "pk", "pv", "seqlens", "total", "", "", "", "", "", "ks", "vs"},
                 {"y", "present_key", "present_value"},
                 GqaHeads(4, 2) + IntAttr("kv_cache_bit_width", 4) +
                     StrAttr("k_quant_type", "PER_TENSOR") + StrAttr("v_quant_type", "PER_TENSOR")),
            {"float16[B, 1, 64]", "float16[B, 1, 32]", "float16[B, 1, 32]", "uint8[B, 2, M, 8]",
             "uint8[B, 2, M, 8]", "int32[B]", "int32[]", "", "", "", "", "", "float[1]",
             "float[1]"},
            "float16[B, 1, 64]; uint8[B, 2, Max(M, T), 8]; uint8[B, 2, Max(M, T), 8]",
            {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
             Scalar(S("T"))}},
        Case{"int4_cache_without_past_packs_the_head",
             Node("GroupQueryAttention", {"q", "k", "v", "", "", "seqlens", "total"},
                  {"y", "present_key"}, GqaHeads(4, 2) + IntAttr("kv_cache_bit_width", 4)),
             {"float16[B, S, 64]", "float16[B, S, 32]", "float16[B, S, 32]", "", "", "int32[B]",
              "int32[]"},
             "float16[B, S, 64]; float16[B, 2, S, 8]"},
        Case{"sliding_window_cache_keeps_the_capacity",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                  {"y", "present_key", "present_value"},
                  GqaHeads(4, 2) + IntAttr("sliding_window_cache", 1) +
                      IntAttr("local_window_size", 128)),
             {"float[1, S, 64]", "float[1, S, 32]", "float[1, S, 32]", "float[1, 2, C, 16]",
              "float[1, 2, C, 16]", "int32[1]", "int32[]"},
             "float[1, S, 64]; float[1, 2, C, 16]; float[1, 2, C, 16]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              Scalar(S("T"))}},
        Case{"heads_not_a_multiple_of_kv_heads",
             Node("GroupQueryAttention", {"q", "k", "v", "", "", "seqlens", "total"}, {"y"},
                  GqaHeads(6, 4)),
             {"float[B, S, 96]", "float[B, S, 64]", "float[B, S, 64]", "", "", "int32[B]",
              "int32[]"},
             "error: attribute 'num_heads': 6 is not a multiple of kv_num_heads = 4"},
        Case{"packed_width_not_a_multiple",
             Node("GroupQueryAttention", {"q", "", "", "", "", "seqlens", "total"}, {"y"},
                  GqaHeads(4, 2)),
             {"float[B, S, 100]", "", "", "", "", "int32[B]", "int32[]"},
             "error: input 0 'q': hidden size 100 is not a multiple of num_heads + 2 * "
             "kv_num_heads = 8 (packed QKV)"},
        Case{"key_hidden_contradicts_kv_heads",
             Node("GroupQueryAttention", {"q", "k", "v", "", "", "seqlens", "total"}, {"y"},
                  GqaHeads(4, 2)),
             {"float[B, S, 64]", "float[B, S, 48]", "float[B, S, 48]", "", "", "int32[B]",
              "int32[]"},
             "error: input 1 'k' hidden size and kv_num_heads * head size: expected equal dims, "
             "got 32 vs 48"},
        Case{"past_heads_contradict_kv_heads",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"}, {"y"},
                  GqaHeads(4, 2)),
             {"float[B, S, 64]", "float[B, S, 32]", "float[B, S, 32]", "float[B, 4, P, 16]",
              "float[B, 4, P, 16]", "int32[B]", "int32[]"},
             "error: heads of query and past_key: expected equal dims, got 2 vs 4"},
        Case{"past_lengths_differ",
             Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"}, {"y"},
                  GqaHeads(4, 2)),
             {"float[1, 1, 64]", "float[1, 1, 32]", "float[1, 1, 32]", "float[1, 2, 5, 16]",
              "float[1, 2, 6, 16]", "int32[1]", "int32[]"},
             "error: past sequence length of past_key and past_value: expected equal dims, "
             "got 5 vs 6"},
        Case{"seqlens_batch_differs",
             Node("GroupQueryAttention", {"q", "k", "v", "", "", "seqlens", "total"}, {"y"},
                  GqaHeads(4, 2)),
             {"float[2, S, 64]", "float[2, S, 32]", "float[2, S, 32]", "", "", "int32[3]",
              "int32[]"},
             "error: batch of query and seqlens_k: expected equal dims, got 2 vs 3"}));

INSTANTIATE_TEST_SUITE_P(
    SparseAndPaged, ComMicrosoftAttentionTest,
    ::testing::Values(
        Case{
            "sparse_present_is_the_shared_buffer",
            Node("SparseAttention", {"q", "k", "v", "pk", "pv", "rows", "cols", "total", "lengths"},
                 {"y", "present_key", "present_value"},
                 GqaHeads(4, 2) + IntAttr("sparse_block_size", 64)),
            {"float16[B, S, 64]", "float16[B, S, 32]", "float16[B, S, 32]", "float16[B, 2, M, 16]",
             "float16[B, 2, M, 16]", "int32[1, 9]", "int32[1, 20]", "int32[1]", "int32[B]"},
            "float16[B, S, 64]; float16[B, 2, M, 16]; float16[B, 2, M, 16]"},
        Case{"sparse_packed",
             Node("SparseAttention", {"q", "", "", "pk", "pv", "rows", "cols", "total", "lengths"},
                  {"y", "present_key", "present_value"},
                  GqaHeads(4, 2) + IntAttr("sparse_block_size", 64)),
             {"bfloat16[B, S, 128]", "", "", "bfloat16[B, 2, M, 16]", "bfloat16[B, 2, M, 16]",
              "int32[2, 9]", "int32[2, 20]", "int32[1]", "int32[B]"},
             "bfloat16[B, S, 64]; bfloat16[B, 2, M, 16]; bfloat16[B, 2, M, 16]"},
        Case{
            "sparse_layouts_do_not_divide_heads",
            Node("SparseAttention", {"q", "k", "v", "pk", "pv", "rows", "cols", "total", "lengths"},
                 {"y", "present_key", "present_value"},
                 GqaHeads(4, 2) + IntAttr("sparse_block_size", 64)),
            {"float16[B, S, 64]", "float16[B, S, 32]", "float16[B, S, 32]", "float16[B, 2, M, 16]",
             "float16[B, 2, M, 16]", "int32[3, 9]", "int32[3, 20]", "int32[1]", "int32[B]"},
            "error: input 5 'rows': num_heads = 4 is not a multiple of the layout count 3"},
        Case{"paged_caches_alias",
             Node("PagedAttention", {"q", "k", "v", "kc", "vc", "cum", "past", "table"},
                  {"y", "kco", "vco"}, GqaHeads(4, 2)),
             {"float16[T, 64]", "float16[T, 32]", "float16[T, 32]", "float16[NB, 16, 2, 16]",
              "float16[NB, 16, 2, 16]", "int32[B + 1]", "int32[B]", "int32[B, MB]"},
             "float16[T, 64]; float16[NB, 16, 2, 16]; float16[NB, 16, 2, 16]"},
        Case{"paged_packed",
             Node("PagedAttention", {"q", "", "", "kc", "vc", "cum", "past", "table"},
                  {"y", "kco", "vco"}, GqaHeads(4, 2)),
             {"bfloat16[T, 128]", "", "", "int8[NB, 16, 2, 16]", "int8[NB, 16, 2, 16]",
              "int32[B + 1]", "int32[B]", "int32[B, MB]"},
             "bfloat16[T, 64]; int8[NB, 16, 2, 16]; int8[NB, 16, 2, 16]"},
        Case{"paged_latent_value_head",
             Node("PagedAttention", {"q", "k", "", "kc", "", "cum", "past", "table"}, {"y", "kco"},
                  GqaHeads(16, 1) + StrAttr("kv_cache_layout", "LATENT") +
                      IntAttr("v_head_size", 512)),
             {"float16[T, 9216]", "float16[T, 576]", "", "float16[NB, 64, 1, 576]", "",
              "int32[B + 1]", "int32[B]", "int32[B, MB]"},
             "float16[T, 8192]; float16[NB, 64, 1, 576]"},
        Case{"paged_cache_shapes_differ",
             Node("PagedAttention", {"q", "k", "v", "kc", "vc", "cum", "past", "table"}, {"y"},
                  GqaHeads(4, 2)),
             {"float16[T, 64]", "float16[T, 32]", "float16[T, 32]", "float16[NB, 16, 2, 16]",
              "float16[NB, 32, 2, 16]", "int32[B + 1]", "int32[B]", "int32[B, MB]"},
             "error: dim 1 of key_cache and value_cache: expected equal dims, got 16 vs 32"},
        Case{"paged_cumulative_is_batch_plus_one",
             Node("PagedAttention", {"q", "k", "v", "kc", "vc", "cum", "past", "table"}, {"y"},
                  GqaHeads(4, 2)),
             {"float16[T, 64]", "float16[T, 32]", "float16[T, 32]", "float16[NB, 16, 2, 16]",
              "float16[NB, 16, 2, 16]", "int32[4]", "int32[4]", "int32[4, MB]"},
             "error: input 5 'cum' length and batch + 1: expected equal dims, got 5 vs 4"}));

INSTANTIATE_TEST_SUITE_P(
    Decoder, ComMicrosoftAttentionTest,
    ::testing::Values(
        Case{"dmmha_past_plus_one",
             Node("DecoderMaskedMultiHeadAttention", {"q", "k", "v", "", "", "pk", "pv"},
                  {"y", "present_key", "present_value", "qk"}, Heads(8)),
             {"float[B, 1, 64]", "float[B, 1, 64]", "float[B, 1, 64]", "", "", "float[B, 8, P, 8]",
              "float[B, 8, P, 8]"},
             "float[B, 1, 64]; float[B, 8, P + 1, 8]; float[B, 8, P + 1, 8]; ?[B, 8, 1, P + 1]"},
        Case{"dmmha_shared_buffer",
             Node("DecoderMaskedMultiHeadAttention",
                  {"q", "k", "v", "mask", "", "pk", "pv", "psl", "beam", "indir"},
                  {"y", "present_key", "present_value", "qk"},
                  Heads(8) + IntAttr("past_present_share_buffer", 1) + IntAttr("output_qk", 1)),
             {"float16[B, 1, 64]", "float16[B, 1, 64]", "float16[B, 1, 64]", "int32[B, M]", "",
              "float16[B, 8, M, 8]", "float16[B, 8, M, 8]", "int32[1]", "int32[1]",
              "int32[B, W, M]"},
             "float16[B, 1, 64]; float16[B, 8, M, 8]; float16[B, 8, M, 8]; ?[B, 8, 1, P + 1]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              std::nullopt, Scalar(S("P"))}},
        Case{"dmmha_packed_qkv",
             Node("DecoderMaskedMultiHeadAttention", {"q", "", "", "", "", "pk", "pv", "psl"},
                  {"y", "present_key", "present_value"},
                  Heads(8) + IntAttr("past_present_share_buffer", 1)),
             {"float[B, 1, 192]", "", "", "", "", "float[B, 8, M, 8]", "float[B, 8, M, 8]",
              "int32[1]"},
             "float[B, 1, 64]; float[B, 8, M, 8]; float[B, 8, M, 8]"},
        Case{"dmmha_cross_attention",
             Node("DecoderMaskedMultiHeadAttention", {"q", "k", "v"}, {"y", "", "", "qk"},
                  Heads(8) + IntAttr("output_qk", 1)),
             {"float[B, 1, 64]", "float[B, 8, L, 8]", "float[B, 8, L, 8]"},
             // Omitted outputs 1 and 2 are typed too; the driver drops them.
             "float[B, 1, 64]; float[B, 8, ?, 8]; float[B, 8, ?, 8]; ?[B, 8, 1, L]"},
        Case{"dmmha_one_token_only",
             Node("DecoderMaskedMultiHeadAttention", {"q", "k", "v"}, {"y"}, Heads(8)),
             {"float[B, 2, 64]", "float[B, 2, 64]", "float[B, 2, 64]"},
             "error: query sequence length and 1 (one new token): expected equal dims, got 1 vs 2"},
        Case{"dmsa_shared_buffer",
             Node("DecoderMaskedSelfAttention", {"x", "w", "b", "mask", "past", "", "psl"},
                  {"y", "present"}, Heads(4) + IntAttr("past_present_share_buffer", 1)),
             {"float16[B, 1, 32]", "float16[32, 96]", "float16[96]", "int32[B, M]",
              "float16[2, B, 4, M, 8]", "", "int32[1]"},
             "float16[B, 1, 32]; float16[2, B, 4, M, 8]"},
        Case{"dmsa_separate_past",
             Node("DecoderMaskedSelfAttention", {"x", "w", "b", "", "past", "", "psl"},
                  {"y", "present"}, Heads(4)),
             {"float[B, 1, 32]", "float[32, 96]", "float[96]", "", "float[2, B, 4, P, 8]", "",
              "int32[1]"},
             "float[B, 1, 32]; float[2, B, 4, P + 1, 8]"},
        Case{"decoder_attention_self_with_cache",
             Node("DecoderAttention",
                  {"q", "k", "qw", "kvw", "b", "", "kc", "vc", "static_kv", "use_past", "has_state",
                   "has_mask"},
                  {"y", "new_k", "new_v"}, Heads(8)),
             {"float[S, B, 64]", "float[L, B, 64]", "float[64, 64]", "float[64, 128]", "float[192]",
              "", "float[B, 8, C, 8]", "float[B, 8, C, 8]", "bool[1]", "bool[1]", "bool[1]",
              "bool[1]"},
             "float[S, B, 64]; float[B, 8, C + S, 8]; float[B, 8, C + S, 8]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              std::nullopt, std::nullopt, Bool(false), Bool(true), Bool(true), Bool(false)}},
        Case{"decoder_attention_cross_without_cache",
             Node("DecoderAttention",
                  {"q", "k", "qw", "kvw", "b", "", "", "", "static_kv", "use_past", "has_state",
                   "has_mask"},
                  {"y", "new_k", "new_v"}, Heads(8)),
             {"float[S, B, 64]", "float[L, B, 64]", "float[64, 64]", "float[64, 128]", "float[192]",
              "", "", "", "bool[1]", "bool[1]", "bool[1]", "bool[1]"},
             "float[S, B, 64]; float[B, 8, L, 8]; float[B, 8, L, 8]",
             {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              std::nullopt, std::nullopt, Bool(true), Bool(false), Bool(false), Bool(false)}},
        Case{"decoder_attention_flags_unknown",
             Node("DecoderAttention",
                  {"q", "k", "qw", "kvw", "b", "", "kc", "vc", "static_kv", "use_past", "has_state",
                   "has_mask"},
                  {"y", "new_k", "new_v"}, Heads(8)),
             {"float16[S, B, 64]", "float16[L, B, 64]", "float16[64, 64]", "float16[64, 128]",
              "float16[192]", "", "float16[B, 8, C, 8]", "float16[B, 8, C, 8]", "bool[1]",
              "bool[1]", "bool[1]", "bool[1]"},
             "float16[S, B, 64]; float16[B, 8, ?, 8]; float16[B, 8, ?, 8]"},
        Case{"decoder_attention_kv_weight_width",
             Node("DecoderAttention",
                  {"q", "k", "qw", "kvw", "b", "", "", "", "static_kv", "use_past", "has_state",
                   "has_mask"},
                  {"y"}, Heads(8)),
             {"float[S, B, 64]", "float[L, B, 64]", "float[64, 64]", "float[64, 64]", "float[192]",
              "", "", "", "bool[1]", "bool[1]", "bool[1]", "bool[1]"},
             "error: 2 * hidden size and kv_weight dim 1: expected equal dims, got 128 vs 64"}));

INSTANTIATE_TEST_SUITE_P(
    PackedLongformerQuantized, ComMicrosoftAttentionTest,
    ::testing::Values(
        Case{"packed_attention",
             Node("PackedAttention", {"x", "w", "b", "offset", "cum"}, {"y"}, Heads(4)),
             {"float16[T, 32]", "float16[32, 96]", "float16[96]", "int32[B, S]", "int32[B + 1]"},
             "float16[T, 32]"},
        Case{"packed_attention_qkv_hidden_sizes",
             Node("PackedAttention", {"x", "w", "b", "offset", "cum", "ab"}, {"y"},
                  Heads(4) + IntsAttr("qkv_hidden_sizes", {32, 32, 16})),
             {"float[T, 24]", "float[24, 80]", "float[80]", "int32[B, S]", "int32[B + 1]",
              "float[1, 4, S, S]"},
             "float[T, 16]"},
        Case{"packed_attention_cumulative_contradicts_batch",
             Node("PackedAttention", {"x", "w", "b", "offset", "cum"}, {"y"}, Heads(4)),
             {"float[T, 32]", "float[32, 96]", "float[96]", "int32[2, S]", "int32[4]"},
             "error: input 4 'cum' length and batch + 1: expected equal dims, got 3 vs 4"},
        Case{
            "packed_mha",
            Node("PackedMultiHeadAttention", {"q", "k", "v", "", "offset", "cum"}, {"y"}, Heads(8)),
            {"float[T, 64]", "float[T, 64]", "float[T, 32]", "", "int32[B, S]", "int32[B + 1]"},
            "float[T, 32]"},
        Case{"packed_mha_packed_qkv",
             Node("PackedMultiHeadAttention", {"q", "", "", "", "offset", "cum"}, {"y"}, Heads(8)),
             {"float16[T, 8, 3, 16]", "", "", "", "int32[B, S]", "int32[B + 1]"},
             "float16[T, 128]"},
        Case{"longformer",
             Node("LongformerAttention", {"x", "w", "b", "mask", "gw", "gb", "global"}, {"y"},
                  Heads(4) + IntAttr("window", 128)),
             {"float[B, 512, 64]", "float[64, 192]", "float[192]", "float[B, 512]",
              "float[64, 192]", "float[192]", "int32[B, 512]"},
             "float[B, 512, 64]"},
        Case{"longformer_sequence_not_a_multiple_of_the_window",
             Node("LongformerAttention", {"x", "w", "b", "mask", "gw", "gb", "global"}, {"y"},
                  Heads(4) + IntAttr("window", 64)),
             {"float[B, 100, 64]", "float[64, 192]", "float[192]", "float[B, 100]",
              "float[64, 192]", "float[192]", "int32[B, 100]"},
             "error: input 0 'x': sequence length 100 is not a multiple of 2 * window = 128"},
        Case{"qattention_past_plus_new",
             Node("QAttention", {"x", "w", "b", "xs", "ws", "mask", "xzp", "wzp", "past"},
                  {"y", "present"}, Heads(4)),
             {"uint8[B, S, 32]", "int8[32, 96]", "float[96]", "float[]", "float[96]", "int32[B]",
              "uint8[]", "int8[]", "float[2, B, 4, P, 8]"},
             "float[B, S, 32]; float[2, B, 4, P + S, 8]"},
        Case{"qattention_weight_scale_per_column_length",
             Node("QAttention", {"x", "w", "b", "xs", "ws"}, {"y"}, Heads(4)),
             {"uint8[B, S, 32]", "int8[32, 96]", "float16[96]", "float16[]", "float16[32]"},
             "error: input 4 'ws' length and the Q/K/V width: expected equal dims, got 96 vs 32"},
        Case{"qordered_attention",
             Node("QOrderedAttention",
                  {"x", "sx", "sq", "sk", "sv", "wq", "wk", "wv", "swq", "swk", "swv", "bq", "bk",
                   "bv", "", "", "svg"},
                  {"y"},
                  Heads(4) + IntAttr("order_input", 1) + IntAttr("order_output", 1) +
                      IntAttr("order_weight", 0)),
             {"int8[B, S, 32]", "float[]", "float[]", "float[]", "float[]", "int8[32, 32]",
              "int8[32, 32]", "int8[32, 32]", "float[]", "float[]", "float[]", "float[32]",
              "float[32]", "float[32]", "", "", "float[]"},
             "int8[B, S, 32]"},
        Case{"qordered_longformer",
             Node("QOrderedLongformerAttention",
                  {"x", "sx", "w", "sw", "b", "sb", "sqkv", "mask", "gw", "sgw", "gb", "sgg",
                   "global", "so"},
                  {"y"},
                  Heads(4) + IntAttr("window", 32) + IntAttr("order_input", 1) +
                      IntAttr("order_output", 1) + IntAttr("order_weight", 0) +
                      IntAttr("order_global_weight", 0)),
             {"int8[B, S, 64]", "float[]", "int8[64, 192]", "float[]", "float[192]", "float[]",
              "float[]", "float16[B, S]", "int8[64, 192]", "float[]", "float[192]", "float[]",
              "int32[B, S]", "float[]"},
             "int8[B, S, 64]"}));

INSTANTIATE_TEST_SUITE_P(
    RotaryAndBias, ComMicrosoftAttentionTest,
    ::testing::Values(
        Case{"rotary_3d",
             Node("RotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"}),
             {"float16[B, S, 64]", "int64[B, S]", "float16[M, 16]", "float16[M, 16]"},
             "float16[B, S, 64]"},
        Case{"rotary_4d_one_offset",
             Node("RotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"}),
             {"float[B, 4, S, 32]", "int64[1]", "float[M, 16]", "float[M, 16]"},
             "float[B, 4, S, 32]"},
        Case{"rotary_position_ids_batch_differs",
             Node("RotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"}),
             {"float[2, 4, S, 32]", "int64[3, S]", "float[M, 16]", "float[M, 16]"},
             "error: batch of input and position_ids: expected equal dims, got 2 vs 3"},
        Case{"rotary_caches_differ",
             Node("RotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"}),
             {"float[B, S, 64]", "int64[B, S]", "float[M, 16]", "float[M, 8]"},
             "error: dim 1 of cos_cache and sin_cache: expected equal dims, got 16 vs 8"},
        Case{"rotary_dim_needs_num_heads",
             Node("RotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"},
                  IntAttr("rotary_embedding_dim", 32)),
             {"float[B, S, 64]", "int64[B, S]", "float[M, 16]", "float[M, 16]"},
             "error: attribute 'num_heads': required when rotary_embedding_dim is set"},
        Case{"mrotary",
             Node("MRotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"},
                  IntsAttr("mrope_section", {8, 4, 4})),
             {"bfloat16[B, S, 128]", "int64[3, B, S]", "bfloat16[M, 16]", "bfloat16[M, 16]"},
             "bfloat16[B, S, 128]"},
        Case{"mrotary_section_sum_contradicts_cache",
             Node("MRotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"},
                  IntsAttr("mrope_section", {8, 4, 3})),
             {"float[B, S, 128]", "int64[3, B, S]", "float[M, 16]", "float[M, 16]"},
             "error: sum of mrope_section and cos_cache dim 1: expected equal dims, got 15 vs 16"},
        Case{"mrotary_partial_rotation_with_head_wide_caches",
             Node("MRotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"},
                  IntsAttr("mrope_section", {4, 2, 2}) + IntAttr("rotary_embedding_dim", 16) +
                      IntAttr("num_heads", 4)),
             {"float[B, S, 128]", "int64[3, B, S]", "float[M, 16]", "float[M, 16]"},
             "float[B, S, 128]"},
        Case{"mrotary_section_sum_contradicts_rotary_dim",
             Node("MRotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"},
                  IntsAttr("mrope_section", {4, 2, 1}) + IntAttr("rotary_embedding_dim", 16) +
                      IntAttr("num_heads", 4)),
             {"float[B, S, 128]", "int64[3, B, S]", "float[M, 16]", "float[M, 16]"},
             "error: attribute 'mrope_section': sums to 7, not rotary_embedding_dim / 2 = 8"},
        Case{"mrotary_positions_are_three_streams",
             Node("MRotaryEmbedding", {"x", "pos", "cos", "sin"}, {"y"},
                  IntsAttr("mrope_section", {8, 4, 4})),
             {"float[B, S, 128]", "int64[2, B, S]", "float[M, 16]", "float[M, 16]"},
             "error: position_ids dim 0 (t, h, w): expected equal dims, got 3 vs 2"},
        Case{"gemma_rotary",
             Node("GemmaRotaryEmbedding", {"emb", "q", "q_rot", "k", "k_rot"}, {"q_out", "k_out"}),
             {"float[B, S, 16]", "float16[B, 8, S, 16]", "float16[B, 8, S, 16]",
              "float16[B, 2, S, 16]", "float16[B, 2, S, 16]"},
             "float16[B, 8, S, 16]; float16[B, 2, S, 16]"},
        Case{"gemma_rotary_q_rot_differs",
             Node("GemmaRotaryEmbedding", {"emb", "q", "q_rot", "k", "k_rot"}, {"q_out", "k_out"}),
             {"float[B, S, 16]", "float16[B, 8, S, 16]", "float16[B, 4, S, 16]",
              "float16[B, 2, S, 16]", "float16[B, 2, S, 16]"},
             "error: heads of input 2 'q_rot': expected equal dims, got 8 vs 4"},
        Case{"relative_position_bias_from_values",
             Node("RelativePositionBias", {"table", "qlen", "klen"}, {"y"},
                  IntAttr("max_distance", 128)),
             {"float[32, 8]", "int64[1]", "int64[1]"},
             "float[1, 8, S, S]",
             {std::nullopt, Vector({S("S")}), Vector({S("S")})}},
        Case{"relative_position_bias_lengths_differ",
             Node("RelativePositionBias", {"table", "qlen", "klen"}, {"y"},
                  IntAttr("max_distance", 128)),
             {"float[32, 8]", "int64[1]", "int64[1]"},
             "error: query_length and key_length values (self attention): expected equal dims, "
             "got 3 vs 4",
             {std::nullopt, Vector({Dim::Const(3)}), Vector({Dim::Const(4)})}},
        Case{"relative_position_bias_unknown_lengths",
             Node("RelativePositionBias", {"table", "qlen", "klen"}, {"y"},
                  IntAttr("max_distance", 128)),
             {"float16[32, 8]", "int64[1]", "int64[1]"},
             "float16[1, 8, ?, ?]"},
        Case{
            "gated_relative_position_bias",
            Node("GatedRelativePositionBias", {"q", "qb", "rel", "w", "b", "eco"}, {"y"}, Heads(8)),
            {"float[B, S, 64]", "float[64]", "float[1, 8, S, S]", "float[8, 16]", "float[16]",
             "float[1, 8, 1, 1]"},
            "float[B, 8, S, S]"},
        Case{"gated_relative_position_bias_packed_tokens",
             Node("GatedRelativePositionBias", {"q", "qb", "rel", "w", "b", "eco", "offset"}, {"y"},
                  Heads(8)),
             {"float16[T, 64]", "float16[64]", "float16[1, 8, S, S]", "float16[8, 16]",
              "float16[16]", "float16[1, 8, 1, 1]", "int32[B, S]"},
             "float16[B, 8, S, S]"},
        Case{"gated_relative_position_bias_padding_removed_needs_tokens",
             Node("GatedRelativePositionBias", {"q", "qb", "rel", "w", "b", "eco", "offset"}, {"y"},
                  Heads(8)),
             {"float16[B, S, 64]", "float16[64]", "float16[1, 8, S, S]", "float16[8, 16]",
              "float16[16]", "float16[1, 8, 1, 1]", "int32[B, S]"},
             "error: input 0 'q': expected rank 2, got rank 3"},
        Case{
            "gated_relative_position_bias_weight_rows",
            Node("GatedRelativePositionBias", {"q", "qb", "rel", "w", "b", "eco"}, {"y"}, Heads(8)),
            {"float[B, S, 64]", "float[64]", "float[1, 8, S, S]", "float[16, 16]", "float[16]",
             "float[1, 8, 1, 1]"},
            "error: head size and weight dim 0: expected equal dims, got 8 vs 16"},
        Case{"remove_padding",
             Node("RemovePadding", {"x", "count"}, {"y", "offset", "cum", "max"}),
             {"float16[B, S, 64]", "int32[B]"},
             "float16[?, 64]; int32[B, S]; int32[B + 1]; int32[1]"},
        Case{"restore_padding",
             Node("RestorePadding", {"x", "offset"}, {"y"}),
             {"float[T, 64]", "int32[B, S]"},
             "float[B, S, 64]"}));

// The facts the rules record: every batch is one dim, head sizes agree, a known cache length
// binds a symbol.
TEST(ComMicrosoftAttentionFactsTest, GroupQueryAttentionRecordsSharedDims) {
  symbolic::Unifier u;
  auto run =
      RunRule(BuiltinSchemas(),
              Node("GroupQueryAttention", {"q", "k", "v", "pk", "pv", "seqlens", "total"},
                   {"y", "present_key", "present_value"}, GqaHeads(4, 2)),
              1,
              {T("float[B, S, 64]"), T("float[B2, S, KV]"), T("float[B, S, 32]"),
               T("float[B, 2, P, HD]"), T("float[B, 2, P, 16]"), T("int32[B3]"), T("int32[]")},
              {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
               Scalar(S("P") + S("S"))},
              &u);
  EXPECT_EQ(run.Summary(), "float[B, S, 64]; float[B, 2, P + S, 16]; float[B, 2, P + S, 16]");
  EXPECT_EQ(run.facts,
            (std::vector<std::string>{
                "B == B2 (node of output 'y' (GroupQueryAttention): batch of query and input 1 "
                "'k')",
                "32 == KV (node of output 'y' (GroupQueryAttention): input 1 'k' hidden size and "
                "kv_num_heads * head size)",
                "16 == HD (node of output 'y' (GroupQueryAttention): head size of query and "
                "past_key)",
                "B == B3 (node of output 'y' (GroupQueryAttention): batch of query and "
                "seqlens_k)"}));
}

TEST(ComMicrosoftAttentionFactsTest, AttentionMaskTotalIsPastPlusNew) {
  symbolic::Unifier u;
  auto run =
      RunRule(BuiltinSchemas(),
              Node("Attention", {"x", "w", "b", "", "past", "bias"}, {"y", "present"}, Heads(4)), 1,
              {T("float[B, S, 32]"), T("float[32, 96]"), T("float[96]"), Type(),
               T("float[2, B, 4, P, 8]"), T("float[B, 4, S, TOTAL]")},
              {}, &u);
  EXPECT_EQ(run.Summary(), "float[B, S, 32]; float[2, B, 4, P + S, 8]");
  ASSERT_EQ(run.facts.size(), 1u);
  EXPECT_EQ(run.facts[0],
            "P + S == TOTAL (node of output 'y' (Attention): input 5 'bias' dim 3 and the total "
            "sequence length)");
}

}  // namespace
}  // namespace onnx_infer
