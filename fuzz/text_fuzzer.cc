// libFuzzer target: the ONNX text syntax parser (syntax/parser.h), and the printer on what it
// accepts. Any text gives a model or an error naming line and column; never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "onnx_infer/syntax/parser.h"
#include "onnx_infer/syntax/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)onnx_infer::syntax::LooksLikeModelText(text);
  auto model = onnx_infer::syntax::ParseModelText(text, "fuzz.onnxtxt");
  if (model.ok()) (void)onnx_infer::syntax::PrintModelText(*model);
  auto type = onnx_infer::syntax::ParseTypeText(text, "fuzz.onnxtxt");
  if (type.ok()) (void)onnx_infer::syntax::PrintTypeText(*type);
  return 0;
}
