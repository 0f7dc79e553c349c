// The streamed write-back (InferenceOptions::stream_new_value_info, SaveModel with
// AppendedValueInfo): a model written with its new value_info entries as bytes is, byte for
// byte, the model inferred the usual way (entries as messages) and serialized by protobuf.
// Over every golden case, the shared real models (SHARED_DIR; skipped without), and crafted
// models for the framing: fields after value_info, unknown fields, model fields after the
// graph.
#include <google/protobuf/arena.h>
#include <google/protobuf/unknown_field_set.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "onnx_infer/base/test_util.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  bool streamed = false;   // some entries went as bytes
  bool identical = false;  // and the bytes equal the message path's
  std::string detail;
};

// Infers `model` twice: with entries as messages, serialized by protobuf, and with them as
// bytes, written by SerializeModel and by SaveModel into `file` (when given). Compares.
Outcome Compare(const onnx::ModelProto& model, const std::string& file = "") {
  Outcome outcome;
  InferenceOptions options;
  options.record_value_types = false;  // as the CLI
  onnx::ModelProto messages = model;
  const InferenceResult usual = InferShapes(messages, BuiltinSchemas(), options);
  std::string want;
  if (!messages.SerializeToString(&want)) {
    outcome.detail = "protobuf cannot serialize the message path's model";
    return outcome;
  }
  options.stream_new_value_info = true;
  onnx::ModelProto streamed = model;
  const InferenceResult result = InferShapes(streamed, BuiltinSchemas(), options);
  for (const std::string& chunk : result.new_value_info) outcome.streamed |= !chunk.empty();
  StatusOr<std::string> got = SerializeModel(streamed, result.new_value_info);
  if (!got.ok()) {
    outcome.detail = got.status().message();
    return outcome;
  }
  const InferenceStats& a = usual.stats;
  const InferenceStats& b = result.stats;
  if (a.values != b.values || a.typed != b.typed || a.shaped != b.shaped ||
      a.static_shaped != b.static_shaped || a.unknown != b.unknown || a.partial != b.partial) {
    outcome.detail = "the statistics differ";
    return outcome;
  }
  if (*got != want) {
    const auto diff = std::mismatch(got->begin(), got->end(), want.begin(), want.end());
    outcome.detail = "bytes differ: " + std::to_string(got->size()) + " vs " +
                     std::to_string(want.size()) + ", first at " +
                     std::to_string(diff.first - got->begin());
    return outcome;
  }
  if (!file.empty()) {
    if (Status st = SaveModel(streamed, result.new_value_info, file); !st.ok()) {
      outcome.detail = st.message();
      return outcome;
    }
    std::ifstream in(file, std::ios::binary);
    std::stringstream written;
    written << in.rdbuf();
    if (written.str() != want) {
      outcome.detail = "the file SaveModel wrote differs";
      return outcome;
    }
  }
  outcome.identical = true;
  return outcome;
}

onnx::ModelProto Parse(const std::string& text) {
  auto model = syntax::ParseModelText(text);
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? *model : onnx::ModelProto();
}

// A small model whose inferred values get new value_info entries.
constexpr char kModel[] = R"(
<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x, float[4, 3] w) => (float[N, 3] y) {
  a = Relu(x)
  b = MatMul(a, w)
  s = Shape(b)
  c = Sigmoid(b)
  y = Identity(c)
}
)";

