// Helpers for tests (testonly): a scratch directory per test; the shared corpus's models.
#ifndef ONNX_INFER_BASE_TEST_UTIL_H_
#define ONNX_INFER_BASE_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace onnx_infer::testing {

// A fixture whose dir_ is a fresh directory under the test temp dir, named after the test
// (`<TempDir>/<test name>-XXXXXX`, unique, so runs outside Bazel — ctest, by hand — neither
// collide nor see each other's files), removed after the test unless it failed.
class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name) {
      if (c == '/') c = '_';  // a parameterized test's "Name/0"
    }
    std::string pattern = (std::filesystem::path(::testing::TempDir()) / name).string() + "-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr) << "cannot make " << pattern;
    dir_ = pattern;
  }
  void TearDown() override {
    if (!HasFailure()) {
      std::error_code ignored;
      std::filesystem::remove_all(dir_, ignored);
    }
  }
  // Writes `bytes` to dir_/name and returns its path.
  std::string Write(const std::string& name, const std::string& bytes) const {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  std::filesystem::path dir_;
};

// Every .onnx file under $SHARED_DIR/<sub> (recursively), sorted; none when SHARED_DIR is
// not set or has no such directory (a user's checkout has no ../shared: tests skip then).
inline std::vector<std::string> SharedModels(const std::string& sub) {
  std::vector<std::string> paths;
  const char* shared = std::getenv("SHARED_DIR");
  if (!shared) return paths;
  const std::filesystem::path root = std::filesystem::path(shared) / sub;
  if (!std::filesystem::is_directory(root)) return paths;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".onnx") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace onnx_infer::testing

#endif  // ONNX_INFER_BASE_TEST_UTIL_H_
