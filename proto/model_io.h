// Reading and writing ONNX model files.
#ifndef ONNX_INFER_PROTO_MODEL_IO_H_
#define ONNX_INFER_PROTO_MODEL_IO_H_

#include <google/protobuf/arena.h>

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer {

// The largest model read: protobuf cannot parse a message of 2 GiB or more (its sizes are
// ints). A larger regular file is refused by its size, before a byte is read.
inline constexpr uint64_t kMaxModelBytes = INT_MAX;  // 2 GiB - 1

// Reads a binary .onnx file. Front ends call LoadModel (inference/load_model.h), which reads
// text models too; this is the binary half of it. Errors say what is wrong: the file cannot be
// opened, is a directory or a device, is empty, is larger than protobuf can parse (2 GiB), is
// not valid protobuf (a truncated or corrupt file), or parses but is no model (no graph).
StatusOr<onnx::ModelProto> LoadBinaryModel(const std::string& path);
// The same for bytes in memory; `source` names them in messages.
StatusOr<onnx::ModelProto> ParseModel(std::string_view bytes, std::string_view source);
// The same, parsed into a message created on `arena`, which owns it (and whatever a failed
// parse allocated): a model's messages carved from the arena's blocks are allocated and freed
// at a fraction of the cost of one by one (the Python binding parses every call's model so).
StatusOr<onnx::ModelProto*> ParseModel(std::string_view bytes, std::string_view source,
                                       google::protobuf::Arena* arena);

// Parses a binary model straight from the regular file at `path`, read through a buffer of
// 256 KiB: the file's bytes are never in memory whole beside the parsed model (on a large
// model that halves the peak of the load). Only a regular, non-empty file within
// kMaxModelBytes is read so, with ParseModel's limits; anything else (a pipe, a directory, a
// missing file), and any file that does not parse as a model, gives nullopt, and the caller
// reads it the buffered way (ReadFile, then ParseModel or the text syntax), whose messages
// say what is wrong: one path for errors, so they are the same whichever way a file is read.
// LoadBinaryModel and LoadModel (inference/load_model.h) try this first.
std::optional<onnx::ModelProto> TryParseModelFromFile(const std::string& path);
// The same, parsed into a message created on `arena` (Arena::CreateMessage): the model's
// messages are carved from the arena's blocks rather than allocated one by one, which takes
// less memory on a large model. nullptr where the overload above gives nullopt; what a failed
// attempt allocated stays on the arena until it is freed, so pass an arena that is freed then
// (LoadModelOnArena in inference/load_model.h does).
onnx::ModelProto* TryParseModelFromFile(const std::string& path, google::protobuf::Arena* arena);

// The file a model was parsed from, as it was then: a write may copy the parts of the main
// graph that are as they were parsed (its nodes, its initializers) from the file rather than
// serialize them again (PlanModelWrite). The identity is the file's device, inode, size and
// change times: a file replaced or written to since is not read again.
//
// A parse may leave the bytes of large initializers in the file (FileParseOptions): each is
// then listed here, its tensor without raw_data until RestoreRawData reads it back.
struct RawDataInFile {
  onnx::TensorProto* tensor = nullptr;  // a main-graph initializer of the model parsed
  uint64_t offset = 0;                  // its raw_data: [offset, offset + size) of the file
  uint64_t size = 0;
};
struct ModelSource {
  // Where a repeated field's entries lie in the file: [begin, end), `count` of them, `apart`
  // when other bytes come between two of them.
  struct Run {
    uint64_t begin = 0;
    uint64_t end = 0;
    int64_t count = 0;
    bool apart = false;

    // `n` entries in [first, last).
    void Add(uint64_t first, uint64_t last, int64_t n) {
      if (count == 0) {
        begin = first;
      } else if (first != end) {
        apart = true;
      }
      end = last;
      count += n;
    }
  };

  std::string path;
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t size = 0;
  int64_t modified_ns = 0;
  int64_t changed_ns = 0;
  // The main graph's node and initializer entries, when the parse read the file's framing
  // (`framed`: TryParseModelFromFile onto an arena does, for a model with one graph field);
  // otherwise a write reads it again.
  bool framed = false;
  Run nodes;
  Run initializers;
  std::vector<RawDataInFile> raw_data_in_file;  // in the order of the graph's initializers
};
// How TryParseModelFromFile reads the file onto an arena.
struct FileParseOptions {
  // Above 0: a main-graph initializer's raw_data longer than this many bytes is left in the
  // file, not read (ModelSource::raw_data_in_file), for a caller that never reads such data
  // (ConstValueOfTensor with a bound on the elements does not: schema/type_proto.h) and
  // writes the model with its source (PlanModelWrite), which copies the initializers from
  // the file or reads the data back first. The model is otherwise the one the whole parse
  // makes; a tensor holding more than one raw_data field keeps them (the last one counts),
  // and a file whose framing is not protobuf's plain one (more than one graph field, groups)
  // is parsed whole.
  uint64_t leave_raw_data_above = 0;
};
// The least leave_raw_data_above worth asking for: raw_data of 16 KiB or more, a field whose
// length takes three bytes or more. Shorter data costs little to read, and the framing is
// read faster when no shorter entry needs looking into.
inline constexpr uint64_t kLeaveRawDataAboveMin = (uint64_t{1} << 14) - 1;
// TryParseModelFromFile onto `arena`, and where a model came from: `*source` is set when one
// is returned.
onnx::ModelProto* TryParseModelFromFile(const std::string& path, google::protobuf::Arena* arena,
                                        ModelSource* source, const FileParseOptions& options = {});
// Reads back into their tensors the raw_data that the parse left in `source`'s file and that
// they do not hold yet (a tensor given raw_data since is left as it is). The error, naming
// the model `name`, when the file is no longer the one parsed or cannot be read; a tensor
// not restored then keeps no raw_data. The writers below call it before they serialize
// initializers they do not copy from the file.
Status RestoreRawData(const ModelSource& source, std::string_view name);

// How much ReadFile reads, and an early look at a stream's first bytes.
struct ReadLimits {
  uint64_t max_bytes = kMaxModelBytes;
  // Said of a file over the limit: what the limit is and why.
  std::string_view max_text =
      "2 GiB, the most protobuf can parse; store large tensors as external data";
  // For a pipe, FIFO or socket, whose size is not known in advance: called once on the first
  // bytes (up to 4 KiB, or all of a shorter stream); an error stops reading there, so an
  // endless stream of bytes that cannot be what is expected is refused at once.
  std::function<Status(std::string_view head)> check_head;
};

// Reads a whole file; errors say why (missing, a directory, unreadable, too large).
// - A regular file is refused by its size, before it is read, when over the limit.
// - A pipe, FIFO or socket is read up to the limit (refused once it goes beyond). A FIFO is
//   opened without waiting for a writer: one that has none reads as empty, never blocks.
// - A character or block device (/dev/zero, a terminal) or a directory is refused unread.
StatusOr<std::string> ReadFile(const std::string& path, const ReadLimits& limits = {});
// The same for a descriptor already open (standard input: fd 0); `source` names it.
StatusOr<std::string> ReadDescriptor(int fd, std::string_view source,
                                     const ReadLimits& limits = {});

// Where an output named `path` lands: its symbolic links followed (up to 40), to the file
// or the dangling name at the end. With `protect`, a link is not followed where the kernel's
// fs.protected_symlinks would refuse it for an open: in a sticky world-writable directory
// (/tmp), a link that belongs to neither the caller nor the directory's owner (an error).
StatusOr<std::string> ResolveOutputLinks(const std::string& path, bool protect);
// Whether two output names land on one file, whatever their spelling (`m.onnx`, `./m.onnx`,
// an absolute path, a symbolic link): the same device and inode, or, for a name that does
// not exist yet, the same directory (device and inode) and last component. Only a regular
// file or a new name counts, which an output replaces: writing a device or a FIFO twice
// (/dev/null, a pipe both descriptors lead to) replaces nothing.
bool SameOutputFile(const std::string& a, const std::string& b);

struct ModelWritePlan;  // below

// An output file being written. Open decides by what is at `path` (following symbolic links,
// as ResolveOutputLinks does with `protect`: a link another user planted in /tmp is refused):
// - one of this process's open descriptors by name (/dev/stdout, /dev/stderr, /dev/fd/N,
//   /proc/self/fd/N): written through that descriptor, as the shell set it up.
// - nothing, or a writable regular file: the bytes go to a temporary file in the target's
//   directory (O_TMPFILE, which has no name, so a killed run leaves nothing behind; where the
//   file system lacks it, a file named `.infer-shapes-tmp.XXXXXX`), which Commit flushes to
//   disk and renames over the target. An existing file's permissions are kept, and its owner
//   and group where the caller may set them (root); a new one gets 0666 minus the umask. The
//   rename replaces that one name: other hard links of the old file keep the old contents.
//   On any failure the target is untouched.
// - a character device or a FIFO (/dev/stdout, /dev/null, a named pipe with a reader): it is
//   written directly, as a shell redirection would, never replaced by a regular file. A FIFO
//   without a reader is refused rather than waited on.
// - a regular file without write permission (for the user, or, for root, without any write
//   bit), a directory, a block device or a socket: refused, nothing written.
class OutputFile {
 public:
  static StatusOr<OutputFile> Open(const std::string& path);
  // Writes to a descriptor the caller owns (standard output: fd 1), directly; `name` is
  // used in messages.
  static OutputFile Stream(int fd, std::string name);

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) = delete;
  OutputFile(const OutputFile&) = delete;
  ~OutputFile();  // without a successful Commit, the temporary file is removed

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  Status Write(std::string_view bytes);
  // Serializes `model` straight into the file, through a small buffer: no copy of the
  // serialized model in memory. The model's sizes must be cached (ByteSizeLong, as SaveModel
  // does before it opens the output) and it must not change in between.
  Status WriteModel(const onnx::ModelProto& model);
  // The same, with `value_info` written as if its entries had been appended to the model's
  // graph.value_info (see AppendedValueInfo below); `plan` from PlanModelWrite, the model
  // unchanged since.
  Status WriteModel(const onnx::ModelProto& model, const ModelWritePlan& plan);
  // Makes the output final: flush and rename (atomic targets), close (direct ones).
  Status Commit();

 private:
  OutputFile() = default;
  Status Error(std::string_view step) const;

  std::string path_;        // the target as given, for messages
  std::string final_path_;  // where the data lands: the target, its symbolic links resolved
  std::string dir_;
  std::string tmp_name_;  // the named temporary file, when O_TMPFILE is not used
  int fd_ = -1;
  bool owns_fd_ = true;
  bool atomic_ = true;
  bool anonymous_ = false;  // O_TMPFILE
  bool committed_ = false;
};

