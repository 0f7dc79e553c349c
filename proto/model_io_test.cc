#include "onnx_infer/proto/model_io.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

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

TEST_F(ModelIoTest, MissingFile) {
  auto r = LoadBinaryModel((dir_ / "nope.onnx").string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot open: No such file or directory"),
            std::string::npos)
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
}

TEST_F(ModelIoTest, FailedWriteLeavesTheTargetUntouchedAndNoTemporaryFile) {
  // The final rename fails (the target is a non-empty directory), after the data was written.
  fs::create_directories(dir_ / "target.onnx");
  std::string inside = Write("target.onnx/keep", "original");
  Status st = SaveModel(SmallModel(), (dir_ / "target.onnx").string());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cannot write (rename)"), std::string::npos) << st.message();
  EXPECT_EQ(Read(inside), "original");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
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

}  // namespace
}  // namespace onnx_infer
