// Helpers for tests (testonly): a scratch directory per test.
#ifndef ONNX_INFER_BASE_TEST_UTIL_H_
#define ONNX_INFER_BASE_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <fstream>
#include <string>

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

}  // namespace onnx_infer::testing

#endif  // ONNX_INFER_BASE_TEST_UTIL_H_
