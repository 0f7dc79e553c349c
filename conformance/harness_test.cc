// The harness's grading, on synthetic cases whose expected values are written by the test.
#include "onnx_infer/conformance/harness.h"

#include <filesystem>
#include <fstream>

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "onnx_infer/base/test_util.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/proto/onnx_data.pb.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer::conformance {
namespace {

namespace fs = std::filesystem;
using testing::T;

class HarnessTest : public testing::ScratchDirTest {
 protected:
  // A case: a model (graph in protobuf text) and the dims of input 0 and output 0.
  Case Make(const std::string& graph, const std::vector<int64_t>& input_dims,
            const std::string& output_pb_text) {
    onnx::ModelProto m;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(
        "ir_version: 8 opset_import { version: 17 } graph { " + graph + " }", &m));
    Case c;
    c.name = "node/synthetic";
    c.model = (dir_ / "model.onnx").string();
    EXPECT_TRUE(SaveModel(m, c.model).ok());
    onnx::TensorProto in;
    in.set_data_type(1);
    for (int64_t d : input_dims) in.add_dims(d);
    c.inputs.push_back((dir_ / "input_0.pb").string());
    std::ofstream(c.inputs[0], std::ios::binary) << in.SerializeAsString();
    c.outputs.push_back((dir_ / "output_0.pb").string());
    onnx::TensorProto out;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(output_pb_text, &out));
    std::ofstream(c.outputs[0], std::ios::binary) << out.SerializeAsString();
    return c;
  }
};

constexpr char kRelu[] = R"(
  node { op_type: "Relu" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 } } })";

TEST_F(HarnessTest, ExactWhenEverythingMatches) {
  Case c = Make(kRelu, {2, 3}, "data_type: 1 dims: 2 dims: 3");
  CaseResult r = RunCase(c, Mode::kStatic, BuiltinSchemas());
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.op, "Relu");
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].grade, Grade::kExact) << r.outputs[0].inferred;
}

TEST_F(HarnessTest, WrongDimElementTypeOrRank) {
  EXPECT_EQ(RunCase(Make(kRelu, {2, 3}, "data_type: 1 dims: 2 dims: 4"), Mode::kStatic,
                    BuiltinSchemas()).outputs[0].grade,
            Grade::kWrong);
  EXPECT_EQ(RunCase(Make(kRelu, {2, 3}, "data_type: 7 dims: 2 dims: 3"), Mode::kStatic,
                    BuiltinSchemas()).outputs[0].grade,
            Grade::kWrong);
  EXPECT_EQ(RunCase(Make(kRelu, {2, 3}, "data_type: 1 dims: 6"), Mode::kStatic,
                    BuiltinSchemas()).outputs[0].grade,
            Grade::kWrong);
}

TEST_F(HarnessTest, SymbolicModeEvaluatesAgainstTheRealInputs) {
  // The declared input says [2, 3], but the test feeds [5, 3]: symbolic mode binds d0_0 = 5.
  Case c = Make(kRelu, {5, 3}, "data_type: 1 dims: 5 dims: 3");
  EXPECT_EQ(RunCase(c, Mode::kSymbolic, BuiltinSchemas()).outputs[0].grade, Grade::kExact);
  EXPECT_EQ(RunCase(c, Mode::kStatic, BuiltinSchemas()).outputs[0].grade, Grade::kWrong);
}

TEST_F(HarnessTest, NoneAndTypeOnly) {
  Case none = Make(R"(
    node { op_type: "Frobnicate" input: "x" output: "y" }
    input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
    output { name: "y" })", {2}, "data_type: 1 dims: 2");
  EXPECT_EQ(RunCase(none, Mode::kStatic, BuiltinSchemas()).outputs[0].grade, Grade::kNone);
  // Relu of an input of unknown rank: the element type is known, the shape is not.
  Case type_only = Make(R"(
    node { op_type: "Relu" input: "x" output: "y" }
    input { name: "x" type { tensor_type { elem_type: 1 } } }
    output { name: "y" })", {2}, "data_type: 1 dims: 2");
  EXPECT_EQ(RunCase(type_only, Mode::kStatic, BuiltinSchemas()).outputs[0].grade,
            Grade::kTypeOnly);
}

