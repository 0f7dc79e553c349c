#include "onnx_infer/bench/workloads.h"

#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>

#include "onnx_infer/base/strings.h"

namespace onnx_infer::bench {
namespace {

constexpr int64_t kOpset = 17;  // LayerNormalization's; the newest ONNX 1.12 knows
constexpr int64_t kIrVersion = 8;
// Exporters keep tensors below this many bytes inside the model (ONNX's
// convert_model_to_external_data default), so small integer shapes stay readable.
constexpr int64_t kExternalThreshold = 1024;

constexpr int64_t kDecoderBlock = 20;
constexpr int64_t kDecoderHidden = 64, kDecoderHeads = 4, kDecoderHeadDim = 16;
constexpr int64_t kChainBlock = 4;
constexpr int64_t kChainHidden = 16;  // per-layer weights small enough for 1M nodes < 2 GiB
constexpr int64_t kCnnStem = 3, kCnnBlock = 7;
constexpr int64_t kCnnChannels = 8;
constexpr int64_t kTinyBlock = 1;

// Weights: a fixed linear congruential sequence, so that every run writes the same bytes and
// the file compresses no better than a real one.
class WeightSource {
 public:
  float Next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (static_cast<float>(state_ >> 40) / 16777216.0f - 0.5f) * 0.2f;
  }

 private:
  uint64_t state_ = 0x5eed;
};

// Builds a graph the way exporters name things: node "/layers.3/attn/MatMul" with output
// "/layers.3/attn/MatMul_output_0", weight "layers.3.proj.weight".
class GraphWriter {
 public:
  GraphWriter(onnx::GraphProto* graph, const WorkloadOptions& options, bool external)
      : graph_(graph), options_(options), external_(external) {}

  // Adds a node with one output and returns it; the output is named after the node.
  onnx::NodeProto* Node(std::string_view op, const std::string& name,
                        std::initializer_list<std::string_view> inputs) {
    onnx::NodeProto* node = graph_->add_node();
    node->set_op_type(std::string(op));
    node->set_name(name);
    for (std::string_view in : inputs) node->add_input(std::string(in));
    node->add_output(name + "_output_0");
    return node;
  }
  static const std::string& Out(const onnx::NodeProto* node) { return node->output(0); }

  static void Int(onnx::NodeProto* node, const char* name, int64_t value) {
    onnx::AttributeProto* a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
  }
  static void Ints(onnx::NodeProto* node, const char* name, std::initializer_list<int64_t> values) {
    onnx::AttributeProto* a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
  }
  static void Float(onnx::NodeProto* node, const char* name, float value) {
    onnx::AttributeProto* a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(value);
  }

  // A float initializer: raw bytes inside the model, or for an external workload a range of
  // the data file when it is at least kExternalThreshold bytes.
  const std::string& Weight(const std::string& name, std::initializer_list<int64_t> dims) {
    onnx::TensorProto* t = graph_->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    int64_t count = 1;
    for (int64_t d : dims) {
      t->add_dims(d);
      count *= d;
    }
    const int64_t bytes = count * static_cast<int64_t>(sizeof(float));
    if (external_ && bytes >= kExternalThreshold) {
      t->set_data_location(onnx::TensorProto::EXTERNAL);
      auto entry = [&](const char* key, const std::string& value) {
        onnx::StringStringEntryProto* e = t->add_external_data();
        e->set_key(key);
        e->set_value(value);
      };
      entry("location", options_.data_location);
      entry("offset", std::to_string(data_size_));
      entry("length", std::to_string(bytes));
      data_size_ += bytes;
    } else {
      std::string* raw = t->mutable_raw_data();
      raw->resize(static_cast<size_t>(bytes));
      char* p = raw->data();
      for (int64_t i = 0; i < count; ++i, p += sizeof(float)) {
        const float v = weights_.Next();
        std::memcpy(p, &v, sizeof v);
      }
    }
    return t->name();
  }

