// The benchmark's C++ half; bench/run.py drives it (bench/run.sh, docs/performance.md).
//
//   onnx-infer-bench generate KIND NODES OUT.onnx [DATA_GIB]
//       writes a workload of bench/workloads.h (decoder-ext: its data file beside OUT, named
//       after it, DATA_GIB GiB of output projection, default 4)
//   onnx-infer-bench phases MODEL [OUT] [REPEATS]
//       what infer-shapes does, phase by phase: load (LoadModel: parsed from the file),
//       InferShapes (the new value_info entries made as bytes, as infer-shapes writing a file
//       does), serialize (sizing the model for the write: PlanModelWrite), write (when OUT is
//       given: serialized straight into the file, atomically, flushed to disk, as the CLI
//       does), free the model
//   onnx-infer-bench floor MODEL [OUT] [REPEATS]
//       no inference: the least any tool that reads and rewrites the model does (parse
//       straight from the file, through a small buffer, as infer-shapes does; serialize
//       straight into the output file, flushed to disk and renamed as the CLI does)
//
//   onnx-infer-bench session [NODES] [EDITS]
//       the incremental Session (inference/session.h) on the decoder of NODES nodes (default
//       100000): a full InferShapes; one node edit in the middle that keeps the types, then
//       Update() (and a second such edit); one that changes them up to the graph output (a
//       full update); EDITS (default 1000) single-node edits at random Relu nodes (Relu,
//       Sigmoid or Tanh), each followed by Update()
//
// phases and floor print one JSON object per repeat, times in seconds; session one object. In
// floor, the last model is never freed: a process that only rewrites a model need not pay for that.
#include <fcntl.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "onnx_infer/bench/workloads.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/inference/session.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"

namespace onnx_infer::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "onnx-infer-bench: %s\n", message.c_str());
  return 2;
}

int Generate(int argc, char** argv) {
  if (argc < 5) return Fail("usage: generate KIND NODES OUT.onnx [DATA_GIB]");
  std::optional<WorkloadKind> kind = WorkloadKindFromName(argv[2]);
  if (!kind) return Fail(std::string("unknown workload ") + argv[2]);
  const int64_t nodes = std::atoll(argv[3]);
  const std::filesystem::path out = argv[4];
  WorkloadOptions options;
  options.data_location = out.stem().string() + ".data";
  if (argc > 5) options.projection_bytes = std::atoll(argv[5]) << 30;
  const auto start = Clock::now();
  Workload w = MakeWorkload(*kind, nodes, options);
  Status st = WriteWorkload(w, out.string());
  if (!st.ok()) return Fail(st.message());
  std::printf("{\"nodes\": %d, \"data_bytes\": %lld, \"seconds\": %.3f}\n",
              w.model.graph().node_size(), static_cast<long long>(w.data_size),
              Seconds(start, Clock::now()));
  return 0;
}

struct Args {
  std::string model, out;
  int repeats = 1;
};

Args ReadArgs(int argc, char** argv) {
  Args a;
  a.model = argv[2];
  if (argc > 3) a.out = argv[3];
  if (argc > 4) a.repeats = std::max(1, std::atoi(argv[4]));
  return a;
}

int Phases(int argc, char** argv) {
  if (argc < 3) return Fail("usage: phases MODEL [OUT] [REPEATS]");
  const Args args = ReadArgs(argc, argv);
  auto start = Clock::now();
  const SchemaRegistry& registry = BuiltinSchemas();
  const double registry_s = Seconds(start, Clock::now());
  InferenceOptions options;
  options.record_value_types = false;    // as infer-shapes without --values or --memory
  options.stream_new_value_info = true;  // as infer-shapes writing a model file
  const std::filesystem::path dir = std::filesystem::path(args.model).parent_path();
  options.model_dir = dir.empty() ? std::filesystem::path(".") : dir;
  for (int r = 0; r < args.repeats; ++r) {
    const auto t1 = Clock::now();
    auto parsed = LoadModel(args.model);
    if (!parsed.ok()) return Fail(parsed.status().message());
    auto model = std::make_unique<onnx::ModelProto>(std::move(*parsed));
    const auto t2 = Clock::now();
    auto result = std::make_unique<InferenceResult>(InferShapes(*model, registry, options));
    const auto t3 = Clock::now();
    // As infer-shapes writes: sized (with the new value_info entries' bytes appended to the
    // graph), then serialized straight into the file, flushed to disk and renamed.
    auto plan = PlanModelWrite(*model, result->new_value_info, args.model);
    if (!plan.ok()) return Fail(plan.status().message());
    const auto t4 = Clock::now();
    if (!args.out.empty()) {
      auto out = OutputFile::Open(args.out);
      if (!out.ok()) return Fail(out.status().message());
      Status st = out->WriteModel(*model, *plan);
      if (st.ok()) st = out->Commit();
      if (!st.ok()) return Fail(st.message());
    }
    const auto t5 = Clock::now();
    const long long nodes = result->stats.nodes;
    const long long errors = result->CountOf(Severity::kError);
    result.reset();
    model.reset();
    const auto t6 = Clock::now();
    std::printf(
        "{\"registry\": %.6f, \"load\": %.6f, \"infer\": %.6f, "
        "\"serialize\": %.6f, \"write\": %.6f, \"free\": %.6f, \"nodes\": %lld, "
        "\"errors\": %lld}\n",
        registry_s, Seconds(t1, t2), Seconds(t2, t3), Seconds(t3, t4), Seconds(t4, t5),
        Seconds(t5, t6), nodes, errors);
    std::fflush(stdout);
  }
  return 0;
}

