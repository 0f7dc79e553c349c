// The golden-test runner (docs/testing.md). Every testdata/cases/**/<case>.onnxtxt is parsed,
// inferred with the built-in schemas, and its annotations and diagnostics, rendered as text,
// are compared with <case>.expected beside it. One GoogleTest case per file.
//
//   bazel test //testdata:golden_test
//   bazel run //testdata:golden_test -- --update    # rewrite the .expected files in the tree
//
// A case may ask for options in a comment line of its own: `# options: strict`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "inference/infer_shapes.h"
#include "proto/model_io.h"
#include "schema/builtin.h"
#include "schema/type_proto.h"
#include "syntax/parser.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

bool g_update = false;

// What a case's .expected file holds: the sections in this order, each only when non-empty.
//   inputs:       graph inputs as declared
//   values:       value_info after inference (node outputs in node order)
//   outputs:      graph outputs after inference
//   diagnostics:  every diagnostic, rendered, in the order found
// A text that does not parse gives the single line "parse error: <message>".
std::string Annotations(const std::string& text, const std::string& name) {
  auto model = syntax::ParseModelText(text, name);
  if (!model.ok()) return "parse error: " + model.status().message() + "\n";
  InferenceOptions options;
  options.strict = text.find("\n# options: strict") != std::string::npos ||
                   text.rfind("# options: strict", 0) == 0;
  InferenceResult result = InferShapes(*model, BuiltinSchemas(), options);
  std::ostringstream out;
  auto section = [&](const char* title, const auto& list) {
    if (list.empty()) return;
    out << title << ":\n";
    for (const auto& vi : list) {
      out << "  " << vi.name() << ": " << TypeFromProto(vi.type()).ToString() << "\n";
    }
  };
  const onnx::GraphProto& g = model->graph();
  section("inputs", g.input());
  section("values", g.value_info());
  section("outputs", g.output());
  if (!result.diagnostics.empty()) {
    out << "diagnostics:\n";
    for (const auto& d : result.diagnostics) out << "  " << d.Render("") << "\n";
  }
  return out.str();
}

class GoldenTest : public testing::Test {
 public:
  explicit GoldenTest(fs::path case_path) : case_path_(std::move(case_path)) {}

  void TestBody() override {
    auto text = ReadFile(case_path_.string());
    ASSERT_TRUE(text.ok()) << text.status().message();
    std::string name = case_path_.filename().string();
    ASSERT_EQ(text->rfind("#", 0), 0u)
        << case_path_ << ": a case starts with a comment saying what it covers";
    std::string actual = Annotations(*text, name);
    fs::path expected_path = case_path_;
    expected_path.replace_extension(".expected");
    if (g_update) {
      Status st = WriteFileAtomically(expected_path.string(), actual);
      ASSERT_TRUE(st.ok()) << st.message();
      return;
    }
    auto expected = ReadFile(expected_path.string());
    ASSERT_TRUE(expected.ok()) << expected_path
                               << " is missing; run bazel run //testdata:golden_test -- --update";
    EXPECT_EQ(actual, *expected) << case_path_ << ": the annotations differ from " << expected_path
                                 << " (regenerate with bazel run //testdata:golden_test -- "
                                    "--update, and review the diff)";
  }

 private:
  fs::path case_path_;  // in the source tree under --update, else in the runfiles
};

}  // namespace
}  // namespace onnx_infer

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--update") == 0) onnx_infer::g_update = true;
  }
  if (const char* env = std::getenv("GOLDEN_UPDATE"); env && *env && std::strcmp(env, "0") != 0) {
    onnx_infer::g_update = true;
  }
  // Under `bazel run` the cases are read from and written to the source tree; under
  // `bazel test` they are read from the runfiles.
  fs::path root;
  if (const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY"); ws && *ws) root = ws;
  if (onnx_infer::g_update && root.empty()) {
    std::cerr << "--update needs `bazel run` (BUILD_WORKSPACE_DIRECTORY is not set)\n";
    return 2;
  }
  fs::path cases = root.empty() ? fs::path("testdata/cases") : root / "testdata/cases";
  std::vector<fs::path> paths;
  if (fs::is_directory(cases)) {
    for (const auto& entry : fs::recursive_directory_iterator(cases)) {
      if (entry.is_regular_file() && entry.path().extension() == ".onnxtxt") {
        paths.push_back(entry.path());
      }
    }
  }
  std::sort(paths.begin(), paths.end());
  if (paths.empty()) {
    std::cerr << "no golden cases under " << cases << "\n";
    return 1;
  }
  for (const fs::path& path : paths) {
    std::string name = path.lexically_relative(cases).replace_extension().string();
    testing::RegisterTest("Golden", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [=]() -> testing::Test* { return new onnx_infer::GoldenTest(path); });
  }
  int status = RUN_ALL_TESTS();
  if (onnx_infer::g_update) std::cout << "updated " << paths.size() << " .expected files\n";
  return status;
}