  // A small int64 initializer (shapes, axes, indices): always inside the model, as exporters
  // keep them, since inference needs their values.
  const std::string& Int64s(const std::string& name, std::initializer_list<int64_t> dims,
                            std::initializer_list<int64_t> values) {
    onnx::TensorProto* t = graph_->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : dims) t->add_dims(d);
    for (int64_t v : values) t->add_int64_data(v);
    return t->name();
  }

  // A graph input or output: float with the given dims ("B", "64"); none: rank unknown.
  static void Declare(onnx::ValueInfoProto* v, const std::string& name,
                      std::initializer_list<std::string_view> dims, bool has_shape = true) {
    v->set_name(name);
    onnx::TypeProto::Tensor* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    if (!has_shape) return;
    onnx::TensorShapeProto* shape = t->mutable_shape();
    for (std::string_view d : dims) {
      onnx::TensorShapeProto::Dimension* dim = shape->add_dim();
      if (!d.empty() && d[0] >= '0' && d[0] <= '9') {
        dim->set_dim_value(std::stoll(std::string(d)));
      } else {
        dim->set_dim_param(std::string(d));
      }
    }
  }

  // Appends Relu nodes after `x` until the graph has `nodes` nodes; returns the last value.
  std::string Pad(std::string x, int64_t nodes) {
    for (int64_t i = 0; graph_->node_size() < nodes; ++i) {
      x = Out(Node("Relu", StrCat("/pad/Relu_", i), {x}));
    }
    return x;
  }

  onnx::GraphProto* graph() { return graph_; }
  int64_t data_size() const { return data_size_; }

 private:
  onnx::GraphProto* graph_;
  const WorkloadOptions& options_;
  bool external_;
  WeightSource weights_;
  int64_t data_size_ = 0;
};

// One attention block of 20 nodes on x: float[B, S, 64]; returns its output, float[B, S, 64].
std::string DecoderBlock(GraphWriter& g, int64_t i, const std::string& x) {
  const std::string p = StrCat("/layers.", i);
  const std::string w = StrCat("layers.", i);
  auto* proj = g.Node("MatMul", p + "/proj/MatMul",
                      {x, g.Weight(w + ".proj.weight", {kDecoderHidden, kDecoderHidden})});
  auto* bias =
      g.Node("Add", p + "/proj/Add", {g.Out(proj), g.Weight(w + ".proj.bias", {kDecoderHidden})});
  const std::string& h = g.Out(bias);
  // The exporters' dynamic reshape: [B, S] from Shape, then [B, S, heads, head_dim].
  auto* shape = g.Node("Shape", p + "/attn/Shape", {h});
  auto* batch = g.Node("Gather", p + "/attn/Gather", {g.Out(shape), "const_index_0"});
  g.Int(batch, "axis", 0);
  auto* seq = g.Node("Gather", p + "/attn/Gather_1", {g.Out(shape), "const_index_1"});
  g.Int(seq, "axis", 0);
  auto* batch1 = g.Node("Unsqueeze", p + "/attn/Unsqueeze", {g.Out(batch), "const_axes_0"});
  auto* seq1 = g.Node("Unsqueeze", p + "/attn/Unsqueeze_1", {g.Out(seq), "const_axes_0"});
  auto* heads_shape =
      g.Node("Concat", p + "/attn/Concat", {g.Out(batch1), g.Out(seq1), "const_heads_shape"});
  g.Int(heads_shape, "axis", 0);
  auto* heads = g.Node("Reshape", p + "/attn/Reshape", {h, g.Out(heads_shape)});
  auto* q = g.Node("Transpose", p + "/attn/Transpose", {g.Out(heads)});  // [B, 4, S, 16]
  g.Ints(q, "perm", {0, 2, 1, 3});
  auto* k = g.Node("Transpose", p + "/attn/Transpose_1", {g.Out(heads)});  // [B, 4, 16, S]
  g.Ints(k, "perm", {0, 2, 3, 1});
  auto* scores = g.Node("MatMul", p + "/attn/MatMul", {g.Out(q), g.Out(k)});
  auto* probs = g.Node("Softmax", p + "/attn/Softmax", {g.Out(scores)});
  g.Int(probs, "axis", -1);
  auto* context = g.Node("MatMul", p + "/attn/MatMul_1", {g.Out(probs), g.Out(q)});
  auto* merged = g.Node("Transpose", p + "/attn/Transpose_2", {g.Out(context)});
  g.Ints(merged, "perm", {0, 2, 1, 3});
  auto* hidden_shape =
      g.Node("Concat", p + "/attn/Concat_1", {g.Out(batch1), g.Out(seq1), "const_hidden_shape"});
  g.Int(hidden_shape, "axis", 0);
  auto* out = g.Node("Reshape", p + "/attn/Reshape_1", {g.Out(merged), g.Out(hidden_shape)});
  auto* residual = g.Node("Add", p + "/Add", {g.Out(out), x});
  auto* norm = g.Node("LayerNormalization", p + "/norm/LayerNormalization",
                      {g.Out(residual), g.Weight(w + ".norm.weight", {kDecoderHidden}),
                       g.Weight(w + ".norm.bias", {kDecoderHidden})});
  g.Int(norm, "axis", -1);
  g.Float(norm, "epsilon", 1e-5f);
  return g.Out(g.Node("Relu", p + "/act/Relu", {g.Out(norm)}));
}

