// The streamed write-back (InferenceOptions::stream_new_value_info, SaveModel with
// AppendedValueInfo): a model written with its new value_info entries as bytes is, byte for
// byte, the model inferred the usual way (entries as messages) and serialized by protobuf.
// Over every golden case, the shared real models (SHARED_DIR; skipped without), and crafted
// models for the framing: fields after value_info, unknown fields, model fields after the
// graph.
#include <fcntl.h>
#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/unknown_field_set.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
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
  bool spliced = false;    // and the write from the model's file copied nodes or initializers
  std::string detail;
};

// A file of this process's own, for the model the spliced write reads again.
std::string SourceFile() {
  static int count = 0;
  return (fs::path(::testing::TempDir()) / ("value-info-stream-" + std::to_string(::getpid()) +
                                            "-" + std::to_string(count++) + ".onnx"))
      .string();
}

// The model parsed from `file` holding `bytes`, on `arena`, with where it came from.
onnx::ModelProto* ParsedFrom(const std::string& file, const std::string& bytes,
                             google::protobuf::Arena* arena, ModelSource* source) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  return TryParseModelFromFile(file, arena, source);
}

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
  // The streamed write of the model parsed from its file, with the file as the source: the
  // nodes and initializers copied from it.
  std::string source_bytes;
  if (!model.SerializeToString(&source_bytes)) {
    outcome.detail = "protobuf cannot serialize the model";
    return outcome;
  }
  const std::string source_file = SourceFile();
  google::protobuf::Arena arena;
  ModelSource source;
  onnx::ModelProto* parsed = ParsedFrom(source_file, source_bytes, &arena, &source);
  if (parsed != nullptr) {
    // What protobuf writes for the model as parsed (a crafted unknown field may read back as
    // a known one).
    onnx::ModelProto parsed_messages = *parsed;
    InferenceOptions message_options = options;
    message_options.stream_new_value_info = false;
    InferShapes(parsed_messages, BuiltinSchemas(), message_options);
    const std::string want_parsed = parsed_messages.SerializeAsString();
    const InferenceResult from_file = InferShapes(*parsed, BuiltinSchemas(), options);
    {
      StatusOr<ModelWritePlan> plan =
          PlanModelWrite(*parsed, from_file.new_value_info, source_file, &source);
      outcome.spliced = plan.ok() && (plan->spliced_nodes() || plan->spliced_initializers());
    }
    StatusOr<std::string> spliced = SerializeModel(*parsed, from_file.new_value_info, &source);
    fs::remove(source_file);
    if (!spliced.ok() || *spliced != want_parsed) {
      outcome.detail = spliced.ok() ? "the bytes written from the model's file differ"
                                    : spliced.status().message();
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
  int streamed = 0, parsed = 0, spliced = 0;
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
    spliced += o.spliced;
  }
  // Most cases are a node or two whose outputs are the graph's: no new entries.
  EXPECT_GE(streamed, 40) << "few of " << parsed << " cases took the streamed path";
  EXPECT_GE(spliced, 40) << "few of " << parsed << " cases copied nodes from their file";
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

// ---- The write from the model's file (PlanModelWrite with a source).

// A length-delimited field: its key, its length, `payload`.
std::string Field(int number, const std::string& payload) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  {
    google::protobuf::io::CodedOutputStream out(&stream);
    out.WriteTag(static_cast<uint32_t>(number << 3 | 2));
    out.WriteVarint32(static_cast<uint32_t>(payload.size()));
    out.WriteString(payload);
  }
  return bytes;
}

// kModel with an initializer, its pieces as bytes, to lay out in any order.
struct Pieces {
  std::vector<std::string> nodes;  // each a graph field
  std::string initializer, name, rest, model_head, model_tail;
};

