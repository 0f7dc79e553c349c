#include "onnx_infer/schema/registry.h"

#include <algorithm>

#include "onnx_infer/base/strings.h"

namespace onnx_infer {

Status SchemaRegistry::Register(OpSchema schema) {
  OI_RETURN_IF_ERROR(schema.Finalize(&type_sets_));
  auto& versions = schemas_[Key(schema.domain(), schema.name())];
  const int v = schema.since_version();
  if (versions.count(v)) {
    return Status::Error(StrCat("schema ", schema.Id(), " is already registered"));
  }
  versions.emplace(v, std::move(schema));
  return OkStatus();
}

Status SchemaRegistry::RegisterOrReplace(OpSchema schema) {
  OI_RETURN_IF_ERROR(schema.Finalize(&type_sets_));
  auto& versions = schemas_[Key(schema.domain(), schema.name())];
  const int v = schema.since_version();
  versions.insert_or_assign(v, std::move(schema));
  return OkStatus();
}

Status SchemaRegistry::AttachRule(std::string_view domain, std::string_view name,
                                  std::initializer_list<int> since_versions,
                                  const InferenceRule& rule) {
  auto it = schemas_.find(Key(std::string(CanonicalDomain(domain)), std::string(name)));
  for (int v : since_versions) {
    if (it == schemas_.end() || !it->second.count(v)) {
      return Status::Error(StrCat("no schema ", DisplayDomain(CanonicalDomain(domain)), "::", name,
                                  "-", v, " to attach a rule to"));
    }
    it->second.at(v).Rule(rule);
  }
  return OkStatus();
}

const OpSchema* SchemaRegistry::Lookup(std::string_view domain, std::string_view name,
                                       int64_t opset_version) const {
  auto it = schemas_.find(Key(std::string(CanonicalDomain(domain)), std::string(name)));
  if (it == schemas_.end()) return nullptr;
  const auto& versions = it->second;
  if (opset_version > INT32_MAX) opset_version = INT32_MAX;
  auto v = versions.upper_bound(static_cast<int>(opset_version));
  if (v == versions.begin()) return nullptr;
  return &std::prev(v)->second;
}

std::vector<const OpSchema*> SchemaRegistry::Versions(std::string_view domain,
                                                      std::string_view name) const {
  std::vector<const OpSchema*> out;
  auto it = schemas_.find(Key(std::string(CanonicalDomain(domain)), std::string(name)));
  if (it == schemas_.end()) return out;
  for (const auto& [v, s] : it->second) out.push_back(&s);
  return out;
}

void SchemaRegistry::SetOpsetRange(std::string_view domain, int min_version, int max_version) {
  opset_ranges_[std::string(CanonicalDomain(domain))] = {min_version, max_version};
}

std::optional<std::pair<int, int>> SchemaRegistry::OpsetRange(std::string_view domain) const {
  std::string_view d = CanonicalDomain(domain);
  auto it = opset_ranges_.find(d);
  if (it != opset_ranges_.end()) return it->second;
  int max_since = 0;
  for (const auto& [key, versions] : schemas_) {
    if (key.first == d && !versions.empty())
      max_since = std::max(max_since, versions.rbegin()->first);
  }
  if (max_since == 0) return std::nullopt;
  return std::make_pair(1, max_since);
}

std::vector<const OpSchema*> SchemaRegistry::All() const {
  std::vector<const OpSchema*> out;
  for (const auto& [key, versions] : schemas_) {
    for (const auto& [v, s] : versions) out.push_back(&s);
  }
  return out;
}

size_t SchemaRegistry::size() const {
  size_t n = 0;
  for (const auto& [key, versions] : schemas_) n += versions.size();
  return n;
}

}  // namespace onnx_infer
