// Table tests of com.microsoft's quantized operators (schema/defs/com_microsoft/quantization.cc):
// MatMulNBits and its fused forms with their packed layouts, the other weight-only quantized
// matmuls, GatherBlockQuantized, the integer matmuls, QGemm, the QLinear* family, Q/DQ, the
// QOrdered* operators, BFP, DynamicQuantizeLSTM, ReduceSumInteger, MoE and QMoE; the facts a
// packed weight records.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/test_util.h"
#include "onnx_infer/symbolic/unifier.h"

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
  std::string node;                 // NodeProto text
  std::vector<const char*> inputs;  // types, "" for an absent input
  std::string expected;             // RuleRun::Summary(), or "error: <part of the message>"
  std::vector<std::optional<ConstValue>> values = {};
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

class ComMicrosoftQuantRuleTest : public ::testing::TestWithParam<Case> {};

TEST_P(ComMicrosoftQuantRuleTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, 1, inputs, c.values);
  EXPECT_TRUE(RunMatches(run, c.expected));
}

// A com.microsoft node.
std::string Ms(const char* op, const std::vector<const char*>& inputs,
               const std::vector<const char*>& outputs, const std::string& attrs = "") {
  return testing::Node(op, inputs, outputs, attrs, "com.microsoft");
}

std::string StrAttr(const char* name, const char* s) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: STRING s: ")" + s + R"(" })";
}

// MatMulNBits' attributes.
std::string NBits(int64_t k, int64_t n, int64_t bits, int64_t block_size) {
  return IntAttr("K", k) + IntAttr("N", n) + IntAttr("bits", bits) +
         IntAttr("block_size", block_size);
}

const std::vector<const char*> kNBitsInputs = {"a", "b", "scales", "zp", "", "bias"};

INSTANTIATE_TEST_SUITE_P(
    MatMulNBits, ComMicrosoftQuantRuleTest,
    ::testing::Values(
        // K = 256, block 32: 8 blocks of 16 bytes at 4 bits; zero points 4 bytes a row.
        Case{"int4_symbolic_batch",
             Ms("MatMulNBits", kNBitsInputs, {"y"}, NBits(256, 64, 4, 32)),
             {"float16[B, S, 256]", "uint8[64, 8, 16]", "float16[64, 8]", "uint8[64, 4]", "",
              "float16[64]"},
             "float16[B, S, 64]"},
        // The shared tract model's layout: bits 2, 1-D scales and zero points of old exports.
        Case{"int2_flat_scales_and_zero_points",
             Ms("MatMulNBits", {"a", "b", "scales", "zp"}, {"y"}, NBits(256, 64, 2, 128)),
             {"float[1, 3, 256]", "uint8[64, 2, 32]", "float[128]", "uint8[64]"},
             "float[1, 3, 64]"},
        Case{"int8_float_zero_points",
             Ms("MatMulNBits", {"a", "b", "scales", "zp"}, {"y"}, NBits(64, 16, 8, 16)),
             {"float[T, 64]", "uint8[16, 4, 16]", "float[16, 4]", "float[16, 4]"},
             "float[T, 16]"},
        // K = 100 is not a multiple of the block: ceil(100 / 32) = 4 blocks.
        Case{"partial_last_block",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(100, 8, 4, 32)),
             {"float[2, 100]", "uint8[8, 4, 16]", "float[8, 4]"},
             "float[2, 8]"},
        Case{"one_dimensional_activation",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(64, 8, 4, 32)),
             {"float[64]", "uint8[8, 2, 16]", "float[8, 2]"},
             "float[8]"},
        Case{"unknown_rank_activation",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(64, 8, 4, 32)),
             {"bfloat16", "uint8[8, 2, 16]", "bfloat16[8, 2]"},
             "bfloat16"},
        Case{"prepacked_weight_not_checked",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"},
                NBits(64, 8, 4, 32) + IntAttr("weight_prepacked", 1)),
             {"float16[B, 64]", "uint8[256]", "float16[4, 4]"},
             "float16[B, 8]"},
        Case{"b_rows_contradict_n",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(256, 32, 4, 32)),
             {"float[B, S, 256]", "uint8[64, 8, 16]", "float[64, 8]"},
             "error: input 1 'b': dim 0 is 64 but attribute N = 32"},
        Case{"b_blocks_contradict_k",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(256, 64, 4, 32)),
             {"float[B, S, 256]", "uint8[64, 4, 16]", "float[64, 4]"},
             "error: input 1 'b': dim 1 is 4 but k_blocks = ceil(K / block_size) (K = 256, "
             "block_size = 32) = 8"},
        Case{"b_blob_contradicts_bits",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(256, 64, 4, 32)),
             {"float[B, S, 256]", "uint8[64, 8, 32]", "float[64, 8]"},
             "error: input 1 'b': dim 2 is 32 but blob_size = block_size * bits / 8 "
             "(block_size = 32, bits = 4) = 16"},
        Case{"activation_contradicts_k",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(256, 64, 4, 32)),
             {"float[B, S, 128]", "uint8[64, 8, 16]", "float[64, 8]"},
             "error: input 0 'a': dim 2 is 128 but attribute K = 256"},
        Case{"scales_contradict_blocks",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(256, 64, 4, 32)),
             {"float[B, S, 256]", "uint8[64, 8, 16]", "float[64, 7]"},
             "error: input 2 'scales': dim 1 is 7 but k_blocks"},
        Case{"flat_scales_contradict",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(256, 64, 4, 32)),
             {"float[B, S, 256]", "uint8[64, 8, 16]", "float[500]"},
             "error: input 2 'scales': dim 0 is 500 but N * k_blocks (64 * 8) = 512"},
        Case{"packed_zero_points_contradict",
             Ms("MatMulNBits", {"a", "b", "scales", "zp"}, {"y"}, NBits(256, 64, 4, 32)),
             {"float[B, S, 256]", "uint8[64, 8, 16]", "float[64, 8]", "uint8[64, 8]"},
             "error: input 3 'zp': dim 1 is 8 but ceil(k_blocks * bits / 8) = 4"},
        Case{"bias_contradicts_n",
             Ms("MatMulNBits", kNBitsInputs, {"y"}, NBits(256, 64, 4, 32)),
             {"float[B, S, 256]", "uint8[64, 8, 16]", "float[64, 8]", "", "", "float[32]"},
             "error: input 5 'bias': dim 0 is 32 but attribute N = 64"},
        Case{"b_rank",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(256, 64, 4, 32)),
             {"float[B, S, 256]", "uint8[64, 128]", "float[64, 8]"},
             "error: input 1 'b': expected rank 3, got rank 2"},
        Case{"block_size_not_a_power_of_two",
             Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(256, 64, 4, 24)),
             {"float[B, S, 256]", "uint8[64, 11, 12]", "float[64, 11]"},
             "error: attribute 'block_size': expected a power of 2 >= 16, got 24"}));