Pieces PiecesOf(const onnx::ModelProto& model) {
  Pieces p;
  const onnx::GraphProto& g = model.graph();
  for (const onnx::NodeProto& n : g.node()) {
    p.nodes.push_back(Field(onnx::GraphProto::kNodeFieldNumber, n.SerializeAsString()));
  }
  for (const onnx::TensorProto& t : g.initializer()) {
    p.initializer += Field(onnx::GraphProto::kInitializerFieldNumber, t.SerializeAsString());
  }
  p.name = Field(onnx::GraphProto::kNameFieldNumber, g.name());
  onnx::GraphProto rest = g;
  rest.clear_node();
  rest.clear_initializer();
  rest.clear_name();
  p.rest = rest.SerializeAsString();
  onnx::ModelProto head = model;
  head.clear_graph();
  head.clear_opset_import();
  p.model_head = head.SerializeAsString();
  onnx::ModelProto tail;
  *tail.mutable_opset_import() = model.opset_import();
  p.model_tail = tail.SerializeAsString();
  return p;
}

onnx::ModelProto WithInitializer() {
  onnx::ModelProto model = Parse(kModel);
  onnx::TensorProto* w = model.mutable_graph()->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(4);
  w->add_dims(3);
  for (int i = 0; i < 12; ++i) w->add_float_data(0.5f * i);
  return model;
}

class SplicedWriteTest : public testing::ScratchDirTest {
 protected:
  // The model parsed from `file` (on arena_, where it came from in source_), inferred with its
  // new entries as bytes (result_); messages_, the same model inferred the usual way.
  onnx::ModelProto* ParseAndInfer(const std::string& file) {
    model_ = TryParseModelFromFile(file, &arena_, &source_);
    if (model_ == nullptr) return nullptr;
    messages_ = *model_;
    InferenceOptions options;
    options.record_value_types = false;
    InferShapes(messages_, BuiltinSchemas(), options);
    options.stream_new_value_info = true;
    result_ = InferShapes(*model_, BuiltinSchemas(), options);
    return model_;
  }

  // The model written from `bytes` (a file), with its file as the source, against protobuf's
  // writing of the same model inferred; what was copied.
  void Check(const std::string& bytes, bool nodes, bool initializers) {
    const std::string file = Write("m.onnx", bytes);
    onnx::ModelProto* model = ParseAndInfer(file);
    ASSERT_NE(model, nullptr);
    const onnx::ModelProto& messages = messages_;
    const InferenceResult& result = result_;
    const ModelSource& source = source_;
    {
      auto plan = PlanModelWrite(*model, result.new_value_info, file, &source);
      ASSERT_TRUE(plan.ok()) << plan.status().message();
      EXPECT_EQ(plan->spliced_nodes(), nodes);
      EXPECT_EQ(plan->spliced_initializers(), initializers);
    }
    const std::string out = (dir_ / "out.onnx").string();
    ASSERT_TRUE(SaveModel(*model, result.new_value_info, out, &source).ok());
    std::ifstream in(out, std::ios::binary);
    std::stringstream written;
    written << in.rdbuf();
    EXPECT_EQ(written.str(), messages.SerializeAsString());
    // The model is whole again.
    EXPECT_EQ(model->graph().node_size(), messages.graph().node_size());
    EXPECT_EQ(model->graph().initializer_size(), messages.graph().initializer_size());
    EXPECT_EQ(model->graph().name(), messages.graph().name());
  }

  google::protobuf::Arena arena_;
  ModelSource source_;
  onnx::ModelProto* model_ = nullptr;
  onnx::ModelProto messages_;
  InferenceResult result_;
};

TEST_F(SplicedWriteTest, AsProtobufWritesIt) {
  Check(WithInitializer().SerializeAsString(), true, true);
}

// Runs in other places and orders of the file are copied where they are whole: the model
// written is protobuf's, in its order.
TEST_F(SplicedWriteTest, RunsInAnyOrder) {
  const Pieces p = PiecesOf(WithInitializer());
  std::string nodes;
  for (const std::string& n : p.nodes) nodes += n;
  const std::string graph = p.rest + p.initializer + nodes + p.name;
  Check(p.model_head + Field(onnx::ModelProto::kGraphFieldNumber, graph) + p.model_tail, true,
        true);
}