TEST(ValueInfoStreamTest, EveryGoldenCaseModel) {
  std::vector<fs::path> paths;
  for (const auto& entry : fs::recursive_directory_iterator("testdata/cases")) {
    if (entry.is_regular_file() && entry.path().extension() == ".onnxtxt") {
      paths.push_back(entry.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  ASSERT_GT(paths.size(), 100u) << "the golden cases are not where the test runs";
  int streamed = 0, parsed = 0;
  for (const fs::path& path : paths) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    auto model = syntax::ParseModelText(text.str(), path.string());
    if (!model.ok()) continue;  // the cases of parse errors
    ++parsed;
    const Outcome o = Compare(*model);
    EXPECT_TRUE(o.identical) << path << ": " << o.detail;
    streamed += o.streamed;
  }
  // Most cases are a node or two whose outputs are the graph's: no new entries.
  EXPECT_GE(streamed, 40) << "few of " << parsed << " cases took the streamed path";
}

TEST(ValueInfoStreamTest, EverySharedRealModel) {
  const char* shared = std::getenv("SHARED_DIR");
  const fs::path root = shared ? fs::path(shared) / "models/real" : fs::path();
  if (root.empty() || !fs::is_directory(root)) GTEST_SKIP() << "SHARED_DIR is not set";
  int checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".onnx") continue;
    auto model = LoadBinaryModel(entry.path().string());
    ASSERT_TRUE(model.ok()) << model.status().message();
    const Outcome o = Compare(*model);
    EXPECT_TRUE(o.identical) << entry.path() << ": " << o.detail;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no models in " << root;
}

class ValueInfoStreamFileTest : public testing::ScratchDirTest {};

TEST_F(ValueInfoStreamFileTest, PlainModelIsStreamedAndWrittenAlike) {
  const Outcome o = Compare(Parse(kModel), (dir_ / "out.onnx").string());
  EXPECT_TRUE(o.streamed);
  EXPECT_TRUE(o.identical) << o.detail;
}

TEST_F(ValueInfoStreamFileTest, ModelOnArena) {
  google::protobuf::Arena arena;
  auto* model = google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
  *model = Parse(kModel);
  const std::string file = (dir_ / "out.onnx").string();
  InferenceOptions options;
  options.record_value_types = false;
  options.stream_new_value_info = true;
  InferenceResult result = InferShapes(*model, BuiltinSchemas(), options);
  ASSERT_FALSE(result.new_value_info.empty());
  ASSERT_TRUE(SaveModel(*model, result.new_value_info, file).ok());
  EXPECT_EQ(model->graph().value_info_size(), 0);  // the graph is back, unchanged
  options.stream_new_value_info = false;
  onnx::ModelProto messages = Parse(kModel);
  InferShapes(messages, BuiltinSchemas(), options);
  auto read = LoadBinaryModel(file);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->SerializeAsString(), messages.SerializeAsString());
}

TEST(ValueInfoStreamTest, ExistingValueInfoIsUpdatedInPlace) {
  onnx::ModelProto model = Parse(kModel);
  auto* vi = model.mutable_graph()->add_value_info();
  vi->set_name("b");
  vi->mutable_type()->mutable_tensor_type()->set_elem_type(1);
  model.mutable_graph()->add_value_info()->set_name("unrelated");
  const Outcome o = Compare(model);
  EXPECT_TRUE(o.streamed);
  EXPECT_TRUE(o.identical) << o.detail;
}

TEST(ValueInfoStreamTest, GraphFieldsAfterValueInfoFallBackToMessages) {
  onnx::ModelProto with_annotation = Parse(kModel);
  with_annotation.mutable_graph()->add_quantization_annotation()->set_tensor_name("a");
  onnx::ModelProto with_sparse = Parse(kModel);
  auto* sparse = with_sparse.mutable_graph()->add_sparse_initializer();
  sparse->mutable_values()->set_name("sp");
  sparse->mutable_values()->set_data_type(1);
  sparse->add_dims(4);
  onnx::ModelProto with_metadata = Parse(kModel);
  auto* prop = with_metadata.mutable_graph()->add_metadata_props();
  prop->set_key("k");
  prop->set_value("v");
  onnx::ModelProto with_unknown = Parse(kModel);
  with_unknown.mutable_graph()
      ->GetReflection()
      ->MutableUnknownFields(with_unknown.mutable_graph())
      ->AddVarint(1000, 7);
  for (const onnx::ModelProto* model :
       {&with_annotation, &with_sparse, &with_metadata, &with_unknown}) {
    EXPECT_FALSE(CanAppendValueInfo(model->graph()));
    const Outcome o = Compare(*model);
    EXPECT_FALSE(o.streamed);
    EXPECT_TRUE(o.identical) << o.detail;
  }
  // Entries appended to such a graph could not be written as protobuf writes them.
  AppendedValueInfo bytes = {std::string("\x6a\x03\x0a\x01z", 5)};
  EXPECT_FALSE(SerializeModel(with_annotation, bytes).ok());
}