void Decoder(GraphWriter& g, int64_t nodes, bool external, const WorkloadOptions& options) {
  onnx::GraphProto* graph = g.graph();
  graph->set_name("decoder");
  GraphWriter::Declare(graph->add_input(), "hidden_states", {"B", "S", "64"});
  g.Int64s("const_index_0", {}, {0});
  g.Int64s("const_index_1", {}, {1});
  g.Int64s("const_axes_0", {1}, {0});
  g.Int64s("const_heads_shape", {2}, {kDecoderHeads, kDecoderHeadDim});
  g.Int64s("const_hidden_shape", {1}, {kDecoderHidden});
  const int64_t tail = external ? 1 : 0;
  std::string x = "hidden_states";
  for (int64_t i = 0; graph->node_size() + kDecoderBlock + tail <= nodes; ++i) {
    x = DecoderBlock(g, i, x);
  }
  x = g.Pad(x, nodes - tail);
  if (!external) {
    GraphWriter::Declare(graph->add_output(), x, {"B", "S", "64"});
    return;
  }
  // The output projection whose weight makes the data file several GiB.
  const int64_t vocab = options.projection_bytes / (kDecoderHidden * int64_t{sizeof(float)});
  auto* logits =
      g.Node("MatMul", "/lm_head/MatMul", {x, g.Weight("lm_head.weight", {kDecoderHidden, vocab})});
  GraphWriter::Declare(graph->add_output(), g.Out(logits), {"B", "S", std::to_string(vocab)});
}

void Chain(GraphWriter& g, int64_t nodes) {
  onnx::GraphProto* graph = g.graph();
  graph->set_name("chain");
  GraphWriter::Declare(graph->add_input(), "x", {"B", "S", "16"});
  std::string x = "x";
  for (int64_t i = 0; graph->node_size() + kChainBlock <= nodes; ++i) {
    const std::string p = StrCat("/layers.", i);
    const std::string w = StrCat("layers.", i);
    auto* relu = g.Node("Relu", p + "/Relu", {x});
    auto* add = g.Node("Add", p + "/Add", {g.Out(relu), g.Weight(w + ".bias", {kChainHidden})});
    auto* matmul = g.Node("MatMul", p + "/MatMul",
                          {g.Out(add), g.Weight(w + ".weight", {kChainHidden, kChainHidden})});
    x = g.Out(g.Node("Sigmoid", p + "/Sigmoid", {g.Out(matmul)}));
  }
  x = g.Pad(x, nodes);
  GraphWriter::Declare(graph->add_output(), x, {"B", "S", "16"});
}

