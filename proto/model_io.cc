#include "onnx_infer/proto/model_io.h"

#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <utility>

#include "onnx_infer/base/limits.h"
#include "onnx_infer/base/strings.h"

namespace onnx_infer {
namespace {

std::string ErrnoText() { return std::strerror(errno); }

// Nested graphs (If inside Loop inside a function...) nest messages deeply; allow more than
// protobuf's default of 100 levels, but keep a bound so hostile input cannot exhaust the stack:
// the project's nesting limit counted in messages (base/limits.h).
constexpr int kRecursionLimit = kMaxProtobufDepth;

}  // namespace

namespace {

// ParseModel's parse into `model`, with its limits and errors.
Status ParseModelInto(std::string_view bytes, std::string_view source, onnx::ModelProto& model) {
  if (bytes.empty()) return Status::Error(StrCat(source, ": the file is empty"));
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return Status::Error(StrCat(source, ": the file is larger than 2 GiB, which protobuf cannot ",
                                "parse; store large tensors as external data"));
  }
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetTotalBytesLimit(INT_MAX);
  in.SetRecursionLimit(kRecursionLimit);
  if (!model.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    return Status::Error(StrCat(source, ": not a valid ONNX model (the protobuf data is ",
                                "truncated, corrupt or nested too deeply)"));
  }
  if (!model.has_graph()) {
    return Status::Error(StrCat(source, ": not an ONNX model (it has no graph)"));
  }
  return OkStatus();
}

}  // namespace

StatusOr<onnx::ModelProto> ParseModel(std::string_view bytes, std::string_view source) {
  onnx::ModelProto model;
  OI_RETURN_IF_ERROR(ParseModelInto(bytes, source, model));
  return model;
}

StatusOr<onnx::ModelProto*> ParseModel(std::string_view bytes, std::string_view source,
                                       google::protobuf::Arena* arena) {
  auto* model = google::protobuf::Arena::CreateMessage<onnx::ModelProto>(arena);
  OI_RETURN_IF_ERROR(ParseModelInto(bytes, source, *model));
  return model;
}

namespace {

// What a file is, for messages: "a directory", "a character device".
const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

Status TooLarge(std::string_view source, uint64_t size, const ReadLimits& limits, bool exact) {
  return Status::Error(StrCat(source, ": the file is ", exact ? "" : "more than ",
                              exact ? size : limits.max_bytes, " bytes, over the limit of ",
                              limits.max_bytes, " bytes (", limits.max_text, ")",
                              exact ? "; nothing was read" : "; reading stopped there"));
}

// Reads until end of file, or until more than the limit arrived.
Status ReadAll(int fd, std::string_view source, const ReadLimits& limits, bool stream,
               std::string& out) {
  constexpr size_t kChunk = 1 << 16;
  constexpr size_t kHead = 4096;
  bool head_checked = !stream || !limits.check_head;
  for (;;) {
    if (out.size() > limits.max_bytes) return TooLarge(source, out.size(), limits, false);
    size_t old = out.size();
    ssize_t n;
    if (!stream && old > 0 && out.capacity() - old < kChunk) {
      // A regular file read to its reserved size: probe for end of file (or growth) with a
      // small buffer rather than grow the string, which would copy the whole model into a
      // buffer twice its size.
      char probe[4096];
      n = ::read(fd, probe, sizeof probe);
      if (n > 0) out.append(probe, static_cast<size_t>(n));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Status::Error(StrCat(source, ": cannot read: ", ErrnoText()));
      if (n == 0) return OkStatus();
      continue;
    }
    size_t want = kChunk;
    if (stream) {
      // A stream's size is not known: read a chunk at a time into a buffer that doubles, so
      // each byte is copied a bounded number of times (asking for the whole spare capacity
      // at every read zero-filled it each time: quadratic). Never more than one byte past the
      // limit is asked for (or than the head, which is looked at first), so a stream over it
      // is refused as it passes it.
      const uint64_t stop = std::max<uint64_t>(limits.max_bytes + 1, kHead);
      want = std::min<uint64_t>(kChunk, stop - old);
      if (out.capacity() - old < want) {
        out.reserve(std::min<uint64_t>(std::max(out.capacity() * 2, old + want), stop));
      }
    } else if (out.capacity() > old) {
      want = std::max(want, out.capacity() - old);
    }
    out.resize(old + want);
    n = ::read(fd, out.data() + old, want);
    if (n < 0) {
      out.resize(old);
      if (errno == EINTR) continue;
      return Status::Error(StrCat(source, ": cannot read: ", ErrnoText()));
    }
    out.resize(old + static_cast<size_t>(n));
    if (!head_checked && (n == 0 || out.size() >= kHead)) {
      head_checked = true;
      OI_RETURN_IF_ERROR(limits.check_head(std::string_view(out).substr(0, kHead)));
    }
    if (n == 0) return OkStatus();
  }
}

}  // namespace

StatusOr<std::string> ReadDescriptor(int fd, std::string_view source, const ReadLimits& limits) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return Status::Error(StrCat(source, ": cannot read: ", ErrnoText()));
  if (S_ISDIR(st.st_mode)) return Status::Error(StrCat(source, ": is a directory, not a file"));
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    if (::isatty(fd)) {
      return Status::Error(
          StrCat(source, ": is a terminal; give a file, or redirect one into ", "standard input"));
    }
    return Status::Error(StrCat(source, ": is ", KindOf(st.st_mode), ", not a file; only regular ",
                                "files, pipes and FIFOs are read"));
  }
  std::string bytes;
  if (S_ISREG(st.st_mode)) {
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size > limits.max_bytes) return TooLarge(source, size, limits, true);
    bytes.reserve(size + 1);  // +1: a file that grows while read is seen to, without regrowth
    OI_RETURN_IF_ERROR(ReadAll(fd, source, limits, /*stream=*/false, bytes));
    return bytes;
  }
  // A pipe, FIFO or socket. Opened without blocking (a FIFO without a writer must not hang
  // the open); reads block again, waiting for data as a pipe reader should.
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0 && (flags & O_NONBLOCK)) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  OI_RETURN_IF_ERROR(ReadAll(fd, source, limits, /*stream=*/true, bytes));
  if (bytes.empty() && S_ISFIFO(st.st_mode)) {
    return Status::Error(StrCat(source, ": read nothing: a FIFO or pipe without a writer, ",
                                "or one that wrote nothing"));
  }
  return bytes;
}

StatusOr<std::string> ReadFile(const std::string& path, const ReadLimits& limits) {
  // O_NONBLOCK: opening a FIFO for reading otherwise waits until a writer opens it.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return Status::Error(StrCat(path, ": cannot open: ", ErrnoText()));
  auto bytes = ReadDescriptor(fd, path, limits);
  ::close(fd);
  return bytes;
}

