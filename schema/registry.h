// SchemaRegistry: every known OpSchema, looked up by domain, op type and the opset version a
// model imports for that domain.
#ifndef ONNX_INFER_SCHEMA_REGISTRY_H_
#define ONNX_INFER_SCHEMA_REGISTRY_H_

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
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
  SchemaRegistry();
  // A copy has the other's schemas, made and deferred alike.
  SchemaRegistry(const SchemaRegistry& other);
  SchemaRegistry& operator=(const SchemaRegistry& other);
  ~SchemaRegistry();

  // A schema made when first needed: `make(data)` builds it, then it is finalized and given
  // the rules attached to it meanwhile. Every version of an operator is made together, on the
  // first Lookup, Versions or All that reaches it (thread-safe: a registry may be shared
  // once registration is over). The built-in registry defers its catalog so: a process pays
  // for the operators its model uses, not for all of them. An error if the version is
  // registered already. A schema `make` fails to build is left out, its error kept
  // (MakeAll).
  using MakeSchema = StatusOr<OpSchema> (*)(const void* data);
  Status Defer(std::string_view domain, std::string_view name, int since_version, MakeSchema make,
               const void* data);
  // Makes every deferred schema: the first error a `make` or a finalization gave, if any.
  Status MakeAll() const;

  // Adds a schema. An error if one with the same domain, name and since_version exists.
  Status Register(OpSchema schema);
  // Adds a schema, replacing one with the same domain, name and since_version (a custom
  // operator registered again, as a notebook cell that runs twice does).
  Status RegisterOrReplace(OpSchema schema);
  // Attaches `rule` to each listed version of an already registered (or deferred) operator.
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
  struct Deferred {
    int since_version;
    MakeSchema make;
    const void* data;
    std::optional<InferenceRule> rule;  // attached before it was made
  };
  // An operator's versions: those made, and those deferred until the first use (`made`,
  // set once they are: never cleared, so that their versions stay readable).
  struct Entry {
    Entry() = default;
    Entry(const Entry& other);
    std::map<int, OpSchema> versions;
    std::vector<Deferred> deferred;
    mutable std::atomic<bool> made{true};
  };
  const Entry* Find(std::string_view domain, std::string_view name) const;
  // Makes the entry's deferred versions (once; under make_mutex_).
  void Make(const Entry& entry) const;
  const Deferred* FindDeferred(const Entry& entry, int since_version) const;

  std::map<Key, Entry, std::less<>> schemas_;
  std::pair<const Key, Entry>* last_deferred_ = nullptr;  // Defer's last entry (not copied)
  std::map<std::string, std::pair<int, int>, std::less<>> opset_ranges_;
  // The allowed type sets of the registered schemas, one per distinct list (the catalog's
  // repeat): each list of type strings parsed once. Mutable: deferred schemas are finalized
  // on first use.
  mutable AllowedTypeSetPool type_sets_;
  mutable std::unique_ptr<std::mutex> make_mutex_;
  mutable Status make_status_;       // the first error of a deferred schema
  mutable uint32_t next_order_ = 1;  // OpSchema::registry_order of the next schema made
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_REGISTRY_H_