TEST_F(SplicedWriteTest, NodesApartAreSerialized) {
  const Pieces p = PiecesOf(WithInitializer());
  std::string graph = p.nodes[0] + p.initializer + p.name;
  for (size_t i = 1; i < p.nodes.size(); ++i) graph += p.nodes[i];
  graph += p.rest;
  Check(p.model_head + Field(onnx::ModelProto::kGraphFieldNumber, graph) + p.model_tail, false,
        true);
}

// A file protobuf did not write keeps its encoding where a run is copied: here an
// initializer's floats unpacked (protobuf packs them), and a node's fields out of order. The
// model written is the same model (it parses to protobuf's), in the file's bytes.
TEST_F(SplicedWriteTest, ACopiedRunKeepsTheFilesOwnEncoding) {
  onnx::ModelProto model = WithInitializer();
  Pieces p = PiecesOf(model);
  // The initializer with float_data (field 4) unpacked: one fixed32 field per element.
  const onnx::TensorProto& w = model.graph().initializer(0);
  onnx::TensorProto rest = w;
  rest.clear_float_data();
  std::string unpacked = rest.SerializeAsString();
  for (float f : w.float_data()) {
    std::string element;
    google::protobuf::io::StringOutputStream stream(&element);
    {
      google::protobuf::io::CodedOutputStream out(&stream);
      out.WriteTag(onnx::TensorProto::kFloatDataFieldNumber << 3 | 5);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      out.WriteLittleEndian32(bits);
    }
    unpacked += element;
  }
  p.initializer = Field(onnx::GraphProto::kInitializerFieldNumber, unpacked);
  // The first node's op_type (field 4) before its inputs and outputs.
  const onnx::NodeProto& first = model.graph().node(0);
  onnx::NodeProto others = first;
  others.clear_op_type();
  std::string op_type;
  {
    google::protobuf::io::StringOutputStream stream(&op_type);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.WriteTag(onnx::NodeProto::kOpTypeFieldNumber << 3 | 2);
    out.WriteVarint32(static_cast<uint32_t>(first.op_type().size()));
    out.WriteString(first.op_type());
  }
  p.nodes[0] = Field(onnx::GraphProto::kNodeFieldNumber, op_type + others.SerializeAsString());
  std::string nodes;
  for (const std::string& n : p.nodes) nodes += n;
  const std::string bytes =
      p.model_head +
      Field(onnx::ModelProto::kGraphFieldNumber, nodes + p.name + p.initializer + p.rest) +
      p.model_tail;
  onnx::ModelProto* parsed = ParseAndInfer(Write("m.onnx", bytes));
  ASSERT_NE(parsed, nullptr);
  const onnx::ModelProto& messages = messages_;
  StatusOr<std::string> written = SerializeModel(*parsed, result_.new_value_info, &source_);
  ASSERT_TRUE(written.ok()) << written.status().message();
  // The file's runs, as they were.
  EXPECT_NE(written->find(nodes), std::string::npos);
  EXPECT_NE(written->find(p.initializer), std::string::npos);
  EXPECT_NE(*written, messages.SerializeAsString());
  // The same model.
  onnx::ModelProto reread;
  ASSERT_TRUE(reread.ParseFromString(*written));
  EXPECT_EQ(reread.SerializeAsString(), messages.SerializeAsString());
}

// The graph field twice: protobuf merges the two, which are not copied.
TEST_F(SplicedWriteTest, GraphFieldTwiceIsSerialized) {
  const Pieces p = PiecesOf(WithInitializer());
  std::string nodes;
  for (const std::string& n : p.nodes) nodes += n;
  Check(p.model_head + Field(onnx::ModelProto::kGraphFieldNumber, nodes + p.name) +
            Field(onnx::ModelProto::kGraphFieldNumber, p.initializer + p.rest) + p.model_tail,
        false, false);
}