TEST_F(HarnessTest, MissingExpectedValueIsNotRun) {
  Case c = Make(kRelu, {2, 3}, "data_type: 1 dims: 2 dims: 3");
  c.outputs.clear();
  EXPECT_NE(RunCase(c, Mode::kStatic, BuiltinSchemas()).error, "");
}

// Values mode gives inference the test data of the small integer inputs: Reshape's shape
// folds. A float input, and an integer one over the element limit, stay types only.
TEST_F(HarnessTest, ValuesModeGivesTheSmallIntegerInputs) {
  onnx::ModelProto m;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(R"(
    ir_version: 8 opset_import { version: 17 } graph {
      node { op_type: "Reshape" input: "x" input: "shape" output: "y" }
      node { op_type: "Identity" input: "big" output: "z" }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 6 } } } } }
      input { name: "shape" type { tensor_type { elem_type: 7 shape { dim { dim_value: 2 } } } } }
      input { name: "big" type { tensor_type { elem_type: 7 shape { dim { dim_value: 1025 } } } } }
      output { name: "y" type { tensor_type { elem_type: 1 } } }
    })", &m));
  Case c;
  c.name = "node/synthetic_values";
  c.model = (dir_ / "model.onnx").string();
  ASSERT_TRUE(SaveModel(m, c.model).ok());
  auto write = [&](const std::string& file, const onnx::TensorProto& t) {
    c.inputs.push_back((dir_ / file).string());
    std::ofstream(c.inputs.back(), std::ios::binary) << t.SerializeAsString();
  };
  onnx::TensorProto x, shape, big;
  x.set_data_type(1);
  x.add_dims(2);
  x.add_dims(6);
  for (int i = 0; i < 12; ++i) x.add_float_data(i);
  shape.set_data_type(7);
  shape.add_dims(2);
  shape.add_int64_data(3);
  shape.add_int64_data(4);
  big.set_data_type(7);
  big.add_dims(1025);
  for (int i = 0; i < 1025; ++i) big.add_int64_data(i);
  write("input_0.pb", x);
  write("input_1.pb", shape);
  write("input_2.pb", big);
  c.outputs.push_back((dir_ / "output_0.pb").string());
  onnx::TensorProto out;
  out.set_data_type(1);
  out.add_dims(3);
  out.add_dims(4);
  std::ofstream(c.outputs[0], std::ios::binary) << out.SerializeAsString();

  auto given = GivenInputValues(m.graph(), c, /*max_elements=*/1024);
  ASSERT_EQ(given.size(), 1u);
  EXPECT_EQ(given.begin()->first, "shape");
  EXPECT_EQ(RunCase(c, Mode::kStatic, BuiltinSchemas()).outputs[0].grade, Grade::kRankOnly);
  CaseResult values = RunCase(c, Mode::kValues, BuiltinSchemas());
  EXPECT_EQ(values.outputs[0].grade, Grade::kExact) << values.outputs[0].inferred;
}

TEST(GradeAgainstDeclaredTest, SymbolsAcceptAnythingConstantsMustMatch) {
  EXPECT_EQ(GradeAgainstDeclared(T("float[4, 3]"), T("float[N, 3]")), Grade::kExact);
  EXPECT_EQ(GradeAgainstDeclared(T("float[M, 3]"), T("float[N, 3]")), Grade::kSymbolic);
  EXPECT_EQ(GradeAgainstDeclared(T("float[?, 3]"), T("float[N, 3]")), Grade::kRankOnly);
  EXPECT_EQ(GradeAgainstDeclared(T("float"), T("float[N, 3]")), Grade::kTypeOnly);
  EXPECT_EQ(GradeAgainstDeclared(Type(), T("float[N, 3]")), Grade::kNone);
  EXPECT_EQ(GradeAgainstDeclared(T("float[4, 2]"), T("float[N, 3]")), Grade::kWrong);
  EXPECT_EQ(GradeAgainstDeclared(T("int64[4, 3]"), T("float[N, 3]")), Grade::kWrong);
}

}  // namespace
}  // namespace onnx_infer::conformance
