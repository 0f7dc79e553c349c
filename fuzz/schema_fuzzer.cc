// libFuzzer target: the custom-schema JSON reader (schema/custom_schemas.h). Any document
// registers its operators or gives an error naming the place; never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "onnx_infer/schema/custom_schemas.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/symbolic/context.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // A context per input: the process-wide default one would keep every dim of every input.
  onnx_infer::symbolic::SymbolContext context;
  onnx_infer::symbolic::SymbolContext::Scope scope(context);
  onnx_infer::SchemaRegistry registry;
  (void)onnx_infer::LoadCustomSchemas(text, "fuzz.json", registry);
  return 0;
}