// Inference annotates the subgraphs of a node with a graph attribute: such nodes are
// serialized from the messages; the initializers are still copied.
TEST_F(SplicedWriteTest, NodesWithSubgraphsAreSerialized) {
  onnx::ModelProto model = Parse(R"(
<ir_version: 8, opset_import: ["" : 18]>
g (bool c, float[N, 4] x) => (float[N, 4] y) {
  a = Relu(x)
  y = If(c) <then_branch = t () => (float[N, 4] z) { z = Sigmoid(a) },
             else_branch = e () => (float[N, 4] z) { z = Relu(a) }>
}
)");
  *model.mutable_graph()->add_initializer() = WithInitializer().graph().initializer(0);
  Check(model.SerializeAsString(), false, true);
}

TEST_F(SplicedWriteTest, AFileChangedSinceItWasReadIsNotReadAgain) {
  const std::string file = Write("m.onnx", WithInitializer().SerializeAsString());
  onnx::ModelProto* model = ParseAndInfer(file);
  ASSERT_NE(model, nullptr);
  ModelSource touched = source_;
  touched.modified_ns += 1;  // as if the file had been written since
  auto plan = PlanModelWrite(*model, result_.new_value_info, file, &touched);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->splice);
}

// A file written to between the plan and the end of the write: the write fails, and the
// target is left as it was.
TEST_F(SplicedWriteTest, AFileChangedWhileCopiedFailsTheWrite) {
  const std::string file = Write("m.onnx", WithInitializer().SerializeAsString());
  const std::string target = Write("out.onnx", "old contents");
  onnx::ModelProto* model = ParseAndInfer(file);
  ASSERT_NE(model, nullptr);
  auto plan = PlanModelWrite(*model, result_.new_value_info, file, &source_);
  ASSERT_TRUE(plan.ok());
  ASSERT_TRUE(plan->spliced_nodes());
  std::ofstream(file, std::ios::binary | std::ios::app) << "more";
  {
    auto out = OutputFile::Open(target);
    ASSERT_TRUE(out.ok());
    Status st = out->WriteModel(*model, *plan);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("changed while it was copied"), std::string::npos) << st.message();
  }
  std::ifstream in(target, std::ios::binary);
  std::stringstream kept;
  kept << in.rdbuf();
  EXPECT_EQ(kept.str(), "old contents");
}

// Written through a descriptor onto the model's own file (`1<>model.onnx`): nothing is
// copied from the file the write overwrites, and the file holds the model written.
TEST_F(SplicedWriteTest, OntoTheModelsOwnFileNothingIsCopied) {
  // Larger than the write's buffers, so that the write reaches the file during the copy.
  onnx::ModelProto expected = WithInitializer();
  std::string last = "y";
  for (int i = 0; i < 20000; ++i) {
    onnx::NodeProto* node = expected.mutable_graph()->add_node();
    node->set_op_type("Relu");
    node->add_input(last);
    last = "/layers." + std::to_string(i) + "/act/Relu_output_0";
    node->add_output(last);
  }
  const std::string file = Write("m.onnx", expected.SerializeAsString());
  onnx::ModelProto* model = ParseAndInfer(file);
  ASSERT_NE(model, nullptr);
  const int fd = ::open(file.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(SaveModelToDescriptor(*model, result_.new_value_info, fd, file, &source_).ok());
  ::close(fd);
  std::ifstream in(file, std::ios::binary);
  std::stringstream written;
  written << in.rdbuf();
  EXPECT_EQ(written.str(), messages_.SerializeAsString());
}

// ---- Initializer data left in the file at the parse (FileParseOptions).

// A float tensor of `count` elements in raw_data, its bytes a pattern.
onnx::TensorProto RawTensor(const std::string& name, int count) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(count);
  std::string raw(static_cast<size_t>(count) * 4, '\0');
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<char>(i % 251);
  t.set_raw_data(raw);
  return t;
}

// kModel with w, a large tensor and a small one in raw_data.
onnx::ModelProto WithLargeData() {
  onnx::ModelProto model = WithInitializer();
  *model.mutable_graph()->add_initializer() = RawTensor("large", 8192);  // 32 KiB
  *model.mutable_graph()->add_initializer() = RawTensor("small", 4);
  return model;
}