// Serializes straight into a temporary file beside `path`, flushed to disk and renamed over
// it: the CLI's durability, without a second copy of the model in memory.
Status WriteStraight(const onnx::ModelProto& model, const std::string& path) {
  const std::string tmp = path + ".floor.tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error(path + ": cannot write");
  bool ok;
  {
    google::protobuf::io::FileOutputStream stream(fd);
    ok = model.SerializeToZeroCopyStream(&stream) && stream.Flush();
  }
  ok = ok && ::fsync(fd) == 0;
  ok = (::close(fd) == 0) && ok;
  ok = ok && ::rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) ::unlink(tmp.c_str());
  return ok ? OkStatus() : Status::Error(path + ": cannot write");
}

// The least a tool that reads and rewrites the model must do, each step in its leanest form:
// the model parsed straight from the file (the file's bytes never in memory whole), the
// output serialized straight to the file.
int Floor(int argc, char** argv) {
  if (argc < 3) return Fail("usage: floor MODEL [OUT] [REPEATS]");
  const Args args = ReadArgs(argc, argv);
  for (int r = 0; r < args.repeats; ++r) {
    const auto t1 = Clock::now();
    auto parsed = LoadBinaryModel(args.model);
    if (!parsed.ok()) return Fail(parsed.status().message());
    auto* model = new onnx::ModelProto(std::move(*parsed));
    const auto t2 = Clock::now();
    if (!args.out.empty()) {
      Status st = WriteStraight(*model, args.out);
      if (!st.ok()) return Fail(st.message());
    }
    const auto t3 = Clock::now();
    std::printf("{\"load\": %.6f, \"write\": %.6f}\n", Seconds(t1, t2), Seconds(t2, t3));
    std::fflush(stdout);
    if (r + 1 < args.repeats) delete model;  // the last one is left to the exit
  }
  return 0;
}