namespace {

using google::protobuf::internal::WireFormatLite;

// ---- Reading a model file's framing: where its fields lie.

// Reads a file at any offset through a window of 64 KiB.
class SourceReader {
 public:
  // The most bytes a field's key and length take (two varints of at most 10 bytes).
  static constexpr uint64_t kHeadBytes = 20;

  explicit SourceReader(int fd) : fd_(fd), window_(new uint8_t[kWindowBytes]) {}

  // The bytes from `pos` on, at least min(kHeadBytes, end - pos) of them; null when the file
  // cannot be read so far.
  const uint8_t* At(uint64_t pos, uint64_t end) {
    const uint64_t need = std::min(kHeadBytes, end - pos);
    if (pos < start_ || pos - start_ + need > filled_) {
      if (!Fill(pos) || need > filled_) return nullptr;
    }
    return window_.get() + (pos - start_);
  }
  // How many bytes the window holds from `p` (returned by At) on.
  uint64_t Held(const uint8_t* p) const {
    return filled_ - static_cast<uint64_t>(p - window_.get());
  }

 private:
  static constexpr size_t kWindowBytes = 64 << 10;

  bool Fill(uint64_t pos) {
    ssize_t n;
    do {
      n = ::pread(fd_, window_.get(), kWindowBytes, static_cast<off_t>(pos));
    } while (n < 0 && errno == EINTR);
    if (n <= 0) return false;
    start_ = pos;
    filled_ = static_cast<uint64_t>(n);
    return true;
  }

  int fd_;
  std::unique_ptr<uint8_t[]> window_;
  uint64_t start_ = 0;
  uint64_t filled_ = 0;
};

// DecodeVarint's loop, for a varint of more than one byte.
[[gnu::noinline]] const uint8_t* DecodeLongVarint(const uint8_t* p, const uint8_t* limit,
                                                  uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && p < limit; shift += 7) {
    const uint8_t byte = *p++;
    result |= uint64_t{byte & 0x7fu} << shift;
    if (byte < 0x80) {
      *value = result;
      return p;
    }
  }
  return nullptr;
}

// The varint at `p`, which must end before `limit`: the byte after it, or null when it is
// malformed or runs past `limit`. A one-byte varint (most keys and lengths) is read in line.
inline const uint8_t* DecodeVarint(const uint8_t* p, const uint8_t* limit, uint64_t* value) {
  if (p < limit && *p < 0x80) {
    *value = *p;
    return p + 1;
  }
  return DecodeLongVarint(p, limit, value);
}

// The longest entry of a run ScanFields visits at once: its length takes at most two bytes.
constexpr uint64_t kLongestRunEntry = (uint64_t{1} << 14) - 1;

// Calls visit(field number, wire type, first byte, first byte of the payload, end, count)
// for the fields of the message in [begin, end) of the file, in order: for a field alone
// (count 1), or for `count` consecutive entries of one length-delimited field whose key takes
// a byte and length one or two (a run of nodes: [first byte, end) holds them all, and the
// payload is the first one's), unless `runs` is false. False when a field is malformed or a
// group (protobuf parsed the file, so neither is expected), or when visit returns false.
template <typename Visit>
bool ScanFields(SourceReader& reader, uint64_t begin, uint64_t end, Visit&& visit,
                bool runs = true) {
  uint64_t pos = begin;
  while (pos < end) {
    const uint8_t* const head = reader.At(pos, end);
    if (head == nullptr) return false;
    // A run of entries with a one-byte key and a length of one or two bytes (below 16 KiB),
    // stepped over in the window.
    const uint8_t key = head[0];
    if (runs && (key & 0x87) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      const uint8_t* const stop = head + std::min(reader.Held(head), end - pos);
      const uint8_t* p = head;
      int64_t count = 0;
      while (stop - p >= 3 && p[0] == key) {
        if (p[1] < 0x80) {
          p += 2 + p[1];
        } else if (p[2] < 0x80) {
          p += 3 + ((p[1] & 0x7f) | (size_t{p[2]} << 7));
        } else {
          break;
        }
        ++count;
      }
      if (count > 0) {
        const uint64_t run_end = pos + static_cast<uint64_t>(p - head);
        if (run_end > end) return false;
        const uint64_t first_payload = pos + (head[1] < 0x80 ? 2 : 3);
        if (!visit(uint64_t{key} >> 3, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, pos,
                   first_payload, run_end, count)) {
          return false;
        }
        pos = run_end;
        continue;
      }
    }
    const uint8_t* const limit = head + std::min(SourceReader::kHeadBytes, end - pos);
    uint64_t tag;
    const uint8_t* p = DecodeVarint(head, limit, &tag);
    if (p == nullptr || tag > UINT32_MAX) return false;
    const auto wire_type = WireFormatLite::GetTagWireType(static_cast<uint32_t>(tag));
    uint64_t length = 0;
    switch (wire_type) {
      case WireFormatLite::WIRETYPE_VARINT: {
        uint64_t ignored;
        p = DecodeVarint(p, limit, &ignored);
        if (p == nullptr) return false;
        break;
      }
      case WireFormatLite::WIRETYPE_FIXED64:
        length = 8;
        break;
      case WireFormatLite::WIRETYPE_LENGTH_DELIMITED:
        p = DecodeVarint(p, limit, &length);
        if (p == nullptr) return false;
        break;
      case WireFormatLite::WIRETYPE_FIXED32:
        length = 4;
        break;
      default:
        return false;
    }
    const uint64_t payload = pos + static_cast<uint64_t>(p - head);
    if (length > end - payload) return false;
    const uint64_t field_end = payload + length;
    if (!visit(tag >> 3, wire_type, pos, payload, field_end, int64_t{1})) return false;
    pos = field_end;
  }
  return true;
}

// The identity of the file `st` describes, found at `path`.
ModelSource SourceOf(const std::string& path, const struct stat& st) {
  ModelSource source;
  source.path = path;
  source.device = static_cast<uint64_t>(st.st_dev);
  source.inode = static_cast<uint64_t>(st.st_ino);
  source.size = static_cast<uint64_t>(st.st_size);
  source.modified_ns = int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
  source.changed_ns = int64_t{st.st_ctim.tv_sec} * 1000000000 + st.st_ctim.tv_nsec;
  return source;
}

bool SameFile(const ModelSource& a, const ModelSource& b) {
  return a.device == b.device && a.inode == b.inode && a.size == b.size &&
         a.modified_ns == b.modified_ns && a.changed_ns == b.changed_ns;
}

// Whether `fd` is open on the file `source` describes, as it was parsed.
bool StillTheSource(int fd, const ModelSource& source) {
  struct stat st;
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
         SameFile(SourceOf(source.path, st), source);
}