class RawDataInFileTest : public SplicedWriteTest {
 protected:
  // The model in `bytes` parsed as the CLI parses it (large raw_data left in the file) and
  // whole; the two agree once the data is read back (ExpectWholeOnceRead). Leaves the first
  // in model_ (inferred, source_), the second, inferred the usual way, in messages_.
  void ParseBoth(const std::string& bytes, uint64_t above = kLeaveRawDataAboveMin) {
    file_ = Write("m.onnx", bytes);
    FileParseOptions options;
    options.leave_raw_data_above = above;
    model_ = TryParseModelFromFile(file_, &arena_, &source_, options);
    ASSERT_NE(model_, nullptr);
    whole_.ParseFromString(bytes);
    for (const RawDataInFile& r : source_.raw_data_in_file) {
      EXPECT_FALSE(r.tensor->has_raw_data());
      EXPECT_GT(r.size, above);
      EXPECT_EQ(bytes.substr(r.offset, r.size).size(), r.size);
    }
    ExpectWholeOnceRead();
    messages_ = whole_;
    InferenceOptions inference;
    inference.record_value_types = false;
    InferShapes(messages_, BuiltinSchemas(), inference);
    inference.stream_new_value_info = true;
    result_ = InferShapes(*model_, BuiltinSchemas(), inference);
  }

  // The model parsed with its data left, read back (in a copy): the whole parse's.
  void ExpectWholeOnceRead() {
    onnx::ModelProto copy = *model_;
    ModelSource source = source_;
    // The copy's tensors stand for the arena's in a copy of the source.
    for (RawDataInFile& r : source.raw_data_in_file) {
      const auto& list = model_->graph().initializer();
      const int at = static_cast<int>(
          std::find_if(list.begin(), list.end(),
                       [&](const onnx::TensorProto& t) { return &t == r.tensor; }) -
          list.begin());
      ASSERT_LT(at, list.size());
      r.tensor = copy.mutable_graph()->mutable_initializer(at);
    }
    ASSERT_TRUE(RestoreRawData(source, file_).ok());
    EXPECT_TRUE(copy.SerializeAsString() == whole_.SerializeAsString());
  }

  std::string Written(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream written;
    written << in.rdbuf();
    return written.str();
  }

  std::string file_;
  onnx::ModelProto whole_;
};

// The CLI's case: the large data stays in the file, the small is read, inference sees the
// same types, and the write copies the initializers from the file: protobuf's bytes.
TEST_F(RawDataInFileTest, LargeDataStaysInTheFileAndTheWriteCopiesIt) {
  ParseBoth(WithLargeData().SerializeAsString());
  ASSERT_EQ(source_.raw_data_in_file.size(), 1u);
  EXPECT_EQ(source_.raw_data_in_file[0].tensor->name(), "large");
  EXPECT_EQ(source_.raw_data_in_file[0].size, 8192u * 4);
  EXPECT_EQ(source_.raw_data_in_file[0].tensor->dims(0), 8192);
  EXPECT_TRUE(model_->graph().initializer(2).has_raw_data());  // "small"
  EXPECT_TRUE(source_.framed);
  {
    auto plan = PlanModelWrite(*model_, result_.new_value_info, file_, &source_);
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    EXPECT_TRUE(plan->spliced_initializers());
  }
  EXPECT_FALSE(model_->graph().initializer(1).has_raw_data());  // copied, not read back
  const std::string out = (dir_ / "out.onnx").string();
  ASSERT_TRUE(SaveModel(*model_, result_.new_value_info, out, &source_).ok());
  EXPECT_EQ(Written(out), messages_.SerializeAsString());
}

