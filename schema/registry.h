// SchemaRegistry: every known OpSchema, looked up by domain, op type and the opset version a
// model imports for that domain.
#ifndef ONNX_INFER_SCHEMA_REGISTRY_H_
#define ONNX_INFER_SCHEMA_REGISTRY_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/op_schema.h"

namespace onnx_infer {

class SchemaRegistry {
 public:
  SchemaRegistry() = default;

  // Adds a schema. An error if one with the same domain, name and since_version exists.
  Status Register(OpSchema schema);
  // Adds a schema, replacing one with the same domain, name and since_version (a custom
  // operator registered again, as a notebook cell that runs twice does).
  Status RegisterOrReplace(OpSchema schema);
  // Attaches `rule` to each listed version of an already registered operator.
  Status AttachRule(std::string_view domain, std::string_view name,
                    std::initializer_list<int> since_versions, const InferenceRule& rule);

  // The schema a node uses in a model that imports `opset_version` of `domain`: the one with
  // the greatest since_version not above it. nullptr when there is none.
  const OpSchema* Lookup(std::string_view domain, std::string_view name,
                         int64_t opset_version) const;
  // The opset versions a domain has (for ai.onnx: 1 to 28). Without a range set, a domain's
  // range is 1 to the greatest since_version of its schemas.
  void SetOpsetRange(std::string_view domain, int min_version, int max_version);
  std::optional<std::pair<int, int>> OpsetRange(std::string_view domain) const;
  // Every version of an operator, oldest first (empty if unknown).
  std::vector<const OpSchema*> Versions(std::string_view domain, std::string_view name) const;
  // Every schema, ordered by domain, name and version.
  std::vector<const OpSchema*> All() const;
  size_t size() const;

 private:
  using Key = std::pair<std::string, std::string>;  // canonical domain, op type
  std::map<Key, std::map<int, OpSchema>, std::less<>> schemas_;
  std::map<std::string, std::pair<int, int>, std::less<>> opset_ranges_;
  // The allowed type sets of the registered schemas, one per distinct list (the catalog's
  // repeat): each list of type strings parsed once.
  AllowedTypeSetPool type_sets_;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_REGISTRY_H_
