// SymbolContext and interning: each context owns a table of nodes, and Intern() puts a node
// in the table of the calling thread's current context.
#include "onnx_infer/symbolic/context.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <deque>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {
namespace {

size_t Mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

// A node's identity is its key (expr.h): a stored node and a key on the stack are hashed
// and compared through the same view, so they agree whenever the fields are equal.
NodeKey KeyOf(const DimNode& n) {
  return NodeKey{n.kind, n.value, n.name, n.terms, n.lhs, n.rhs, n.size};
}

size_t HashKey(const NodeKey& k) {
  size_t h = Mix(static_cast<size_t>(k.kind), std::hash<int64_t>()(k.value));
  if (!k.name.empty()) h = Mix(h, std::hash<std::string_view>()(k.name));
  for (const auto& [t, c] : k.terms) {
    h = Mix(h, std::hash<const void*>()(t));
    h = Mix(h, std::hash<int64_t>()(c));
  }
  h = Mix(h, std::hash<const void*>()(k.lhs));
  return Mix(h, std::hash<const void*>()(k.rhs));
}

// Children are interned in the same context, so comparing them by address is comparing them
// structurally. `size` follows from the rest and is not compared.
bool KeysEqual(const NodeKey& a, const NodeKey& b) {
  return a.kind == b.kind && a.value == b.value && a.name == b.name &&
         std::equal(a.terms.begin(), a.terms.end(), b.terms.begin(), b.terms.end()) &&
         a.lhs == b.lhs && a.rhs == b.rhs;
}

// A key waiting to be looked up, with its hash computed once.
struct HashedKey {
  const NodeKey& key;
  size_t hash;
};

// Transparent: the table holds node pointers and is searched by HashedKey.
struct NodeHash {
  using is_transparent = void;
  size_t operator()(const DimNode* n) const { return n->hash; }
  size_t operator()(const HashedKey& k) const { return k.hash; }
};
struct NodeEq {
  using is_transparent = void;
  bool operator()(const DimNode* a, const DimNode* b) const {
    return a == b || KeysEqual(KeyOf(*a), KeyOf(*b));
  }
  bool operator()(const HashedKey& k, const DimNode* n) const {
    return k.hash == n->hash && KeysEqual(k.key, KeyOf(*n));
  }
  bool operator()(const DimNode* n, const HashedKey& k) const { return (*this)(k, n); }
};

// The context of this thread's innermost open Scope; null means the default context.
// constinit and trivially destructible, so reading it costs one thread-local load.
constinit thread_local SymbolContext* current = nullptr;

std::atomic<int64_t> live_contexts{0};

}  // namespace

// One context's nodes. The mutex makes a context safe to share between threads; it is taken
// once per constructed node (every intermediate node of a simplification included), and is
// uncontended unless threads share the context.
class InternTable {
 public:
  // The node is built only when the table has none equal to `key`: a hit hashes, locks and
  // compares, and allocates nothing.
  const DimNode* Intern(const NodeKey& key) {
    const HashedKey hashed{key, HashKey(key)};
    std::lock_guard<std::mutex> lock(mu_);
    auto it = set_.find(hashed);
    if (it != set_.end()) return *it;
    assert(ChildrenAreOwn(key) &&
           "a Dim of another SymbolContext was combined with this context's (symbolic/context.h)");
    DimNode& stored = nodes_.emplace_back(DimNode{key.kind});
    stored.value = key.value;
    stored.name = key.name;
    stored.terms.assign(key.terms.begin(), key.terms.end());
    stored.lhs = key.lhs;
    stored.rhs = key.rhs;
    stored.size = key.size;
    stored.hash = hashed.hash;
    set_.insert(&stored);
    return &stored;
  }

  // Constants in [kLowConst, kLowConst + kCachedConsts) are looked up in an array before the
  // table: they are most of the nodes rules ask for (the 1 of every broadcast, the 0 of every
  // comparison), and a table lookup hashes and locks. A slot is filled once, with the node
  // the table holds, so a cached constant is the same pointer as an interned one.
  const DimNode* InternConst(int64_t value) {
    const bool cached = value >= kLowConst && value < kLowConst + kCachedConsts;
    std::atomic<const DimNode*>* slot = cached ? &consts_[value - kLowConst] : nullptr;
    if (slot) {
      if (const DimNode* n = slot->load(std::memory_order_acquire)) return n;
    }
    NodeKey key{Kind::kConst};
    key.value = value;
    const DimNode* n = Intern(key);
    if (slot) slot->store(n, std::memory_order_release);
    return n;
  }

