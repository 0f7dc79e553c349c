#include "onnx_infer/proto/model_io.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "onnx_infer/base/test_util.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

class ModelIoTest : public testing::ScratchDirTest {
 protected:
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static onnx::ModelProto SmallModel() {
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(17);
    auto* node = m.mutable_graph()->add_node();
    node->set_op_type("Relu");
    node->add_input("x");
    node->add_output("y");
    return m;
  }
};

TEST_F(ModelIoTest, RoundTripsAModel) {
  onnx::ModelProto m = SmallModel();
  std::string path = (dir_ / "m.onnx").string();
  ASSERT_TRUE(SaveModel(m, path).ok());
  auto loaded = LoadBinaryModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->SerializeAsString(), m.SerializeAsString());
  // No temporary file is left behind.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

// SaveModel serializes straight into the file through a small buffer: a model many times
// its size comes back byte for byte, and reads back whole.
TEST_F(ModelIoTest, RoundTripsAModelLargerThanTheWriteBuffer) {
  onnx::ModelProto m = SmallModel();
  for (int i = 0; i < 20000; ++i) {
    auto* node = m.mutable_graph()->add_node();
    node->set_op_type("Relu");
    node->add_input(i == 0 ? "x" : "/layers." + std::to_string(i - 1) + "/act/Relu_output_0");
    node->add_output("/layers." + std::to_string(i) + "/act/Relu_output_0");
  }
  const std::string path = (dir_ / "large.onnx").string();
  ASSERT_TRUE(SaveModel(m, path).ok());
  EXPECT_GT(fs::file_size(path), 1u << 20);
  auto loaded = LoadBinaryModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->SerializeAsString(), m.SerializeAsString());
}

// A regular file is parsed straight from the file, through a buffer smaller than the model:
// a large model (with a tensor spanning many buffers) comes back byte for byte.
TEST_F(ModelIoTest, ParsesALargeModelFromTheFile) {
  onnx::ModelProto m = SmallModel();
  auto* weight = m.mutable_graph()->add_initializer();
  weight->set_name("w");
  weight->set_data_type(1);
  weight->add_dims(1 << 18);
  std::string raw(std::size_t{1} << 20, '\0');
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<char>(i * 7);
  weight->set_raw_data(raw);
  for (int i = 0; i < 5000; ++i) m.mutable_graph()->add_node()->set_op_type("Relu");
  const std::string path = (dir_ / "large.onnx").string();
  ASSERT_TRUE(SaveModel(m, path).ok());
  std::optional<onnx::ModelProto> parsed = TryParseModelFromFile(path);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->SerializeAsString(), m.SerializeAsString());
}

// What cannot be parsed from the file is left to the buffered read, whose errors say why.
TEST_F(ModelIoTest, WhatIsNotABinaryModelInARegularFileIsLeftToTheBufferedRead) {
  EXPECT_FALSE(TryParseModelFromFile((dir_ / "nope.onnx").string()));
  EXPECT_FALSE(TryParseModelFromFile(dir_.string()));
  EXPECT_FALSE(TryParseModelFromFile(Write("empty.onnx", "")));
  EXPECT_FALSE(TryParseModelFromFile(Write("hello.onnx", "hello\n")));  // parses; no graph
  std::string bytes = SmallModel().SerializeAsString();
  EXPECT_FALSE(TryParseModelFromFile(Write("cut.onnx", bytes.substr(0, bytes.size() - 3))));
  EXPECT_TRUE(TryParseModelFromFile(Write("m.onnx", bytes)));
  std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(TryParseModelFromFile(fifo));  // left to ReadFile, unopened
  const std::string huge = (dir_ / "huge.onnx").string();
  { std::ofstream f(huge); }
  fs::resize_file(huge, (uint64_t{3} << 30));  // sparse; refused by its size, unread
  EXPECT_FALSE(TryParseModelFromFile(huge));
}

// The arena overload parses the same files, into a message the arena owns, and refuses the same.
TEST_F(ModelIoTest, ParsesOntoAnArena) {
  google::protobuf::Arena arena;
  std::string bytes = SmallModel().SerializeAsString();
  onnx::ModelProto* parsed = TryParseModelFromFile(Write("m.onnx", bytes), &arena);
  ASSERT_NE(parsed, nullptr);
  EXPECT_EQ(parsed->GetArena(), &arena);
  EXPECT_EQ(parsed->SerializeAsString(), bytes);
  EXPECT_EQ(TryParseModelFromFile((dir_ / "nope.onnx").string(), &arena), nullptr);
  EXPECT_EQ(TryParseModelFromFile(Write("hello.onnx", "hello\n"), &arena), nullptr);
  EXPECT_EQ(TryParseModelFromFile(Write("cut.onnx", bytes.substr(0, bytes.size() - 3)), &arena),
            nullptr);
}

