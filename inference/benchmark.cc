// How long inference takes, side by side with parsing the same bytes, over the shared corpus
// (../shared/models/real and the backend suite's models). Not a test: run it with
//
//   bazel run -c opt //inference:infer_benchmark [-- ROOT]
//
// ROOT defaults to ../shared beside the workspace. Each model is parsed and inferred
// `kRepeats` times; the best time of each is kept, so a busy machine disturbs the figures
// less. Printed: per real model, parse and infer time in milliseconds and their ratio, and
// totals over each corpus; then generated models that stress one part of the engine, such as
// the fact chain (N MatMuls, each equating two fresh symbols: the unifier's cost per fact).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"

namespace {

namespace fs = std::filesystem;
using onnx_infer::InferenceOptions;
using Clock = std::chrono::steady_clock;

constexpr int kRepeats = 5;

std::vector<fs::path> Models(const fs::path& root) {
  std::vector<fs::path> paths;
  if (!fs::is_directory(root)) return paths;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".onnx") paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

struct Timing {
  double parse_ms = 0, infer_ms = 0;
  int64_t nodes = 0;
  bool ok = false;
};

Timing Measure(const fs::path& path) {
  Timing t;
  auto bytes = onnx_infer::ReadFile(path.string());
  if (!bytes.ok()) return t;
  const auto& registry = onnx_infer::BuiltinSchemas();
  InferenceOptions options;
  options.model_dir = path.parent_path().string();
  t.parse_ms = t.infer_ms = 1e300;
  for (int r = 0; r < kRepeats; ++r) {
    auto start = Clock::now();
    auto model = onnx_infer::ParseModel(*bytes, path.string());
    auto parsed = Clock::now();
    if (!model.ok()) return t;
    auto result = onnx_infer::InferShapes(*model, registry, options);
    auto inferred = Clock::now();
    t.parse_ms = std::min(t.parse_ms, Ms(parsed - start));
    t.infer_ms = std::min(t.infer_ms, Ms(inferred - parsed));
    t.nodes = result.stats.nodes;
  }
  t.ok = true;
  return t;
}

// x[B, K0] @ w0[J0, K1] @ w1[J1, K2] ...: each MatMul equates K_i == J_i, two symbols seen
// nowhere else, so the unifier holds n facts and every output resolves through them.
onnx_infer::onnx::ModelProto FactChain(int n) {
  onnx_infer::onnx::ModelProto model;
  model.set_ir_version(8);
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(17);
  auto* graph = model.mutable_graph();
  graph->set_name("fact_chain");
  auto add_input = [&](const std::string& name, const std::string& d0, const std::string& d1) {
    auto* t = graph->add_input();
    t->set_name(name);
    auto* tensor = t->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(1);  // float
    tensor->mutable_shape()->add_dim()->set_dim_param(d0);
    tensor->mutable_shape()->add_dim()->set_dim_param(d1);
  };
  add_input("x", "B", "K0");
  std::string prev = "x";
  for (int i = 0; i < n; ++i) {
    const std::string w = "w" + std::to_string(i), y = "y" + std::to_string(i);
    add_input(w, "J" + std::to_string(i), "K" + std::to_string(i + 1));
    auto* node = graph->add_node();
    node->set_op_type("MatMul");
    node->add_input(prev);
    node->add_input(w);
    node->add_output(y);
    prev = y;
  }
  graph->add_output()->set_name(prev);
  return model;
}

// This thread's CPU time: on a shared machine it moves less than the wall clock.
double ThreadCpuMs() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

struct GeneratedTiming {
  double wall_ms = 1e300, cpu_ms = 1e300;
  int64_t facts = 0;
};

// Best of kRepeats runs of InferShapes on a copy of `model` (the copy is not timed).
GeneratedTiming MeasureGenerated(const onnx_infer::onnx::ModelProto& model) {
  GeneratedTiming t;
  for (int r = 0; r < kRepeats; ++r) {
    onnx_infer::onnx::ModelProto copy = model;
    auto start = Clock::now();
    const double cpu_start = ThreadCpuMs();
    auto result = onnx_infer::InferShapes(copy, onnx_infer::BuiltinSchemas(), InferenceOptions{});
    t.cpu_ms = std::min(t.cpu_ms, ThreadCpuMs() - cpu_start);
    t.wall_ms = std::min(t.wall_ms, Ms(Clock::now() - start));
    t.facts = static_cast<int64_t>(result.facts.size());
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path root;
  if (argc > 1) {
    root = argv[1];
  } else if (const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY"); ws && *ws) {
    root = fs::path(ws) / ".." / "shared";
  } else {
    root = "../shared";
  }
  onnx_infer::BuiltinSchemas();  // built once, outside the timings
  const std::vector<fs::path> real = Models(root / "models" / "real");
  const std::vector<fs::path> suite = Models(root / "conformance");
  if (real.empty() && suite.empty()) {
    std::fprintf(stderr, "infer_benchmark: no models under %s\n", root.c_str());
    return 1;
  }
  std::printf("best of %d runs; parse = protobuf parse of the bytes, infer = InferShapes\n\n",
              kRepeats);
  std::printf("%-48s %7s %10s %10s %7s\n", "real model", "nodes", "parse ms", "infer ms", "ratio");
  double parse_total = 0, infer_total = 0;
  int64_t nodes_total = 0;
  for (const auto& p : real) {
    Timing t = Measure(p);
    if (!t.ok) continue;
    parse_total += t.parse_ms;
    infer_total += t.infer_ms;
    nodes_total += t.nodes;
    std::printf("%-48s %7lld %10.3f %10.3f %7.2f\n", p.filename().string().substr(0, 48).c_str(),
                static_cast<long long>(t.nodes), t.parse_ms, t.infer_ms,
                t.parse_ms > 0 ? t.infer_ms / t.parse_ms : 0.0);
  }
  std::printf("%-48s %7lld %10.3f %10.3f %7.2f\n", "all real models",
              static_cast<long long>(nodes_total), parse_total, infer_total,
              parse_total > 0 ? infer_total / parse_total : 0.0);
  double suite_parse = 0, suite_infer = 0;
  int64_t suite_nodes = 0;
  int suite_models = 0;
  for (const auto& p : suite) {
    Timing t = Measure(p);
    if (!t.ok) continue;
    ++suite_models;
    suite_parse += t.parse_ms;
    suite_infer += t.infer_ms;
    suite_nodes += t.nodes;
  }
  std::printf("%-48s %7lld %10.3f %10.3f %7.2f\n",
              ("backend suite (" + std::to_string(suite_models) + " models)").c_str(),
              static_cast<long long>(suite_nodes), suite_parse, suite_infer,
              suite_parse > 0 ? suite_infer / suite_parse : 0.0);
  if (nodes_total + suite_nodes > 0) {
    std::printf(
        "\ninference: %.2f us per node over both corpora\n",
        1000.0 * (infer_total + suite_infer) / static_cast<double>(nodes_total + suite_nodes));
  }
  std::printf("\n%-48s %7s %10s %10s %10s\n", "generated model", "facts", "infer ms", "cpu ms",
              "cpu us/fact");
  for (int n : {1000, 10000}) {
    const GeneratedTiming t = MeasureGenerated(FactChain(n));
    std::printf("%-48s %7lld %10.3f %10.3f %10.2f\n",
                ("fact chain: " + std::to_string(n) + " MatMuls").c_str(),
                static_cast<long long>(t.facts), t.wall_ms, t.cpu_ms,
                t.facts > 0 ? 1000.0 * t.cpu_ms / static_cast<double>(t.facts) : 0.0);
  }
  return 0;
}
