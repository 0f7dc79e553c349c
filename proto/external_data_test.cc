// The external data reader against hostile references: each test builds a model directory
// and, beside it, a directory the model must not reach. File-system tests run twice: with
// openat2 and with the fallback used on kernels without it.
#include "onnx_infer/proto/external_data.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "onnx_infer/base/test_util.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The bytes of data.bin: a 4-byte header, then two little-endian int32 (7, -1), then 4 more.
const std::string kData =
    std::string("HEAD") + std::string("\x07\0\0\0\xff\xff\xff\xff", 8) + std::string("TAIL");

onnx::TensorProto Tensor(std::vector<std::pair<std::string, std::string>> entries) {
  onnx::TensorProto t;
  t.set_name("w");
  t.set_data_type(onnx::TensorProto::INT32);
  t.add_dims(2);
  t.set_data_location(onnx::TensorProto::EXTERNAL);
  for (auto& [key, value] : entries) {
    auto* e = t.add_external_data();
    e->set_key(key);
    e->set_value(value);
  }
  return t;
}

class ExternalDataTest : public testing::ScratchDirTest,
                         public ::testing::WithParamInterface<bool> {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    root_ = dir_;
    model_dir_ = root_ / "model";
    outside_ = root_ / "outside";
    fs::create_directories(model_dir_ / "sub");
    fs::create_directories(outside_);
    Write(model_dir_ / "data.bin", kData);
    Write(model_dir_ / "sub" / "inner.bin", kData);
    Write(outside_ / "secret.bin", kData);
  }

  static void Write(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
  }

  StatusOr<ExternalData> Read(const onnx::TensorProto& t, int64_t expected_bytes = 8,
                              int64_t max_bytes = 1024) {
    ExternalDataOptions options;
    options.max_bytes = max_bytes;
    options.use_openat2 = GetParam();
    return ReadExternalData(t, model_dir_.string(), expected_bytes, options);
  }

  // The read fails, and the message names the tensor and contains `reason`.
  void ExpectRefused(const onnx::TensorProto& t, const std::string& reason,
                     int64_t expected_bytes = 8) {
    auto r = Read(t, expected_bytes);
    ASSERT_FALSE(r.ok()) << "read " << r->bytes.size() << " bytes";
    EXPECT_THAT(r.status().message(), HasSubstr("tensor 'w'"));
    EXPECT_THAT(r.status().message(), HasSubstr(reason));
  }

  fs::path root_, model_dir_, outside_;
};

INSTANTIATE_TEST_SUITE_P(OpenStrategies, ExternalDataTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "openat2" : "fallback"; });