TEST(ValueInfoStreamTest, ModelFieldsAroundTheGraph) {
  onnx::ModelProto model = Parse(kModel);
  model.set_producer_name("p");
  model.set_doc_string("before the graph");
  model.set_model_version(3);
  auto* prop = model.add_metadata_props();
  prop->set_key("k");
  prop->set_value("after the graph");
  auto* function = model.add_functions();
  function->set_name("F");
  function->set_domain("local");
  function->add_input("a");
  function->add_output("b");
  auto* node = function->add_node();
  node->set_op_type("Relu");
  node->add_input("a");
  node->add_output("b");
  auto* training = model.add_training_info();
  training->mutable_algorithm()->set_name("training");
  const Outcome with_training = Compare(model);
  EXPECT_FALSE(with_training.streamed);  // training graphs read the main graph's scope
  EXPECT_TRUE(with_training.identical) << with_training.detail;
  model.clear_training_info();
  model.GetReflection()->MutableUnknownFields(&model)->AddVarint(3000, 1);
  model.GetReflection()->MutableUnknownFields(&model)->AddLengthDelimited(2, "unknown 2");
  const Outcome o = Compare(model);
  EXPECT_TRUE(o.streamed);
  EXPECT_TRUE(o.identical) << o.detail;
}

// CanAppendValueInfo and PlanModelWrite name the fields protobuf writes after a graph's
// value_info and after a model's graph, rather than list them by reflection (which builds the
// format's descriptors): these must be every such field of the format we compile.
TEST(ValueInfoStreamTest, TheFieldsNamedAfterValueInfoAndTheGraphAreAllOfThem) {
  auto numbers_after = [](const google::protobuf::Descriptor* message, int number) {
    std::set<int> after;
    for (int i = 0; i < message->field_count(); ++i) {
      if (message->field(i)->number() > number) after.insert(message->field(i)->number());
    }
    return after;
  };
  EXPECT_EQ(numbers_after(onnx::GraphProto::descriptor(), onnx::GraphProto::kValueInfoFieldNumber),
            (std::set<int>{onnx::GraphProto::kQuantizationAnnotationFieldNumber,
                           onnx::GraphProto::kSparseInitializerFieldNumber,
                           onnx::GraphProto::kMetadataPropsFieldNumber}));
  EXPECT_EQ(
      numbers_after(onnx::ModelProto::descriptor(), onnx::ModelProto::kGraphFieldNumber),
      (std::set<int>{
          onnx::ModelProto::kOpsetImportFieldNumber, onnx::ModelProto::kMetadataPropsFieldNumber,
          onnx::ModelProto::kTrainingInfoFieldNumber, onnx::ModelProto::kFunctionsFieldNumber,
          onnx::ModelProto::kConfigurationFieldNumber}));
  // The last of them, a device configuration, after the graph as well.
  onnx::ModelProto model = Parse(kModel);
  auto* configuration = model.add_configuration();
  configuration->set_name("two devices");
  configuration->set_num_devices(2);
  const Outcome o = Compare(model);
  EXPECT_TRUE(o.streamed);
  EXPECT_TRUE(o.identical) << o.detail;
}

TEST(ValueInfoStreamTest, NoOpsetImportEmptyGraphAndUnknownTypes) {
  onnx::ModelProto no_opsets = Parse(kModel);
  no_opsets.clear_opset_import();
  no_opsets.clear_ir_version();
  onnx::ModelProto empty;
  empty.mutable_graph();
  // Outputs of an operator nobody defines: their types are unknown, so not written.
  onnx::ModelProto unknown = Parse(R"(
<ir_version: 8, opset_import: ["" : 18, "custom" : 1]>
g (float[N] x) => (float[N] y) {
  u = custom.Mystery(x)
  v = Relu(u)
  y = Relu(x)
}
)");
  for (const onnx::ModelProto* model : {&no_opsets, &empty, &unknown}) {
    const Outcome o = Compare(*model);
    EXPECT_TRUE(o.identical) << o.detail;
  }
}

