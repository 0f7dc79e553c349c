// Helpers for tests (testonly): a scratch directory per test.
#ifndef ONNX_INFER_BASE_TEST_UTIL_H_
#define ONNX_INFER_BASE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace onnx_infer::testing {

// A fixture whose dir_ is <test temp dir>/<test name>, made empty before each test.
class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
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