TEST_P(ExternalDataTest, ReadsTheBytesAtAnOffset) {
  auto r = Read(Tensor({{"location", "data.bin"}, {"offset", "4"}, {"length", "8"}}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->bytes, kData.substr(4, 8));
  EXPECT_TRUE(r->ignored_keys.empty());
}

TEST_P(ExternalDataTest, WithoutLengthReadsToTheEndOfTheFile) {
  auto r = Read(Tensor({{"location", "data.bin"}, {"offset", "8"}}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->bytes, kData.substr(8));
}

TEST_P(ExternalDataTest, ReadsFromASubdirectory) {
  // Empty and "." components are dropped, the same way for both open strategies.
  for (std::string location : {"sub/inner.bin", "./sub//inner.bin", "sub/inner.bin/"}) {
    auto r = Read(Tensor({{"location", location}, {"offset", "4"}, {"length", "8"}}));
    ASSERT_TRUE(r.ok()) << location << ": " << r.status().message();
    EXPECT_EQ(r->bytes, kData.substr(4, 8));
  }
}

TEST_P(ExternalDataTest, ChecksumAndBasepathAreAcceptedButBasepathIsNotADirectory) {
  auto r = Read(Tensor({{"location", "secret.bin"},
                        {"basepath", outside_.string()},
                        {"checksum", "0123"},
                        {"offset", "4"},
                        {"length", "8"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("does not exist"));
  r = Read(Tensor({{"location", "data.bin"},
                   {"basepath", "/etc"},
                   {"checksum", "0123"},
                   {"offset", "4"},
                   {"length", "8"}}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->ignored_keys.empty());
}

TEST_P(ExternalDataTest, UnknownKeysAreIgnoredAndReported) {
  auto r = Read(Tensor({{"location", "data.bin"},
                        {"evil_attr", "1"},
                        {"offset", "4"},
                        {"__class__", "x"},
                        {"length", "8"}}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->bytes, kData.substr(4, 8));
  EXPECT_EQ(r->ignored_keys, (std::vector<std::string>{"evil_attr", "__class__"}));
}

TEST_P(ExternalDataTest, RefusesAnAbsolutePath) {
  ExpectRefused(
      Tensor({{"location", (outside_ / "secret.bin").string()}, {"offset", "4"}, {"length", "8"}}),
      "absolute path");
  ExpectRefused(
      Tensor({{"location", (model_dir_ / "data.bin").string()}, {"offset", "4"}, {"length", "8"}}),
      "absolute path");
}

TEST_P(ExternalDataTest, RefusesDotDotTraversal) {
  for (std::string location :
       {"../outside/secret.bin", "sub/../../outside/secret.bin", "sub/../data.bin", ".."}) {
    SCOPED_TRACE(location);
    ExpectRefused(Tensor({{"location", location}, {"offset", "4"}, {"length", "8"}}), "'..'");
  }
}

TEST_P(ExternalDataTest, RefusesAFinalSymlink) {
  fs::create_symlink(outside_ / "secret.bin", model_dir_ / "link.bin");
  ExpectRefused(Tensor({{"location", "link.bin"}, {"offset", "4"}, {"length", "8"}}),
                "the file is a symbolic link");
  // Even one that stays inside the directory.
  fs::create_symlink("data.bin", model_dir_ / "alias.bin");
  ExpectRefused(Tensor({{"location", "alias.bin"}, {"offset", "4"}, {"length", "8"}}),
                "the file is a symbolic link");
}

TEST_P(ExternalDataTest, RefusesASymlinkInAParentDirectory) {
  fs::create_directory_symlink(outside_, model_dir_ / "escape");
  ExpectRefused(Tensor({{"location", "escape/secret.bin"}, {"offset", "4"}, {"length", "8"}}),
                "'escape' is a symbolic link");
  fs::create_directory_symlink("sub", model_dir_ / "inside");
  ExpectRefused(Tensor({{"location", "inside/inner.bin"}, {"offset", "4"}, {"length", "8"}}),
                "'inside' is a symbolic link");
}

TEST_P(ExternalDataTest, RefusesAHardlinkedFile) {
  fs::create_hard_link(outside_ / "secret.bin", model_dir_ / "hard.bin");
  ExpectRefused(Tensor({{"location", "hard.bin"}, {"offset", "4"}, {"length", "8"}}),
                "2 hard links");
}

TEST_P(ExternalDataTest, RefusesAMissingFileOrDirectory) {
  ExpectRefused(Tensor({{"location", "absent.bin"}, {"offset", "4"}, {"length", "8"}}),
                "the file does not exist");
  ExpectRefused(Tensor({{"location", "nodir/absent.bin"}, {"offset", "4"}, {"length", "8"}}),
                "the directory 'nodir' does not exist");
  ExpectRefused(Tensor({{"location", "data.bin/x"}, {"offset", "4"}, {"length", "8"}}),
                "'data.bin' is not a directory");
}

TEST_P(ExternalDataTest, RefusesWhatIsNotARegularFile) {
  ExpectRefused(Tensor({{"location", "sub"}, {"length", "8"}}), "not a regular file");
  ASSERT_EQ(::mkfifo((model_dir_ / "fifo").c_str(), 0600), 0);
  ExpectRefused(Tensor({{"location", "fifo"}, {"length", "8"}}), "not a regular file");
}

TEST_P(ExternalDataTest, RefusesAnOffsetBeyondTheFile) {
  ExpectRefused(Tensor({{"location", "data.bin"}, {"offset", "100"}, {"length", "8"}}),
                "offset 100 is beyond the end of the file (16 bytes)");
}

TEST_P(ExternalDataTest, RefusesALengthBeyondTheFile) {
  ExpectRefused(Tensor({{"location", "data.bin"}, {"offset", "12"}, {"length", "8"}}),
                "offset 12 + length 8 goes beyond the end of the file (16 bytes)");
  // Near the int64 limit, where offset + length would overflow.
  const int64_t huge = std::numeric_limits<int64_t>::max();
  auto r =
      Read(Tensor({{"location", "data.bin"}, {"offset", "4"}, {"length", std::to_string(huge)}}),
           /*expected_bytes=*/huge, /*max_bytes=*/huge);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("goes beyond the end of the file"));
}

TEST_P(ExternalDataTest, RefusesALengthOtherThanTheTensorsSize) {
  ExpectRefused(Tensor({{"location", "data.bin"}, {"offset", "4"}, {"length", "4"}}),
                "length 4 does not match the tensor's size of 8 bytes");
  // Without a length, the rest of the file must be the tensor.
  ExpectRefused(Tensor({{"location", "data.bin"}, {"offset", "4"}}),
                "the 12 bytes from offset 4 to the end of the file do not match the tensor's "
                "size of 8 bytes");
}

TEST_P(ExternalDataTest, NeverReadsMoreThanTheCap) {
  // A reference to a file that does not exist: the cap is checked before the file is looked
  // for.
  auto r = Read(Tensor({{"location", "absent.bin"}, {"length", "4096"}}), /*expected_bytes=*/4096,
                /*max_bytes=*/1024);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("4096 bytes are more than the limit of 1024"));
}

TEST_P(ExternalDataTest, RefusesAMissingModelDirectory) {
  ExternalDataOptions options;
  options.max_bytes = 1024;
  options.use_openat2 = GetParam();
  auto t = Tensor({{"location", "data.bin"}, {"offset", "4"}, {"length", "8"}});
  auto r = ReadExternalData(t, (root_ / "nowhere").string(), 8, options);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("cannot be resolved"));
  r = ReadExternalData(t, "", 8, options);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("no model directory"));
}

// The entries alone, without the file system.

struct BadEntry {
  std::string key, value, reason;
};

class BadEntryTest : public ::testing::TestWithParam<BadEntry> {};

TEST_P(BadEntryTest, IsRefusedBeforeAnyFileIsTouched) {
  const BadEntry& bad = GetParam();
  std::vector<std::pair<std::string, std::string>> entries = {{"offset", "0"}, {"length", "8"}};
  if (bad.key != "location") entries.insert(entries.begin(), {"location", "data.bin"});
  for (auto& [key, value] : entries) {
    if (key == bad.key) value = bad.value;
  }
  if (bad.key == "location" || (bad.key != "offset" && bad.key != "length")) {
    entries.emplace_back(bad.key, bad.value);
  }
  auto r = ParseExternalDataRef(Tensor(entries));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("tensor 'w'"));
  EXPECT_THAT(r.status().message(), HasSubstr(bad.reason));
}

INSTANTIATE_TEST_SUITE_P(
    Entries, BadEntryTest,
    ::testing::Values(BadEntry{"offset", "-1", "offset '-1' is not a non-negative decimal integer"},
                      BadEntry{"length", "-1", "length '-1' is not a non-negative decimal integer"},
                      BadEntry{"offset", "abc", "offset 'abc' is not"},
                      BadEntry{"length", "eight", "length 'eight' is not"},
                      BadEntry{"offset", "", "offset '' is not"},
                      BadEntry{"offset", " 4", "offset ' 4' is not"},
                      BadEntry{"offset", "+4", "offset '+4' is not"},
                      BadEntry{"length", "0x8", "length '0x8' is not"},
                      BadEntry{"length", "1e3", "length '1e3' is not"},
                      BadEntry{"offset", "99999999999999999999", "fits in 64 bits"},
                      BadEntry{"location", "", "the location is empty"},
                      BadEntry{"location", std::string("data.bin\0../x", 13), "NUL byte"},
                      BadEntry{"location", "/etc/passwd", "absolute path"},
                      BadEntry{"location", "a/../../b", "'..'"},
                      BadEntry{"location", "./", "names the model's directory"}));

TEST(ExternalDataRefTest, ParsesTheRecognizedKeys) {
  auto r = ParseExternalDataRef(Tensor({{"location", "w.bin"}, {"offset", "0"}, {"length", "8"}}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->location, "w.bin");
  EXPECT_EQ(r->offset, 0);
  EXPECT_EQ(r->length, 8);
  r = ParseExternalDataRef(Tensor({{"location", "w.bin"}}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->offset, 0);
  EXPECT_FALSE(r->length.has_value());
}

TEST(ExternalDataRefTest, RefusesAMissingOrRepeatedKey) {
  auto r = ParseExternalDataRef(Tensor({{"offset", "0"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("no 'location' key"));
  r = ParseExternalDataRef(Tensor({{"location", "a.bin"}, {"location", "/etc/passwd"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("'location' is given more than once"));
  r = ParseExternalDataRef(Tensor({{"location", "a.bin"}, {"length", "8"}, {"length", "9"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("'length' is given more than once"));
}

TEST(ExternalDataRefTest, ControlCharactersAreEscapedInMessages) {
  auto r = ParseExternalDataRef(Tensor({{"location", "/\x1b[2Jx"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("'/\\x1b[2Jx'"));
}

}  // namespace
}  // namespace onnx_infer
