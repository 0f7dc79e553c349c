#include "onnx_infer/proto/external_data.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string_view>
#include <utility>

#include "onnx_infer/base/strings.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

// Model text may hold any bytes; keep control characters out of messages printed to a
// terminal.
std::string Printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// Why a reference is refused, naming the tensor and, once known, its location.
class Refusal {
 public:
  explicit Refusal(const onnx::TensorProto& tensor) : tensor_(tensor) {}
  void set_location(std::string_view location) { location_ = Printable(location); }
  template <typename... Args>
  Status operator()(const Args&... reason) const {
    std::string where = StrCat("tensor '", Printable(tensor_.name()), "': external data");
    if (!location_.empty()) where += StrCat(" '", location_, "'");
    return Status::Error(StrCat(where, ": ", reason...));
  }

 private:
  const onnx::TensorProto& tensor_;
  std::string location_;
};

// A non-negative decimal integer that fits in int64: digits only, no sign, space or base.
std::optional<int64_t> ParseCount(std::string_view text) {
  if (text.empty()) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const int digit = c - '0';
    if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

// The location's components, without empty and "." ones ("./a//b" is a, b).
std::vector<std::string> Components(std::string_view location) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= location.size()) {
    size_t end = location.find('/', start);
    if (end == std::string_view::npos) end = location.size();
    std::string_view part = location.substr(start, end - start);
    if (!part.empty() && part != ".") parts.emplace_back(part);
    start = end + 1;
  }
  return parts;
}

// Whether `inner` lies strictly below `dir`, component by component (so /a/bc is not
// inside /a/b). Both are canonical.
bool IsStrictlyInside(const fs::path& inner, const fs::path& dir) {
  auto i = inner.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++i) {
    if (i == inner.end() || *i != *d) return false;
  }
  return i != inner.end();
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

constexpr int kOpenFlags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

// openat2 from the model directory: the kernel refuses any path that leaves it or passes
// through a symbolic link. Returns -1 with errno set (ENOSYS where the kernel lacks it).
int OpenBeneath(int dir_fd, const std::string& location) {
#if defined(SYS_openat2) && defined(RESOLVE_BENEATH)
  struct open_how how;
  std::memset(&how, 0, sizeof how);
  how.flags = kOpenFlags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, dir_fd, location.c_str(), &how, sizeof how));
#else
  (void)dir_fd;
  (void)location;
  errno = ENOSYS;
  return -1;
#endif
}

std::string ErrnoText(int error) { return std::strerror(error); }

}  // namespace

StatusOr<ExternalDataRef> ParseExternalDataRef(const onnx::TensorProto& tensor) {
  Refusal refuse(tensor);
  ExternalDataRef ref;
  bool has_location = false, has_offset = false;
  for (const auto& entry : tensor.external_data()) {
    const std::string& key = entry.key();
    const std::string& value = entry.value();
    const bool numeric = key == "offset" || key == "length";
    if (key == "location") {
      if (has_location) return refuse("key 'location' is given more than once");
      has_location = true;
      ref.location = value;
    } else if (numeric) {
      if ((key == "offset" && has_offset) || (key == "length" && ref.length)) {
        return refuse("key '", key, "' is given more than once");
      }
      std::optional<int64_t> n = ParseCount(value);
      if (!n) {
        return refuse(key, " '", Printable(value),
                      "' is not a non-negative decimal integer that fits in 64 bits");
      }
      if (key == "offset") {
        has_offset = true;
        ref.offset = *n;
      } else {
        ref.length = *n;
      }
    } else if (key == "checksum" || key == "basepath") {
      // Recognized but not used: the checksum is not verified, and basepath, being written
      // by the model's author, must not choose the directory.
    } else {
      ref.ignored_keys.push_back(Printable(key));
    }
  }
  if (!has_location) return refuse("no 'location' key");
  refuse.set_location(ref.location);
  if (ref.location.empty()) return refuse("the location is empty");
  if (ref.location.find('\0') != std::string::npos) {
    return refuse("the location contains a NUL byte");
  }
  if (ref.location.front() == '/') {
    return refuse(
        "the location is an absolute path; it must be relative to the model's "
        "directory");
  }
  const std::vector<std::string> parts = Components(ref.location);
  for (const auto& part : parts) {
    if (part == "..") return refuse("the location may not contain '..'");
  }
  if (parts.empty()) return refuse("the location names the model's directory, not a file");
  return ref;
}

