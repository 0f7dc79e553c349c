// Runs inference over every model of the shared corpus (SHARED_DIR; skips without it): the
// backend conformance models and the real-world models. With the graph outputs' declared
// types removed first, nothing inferred may contradict what the model declared, and nothing
// may crash. Prints how much was inferred.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "inference/infer_shapes.h"
#include "proto/model_io.h"
#include "schema/builtin.h"
#include "schema/type_proto.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Models(const std::string& sub) {
  std::vector<std::string> paths;
  const char* shared = std::getenv("SHARED_DIR");
  if (!shared) return paths;
  fs::path root = fs::path(shared) / sub;
  if (!fs::is_directory(root)) return paths;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".onnx") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

struct Totals {
  int models = 0, outputs = 0, outputs_exact = 0, wrong = 0;
  InferenceStats stats;
};

void InferCorpus(const std::string& sub, Totals& t) {
  for (const auto& path : Models(sub)) {
    auto model = LoadModel(path);
    ASSERT_TRUE(model.ok()) << model.status().message();
    std::vector<Type> declared;
    for (auto& out : *model->mutable_graph()->mutable_output()) {
      declared.push_back(TypeFromProto(out.type()));
      out.clear_type();
    }
    InferenceResult result = InferShapes(*model, BuiltinSchemas(), InferenceOptions{});
    t.models++;
    t.stats.nodes += result.stats.nodes;
    t.stats.values += result.stats.values;
    t.stats.typed += result.stats.typed;
    t.stats.shaped += result.stats.shaped;
    for (int i = 0; i < model->graph().output_size(); ++i) {
      Type inferred = TypeFromProto(model->graph().output(i).type());
      t.outputs++;
      auto merged = MergeTypes(declared[i], inferred);
      if (!merged.ok()) {
        t.wrong++;
        ADD_FAILURE() << path << ": output '" << model->graph().output(i).name()
                      << "': inferred " << inferred.ToString() << ", declared "
                      << declared[i].ToString() << " (" << merged.status().message() << ")";
      } else if (declared[i].IsComplete() && inferred == declared[i]) {
        t.outputs_exact++;
      }
    }
  }
}

TEST(CorpusTest, InfersEverySharedModelWithoutContradictingIt) {
  if (Models("conformance").empty() && Models("models/real").empty()) {
    GTEST_SKIP() << "SHARED_DIR is not set or holds no models";
  }
  for (const char* sub : {"conformance", "models/real"}) {
    Totals t;
    InferCorpus(sub, t);
    std::cout << sub << ": " << t.models << " models, " << t.stats.nodes << " nodes; "
              << t.stats.values << " values, " << t.stats.typed << " typed, " << t.stats.shaped
              << " fully shaped; graph outputs: " << t.outputs_exact << " of " << t.outputs
              << " exactly as declared, " << t.wrong << " contradicting\n";
    EXPECT_EQ(t.wrong, 0);
  }
}

// Bad input gets an error, never a crash: random byte flips and truncations of corpus models
// either fail to load with a message or infer to completion. Deterministic (fixed seed).
TEST(CorpusTest, MutatedModelsNeverCrash) {
  std::vector<std::string> paths = Models("conformance");
  for (const auto& p : Models("models/real")) paths.push_back(p);
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

}  // namespace
}  // namespace onnx_infer