TEST_F(ModelIoTest, AFailedWriteSaysWhy) {
  struct stat st;
  if (::stat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode)) GTEST_SKIP() << "no /dev/full";
  Status s = SaveModel(SmallModel(), "/dev/full");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "/dev/full: cannot write (write): No space left on device");
}

TEST_F(ModelIoTest, MissingFile) {
  auto r = LoadBinaryModel((dir_ / "nope.onnx").string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot open: No such file or directory"), std::string::npos)
      << r.status().message();
}

TEST_F(ModelIoTest, Directory) {
  auto r = LoadBinaryModel(dir_.string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is a directory"), std::string::npos);
}

TEST_F(ModelIoTest, EmptyFile) {
  auto r = LoadBinaryModel(Write("empty.onnx", ""));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("the file is empty"), std::string::npos);
}

TEST_F(ModelIoTest, TruncatedModel) {
  std::string bytes = SmallModel().SerializeAsString();
  auto r = LoadBinaryModel(Write("cut.onnx", bytes.substr(0, bytes.size() - 3)));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a valid ONNX model"), std::string::npos)
      << r.status().message();
}

TEST_F(ModelIoTest, GarbageBytes) {
  auto r =
      LoadBinaryModel(Write("garbage.onnx", std::string("\xff\xff\xff\xff\xff\xff\x0f\x01", 8)));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a valid ONNX model"), std::string::npos);
}

TEST_F(ModelIoTest, TextThatParsesButIsNoModel) {
  // "hello\n" happens to be valid protobuf wire data; it is still not a model.
  auto r = LoadBinaryModel(Write("hello.onnx", "hello\n"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not"), std::string::npos) << r.status().message();
}

TEST_F(ModelIoTest, DeeplyNestedGraphsAreRefusedNotACrash) {
  // A chain of If nodes each holding the next as a subgraph, deeper than the parse limit.
  onnx::ModelProto m = SmallModel();
  onnx::GraphProto* g = m.mutable_graph();
  for (int i = 0; i < 1000; ++i) {
    auto* attr = g->add_node()->add_attribute();
    attr->set_name("then_branch");
    g = attr->mutable_g();
  }
  std::string bytes;
  ASSERT_TRUE(m.SerializeToString(&bytes));
  auto r = ParseModel(bytes, "deep.onnx");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("nested too deeply"), std::string::npos);
  // The same limit when parsed from the file.
  const std::string path = Write("deep.onnx", bytes);
  EXPECT_FALSE(TryParseModelFromFile(path));
  EXPECT_EQ(LoadBinaryModel(path).status().message(), path + r.status().message().substr(9));
}

TEST_F(ModelIoTest, ADirectoryTargetIsRefusedUntouched) {
  fs::create_directories(dir_ / "target.onnx");
  std::string inside = Write("target.onnx/keep", "original");
  Status st = SaveModel(SmallModel(), (dir_ / "target.onnx").string());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("is a directory; not written"), std::string::npos) << st.message();
  EXPECT_EQ(Read(inside), "original");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(ModelIoTest, AFailedCommitLeavesNoTemporaryFile) {
  // A non-empty directory takes the target's name after Open: the final rename fails after
  // the data was written, and the temporary file goes with the error.
  const fs::path target = dir_ / "m.onnx";
  auto out = OutputFile::Open(target.string());
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_TRUE(out->Write("data").ok());
  fs::create_directories(target / "keep");
  Status st = out->Commit();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cannot write (rename)"), std::string::npos) << st.message();
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(ModelIoTest, WhileWritingTheTemporaryFileHasNoNameOrAClearOne) {
  // What a run killed mid-write leaves: nothing with O_TMPFILE; else one clearly named file.
  auto out = OutputFile::Open((dir_ / "m.onnx").string());
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_TRUE(out->Write("partial").ok());
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().rfind(".infer-shapes-tmp.", 0), 0u) << e.path();
  }
  if (fs::directory_iterator(dir_) == fs::directory_iterator()) {
    std::printf("O_TMPFILE in use: nothing is named until the commit\n");
  }
}

TEST_F(ModelIoTest, AnAbandonedWriteLeavesNothing) {
  {
    auto out = OutputFile::Open((dir_ / "m.onnx").string());
    ASSERT_TRUE(out.ok()) << out.status().message();
    ASSERT_TRUE(out->Write("partial").ok());
  }
  EXPECT_EQ(fs::directory_iterator(dir_), fs::directory_iterator());
}

TEST_F(ModelIoTest, ReadOnlyTargetIsRefused) {
  std::string path = Write("ro.onnx", "old");
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  Status st = SaveModel(SmallModel(), path);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("the file is read-only; not replaced"), std::string::npos)
      << st.message();
  EXPECT_EQ(Read(path), "old");
}