StatusOr<ExternalData> ReadExternalData(const onnx::TensorProto& tensor,
                                        const std::string& model_dir, int64_t expected_bytes,
                                        const ExternalDataOptions& options) {
  OI_ASSIGN_OR_RETURN(ExternalDataRef ref, ParseExternalDataRef(tensor));
  Refusal refuse(tensor);
  refuse.set_location(ref.location);
  if (expected_bytes < 0) return refuse("the tensor's size is unknown");
  if (ref.length && *ref.length != expected_bytes) {
    return refuse("length ", *ref.length, " does not match the tensor's size of ", expected_bytes,
                  " bytes");
  }
  if (expected_bytes > options.max_bytes) {
    return refuse("the tensor's ", expected_bytes, " bytes are more than the limit of ",
                  options.max_bytes);
  }
  if (model_dir.empty()) return refuse("no model directory to read it from");

  // The model directory, canonical: every later check compares against it.
  std::error_code ec;
  const fs::path base = fs::canonical(model_dir, ec);
  if (ec) {
    return refuse("the model directory '", Printable(model_dir),
                  "' cannot be resolved: ", ec.message());
  }
  if (!fs::is_directory(base, ec)) {
    return refuse("'", Printable(model_dir), "' is not a directory");
  }

  // No component may be a symbolic link, not only the last: a link in a parent would be
  // followed by a plain open.
  const std::vector<std::string> parts = Components(ref.location);
  fs::path path = base;
  std::string shown;
  for (size_t k = 0; k < parts.size(); ++k) {
    const bool last = k + 1 == parts.size();
    path /= parts[k];
    shown += (k ? "/" : "") + Printable(parts[k]);
    fs::file_status st = fs::symlink_status(path, ec);
    if (st.type() == fs::file_type::not_found) {
      return last ? refuse("the file does not exist in '", Printable(base.string()), "'")
                  : refuse("the directory '", shown, "' does not exist");
    }
    if (ec) return refuse("'", shown, "' cannot be examined: ", ec.message());
    if (fs::is_symlink(st)) {
      return last ? refuse("the file is a symbolic link")
                  : refuse("'", shown, "' is a symbolic link");
    }
    if (!last && !fs::is_directory(st)) return refuse("'", shown, "' is not a directory");
    if (last && !fs::is_regular_file(st)) return refuse("it is not a regular file");
  }

  // Containment of the canonical path: catches what the lexical checks above might miss.
  const fs::path canonical = fs::weakly_canonical(path, ec);
  if (ec) return refuse("the path cannot be resolved: ", ec.message());
  if (!IsStrictlyInside(canonical, base)) {
    return refuse("the file resolves to '", Printable(canonical.string()),
                  "', outside the model's directory '", Printable(base.string()), "'");
  }
  const uintmax_t links = fs::hard_link_count(canonical, ec);
  if (ec) return refuse("the file cannot be examined: ", ec.message());
  if (links > 1) {
    return refuse("the file has ", links, " hard links; a hard-linked file may be a copy of ",
                  "any file on the system, so it is not read");
  }

  // Open, letting the kernel enforce containment where it can.
  int fd = -1;
  bool opened_beneath = false;
  if (options.use_openat2) {
    FileDescriptor dir(::open(base.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() < 0) {
      return refuse("cannot open the model directory: ", ErrnoText(errno));
    }
    // The components checked above, not the raw text ("a.bin/" would differ).
    std::string relative;
    for (const auto& part : parts) relative += (relative.empty() ? "" : "/") + part;
    fd = OpenBeneath(dir.get(), relative);
    if (fd >= 0) {
      opened_beneath = true;
    } else if (errno != ENOSYS) {
      const int error = errno;
      if (error == ELOOP || error == EXDEV) {
        return refuse("the kernel refused to open it beneath the model's directory without ",
                      "following links: ", ErrnoText(error));
      }
      return refuse("cannot open: ", ErrnoText(error));
    }
  }
  if (!opened_beneath) {
    fd = ::open(canonical.c_str(), kOpenFlags);
    if (fd < 0) return refuse("cannot open: ", ErrnoText(errno));
  }
  FileDescriptor file(fd);
  struct stat opened;
  if (::fstat(file.get(), &opened) != 0) return refuse("cannot examine: ", ErrnoText(errno));
  if (!opened_beneath) {
    // The path may have been swapped between the checks and the open.
    struct stat named;
    if (::stat(canonical.c_str(), &named) != 0) {
      return refuse("cannot examine: ", ErrnoText(errno));
    }
    if (named.st_dev != opened.st_dev || named.st_ino != opened.st_ino) {
      return refuse("the file changed while it was being opened");
    }
  }
  if (!S_ISREG(opened.st_mode)) return refuse("it is not a regular file");
  if (opened.st_nlink > 1) {
    return refuse("the file has ", opened.st_nlink, " hard links; a hard-linked file may be ",
                  "a copy of any file on the system, so it is not read");
  }

  // Bounds, against the open file's size.
  const int64_t size = static_cast<int64_t>(opened.st_size);
  if (ref.offset > size) {
    return refuse("offset ", ref.offset, " is beyond the end of the file (", size, " bytes)");
  }
  const int64_t length = ref.length ? *ref.length : size - ref.offset;
  if (length > size - ref.offset) {
    return refuse("offset ", ref.offset, " + length ", length, " goes beyond the end of the file (",
                  size, " bytes)");
  }
  if (length != expected_bytes) {
    return refuse("the ", length, " bytes from offset ", ref.offset,
                  " to the end of the file do not match the tensor's size of ", expected_bytes,
                  " bytes");
  }

  ExternalData data;
  data.ignored_keys = std::move(ref.ignored_keys);
  data.bytes.resize(static_cast<size_t>(length));
  int64_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(file.get(), data.bytes.data() + done, static_cast<size_t>(length - done),
                        static_cast<off_t>(ref.offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return refuse("cannot read: ", ErrnoText(errno));
    }
    if (n == 0) return refuse("the file ended after ", ref.offset + done, " bytes");
    done += n;
  }
  return data;
}

}  // namespace onnx_infer
