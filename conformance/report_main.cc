// Runs the conformance harness and prints docs/conformance.md, or with --write writes it and
// conformance/baseline.txt into the source tree:
//   bazel run //conformance:report -- --write
// The shared folder is $SHARED_DIR, else ../shared beside the workspace.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "conformance/report.h"
#include "proto/model_io.h"
#include "schema/builtin.h"

int main(int argc, char** argv) {
  using namespace onnx_infer;
  const bool write = argc > 1 && std::strcmp(argv[1], "--write") == 0;
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
  const std::string report = conformance::RenderReport(results);
  if (!write) {
    std::cout << report;
    return 0;
  }
  if (!workspace) {
    std::cerr << "report: --write needs `bazel run` (BUILD_WORKSPACE_DIRECTORY)\n";
    return 2;
  }
  for (const auto& [file, text] :
       {std::pair<std::string, std::string>{"/docs/conformance.md", report},
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