// Writes the model to `path` as OutputFile does: atomically, or directly to a device or FIFO.
// The bytes are serialized straight into the output (OutputFile::WriteModel); a model
// protobuf cannot serialize (2 GiB or more) is refused before the output is opened.
Status SaveModel(const onnx::ModelProto& model, const std::string& path);
// Writes the model to an open descriptor (standard output); `name` names it in messages.
Status SaveModelToDescriptor(const onnx::ModelProto& model, int fd, std::string_view name);

// ---- Writing new value_info entries of the main graph as bytes (InferenceOptions::
// stream_new_value_info). A caller that only writes the annotated model need not make a
// ValueInfoProto message per new value: the entries' serialized bytes, appended to the graph's
// bytes, are what protobuf would write for them.

// Serialized value_info entries of a GraphProto, each framed as protobuf frames a repeated
// field's element (the tag of GraphProto's value_info field, the length as a varint, the
// ValueInfoProto's bytes), in the order they would have been appended; in chunks, so that a
// large buffer never grows by copying.
using AppendedValueInfo = std::vector<std::string>;

// Whether entries appended to `graph.value_info` may be written after the graph's own bytes:
// protobuf writes the known fields in field-number order, then the unknown ones, so this holds
// when no field numbered after value_info is set and the graph has no unknown fields (read
// through the descriptor, so it stays true of a newer onnx.proto).
bool CanAppendValueInfo(const onnx::GraphProto& graph);

