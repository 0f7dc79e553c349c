// Runs the conformance harness and prints docs/conformance.md, or with --write writes it and
// conformance/baseline.txt into the source tree:
//   bazel run //conformance:report -- --write
// With --cases OP[,OP...] it prints instead every case of those operators (by the node
// producing the first output) that is not exact, with each output's inferred and expected
// type, in every mode: what docs/conformance-exceptions.md is written from.
//   bazel run //conformance:report -- --cases TopK,ReduceSum
// With --unshaped it prints what keeps the real models' node outputs from being fully shaped:
// each not fully shaped value traced back to its cause, grouped by the cause's operator.
//   bazel run //conformance:report -- --unshaped
// The shared folder is $SHARED_DIR, else ../shared beside the workspace.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include "onnx_infer/conformance/report.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"

namespace {

// For every case of `ops` that is not exact, in every mode:
//   static node/test_top_k (TopK) rank-only
//     values: float[3, ?] (expected float[3, 3], rank-only)
void PrintInexactCases(const onnx_infer::conformance::Results& results,
                       const std::set<std::string>& ops) {
  using namespace onnx_infer::conformance;
  for (Mode mode : kModes) {
    for (const CaseResult& c : results.by_mode[static_cast<int>(mode)]) {
      const Grade g = CaseGrade(c);
      if (!ops.count(c.op) || g == Grade::kExact) continue;
      std::cout << ModeName(mode) << " " << c.name << " (" << c.op << ") " << GradeName(g)
                << (c.error.empty() ? "" : ": " + c.error) << "\n";
      for (const OutputResult& o : c.outputs) {
        std::cout << "  " << o.name << ": " << o.inferred << " (expected " << o.expected << ", "
                  << GradeName(o.grade) << ")\n";
      }
    }
  }
}

// What keeps the real models' values from being fully shaped (UnshapedCauses), most values
// first, with every cause:
//   Pad: 4 causes, 590 values
//     silero_vad_v3_2021.onnx '152': float[?, ?, ?, ?] <- 129: float[1, 1, 1, sequence], ...
void PrintUnshapedCauses(const onnx_infer::conformance::Results& results) {
  for (const auto& c : onnx_infer::conformance::UnshapedCauses(results)) {
    std::cout << c.op << ": " << c.causes << " causes, " << c.values << " values\n";
    for (const auto& e : c.examples) std::cout << "  " << e.text << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace onnx_infer;
  const bool write = argc > 1 && std::strcmp(argv[1], "--write") == 0;
  const bool unshaped = argc > 1 && std::strcmp(argv[1], "--unshaped") == 0;
  std::set<std::string> case_ops;
  if (argc > 1 && std::strcmp(argv[1], "--cases") == 0) {
    if (argc < 3) {
      std::cerr << "usage: report [--write | --cases OP[,OP...] | --unshaped]\n";
      return 2;
    }
    std::stringstream list(argv[2]);
    for (std::string op; std::getline(list, op, ',');) case_ops.insert(op);
  }
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  std::string shared;
  if (const char* s = std::getenv("SHARED_DIR")) {
    shared = s;
  } else if (workspace) {
    shared = std::string(workspace) + "/../shared";
  } else {
    std::cerr << "report: set SHARED_DIR or use `bazel run`\n";
    return 2;
  }
  conformance::Results results = conformance::RunAll(shared, BuiltinSchemas());
  if (results.by_mode[0].empty()) {
    std::cerr << "report: no conformance cases under " << shared << "\n";
    return 2;
  }
  if (!case_ops.empty()) {
    PrintInexactCases(results, case_ops);
    return 0;
  }
  if (unshaped) {
    PrintUnshapedCauses(results);
    return 0;
  }
  const std::string report = conformance::RenderReport(results);
  if (!write) {
    std::cout << report;
    return 0;
  }
  if (!workspace) {
    std::cerr << "report: --write needs `bazel run` (BUILD_WORKSPACE_DIRECTORY)\n";
    return 2;
  }
  // What follows the generated part (the runtime verification's tables) is kept.
  std::string kept;
  if (std::ifstream in(std::string(workspace) + "/docs/conformance.md", std::ios::binary); in) {
    std::ostringstream text;
    text << in.rdbuf();
    kept = conformance::AfterGeneratedPart(text.str());
  }
  for (const auto& [file, text] :
       {std::pair<std::string, std::string>{"/docs/conformance.md", report + kept},
        {"/conformance/baseline.txt", conformance::RenderBaseline(results)}}) {
    Status st = WriteFileAtomically(workspace + file, text);
    if (!st.ok()) {
      std::cerr << "report: " << st.message() << "\n";
      return 2;
    }
    std::cout << "wrote " << workspace << file << "\n";
  }
  std::cout << conformance::RenderBaseline(results);
  return 0;
}