// The fused MLP: gate and up projections of [128, 64] at 4 bits, block 32.
const std::vector<const char*> kMlpInputs = {"a",         "skip", "norm", "gate_b", "gate_s",
                                             "gate_bias", "up_b", "up_s", "up_bias"};

INSTANTIATE_TEST_SUITE_P(
    MatMulNBitsFused, ComMicrosoftQuantRuleTest,
    ::testing::Values(
        Case{"mlp_with_skip_sum",
             Ms("MatMulNBitsMlp", kMlpInputs, {"y", "sum"},
                NBits(64, 128, 4, 32) + StrAttr("activation", "silu")),
             {"float16[B, S, 64]", "float16[B, S, 64]", "float16[64]", "uint8[128, 2, 16]",
              "float16[128, 2]", "", "uint8[128, 2, 16]", "float16[128, 2]", "float16[128]"},
             "float16[B, S, 128]; float16[B, S, 64]"},
        Case{"mlp_without_norm",
             Ms("MatMulNBitsMlp", {"a", "", "", "gate_b", "gate_s", "", "up_b", "up_s"}, {"y"},
                NBits(64, 128, 4, 32) + StrAttr("activation", "silu")),
             {"float[T, 64]", "", "", "uint8[128, 2, 16]", "float[256]", "", "uint8[128, 2, 16]",
              "float[256]"},
             "float[T, 128]"},
        Case{"mlp_up_weight_contradicts_n",
             Ms("MatMulNBitsMlp", {"a", "", "", "gate_b", "gate_s", "", "up_b", "up_s"}, {"y"},
                NBits(64, 128, 4, 32) + StrAttr("activation", "silu")),
             {"float[T, 64]", "", "", "uint8[128, 2, 16]", "float[128, 2]", "", "uint8[96, 2, 16]",
              "float[96, 2]"},
             "error: input 6 'up_b': dim 0 is 96 but attribute N = 128"},
        Case{"mlp_norm_scale_contradicts_k",
             Ms("MatMulNBitsMlp", {"a", "", "norm", "gate_b", "gate_s", "", "up_b", "up_s"}, {"y"},
                NBits(64, 128, 4, 32) + StrAttr("activation", "silu")),
             {"float[T, 64]", "", "float[32]", "uint8[128, 2, 16]", "float[128, 2]", "",
              "uint8[128, 2, 16]", "float[128, 2]"},
             "error: input 2 'norm': dim 0 is 32 but attribute K = 64"},
        // Q [.., Nq], K and V [.., Nkv]: 8 query heads and 2 KV heads of 8.
        Case{"qkv_gqa_projections",
             Ms("MatMulNBitsQkv",
                {"a", "skip", "norm", "qb", "qs", "", "kb", "ks", "", "vb", "vs", ""},
                {"q", "k", "v", "sum"},
                IntAttr("K", 64) + IntAttr("Nq", 64) + IntAttr("Nkv", 16) + IntAttr("bits", 4) +
                    IntAttr("block_size", 32)),
             {"float16[B, 1, 64]", "float16[B, 1, 64]", "float16[64]", "uint8[64, 2, 16]",
              "float16[64, 2]", "", "uint8[16, 2, 16]", "float16[16, 2]", "", "uint8[16, 2, 16]",
              "float16[16, 2]", ""},
             "float16[B, 1, 64]; float16[B, 1, 16]; float16[B, 1, 16]; float16[B, 1, 64]"},
        Case{"qkv_v_weight_contradicts_nkv",
             Ms("MatMulNBitsQkv", {"a", "", "norm", "qb", "qs", "", "kb", "ks", "", "vb", "vs"},
                {"q", "k", "v"},
                IntAttr("K", 64) + IntAttr("Nq", 64) + IntAttr("Nkv", 16) + IntAttr("bits", 4) +
                    IntAttr("block_size", 32)),
             {"float[B, 1, 64]", "", "float[64]", "uint8[64, 2, 16]", "float[64, 2]", "",
              "uint8[16, 2, 16]", "float[16, 2]", "", "uint8[64, 2, 16]", "float[64, 2]"},
             "error: input 9 'vb': dim 0 is 64 but attribute Nkv = 16"}));

