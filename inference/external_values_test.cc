// External initializers in the driver: a small integer one is read when a node consumes it,
// once, and only inside the model's directory; anything else is never opened. A failed read
// is a warning and the value stays unknown. The reader's own checks are tested in
// proto/external_data_test.cc.
#include "onnx_infer/inference/external_values.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "onnx_infer/base/test_util.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string Int64Bytes(const std::vector<int64_t>& values) {
  std::string bytes;
  for (int64_t v : values) {
    for (int b = 0; b < 8; ++b)
      bytes += static_cast<char>((static_cast<uint64_t>(v) >> (8 * b)) & 0xff);
  }
  return bytes;
}

class ExternalValuesTest : public testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    root_ = dir_;
    model_dir_ = root_ / "model";
    fs::create_directories(model_dir_);
    fs::create_directories(root_ / "outside");
  }

  static void Write(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
  }

  static onnx::ModelProto Model(const std::string& graph) {
    auto m = syntax::ParseModelText("<ir_version: 8, opset_import: [\"\" : 17]>\n" + graph);
    EXPECT_TRUE(m.ok()) << m.status().message();
    return m.ok() ? *m : onnx::ModelProto();
  }

  InferenceResult Infer(onnx::ModelProto& model, bool with_dir = true) {
    InferenceOptions options;
    if (with_dir) options.model_dir = model_dir_.string();
    return InferShapes(model, BuiltinSchemas(), options);
  }

  // The inferred type of `name`, from value_info or the graph outputs.
  static std::string TypeOf(const onnx::ModelProto& m, const std::string& name) {
    for (const auto& vi : m.graph().value_info()) {
      if (vi.name() == name) return TypeFromProto(vi.type()).ToString();
    }
    for (const auto& vi : m.graph().output()) {
      if (vi.name() == name) return TypeFromProto(vi.type()).ToString();
    }
    return "(none)";
  }

  static std::string Messages(const InferenceResult& r) {
    std::string all;
    for (const auto& d : r.diagnostics) all += d.Render("model") + "\n";
    return all;
  }

  fs::path root_, model_dir_;
};

// A Reshape's shape and an Unsqueeze's axes in one external file, at offsets.
constexpr char kReshapeModel[] = R"(
  main (float[2, 3, 8] x) => (y, z)
    <int64[3] shape = ["location": "weights.bin", "offset": "8", "length": "24"],
     int64[1] axes = ["location": "weights.bin", "offset": "32", "length": "8"]>
  {
    y = Reshape(x, shape)
    z = Unsqueeze(x, axes)
  })";

TEST_F(ExternalValuesTest, AnExternalInt64ShapeGivesTheExactReshape) {
  Write(model_dir_ / "weights.bin", Int64Bytes({99, 0, -1, 4, 1}));
  onnx::ModelProto m = Model(kReshapeModel);
  InferenceResult r = Infer(m);
  EXPECT_TRUE(r.diagnostics.empty()) << Messages(r);
  EXPECT_EQ(TypeOf(m, "y"), "float[2, 6, 4]");
  EXPECT_EQ(TypeOf(m, "z"), "float[2, 1, 3, 8]");
}

// An external initializer that is also a graph input is a default (IR.md): read and used,
// as any initializer is, and the node that read it is a condition.
TEST_F(ExternalValuesTest, AnExternalDefaultInputIsReadAndItsReaderIsACondition) {
  Write(model_dir_ / "weights.bin", Int64Bytes({99, 0, -1, 4, 1}));
  onnx::ModelProto m = Model(kReshapeModel);
  auto* input = m.mutable_graph()->add_input();
  input->set_name("shape");
  *input->mutable_type() = TypeToProto(TypeOfTensor(m.graph().initializer(0)));
  InferenceResult r = Infer(m);
  EXPECT_TRUE(r.diagnostics.empty()) << Messages(r);
  EXPECT_EQ(TypeOf(m, "y"), "float[2, 6, 4]");
  ASSERT_EQ(r.conditions.size(), 1u);
  EXPECT_THAT(r.conditions[0], HasSubstr("input 'shape' keeps its initializer's value"));
  EXPECT_THAT(r.conditions[0], HasSubstr("Reshape"));
}

TEST_F(ExternalValuesTest, WithoutAModelDirectoryNothingIsReadAndNothingIsSaid) {
  Write(model_dir_ / "weights.bin", Int64Bytes({99, 0, -1, 4, 1}));
  onnx::ModelProto m = Model(kReshapeModel);
  InferenceResult r = Infer(m, /*with_dir=*/false);
  EXPECT_TRUE(r.diagnostics.empty()) << Messages(r);
  EXPECT_EQ(TypeOf(m, "y"), "float[?, ?, ?]");
}

