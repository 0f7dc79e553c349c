// The operator catalog: builds an OpSchema for every operator version of the ONNX domains
// (ai.onnx, ai.onnx.ml, ai.onnx.preview, ai.onnx.preview.training) from the generated tables.
#ifndef ONNX_INFER_SCHEMA_CATALOG_H_
#define ONNX_INFER_SCHEMA_CATALOG_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

// Registers every catalog schema, without rules: the ONNX domains, and onnxruntime's
// com.microsoft operators and default-domain extras (schema/data/). Each is deferred
// (SchemaRegistry::Defer): made from its row on first use.
Status AddCatalogSchemas(SchemaRegistry& registry);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_CATALOG_H_