// Session: the cost of an edit and Update() beside a full inference (issue 31's targets: one
// edit <= 1% of a full inference, 1,000 edits < 2 full inferences).
int SessionBench(int argc, char** argv) {
  const int64_t nodes = argc > 2 ? std::atoll(argv[2]) : 100'000;
  const int edits = argc > 3 ? std::atoi(argv[3]) : 1000;
  if (nodes < MinimumNodes(WorkloadKind::kDecoder) || edits < 0) return Fail("bad arguments");
  const SchemaRegistry& registry = BuiltinSchemas();
  Workload w = MakeWorkload(WorkloadKind::kDecoder, nodes);

  auto t0 = Clock::now();
  {
    onnx::ModelProto copy = w.model;
    t0 = Clock::now();
    InferenceResult r = InferShapes(copy, registry, InferenceOptions{});
  }
  const double full = Seconds(t0, Clock::now());

  t0 = Clock::now();
  Session session(std::move(w.model), registry);
  const double open = Seconds(t0, Clock::now());

  // The unary nodes (Relu), where an edit to Sigmoid or Tanh keeps every type.
  std::vector<int> unary;
  const onnx::GraphProto& g = session.EditedModel().graph();
  for (int i = 0; i < g.node_size(); ++i) {
    if (g.node(i).op_type() == "Relu") unary.push_back(i);
  }
  if (unary.empty()) return Fail("no Relu node");
  const int middle = unary[unary.size() / 2];
  onnx::NodeProto node = g.node(middle);
  node.set_op_type("Sigmoid");
  t0 = Clock::now();
  Status st = session.ReplaceNode(middle, node);
  SessionUpdate one = session.Update();
  const double one_edit = Seconds(t0, Clock::now());
  if (!st.ok()) return Fail(st.message());
  // The same on another node. The first edit after the full inferences above pays for the
  // allocator's merging of the memory they freed (glibc's malloc_consolidate, about 15 ms on
  // 100k nodes; a lone InferNodeOutputs at that point pays it as well): the second is the
  // cost of an edit itself.
  const int other = unary[unary.size() / 2 + 1];
  onnx::NodeProto node2 = g.node(other);
  node2.set_op_type("Tanh");
  t0 = Clock::now();
  st = session.ReplaceNode(other, node2);
  SessionUpdate second = session.Update();
  const double second_edit = Seconds(t0, Clock::now());

  // An edit that changes types downstream: a full update.
  onnx::NodeProto cast = node;
  cast.set_op_type("Cast");
  auto* to = cast.add_attribute();
  to->set_name("to");
  to->set_type(onnx::AttributeProto::INT);
  to->set_i(onnx::TensorProto::DOUBLE);
  t0 = Clock::now();
  st = session.ReplaceNode(middle, cast);
  SessionUpdate changing = session.Update();
  const double changing_edit = Seconds(t0, Clock::now());
  st = session.ReplaceNode(middle, node);
  session.Update();

  // Structural edits: a Neg inserted after the middle Relu and one reader of the Relu rewired
  // to it, then both undone (the reader restored, the Neg removed).
  double insert_edit = 0, remove_edit = 0;
  bool insert_incremental = false, remove_incremental = false;
  {
    const std::string relu_out = g.node(middle).output(0);
    int reader = -1;
    for (int i = middle + 1; i < g.node_size() && reader < 0; ++i) {
      for (const auto& in : g.node(i).input()) {
        if (in == relu_out) reader = i;
      }
    }
    if (reader < 0) return Fail("the middle Relu has no reader");
    const onnx::NodeProto original = g.node(reader);
    onnx::NodeProto neg;
    neg.set_op_type("Neg");
    neg.add_input(relu_out);
    neg.add_output("bench_inserted_neg");
    onnx::NodeProto rewired = original;
    for (auto& in : *rewired.mutable_input()) {
      if (in == relu_out) in = "bench_inserted_neg";
    }
    t0 = Clock::now();
    st = session.InsertNode(middle + 1, neg);
    if (st.ok()) st = session.ReplaceNode(reader + 1, rewired);
    insert_incremental = session.Update().incremental;
    insert_edit = Seconds(t0, Clock::now());
    if (!st.ok()) return Fail(st.message());
    t0 = Clock::now();
    st = session.ReplaceNode(reader + 1, original);
    if (st.ok()) st = session.RemoveNode(middle + 1);
    remove_incremental = session.Update().incremental;
    remove_edit = Seconds(t0, Clock::now());
    if (!st.ok()) return Fail(st.message());
  }

  const Session::Stats before = session.stats();
  std::mt19937 rng(31);
  const char* ops[] = {"Relu", "Sigmoid", "Tanh"};
  t0 = Clock::now();
  for (int e = 0; e < edits; ++e) {
    const int index = unary[rng() % unary.size()];
    onnx::NodeProto edited = session.EditedModel().graph().node(index);
    edited.set_op_type(ops[rng() % 3]);
    st = session.ReplaceNode(index, edited);
    session.Update();
  }
  const double chain = Seconds(t0, Clock::now());
  const Session::Stats& after = session.stats();
  std::printf(
      "{\"nodes\": %lld, \"full_infer_shapes\": %.6f, \"session_open\": %.6f, "
      "\"one_edit_update\": %.6f, \"one_edit_incremental\": %s, \"one_edit_vs_full\": %.6f, "
      "\"second_edit_update\": %.6f, \"second_edit_incremental\": %s, "
      "\"type_changing_edit_update\": %.6f, \"type_changing_incremental\": %s, "
      "\"insert_rewire_update\": %.6f, \"insert_rewire_incremental\": %s, "
      "\"remove_rewire_update\": %.6f, \"remove_rewire_incremental\": %s, "
      "\"edits\": %d, \"edits_total\": %.6f, \"edits_vs_full\": %.4f, "
      "\"edits_incremental\": %lld, \"edits_full\": %lld}\n",
      static_cast<long long>(nodes), full, open, one_edit, one.incremental ? "true" : "false",
      one_edit / full, second_edit, second.incremental ? "true" : "false", changing_edit,
      changing.incremental ? "true" : "false", insert_edit, insert_incremental ? "true" : "false",
      remove_edit, remove_incremental ? "true" : "false", edits, chain, chain / full,
      static_cast<long long>(after.incremental_updates - before.incremental_updates),
      static_cast<long long>(after.full_updates - before.full_updates));
  return 0;
}

}  // namespace
}  // namespace onnx_infer::bench

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "generate") return onnx_infer::bench::Generate(argc, argv);
  if (mode == "phases") return onnx_infer::bench::Phases(argc, argv);
  if (mode == "floor") return onnx_infer::bench::Floor(argc, argv);
  if (mode == "session") return onnx_infer::bench::SessionBench(argc, argv);
  std::fprintf(stderr,
               "usage: onnx-infer-bench generate KIND NODES OUT.onnx [DATA_GIB]\n"
               "       onnx-infer-bench phases MODEL [OUT] [REPEATS]\n"
               "       onnx-infer-bench floor MODEL [OUT] [REPEATS]\n"
               "       onnx-infer-bench session [NODES] [EDITS]\n");
  return 2;
}