INSTANTIATE_TEST_SUITE_P(
    WeightOnlyMatMuls, ComMicrosoftQuantRuleTest,
    ::testing::Values(
        // Bnb4: [N, K] = [32, 64] in 4 bits is 1024 bytes; 2048 values / 64 a block.
        Case{"bnb4_trans_b",
             Ms("MatMulBnb4", {"a", "b", "absmax"}, {"y"},
                IntAttr("K", 64) + IntAttr("N", 32) + IntAttr("block_size", 64) +
                    IntAttr("quant_type", 1)),
             {"float[B, S, 64]", "uint8[1024]", "float[32]"},
             "float[B, S, 32]"},
        Case{"bnb4_no_trans_b",
             Ms("MatMulBnb4", {"a", "b", "absmax"}, {"y"},
                IntAttr("K", 64) + IntAttr("N", 32) + IntAttr("block_size", 64) +
                    IntAttr("quant_type", 0) + IntAttr("transB", 0)),
             {"float16[B, 32]", "uint8[1024]", "float16[32]"},
             "float16[B, 64]"},
        Case{"bnb4_odd_count_rounds_up",
             Ms("MatMulBnb4", {"a", "b", "absmax"}, {"y"},
                IntAttr("K", 5) + IntAttr("N", 3) + IntAttr("block_size", 16) +
                    IntAttr("quant_type", 1)),
             {"float[B, 5]", "uint8[8]", "float[1]"},
             "float[B, 3]"},
        Case{"bnb4_packed_size_contradicts",
             Ms("MatMulBnb4", {"a", "b", "absmax"}, {"y"},
                IntAttr("K", 64) + IntAttr("N", 32) + IntAttr("block_size", 64) +
                    IntAttr("quant_type", 1)),
             {"float[B, S, 64]", "uint8[1000]", "float[32]"},
             "error: input 1 'b': dim 0 is 1000 but ceil(N * K / 2) (N = 32, K = 64) = 1024"},
        Case{"fpq4_shape_value",
             Ms("MatMulFpQ4", {"a", "b", "b_shape"}, {"y"}, IntAttr("blk_quant_type", 1)),
             {"float[M, 64]", "uint8[?]", "int64[2]"},
             "float[M, 128]",
             {std::nullopt, std::nullopt, Int64s({64, 128})}},
        Case{"fpq4_shape_length_only",
             Ms("MatMulFpQ4", {"a", "b", "b_shape"}, {"y"}),
             {"float[B, M, 64]", "uint8[?]", "int64[2]"},
             "float[B, M, ?]"},
        Case{"fpq4_contracted_dims",
             Ms("MatMulFpQ4", {"a", "b", "b_shape"}, {"y"}),
             {"float[M, 64]", "uint8[?]", "int64[2]"},
             "error: contracted dims differ",
             {std::nullopt, std::nullopt, Int64s({32, 128})}},
        // NVFP4: K = 2 * B's dim 1, one scale per 16 values.
        Case{"fp4_weight",
             Ms("MatMulBlockQuantizedFp4Weight", {"a", "b", "ws", "ws2", "", "bias"}, {"y"}),
             {"float16[B, S, 64]", "uint8[32, 32]", "uint8[32, 4]", "float[]", "", "float16[32]"},
             "float16[B, S, 32]"},
        Case{"fp4_weight_k_contradicts",
             Ms("MatMulBlockQuantizedFp4Weight", {"a", "b", "ws", "ws2"}, {"y"}),
             {"float16[B, S, 60]", "uint8[32, 32]", "uint8[32, 4]", "float[]"},
             "error: input 0 'a': dim 2 is 60 but 2 * input 1 'b' dim 1 (K) = 64"},
        Case{"fp4_weight_scales_contradict",
             Ms("MatMulBlockQuantizedFp4Weight", {"a", "b", "ws", "ws2"}, {"y"}),
             {"float16[B, S, 64]", "uint8[32, 32]", "uint8[32, 2]", "float[]"},
             "error: input 2 'ws': dim 1 is 2 but ceil(K / block_size) (block_size = 16) = 4"},
        Case{"fp8_weight",
             Ms("MatMulBlockQuantizedFp8Weight", {"a", "b", "bs"}, {"y"}),
             {"bfloat16[T, 256]", "float8e4m3fn[512, 256]", "float[512, 2]"},
             "bfloat16[T, 512]"},
        Case{
            "fp8_weight_symbolic_k_fixed_by_b",
            Ms("MatMulBlockQuantizedFp8Weight", {"a", "b", "bs"}, {"y"}, IntAttr("block_size", 64)),
            {"float16[T, K]", "float8e4m3fn[N, 256]", "float[N, 4]"},
            "float16[T, N]"}));