// ---- A parse that leaves large raw_data in the file (FileParseOptions).

// An initializer whose raw_data stays in the file: where its entry in the graph, its tensor
// and the tensor's raw_data field lie.
struct RawDataSplit {
  uint64_t entry = 0;        // the entry's key
  uint64_t tensor = 0;       // the tensor's first byte
  uint64_t end = 0;          // the byte after it
  uint64_t raw_key = 0;      // the raw_data field's key
  uint64_t raw_payload = 0;  // its bytes: [raw_payload, raw_end)
  uint64_t raw_end = 0;
};

// The file's framing, read before the parse: the main graph's field and its node and
// initializer entries (for the write: ModelSource), and the initializers whose raw_data is
// left in the file. The file is then parsed in pieces: the model's fields up to the graph's
// key, the graph's fields up to each initializer in `left`, that tensor's fields but
// raw_data, ..., the rest of the graph, the rest of the model. Parsing fields in pieces
// merges them as parsing them at once would (protobuf's wire format: the concatenation of
// two messages' bytes parses to their merge).
struct FileFraming {
  bool read = false;  // one graph field, the fields in it read
  uint64_t graph_key = 0;
  uint64_t graph_payload = 0;
  uint64_t graph_end = 0;
  ModelSource::Run nodes;
  ModelSource::Run initializers;
  std::vector<RawDataSplit> left;
};

// The framing of the file of `size` bytes, leaving each main-graph initializer's raw_data
// longer than `above` bytes (none when 0) in the file. Not `read` when the framing is not
// protobuf's plain one (the model's graph field not exactly once, a malformed field, a
// group): `left` is then empty, and the file is parsed whole.
FileFraming ReadFraming(int fd, uint64_t size, uint64_t above) {
  constexpr int kDelimited = WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
  FileFraming framing;
  SourceReader reader(fd);
  int graphs = 0;
  auto model_field = [&](uint64_t field, int wire_type, uint64_t key, uint64_t payload,
                         uint64_t end, int64_t count) {
    if (field != onnx::ModelProto::kGraphFieldNumber) return true;
    graphs += static_cast<int>(count);
    framing.graph_key = key;
    framing.graph_payload = payload;
    framing.graph_end = end;
    return wire_type == kDelimited;
  };
  if (!ScanFields(reader, 0, size, model_field) || graphs != 1) return {};
  // A tensor in [payload, end): left when it holds one raw_data field (of any wire type),
  // length-delimited and long enough.
  auto tensor = [&](uint64_t entry, uint64_t payload, uint64_t end) {
    if (above == 0 || end - payload <= above) return true;
    RawDataSplit split{entry, payload, end};
    int64_t raw_fields = 0;
    bool delimited = false;
    auto tensor_field = [&](uint64_t field, int wire_type, uint64_t key, uint64_t bytes,
                            uint64_t bytes_end, int64_t count) {
      if (field != onnx::TensorProto::kRawDataFieldNumber) return true;
      raw_fields += count;
      delimited = wire_type == kDelimited;
      split.raw_key = key;
      split.raw_payload = bytes;
      split.raw_end = bytes_end;
      return true;
    };
    const bool read = ScanFields(reader, payload, end, tensor_field);
    if (read && raw_fields == 1 && delimited && split.raw_end - split.raw_payload > above) {
      framing.left.push_back(split);
    }
    return read;
  };
  auto entry = [&](uint64_t, int, uint64_t key, uint64_t payload, uint64_t end, int64_t) {
    return tensor(key, payload, end);
  };
  auto graph_field = [&](uint64_t field, int wire_type, uint64_t key, uint64_t payload,
                         uint64_t end, int64_t count) {
    if (wire_type != kDelimited) return true;
    if (field == onnx::GraphProto::kNodeFieldNumber) framing.nodes.Add(key, end, count);
    if (field != onnx::GraphProto::kInitializerFieldNumber) return true;
    framing.initializers.Add(key, end, count);
    if (count == 1) return tensor(key, payload, end);
    // A run of short entries (ScanFields: none longer than kLongestRunEntry), each looked at
    // when one may be long enough.
    if (above >= kLongestRunEntry || end - key <= above) return true;
    return ScanFields(reader, key, end, entry, /*runs=*/false);
  };
  if (!ScanFields(reader, framing.graph_payload, framing.graph_end, graph_field)) return {};
  framing.read = true;
  return framing;
}

// Parses the file of `size` bytes read by `in` (from its start) into `model` (empty) as
// `plan` says (FileFraming), listing the raw_data left in `left`. False when a piece does not
// parse.
bool ParseSplit(google::protobuf::io::CodedInputStream& in, uint64_t size, const FileFraming& plan,
                onnx::ModelProto* model, std::vector<RawDataInFile>* left) {
  uint64_t pos = 0;
  // Merges the fields in [pos, end) into `message`, `depth` messages below the model (the
  // recursion limit counts from the model, as for the whole parse).
  auto merge = [&](google::protobuf::MessageLite* message, uint64_t end, int depth) {
    const uint64_t from = pos;
    pos = end;
    if (end == from) return true;
    in.SetRecursionLimit(kRecursionLimit - depth);
    const auto limit = in.PushLimit(static_cast<int>(end - from));
    const bool ok = message->MergePartialFromCodedStream(&in) && in.BytesUntilLimit() == 0;
    in.PopLimit(limit);
    return ok;
  };
  auto skip = [&](uint64_t end) {
    const uint64_t from = pos;
    pos = end;
    return in.Skip(static_cast<int>(end - from));
  };
  if (!merge(model, plan.graph_key, 0) || !skip(plan.graph_payload)) return false;
  onnx::GraphProto* graph = model->mutable_graph();
  for (const RawDataSplit& split : plan.left) {
    if (!merge(graph, split.entry, 1) || !skip(split.tensor)) return false;
    onnx::TensorProto* tensor = graph->add_initializer();
    if (!merge(tensor, split.raw_key, 2) || !skip(split.raw_end) || !merge(tensor, split.end, 2)) {
      return false;
    }
    left->push_back({tensor, split.raw_payload, split.raw_end - split.raw_payload});
  }
  return merge(graph, plan.graph_end, 1) && merge(model, size, 0);
}

