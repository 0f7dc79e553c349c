// Robustness over the shared corpus (SHARED_DIR; skips without it): corrupted versions of
// every model must be rejected with a message or inferred, never crash. (How well inference
// does on the intact models is the conformance harness's job: //conformance.)
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"

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
