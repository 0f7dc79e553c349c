// libFuzzer target: model bytes (binary protobuf, or the text syntax when they look like it)
// -> InferShapes. Any input must give a model or an error, and inference must end with
// diagnostics, never a crash, hang, sanitizer report or runaway memory (tools/fuzz.sh).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/schema/builtin.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto model = onnx_infer::ParseModelAnyFormat(bytes, "fuzz.onnx");
  if (!model.ok()) return 0;
  onnx_infer::InferenceOptions options;
  // Lower than the default so that one input stays within the fuzzer's time limit.
  options.max_expanded_nodes = 5000;
  // Half the inputs (by length) as infer-shapes runs: no value types recorded and the new
  // value_info streamed as bytes, the runs that free the scope's names, values' elements and
  // blocks early (GraphRun::release_written); the other half as the API's default keeps all.
  if (size % 2 == 1) {
    options.record_value_types = false;
    options.stream_new_value_info = true;
  }
  onnx_infer::InferShapes(*model, onnx_infer::BuiltinSchemas(), options);
  // Writing the results back must leave a model that serializes.
  std::string out;
  (void)model->SerializeToString(&out);
  return 0;
}