TEST_F(ModelIoTest, CharacterDeviceIsWrittenDirectlyNeverReplaced) {
  struct stat before;
  ASSERT_EQ(::stat("/dev/null", &before), 0);
  if (!S_ISCHR(before.st_mode)) GTEST_SKIP() << "this machine's /dev/null is not a device";
  ASSERT_TRUE(SaveModel(SmallModel(), "/dev/null").ok());
  struct stat after;
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));
  EXPECT_EQ(after.st_ino, before.st_ino);
}

TEST_F(ModelIoTest, FifoWithoutReaderIsRefusedNotWaitedOn) {
  std::string path = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  Status st = SaveModel(SmallModel(), path);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("is a FIFO with no reader"), std::string::npos) << st.message();
  struct stat after;
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_TRUE(S_ISFIFO(after.st_mode));
}

TEST_F(ModelIoTest, TemporaryNameDoesNotLengthenTheTarget) {
  // A 250-character name is valid (NAME_MAX is 255); the write must not fail for it.
  std::string path = (dir_ / (std::string(245, 'm') + ".onnx")).string();
  Status st = SaveModel(SmallModel(), path);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(ModelIoTest, SymbolicLinkTargetKeepsTheLink) {
  std::string real = Write("real.onnx", "old");
  fs::create_symlink("real.onnx", dir_ / "link.onnx");
  ASSERT_TRUE(SaveModel(SmallModel(), (dir_ / "link.onnx").string()).ok());
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.onnx"));
  EXPECT_NE(Read(real), "old");
}

TEST_F(ModelIoTest, HugeRegularFileIsRefusedByItsSizeUnread) {
  std::string path = (dir_ / "huge.onnx").string();
  { std::ofstream f(path); }
  fs::resize_file(path, (uint64_t{3} << 30));  // sparse: no disk used
  auto r = LoadBinaryModel(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("the file is 3221225472 bytes, over the limit of "
                                      "2147483647 bytes"),
            std::string::npos)
      << r.status().message();
}

TEST_F(ModelIoTest, DevicesAreRefusedUnread) {
  auto r = ReadFile("/dev/zero");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/dev/zero: is a character device, not a file"),
            std::string::npos)
      << r.status().message();
}

TEST_F(ModelIoTest, FifoWithoutWriterReadsAsNothingWithoutBlocking) {
  std::string path = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto r = ReadFile(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("read nothing: a FIFO or pipe without a writer"),
            std::string::npos)
      << r.status().message();
}

TEST_F(ModelIoTest, StreamHeadCheckStopsEarlyAndTheLimitHolds) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], std::string(5000, 'x').data(), 5000), 5000);
  ::close(fds[1]);
  ReadLimits limits;
  limits.max_bytes = 100;
  limits.max_text = "a test limit";
  int head_calls = 0;
  limits.check_head = [&](std::string_view head) {
    ++head_calls;
    EXPECT_EQ(head.size(), 4096u);
    return OkStatus();
  };
  auto r = ReadDescriptor(fds[0], "pipe", limits);
  ::close(fds[0]);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(head_calls, 1);
  EXPECT_NE(r.status().message().find("more than 100 bytes, over the limit of 100 bytes (a test "
                                      "limit); reading stopped there"),
            std::string::npos)
      << r.status().message();
}

