// SchemaRegistry: every known OpSchema, looked up by domain, op type and the opset version a
// model imports for that domain.
#ifndef ONNX_INFER_SCHEMA_REGISTRY_H_
#define ONNX_INFER_SCHEMA_REGISTRY_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "schema/op_schema.h"

namespace onnx_infer {

class SchemaRegistry {
 public:
  SchemaRegistry() = default;

  // Adds a schema. An error if one with the same domain, name and since_version exists.
  Status Register(OpSchema schema);
  // Attaches `rule` to each listed version of an already registered operator.
  Status AttachRule(std::string_view domain, std::string_view name,
                    std::initializer_list<int> since_versions, const InferenceRule& rule);

  // The schema a node uses in a model that imports `opset_version` of `domain`: the one with
  // the greatest since_version not above it. nullptr when there is none.
  const OpSchema* Lookup(std::string_view domain, std::string_view name,
                         int64_t opset_version) const;
  // Every version of an operator, oldest first (empty if unknown).
  std::vector<const OpSchema*> Versions(std::string_view domain, std::string_view name) const;
  // Every schema, ordered by domain, name and version.
  std::vector<const OpSchema*> All() const;
  size_t size() const;

 private:
  using Key = std::pair<std::string, std::string>;  // canonical domain, op type
  std::map<Key, std::map<int, OpSchema>, std::less<>> schemas_;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_REGISTRY_H_