INSTANTIATE_TEST_SUITE_P(
    GatherBlockQuantized, ComMicrosoftQuantRuleTest,
    ::testing::Values(
        // A 4-bit embedding table of hidden 64 stored as 32 bytes a row: the gathered rows
        // are dequantized to 64 values.
        Case{"uint8_int4_embedding_unpacks_last_dim",
             Ms("GatherBlockQuantized", {"data", "ids", "scales", "zp"}, {"y"},
                IntAttr("bits", 4) + IntAttr("block_size", 32)),
             {"uint8[V, 32]", "int64[B, S]", "float16[V, 2]", "uint8[V, 1]"},
             "float16[B, S, 64]"},
        Case{"uint8_int2",
             Ms("GatherBlockQuantized", {"data", "ids", "scales"}, {"y"},
                IntAttr("bits", 2) + IntAttr("block_size", 16)),
             {"uint8[1000, 16]", "int32[N]", "float[1000, 4]"},
             "float[N, 64]"},
        Case{"uint8_int8_not_packed",
             Ms("GatherBlockQuantized", {"data", "ids", "scales"}, {"y"},
                IntAttr("bits", 8) + IntAttr("block_size", 32)),
             {"uint8[V, 64]", "int64[B, S]", "float[V, 2]"},
             "float[B, S, 64]"},
        Case{
            "int4_logical_dims",
            Ms("GatherBlockQuantized", {"data", "ids", "scales"}, {"y"}, IntAttr("block_size", 32)),
            {"int4[V, 64]", "int64[B, S]", "float[V, 2]"},
            "float[B, S, 64]"},
        Case{
            "int4_gather_axis_1",
            Ms("GatherBlockQuantized", {"data", "ids", "scales"}, {"y"},
               IntAttr("gather_axis", 1) + IntAttr("quantize_axis", 0) + IntAttr("block_size", 16)),
            {"uint4[32, 10]", "int64[3]", "float[2, 10]"},
            "float[32, 3]"},
        Case{"fp8_per_tensor_scale_broadcasts",
             Ms("GatherBlockQuantized", {"data", "ids", "scales"}, {"y"}, IntAttr("block_size", 0)),
             {"float8e4m3fn[V, 64]", "int64[B, S]", "bfloat16[1, 1]"},
             "bfloat16[B, S, 64]"},
        Case{
            "scalar_indices_drop_the_axis",
            Ms("GatherBlockQuantized", {"data", "ids", "scales"}, {"y"}, IntAttr("block_size", 16)),
            {"int4[V, 64]", "int64[]", "float[V, 4]"},
            "float[64]"},
        Case{
            "uint8_gather_axis_must_be_0",
            Ms("GatherBlockQuantized", {"data", "ids", "scales"}, {"y"},
               IntAttr("gather_axis", 1) + IntAttr("quantize_axis", 0) + IntAttr("block_size", 16)),
            {"uint8[32, 10]", "int64[3]", "float[2, 10]"},
            "error: attribute 'gather_axis': expected 0 for uint8 data, got 1"},
        Case{"uint8_cannot_gather_the_packed_axis",
             Ms("GatherBlockQuantized", {"data", "ids", "scales"}, {"y"},
                IntAttr("quantize_axis", 0) + IntAttr("block_size", 16)),
             {"uint8[32]", "int64[]", "float[4]"},
             "error: attribute 'quantize_axis': expected an axis other than gather_axis 0 for "
             "uint8 data, got 0"},
        Case{"scales_contradict_unpacked_blocks",
             Ms("GatherBlockQuantized", {"data", "ids", "scales"}, {"y"},
                IntAttr("bits", 4) + IntAttr("block_size", 32)),
             {"uint8[V, 32]", "int64[B, S]", "float[V, 1]"},
             "error: input 2 'scales': dim 1 is 1 but ceil(values along quantize_axis 1 / "
             "block_size 32) = 2"},
        Case{"zero_points_pack_two_blocks_a_byte",
             Ms("GatherBlockQuantized", {"data", "ids", "scales", "zp"}, {"y"},
                IntAttr("bits", 4) + IntAttr("block_size", 16)),
             {"uint8[V, 32]", "int64[B, S]", "float[V, 4]", "uint8[V, 4]"},
             "error: input 3 'zp': dim 1 is 4 but ceil(input 2 'scales' dim 1 / (8 / bits)) = 2"}));

INSTANTIATE_TEST_SUITE_P(
    IntegerMatMuls, ComMicrosoftQuantRuleTest,
    ::testing::Values(
        Case{"dynamic_quantize_matmul",
             Ms("DynamicQuantizeMatMul", {"a", "b", "bs", "bz", "bias"}, {"y"}),
             {"float[B, S, 64]", "int8[64, 32]", "float[32]", "int8[32]", "float[32]"},
             "float[B, S, 32]"},
        Case{"dynamic_quantize_matmul_bias_contradicts_n",
             Ms("DynamicQuantizeMatMul", {"a", "b", "bs", "", "bias"}, {"y"}),
             {"float[B, S, 64]", "int8[64, 32]", "float[]", "", "float[16]"},
             "error: input 4 'bias': dim 0 is 16 but the last dim of input 1 'b' = 32"},
        Case{"dynamic_quantize_matmul_contracted_dims",
             Ms("DynamicQuantizeMatMul", {"a", "b", "bs"}, {"y"}),
             {"float[B, S, 64]", "int8[32, 32]", "float[]"},
             "error: contracted dims differ"},
        Case{"integer_to_float_takes_the_scale_type",
             Ms("MatMulIntegerToFloat", {"a", "b", "as", "bs"}, {"y"}),
             {"uint8[B, S, 64]", "int8[64, N]", "float16[]", "float16[N]"},
             "float16[B, S, N]"},
        Case{"integer16_signed",
             Ms("MatMulInteger16", {"a", "b"}, {"y"}),
             {"int16[M, K]", "uint16[K, N]"},
             "int32[M, N]"},
        Case{"integer16_unsigned",
             Ms("MatMulInteger16", {"a", "b"}, {"y"}),
             {"uint16[B, M, K]", "uint16[K, N]"},
             "uint32[B, M, N]"},
        Case{"mul_integer_broadcasts",
             Ms("MulInteger", {"a", "", "b"}, {"c"}),
             {"uint8[N, 1, 8]", "", "uint8[4, 1]"},
             "int32[N, 4, 8]"},
        Case{"qgemm_quantized_output",
             Ms("QGemm", {"a", "as", "az", "b", "bs", "bz", "c", "ys", "yz"}, {"y"},
                IntAttr("transB", 1)),
             {"uint8[M, 64]", "float[]", "uint8[]", "int8[32, 64]", "float[32]", "int8[32]",
              "int32[32]", "float[]", "uint8[]"},
             "uint8[M, 32]"},
        Case{"qgemm_float_output_without_y_zero_point",
             Ms("QGemm", {"a", "as", "az", "b", "bs", "bz", "", "ys"}, {"y"}),
             {"int8[M, K]", "float[]", "int8[]", "int8[K, N]", "float[]", "int8[]", "", "float[]"},
             "float[M, N]"},
        Case{"qgemm_c_fixes_n",
             Ms("QGemm", {"a", "as", "az", "b", "bs", "bz", "c"}, {"y"}),
             {"uint8[M, K]", "float[]", "uint8[]", "uint8[K, N]", "float[]", "uint8[]",
              "int32[1, 16]"},
             "float[M, 16]"},
        Case{"qgemm_rank",
             Ms("QGemm", {"a", "as", "az", "b", "bs", "bz"}, {"y"}),
             {"uint8[B, M, K]", "float[]", "uint8[]", "uint8[K, N]", "float[]", "uint8[]"},
             "error: input 0 'a': expected rank 2, got rank 3"}));