// TryParseModelFromFile's work: parses the regular file at `path` into `model` (empty), through
// a buffer of 256 KiB. False when the file is not read so or does not parse as a model.
bool ParseModelFromFileInto(const std::string& path, onnx::ModelProto* model,
                            ModelSource* source = nullptr, const FileParseOptions& options = {}) {
  // Only a regular file is opened here: opening a FIFO, even without blocking, would let a
  // writer waiting on it go ahead and write into a reader that is about to close.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return false;
  bool parsed = false;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      static_cast<uint64_t>(st.st_size) <= kMaxModelBytes) {
    constexpr int kBufferBytes = 256 << 10;
    google::protobuf::io::FileInputStream file(fd, kBufferBytes);
    google::protobuf::io::CodedInputStream in(&file);
    in.SetTotalBytesLimit(INT_MAX);
    in.SetRecursionLimit(kRecursionLimit);
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    // With a source (for a write), the framing is read first: the write need not read it.
    FileFraming framing;
    if (source != nullptr) framing = ReadFraming(fd, size, options.leave_raw_data_above);
    std::vector<RawDataInFile> left;
    if (framing.left.empty()) {
      parsed = model->ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
    } else {
      parsed = ParseSplit(in, size, framing, model, &left);
    }
    parsed = parsed && model->has_graph();
    if (parsed && source != nullptr) {
      *source = SourceOf(path, st);
      source->framed = framing.read;
      source->nodes = framing.nodes;
      source->initializers = framing.initializers;
      source->raw_data_in_file = std::move(left);
    }
  }
  ::close(fd);
  return parsed;
}

}  // namespace

std::optional<onnx::ModelProto> TryParseModelFromFile(const std::string& path) {
  std::optional<onnx::ModelProto> model(std::in_place);
  if (!ParseModelFromFileInto(path, &*model)) model.reset();
  return model;
}

onnx::ModelProto* TryParseModelFromFile(const std::string& path, google::protobuf::Arena* arena) {
  return TryParseModelFromFile(path, arena, nullptr);
}

onnx::ModelProto* TryParseModelFromFile(const std::string& path, google::protobuf::Arena* arena,
                                        ModelSource* source, const FileParseOptions& options) {
  auto* model = google::protobuf::Arena::CreateMessage<onnx::ModelProto>(arena);
  return ParseModelFromFileInto(path, model, source, options) ? model : nullptr;
}

