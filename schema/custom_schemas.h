// Custom operators described in JSON (docs/custom-ops.md): signature, type constraints and
// an inference rule chosen from a small set (same_as_input, broadcast, elementwise, shape).
#ifndef ONNX_INFER_SCHEMA_CUSTOM_SCHEMAS_H_
#define ONNX_INFER_SCHEMA_CUSTOM_SCHEMAS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

// Registers the operators described by `json_text` into `registry`. Errors name the place
// in the document: "my_ops.json: operators[0].rule.kind: expected one of ...".
Status LoadCustomSchemas(std::string_view json_text, std::string_view source,
                         SchemaRegistry& registry);
// The largest custom schemas file read (64 MiB). A larger regular file is refused by its size,
// a device (/dev/zero) unread, a pipe once it goes beyond it (proto/model_io.h, ReadFile).
inline constexpr uint64_t kMaxCustomSchemasBytes = uint64_t{64} << 20;

// The same for a file, read within kMaxCustomSchemasBytes.
Status LoadCustomSchemasFile(const std::string& path, SchemaRegistry& registry);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_CUSTOM_SCHEMAS_H_