INSTANTIATE_TEST_SUITE_P(
    QLinear, ComMicrosoftQuantRuleTest,
    ::testing::Values(
        Case{"add_broadcasts",
             Ms("QLinearAdd", {"a", "as", "az", "b", "bs", "bz", "cs", "cz"}, {"c"}),
             {"int8[N, C, H, W]", "float[]", "int8[]", "int8[1, C, 1, 1]", "float[]", "int8[]",
              "float[]", "int8[]"},
             "int8[N, C, H, W]"},
        Case{"mul_broadcast_contradiction",
             Ms("QLinearMul", {"a", "as", "", "b", "bs", "", "cs"}, {"c"}),
             {"uint8[N, 3]", "float[]", "", "uint8[N, 4]", "float[]", "", "float[]"},
             "error: "},
        Case{"where_broadcasts_three",
             Ms("QLinearWhere", {"c", "x", "xs", "xz", "y", "ys", "yz", "zs", "zz"}, {"z"}),
             {"bool[N, 1]", "int8[1, M]", "float[]", "int8[]", "int8[M]", "float[]", "int8[]",
              "float[]", "int8[]"},
             "int8[N, M]"},
        Case{"leaky_relu",
             Ms("QLinearLeakyRelu", {"x", "xs", "", "ys"}, {"y"}),
             {"uint8[N, C, L]", "float[]", "", "float[]"},
             "uint8[N, C, L]"},
        Case{"sigmoid",
             Ms("QLinearSigmoid", {"x", "xs", "xz", "ys", "yz"}, {"y"}),
             {"int8[B, S, 64]", "float[]", "int8[]", "float[]", "int8[]"},
             "int8[B, S, 64]"},
        Case{"softmax",
             Ms("QLinearSoftmax", {"x", "xs", "xz", "ys", "yz"}, {"y"}, IntAttr("opset", 13)),
             {"uint8[B, H, S, S]", "float[]", "uint8[]", "float[]", "uint8[]"},
             "uint8[B, H, S, S]"},
        Case{"softmax_axis_out_of_range",
             Ms("QLinearSoftmax", {"x", "xs", "xz", "ys", "yz"}, {"y"},
                IntAttr("opset", 13) + IntAttr("axis", 4)),
             {"uint8[B, H, S, S]", "float[]", "uint8[]", "float[]", "uint8[]"},
             "error: attribute 'axis'"},
        Case{"conv",
             Ms("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"}, {"y"},
                IntsAttr("pads", {1, 1, 1, 1})),
             {"uint8[N, 3, H, W]", "float[]", "uint8[]", "int8[16, 3, 3, 3]", "float[16]",
              "int8[16]", "float[]", "uint8[]", "int32[16]"},
             "uint8[N, 16, H, W]"},
        Case{"conv_channels_last",
             Ms("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, {"y"},
                IntsAttr("strides", {2, 2}) + IntAttr("channels_last", 1)),
             {"int8[N, H, W, 8]", "float[]", "int8[]", "int8[4, 8, 1, 1]", "float[]", "int8[]",
              "float[]", "int8[]"},
             "int8[N, floor((H + 1)/2), floor((W + 1)/2), 4]"},
        Case{"conv_channels_contradict",
             Ms("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, {"y"},
                IntAttr("channels_last", 1)),
             {"int8[N, H, W, 8]", "float[]", "int8[]", "int8[4, 3, 1, 1]", "float[]", "int8[]",
              "float[]", "int8[]"},
             "error: X's channels and W's dim 1 * group"},
        Case{"average_pool",
             Ms("QLinearAveragePool", {"x", "xs", "xz", "ys", "yz"}, {"y"},
                IntsAttr("kernel_shape", {2, 2}) + IntsAttr("strides", {2, 2})),
             {"uint8[N, 3, H, W]", "float[]", "uint8[]", "float[]", "uint8[]"},
             "uint8[N, 3, floor(H/2), floor(W/2)]"},
        Case{"average_pool_channels_last",
             Ms("QLinearAveragePool", {"x", "xs", "xz", "ys", "yz"}, {"y"},
                IntsAttr("kernel_shape", {3, 3}) + IntsAttr("pads", {1, 1, 1, 1}) +
                    IntAttr("channels_last", 1)),
             {"uint8[N, 32, 32, C]", "float[]", "uint8[]", "float[]", "uint8[]"},
             "uint8[N, 32, 32, C]"},
        Case{"global_average_pool",
             Ms("QLinearGlobalAveragePool", {"x", "xs", "xz", "ys", "yz"}, {"y"}),
             {"int8[N, C, H, W]", "float[]", "int8[]", "float[]", "int8[]"},
             "int8[N, C, 1, 1]"},
        Case{"global_average_pool_channels_last",
             Ms("QLinearGlobalAveragePool", {"x", "xs", "xz", "ys", "yz"}, {"y"},
                IntAttr("channels_last", 1)),
             {"int8[N, H, W, C]", "float[]", "int8[]", "float[]", "int8[]"},
             "int8[N, 1, 1, C]"},
        Case{"concat_adds_the_axis",
             Ms("QLinearConcat", {"ys", "yz", "a", "as", "az", "b", "bs", "bz"}, {"y"},
                IntAttr("axis", 1)),
             {"float[]", "uint8[]", "uint8[N, 3, H]", "float[]", "uint8[]", "uint8[N, C, H]",
              "float[]", "uint8[]"},
             "uint8[N, C + 3, H]"},
        Case{"concat_other_dims_contradict",
             Ms("QLinearConcat", {"ys", "yz", "a", "as", "az", "b", "bs", "bz"}, {"y"},
                IntAttr("axis", -1)),
             {"float[]", "int8[]", "int8[2, 3]", "float[]", "int8[]", "int8[4, 5]", "float[]",
              "int8[]"},
             "error: input 5 'b': dim 0 differs"},
        Case{"concat_incomplete_triple",
             Ms("QLinearConcat", {"ys", "yz", "a", "as"}, {"y"}, IntAttr("axis", 0)),
             {"float[]", "int8[]", "int8[2, 3]", "float[]"},
             "error: expected Y_scale, Y_zero_point and (tensor, scale, zero point) triples"},
        Case{"reduce_mean_keepdims",
             Ms("QLinearReduceMean", {"x", "xs", "xz", "ys", "yz"}, {"y"},
                IntsAttr("axes", {2, 3}) + IntAttr("keepdims", 1)),
             {"uint8[N, C, H, W]", "float[]", "uint8[]", "float[]", "uint8[]"},
             "uint8[N, C, 1, 1]"},
        Case{"reduce_mean_drops_axes",
             Ms("QLinearReduceMean", {"x", "xs", "", "ys"}, {"y"},
                IntsAttr("axes", {-1}) + IntAttr("keepdims", 0)),
             {"int8[B, S, 64]", "float[]", "", "float[]"},
             "int8[B, S]"},
        Case{"reduce_sum_integer_int8",
             Ms("ReduceSumInteger", {"x"}, {"y"}, IntsAttr("axes", {1}) + IntAttr("keepdims", 0)),
             {"int8[N, C, L]"},
             "int32[N, L]"},
        Case{"reduce_sum_integer_uint8",
             Ms("ReduceSumInteger", {"x"}, {"y"}, IntsAttr("axes", {1}) + IntAttr("keepdims", 1)),
             {"uint8[N, C, L]"},
             "uint32[N, 1, L]"}));

