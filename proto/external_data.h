// Reading one tensor's bytes from an external data file (TensorProto.data_location ==
// EXTERNAL), safely.
//
// Whoever wrote the model controls every `external_data` entry, so a reference is hostile
// until proven otherwise: it may point outside the model's directory (an absolute path,
// `..`, a symbolic or hard link to /etc/shadow), or ask for a petabyte. ReadExternalData
// applies the layers of ../shared/spec/ExternalDataSecurity.md in order:
//
//   keys       only location, offset, length, checksum and basepath are recognized; any
//              other key is ignored and returned for the caller to report. checksum is not
//              verified and basepath is never used as a directory: the model's directory is.
//   numbers    offset and length are non-negative decimal integers ("12", not "-1", "0x10",
//              " 3" or "1e3"); the length must equal the tensor's expected byte size and
//              stay under the caller's cap.
//   location   relative, without a `..` component; no component under the model directory
//              may be a symbolic link; the canonical path (weakly_canonical) must lie inside
//              the canonical model directory; the file must be a regular file with one link.
//   open       openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) from the model directory, so
//              the kernel enforces containment at open time; where the kernel lacks openat2
//              (ENOSYS), open(O_NOFOLLOW) of the canonical path, then fstat of the open file
//              and stat of the path must name the same inode. After either, the open file
//              must be a regular file with one link.
//   size       offset <= file size and offset + length <= file size, checked on the open
//              file before any byte is read; the read is exactly `length` bytes.
//
// Every failure is a Status naming the tensor and the reason; nothing here throws or aborts.
#ifndef ONNX_INFER_PROTO_EXTERNAL_DATA_H_
#define ONNX_INFER_PROTO_EXTERNAL_DATA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer {

// A tensor's external_data entries, validated but not yet resolved against a directory.
struct ExternalDataRef {
  std::string location;
  int64_t offset = 0;
  std::optional<int64_t> length;          // absent: up to the end of the file
  std::vector<std::string> ignored_keys;  // keys the format does not define, in model order
};

// Reads the entries of `tensor.external_data` without touching the file system: the keys,
// the numbers and the form of the location (not empty, relative, no `..`, no NUL byte).
StatusOr<ExternalDataRef> ParseExternalDataRef(const onnx::TensorProto& tensor);

struct ExternalDataOptions {
  // Never read more than this many bytes, whatever the model says.
  int64_t max_bytes = 0;
  // Tests turn this off to exercise the fallback used where the kernel has no openat2.
  bool use_openat2 = true;
};

struct ExternalData {
  std::string bytes;
  std::vector<std::string> ignored_keys;  // as in ExternalDataRef, for the caller to report
};

// Reads the `expected_bytes` bytes of `tensor` from its external file under `model_dir`
// (the directory that holds the model file). See the top of this file for what is checked.
StatusOr<ExternalData> ReadExternalData(const onnx::TensorProto& tensor,
                                        const std::string& model_dir, int64_t expected_bytes,
                                        const ExternalDataOptions& options);

}  // namespace onnx_infer

#endif  // ONNX_INFER_PROTO_EXTERNAL_DATA_H_
