// Prints docs/op-coverage.md, or with --write writes it into the source tree:
//   bazel run //schema:op_coverage -- --write
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/coverage.h"

int main(int argc, char** argv) {
  const std::string report = onnx_infer::CoverageReport(onnx_infer::BuiltinSchemas());
  if (argc > 1 && std::strcmp(argv[1], "--write") == 0) {
    const char* root = std::getenv("BUILD_WORKSPACE_DIRECTORY");
    if (!root) {
      std::cerr << "op_coverage: --write needs `bazel run` (BUILD_WORKSPACE_DIRECTORY)\n";
      return 2;
    }
    const std::string path = std::string(root) + "/docs/op-coverage.md";
    onnx_infer::Status st = onnx_infer::WriteFileAtomically(path, report);
    if (!st.ok()) {
      std::cerr << "op_coverage: " << st.message() << "\n";
      return 2;
    }
    std::cout << "wrote " << path << "\n";
    return 0;
  }
  std::cout << report;
  return 0;
}
