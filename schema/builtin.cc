#include "onnx_infer/schema/builtin.h"

#include "onnx_infer/schema/catalog.h"
#include "onnx_infer/schema/defs/register.h"

namespace onnx_infer {
namespace {

struct Built {
  SchemaRegistry registry;
  Status status;
};

const Built& GetBuilt() {
  static const Built* built = [] {
    auto* b = new Built();
    b->status = AddCatalogSchemas(b->registry);
    if (b->status.ok()) b->status = RegisterAiOnnxRules(b->registry);
    if (b->status.ok()) b->status = RegisterContribRules(b->registry);
    return b;
  }();
  return *built;
}

}  // namespace

const SchemaRegistry& BuiltinSchemas() { return GetBuilt().registry; }
Status BuiltinSchemasStatus() { return GetBuilt().status; }

}  // namespace onnx_infer