// The sizes of a model written with appended value_info entries, worked out before the output
// is opened (PlanModelWrite). The fields before the graph and after it are serialized here:
// they are small (names, versions, opset_import, functions); the graph is written straight
// into the output.
struct GraphSplice;  // model_io.cc
struct ModelWritePlan {
  ModelWritePlan();
  ModelWritePlan(ModelWritePlan&&) noexcept;
  ModelWritePlan& operator=(ModelWritePlan&&) noexcept;
  ~ModelWritePlan();  // puts a spliced graph back together

  const AppendedValueInfo* value_info = nullptr;
  size_t appended_bytes = 0;
  std::string before_graph;  // the model's fields numbered below the graph's
  std::string after_graph;   // the others, unknown fields last
  size_t graph_bytes = 0;    // the graph's own bytes, without the appended entries
  // With a source (PlanModelWrite), the graph's nodes and initializers as runs of the
  // source file's bytes, copied at the write; while the plan lives, the graph's nodes and
  // initializers are held aside and its name cleared (the plan's destructor puts them back).
  // Null when nothing is copied.
  std::unique_ptr<GraphSplice> splice;
  bool spliced_nodes() const;         // the nodes are copied from the source
  bool spliced_initializers() const;  // the initializers are
};
// Sizes the model (as SaveModel does) with `value_info` appended to its graph's value_info.
//
// With `source`, the file the model was parsed from (TryParseModelFromFile), the main graph's
// nodes and initializers are copied from the file rather than serialized again: the caller
// vouches that the model's initializers, and its nodes without a graph attribute, are as
// parsed (inference changes a node only in its subgraphs: the CLI passes its input file).
// Copied bytes parse to the very messages the model holds; they are protobuf's own bytes for
// a file protobuf wrote (every exporter's), and a file encoded otherwise (repeated numbers
// unpacked, a message's fields out of order) keeps its encoding in the runs copied. Each of
// the two is copied when the file is the one parsed (device, inode, size, times), its model
// has one graph field, the field's entries lie in one run (as protobuf writes them) of the
// count the graph has, and, for the nodes, no node has a graph attribute; otherwise it is
// serialized. The file is read again at the write, which fails, with nothing committed, if
// the file changed in between. Initializers serialized rather than copied first get back the
// raw_data their parse left in the file (RestoreRawData; its error is the plan's). The plan
// refers to `value_info` and `source`, which must outlive it.
//
// Refuses, with SaveModel's message, a model protobuf could not serialize (2 GiB or more), a
// model without a graph, and, when there are bytes to append, a graph that fails
// CanAppendValueInfo (entries appended to it cannot be written as protobuf would write them). The
// model is left as it was (its graph is detached while the other fields are serialized).
StatusOr<ModelWritePlan> PlanModelWrite(onnx::ModelProto& model,
                                        const AppendedValueInfo& value_info, std::string_view name,
                                        const ModelSource* source = nullptr);
// SaveModel and SaveModelToDescriptor with `value_info` appended to the graph's value_info:
// the bytes written are those of SaveModel on the model with those entries added as messages.
// With no bytes to append, they are SaveModel and SaveModelToDescriptor, whatever the graph.
// With `source`, as PlanModelWrite says.
Status SaveModel(onnx::ModelProto& model, const AppendedValueInfo& value_info,
                 const std::string& path, const ModelSource* source = nullptr);
Status SaveModelToDescriptor(onnx::ModelProto& model, const AppendedValueInfo& value_info, int fd,
                             std::string_view name, const ModelSource* source = nullptr);
// The same bytes in memory (tests).
StatusOr<std::string> SerializeModel(onnx::ModelProto& model, const AppendedValueInfo& value_info,
                                     const ModelSource* source = nullptr);

// Writes bytes to `path` as SaveModel does.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace onnx_infer

#endif  // ONNX_INFER_PROTO_MODEL_IO_H_