void Cnn(GraphWriter& g, int64_t nodes) {
  onnx::GraphProto* graph = g.graph();
  graph->set_name("cnn");
  GraphWriter::Declare(graph->add_input(), "pixel_values", {"N", "3", "H", "W"});
  // Stem: a strided 7x7 convolution and a strided pool, so H and W become floor expressions.
  auto* stem = g.Node("Conv", "/stem/Conv",
                      {"pixel_values", g.Weight("stem.weight", {kCnnChannels, 3, 7, 7}),
                       g.Weight("stem.bias", {kCnnChannels})});
  g.Ints(stem, "kernel_shape", {7, 7});
  g.Ints(stem, "strides", {2, 2});
  g.Ints(stem, "pads", {3, 3, 3, 3});
  auto* relu = g.Node("Relu", "/stem/Relu", {g.Out(stem)});
  auto* pool = g.Node("MaxPool", "/stem/MaxPool", {g.Out(relu)});
  g.Ints(pool, "kernel_shape", {3, 3});
  g.Ints(pool, "strides", {2, 2});
  g.Ints(pool, "pads", {1, 1, 1, 1});
  std::string x = g.Out(pool);
  // Residual blocks keep the size: 3x3 convolutions with padding 1.
  for (int64_t i = 0; graph->node_size() + kCnnBlock <= nodes; ++i) {
    const std::string p = StrCat("/layers.", i);
    const std::string w = StrCat("layers.", i);
    auto conv_bn = [&](const std::string& in, int which) {
      const std::string n = StrCat(which);
      auto* conv =
          g.Node("Conv", p + "/conv" + n + "/Conv",
                 {in, g.Weight(w + ".conv" + n + ".weight", {kCnnChannels, kCnnChannels, 3, 3}),
                  g.Weight(w + ".conv" + n + ".bias", {kCnnChannels})});
      g.Ints(conv, "kernel_shape", {3, 3});
      g.Ints(conv, "pads", {1, 1, 1, 1});
      auto* bn = g.Node("BatchNormalization", p + "/bn" + n + "/BatchNormalization",
                        {g.Out(conv), g.Weight(w + ".bn" + n + ".weight", {kCnnChannels}),
                         g.Weight(w + ".bn" + n + ".bias", {kCnnChannels}),
                         g.Weight(w + ".bn" + n + ".running_mean", {kCnnChannels}),
                         g.Weight(w + ".bn" + n + ".running_var", {kCnnChannels})});
      g.Float(bn, "epsilon", 1e-5f);
      return g.Out(bn);
    };
    auto* relu1 = g.Node("Relu", p + "/Relu", {conv_bn(x, 1)});
    auto* add = g.Node("Add", p + "/Add", {conv_bn(g.Out(relu1), 2), x});
    x = g.Out(g.Node("Relu", p + "/Relu_1", {g.Out(add)}));
  }
  x = g.Pad(x, nodes);
  // Exporters name the output's dims; these are what inference must work out.
  GraphWriter::Declare(graph->add_output(), x, {"N", "8", "height_out", "width_out"});
}

// Value i is named by i in base 36 ("0" ... "zz"): names of one to four bytes for a million
// nodes, stored inline by std::string and protobuf alike.
std::string TinyName(int64_t i) {
  std::string name;
  do {
    name.insert(name.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[i % 36]);
    i /= 36;
  } while (i > 0);
  return name;
}

