// LoadModel: the first call of a front end. Reads a model file in either format the engine
// knows: binary protobuf (.onnx) or the ONNX text syntax (docs/syntax.md).
//
//   StatusOr<onnx::ModelProto> model = LoadModel("model.onnx");
//   if (!model.ok()) std::cerr << model.status().message() << "\n";
//
// It lives above proto/ and syntax/ because it needs both; proto/model_io.h keeps the
// binary-only LoadBinaryModel and ParseModel.
#ifndef ONNX_INFER_INFERENCE_LOAD_MODEL_H_
#define ONNX_INFER_INFERENCE_LOAD_MODEL_H_

#include <string>
#include <string_view>

#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer {

// Reads `path` as a text model when its name ends in ".onnxtxt"; otherwise as binary
// protobuf, and, when that fails and the bytes look like text (syntax::LooksLikeModelText),
// as text. Errors are those of LoadBinaryModel and syntax::ParseModelText ("m.onnxtxt:3:14:
// expected ..."); a file that is neither format keeps the binary error, followed by
// "; read as ONNX text: " and the text error when it looked like text.
StatusOr<onnx::ModelProto> LoadModel(const std::string& path);

// The same for bytes already in memory; `source` names them in messages and, by its
// extension, selects the text syntax.
StatusOr<onnx::ModelProto> ParseModelAnyFormat(std::string_view bytes, std::string_view source);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_LOAD_MODEL_H_
