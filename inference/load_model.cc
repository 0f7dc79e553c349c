#include "onnx_infer/inference/load_model.h"

#include <memory>
#include <optional>
#include <utility>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {

StatusOr<onnx::ModelProto> ParseModelAnyFormat(std::string_view bytes, std::string_view source) {
  if (source.ends_with(".onnxtxt")) return syntax::ParseModelText(bytes, source);
  auto binary = ParseModel(bytes, source);
  if (binary.ok() || !syntax::LooksLikeModelText(bytes)) return binary;
  auto text = syntax::ParseModelText(bytes, source);
  if (text.ok()) return text;
  return Status::Error(binary.status().message() +
                       "; read as ONNX text: " + text.status().message());
}

namespace {

ReadLimits ModelReadLimits(std::string_view source) {
  ReadLimits limits;
  limits.check_head = [source = std::string(source)](std::string_view head) {
    return ModelHeadCheck(head, source);
  };
  return limits;
}

}  // namespace

Status ModelHeadCheck(std::string_view head, std::string_view source) {
  if (head.empty()) return OkStatus();  // "the file is empty", from the parser
  const auto first = static_cast<unsigned char>(head[0]);
  const int wire_type = first & 7;
  const bool field_above_zero = (first >> 3) != 0 || (first & 0x80) != 0;
  const bool binary =
      field_above_zero && (wire_type == 0 || wire_type == 1 || wire_type == 2 || wire_type == 5);
  if (binary || syntax::LooksLikeModelText(head)) return OkStatus();
  return Status::Error(StrCat(source, ": not an ONNX model: its first bytes start neither ",
                              "binary protobuf nor ONNX text; reading stopped there"));
}

StatusOr<onnx::ModelProto> LoadModel(const std::string& path) {
  // A binary model in a regular file is parsed from the file; everything else, and every
  // error, takes the buffered path (TryParseModelFromFile).
  if (!path.ends_with(".onnxtxt")) {
    if (std::optional<onnx::ModelProto> model = TryParseModelFromFile(path)) {
      return std::move(*model);
    }
  }
  OI_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path, ModelReadLimits(path)));
  return ParseModelAnyFormat(bytes, path);
}

StatusOr<ArenaModel> LoadModelOnArena(const std::string& path, const FileParseOptions& options) {
  ArenaModel loaded;
  if (!path.ends_with(".onnxtxt")) {
    // Blocks of up to 1 MiB: fewer, larger allocations than the default 8 KiB.
    google::protobuf::ArenaOptions arena_options;
    arena_options.max_block_size = 1 << 20;
    loaded.arena = std::make_unique<google::protobuf::Arena>(arena_options);
    ModelSource source;
    loaded.model = TryParseModelFromFile(path, loaded.arena.get(), &source, options);
    if (loaded.model != nullptr) {
      loaded.source = std::move(source);
      return loaded;
    }
  }
  // LoadModel's buffered path, on a fresh arena: a failed attempt's allocations are freed.
  loaded.arena = std::make_unique<google::protobuf::Arena>();
  OI_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path, ModelReadLimits(path)));
  OI_ASSIGN_OR_RETURN(onnx::ModelProto model, ParseModelAnyFormat(bytes, path));
  loaded.model = new onnx::ModelProto(std::move(model));
  loaded.arena->Own(loaded.model);
  return loaded;
}

StatusOr<onnx::ModelProto> LoadModelFromDescriptor(int fd, std::string_view source) {
  OI_ASSIGN_OR_RETURN(std::string bytes, ReadDescriptor(fd, source, ModelReadLimits(source)));
  return ParseModelAnyFormat(bytes, source);
}

}  // namespace onnx_infer