INSTANTIATE_TEST_SUITE_P(
    QuantizeDequantize, ComMicrosoftQuantRuleTest,
    ::testing::Values(
        Case{"quantize_per_axis",
             Ms("QuantizeLinear", {"x", "s", "z"}, {"y"}, IntAttr("axis", 1)),
             {"float[N, 3, H]", "float[3]", "int8[3]"},
             "int8[N, 3, H]"},
        Case{"quantize_without_zero_point_is_uint8",
             Ms("QuantizeLinear", {"x", "s"}, {"y"}),
             {"float16[B, S]", "float16[]"},
             "uint8[B, S]"},
        Case{"quantize_uint16",
             Ms("QuantizeLinear", {"x", "s", "z"}, {"y"}),
             {"float[B, S]", "float[]", "uint16[]"},
             "uint16[B, S]"},
        Case{"quantize_scale_contradicts_axis",
             Ms("QuantizeLinear", {"x", "s", "z"}, {"y"}, IntAttr("axis", 1)),
             {"float[N, 3, H]", "float[5]", "int8[5]"},
             "error: input 1 's' length and input 0 'x' dim 1"},
        Case{"dequantize_takes_the_scale_type",
             Ms("DequantizeLinear", {"x", "s", "z"}, {"y"}),
             {"int8[N, 3]", "float16[]", "int8[]"},
             "float16[N, 3]"},
        Case{"dequantize_int4_per_axis",
             Ms("DequantizeLinear", {"x", "s"}, {"y"}, IntAttr("axis", 0)),
             {"int4[K, N]", "float[K]"},
             "float[K, N]"},
        Case{"quantize_with_order",
             Ms("QuantizeWithOrder", {"x", "s"}, {"y"},
                IntAttr("order_input", 1) + IntAttr("order_output", 2)),
             {"float16[B, R, C]", "float[]"},
             "int8[B, R, C]"},
        Case{"dequantize_with_order",
             Ms("DequantizeWithOrder", {"x", "s"}, {"y"},
                IntAttr("order_input", 2) + IntAttr("order_output", 1) + IntAttr("to", 10)),
             {"int8[B, R, C]", "float[]"},
             "float16[B, R, C]"},
        Case{"dequantize_with_order_bad_to",
             Ms("DequantizeWithOrder", {"x", "s"}, {"y"},
                IntAttr("order_input", 2) + IntAttr("order_output", 1) + IntAttr("to", 3)),
             {"int8[B, R, C]", "float[]"},
             "error: attribute 'to': expected 1 (float) or 10 (float16), got 3"},
        Case{"qordered_gelu",
             Ms("QOrderedGelu", {"x", "sx", "sy"}, {"y"}),
             {"int8[B, S, 64]", "float[]", "float[]"},
             "int8[B, S, 64]"},
        Case{"qordered_layer_norm",
             Ms("QOrderedLayerNormalization", {"x", "sx", "g", "b", "sy"}, {"y"}),
             {"int8[B, S, 64]", "float[]", "float16[64]", "float16[64]", "float[]"},
             "int8[B, S, 64]"},
        Case{"qordered_matmul",
             Ms("QOrderedMatMul", {"a", "sa", "b", "sb", "sy", "bias"}, {"y"},
                IntAttr("order_A", 1) + IntAttr("order_B", 0) + IntAttr("order_Y", 1)),
             {"int8[B, M, 64]", "float[]", "int8[64, 32]", "float[32]", "float[]", "float[32]"},
             "int8[B, M, 32]"},
        Case{"qordered_matmul_contracted_dims",
             Ms("QOrderedMatMul", {"a", "sa", "b", "sb", "sy"}, {"y"},
                IntAttr("order_A", 1) + IntAttr("order_B", 0) + IntAttr("order_Y", 1)),
             {"int8[B, M, 64]", "float[]", "int8[48, 32]", "float[]", "float[]"},
             "error: input 2 'b': dim 0 is 48 but K (the last dim of input 0 'a') = 64"},
        Case{"quantize_bfp",
             Ms("QuantizeBFP", {"x"}, {"y", "shape", "strides"}, IntAttr("bfp_type", 1)),
             {"float[N, 16]"},
             "uint8[?]; int64[2]; int64[2]"},
        Case{"dequantize_bfp_shape_value",
             Ms("DequantizeBFP", {"x", "shape", "strides"}, {"y"},
                IntAttr("bfp_type", 1) + IntAttr("dtype", 16)),
             {"uint8[?]", "int64[3]", "int64[3]"},
             "bfloat16[2, 3, 4]",
             {std::nullopt, Int64s({2, 3, 4}), std::nullopt}},
        Case{"dequantize_bfp_rank_only",
             Ms("DequantizeBFP", {"x", "shape", "strides"}, {"y"}, IntAttr("bfp_type", 1)),
             {"uint8[?]", "int64[3]", "int64[3]"},
             "float[?, ?, ?]"}));

