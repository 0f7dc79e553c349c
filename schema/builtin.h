// The built-in registry: every catalog schema of the ONNX domains, with the hand-written
// rules of schema/defs/ attached.
#ifndef ONNX_INFER_SCHEMA_BUILTIN_H_
#define ONNX_INFER_SCHEMA_BUILTIN_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

// Built on first use, then immutable. Copy it to add custom operators.
const SchemaRegistry& BuiltinSchemas();
// Whether building it went without a flaw (a rule attached to a schema that does not exist,
// say). Tested; a flaw never stops the registry from being used.
Status BuiltinSchemasStatus();

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_BUILTIN_H_