Status RestoreRawData(const ModelSource& source, std::string_view name) {
  if (std::all_of(source.raw_data_in_file.begin(), source.raw_data_in_file.end(),
                  [](const RawDataInFile& r) { return r.tensor->has_raw_data(); })) {
    return OkStatus();
  }
  auto changed = [&] {
    return Status::Error(StrCat(name, ": the model file ", source.path,
                                " changed since it was read; its initializers' data, left in ",
                                "it, cannot be read again, and the output is refused"));
  };
  auto unreadable = [&] {
    return Status::Error(StrCat(name, ": cannot read the model file ", source.path,
                                " again for its initializers' data: ", ErrnoText()));
  };
  const int fd = ::open(source.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return unreadable();
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (!StillTheSource(fd, source)) return changed();
  // All read before any is set: on an error, no tensor holds bytes of a changed file.
  std::vector<std::pair<onnx::TensorProto*, std::string>> read;
  for (const RawDataInFile& r : source.raw_data_in_file) {
    if (r.tensor->has_raw_data()) continue;
    std::string& bytes = read.emplace_back(r.tensor, std::string(r.size, '\0')).second;
    for (uint64_t done = 0; done < r.size;) {
      ssize_t n;
      do {
        n = ::pread(fd, bytes.data() + done, r.size - done, static_cast<off_t>(r.offset + done));
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return n == 0 ? changed() : unreadable();
      done += static_cast<uint64_t>(n);
    }
  }
  if (!StillTheSource(fd, source)) return changed();
  for (auto& [tensor, bytes] : read) tensor->set_raw_data(std::move(bytes));
  return OkStatus();
}

StatusOr<onnx::ModelProto> LoadBinaryModel(const std::string& path) {
  if (std::optional<onnx::ModelProto> model = TryParseModelFromFile(path)) {
    return std::move(*model);
  }
  OI_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  return ParseModel(bytes, path);
}

// ---- Output files.

namespace {

constexpr char kTempPrefix[] = ".infer-shapes-tmp.";

// Six random letters and digits: the temporary name's length does not depend on the
// target's, so any valid target name works (NAME_MAX).
std::string RandomSuffix() {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device rd;
  std::string s;
  for (int i = 0; i < 6; ++i) s += kChars[rd() % (sizeof(kChars) - 1)];
  return s;
}

// A regular file the user should not overwrite: not writable for this user, or, for root
// (whom access() lets write anything), without any write permission bit.
bool ReadOnly(const std::string& path, const struct stat& st) {
  if (::access(path.c_str(), W_OK) != 0) return true;
  return (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0;
}

// The descriptor a path names when it is one of this process's own (/dev/stdout,
// /dev/stderr, /dev/fd/N, /proc/self/fd/N) and open; -1 otherwise.
int DescriptorNamed(std::string_view path) {
  int fd = -1;
  if (path == "/dev/stdout") {
    fd = 1;
  } else if (path == "/dev/stderr") {
    fd = 2;
  } else {
    for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
      if (path.substr(0, prefix.size()) != prefix) continue;
      std::string_view digits = path.substr(prefix.size());
      if (digits.empty() || digits.size() > 6 ||
          digits.find_first_not_of("0123456789") != std::string_view::npos) {
        return -1;
      }
      fd = std::stoi(std::string(digits));
    }
  }
  return fd >= 0 && ::fcntl(fd, F_GETFD) >= 0 ? fd : -1;
}

// Whether a symbolic link may be followed, as the kernel's fs.protected_symlinks decides for
// an open: not when it sits in a sticky world-writable directory (/tmp) and belongs to
// neither the caller nor the directory's owner, since another user may have planted it there
// to make this process (root) replace a file of its choosing.
Status MayFollow(const std::string& path, const std::string& link, const struct stat& link_st) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(link).parent_path();
  struct stat dir_st;
  if (::stat(dir.empty() ? "." : dir.c_str(), &dir_st) != 0) return OkStatus();
  const bool shared = (dir_st.st_mode & S_ISVTX) && (dir_st.st_mode & S_IWOTH);
  if (!shared || link_st.st_uid == ::geteuid() || link_st.st_uid == dir_st.st_uid) {
    return OkStatus();
  }
  return Status::Error(StrCat(path, ": ", link == path ? "is" : "leads to",
                              " a symbolic link in a world-writable sticky directory that belongs "
                              "to another user (uid ",
                              link_st.st_uid,
                              "); not followed, as the kernel's fs.protected_symlinks refuses; "
                              "not written"));
}

}  // namespace

StatusOr<std::string> ResolveOutputLinks(const std::string& path, bool protect) {
  namespace fs = std::filesystem;
  std::string final_path = path;
  struct stat st;
  for (int hops = 0; ::lstat(final_path.c_str(), &st) == 0 && S_ISLNK(st.st_mode); ++hops) {
    if (protect) OI_RETURN_IF_ERROR(MayFollow(path, final_path, st));
    std::error_code ec;
    fs::path link(final_path);
    fs::path to = fs::read_symlink(link, ec);
    if (ec || hops == 40) {
      return Status::Error(StrCat(path, ": cannot resolve the symbolic link",
                                  ec ? ": " + ec.message() : std::string()));
    }
    final_path = (to.is_absolute() ? to : link.parent_path() / to).string();
  }
  return final_path;
}

bool SameOutputFile(const std::string& a, const std::string& b) {
  // A file that exists is its device and inode; a name that does not is its directory's
  // device and inode and its last component, after the links that lead to it.
  struct Id {
    dev_t dev = 0;
    ino_t ino = 0;
    std::string name;
    bool replaced = true;  // a regular file or a new name: an output renamed over it
  };
  auto id_of = [](const std::string& path) -> std::optional<Id> {
    auto resolved = ResolveOutputLinks(path, /*protect=*/false);
    const std::string final_path = resolved.ok() ? *resolved : path;
    struct stat st;
    if (::stat(final_path.c_str(), &st) == 0) {
      return Id{st.st_dev, st.st_ino, "", S_ISREG(st.st_mode)};
    }
    const std::filesystem::path p(final_path);
    const std::filesystem::path dir = p.parent_path();
    if (::stat(dir.empty() ? "." : dir.c_str(), &st) != 0) return std::nullopt;
    return Id{st.st_dev, st.st_ino, p.filename().string(), true};
  };
  const std::optional<Id> x = id_of(a);
  const std::optional<Id> y = id_of(b);
  if (!x || !y) return false;  // neither can be written
  // Two writes into one device or FIFO (/dev/null, a pipe) replace nothing.
  return x->dev == y->dev && x->ino == y->ino && x->name == y->name && x->replaced;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      final_path_(std::move(other.final_path_)),
      dir_(std::move(other.dir_)),
      tmp_name_(std::move(other.tmp_name_)),
      fd_(other.fd_),
      owns_fd_(other.owns_fd_),
      atomic_(other.atomic_),
      anonymous_(other.anonymous_),
      committed_(other.committed_) {
  other.fd_ = -1;
  other.tmp_name_.clear();
}

OutputFile::~OutputFile() {
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
  if (!committed_ && !tmp_name_.empty()) ::unlink(tmp_name_.c_str());
}

OutputFile OutputFile::Stream(int fd, std::string name) {
  OutputFile out;
  out.path_ = std::move(name);
  out.fd_ = fd;
  out.owns_fd_ = false;
  out.atomic_ = false;
  return out;
}

Status OutputFile::Error(std::string_view step) const {
  return Status::Error(StrCat(path_, ": cannot write (", step, "): ", ErrnoText()));
}

StatusOr<OutputFile> OutputFile::Open(const std::string& path) {
  namespace fs = std::filesystem;
  // One of this process's own descriptors by name (/dev/stdout, /dev/fd/3): written through
  // it, as the shell set it up (a `>>` appends, a `>` file is not replaced under the shell).
  if (int fd = DescriptorNamed(path); fd >= 0) {
    int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (copy >= 0) {
      OutputFile out = Stream(copy, path);
      out.owns_fd_ = true;
      return out;
    }
  }
  OutputFile out;
  out.path_ = path;
  // A symbolic link keeps pointing at its file, which gets the new contents (and is created
  // when the link dangles, as `> link` would); the link itself is never replaced. Each link is
  // resolved here, so the kernel's protection of sticky directories is applied here too.
  OI_ASSIGN_OR_RETURN(out.final_path_, ResolveOutputLinks(path, /*protect=*/true));
  struct stat st;
  const bool exists = ::stat(out.final_path_.c_str(), &st) == 0;
  if (exists) {
    if (!S_ISREG(st.st_mode)) {
      if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        return Status::Error(StrCat(path, ": is ", KindOf(st.st_mode),
                                    "; not written (an output is a file, a character device ",
                                    "or a FIFO)"));
      }
      // Written directly, as `> path` would; O_NONBLOCK so that a FIFO without a reader is
      // refused (ENXIO) instead of waited on.
      out.fd_ = ::open(out.final_path_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
      if (out.fd_ < 0) {
        if (errno == ENXIO && S_ISFIFO(st.st_mode)) {
          return Status::Error(StrCat(path, ": is a FIFO with no reader; not written"));
        }
        return Status::Error(StrCat(path, ": cannot write: ", ErrnoText()));
      }
      int flags = ::fcntl(out.fd_, F_GETFL);
      if (flags >= 0) ::fcntl(out.fd_, F_SETFL, flags & ~O_NONBLOCK);
      out.atomic_ = false;
      return out;
    }
    if (ReadOnly(out.final_path_, st)) {
      return Status::Error(StrCat(path, ": the file is read-only; not replaced"));
    }
  }
  fs::path dir = fs::path(out.final_path_).parent_path();
  out.dir_ = dir.empty() ? "." : dir.string();
  const mode_t mode = exists ? (st.st_mode & 07777) : 0666;
#ifdef O_TMPFILE
  // Linking an O_TMPFILE file needs /proc/self/fd (see Commit).
  if (::access("/proc/self/fd", X_OK) == 0) {
    out.fd_ =
        ::open(out.dir_.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode == 0666 ? 0666 : 0600);
    if (out.fd_ >= 0) out.anonymous_ = true;
  }
#endif
  if (out.fd_ < 0) {
    for (int attempt = 0; attempt < 100 && out.fd_ < 0; ++attempt) {
      std::string tmp = (fs::path(out.dir_) / StrCat(kTempPrefix, RandomSuffix())).string();
      out.fd_ =
          ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode == 0666 ? 0666 : 0600);
      if (out.fd_ >= 0) out.tmp_name_ = tmp;
      if (out.fd_ < 0 && errno != EEXIST) break;
    }
    if (out.fd_ < 0) return Status::Error(StrCat(path, ": cannot write: ", ErrnoText()));
  }
  if (exists) {
    // The replacement is a new file, the caller's: give it the old one's owner and group where
    // the caller may (root may; an owner may keep a group it belongs to), then its mode,
    // which a change of owner can clear bits of.
    if ((st.st_uid != ::geteuid() || st.st_gid != ::getegid()) &&
        ::fchown(out.fd_, st.st_uid, st.st_gid) != 0) {
      [[maybe_unused]] int ignored = ::fchown(out.fd_, static_cast<uid_t>(-1), st.st_gid);
    }
    ::fchmod(out.fd_, mode);
  }
  return out;
}

Status OutputFile::Write(std::string_view bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd_, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error("write");
    }
    written += static_cast<size_t>(n);
  }
  return OkStatus();
}

