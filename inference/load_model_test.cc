// LoadModel reads binary and text models, by extension or by content, with the messages of
// the format that failed.
#include "onnx_infer/inference/load_model.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "onnx_infer/base/test_util.h"
#include "onnx_infer/proto/model_io.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

constexpr char kText[] = R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[N, 2] a) => (y) {
  y = Relu(a)
}
)";

class LoadModelTest : public testing::ScratchDirTest {
 protected:
  static std::string Message(const StatusOr<onnx::ModelProto>& r) {
    return r.ok() ? "(loaded)" : r.status().message();
  }
};

TEST_F(LoadModelTest, ReadsBinary) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* node = m.mutable_graph()->add_node();
  node->set_op_type("Relu");
  node->add_input("x");
  node->add_output("y");
  const std::string path = (dir_ / "m.onnx").string();
  ASSERT_TRUE(SaveModel(m, path).ok());
  auto loaded = LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->SerializeAsString(), m.SerializeAsString());
}

TEST_F(LoadModelTest, ReadsTextByExtension) {
  auto loaded = LoadModel(Write("m.onnxtxt", kText));
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->graph().node(0).op_type(), "Relu");
  EXPECT_EQ(loaded->graph().input(0).name(), "a");
}

TEST_F(LoadModelTest, ReadsTextThatIsNotBinaryByContent) {
  // Any name: the binary parse fails and the bytes start like text.
  auto loaded = LoadModel(Write("m.onnx", kText));
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->graph().node(0).op_type(), "Relu");
}

TEST_F(LoadModelTest, TextErrorsByExtensionGiveThePosition) {
  const std::string path = Write("bad.onnxtxt", "<ir_version: 8>\nmain (float x = ) => (y) {}\n");
  auto r = LoadModel(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(Message(r).rfind(path + ":2:17: expected '{' to open the tensor values", 0), 0)
      << Message(r);
}

TEST_F(LoadModelTest, NeitherFormatKeepsBothMessages) {
  const std::string path = Write("bad.onnx", "main (float x = ) => (y) {}\n");
  auto r = LoadModel(path);
  ASSERT_FALSE(r.ok());
  const std::string binary = LoadBinaryModel(path).status().message();
  EXPECT_EQ(Message(r).rfind(binary + "; read as ONNX text: " + path + ":1:17: ", 0), 0)
      << Message(r);
}

TEST_F(LoadModelTest, BytesThatAreNotTextKeepTheBinaryMessage) {
  const std::string path = Write("garbage.onnx", std::string("\xff\xff\xff\xff\x0f\x01", 6));
  auto r = LoadModel(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(Message(r), LoadBinaryModel(path).status().message());
  EXPECT_NE(Message(r).find("not a valid ONNX model"), std::string::npos);
}

TEST_F(LoadModelTest, FileErrorsAreThoseOfReading) {
  EXPECT_NE(Message(LoadModel((dir_ / "nope.onnxtxt").string())).find("cannot open"),
            std::string::npos);
  EXPECT_NE(Message(LoadModel((dir_ / "nope.onnx").string())).find("cannot open"),
            std::string::npos);
  EXPECT_EQ(Message(LoadModel(Write("empty.onnx", ""))),
            (dir_ / "empty.onnx").string() + ": the file is empty");
}

// The CLI's load: a binary file onto the arena, text and errors as LoadModel has them.
TEST_F(LoadModelTest, OnArenaReadsBinaryOntoTheArenaAndTheRestAsLoadModel) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.mutable_graph()->add_node()->set_op_type("Relu");
  const std::string path = (dir_ / "m.onnx").string();
  ASSERT_TRUE(SaveModel(m, path).ok());
  auto binary = LoadModelOnArena(path);
  ASSERT_TRUE(binary.ok()) << binary.status().message();
  EXPECT_EQ(binary->model->GetArena(), binary->arena.get());
  EXPECT_EQ(binary->model->SerializeAsString(), m.SerializeAsString());

  for (const std::string& text : {Write("t.onnxtxt", kText), Write("t.onnx", kText)}) {
    auto loaded = LoadModelOnArena(text);
    ASSERT_TRUE(loaded.ok()) << loaded.status().message();
    ASSERT_NE(loaded->arena, nullptr);
    EXPECT_EQ(loaded->model->SerializeAsString(), LoadModel(text)->SerializeAsString());
  }

  std::string bytes = m.SerializeAsString();
  for (const std::string& bad : {(dir_ / "nope.onnx").string(), Write("empty.onnx", ""),
                                 Write("cut.onnx", bytes.substr(0, bytes.size() - 1)),
                                 Write("bad.onnxtxt", "<ir_version")}) {
    auto loaded = LoadModelOnArena(bad);
    ASSERT_FALSE(loaded.ok()) << bad;
    EXPECT_EQ(loaded.status().message(), Message(LoadModel(bad)));
  }
}

TEST_F(LoadModelTest, ParsesBytesInMemory) {
  auto text = ParseModelAnyFormat(kText, "<memory>");
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(text->graph().output(0).name(), "y");
}

TEST_F(LoadModelTest, HeadCheckTellsModelsFromEndlessJunk) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.mutable_graph()->set_name("g");
  EXPECT_TRUE(ModelHeadCheck(m.SerializeAsString(), "m").ok());
  EXPECT_TRUE(ModelHeadCheck(kText, "m").ok());
  EXPECT_TRUE(ModelHeadCheck("# a comment\n<ir_version: 8>", "m").ok());
  EXPECT_TRUE(ModelHeadCheck("", "m").ok());  // the parser says "empty"
  const Status zeros = ModelHeadCheck(std::string(4096, '\0'), "<stdin>");
  ASSERT_FALSE(zeros.ok());
  EXPECT_EQ(zeros.message(),
            "<stdin>: not an ONNX model: its first bytes start neither binary "
            "protobuf nor ONNX text; reading stopped there");
  EXPECT_FALSE(ModelHeadCheck("\x0b\x0c", "m").ok());  // a group: no ModelProto field
  EXPECT_FALSE(ModelHeadCheck("\x1b[2J", "m").ok());
}

TEST_F(LoadModelTest, ReadsFromADescriptor) {
  const std::string path = Write("m.onnxtxt", kText);
  FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  auto loaded = LoadModelFromDescriptor(fileno(f), "<stdin>");
  std::fclose(f);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();  // text, found by content
  EXPECT_EQ(loaded->graph().node(0).op_type(), "Relu");
}

}  // namespace
}  // namespace onnx_infer
