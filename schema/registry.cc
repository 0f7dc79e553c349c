#include "onnx_infer/schema/registry.h"

#include <algorithm>

#include "onnx_infer/base/strings.h"

namespace onnx_infer {

SchemaRegistry::SchemaRegistry() : make_mutex_(std::make_unique<std::mutex>()) {}

SchemaRegistry::~SchemaRegistry() = default;

SchemaRegistry::Entry::Entry(const Entry& other)
    : versions(other.versions),
      deferred(other.deferred),
      made(other.made.load(std::memory_order_acquire)) {}

SchemaRegistry::SchemaRegistry(const SchemaRegistry& other)
    : make_mutex_(std::make_unique<std::mutex>()) {
  // Under the other's lock: none of its entries is being made meanwhile.
  std::lock_guard<std::mutex> lock(*other.make_mutex_);
  schemas_ = other.schemas_;
  opset_ranges_ = other.opset_ranges_;
  type_sets_ = other.type_sets_;
  make_status_ = other.make_status_;
  next_order_ = other.next_order_;
}

SchemaRegistry& SchemaRegistry::operator=(const SchemaRegistry& other) {
  if (this != &other) {
    SchemaRegistry copy(other);
    std::lock_guard<std::mutex> lock(*make_mutex_);
    schemas_ = std::move(copy.schemas_);
    last_deferred_ = nullptr;
    opset_ranges_ = std::move(copy.opset_ranges_);
    type_sets_ = std::move(copy.type_sets_);
    make_status_ = std::move(copy.make_status_);
    next_order_ = copy.next_order_;
  }
  return *this;
}

const SchemaRegistry::Deferred* SchemaRegistry::FindDeferred(const Entry& entry,
                                                             int since_version) const {
  if (entry.made.load(std::memory_order_acquire)) return nullptr;
  for (const Deferred& d : entry.deferred) {
    if (d.since_version == since_version) return &d;
  }
  return nullptr;
}

Status SchemaRegistry::Defer(std::string_view domain, std::string_view name, int since_version,
                             MakeSchema make, const void* data) {
  // The catalog registers an operator's versions one after the other: the last entry is
  // looked at first.
  const std::string_view canonical = CanonicalDomain(domain);
  if (last_deferred_ == nullptr || last_deferred_->first.first != canonical ||
      last_deferred_->first.second != name) {
    last_deferred_ = &*schemas_.try_emplace(Key(std::string(canonical), std::string(name))).first;
  }
  Entry& entry = last_deferred_->second;
  if (entry.versions.count(since_version) || FindDeferred(entry, since_version)) {
    return Status::Error(StrCat("schema ", DisplayDomain(CanonicalDomain(domain)), "::", name, "-",
                                since_version, " is already registered"));
  }
  if (entry.made.load(std::memory_order_relaxed)) entry.deferred.clear();  // all made before
  entry.deferred.push_back({since_version, make, data, std::nullopt});
  entry.made.store(false, std::memory_order_release);
  return OkStatus();
}

void SchemaRegistry::Make(const Entry& entry) const {
  if (entry.made.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(*make_mutex_);
  if (entry.made.load(std::memory_order_relaxed)) return;
  // Only this thread, under the lock, writes the versions of an entry not made yet; readers
  // wait for `made`.
  auto& versions = const_cast<Entry&>(entry).versions;
  for (const Deferred& d : entry.deferred) {
    if (versions.count(d.since_version)) continue;  // replaced (RegisterOrReplace)
    StatusOr<OpSchema> schema = d.make(d.data);
    Status st = schema.ok() ? schema->Finalize(&type_sets_) : schema.status();
    if (!st.ok()) {
      if (make_status_.ok()) make_status_ = st;
      continue;
    }
    if (d.rule) schema->Rule(*d.rule);
    schema->set_registry_order(next_order_++);
    versions.emplace(d.since_version, std::move(*schema));
  }
  entry.made.store(true, std::memory_order_release);
}

Status SchemaRegistry::MakeAll() const {
  for (const auto& [key, entry] : schemas_) Make(entry);
  std::lock_guard<std::mutex> lock(*make_mutex_);
  return make_status_;
}

Status SchemaRegistry::Register(OpSchema schema) {
  OI_RETURN_IF_ERROR(schema.Finalize(&type_sets_));
  schema.set_registry_order(next_order_++);
  auto& entry = schemas_[Key(schema.domain(), schema.name())];
  const int v = schema.since_version();
  if (entry.versions.count(v) || FindDeferred(entry, v)) {
    return Status::Error(StrCat("schema ", schema.Id(), " is already registered"));
  }
  entry.versions.emplace(v, std::move(schema));
  return OkStatus();
}

Status SchemaRegistry::RegisterOrReplace(OpSchema schema) {
  OI_RETURN_IF_ERROR(schema.Finalize(&type_sets_));
  schema.set_registry_order(next_order_++);
  auto& entry = schemas_[Key(schema.domain(), schema.name())];
  const int v = schema.since_version();
  // A deferred version is replaced too: Make skips a version made already.
  entry.versions.insert_or_assign(v, std::move(schema));
  return OkStatus();
}

Status SchemaRegistry::AttachRule(std::string_view domain, std::string_view name,
                                  std::initializer_list<int> since_versions,
                                  const InferenceRule& rule) {
  auto it = schemas_.find(Key(std::string(CanonicalDomain(domain)), std::string(name)));
  for (int v : since_versions) {
    if (it != schemas_.end()) {
      Entry& entry = it->second;
      if (auto made = entry.versions.find(v); made != entry.versions.end()) {
        made->second.Rule(rule);
        continue;
      }
      if (!entry.made.load(std::memory_order_relaxed)) {
        auto d = std::find_if(entry.deferred.begin(), entry.deferred.end(),
                              [v](const Deferred& d) { return d.since_version == v; });
        if (d != entry.deferred.end()) {
          d->rule = rule;
          continue;
        }
      }
    }
    return Status::Error(StrCat("no schema ", DisplayDomain(CanonicalDomain(domain)), "::", name,
                                "-", v, " to attach a rule to"));
  }
  return OkStatus();
}

const SchemaRegistry::Entry* SchemaRegistry::Find(std::string_view domain,
                                                  std::string_view name) const {
  auto it = schemas_.find(Key(std::string(CanonicalDomain(domain)), std::string(name)));
  if (it == schemas_.end()) return nullptr;
  Make(it->second);
  return &it->second;
}

const OpSchema* SchemaRegistry::Lookup(std::string_view domain, std::string_view name,
                                       int64_t opset_version) const {
  const Entry* entry = Find(domain, name);
  if (entry == nullptr) return nullptr;
  const auto& versions = entry->versions;
  if (opset_version > INT32_MAX) opset_version = INT32_MAX;
  auto v = versions.upper_bound(static_cast<int>(opset_version));
  if (v == versions.begin()) return nullptr;
  return &std::prev(v)->second;
}

std::vector<const OpSchema*> SchemaRegistry::Versions(std::string_view domain,
                                                      std::string_view name) const {
  std::vector<const OpSchema*> out;
  const Entry* entry = Find(domain, name);
  if (entry == nullptr) return out;
  for (const auto& [v, s] : entry->versions) out.push_back(&s);
  return out;
}

void SchemaRegistry::SetOpsetRange(std::string_view domain, int min_version, int max_version) {
  opset_ranges_[std::string(CanonicalDomain(domain))] = {min_version, max_version};
}

std::optional<std::pair<int, int>> SchemaRegistry::OpsetRange(std::string_view domain) const {
  std::string_view d = CanonicalDomain(domain);
  auto it = opset_ranges_.find(d);
  if (it != opset_ranges_.end()) return it->second;
  // The greatest since_version. (A domain without a range is a custom one, whose schemas are
  // registered, not deferred: making its entries costs nothing.)
  int max_since = 0;
  for (const auto& [key, entry] : schemas_) {
    if (key.first != d) continue;
    Make(entry);
    if (!entry.versions.empty()) max_since = std::max(max_since, entry.versions.rbegin()->first);
  }
  if (max_since == 0) return std::nullopt;
  return std::make_pair(1, max_since);
}

std::vector<const OpSchema*> SchemaRegistry::All() const {
  std::vector<const OpSchema*> out;
  for (const auto& [key, entry] : schemas_) {
    Make(entry);
    for (const auto& [v, s] : entry.versions) out.push_back(&s);
  }
  return out;
}

size_t SchemaRegistry::size() const {
  size_t n = 0;
  for (const auto& [key, entry] : schemas_) {
    Make(entry);
    n += entry.versions.size();
  }
  return n;
}

}  // namespace onnx_infer
