// The harness's grading, on synthetic cases whose expected values are written by the test.
#include "onnx_infer/conformance/harness.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

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
  EXPECT_EQ(
      RunCase(Make(kRelu, {2, 3}, "data_type: 1 dims: 2 dims: 4"), Mode::kStatic, BuiltinSchemas())
          .outputs[0]
          .grade,
      Grade::kWrong);
  EXPECT_EQ(
      RunCase(Make(kRelu, {2, 3}, "data_type: 7 dims: 2 dims: 3"), Mode::kStatic, BuiltinSchemas())
          .outputs[0]
          .grade,
      Grade::kWrong);
  EXPECT_EQ(RunCase(Make(kRelu, {2, 3}, "data_type: 1 dims: 6"), Mode::kStatic, BuiltinSchemas())
                .outputs[0]
                .grade,
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
    output { name: "y" })",
                   {2}, "data_type: 1 dims: 2");
  EXPECT_EQ(RunCase(none, Mode::kStatic, BuiltinSchemas()).outputs[0].grade, Grade::kNone);
  // Relu of an input of unknown rank: the element type is known, the shape is not.
  Case type_only = Make(R"(
    node { op_type: "Relu" input: "x" output: "y" }
    input { name: "x" type { tensor_type { elem_type: 1 } } }
    output { name: "y" })",
                        {2}, "data_type: 1 dims: 2");
  EXPECT_EQ(RunCase(type_only, Mode::kStatic, BuiltinSchemas()).outputs[0].grade, Grade::kTypeOnly);
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
    })",
                                                            &m));
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
  EXPECT_EQ(given[0].name, "shape");
  EXPECT_EQ(RunCase(c, Mode::kStatic, BuiltinSchemas()).outputs[0].grade, Grade::kRankOnly);
  CaseResult values = RunCase(c, Mode::kValues, BuiltinSchemas());
  EXPECT_EQ(values.outputs[0].grade, Grade::kExact) << values.outputs[0].inferred;
}

// A real model's values that are not fully shaped, each traced to its cause: Reshape by a
// shape whose value is unknown is its own cause and the cause of the Relu after it; an
// input's anonymous dim is named (a_d0), so what follows it is shaped; an If's outer value
// counts as its input.
TEST_F(HarnessTest, RealModelUnshapedValuesAndTheirCauses) {
  onnx::ModelProto m;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(R"(
    ir_version: 8 opset_import { version: 17 } graph {
      node { op_type: "Reshape" input: "x" input: "shape" output: "r" }
      node { op_type: "Relu" input: "r" output: "y" }
      node { op_type: "Relu" input: "a" output: "b" }
      node { op_type: "Relu" input: "x" output: "fine" }
      node { op_type: "If" input: "c" output: "z" attribute { name: "then_branch" type: GRAPH g {
        node { op_type: "Identity" input: "y" output: "t" }
        output { name: "t" } } }
        attribute { name: "else_branch" type: GRAPH g {
        node { op_type: "Identity" input: "y" output: "e" }
        output { name: "e" } } } }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 6 } } } } }
      input { name: "shape" type { tensor_type { elem_type: 7 shape { dim { dim_value: 2 } } } } }
      input { name: "a" type { tensor_type { elem_type: 1 shape { dim { } dim { dim_value: 3 } } } } }
      input { name: "c" type { tensor_type { elem_type: 9 shape { } } } }
      output { name: "y" type { tensor_type { elem_type: 1 } } }
      output { name: "b" type { tensor_type { elem_type: 1 } } }
      output { name: "z" type { tensor_type { elem_type: 1 } } }
    })",
                                                            &m));
  const std::string path = (dir_ / "real.onnx").string();
  ASSERT_TRUE(SaveModel(m, path).ok());
  RealModelResult r = RunRealModel(path, BuiltinSchemas());
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.values, 5);
  EXPECT_EQ(r.shaped, 2);  // fine, and b: the anonymous dim of a is named a_d0
  std::map<std::string, std::string> cause, op;
  for (const auto& u : r.unshaped) {
    cause[u.name] = u.cause;
    op[u.name] = u.op;
  }
  EXPECT_EQ(cause, (std::map<std::string, std::string>{{"r", "r"}, {"y", "r"}, {"z", "r"}}));
  EXPECT_EQ(op["r"], "Reshape");
  ASSERT_FALSE(r.unshaped.empty());
  EXPECT_EQ(r.unshaped[0].name, "r");
  EXPECT_EQ(r.unshaped[0].type, "float[?, ?]");
  EXPECT_EQ(r.unshaped[0].inputs, (std::vector<std::string>{"x: float[2, 6]", "shape: int64[2]"}));
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