Status OutputFile::Commit() {
  if (!atomic_) {
    int fd = fd_;
    fd_ = -1;
    committed_ = true;
    if (owns_fd_ && ::close(fd) != 0) return Error("close");
    return OkStatus();
  }
  if (::fsync(fd_) != 0) return Error("fsync");
  if (anonymous_) {
    // Give the unnamed file a name beside the target, then rename it over the target: link
    // cannot replace an existing file. The name exists only between these two calls.
    const std::string proc = StrCat("/proc/self/fd/", fd_);
    for (int attempt = 0; attempt < 100 && tmp_name_.empty(); ++attempt) {
      std::string tmp =
          (std::filesystem::path(dir_) / StrCat(kTempPrefix, RandomSuffix())).string();
      if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        tmp_name_ = tmp;
      } else if (errno != EEXIST) {
        return Error("link");
      }
    }
    if (tmp_name_.empty()) return Error("link");
  }
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    Status error = Error("close");
    ::unlink(tmp_name_.c_str());
    tmp_name_.clear();
    return error;
  }
  if (::rename(tmp_name_.c_str(), final_path_.c_str()) != 0) {
    Status error = Error("rename");
    ::unlink(tmp_name_.c_str());
    tmp_name_.clear();
    return error;
  }
  committed_ = true;
  tmp_name_.clear();
  return OkStatus();
}

namespace {

// The error for a model protobuf cannot serialize (2 GiB or more).
Status CannotSerialize(std::string_view name) {
  return Status::Error(StrCat(name, ": cannot serialize the model (larger than 2 GiB?)"));
}

// Sizes every message of the model (protobuf caches them for the write), refusing a model
// protobuf cannot serialize, before any output is opened.
Status SizeModel(const onnx::ModelProto& model, std::string_view name) {
  if (model.ByteSizeLong() > static_cast<size_t>(INT_MAX)) return CannotSerialize(name);
  return OkStatus();
}

Status WriteAndCommit(OutputFile& out, std::string_view bytes) {
  OI_RETURN_IF_ERROR(out.Write(bytes));
  return out.Commit();
}

// Writes into `fd` what `write` puts into a coded stream over it (and, after the coded
// stream's Trim, into the stream under it, its second argument), through a buffer of 256 KiB.
// False when a write failed, with *error its errno.
template <typename Write>
bool WriteCoded(int fd, Write&& write, int* error) {
  google::protobuf::io::FileOutputStream file(fd, 256 << 10);
  bool ok;
  {
    google::protobuf::io::CodedOutputStream coded(&file);
    write(&coded, &file);
    ok = !coded.HadError();
  }  // the coded stream hands its unused buffer back here
  ok = file.Flush() && ok;
  *error = file.GetErrno();
  return ok;
}

}  // namespace

Status OutputFile::WriteModel(const onnx::ModelProto& model) {
  int error = 0;
  if (WriteCoded(
          fd_,
          [&](google::protobuf::io::CodedOutputStream* out,
              google::protobuf::io::ZeroCopyOutputStream*) { model.SerializeWithCachedSizes(out); },
          &error)) {
    return OkStatus();
  }
  errno = error;
  return Error("write");
}

// ---- Appended value_info entries.

bool CanAppendValueInfo(const onnx::GraphProto& graph) {
  // The fields numbered past value_info, asked by name: reflection would build the format's
  // descriptors first (1.5 M instructions, a tenth of a 10k-node run). model_io_test checks
  // that these are all the fields past value_info.
  return graph.unknown_fields().empty() && graph.quantization_annotation_size() == 0 &&
         graph.sparse_initializer_size() == 0 && graph.metadata_props_size() == 0;
}

namespace {

// The tag of the model's graph field.
uint32_t GraphTag() {
  return WireFormatLite::MakeTag(onnx::ModelProto::kGraphFieldNumber,
                                 WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
}

// The graph field's length: the graph's bytes and the appended entries'.
size_t GraphFieldLength(const ModelWritePlan& plan) {
  return plan.graph_bytes + plan.appended_bytes;
}

// ---- Copying the main graph's nodes and initializers from the source file.

// Whether a node has a graph attribute (inference annotates its subgraphs).
bool HasGraphAttribute(const onnx::NodeProto& node) {
  for (const onnx::AttributeProto& a : node.attribute()) {
    if (a.has_g() || a.graphs_size() > 0) return true;
  }
  return false;
}

// The bytes of a graph's repeated message field (nodes, initializers) of one-byte keys.
template <typename Message>
size_t MessagesBytes(const google::protobuf::RepeatedPtrField<Message>& messages) {
  size_t bytes = 0;
  for (const Message& m : messages) {
    bytes += 1 + WireFormatLite::LengthDelimitedSize(m.ByteSizeLong());
  }
  return bytes;
}

}  // namespace

// A main graph written with runs of its source file: while it lives, the graph's nodes and
// initializers are held by `aside` and its name by `name`, so that protobuf serializes the
// rest (fields 10 and up, unknown fields last) as the graph's tail.
struct GraphSplice {
  int fd = -1;
  const ModelSource* source = nullptr;  // the caller's (PlanModelWrite)
  ModelSource::Run nodes;
  ModelSource::Run initializers;
  bool copy_nodes = false;
  bool copy_initializers = false;
  onnx::GraphProto* graph = nullptr;
  onnx::GraphProto* aside = nullptr;  // on the graph's arena, or owned_aside
  std::unique_ptr<onnx::GraphProto> owned_aside;
  std::optional<std::string> name;

  ~GraphSplice() {
    if (aside != nullptr) {
      graph->mutable_node()->Swap(aside->mutable_node());
      graph->mutable_initializer()->Swap(aside->mutable_initializer());
      if (name) graph->set_name(*name);
    }
    if (fd >= 0) ::close(fd);
  }

  // Whether the file is still the one parsed.
  bool Unchanged() const { return StillTheSource(fd, *source); }

  // Copies [run.begin, run.end) of the file to `out`, read straight into the buffers of the
  // stream under it, `raw` (no copy in memory); the error on failure. A failed write stops
  // the copy with no error: the write's own check reports it.
  std::string Copy(const ModelSource::Run& run, google::protobuf::io::CodedOutputStream* out,
                   google::protobuf::io::ZeroCopyOutputStream* raw) const {
    out->Trim();  // the coded stream's bytes handed to `raw`; it asks for a buffer next time
    for (uint64_t pos = run.begin; pos < run.end;) {
      void* data;
      int size;
      if (!raw->Next(&data, &size)) return "";
      const size_t want =
          static_cast<size_t>(std::min<uint64_t>(static_cast<uint64_t>(size), run.end - pos));
      ssize_t n = 0;
      if (want > 0) {
        do {
          n = ::pread(fd, data, want, static_cast<off_t>(pos));
        } while (n < 0 && errno == EINTR);
        if (n <= 0) {
          raw->BackUp(size);
          return StrCat(source->path, ": cannot read the model file again to write it: ",
                        n < 0 ? ErrnoText() : std::string("it is shorter than it was"));
        }
      }
      raw->BackUp(size - static_cast<int>(n));
      pos += static_cast<uint64_t>(n);
    }
    return "";
  }

