// The conformance gates (docs/conformance.md): no WRONG output outside known_wrong.txt (and
// that list only shrinks), exact counts never below baseline.txt, and the committed report is
// current. Needs SHARED_DIR; skips without it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/conformance/report.h"
#include "onnx_infer/schema/builtin.h"

namespace onnx_infer::conformance {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Non-comment lines; for known_wrong.txt the part before " #" (the reason).
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (auto hash = line.find(" #"); hash != std::string::npos) line.resize(hash);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

class ConformanceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* shared = std::getenv("SHARED_DIR");
    if (!shared) return;
    results_ = new Results(RunAll(shared, BuiltinSchemas()));
  }
  void SetUp() override {
    if (!results_ || results_->by_mode[0].empty()) {
      GTEST_SKIP() << "SHARED_DIR is not set or holds no conformance cases";
    }
  }
  static Results* results_;
};
Results* ConformanceTest::results_ = nullptr;

TEST_F(ConformanceTest, NoWrongOutputsBeyondTheKnownOnes) {
  std::set<std::string> known;
  for (const auto& l : Lines(ReadFile("conformance/known_wrong.txt"))) known.insert(l);
  const std::set<std::string> wrong = WrongOutputs(*results_);
  for (const auto& w : wrong) {
    EXPECT_TRUE(known.count(w)) << "WRONG: " << w << " (see docs/conformance.md after "
                                << "`bazel run //conformance:report -- --write`)";
  }
  for (const auto& k : known) {
    EXPECT_TRUE(wrong.count(k)) << "no longer WRONG, remove it from known_wrong.txt: " << k;
  }
}

TEST_F(ConformanceTest, ExactCountsNeverDrop) {
  const std::string baseline = ReadFile("conformance/baseline.txt");
  for (const auto& line : Lines(baseline)) {
    std::istringstream in(line);
    std::string mode;
    int expected = 0;
    in >> mode >> expected;
    int m = -1;
    for (Mode known : kModes) {
      if (ModeName(known) == mode) m = static_cast<int>(known);
    }
    ASSERT_GE(m, 0) << "baseline.txt names an unknown mode: " << mode;
    const int exact = CountCases(results_->by_mode[m], "")[static_cast<int>(Grade::kExact)];
    std::cout << mode << ": " << exact << " exact (baseline " << expected << ")\n";
    EXPECT_GE(exact, expected) << mode << " mode lost exact cases";
  }
  for (int m = 0; m < kNumModes; ++m) {
    GradeCounts node = CountCases(results_->by_mode[m], "node");
    std::cout << "node suite, " << ModeName(static_cast<Mode>(m)) << ": exact " << node[0]
              << ", symbolic " << node[1] << ", rank-only " << node[2] << ", type-only " << node[3]
              << ", none " << node[4] << ", WRONG " << node[5] << "\n";
  }
}

TEST_F(ConformanceTest, CommittedReportIsCurrent) {
  EXPECT_TRUE(GeneratedPart(ReadFile("docs/conformance.md")) == RenderReport(*results_))
      << "docs/conformance.md is stale: run `bazel run //conformance:report -- --write`";
  EXPECT_TRUE(ReadFile("conformance/baseline.txt") == RenderBaseline(*results_))
      << "conformance/baseline.txt is stale: run `bazel run //conformance:report -- --write`";
}

}  // namespace
}  // namespace onnx_infer::conformance
