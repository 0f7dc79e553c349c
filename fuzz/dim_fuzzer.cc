// libFuzzer target: the dim_param expression parser (symbolic/parse.h), then the walks over
// what it accepts: printing, re-parsing the printed text, and arithmetic with it. Any text
// gives a Dim or an error; never a crash or stack overflow.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "onnx_infer/symbolic/context.h"
#include "onnx_infer/symbolic/dim.h"
#include "onnx_infer/symbolic/parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using onnx_infer::symbolic::Dim;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // A context per input: the process-wide default one would keep every dim of every input.
  onnx_infer::symbolic::SymbolContext context;
  onnx_infer::symbolic::SymbolContext::Scope scope(context);
  std::string error;
  auto dim = onnx_infer::symbolic::ParseDim(text, &error);
  if (!dim) return 0;
  std::string printed = dim->ToString();
  (void)onnx_infer::symbolic::ParseDim(printed, &error);
  Dim n = Dim::Symbol("N");
  (void)(*dim + n).ToString();
  (void)(*dim * *dim).ToString();
  (void)Dim::FloorDiv(*dim, Dim::Const(2)).ToString();
  (void)Dim::Mod(*dim, n).ToString();
  (void)Dim::Max(*dim, n - *dim).ToString();
  return 0;
}