TEST_F(ExternalValuesTest, DataOutsideTheDirectoryIsAWarningAndAnUnknownShape) {
  Write(root_ / "outside" / "shape.bin", Int64Bytes({0, -1, 4}));
  fs::create_symlink(root_ / "outside" / "shape.bin", model_dir_ / "link.bin");
  onnx::ModelProto m = Model(R"(
    main (float[2, 3, 8] x) => (y1, y2)
      <int64[3] up = ["location": "../outside/shape.bin"],
       int64[3] linked = ["location": "link.bin"]>
    {
      y1 = Reshape(x, up)
      y2 = Reshape(x, linked)
    })");
  InferenceResult r = Infer(m);
  ASSERT_EQ(r.diagnostics.size(), 2u) << Messages(r);
  for (const auto& d : r.diagnostics) EXPECT_EQ(d.severity, Severity::kWarning);
  EXPECT_EQ(r.diagnostics[0].node_index, 0);
  EXPECT_EQ(r.diagnostics[0].op, "ai.onnx::Reshape");
  EXPECT_THAT(r.diagnostics[0].message, HasSubstr("tensor 'up'"));
  EXPECT_THAT(r.diagnostics[0].message, HasSubstr("'..'"));
  EXPECT_THAT(r.diagnostics[0].message, HasSubstr("its value is left unknown"));
  EXPECT_THAT(r.diagnostics[1].message, HasSubstr("tensor 'linked'"));
  EXPECT_THAT(r.diagnostics[1].message, HasSubstr("symbolic link"));
  EXPECT_EQ(TypeOf(m, "y1"), "float[?, ?, ?]");
  EXPECT_EQ(TypeOf(m, "y2"), "float[?, ?, ?]");
}

TEST_F(ExternalValuesTest, BigOrFloatExternalTensorsAreNeverOpened) {
  // None of these files exists: any attempt to read one would be a warning.
  onnx::ModelProto m = Model(R"(
    main (float[1000, 1000] x, int64[2000] i) => (y, s, j, k)
      <float[1000, 1000] w = ["location": "missing_w.bin"],
       float[2] scale = ["location": "missing_scale.bin"],
       int64[2000] big = ["location": "missing_big.bin"],
       int64[2] inputs_default = ["location": "missing_default.bin"]>
    {
      y = Add(x, w)
      s = Mul(scale, scale)
      j = Add(i, big)
      k = Identity(inputs_default)
    })");
  // An initializer that is also a graph input can be overridden: with the strict reading
  // (overridable_initializers) it is no constant, so it is not read either.
  auto* input = m.mutable_graph()->add_input();
  input->set_name("inputs_default");
  *input->mutable_type() = TypeToProto(TypeOfTensor(m.graph().initializer(3)));
  InferenceOptions options;
  options.model_dir = model_dir_.string();
  options.overridable_initializers = true;
  InferenceResult r = InferShapes(m, BuiltinSchemas(), options);
  EXPECT_TRUE(r.diagnostics.empty()) << Messages(r);
  // Their types come from dims and data_type as for any initializer.
  EXPECT_EQ(TypeOf(m, "y"), "float[1000, 1000]");
  EXPECT_EQ(TypeOf(m, "s"), "float[2]");
  EXPECT_EQ(TypeOf(m, "j"), "int64[2000]");
  EXPECT_EQ(TypeOf(m, "k"), "int64[2]");
}

TEST_F(ExternalValuesTest, AnUnconsumedInitializerIsNeverOpened) {
  onnx::ModelProto m = Model(R"(
    main (float[2, 3, 8] x) => (y) <int64[3] unused = ["location": "../../etc/passwd"]> {
      y = Relu(x)
    })");
  InferenceResult r = Infer(m);
  EXPECT_TRUE(r.diagnostics.empty()) << Messages(r);
}

TEST_F(ExternalValuesTest, EachFileIsReadOnceAndEachFailureReportedOnce) {
  Write(model_dir_ / "shape.bin", Int64Bytes({0, -1, 4}));
  onnx::ModelProto m = Model(R"(
    main (float[2, 3, 8] x) => (a, b, c, d)
      <int64[3] shape = ["location": "shape.bin"],
       int64[3] gone = ["location": "gone.bin"]>
    {
      a = Reshape(x, shape)
      c = Reshape(x, gone)
      b = Reshape(a, shape)
      d = Reshape(x, gone)
    })");
  InferenceResult r = Infer(m);
  ASSERT_EQ(r.diagnostics.size(), 1u) << Messages(r);
  EXPECT_THAT(r.diagnostics[0].message, HasSubstr("tensor 'gone'"));
  EXPECT_THAT(r.diagnostics[0].message, HasSubstr("does not exist"));
  EXPECT_EQ(TypeOf(m, "a"), "float[2, 6, 4]");
  EXPECT_EQ(TypeOf(m, "b"), "float[2, 6, 4]");
  EXPECT_EQ(TypeOf(m, "c"), "float[?, ?, ?]");
}

