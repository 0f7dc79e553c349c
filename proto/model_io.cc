#include "onnx_infer/proto/model_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <google/protobuf/io/coded_stream.h>

#include "onnx_infer/base/strings.h"

namespace onnx_infer {
namespace {

std::string ErrnoText() { return std::strerror(errno); }

// Nested graphs (If inside Loop inside a function...) nest messages deeply; allow more than
// protobuf's default of 100 levels, but keep a bound so hostile input cannot exhaust the stack.
constexpr int kRecursionLimit = 400;

}  // namespace

StatusOr<onnx::ModelProto> ParseModel(std::string_view bytes, std::string_view source) {
  if (bytes.empty()) return Status::Error(StrCat(source, ": the file is empty"));
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return Status::Error(StrCat(source, ": the file is larger than 2 GiB, which protobuf cannot ",
                                "parse; store large tensors as external data"));
  }
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetTotalBytesLimit(INT_MAX);
  in.SetRecursionLimit(kRecursionLimit);
  onnx::ModelProto model;
  if (!model.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    return Status::Error(StrCat(source, ": not a valid ONNX model (the protobuf data is ",
                                "truncated, corrupt or nested too deeply)"));
  }
  if (!model.has_graph()) {
    return Status::Error(StrCat(source, ": not an ONNX model (it has no graph)"));
  }
  return model;
}

StatusOr<std::string> ReadFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::Error(StrCat(path, ": is a directory, not a model file"));
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(StrCat(path, ": cannot open: ", ErrnoText()));
  std::ostringstream buffer;
  buffer << file.rdbuf();
  if (file.bad()) return Status::Error(StrCat(path, ": cannot read: ", ErrnoText()));
  return std::move(buffer).str();
}

StatusOr<onnx::ModelProto> LoadBinaryModel(const std::string& path) {
  OI_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  return ParseModel(bytes, path);
}

Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::random_device rd;
  const std::string tmp = (dir / StrCat(".", target.filename().string(), ".tmp.", getpid(), ".",
                                        rd() % 1000000)).string();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error(StrCat(path, ": cannot write: ", ErrnoText()));
  auto fail = [&](const std::string& what) {
    std::string message = StrCat(path, ": cannot write (", what, "): ", ErrnoText());
    ::close(fd);
    ::unlink(tmp.c_str());
    return Status::Error(message);
  };
  struct stat existing;
  if (::stat(path.c_str(), &existing) == 0) ::fchmod(fd, existing.st_mode & 07777);
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write");
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) return fail("fsync");
  if (::close(fd) != 0) {
    std::string message = StrCat(path, ": cannot write (close): ", ErrnoText());
    ::unlink(tmp.c_str());
    return Status::Error(message);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string message = StrCat(path, ": cannot write (rename): ", ErrnoText());
    ::unlink(tmp.c_str());
    return Status::Error(message);
  }
  return OkStatus();
}

Status SaveModel(const onnx::ModelProto& model, const std::string& path) {
  std::string bytes;
  if (model.ByteSizeLong() > static_cast<size_t>(INT_MAX) || !model.SerializeToString(&bytes)) {
    return Status::Error(StrCat(path, ": cannot serialize the model (larger than 2 GiB?)"));
  }
  return WriteFileAtomically(path, bytes);
}

}  // namespace onnx_infer
