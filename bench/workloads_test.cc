// The benchmark's workloads are what bench/workloads.h says: the same bytes on every call,
// exactly the nodes asked for, and models that infer under --strict with every value fully
// shaped (so the benchmark times the path a real exporter's model takes, not error paths).
#include "onnx_infer/bench/workloads.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "onnx_infer/base/test_util.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer::bench {
namespace {

std::string Bytes(const onnx::ModelProto& model) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream out(&stream);
  out.SetSerializationDeterministic(true);
  model.SerializeToCodedStream(&out);
  out.Trim();
  return bytes;
}

std::string TypeString(const InferenceResult& result, std::string_view name) {
  const Type* type = result.TypeOf("main", name);
  return type ? type->ToString() : "<none>";
}

InferenceResult InferStrict(onnx::ModelProto& model, const std::string& dir = ".") {
  InferenceOptions options;
  options.strict = true;
  options.model_dir = dir;
  return InferShapes(model, BuiltinSchemas(), options);
}

class WorkloadTest : public ::testing::TestWithParam<WorkloadKind> {};

TEST_P(WorkloadTest, SameBytesEveryTimeAndExactNodeCount) {
  // 2,003 is no whole number of blocks of any kind: the padding is exercised too.
  for (int64_t nodes : {MinimumNodes(GetParam()), int64_t{2003}}) {
    Workload a = MakeWorkload(GetParam(), nodes);
    Workload b = MakeWorkload(GetParam(), nodes);
    EXPECT_EQ(a.model.graph().node_size(), nodes);
    EXPECT_EQ(Bytes(a.model), Bytes(b.model)) << WorkloadKindName(GetParam()) << " " << nodes;
    EXPECT_EQ(a.data_size, b.data_size);
  }
}

TEST_P(WorkloadTest, InfersStrictlyWithEveryValueFullyShaped) {
  WorkloadOptions options;
  options.projection_bytes = int64_t{64} << 20;  // the test never writes the data file
  Workload w = MakeWorkload(GetParam(), 2003, options);
  InferenceResult result = InferStrict(w.model);
  for (const auto& d : result.diagnostics) ADD_FAILURE() << d.Render("workload");
  EXPECT_EQ(result.stats.nodes, 2003);
  EXPECT_EQ(result.stats.values, 2003);
  EXPECT_EQ(result.stats.shaped, result.stats.values);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, WorkloadTest, ::testing::ValuesIn(AllWorkloadKinds()),
                         [](const auto& info) {
                           std::string name(WorkloadKindName(info.param));
                           std::erase(name, '-');
                           return name;
                         });

TEST(WorkloadShapes, DecoderFollowsTheExportersReshapes) {
  Workload w = MakeWorkload(WorkloadKind::kDecoder, 40);
  InferenceResult result = InferStrict(w.model);
  EXPECT_EQ(TypeString(result, "/layers.1/attn/Concat_output_0"), "int64[4]");
  EXPECT_EQ(TypeString(result, "/layers.1/attn/Reshape_output_0"), "float[B, S, 4, 16]");
  EXPECT_EQ(TypeString(result, "/layers.1/attn/Softmax_output_0"), "float[B, 4, S, S]");
  EXPECT_EQ(TypeString(result, "/layers.1/act/Relu_output_0"), "float[B, S, 64]");
}

TEST(WorkloadShapes, CnnKeepsHeightAndWidthSymbolic) {
  Workload w = MakeWorkload(WorkloadKind::kCnn, 10);
  InferenceResult result = InferStrict(w.model);
  const std::string type = TypeString(result, "/layers.0/Relu_1_output_0");
  EXPECT_NE(type.find("H"), std::string::npos) << type;
  EXPECT_NE(type.find("W"), std::string::npos) << type;
  EXPECT_EQ(type.rfind("float[N, 8, ", 0), 0u) << type;
}

TEST(WorkloadShapes, TinyNodesIsAReluChainOfTinyNames) {
  Workload w = MakeWorkload(WorkloadKind::kTinyNodes, 50000);
  const onnx::GraphProto& graph = w.model.graph();
  // Names of at most four bytes (base 36), no node names, no initializers: about 18 to 20 bytes
  // a node (the 18 MB chain of 700,000 Relu nodes the issue measures has about 26).
  EXPECT_EQ(graph.initializer_size(), 0);
  for (const onnx::NodeProto& node : graph.node()) {
    ASSERT_EQ(node.op_type(), "Relu");
    EXPECT_TRUE(node.name().empty());
    EXPECT_LE(node.output(0).size(), 4u);
  }
  EXPECT_EQ(graph.node(0).input(0), "X");
  EXPECT_EQ(graph.node(0).output(0), "0");
  EXPECT_EQ(graph.node(36).output(0), "10");
  EXPECT_EQ(graph.node(1).input(0), "0");
  const size_t bytes = Bytes(w.model).size();
  EXPECT_GT(bytes, size_t{16} * 50000);
  EXPECT_LT(bytes, size_t{24} * 50000);
  InferenceResult result = InferStrict(w.model);
  for (const auto& d : result.diagnostics) ADD_FAILURE() << d.Render("tiny");
  EXPECT_EQ(TypeString(result, graph.node(49999).output(0)), "float[B, 8]");
}

class ExternalWorkloadTest : public testing::ScratchDirTest {};

TEST_F(ExternalWorkloadTest, DataFileIsSparseAndCoversEveryExternalTensor) {
  WorkloadOptions options;
  options.data_location = "m.data";
  options.projection_bytes = int64_t{1} << 30;
  Workload w = MakeWorkload(WorkloadKind::kDecoderExternal, 101, options);
  // 5 blocks of one 64x64 weight each, then the [64, V] projection.
  EXPECT_EQ(w.data_size, 5 * 64 * 64 * 4 + (int64_t{1} << 30));
  for (const auto& t : w.model.graph().initializer()) {
    if (t.data_location() != onnx::TensorProto::EXTERNAL) {
      // Exporters keep tensors under 1 KiB inline: biases, norms, the integer shapes.
      EXPECT_LT(t.raw_data().size() + t.int64_data_size() * 8, 1024u) << t.name();
      continue;
    }
    ASSERT_EQ(t.external_data_size(), 3);
    EXPECT_EQ(t.external_data(0).value(), "m.data");
    EXPECT_LE(std::stoll(t.external_data(1).value()) + std::stoll(t.external_data(2).value()),
              w.data_size);
  }
  const std::string path = (dir_ / "m.onnx").string();
  ASSERT_TRUE(WriteWorkload(w, path).ok());
  struct stat st;
  ASSERT_EQ(::stat((dir_ / "m.data").c_str(), &st), 0);
  EXPECT_EQ(st.st_size, w.data_size);
  EXPECT_LT(static_cast<int64_t>(st.st_blocks) * 512, int64_t{1} << 20) << "not sparse";
  InferenceResult result = InferStrict(w.model, dir_.string());
  for (const auto& d : result.diagnostics) ADD_FAILURE() << d.Render("m.onnx");
  EXPECT_EQ(TypeString(result, "/lm_head/MatMul_output_0"), "float[B, S, 4194304]");
}

}  // namespace
}  // namespace onnx_infer::bench