  // The graph's bytes as written.
  size_t Bytes() const {
    size_t bytes = copy_nodes ? nodes.end - nodes.begin : MessagesBytes(aside->node());
    if (name) bytes += 1 + WireFormatLite::LengthDelimitedSize(name->size());
    bytes += copy_initializers ? initializers.end - initializers.begin
                               : MessagesBytes(aside->initializer());
    return bytes + graph->ByteSizeLong();
  }

  // Writes the graph: its nodes, its name, its initializers (protobuf's order: fields 1, 2
  // and 5), then the rest as protobuf serializes it. The error on failure.
  std::string Write(google::protobuf::io::CodedOutputStream* out,
                    google::protobuf::io::ZeroCopyOutputStream* raw) const {
    if (copy_nodes) {
      if (std::string error = Copy(nodes, out, raw); !error.empty()) return error;
    } else {
      for (const onnx::NodeProto& n : aside->node()) {
        WireFormatLite::WriteMessage(onnx::GraphProto::kNodeFieldNumber, n, out);
      }
    }
    if (name) WireFormatLite::WriteString(onnx::GraphProto::kNameFieldNumber, *name, out);
    if (copy_initializers) {
      if (std::string error = Copy(initializers, out, raw); !error.empty()) return error;
    } else {
      for (const onnx::TensorProto& t : aside->initializer()) {
        WireFormatLite::WriteMessage(onnx::GraphProto::kInitializerFieldNumber, t, out);
      }
    }
    graph->SerializeWithCachedSizes(out);
    return "";
  }
};

ModelWritePlan::ModelWritePlan() = default;
ModelWritePlan::ModelWritePlan(ModelWritePlan&&) noexcept = default;
ModelWritePlan& ModelWritePlan::operator=(ModelWritePlan&&) noexcept = default;
ModelWritePlan::~ModelWritePlan() = default;
bool ModelWritePlan::spliced_nodes() const { return splice != nullptr && splice->copy_nodes; }
bool ModelWritePlan::spliced_initializers() const {
  return splice != nullptr && splice->copy_initializers;
}

namespace {

// The splice of `graph` (the model's) from `source`, or null where nothing is copied
// (PlanModelWrite says when).
std::unique_ptr<GraphSplice> SpliceGraph(onnx::GraphProto& graph, const ModelSource& source) {
  if (graph.node_size() == 0 && graph.initializer_size() == 0) return nullptr;
  auto splice = std::make_unique<GraphSplice>();
  splice->source = &source;
  splice->fd = ::open(source.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (splice->fd < 0 || !StillTheSource(splice->fd, source)) return nullptr;
  ModelSource::Run& nodes = splice->nodes;
  ModelSource::Run& initializers = splice->initializers;
  if (source.framed) {
    nodes = source.nodes;
    initializers = source.initializers;
  } else {
    const FileFraming framing = ReadFraming(splice->fd, source.size, /*above=*/0);
    if (!framing.read) return nullptr;
    nodes = framing.nodes;
    initializers = framing.initializers;
  }
  splice->copy_nodes =
      !nodes.apart && nodes.count == graph.node_size() && nodes.count > 0 &&
      std::none_of(graph.node().begin(), graph.node().end(), [](const onnx::NodeProto& node) {
        return node.attribute_size() > 0 && HasGraphAttribute(node);
      });
  splice->copy_initializers = !initializers.apart &&
                              initializers.count == graph.initializer_size() &&
                              initializers.count > 0;
  if (!splice->copy_nodes && !splice->copy_initializers) return nullptr;
  // The graph split: its nodes and initializers aside, its name cleared.
  splice->graph = &graph;
  if (google::protobuf::Arena* arena = graph.GetArena()) {
    splice->aside = google::protobuf::Arena::CreateMessage<onnx::GraphProto>(arena);
  } else {
    splice->owned_aside = std::make_unique<onnx::GraphProto>();
    splice->aside = splice->owned_aside.get();
  }
  graph.mutable_node()->Swap(splice->aside->mutable_node());
  graph.mutable_initializer()->Swap(splice->aside->mutable_initializer());
  if (graph.has_name()) {
    splice->name = graph.name();
    graph.clear_name();
  }
  return splice;
}

// Writes the model as planned: the fields before the graph, the graph field (its tag and
// length, the graph's bytes straight from the message or spliced, the appended entries), the
// rest. The error on failure (reading the source again).
std::string WritePlanned(const onnx::ModelProto& model, const ModelWritePlan& plan,
                         google::protobuf::io::CodedOutputStream* out,
                         google::protobuf::io::ZeroCopyOutputStream* raw) {
  out->WriteString(plan.before_graph);
  out->WriteTag(GraphTag());
  out->WriteVarint64(GraphFieldLength(plan));
  if (plan.splice) {
    if (std::string error = plan.splice->Write(out, raw); !error.empty()) return error;
  } else {
    model.graph().SerializeWithCachedSizes(out);
  }
  for (const std::string& chunk : *plan.value_info) out->WriteString(chunk);
  out->WriteString(plan.after_graph);
  if (plan.splice && !plan.splice->Unchanged()) {
    return StrCat(plan.splice->source->path, ": the model file changed while it was copied ",
                  "into the output; the output is refused");
  }
  return "";
}

size_t PlannedSize(const ModelWritePlan& plan) {
  using google::protobuf::io::CodedOutputStream;
  return plan.before_graph.size() + CodedOutputStream::VarintSize32(GraphTag()) +
         CodedOutputStream::VarintSize64(GraphFieldLength(plan)) + GraphFieldLength(plan) +
         plan.after_graph.size();
}

}  // namespace

namespace {

// PlanModelWrite's work; without `splice`, nothing is copied from `source`, which only gives
// back the raw_data its parse left there.
StatusOr<ModelWritePlan> PlanWrite(onnx::ModelProto& model, const AppendedValueInfo& value_info,
                                   std::string_view name, const ModelSource* source, bool splice) {
  ModelWritePlan plan;
  plan.value_info = &value_info;
  for (const std::string& chunk : value_info) plan.appended_bytes += chunk.size();
  if (!model.has_graph() || (plan.appended_bytes > 0 && !CanAppendValueInfo(model.graph()))) {
    return Status::Error(StrCat(name, ": cannot append value_info entries to the model's graph ",
                                "(it has none, or fields protobuf writes after value_info)"));
  }
  {
    // The graph is detached (no copy: the pointer is taken and put back) while the rest is
    // serialized. Protobuf writes known fields in number order, unknown fields last, so the
    // model's bytes without the graph are those of its fields numbered below the graph's,
    // then the rest: `head`, a copy of the model's small fields with only those kept, says
    // where the first part ends.
    onnx::GraphProto* graph = model.unsafe_arena_release_graph();
    struct Reattach {
      onnx::ModelProto& model;
      onnx::GraphProto* graph;
      ~Reattach() { model.unsafe_arena_set_allocated_graph(graph); }
    } reattach{model, graph};
    OI_RETURN_IF_ERROR(SizeModel(model, name));
    std::string rest;
    if (!model.SerializeToString(&rest)) return CannotSerialize(name);
    onnx::ModelProto head;
    head.CopyFrom(model);
    // The fields numbered past the graph, cleared by name (model_io_test checks that these
    // are all of them), and the unknown ones.
    head.clear_opset_import();
    head.clear_metadata_props();
    head.clear_training_info();
    head.clear_functions();
    head.clear_configuration();
    head.mutable_unknown_fields()->Clear();
    head.SerializeToString(&plan.before_graph);
    if (rest.compare(0, plan.before_graph.size(), plan.before_graph) != 0) {
      return Status::Error(StrCat(name, ": cannot serialize the model (its fields are not ",
                                  "written in number order)"));
    }
    plan.after_graph = rest.substr(plan.before_graph.size());
  }
  if (source != nullptr && splice) plan.splice = SpliceGraph(*model.mutable_graph(), *source);
  // Initializers serialized rather than copied need the data their parse left in the file.
  if (source != nullptr && !plan.spliced_initializers()) {
    OI_RETURN_IF_ERROR(RestoreRawData(*source, name));
  }
  // Caches the graph's sizes for the write.
  plan.graph_bytes = plan.splice ? plan.splice->Bytes() : model.graph().ByteSizeLong();
  if (PlannedSize(plan) > static_cast<size_t>(INT_MAX)) return CannotSerialize(name);
  return plan;
}

}  // namespace

StatusOr<ModelWritePlan> PlanModelWrite(onnx::ModelProto& model,
                                        const AppendedValueInfo& value_info, std::string_view name,
                                        const ModelSource* source) {
  return PlanWrite(model, value_info, name, source, /*splice=*/true);
}

Status OutputFile::WriteModel(const onnx::ModelProto& model, const ModelWritePlan& plan) {
  int error = 0;
  std::string planned_error;
  if (WriteCoded(
          fd_,
          [&](google::protobuf::io::CodedOutputStream* out,
              google::protobuf::io::ZeroCopyOutputStream* raw) {
            planned_error = WritePlanned(model, plan, out, raw);
          },
          &error)) {
    if (planned_error.empty()) return OkStatus();
    return Status::Error(planned_error);
  }
  errno = error;
  return Error("write");
}

Status SaveModel(const onnx::ModelProto& model, const std::string& path) {
  OI_RETURN_IF_ERROR(SizeModel(model, path));
  OI_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Open(path));
  OI_RETURN_IF_ERROR(out.WriteModel(model));
  return out.Commit();
}

Status SaveModelToDescriptor(const onnx::ModelProto& model, int fd, std::string_view name) {
  OI_RETURN_IF_ERROR(SizeModel(model, name));
  OutputFile out = OutputFile::Stream(fd, std::string(name));
  OI_RETURN_IF_ERROR(out.WriteModel(model));
  return out.Commit();
}

namespace {

bool Empty(const AppendedValueInfo& value_info) {
  return std::all_of(value_info.begin(), value_info.end(),
                     [](const std::string& chunk) { return chunk.empty(); });
}

}  // namespace

namespace {

// A plan that copies from the source file, made again without it when the output is that
// very file (a descriptor onto it, written directly): the copy would read what the write has
// just overwritten.
Status UnlessOntoTheSource(ModelWritePlan& plan, onnx::ModelProto& model,
                           const AppendedValueInfo& value_info, std::string_view name,
                           const ModelSource* source, int fd) {
  if (!plan.splice) return OkStatus();
  struct stat st;
  const bool onto = ::fstat(fd, &st) != 0 || (static_cast<uint64_t>(st.st_dev) == source->device &&
                                              static_cast<uint64_t>(st.st_ino) == source->inode);
  if (!onto) return OkStatus();
  plan = ModelWritePlan();  // puts the graph back together
  OI_ASSIGN_OR_RETURN(plan, PlanWrite(model, value_info, name, source, /*splice=*/false));
  return OkStatus();
}

}  // namespace

Status SaveModel(onnx::ModelProto& model, const AppendedValueInfo& value_info,
                 const std::string& path, const ModelSource* source) {
  if (Empty(value_info)) {
    if (source != nullptr) OI_RETURN_IF_ERROR(RestoreRawData(*source, path));
    return SaveModel(std::as_const(model), path);
  }
  OI_ASSIGN_OR_RETURN(ModelWritePlan plan, PlanModelWrite(model, value_info, path, source));
  OI_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Open(path));
  OI_RETURN_IF_ERROR(UnlessOntoTheSource(plan, model, value_info, path, source, out.fd()));
  OI_RETURN_IF_ERROR(out.WriteModel(model, plan));
  return out.Commit();
}

