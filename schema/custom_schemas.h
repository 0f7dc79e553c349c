// Custom operators described in JSON (docs/custom-ops.md): signature, type constraints and
// an inference rule chosen from a small set (same_as_input, broadcast, elementwise, shape).
#ifndef ONNX_INFER_SCHEMA_CUSTOM_SCHEMAS_H_
#define ONNX_INFER_SCHEMA_CUSTOM_SCHEMAS_H_

#include <string>
#include <string_view>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

// Registers the operators described by `json_text` into `registry`. Errors name the place
// in the document: "my_ops.json: operators[0].rule.kind: expected one of ...".
Status LoadCustomSchemas(std::string_view json_text, std::string_view source,
                         SchemaRegistry& registry);
// The same for a file.
Status LoadCustomSchemasFile(const std::string& path, SchemaRegistry& registry);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_CUSTOM_SCHEMAS_H_
