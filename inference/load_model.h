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

#include <google/protobuf/arena.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer {

// Reads `path` as a text model when its name ends in ".onnxtxt"; otherwise as binary
// protobuf, and, when that fails and the bytes look like text (syntax::LooksLikeModelText),
// as text. Errors are those of LoadBinaryModel and syntax::ParseModelText ("m.onnxtxt:3:14:
// expected ..."); a file that is neither format keeps the binary error, followed by
// "; read as ONNX text: " and the text error when it looked like text.
// Files that are not regular (a pipe, a FIFO) are read up to the 2 GiB limit of
// proto/model_io.h, and refused after their first 4 KiB when those cannot start a model in
// either format (ModelHeadCheck).
StatusOr<onnx::ModelProto> LoadModel(const std::string& path);

// A model owned by an arena.
struct ArenaModel {
  std::unique_ptr<google::protobuf::Arena> arena;
  onnx::ModelProto* model = nullptr;  // owned by `arena`
  // The file a binary model was parsed from, for a write that copies its unchanged parts
  // (SaveModel with a source, proto/model_io.h); unset for a model read the buffered way.
  std::optional<ModelSource> source;
};
// LoadModel for a front end that keeps the model to the end (the CLI): a binary model in a
// regular file is parsed onto a new arena (TryParseModelFromFile), which on a large model
// takes less memory than a message allocated piece by piece; the messages later added to it
// (the write-back's value_info) land on the arena too. Anything else is read as LoadModel
// reads it, with the same errors, and the arena owns that message (Arena::Own). A message on
// an arena must not be Swapped with one on the heap, or moved into one: that copies it.
// With `options`, a binary model in a regular file may leave large initializer data in the
// file (FileParseOptions in proto/model_io.h: ArenaModel::source lists it).
StatusOr<ArenaModel> LoadModelOnArena(const std::string& path,
                                      const FileParseOptions& options = {});

// The same for a descriptor already open, such as standard input (fd 0); `source` names it in
// messages and, by its extension, selects the text syntax.
StatusOr<onnx::ModelProto> LoadModelFromDescriptor(int fd, std::string_view source);

// The first bytes of a stream that may be a model: binary protobuf starts with a field key
// of a wire type ModelProto can hold (varint, 64-bit, length-delimited, 32-bit) for a field
// number above 0; text starts as syntax::LooksLikeModelText says. Anything else (a stream of
// zero bytes) is refused without reading further.
Status ModelHeadCheck(std::string_view head, std::string_view source);

// The same for bytes already in memory; `source` names them in messages and, by its
// extension, selects the text syntax.
StatusOr<onnx::ModelProto> ParseModelAnyFormat(std::string_view bytes, std::string_view source);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_LOAD_MODEL_H_