Status SaveModelToDescriptor(onnx::ModelProto& model, const AppendedValueInfo& value_info, int fd,
                             std::string_view name, const ModelSource* source) {
  if (Empty(value_info)) {
    if (source != nullptr) OI_RETURN_IF_ERROR(RestoreRawData(*source, name));
    return SaveModelToDescriptor(std::as_const(model), fd, name);
  }
  OI_ASSIGN_OR_RETURN(ModelWritePlan plan, PlanModelWrite(model, value_info, name, source));
  OI_RETURN_IF_ERROR(UnlessOntoTheSource(plan, model, value_info, name, source, fd));
  OutputFile out = OutputFile::Stream(fd, std::string(name));
  OI_RETURN_IF_ERROR(out.WriteModel(model, plan));
  return out.Commit();
}

StatusOr<std::string> SerializeModel(onnx::ModelProto& model, const AppendedValueInfo& value_info,
                                     const ModelSource* source) {
  OI_ASSIGN_OR_RETURN(ModelWritePlan plan, PlanModelWrite(model, value_info, "<memory>", source));
  std::string bytes;
  bytes.reserve(PlannedSize(plan));
  std::string error;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    error = WritePlanned(model, plan, &coded, &stream);
  }
  if (!error.empty()) return Status::Error(error);
  return bytes;
}

Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  OI_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Open(path));
  return WriteAndCommit(out, bytes);
}

}  // namespace onnx_infer