INSTANTIATE_TEST_SUITE_P(
    DynamicQuantizeLSTM, ComMicrosoftQuantRuleTest,
    ::testing::Values(
        // W [dirs, input, 4*hidden] and R [dirs, hidden, 4*hidden]: transposed from LSTM's.
        Case{"forward",
             Ms("DynamicQuantizeLSTM", {"x", "w", "r", "b", "", "", "", "", "ws", "wz", "rs", "rz"},
                {"y", "yh", "yc"}, IntAttr("hidden_size", 8)),
             {"float[T, B, 16]", "int8[1, 16, 32]", "int8[1, 8, 32]", "float[1, 64]", "", "", "",
              "", "float[1]", "int8[1]", "float[1]", "int8[1]"},
             "float[T, 1, B, 8]; float[1, B, 8]; float[1, B, 8]"},
        Case{
            "bidirectional_hidden_from_r",
            Ms("DynamicQuantizeLSTM", {"x", "w", "r", "", "", "h0", "", "", "ws", "wz", "rs", "rz"},
               {"", "yh"}, StrAttr("direction", "bidirectional")),
            {"float[T, B, 16]", "uint8[2, 16, 40]", "uint8[2, 10, 40]", "", "", "float[2, B, 10]",
             "", "", "float[2, 40]", "uint8[2, 40]", "float[2, 40]", "uint8[2, 40]"},
            "float; float[2, B, 10]"},
        Case{"directions_contradict",
             Ms("DynamicQuantizeLSTM", {"x", "w", "r", "", "", "", "", "", "ws", "wz", "rs", "rz"},
                {"y"}, StrAttr("direction", "bidirectional")),
             {"float[T, B, 16]", "int8[1, 16, 32]", "int8[1, 8, 32]", "", "", "", "", "",
              "float[1]", "int8[1]", "float[1]", "int8[1]"},
             "error: input 1 'w': dim 0 is 1 but num_directions (direction 'bidirectional') = 2"},
        Case{"input_size_contradicts",
             Ms("DynamicQuantizeLSTM", {"x", "w", "r", "", "", "", "", "", "ws", "wz", "rs", "rz"},
                {"y"}),
             {"float[T, B, 16]", "int8[1, 12, 32]", "int8[1, 8, 32]", "", "", "", "", "",
              "float[1]", "int8[1]", "float[1]", "int8[1]"},
             "error: input 1 'w': dim 1 is 12 but input 0 'x' dim 2 (input_size) = 16"}));

// MoE with E = 8 experts, hidden 64, inter 128; swiglu without fc3 fuses gate and up in fc1.
const std::vector<const char*> kMoEInputs = {"x", "router", "fc1", "", "fc2"};

