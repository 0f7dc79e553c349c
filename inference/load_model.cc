#include "onnx_infer/inference/load_model.h"

#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {

StatusOr<onnx::ModelProto> ParseModelAnyFormat(std::string_view bytes, std::string_view source) {
  if (source.ends_with(".onnxtxt")) return syntax::ParseModelText(bytes, source);
  auto binary = ParseModel(bytes, source);
  if (binary.ok() || !syntax::LooksLikeModelText(bytes)) return binary;
  auto text = syntax::ParseModelText(bytes, source);
  if (text.ok()) return text;
  return Status::Error(binary.status().message() + "; read as ONNX text: " +
                       text.status().message());
}

StatusOr<onnx::ModelProto> LoadModel(const std::string& path) {
  OI_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  return ParseModelAnyFormat(bytes, path);
}

}  // namespace onnx_infer