// Framings protobuf does not write: raw_data before the dims and with fields after it, a
// tensor's fields unknown to this onnx.proto, graph fields between the initializers, large
// tensors in a row, model fields after the graph. Each piece parses where the whole parse
// puts it.
TEST_F(RawDataInFileTest, ThePiecesParseAsTheWholeFile) {
  const Pieces p = PiecesOf(WithInitializer());
  onnx::TensorProto head = RawTensor("reordered", 5000);
  head.clear_raw_data();
  head.set_doc_string("after the data");
  std::string reordered = Field(onnx::TensorProto::kRawDataFieldNumber, std::string(20000, 'r'));
  reordered += head.SerializeAsString();
  reordered += Field(99, "an unknown field");
  std::string nodes;
  for (const std::string& n : p.nodes) nodes += n;
  const std::string graph =
      nodes + p.name +
      Field(onnx::GraphProto::kInitializerFieldNumber, RawTensor("a", 6000).SerializeAsString()) +
      Field(onnx::GraphProto::kInitializerFieldNumber, RawTensor("b", 7000).SerializeAsString()) +
      Field(onnx::GraphProto::kDocStringFieldNumber, "between") + p.initializer +
      Field(onnx::GraphProto::kInitializerFieldNumber, reordered) + p.rest;
  ParseBoth(p.model_head + Field(onnx::ModelProto::kGraphFieldNumber, graph) + p.model_tail);
  ASSERT_EQ(source_.raw_data_in_file.size(), 3u);
  EXPECT_EQ(model_->graph().initializer(3).doc_string(), "after the data");
  // The write copies the nodes and serializes the initializers (apart in the file), their
  // data read back: the same model.
  StatusOr<std::string> written = SerializeModel(*model_, result_.new_value_info, &source_);
  ASSERT_TRUE(written.ok()) << written.status().message();
  onnx::ModelProto reread;
  ASSERT_TRUE(reread.ParseFromString(*written));
  EXPECT_EQ(reread.SerializeAsString(), messages_.SerializeAsString());
}

// Entries shorter than 16 KiB lie in runs the framing steps over at once: with a bound below
// that, each is looked into.
TEST_F(RawDataInFileTest, ShortEntriesInARunWithALowBound) {
  onnx::ModelProto model = WithInitializer();
  for (int i = 0; i < 5; ++i) {
    *model.mutable_graph()->add_initializer() = RawTensor("t" + std::to_string(i), 100 + i * 400);
  }
  ParseBoth(model.SerializeAsString(), /*above=*/1000);
  EXPECT_EQ(source_.raw_data_in_file.size(), 4u);  // 2,000 to 6,800 bytes; not t0's 400
}

// A tensor with raw_data twice (the last counts) keeps both; the file is parsed whole when
// no tensor is left.
TEST_F(RawDataInFileTest, RawDataTwiceIsRead) {
  const Pieces p = PiecesOf(WithInitializer());
  const std::string twice = RawTensor("twice", 5000).SerializeAsString() +
                            Field(onnx::TensorProto::kRawDataFieldNumber, std::string(20000, 't'));
  std::string nodes;
  for (const std::string& n : p.nodes) nodes += n;
  ParseBoth(p.model_head +
            Field(onnx::ModelProto::kGraphFieldNumber,
                  nodes + p.name + p.initializer +
                      Field(onnx::GraphProto::kInitializerFieldNumber, twice) + p.rest) +
            p.model_tail);
  EXPECT_TRUE(source_.raw_data_in_file.empty());
  EXPECT_EQ(model_->graph().initializer(1).raw_data(), std::string(20000, 't'));
}