  // The product memo (expr.h): direct-mapped slots by a hash of the factors' addresses.
  bool LookupProduct(std::span<const DimNode* const> factors, const DimNode** result) {
    if (factors.size() > kProductMemoArity) return false;
    const size_t slot = ProductSlot(factors);
    std::lock_guard<std::mutex> lock(mu_);
    const ProductEntry& e = products_[slot];
    if (e.arity != factors.size() || !std::equal(factors.begin(), factors.end(), e.factors)) {
      return false;
    }
    *result = e.result;
    return true;
  }
  void RememberProduct(std::span<const DimNode* const> factors, const DimNode* result) {
    if (factors.size() > kProductMemoArity) return;
    const size_t slot = ProductSlot(factors);
    std::lock_guard<std::mutex> lock(mu_);
    ProductEntry& e = products_[slot];
    e.arity = factors.size();
    std::copy(factors.begin(), factors.end(), e.factors);
    e.result = result;
  }

  size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return nodes_.size();
  }

  std::atomic<int> open_scopes{0};  // checked when the context is destroyed

 private:
  // Whether every child of `node` is a node of this table (mu_ held). Debug builds only.
  bool ChildrenAreOwn(const NodeKey& node) const {
    auto own = [&](const DimNode* child) {
      if (child == nullptr) return true;
      auto it = set_.find(child);
      return it != set_.end() && *it == child;
    };
    for (const auto& [t, c] : node.terms) {
      if (!own(t)) return false;
    }
    return own(node.lhs) && own(node.rhs);
  }

  static constexpr int64_t kLowConst = -16;
  static constexpr int64_t kCachedConsts = 1040;  // -16 .. 1023

  static constexpr size_t kProductSlots = 256;
  struct ProductEntry {
    size_t arity = kProductMemoArity + 1;  // none: matches no product
    const DimNode* factors[kProductMemoArity] = {};
    const DimNode* result = nullptr;
  };
  static size_t ProductSlot(std::span<const DimNode* const> factors) {
    size_t h = factors.size();
    for (const DimNode* f : factors) h = Mix(h, reinterpret_cast<uintptr_t>(f) >> 4);
    return (h * 0x9e3779b97f4a7c15ULL) >> 56;  // the top 8 bits: kProductSlots
  }

  std::mutex mu_;
  std::array<ProductEntry, kProductSlots> products_{};
  std::array<std::atomic<const DimNode*>, kCachedConsts> consts_{};
  std::deque<DimNode> nodes_;  // stable addresses
  std::unordered_set<const DimNode*, NodeHash, NodeEq> set_;
};

SymbolContext::SymbolContext() : table_(std::make_unique<InternTable>()) {
  live_contexts.fetch_add(1, std::memory_order_relaxed);
}

SymbolContext::~SymbolContext() {
  assert(table_->open_scopes.load() == 0 &&
         "a SymbolContext destroyed while a Scope is open on it");
  live_contexts.fetch_sub(1, std::memory_order_relaxed);
}

SymbolContext::Scope::Scope(SymbolContext& context)
    : context_(&context), previous_(std::exchange(current, &context)) {
  context_->table_->open_scopes.fetch_add(1, std::memory_order_relaxed);
}

SymbolContext::Scope::~Scope() {
  assert(current == context_ && "SymbolContext::Scope objects must end in reverse order");
  context_->table_->open_scopes.fetch_sub(1, std::memory_order_relaxed);
  current = previous_;
}

SymbolContext& SymbolContext::Default() {
  static SymbolContext* const context = new SymbolContext();  // never destroyed
  return *context;
}

SymbolContext& SymbolContext::Current() { return current ? *current : Default(); }

size_t SymbolContext::node_count() const { return table_->size(); }

int64_t SymbolContext::LiveContexts() { return live_contexts.load(std::memory_order_relaxed); }

const DimNode* Intern(const NodeKey& key) { return SymbolContext::Current().table_->Intern(key); }

const DimNode* InternConst(int64_t value) {
  return SymbolContext::Current().table_->InternConst(value);
}

bool LookupProduct(const DimNode* const* factors, size_t count, const DimNode** result) {
  return SymbolContext::Current().table_->LookupProduct({factors, count}, result);
}

void RememberProduct(const DimNode* const* factors, size_t count, const DimNode* result) {
  SymbolContext::Current().table_->RememberProduct({factors, count}, result);
}

}  // namespace onnx_infer::symbolic
