// Reading and writing ONNX model files.
#ifndef ONNX_INFER_PROTO_MODEL_IO_H_
#define ONNX_INFER_PROTO_MODEL_IO_H_

#include <string>
#include <string_view>

#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer {

// Reads a binary .onnx file. Front ends call LoadModel (inference/load_model.h), which reads
// text models too; this is the binary half of it. Errors say what is wrong: the file cannot be opened, is a
// directory, is empty, is larger than protobuf can parse (2 GiB), is not valid protobuf (a
// truncated or corrupt file), or parses but is no model (no graph).
StatusOr<onnx::ModelProto> LoadBinaryModel(const std::string& path);
// The same for bytes in memory; `source` names them in messages.
StatusOr<onnx::ModelProto> ParseModel(std::string_view bytes, std::string_view source);

// Reads a whole file; errors say why (missing, a directory, unreadable).
StatusOr<std::string> ReadFile(const std::string& path);

// Writes the model to `path` atomically: to a temporary file in the same directory, flushed
// to disk, then renamed over `path`. On any failure `path` is untouched and the temporary
// file removed. An existing file's permissions are kept.
Status SaveModel(const onnx::ModelProto& model, const std::string& path);

// Writes bytes to `path` atomically, as SaveModel does.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace onnx_infer

#endif  // ONNX_INFER_PROTO_MODEL_IO_H_
