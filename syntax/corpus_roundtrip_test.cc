// parse(print(m)) equals m, and printing again gives the same text, for every model of the
// shared corpus (conformance and real models). Needs SHARED_DIR; skips without it.
#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "onnx_infer/base/test_util.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/syntax/parser.h"
#include "onnx_infer/syntax/printer.h"

namespace onnx_infer::syntax {
namespace {

namespace fs = std::filesystem;

// NaN equals NaN: a tensor's NaN (a "missing" marker in tree ensembles) prints as `nan`.
bool Equal(const onnx::ModelProto& a, const onnx::ModelProto& b, std::string* diff) {
  google::protobuf::util::DefaultFieldComparator comparator;
  comparator.set_treat_nan_as_equal(true);
  google::protobuf::util::MessageDifferencer differencer;
  differencer.set_field_comparator(&comparator);
  differencer.ReportDifferencesToString(diff);
  return differencer.Compare(a, b);
}

void RoundTripAll(const std::vector<std::string>& paths) {
  auto start = std::chrono::steady_clock::now();
  int failures = 0;
  for (const auto& path : paths) {
    auto model = LoadBinaryModel(path);
    ASSERT_TRUE(model.ok()) << model.status().message();
    std::string text = PrintModelText(*model);
    auto parsed = ParseModelText(text, path + ".onnxtxt");
    if (!parsed.ok()) {
      ADD_FAILURE() << path << ": the printed text does not parse: " << parsed.status().message();
      if (++failures > 10) return;
      continue;
    }
    std::string diff;
    if (!Equal(*model, *parsed, &diff)) {
      ADD_FAILURE() << path << ": parse(print(m)) differs from m:\n" << diff.substr(0, 2000);
      if (++failures > 10) return;
      continue;
    }
    std::string again = PrintModelText(*parsed);
    if (again != text) {
      ADD_FAILURE() << path << ": printing the parsed model gives different text";
      if (++failures > 10) return;
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "round-tripped " << paths.size() << " models through text in " << seconds << " s\n";
}

TEST(CorpusRoundTripTest, ConformanceModels) {
  auto paths = testing::SharedModels("conformance");
  if (paths.empty()) GTEST_SKIP() << "SHARED_DIR is not set or holds no conformance models";
  EXPECT_GT(paths.size(), 1900u);
  RoundTripAll(paths);
}

TEST(CorpusRoundTripTest, RealModels) {
  auto paths = testing::SharedModels("models/real");
  if (paths.empty()) GTEST_SKIP() << "SHARED_DIR is not set or holds no real models";
  EXPECT_GE(paths.size(), 50u);
  RoundTripAll(paths);
}

// What `infer-shapes MODEL --print` does: infer, then print the annotated model; the text
// must parse back to the annotated model.
TEST(CorpusRoundTripTest, AnnotatedRealModelsPrintAndParseBack) {
  auto paths = testing::SharedModels("models/real");
  if (paths.empty()) GTEST_SKIP() << "SHARED_DIR is not set or holds no real models";
  for (const auto& path : paths) {
    auto model = LoadBinaryModel(path);
    ASSERT_TRUE(model.ok()) << model.status().message();
    InferShapes(*model, BuiltinSchemas(), InferenceOptions{});
    auto parsed = ParseModelText(PrintModelText(*model), path + ".onnxtxt");
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    std::string diff;
    EXPECT_TRUE(Equal(*model, *parsed, &diff)) << path << ":\n" << diff.substr(0, 2000);
  }
}

}  // namespace
}  // namespace onnx_infer::syntax