// Writes that serialize the initializers read the data back first: initializers apart in
// the file, no entries to append, the model's own file as the output.
TEST_F(RawDataInFileTest, WritesThatSerializeTheInitializersReadTheDataBack) {
  const onnx::ModelProto model = WithLargeData();
  const Pieces p = PiecesOf(model);
  std::string nodes;
  for (const std::string& n : p.nodes) nodes += n;
  // The initializers apart: w, then the graph's rest, then the large and the small.
  onnx::GraphProto large_ones;
  *large_ones.add_initializer() = model.graph().initializer(1);
  *large_ones.add_initializer() = model.graph().initializer(2);
  std::string w = Field(onnx::GraphProto::kInitializerFieldNumber,
                        model.graph().initializer(0).SerializeAsString());
  ParseBoth(p.model_head +
            Field(onnx::ModelProto::kGraphFieldNumber,
                  nodes + p.name + w + p.rest + large_ones.SerializeAsString()) +
            p.model_tail);
  ASSERT_EQ(source_.raw_data_in_file.size(), 1u);
  {
    auto plan = PlanModelWrite(*model_, result_.new_value_info, file_, &source_);
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    EXPECT_FALSE(plan->spliced_initializers());
  }
  EXPECT_TRUE(source_.raw_data_in_file[0].tensor->has_raw_data());
  const std::string out = (dir_ / "out.onnx").string();
  ASSERT_TRUE(SaveModel(*model_, result_.new_value_info, out, &source_).ok());
  EXPECT_EQ(Written(out), messages_.SerializeAsString());

  // No entries to append: SaveModel's whole serialization.
  ParseBoth(model.SerializeAsString());
  ASSERT_EQ(source_.raw_data_in_file.size(), 1u);
  ASSERT_TRUE(SaveModel(*model_, AppendedValueInfo{}, out, &source_).ok());
  EXPECT_EQ(Written(out), whole_.SerializeAsString());

  // Onto the model's own file: read back before the file is overwritten.
  ParseBoth(model.SerializeAsString());
  const int fd = ::open(file_.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(SaveModelToDescriptor(*model_, result_.new_value_info, fd, file_, &source_).ok());
  ::close(fd);
  EXPECT_EQ(Written(file_), messages_.SerializeAsString());
}

// A file written to after the parse: its data is not read back, the write fails, and the
// target is left as it was.
TEST_F(RawDataInFileTest, AFileChangedSinceTheParseFailsAWriteThatReadsItsData) {
  ParseBoth(WithLargeData().SerializeAsString());
  ASSERT_EQ(source_.raw_data_in_file.size(), 1u);
  std::ofstream(file_, std::ios::binary | std::ios::app) << "more";
  const std::string target = Write("out.onnx", "old contents");
  Status st = SaveModel(*model_, AppendedValueInfo{}, target, &source_);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("changed since it was read"), std::string::npos) << st.message();
  EXPECT_EQ(Written(target), "old contents");
  EXPECT_FALSE(source_.raw_data_in_file[0].tensor->has_raw_data());
}

// A malformed node in a file with large data: no model, as for the whole parse (the
// buffered read then says what is wrong).
TEST_F(RawDataInFileTest, AMalformedFileIsNoModel) {
  const Pieces p = PiecesOf(WithLargeData());
  std::string nodes;
  for (const std::string& n : p.nodes) nodes += n;
  const std::string broken = Field(onnx::GraphProto::kNodeFieldNumber,
                                   "\x0a\x7f"
                                   "abc");
  const std::string bytes =
      p.model_head +
      Field(onnx::ModelProto::kGraphFieldNumber, nodes + broken + p.name + p.initializer + p.rest) +
      p.model_tail;
  const std::string file = Write("m.onnx", bytes);
  FileParseOptions options;
  options.leave_raw_data_above = kLeaveRawDataAboveMin;
  ModelSource source;
  EXPECT_EQ(TryParseModelFromFile(file, &arena_, &source, options), nullptr);
  onnx::ModelProto whole;
  EXPECT_FALSE(whole.ParseFromString(bytes));
}

// The spliced write puts the graph's name between its nodes and its initializers, where
// protobuf writes it: no other field of the format comes between them.
TEST(ValueInfoStreamTest, OnlyTheNameIsNumberedBetweenNodesAndInitializers) {
  const google::protobuf::Descriptor* graph = onnx::GraphProto::descriptor();
  std::set<int> below;
  for (int i = 0; i < graph->field_count(); ++i) {
    if (graph->field(i)->number() < onnx::GraphProto::kInitializerFieldNumber) {
      below.insert(graph->field(i)->number());
    }
  }
  EXPECT_EQ(below, (std::set<int>{onnx::GraphProto::kNodeFieldNumber,
                                  onnx::GraphProto::kNameFieldNumber}));
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