// A stream over the limit is refused as it passes it, not read to its end: the writer, which
// would go on for 256 MiB, has written little more than the limit (plus what the pipe holds)
// when the read stops. (The limit is lowered from 2 GiB to 1 MiB for the test.)
TEST_F(ModelIoTest, StreamOverTheLimitIsRefusedWithoutReadingItAll) {
  std::signal(SIGPIPE, SIG_IGN);  // the writer sees EPIPE once the reader is gone
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  constexpr size_t kLimit = 1 << 20;
  std::atomic<size_t> written{0};
  std::thread writer([&] {
    const std::string block(1 << 16, '\x08');
    while (written < (size_t{256} << 20)) {
      ssize_t n = ::write(fds[1], block.data(), block.size());
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  ReadLimits limits;
  limits.max_bytes = kLimit;
  limits.max_text = "a test limit";
  auto r = ReadDescriptor(fds[0], "pipe", limits);
  ::close(fds[0]);
  writer.join();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("more than 1048576 bytes, over the limit of 1048576 bytes "
                                      "(a test limit); reading stopped there"),
            std::string::npos)
      << r.status().message();
  EXPECT_LT(written.load(), kLimit + (size_t{4} << 20)) << "the stream was read past the limit";
}

// A stream just within the limit is read whole, byte for byte, through the doubling buffer.
TEST_F(ModelIoTest, StreamWithinTheLimitIsReadWhole) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string data(3 << 20, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 7919 % 251);
  std::thread writer([&] {
    for (size_t at = 0; at < data.size();) {
      ssize_t n = ::write(fds[1], data.data() + at, data.size() - at);
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  ReadLimits limits;
  limits.max_bytes = data.size();
  auto r = ReadDescriptor(fds[0], "pipe", limits);
  ::close(fds[0]);
  writer.join();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(*r == data);
}

TEST_F(ModelIoTest, WriteIntoMissingDirectoryFails) {
  Status st = SaveModel(SmallModel(), (dir_ / "no" / "such" / "m.onnx").string());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cannot write"), std::string::npos);
}

TEST_F(ModelIoTest, OverwriteKeepsPermissions) {
  std::string path = Write("perm.onnx", "old");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  ASSERT_TRUE(SaveModel(SmallModel(), path).ok());
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_NE(Read(path), "old");
}

// Two names of one file, however spelt, are the same output; a new name compares by its
// directory and last component; a device or FIFO, which is not replaced, is never "the same".
TEST_F(ModelIoTest, SameOutputFileComparesFilesNotSpellings) {
  const std::string m = Write("m.onnx", "model");
  fs::create_symlink("m.onnx", dir_ / "alias.onnx");
  EXPECT_TRUE(SameOutputFile(m, (dir_ / "." / "m.onnx").string()));
  EXPECT_TRUE(SameOutputFile(m, (dir_ / "alias.onnx").string()));
  EXPECT_TRUE(SameOutputFile((dir_ / "new.onnx").string(), (dir_ / "." / "new.onnx").string()));
  fs::create_symlink("later.onnx", dir_ / "dangling");
  EXPECT_TRUE(SameOutputFile((dir_ / "dangling").string(), (dir_ / "later.onnx").string()));
  EXPECT_FALSE(SameOutputFile(m, (dir_ / "new.onnx").string()));
  EXPECT_FALSE(SameOutputFile((dir_ / "a.onnx").string(), (dir_ / "b.onnx").string()));
  EXPECT_FALSE(SameOutputFile("/dev/null", "/dev/null"));
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(SameOutputFile(fifo, fifo));
}

// As root in a sticky world-writable directory, a symbolic link that belongs to another user
// is not followed (fs.protected_symlinks); the caller's own link, or the directory owner's, is.
TEST_F(ModelIoTest, PlantedSymbolicLinkInStickyDirectoryIsNotFollowed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a link to another user";
  const fs::path sticky = dir_ / "tmp";
  fs::create_directories(sticky);
  ASSERT_EQ(::chmod(sticky.c_str(), 01777), 0);
  const std::string victim = Write("victim", "precious");
  const fs::path link = sticky / "out.onnx";
  fs::create_symlink(victim, link);
  ASSERT_EQ(::lchown(link.c_str(), 4321, 4321), 0);
  Status st = SaveModel(SmallModel(), link.string());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("not followed, as the kernel's fs.protected_symlinks refuses"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(Read(victim), "precious");
  EXPECT_TRUE(fs::is_symlink(link));
  // The directory's owner may plant links in it: followed.
  ASSERT_EQ(::chown(sticky.c_str(), 4321, 4321), 0);
  ASSERT_TRUE(SaveModel(SmallModel(), link.string()).ok());
  EXPECT_NE(Read(victim), "precious");
}

TEST_F(ModelIoTest, OverwriteKeepsOwnerAndGroupAsRoot) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root may give a file to another user";
  std::string path = Write("theirs.onnx", "old");
  ASSERT_EQ(::chown(path.c_str(), 4321, 4322), 0);
  ASSERT_EQ(::chmod(path.c_str(), 0604), 0);
  ASSERT_TRUE(SaveModel(SmallModel(), path).ok());
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 4321u);
  EXPECT_EQ(st.st_gid, 4322u);
  EXPECT_EQ(st.st_mode & 07777, 0604u);
}

// The target is replaced by a rename: the name given gets the new file, another hard link of
// the old file keeps the old contents (docs/cli.md).
TEST_F(ModelIoTest, OverwriteReplacesOneHardLink) {
  std::string path = Write("a.onnx", "old");
  fs::create_hard_link(path, dir_ / "b.onnx");
  ASSERT_TRUE(SaveModel(SmallModel(), path).ok());
  EXPECT_NE(Read(path), "old");
  EXPECT_EQ(Read((dir_ / "b.onnx").string()), "old");
}

}  // namespace
}  // namespace onnx_infer
