// Exporter-style workloads for the benchmark (bench/run.sh, docs/performance.md): models of
// an exact number of nodes, the same bytes on every run, built from onnx-infer's own protobuf
// classes so that a million nodes take seconds, not the minutes onnx.helper would.
//
//   decoder      per block of 20 nodes, what exporters write for self-attention:
//                MatMul, Add, Shape, Gather x2, Unsqueeze x2, Concat, Reshape, Transpose x2,
//                MatMul, Softmax, MatMul, Transpose, Concat, Reshape, Add,
//                LayerNormalization, Relu; input float[B, S, 64]
//   chain        a flat Relu, Add, MatMul, Sigmoid chain on float[B, S, 16]
//   cnn          a convolution stem and residual blocks (Conv, BatchNormalization, Relu, Conv,
//                BatchNormalization, Add, Relu) on float[N, 3, H, W], H and W symbolic
//   decoder-ext  the decoder with its weights and a [64, V] output projection stored as
//                external data in a sparse file of several GiB that is never written
//   tiny-nodes   a chain of Relu nodes with tiny names (base-36 value names, no node names,
//                about 20 bytes a node): the worst case for per-node and per-value state
//                beside protobuf's own objects; input X: float[B, 8]
#ifndef ONNX_INFER_BENCH_WORKLOADS_H_
#define ONNX_INFER_BENCH_WORKLOADS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer::bench {

enum class WorkloadKind { kDecoder, kChain, kCnn, kDecoderExternal, kTinyNodes };

// "decoder", "chain", "cnn", "decoder-ext", "tiny-nodes".
std::string_view WorkloadKindName(WorkloadKind kind);
std::optional<WorkloadKind> WorkloadKindFromName(std::string_view name);
std::vector<WorkloadKind> AllWorkloadKinds();

struct WorkloadOptions {
  // decoder-ext: the external data file, relative to the model's directory.
  std::string data_location = "model.data";
  // decoder-ext: the size of the output projection's weight, which makes the file large.
  int64_t projection_bytes = int64_t{4} << 30;
};

struct Workload {
  onnx::ModelProto model;
  std::string data_location;  // decoder-ext: the external data file; else empty
  int64_t data_size = 0;      // the size that file must have
};

// The smallest node count MakeWorkload accepts for `kind` (one block and its tail).
int64_t MinimumNodes(WorkloadKind kind);

// A model whose main graph has exactly `nodes` nodes (>= MinimumNodes): whole blocks, then
// Relu nodes to make up the count. The same arguments give the same model.
Workload MakeWorkload(WorkloadKind kind, int64_t nodes, const WorkloadOptions& options = {});

// Writes the model to `path` (deterministic serialization) and, when it has external data,
// creates the data file beside it at its full size without writing a byte: ftruncate makes
// it sparse, so a 4 GiB file takes no disk space and reads as zeros.
Status WriteWorkload(const Workload& workload, const std::string& path);

}  // namespace onnx_infer::bench

#endif  // ONNX_INFER_BENCH_WORKLOADS_H_