// Relu after Relu with no node names: a model of about 20 bytes a node, where protobuf's
// own objects are most of what a process holds.
void TinyNodes(GraphWriter& g, int64_t nodes) {
  onnx::GraphProto* graph = g.graph();
  graph->set_name("tiny");
  // Upper case: no value name in base 36 of lower-case digits is "X".
  GraphWriter::Declare(graph->add_input(), "X", {"B", "8"});
  std::string x = "X";
  for (int64_t i = 0; i < nodes; ++i) {
    onnx::NodeProto* node = graph->add_node();
    node->set_op_type("Relu");
    node->add_input(x);
    x = TinyName(i);
    node->add_output(x);
  }
  GraphWriter::Declare(graph->add_output(), x, {"B", "8"});
}

}  // namespace

std::string_view WorkloadKindName(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kDecoder:
      return "decoder";
    case WorkloadKind::kChain:
      return "chain";
    case WorkloadKind::kCnn:
      return "cnn";
    case WorkloadKind::kDecoderExternal:
      return "decoder-ext";
    case WorkloadKind::kTinyNodes:
      return "tiny-nodes";
  }
  return "?";
}

std::optional<WorkloadKind> WorkloadKindFromName(std::string_view name) {
  for (WorkloadKind kind : AllWorkloadKinds()) {
    if (WorkloadKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

std::vector<WorkloadKind> AllWorkloadKinds() {
  return {WorkloadKind::kDecoder, WorkloadKind::kChain, WorkloadKind::kCnn,
          WorkloadKind::kDecoderExternal, WorkloadKind::kTinyNodes};
}

int64_t MinimumNodes(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kDecoder:
      return kDecoderBlock;
    case WorkloadKind::kChain:
      return kChainBlock;
    case WorkloadKind::kCnn:
      return kCnnStem + kCnnBlock;
    case WorkloadKind::kDecoderExternal:
      return kDecoderBlock + 1;
    case WorkloadKind::kTinyNodes:
      return kTinyBlock;
  }
  return 0;
}

Workload MakeWorkload(WorkloadKind kind, int64_t nodes, const WorkloadOptions& options) {
  Workload w;
  onnx::ModelProto& m = w.model;
  m.set_ir_version(kIrVersion);
  m.set_producer_name("onnx-infer-bench");
  onnx::OperatorSetIdProto* opset = m.add_opset_import();
  opset->set_domain("");
  opset->set_version(kOpset);
  const bool external = kind == WorkloadKind::kDecoderExternal;
  GraphWriter g(m.mutable_graph(), options, external);
  nodes = std::max(nodes, MinimumNodes(kind));
  switch (kind) {
    case WorkloadKind::kDecoder:
    case WorkloadKind::kDecoderExternal:
      Decoder(g, nodes, external, options);
      break;
    case WorkloadKind::kChain:
      Chain(g, nodes);
      break;
    case WorkloadKind::kCnn:
      Cnn(g, nodes);
      break;
    case WorkloadKind::kTinyNodes:
      TinyNodes(g, nodes);
      break;
  }
  if (external) {
    w.data_location = options.data_location;
    w.data_size = g.data_size();
  }
  return w;
}

Status WriteWorkload(const Workload& workload, const std::string& path) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    if (!workload.model.SerializeToCodedStream(&out)) {
      return Status::Error(StrCat(path, ": cannot serialize the model (larger than 2 GiB?)"));
    }
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) return Status::Error(StrCat(path, ": cannot write: ", std::strerror(errno)));
  if (workload.data_location.empty()) return OkStatus();
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  const std::string data = (dir / workload.data_location).string();
  int fd = ::open(data.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error(StrCat(data, ": cannot create: ", std::strerror(errno)));
  // No byte is written: the file is one hole, which reads as zeros.
  const bool ok = ::ftruncate(fd, static_cast<off_t>(workload.data_size)) == 0;
  const std::string error = ok ? "" : std::strerror(errno);
  ::close(fd);
  if (!ok) return Status::Error(StrCat(data, ": cannot size to ", workload.data_size, ": ", error));
  return OkStatus();
}

}  // namespace onnx_infer::bench
