// SymbolContext and interning: each context owns a table of nodes, and Intern() puts a node
// in the table of the calling thread's current context.
#include "onnx_infer/symbolic/context.h"

#include <array>
#include <atomic>
#include <cassert>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>

#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {
namespace {

size_t Mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

size_t ShallowHash(const DimNode& n) {
  size_t h = Mix(static_cast<size_t>(n.kind), std::hash<int64_t>()(n.value));
  if (!n.name.empty()) h = Mix(h, std::hash<std::string>()(n.name));
  for (const auto& [t, c] : n.terms) {
    h = Mix(h, std::hash<const void*>()(t));
    h = Mix(h, std::hash<int64_t>()(c));
  }
  h = Mix(h, std::hash<const void*>()(n.lhs));
  return Mix(h, std::hash<const void*>()(n.rhs));
}

// Children are interned in the same context, so comparing them by address is comparing them
// structurally.
bool ShallowEqual(const DimNode& a, const DimNode& b) {
  return a.kind == b.kind && a.value == b.value && a.name == b.name && a.terms == b.terms &&
         a.lhs == b.lhs && a.rhs == b.rhs;
}

struct NodeHash {
  size_t operator()(const DimNode* n) const { return n->hash; }
};
struct NodeEq {
  bool operator()(const DimNode* a, const DimNode* b) const { return ShallowEqual(*a, *b); }
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
  const DimNode* Intern(DimNode node) {
    node.hash = ShallowHash(node);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = set_.find(&node);
    if (it != set_.end()) return *it;
    assert(ChildrenAreOwn(node) &&
           "a Dim of another SymbolContext was combined with this context's (symbolic/context.h)");
    const DimNode* stored = &nodes_.emplace_back(std::move(node));
    set_.insert(stored);
    return stored;
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
    DimNode node{Kind::kConst};
    node.value = value;
    const DimNode* n = Intern(std::move(node));
    if (slot) slot->store(n, std::memory_order_release);
    return n;
  }

  size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return nodes_.size();
  }

  std::atomic<int> open_scopes{0};  // checked when the context is destroyed

 private:
  // Whether every child of `node` is a node of this table (mu_ held). Debug builds only.
  bool ChildrenAreOwn(const DimNode& node) const {
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

  std::mutex mu_;
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

const DimNode* Intern(DimNode node) {
  return SymbolContext::Current().table_->Intern(std::move(node));
}

const DimNode* InternConst(int64_t value) {
  return SymbolContext::Current().table_->InternConst(value);
}

}  // namespace onnx_infer::symbolic
