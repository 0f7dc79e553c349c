// The infer-shapes command as a function, so that a program can run it with its own registry:
//
//   int main(int argc, char** argv) {
//     onnx_infer::SchemaRegistry registry = onnx_infer::BuiltinSchemas();
//     RegisterMyOps(registry);  // custom operators with C++ rules
//     return onnx_infer::RunInferShapes(argc, argv, registry);
//   }
//
// Flags, output and exit codes are those of infer-shapes (docs/cli.md).
#ifndef ONNX_INFER_CLI_CLI_H_
#define ONNX_INFER_CLI_CLI_H_

#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

int RunInferShapes(int argc, char** argv, const SchemaRegistry& registry);

}  // namespace onnx_infer

#endif  // ONNX_INFER_CLI_CLI_H_
