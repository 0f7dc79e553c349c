// Robustness over the shared corpus (SHARED_DIR; skips without it): corrupted versions of
// every model must be rejected with a message or inferred, never crash. (How well inference
// does on the intact models is the conformance harness's job: //conformance.) And the shared
// LLM decoders' KV caches: the lengths onnxruntime allocates, as relations between symbols.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "onnx_infer/base/test_util.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/type.h"
#include "onnx_infer/symbolic/context.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

// Bad input gets an error, never a crash: random byte flips and truncations of corpus models
// either fail to load with a message or infer to completion. Deterministic (fixed seed).
TEST(CorpusTest, MutatedModelsNeverCrash) {
  std::vector<std::string> paths = testing::SharedModels("conformance");
  for (const auto& p : testing::SharedModels("models/real")) paths.push_back(p);
  if (paths.empty()) GTEST_SKIP() << "SHARED_DIR is not set or holds no models";
  std::mt19937 rng(20261123);
  int loaded = 0, rejected = 0;
  for (size_t i = 0; i < paths.size(); i += 3) {
    std::ifstream file(paths[i], std::ios::binary);
    const std::string original((std::istreambuf_iterator<char>(file)), {});
    for (int round = 0; round < 3 && !original.empty(); ++round) {
      std::string bytes = original;
      const int flips = 1 + static_cast<int>(rng() % 8);
      for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<char>(rng());
      if (rng() % 5 == 0) bytes.resize(rng() % bytes.size());
      auto model = ParseModel(bytes, paths[i]);
      if (!model.ok()) {
        EXPECT_FALSE(model.status().message().empty());
        ++rejected;
        continue;
      }
      InferShapes(*model, BuiltinSchemas(), InferenceOptions{});
      ++loaded;
    }
  }
  std::cout << "mutated models: " << loaded << " inferred, " << rejected << " rejected\n";
  EXPECT_GT(loaded + rejected, 1000);
}

// One shared real model, inferred with every declared type of its values and graph outputs
// removed, so that only inference speaks. `context` holds the run's dims.
std::optional<InferenceResult> InferStripped(const std::string& name,
                                             std::shared_ptr<symbolic::SymbolContext> context) {
  const char* shared = std::getenv("SHARED_DIR");
  if (!shared) return std::nullopt;
  const fs::path path = fs::path(shared) / "models" / "real" / name;
  if (!fs::exists(path)) return std::nullopt;
  auto model = LoadBinaryModel(path.string());
  EXPECT_TRUE(model.ok()) << name;
  if (!model.ok()) return std::nullopt;
  std::vector<onnx::GraphProto*> graphs = {model->mutable_graph()};
  while (!graphs.empty()) {
    onnx::GraphProto* g = graphs.back();
    graphs.pop_back();
    g->clear_value_info();
    for (auto& out : *g->mutable_output()) out.clear_type();
    for (auto& node : *g->mutable_node()) {
      for (auto& attr : *node.mutable_attribute()) {
        if (attr.has_g()) graphs.push_back(attr.mutable_g());
        for (auto& sub : *attr.mutable_graphs()) graphs.push_back(&sub);
      }
    }
  }
  InferenceOptions options;
  options.symbol_context = std::move(context);
  return InferShapes(*model, BuiltinSchemas(), options);
}

std::string TypeOf(const InferenceResult& r, const char* graph, const std::string& value) {
  const Type* t = r.TypeOf(graph, value);
  return t ? t->ToString() : "(no such value)";
}

// The shared decoders' KV caches, as onnxruntime allocates them (docs/contrib-ops.md, "KV
// cache"). Inferred without the models' own declarations.
TEST(CorpusTest, DecoderKvCachesAreWhatTheRuntimeAllocates) {
  auto context = std::make_shared<symbolic::SymbolContext>();
  int checked = 0;

  // GroupQueryAttention (onnxruntime-genai): total_sequence_length is Cast(Shape(mask)[1]), so
  // the driver knows it is total_seq_len; present = max(total, past buffer).
  if (auto r = InferStripped("genai_tiny_qwen35_decoder.onnx", context)) {
    for (const char* v : {"present.0.key", "present.0.value", "present.1.key", "present.1.value"}) {
      EXPECT_EQ(TypeOf(*r, "main", v),
                "float16[batch_size, 2, Max(past_seq_len, total_seq_len), 16]")
          << v;
    }
    EXPECT_EQ(TypeOf(*r, "main", "l0.attn"), "float16[batch_size, seq_len, 64]");
    ++checked;
  }

  // GroupQueryAttention with total_sequence_length a graph input of unknown value: max(total,
  // 5) is not known, and the rule does not guess past + new (a shared buffer would be 5).
  if (auto r = InferStripped("tract_gqa_decode_rope.onnx", context)) {
    EXPECT_EQ(TypeOf(*r, "main", "output"), "float[1, 1, 64]");
    EXPECT_EQ(TypeOf(*r, "main", "present_key"), "float[1, 2, ?, 16]");
    EXPECT_EQ(TypeOf(*r, "main", "present_value"), "float[1, 2, ?, 16]");
    ++checked;
  }

  // GPT-2's Attention layers: present [2, batch, 4, past + S, 8] with S the layer input's
  // sequence dim (as far as the rules before it know it).
  for (const char* name :
       {"genai_tiny_random_gpt2_fp32_past.onnx", "genai_tiny_random_gpt2_fp16_past.onnx"}) {
    auto model = InferStripped(name, context);
    if (!model) continue;
    const InferenceResult& r = *model;
    auto reloaded =
        LoadBinaryModel((fs::path(std::getenv("SHARED_DIR")) / "models" / "real" / name).string());
    ASSERT_TRUE(reloaded.ok());
    symbolic::SymbolContext::Scope scope(*context);
    int layers = 0;
    for (const auto& node : reloaded->graph().node()) {
      if (node.op_type() != "Attention" || node.domain() != "com.microsoft") continue;
      const Type* in = r.TypeOf("main", node.input(0));
      const Type* past = r.TypeOf("main", node.input(4));
      ASSERT_TRUE(in && past && past->has_shape()) << node.name();
      const Shape& p = past->shape();
      ASSERT_EQ(p.size(), 5u);
      EXPECT_EQ(p[3].ToString(), "past_seq_len");
      // The input's sequence dim is unknown until the layer norms before it have rules.
      const Dim seq = in->has_shape() && in->shape().size() == 3 ? in->shape()[1] : Dim();
      const Type expected =
          Type::Tensor(past->elem_type(), Shape{p[0], p[1], p[2], p[3] + seq, p[4]});
      EXPECT_EQ(TypeOf(r, "main", node.output(1)), expected.ToString())
          << name << " " << node.name();
      const std::string output_prefix = DataTypeName(past->elem_type()) + "[batch_size, ";
      EXPECT_EQ(TypeOf(r, "main", node.output(0)).rfind(output_prefix, 0), 0u) << node.name();
      ++layers;
    }
    EXPECT_EQ(layers, 5) << name;
    ++checked;
  }

  // MultiHeadAttention in a Loop body over data-dependent slices: [batch, ?, value's hidden].
  if (auto r = InferStripped("onnxdiag_attention_loopmha.onnx", context)) {
    EXPECT_EQ(TypeOf(*r, "main/Loop_19.body", "mha_output"),
              "float[unsqueeze_4_d0, ?, unsqueeze_6_d1*unsqueeze_6_d3]");
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "SHARED_DIR is not set or holds none of the LLM decoders";
  EXPECT_EQ(checked, 5);
}

}  // namespace
}  // namespace onnx_infer