TEST_F(ExternalValuesTest, AValueIsKeptAfterTheFirstRead) {
  Write(model_dir_ / "shape.bin", Int64Bytes({0, -1, 4}));
  onnx::ModelProto m = Model(R"(main () => () <int64[3] shape = ["location": "shape.bin"]> {})");
  const onnx::TensorProto& shape = m.graph().initializer(0);
  ExternalValues values(model_dir_.string(), /*max_elements=*/16);
  ASSERT_TRUE(values.IsCandidate(shape));
  std::vector<std::string> warnings;
  const ConstValue* first = values.Get(shape, &warnings);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->ToString(), "int64[3] {0, -1, 4}");
  fs::remove(model_dir_ / "shape.bin");
  EXPECT_EQ(values.Get(shape, &warnings), first);
  EXPECT_TRUE(warnings.empty());
  // A reference with another offset is other data: read (and refused) on its own.
  onnx::TensorProto moved = shape;
  auto* offset = moved.add_external_data();
  offset->set_key("offset");
  offset->set_value("8");
  EXPECT_EQ(values.Get(moved, &warnings), nullptr);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("does not exist"));
  // Too many elements, or no directory: not a candidate.
  EXPECT_FALSE(ExternalValues(model_dir_.string(), /*max_elements=*/2).IsCandidate(shape));
  EXPECT_FALSE(ExternalValues("", /*max_elements=*/16).IsCandidate(shape));
}

TEST_F(ExternalValuesTest, SubgraphsReadOuterExternalValuesAndReportFailuresOnce) {
  Write(model_dir_ / "shape.bin", Int64Bytes({0, -1, 4}));
  onnx::ModelProto m = Model(R"(
    main (bool[] c, float[2, 3, 8] x, float[2] acc0, float[1] one) => (y, acc)
      <int64[3] shape = ["location": "shape.bin"],
       int64[3] gone = ["location": "gone.bin"],
       int64 n = {3}>
    {
      y = If (c) <then_branch = then_g () => (t) { t = Reshape(x, shape) },
                  else_branch = else_g () => (e) { e = Reshape(x, shape) }>
      acc = Loop (n, "", acc0) <body = body (int64[] i, bool[] cond_in, acc_in) => (cond_out, acc_out) {
        cond_out = Identity(cond_in)
        acc_out = Concat <axis = 0> (acc_in, one)
        r = Reshape(x, gone)
      }>
    })");
  InferenceResult r = Infer(m);
  // The Loop body is inferred more than once (its carried dim changes); the failed read is
  // reported once all the same.
  ASSERT_EQ(r.diagnostics.size(), 1u) << Messages(r);
  EXPECT_THAT(r.diagnostics[0].message, HasSubstr("tensor 'gone'"));
  EXPECT_EQ(r.diagnostics[0].graph, "main/Loop_1.body");
  EXPECT_EQ(TypeOf(m, "y"), "float[2, 6, 4]");
}

TEST_F(ExternalValuesTest, UnknownKeysAreReportedAndTheValueIsStillRead) {
  Write(model_dir_ / "shape.bin", Int64Bytes({0, -1, 4}));
  onnx::ModelProto m = Model(R"(
    main (float[2, 3, 8] x) => (y)
      <int64[3] shape = ["location": "shape.bin", "__class__": "x"]>
    {
      y = Reshape(x, shape)
    })");
  InferenceResult r = Infer(m);
  ASSERT_EQ(r.diagnostics.size(), 1u) << Messages(r);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::kWarning);
  EXPECT_THAT(r.diagnostics[0].message, HasSubstr("key '__class__'"));
  EXPECT_EQ(TypeOf(m, "y"), "float[2, 6, 4]");
}

TEST_F(ExternalValuesTest, ALengthThatDoesNotFitTheTensorIsRefused) {
  Write(model_dir_ / "shape.bin", Int64Bytes({0, -1, 4, 7}));
  onnx::ModelProto m = Model(R"(
    main (float[2, 3, 8] x) => (y) <int64[3] shape = ["location": "shape.bin", "length": "32"]> {
      y = Reshape(x, shape)
    })");
  InferenceResult r = Infer(m);
  ASSERT_EQ(r.diagnostics.size(), 1u) << Messages(r);
  EXPECT_THAT(r.diagnostics[0].message,
              HasSubstr("length 32 does not match the tensor's size of 24 bytes"));
  EXPECT_EQ(TypeOf(m, "y"), "float[?, ?, ?]");
}

}  // namespace
}  // namespace onnx_infer