TEST(ValueInfoStreamTest, RepeatedAndVariedTypes) {
  // A tensor type's bytes are made once and reused: the same type many times, scalars,
  // unknown ranks and dims, expressions, and types made whole (sequences, maps' values).
  onnx::ModelProto model = Parse(R"(
<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x, float[M] m, int64[2] shape_in, float unranked_in) => (float[N, 4] y) {
  a1 = Relu(x)
  a2 = Relu(a1)
  a3 = Sigmoid(a2)
  c = Concat<axis = 0>(a3, x)
  f = Flatten<axis = 0>(c)
  s = Shape(m)
  r = Reshape(m, shape_in)
  u = Relu(unranked_in)
  sc = ReduceSum<keepdims = 0>(m)
  seq = SequenceConstruct(x, x)
  at = SequenceAt(seq, sc_i)
  sc_i = Constant<value = int64 {0}>()
  n = NonZero(m)
  a4 = Relu(a3)
  y = Identity(a4)
}
)");
  const Outcome o = Compare(model);
  EXPECT_TRUE(o.streamed);
  EXPECT_TRUE(o.identical) << o.detail;
}

TEST(ValueInfoStreamTest, ValuesOverSeveralBlocksOfTheScope) {
  // The write-back frees the scope's values block by block (4,096 a block) as it passes them:
  // 10,000 values, the nodes listed in a shuffled order, an initializer, and a graph output
  // in the middle of the chain, whose value is written in place.
  constexpr int kNodes = 10000;
  std::vector<std::string> nodes(kNodes);
  for (int k = 0; k < kNodes; ++k) {
    const std::string in = k == 0 ? "x" : "v" + std::to_string(k - 1);
    nodes[k] = "v" + std::to_string(k) +
               (k % 3 == 0 ? " = Add(" + in + ", w)\n" : " = Relu(" + in + ")\n");
  }
  std::string text =
      "<ir_version: 8, opset_import: [\"\" : 18]>\n"
      "g (float[N, 4] x) => (float[N, 4] v5000, float[N, 4] v9999) <float[4] w = {1, 2, 3, 4}> {\n";
  for (int i = 0; i < kNodes; ++i) text += nodes[(static_cast<int64_t>(i) * 7919) % kNodes];
  text += "}\n";
  const Outcome o = Compare(Parse(text));
  EXPECT_TRUE(o.streamed);
  EXPECT_TRUE(o.identical) << o.detail;
}

TEST(ValueInfoStreamTest, NameDefinedTwiceFallsBackToMessages) {
  // Two nodes define `a`: one entry, with the last node's type, which bytes cannot give.
  onnx::ModelProto model = Parse(R"(
<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x) => (float[N, 4] y) {
  a = Relu(x)
  a = Cast<to = 7>(x)
  y = Identity(x)
}
)");
  const Outcome o = Compare(model);
  EXPECT_FALSE(o.streamed);
  EXPECT_TRUE(o.identical) << o.detail;
}

TEST(ValueInfoStreamTest, InputRedefinedTwiceFallsBackToMessages) {
  // Two nodes redefine the graph input `x` (errors both): a value two node outputs name, as
  // `a` above, though neither is its producer (FindProducers tells the write-back).
  onnx::ModelProto model = Parse(R"(
<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x) => (float[N, 4] y) {
  a = Relu(x)
  x = Sigmoid(a)
  x = Cast<to = 7>(a)
  y = Identity(a)
}
)");
  const Outcome o = Compare(model);
  EXPECT_FALSE(o.streamed);
  EXPECT_TRUE(o.identical) << o.detail;
}

TEST(ValueInfoStreamTest, InputRedefinedOnceIsStreamed) {
  // One node redefines the graph input `x` (an error): each value is named by one node
  // output at most, and the entries of the others are streamed.
  onnx::ModelProto model = Parse(R"(
<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x) => (float[N, 4] y) {
  a = Relu(x)
  x = Sigmoid(a)
  b = Sigmoid(a)
  y = Identity(b)
}
)");
  const Outcome o = Compare(model);
  EXPECT_TRUE(o.streamed);
  EXPECT_TRUE(o.identical) << o.detail;
}

TEST(ValueInfoStreamTest, NoBytesWritesAnyGraphAsSaveModelDoes) {
  onnx::ModelProto model = Parse(kModel);
  model.mutable_graph()->add_quantization_annotation()->set_tensor_name("a");
  StatusOr<std::string> got = SerializeModel(model, {});
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, model.SerializeAsString());
  onnx::ModelProto no_graph;
  EXPECT_FALSE(SerializeModel(no_graph, {}).ok());
}

}  // namespace
}  // namespace onnx_infer
