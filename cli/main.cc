// infer-shapes with the built-in operators. See docs/cli.md.
#include "onnx_infer/cli/cli.h"
#include "onnx_infer/schema/builtin.h"

int main(int argc, char** argv) {
  return onnx_infer::RunInferShapes(argc, argv, onnx_infer::BuiltinSchemas());
}