INSTANTIATE_TEST_SUITE_P(
    MixtureOfExperts, ComMicrosoftQuantRuleTest,
    ::testing::Values(
        Case{"moe_fused_swiglu",
             Ms("MoE", kMoEInputs, {"y"}, StrAttr("activation_type", "swiglu") + IntAttr("k", 2)),
             {"float16[B, S, 64]", "float16[T, 8]", "float16[8, 256, 64]", "",
              "float16[8, 64, 128]"},
             "float16[B, S, 64]"},
        Case{"moe_legacy_layout",
             Ms("MoE", kMoEInputs, {"y"}, StrAttr("activation_type", "swiglu") + IntAttr("k", 2)),
             {"float[T, 64]", "float[T, 8]", "float[8, 64, 256]", "", "float[8, 128, 64]"},
             "float[T, 64]"},
        Case{"moe_fc3_and_biases",
             Ms("MoE", {"x", "router", "fc1", "b1", "fc2", "b2", "fc3", "b3"}, {"y"},
                StrAttr("activation_type", "silu") + IntAttr("k", 1)),
             {"float[T, 64]", "float[T, 4]", "float[4, 128, 64]", "float[4, 128]",
              "float[4, 64, 128]", "float[4, 64]", "float[4, 128, 64]", "float[4, 128]"},
             "float[T, 64]"},
        Case{"moe_weights_fit_no_layout",
             Ms("MoE", kMoEInputs, {"y"}, StrAttr("activation_type", "swiglu") + IntAttr("k", 2)),
             {"float[T, 64]", "float[T, 8]", "float[8, 256, 60]", "", "float[8, 64, 128]"},
             "error: input 2 'fc1': dim 2 is 60 but hidden_size (the last dim of input 0 'x') = 64 "
             "(nor do the weights fit the legacy layout: input 2 'fc1': dim 1 is 256 but "
             "hidden_size (the last dim of input 0 'x') = 64)"},
        Case{"moe_experts_contradict",
             Ms("MoE", kMoEInputs, {"y"}, IntAttr("k", 2)),
             {"float[T, 64]", "float[T, 8]", "float[4, 128, 64]", "", "float[4, 64, 128]"},
             "error: input 2 'fc1': dim 0 is 4 but input 1 'router' dim 1 (num_experts) = 8"},
        Case{"moe_router_rows_are_tokens",
             Ms("MoE", kMoEInputs, {"y"}, IntAttr("k", 2)),
             {"float[2, 5, 64]", "float[12, 8]", "float[8, 128, 64]", "", "float[8, 64, 128]"},
             "error: input 1 'router': dim 0 is 12 but the number of tokens (the leading dims of "
             "input 0 'x') = 10"},
        // QMoE, 4-bit blockwise: the weights' last dims hold two values a byte.
        Case{"qmoe_int4_blockwise",
             Ms("QMoE", {"x", "router", "fc1", "s1", "", "fc2", "s2"}, {"y"},
                StrAttr("activation_type", "swiglu") + IntAttr("k", 4) +
                    IntAttr("expert_weight_bits", 4) + IntAttr("block_size", 32)),
             {"float16[T, 64]", "float16[T, 8]", "uint8[8, 256, 32]", "float16[8, 256, 2]", "",
              "uint8[8, 64, 64]", "float16[8, 64, 4]"},
             "float16[T, 64]"},
        // CUDA's prepacked weights keep the legacy shapes [E, K, N / pack].
        Case{"qmoe_int4_prepacked_legacy_shapes",
             Ms("QMoE", {"x", "router", "fc1", "s1", "", "fc2", "s2"}, {"y"},
                StrAttr("activation_type", "swiglu") + IntAttr("k", 4) +
                    IntAttr("expert_weight_bits", 4) + IntAttr("block_size", 32)),
             {"float16[B, S, 64]", "float16[T, 8]", "uint8[8, 64, 128]", "float16[8, 256, 2]", "",
              "uint8[8, 128, 32]", "float16[8, 64, 4]"},
             "float16[B, S, 64]"},
        Case{"qmoe_int8_rowwise",
             Ms("QMoE", {"x", "router", "fc1", "s1", "", "fc2", "s2", "", "fc3", "s3"}, {"y"},
                StrAttr("activation_type", "silu") + IntAttr("k", 2) +
                    IntAttr("expert_weight_bits", 8)),
             {"float[T, 64]", "float[T, 8]", "uint8[8, 128, 64]", "float[8, 128]", "",
              "uint8[8, 64, 128]", "float[8, 64]", "", "uint8[8, 128, 64]", "float[8, 128]"},
             "float[T, 64]"},
        Case{"qmoe_int4_weights_not_packed",
             Ms("QMoE", {"x", "router", "fc1", "s1", "", "fc2", "s2"}, {"y"},
                StrAttr("activation_type", "swiglu") + IntAttr("k", 4) +
                    IntAttr("expert_weight_bits", 4)),
             {"float16[T, 64]", "float16[T, 8]", "uint8[8, 256, 64]", "float16[8, 256]", "",
              "uint8[8, 64, 64]", "float16[8, 64]"},
             "error: input 2 'fc1': dim 2 is 64 but hidden_size (the last dim of input 0 'x') / "
             "pack_size = 64 / 2"},
        Case{"qmoe_block_scales_contradict",
             Ms("QMoE", {"x", "router", "fc1", "s1", "", "fc2", "s2"}, {"y"},
                StrAttr("activation_type", "swiglu") + IntAttr("k", 4) +
                    IntAttr("expert_weight_bits", 4) + IntAttr("block_size", 16)),
             {"float16[T, 64]", "float16[T, 8]", "uint8[8, 256, 32]", "float16[8, 256, 2]", "",
              "uint8[8, 64, 64]", "float16[8, 64, 8]"},
             "error: input 3 's1': dim 2 is 2 but ceil(hidden_size (the last dim of input 0 'x') / "
             "block_size 16) = 4"},
        Case{"qmoe_nvfp4",
             Ms("QMoE", {"x", "router", "fc1", "s1", "", "fc2", "s2"}, {"y"},
                StrAttr("activation_type", "swiglu") + IntAttr("k", 4) +
                    StrAttr("quant_type", "nvfp4")),
             {"bfloat16[T, 64]", "bfloat16[T, 8]", "uint8[8, 256, 32]", "float8e4m3fn[8, 256, 4]",
              "", "uint8[8, 64, 64]", "float8e4m3fn[8, 64, 8]"},
             "bfloat16[T, 64]"}));

// A symbolic weight dim learns its value from the attribute.
TEST(ComMicrosoftQuantFactsTest, PackedWeightBindsSymbols) {
  symbolic::Unifier unifier;
  auto run = RunRule(BuiltinSchemas(),
                     Ms("MatMulNBits", {"a", "b", "scales"}, {"y"}, NBits(256, 64, 4, 32)), 1,
                     {T("float[B, S, K]"), T("uint8[N, 8, 16]"), T("float[N, 8]")}, {}, &unifier);
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_EQ(run.Summary(), "float[B, S, 64]");
  ASSERT_EQ(run.facts.size(), 2u);
  EXPECT_NE(run.facts[0].find("K == 256"), std::string::npos) << run.facts[0];
  EXPECT_NE(run.facts[1].find("N == 64"), std::string::npos) << run.facts[1];
}

// QuantizeBFP's shape output carries x's dims as a value, symbols included.
TEST(ComMicrosoftQuantFactsTest, QuantizeBFPShapeValue) {
  auto run = RunRule(BuiltinSchemas(),
                     Ms("QuantizeBFP", {"x"}, {"y", "shape", "strides"}, IntAttr("bfp_type", 1)), 1,
                     {T("float[N, 16]")});
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  ASSERT_TRUE(run.values.size() > 1 && run.values[1].has_value());
  EXPECT_EQ(run.values[1]->ToString(), "int64[2] {N, 16}");
}

}  // namespace
}  // namespace onnx_infer
