// The graph driver behind InferShapes and InferNodeOutputs (inference/infer_shapes.h): its
// state and the Driver class, shared by the files that implement it, each one concept
// (docs/architecture.md, "The driver"):
//   driver_graph.cc       a graph's values: declared types, initializers, inputs; node order
//   driver_node.cc        one node: its schema, its rule, the declared type merged, provenance
//   driver_calls.cc       subgraphs (If, Loop, Scan) and function calls (model-local, catalog)
//   driver_write_back.cc  the inferred types written into the model (value_info, outputs)
//   infer_shapes.cc       the entry points: InferShapes, InferNodeOutputs
// Private to inference/: not installed, not part of the API.
#ifndef ONNX_INFER_INFERENCE_DRIVER_H_
#define ONNX_INFER_INFERENCE_DRIVER_H_

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/inference/expansion_budget.h"
#include "onnx_infer/inference/external_values.h"
#include "onnx_infer/inference/graph_order.h"
#include "onnx_infer/inference/infer_node.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/specialize.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/proto/nesting.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/signature.h"
#include "onnx_infer/schema/type.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/symbolic/parse.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer::driver_internal {

// The kind of a rule's error: the code it states. Every built-in rule states one (the rules'
// tests check it, schema/test_util.cc); a rule that states none is a custom operator's (a
// C++ or Python rule of the caller's), so its error is classified as such.
inline DiagCode RuleCode(const Status& status) {
  const DiagCode code = CodeOf(status);
  return code == DiagCode::kUnclassified ? DiagCode::kCustomRule : code;
}

// A node's input or output names as an array, read once per node: `node.input(i)` is a call
// into libprotobuf for every name (RepeatedPtrField<std::string> is instantiated there, so
// none of its accessors inline), and the per-node steps read each name several times.
using Names = std::span<const std::string* const>;
inline Names InputNames(const onnx::NodeProto& node) {
  return {node.input().data(), static_cast<size_t>(node.input_size())};
}
inline Names OutputNames(const onnx::NodeProto& node) {
  return {node.output().data(), static_cast<size_t>(node.output_size())};
}

// A hash of a value or operator name for the driver's tables, inline and 8 bytes at a time
// (std::hash calls libstdc++'s byte-wise _Hash_bytes out of line: a third of a name
// lookup). Not for anything that must resist chosen collisions: a long probe only slows a
// lookup down.
inline uint64_t Load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
inline uint64_t Load4(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}
inline uint64_t HashName(std::string_view s) {
  const char* p = s.data();
  size_t n = s.size();
  uint64_t h = 0x9e3779b97f4a7c15ull * (n + 1);
  auto mix = [&h](uint64_t w) {
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  };
  if (n >= 8) {
    for (; n > 8; p += 8, n -= 8) mix(Load8(p));
    mix(Load8(p + n - 8));  // the last 8 bytes, overlapping the word before when n < 8
  } else if (n >= 4) {
    mix(Load4(p) << 32 | Load4(p + n - 4));
  } else if (n > 0) {
    mix(static_cast<uint64_t>(static_cast<unsigned char>(p[0])) << 16 |
        static_cast<uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8 |
        static_cast<unsigned char>(p[n - 1]));
  }
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 32);
}

// What the driver knows about one named value: 32 bytes (a Type of 24, and the box of what
// few values hold, or an initializer alone, with four flags in its low bits), one per name of every
// graph run. Where the graph declares the value's type is kept by its scope (Scope::DeclaredIndex):
// few values have a declaration.
class Value {
 public:
  Type type;

  // What few values have, boxed together (one pointer a value; on the 700k tiny-nodes chain
  // 16 bytes a value less than three inline pointers):
  //   data      the value's elements (a ConstValue is about 130 bytes);
  //   unread    an initializer whose elements are not decoded yet: `data` is read from it the
  //             first time a rule asks for the value (most weights are never asked for);
  //   external  an initializer whose value is in an external file, read only if a node
  //             consumes it.
  // Mutable: reading an initializer's elements on first use (ValueData) changes what the
  // value holds, not what it is, and happens through the const views the per-node steps
  // have (of this graph's scope and the enclosing ones'). Aligned to 16 bytes (what new
  // gives anyway), so that the flags fit in the low bits of its address.
  struct alignas(16) Held {
    std::unique_ptr<ConstValue> data;
    const onnx::TensorProto* unread = nullptr;
    const onnx::TensorProto* external = nullptr;
  };

  Value() = default;
  Value(Value&& other) noexcept
      : type(std::move(other.type)), held_and_flags_(std::exchange(other.held_and_flags_, 0)) {}
  Value& operator=(Value&& other) noexcept {
    if (this != &other) {
      delete held();
      type = std::move(other.type);
      held_and_flags_ = std::exchange(other.held_and_flags_, 0);
    }
    return *this;
  }
  ~Value() { delete held(); }

  Held* held() const {
    return held_and_flags_ & kTensorTags ? nullptr
                                         : reinterpret_cast<Held*>(held_and_flags_ & ~kFlags);
  }
  ConstValue* data() const { return held() ? held()->data.get() : nullptr; }
  const onnx::TensorProto* unread() const {
    if (held_and_flags_ & kUnreadTag) return InlineTensor();
    return held() ? held()->unread : nullptr;
  }
  const onnx::TensorProto* external() const {
    if (held_and_flags_ & kExternalTag) return InlineTensor();
    return held() ? held()->external : nullptr;
  }
  void set_data(std::unique_ptr<ConstValue> data) const {
    if (data || held()) Hold().data = std::move(data);
  }
  // An initializer alone (every initializer has one, and most nothing else) is kept in the
  // box's word, tagged, rather than in a box of its own: an allocation and a free fewer per
  // initializer.
  void set_unread(const onnx::TensorProto* tensor) const { SetTensor(kUnreadTag, tensor); }
  void set_external(const onnx::TensorProto* tensor) const { SetTensor(kExternalTag, tensor); }
  Held& Hold() const {
    if (held()) return *held();
    const onnx::TensorProto* unread_tensor = unread();
    const onnx::TensorProto* external_tensor = external();
    auto* box = new Held;
    box->unread = unread_tensor;
    box->external = external_tensor;
    held_and_flags_ = (held_and_flags_ & kFlags) | reinterpret_cast<uintptr_t>(box);
    return *box;
  }
  // Frees the elements it holds, once nothing will read them again (GraphRun's
  // NodeValueIds::last_read): the box goes unless it still points at an initializer.
  void DropData() {
    Held* h = held();
    if (h && !h->unread && !h->external) {
      delete h;
      held_and_flags_ &= kFlags;
    }
  }

  // Defined so far: by an input or initializer, or by a node already inferred.
  bool defined() const { return held_and_flags_ & kDefined; }
  void set_defined() { held_and_flags_ |= kDefined; }
  // Defined by a node of this graph (its type is written back), not by an input or
  // initializer.
  bool from_node() const { return held_and_flags_ & kFromNode; }
  void set_from_node() { held_and_flags_ |= kFromNode; }
  // A graph input whose initializer gives its value, a default the caller may override
  // (InferenceOptions::overridable_initializers off): a node that reads the value is listed
  // among the run's conditions.
  bool default_input() const { return held_and_flags_ & kDefaultInput; }
  void set_default_input() { held_and_flags_ |= kDefaultInput; }
  // The graph declares the value's type (an output or value_info): its scope has the
  // declaration's index (Scope::DeclaredIndex).
  bool declared() const { return held_and_flags_ & kDeclared; }
  void set_declared() { held_and_flags_ |= kDeclared; }

 private:
  static constexpr uintptr_t kDefined = 1, kFromNode = 2, kDefaultInput = 4, kDeclared = 8;
  static constexpr uintptr_t kFlags = 15;
  static_assert(alignof(Held) > kFlags, "the flags are the low bits of the box's address");
  // Without a box, one initializer: its address (8-aligned) shifted past the flags, tagged by
  // the top bits, which no user-space address has (one that did would be boxed).
  static constexpr uintptr_t kUnreadTag = uintptr_t{1} << 63, kExternalTag = uintptr_t{1} << 62;
  static constexpr uintptr_t kTensorTags = kUnreadTag | kExternalTag;
  const onnx::TensorProto* InlineTensor() const {
    return reinterpret_cast<const onnx::TensorProto*>(((held_and_flags_ & ~kTensorTags) >> 4) << 3);
  }
  void SetTensor(uintptr_t tag, const onnx::TensorProto* tensor) const {
    const auto address = reinterpret_cast<uintptr_t>(tensor);
    const bool fits = address % 8 == 0 && (address >> 58) == 0;
    if (!held() && fits && (held_and_flags_ & kTensorTags & ~tag) == 0) {
      // No box, and no other initializer inline: this one replaces any of the same kind.
      held_and_flags_ &= kFlags;
      if (tensor) held_and_flags_ |= tag | (address >> 3) << 4;
      return;
    }
    Held& box = Hold();
    (tag == kUnreadTag ? box.unread : box.external) = tensor;
  }
  mutable uintptr_t held_and_flags_ = 0;  // a Held* (0: none), or a tagged tensor | the flags
};
static_assert(sizeof(Value) <= 32, "the scope holds one Value per name");

// The values of one graph, and through `parent` those of the enclosing graphs (subgraphs see
// outer names lexically, as the IR says). Each name the graph defines gets a dense id once,
// when the scope is built (inputs, initializers, node outputs); the values are a flat list
// indexed by id, so the per-node steps look nothing up by name. Names are pointers to the
// graph's own strings (8 bytes, half a view; a graph outlives its scope, and names are never
// edited): kept once, in the name -> id table. A name is found only once it is defined: until
// then (a node not inferred yet, or on a cycle) the enclosing graphs' value of that name is
// what it reads.
class Scope {
 public:
  explicit Scope(const Scope* parent) : parent_(parent) {}

  // ---- Building: ids are assigned before any value is defined, and never after inference
  // starts (a block of values does not move while the per-node steps hold pointers into it).
  // Room for `n` names, so that assigning them neither grows the table nor moves values.
  void Reserve(size_t n) {
    names_.reserve(n);
    for (size_t first = 0; first < n; first += kBlockSize) {
      const size_t k = first >> kBlockBits;
      if (k == blocks_.size()) blocks_.emplace_back();
      blocks_[k].reserve(std::min<size_t>(kBlockSize, n - first));
    }
    if (2 * n > slots_.size()) Rehash(2 * n);
  }
  // The id of `name` in this graph, assigned on first use. `name` must outlive the scope (a
  // name in the graph's proto).
  int Intern(const std::string& name) {
    if (2 * (names_.size() + 1) > slots_.size()) {
      Rehash(std::max(2 * (names_.size() + 1), 2 * slots_.size()));
    }
    const uint32_t hash = Hash(name);
    uint32_t& slot = slots_[FindSlot(name, hash)];
    if (slot == 0) {
      slot = SlotOf(hash, static_cast<int32_t>(names_.size()));
      names_.push_back(&name);
      const size_t k = static_cast<size_t>(size_) >> kBlockBits;
      if (k == blocks_.size()) blocks_.emplace_back();
      blocks_[k].emplace_back();
      ++size_;
    }
    return IdIn(slot);
  }
  // The id of `name` in this graph, or -1 when the graph has no value of that name.
  int IdOf(std::string_view name) const {
    return slots_.empty() ? -1 : IdIn(slots_[FindSlot(name, Hash(name))]);
  }
  int size() const { return size_; }

  // ---- By id (this graph's values).
  Value& at(int id) { return blocks_[id >> kBlockBits][id & (kBlockSize - 1)]; }
  const Value& at(int id) const { return blocks_[id >> kBlockBits][id & (kBlockSize - 1)]; }
  const Value* FindHere(int id) const { return id >= 0 && at(id).defined() ? &at(id) : nullptr; }
  // Defines the value of `id` unless it already is: the value, and whether it is new.
  std::pair<Value*, bool> Define(int id) {
    Value& v = at(id);
    const bool fresh = !v.defined();
    v.set_defined();
    return {&v, fresh};
  }
  // The value a node input reads: this graph's (`id`, -1 when the graph has no value of that
  // name), else the enclosing graphs' value of `name`.
  const Value* Find(int id, std::string_view name) const {
    if (const Value* v = FindHere(id)) return v;
    return parent_ ? parent_->Find(name) : nullptr;
  }

  // ---- By name (graph outputs, subgraphs reading outer values, nodes inferred alone).
  const Value* FindHere(std::string_view name) const { return FindHere(IdOf(name)); }
  bool DefinesHere(std::string_view name) const { return FindHere(name) != nullptr; }
  const Value* Find(std::string_view name) const { return Find(IdOf(name), name); }
  // Whether an enclosing graph's scope defines `name` (not this one).
  bool DefinedOutside(std::string_view name) const { return parent_ && parent_->Find(name); }

  // ---- Declared types (ReadDeclaredTypes): a declaration's index in GraphRun::declared_types
  // per value that has one, kept here rather than in every Value. Declare them all (a later
  // declaration of a name replaces an earlier one), then FinishDeclaring.
  void Declare(int id, int32_t index) {
    at(id).set_declared();
    declared_.push_back({id, index});
  }
  void FinishDeclaring() {
    std::stable_sort(declared_.begin(), declared_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t kept = 0;  // the last declaration of each id
    for (size_t i = 0; i < declared_.size(); ++i) {
      if (i + 1 == declared_.size() || declared_[i + 1].first != declared_[i].first) {
        declared_[kept++] = declared_[i];
      }
    }
    declared_.resize(kept);
  }
  // The index of the declaration of value `id`, or -1.
  int32_t DeclaredIndex(int id) const {
    if (!at(id).declared()) return -1;
    return std::lower_bound(declared_.begin(), declared_.end(), std::pair<int32_t, int32_t>(id, -1))
        ->second;
  }

  // An open scope stands for enclosing graphs the driver was not given (a node inferred on
  // its own): a name it does not find is unknown, not undefined.
  void set_open() { open_ = true; }

  // Frees the name table: the values stay, found by id only (IdOf, Intern and the by-name
  // lookups no longer work). The write-back's, once it has every id it needs by name.
  void ReleaseNames() {
    std::vector<const std::string*>().swap(names_);
    std::vector<uint32_t>().swap(slots_);
  }
  // The values are kept in blocks of kBlockSize ids, which can be freed one by one (the
  // stream write-back frees each once it has written its values): value `id` is in block
  // BlockOf(id), and no longer there once its block is freed.
  static constexpr int kBlockBits = 12;
  static constexpr int kBlockSize = 1 << kBlockBits;  // 4,096 values, 128 KiB
  static int BlockOf(int id) { return id >> kBlockBits; }
  int num_blocks() const { return (size_ + kBlockSize - 1) >> kBlockBits; }
  void ReleaseBlock(int block) { std::vector<Value>().swap(blocks_[block]); }
  // Frees the values and the name table: the scope is empty after this (its graph's
  // write-back, when nothing reads it again).
  void Release() {
    std::vector<std::vector<Value>>().swap(blocks_);
    size_ = 0;
    std::vector<std::pair<int32_t, int32_t>>().swap(declared_);
    std::vector<const std::string*>().swap(names_);
    std::vector<uint32_t>().swap(slots_);
  }
  bool IsOpen() const {
    for (const Scope* s = this; s; s = s->parent_) {
      if (s->open_) return true;
    }
    return false;
  }

 private:
  // The name -> id table: open addressing with linear probing, at most half full (Reserve
  // sizes it to twice the names exactly, not to a power of two). A flat list rather than a
  // node per name: one allocation per graph instead of one per value. A slot is 32 bits: 0
  // when empty, else the name's id + 1 in its low id_bits_ bits and the low bits of the
  // name's hash above them, a tag: a probe compares a name only when the tags match (with
  // 700k names, 1 in 4,096 others). On the 700k tiny-nodes chain the slots are 8 bytes a name
  // (a 64-bit slot of hash and id made them 16, a power of two of them up to 32).
  static uint32_t Hash(std::string_view name) { return static_cast<uint32_t>(HashName(name)); }
  uint32_t SlotOf(uint32_t hash, int32_t id) const {
    return hash << id_bits_ | static_cast<uint32_t>(id + 1);
  }
  int32_t IdIn(uint32_t slot) const {
    return static_cast<int32_t>(slot & ((uint32_t{1} << id_bits_) - 1)) - 1;
  }
  // Where the probe for `hash` starts: the hash scaled to the table (its high bits; the tag
  // is its low bits).
  size_t Home(uint32_t hash) const { return (uint64_t{hash} * slots_.size()) >> 32; }
  // The slot holding `name`, or the empty one where it goes. Requires an empty slot.
  size_t FindSlot(std::string_view name, uint32_t hash) const {
    const uint32_t tag = hash << id_bits_;
    const uint32_t tag_mask = ~((uint32_t{1} << id_bits_) - 1);
    for (size_t i = Home(hash);; i = i + 1 == slots_.size() ? 0 : i + 1) {
      const uint32_t s = slots_[i];
      if (s == 0 || ((s & tag_mask) == tag && *names_[IdIn(s)] == name)) return i;
    }
  }
  // `n` slots (at least 16), every name placed again; the ids' bits as many as the names a
  // table of that size holds (half its slots) need.
  void Rehash(size_t n) {
    slots_.assign(std::max<size_t>(n, 16), 0);
    id_bits_ = std::min(31, static_cast<int>(std::bit_width(slots_.size() / 2)));
    for (int32_t id = 0; id < static_cast<int32_t>(names_.size()); ++id) {
      const uint32_t hash = Hash(*names_[id]);
      size_t i = Home(hash);
      while (slots_[i] != 0) i = i + 1 == slots_.size() ? 0 : i + 1;
      slots_[i] = SlotOf(hash, id);
    }
  }

  const Scope* parent_;
  bool open_ = false;
  std::vector<uint32_t> slots_;
  int id_bits_ = 0;
  std::vector<const std::string*> names_;   // by id: the graph's strings
  std::vector<std::vector<Value>> blocks_;  // by id: the values of ids k * kBlockSize on in block k
  int size_ = 0;                            // the number of values
  std::vector<std::pair<int32_t, int32_t>> declared_;  // (id, declaration), by id
};

// A value's data boxed for Value::data (none: null).
inline std::unique_ptr<ConstValue> Boxed(std::optional<ConstValue> data) {
  return data ? std::make_unique<ConstValue>(std::move(*data)) : nullptr;
}

// The value `v` holds (none: null), its initializer's elements decoded now if they were not
// yet.
inline const ConstValue* ValueData(const Value& v, int64_t max_elements) {
  if (const onnx::TensorProto* tensor = v.unread()) {
    v.set_data(Boxed(ConstValueOfTensor(*tensor, max_elements)));
    v.set_unread(nullptr);
  }
  return v.data();
}

// Each node's input and output ids in its graph's scope, in one flat list per graph run:
// node i's inputs, then its outputs, from offsets[i]. -1 for an empty name, and for an input
// the graph does not define (a value of an enclosing graph, or of nothing).
struct NodeValueIds {
  std::vector<int> ids;
  // One per node. 32 bits: ids are ints already, and a model's names number far fewer.
  std::vector<uint32_t> offsets;
  const int* inputs(int node) const { return ids.data() + offsets[node]; }
  const int* outputs(int node, const onnx::NodeProto& proto) const {
    return ids.data() + offsets[node] + proto.input_size();
  }
  // Parallel to ids, when the values' elements are freed after their last read
  // (Driver::MarkLastReads; empty otherwise): whether this input is the last read of its
  // value in the order the nodes are inferred.
  std::vector<bool> last_read;
  bool LastRead(int node, int input) const {
    return !last_read.empty() && last_read[offsets[node] + input];
  }
};

// Whether MergeTypes(type, from_signature) is `type` itself: the signature gives an element
// type without a shape, and `type` is a tensor of that element type already.
inline bool AddsNothing(const Type& from_signature, const Type& type) {
  return from_signature.is_tensor() && type.is_tensor() && !from_signature.has_shape() &&
         from_signature.denotation().empty() && type.elem_type() == from_signature.elem_type();
}

// Domains whose operators the built-in catalog defines: an unknown op there is not a custom op.
inline bool IsOnnxDomain(std::string_view domain) {
  return domain.empty() || domain == "ai.onnx.ml" || domain == "ai.onnx.preview" ||
         domain == "ai.onnx.preview.training" || domain == "ai.onnx.training";
}

using Opsets = OpsetImports;

inline Opsets ReadOpsets(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
  return ReadOpsetImports(imports);
}

// The path of a graph inside the graph at `parent` ("main/If_3.then_branch"); a node
// inferred on its own has no graph, so its subgraphs' paths start at the node.
inline std::string ChildPath(const std::string& parent, std::string_view child) {
  return parent.empty() ? std::string(child) : StrCat(parent, "/", child);
}

// Calls `visit(symbol, axis)` for the symbols of every dim of `type`, in order (axis is the
// dim's position in a tensor's shape, or -1 inside a sequence, map or optional).
template <typename Visit>
void VisitSymbols(const Type& type, Visit&& visit, bool nested = false) {
  switch (type.kind()) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor:
      if (type.has_shape()) {
        for (size_t axis = 0; axis < type.shape().size(); ++axis) {
          Dim d = type.shape()[axis];
          if (d.is_unknown() || d.is_const()) continue;
          for (const auto& name : d.Symbols()) {
            visit(name, nested ? int64_t{-1} : static_cast<int64_t>(axis));
          }
        }
      }
      break;
    case Type::Kind::kSequence:
    case Type::Kind::kMap:
    case Type::Kind::kOptional:
      VisitSymbols(type.element(), visit, true);
      break;
    default:
      break;
  }
}

// Calls `visit(graph_path, kind, value_info)` for every typed value a graph and its
// subgraphs declare: inputs, outputs and value_info.
template <typename Visit>
void VisitDeclaredValues(const onnx::GraphProto& graph, const std::string& path, Visit&& visit) {
  for (const auto& vi : graph.input()) visit(path, "input", vi);
  for (const auto& vi : graph.output()) visit(path, "output", vi);
  for (const auto& vi : graph.value_info()) visit(path, "value", vi);
  for (int i = 0; i < graph.node_size(); ++i) {
    const auto& node = graph.node(i);
    for (const auto& a : node.attribute()) {
      if (!a.has_g() && a.graphs_size() == 0) continue;  // the path only for a subgraph
      const std::string sub = StrCat(path, "/", node.op_type(), "_", i, ".", a.name());
      if (a.has_g()) VisitDeclaredValues(a.g(), sub, visit);
      for (int g = 0; g < a.graphs_size(); ++g) {
        VisitDeclaredValues(a.graphs(g), StrCat(sub, "[", g, "]"), visit);
      }
    }
  }
}

class Driver;

// What ResolveSchema found for one operator under one imported opset version.
struct ResolvedOp {
  const OpSchema* schema;
  int64_t opset_version;
  int function_index;
};
struct ResolvedOpKey {
  std::string domain, op_type, overload;  // canonical domain
  int64_t opset_version;                  // -1: the domain is not imported
};
struct ResolvedOpKeyView {
  std::string_view domain, op_type, overload;
  int64_t opset_version;
  ResolvedOpKeyView(std::string_view d, std::string_view t, std::string_view o, int64_t v)
      : domain(d), op_type(t), overload(o), opset_version(v) {}
  ResolvedOpKeyView(const ResolvedOpKey& k)  // NOLINT: implicit, for heterogeneous lookup
      : domain(k.domain),
        op_type(k.op_type),
        overload(k.overload),
        opset_version(k.opset_version) {}
};
struct ResolvedOpHash {
  using is_transparent = void;
  size_t operator()(const ResolvedOpKeyView& k) const {
    size_t seed = HashName(k.op_type);
    seed = seed * 31 + HashName(k.domain);
    seed = seed * 31 + HashName(k.overload);
    return seed * 31 + std::hash<int64_t>()(k.opset_version);
  }
};
struct ResolvedOpEq {
  using is_transparent = void;
  bool operator()(const ResolvedOpKeyView& a, const ResolvedOpKeyView& b) const {
    return a.opset_version == b.opset_version && a.op_type == b.op_type && a.domain == b.domain &&
           a.overload == b.overload;
  }
};
using ResolvedOpEntry = std::pair<const ResolvedOpKey, ResolvedOp>;
// The entries of Driver::resolved_ one graph run has met, in slots by a cheap hash of the
// operator's name (its length, first and last characters; a slot holds the last entry of its
// hash). A run's opset imports do not change while it runs, so a node whose domain, op_type
// and overload are an entry's resolves to that entry, without a lookup of the domain's
// version nor a hash of the three names.
struct ResolvedOpMemo {
  static constexpr size_t kSlots = 32;
  // Whether two names are equal: compared in line, a word at a time (a name is a few dozen
  // characters at most), rather than by a call to memcmp.
  static bool SameName(const std::string& a, const std::string& b) {
    const size_t n = a.size();
    if (n != b.size()) return false;
    if (n == 0) return true;  // most domains and overloads
    const char* x = a.data();
    const char* y = b.data();
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t u, v;
      std::memcpy(&u, x + i, 8);
      std::memcpy(&v, y + i, 8);
      if (u != v) return false;
    }
    if (i + 4 <= n) {
      uint32_t u, v;
      std::memcpy(&u, x + i, 4);
      std::memcpy(&v, y + i, 4);
      if (u != v) return false;
      i += 4;
    }
    for (; i < n; ++i) {
      if (x[i] != y[i]) return false;
    }
    return true;
  }
  std::array<const ResolvedOpEntry*, kSlots> slots{};
  static size_t SlotOf(const std::string& op_type) {
    const size_t n = op_type.size();
    if (n == 0) return 0;
    const auto* p = reinterpret_cast<const unsigned char*>(op_type.data());
    return (n + 5 * size_t{p[0]} + 3 * size_t{p[n - 1]}) % kSlots;
  }
};

// One inference of one graph: the main graph, a subgraph, a function body or a training
// graph.
// A node's inputs as the per-node step reads them, and its signature check. Kept from node to
// node of a graph run and cleared in between, so that these lists are allocated once per
// run, not once per node. A subgraph or function body has a run of its own: its nodes are
// inferred while the outer node's lists are still in use.
// The values of initializers the node reads are decoded when its rule asks for them (Read),
// or before a function call, whose body sees them all (ReadAll).
struct NodeInputs : InputValueReader {
  std::vector<const Type*> types;  // null: absent or not defined
  std::vector<const ConstValue*> values;
  std::vector<std::optional<ConstValue>> resolved;  // what `values` points to, when resolved
  // Per input, the value whose initializer is not decoded yet, or a default input's value
  // (Value::default_input()), read only through Read (null: none). In a graph run's lists,
  // at least one entry per input of the node, null past its inputs; `unread_set` when the
  // node set one.
  std::vector<const Value*> unread;
  bool unread_set = false;
  // Whether Read gave the value of a default input (Value::default_input()).
  bool read_default = false;
  int64_t max_value_elements = 0;
  SignatureCheck signature;
  // With InferenceOptions::record_provenance: per input, whether the rule asked for a value
  // the lists left null (empty: not recorded).
  std::vector<uint8_t> asked;

  const ConstValue* Read(int i) override {
    if (i >= 0 && i < static_cast<int>(asked.size())) asked[i] = 1;
    if (i >= static_cast<int>(unread.size()) || !unread[i]) return nullptr;
    values[i] = ValueData(*unread[i], max_value_elements);
    if (unread[i]->default_input() && values[i]) read_default = true;
    unread[i] = nullptr;
    return values[i];
  }
  void ReadAll() {
    for (size_t i = 0; i < unread.size(); ++i) Read(static_cast<int>(i));
  }
};

// What the driver's per-node step gives a node's outputs. Kept from node to node of a graph
// run like NodeInputs: the rule sets the outputs in these lists, whose capacity stays.
struct NodeOutcome {
  const OpSchema* schema = nullptr;
  NodeProvenance::How how = NodeProvenance::How::kNotRun;  // for record_provenance
  bool rule_failed = false;
  std::vector<Type> types;
  std::vector<std::optional<ConstValue>> values;
};

struct GraphRun {
  onnx::GraphProto* graph;
  // "main", "main/If_3.then_branch", "main/Gelu_2.local::Gelu" (a function body at a call)
  std::string path;
  const Scope* parent = nullptr;  // the enclosing graph's scope
  const Opsets* opsets = nullptr;
  // What ResolveSchema found for this run's operators (ResolvedOpMemo: valid while `opsets`
  // stays the same map, unchanged).
  mutable ResolvedOpMemo resolved_memo;
  const std::vector<Type>* input_types = nullptr;  // what the caller passes (subgraphs)
  // The values the caller passes (function calls), parallel to input_types; null entries are
  // not known.
  const std::vector<const ConstValue*>* input_values = nullptr;
  // Values given for inputs by name (InferenceOptions::input_values; the main graph only).
  const std::map<std::string, ConstValue, std::less<>>* given_values = nullptr;
  bool annotate_inputs = false;  // fill in undeclared input types (subgraphs)
  int depth = 0;
  std::vector<Diagnostic>* diagnostics = nullptr;  // where findings go
  // Keep the graph's value types in InferenceResult::value_types (not for the body of an
  // operator ONNX defines as a function, nor anything inside one).
  bool record = true;
  // Out: the types of the graph's outputs.
  std::vector<Type> output_types;
  std::vector<std::optional<ConstValue>> output_values;
  // Each graph input defined, with its type as defined (before an initializer of the same
  // name refines it): what InferenceResult::value_types lists for it. Node outputs are read
  // from the scope when the run is recorded, never copied per node.
  std::vector<std::pair<std::string_view, Type>> defined_inputs;
  // Each graph input's declared type, before what the caller gives is merged in; kept only
  // when value types are recorded (GraphValueTypes::declared).
  std::vector<std::pair<std::string_view, Type>> declared_inputs;
  // What inference found for each node output the graph declares, before the declaration
  // is merged in; likewise kept only when value types are recorded
  // (GraphValueTypes::inferred).
  std::vector<std::pair<std::string_view, Type>> inferred_declared;
  NodeInputs node_inputs;    // the current node's (InferGraphNode)
  NodeOutcome node_outcome;  // likewise
  // The ids of each node's inputs and outputs in the run's scope (IndexNodeValues).
  NodeValueIds node_ids;
  // The types the graph declares for its outputs and in value_info (Scope::DeclaredIndex).
  std::vector<Type> declared_types;
  // The id in the run's scope of each graph output's and each value_info entry's name (-1:
  // not a value of this graph), found with the declared types: what follows the per-node
  // steps reads these by id, so the scope's names may be freed before them.
  std::vector<int> output_ids, value_info_ids;
  // Parallel to declared_types when the options bind symbols: the declaration as it was
  // before the bindings were evaluated in it (Driver::declared_before_bind_), or null.
  std::vector<const Type*> declared_before_bind;
  // Nothing reads the scope's types and values after the write-back (no recorded value
  // types, no graph run later in this scope): WriteBack releases each value's type once it is
  // written, so that the memory goes to the next value_info messages (the peak of a large
  // model is there).
  bool release_written = false;
  // Write the new value_info entries as bytes (InferenceOptions::stream_new_value_info; the
  // main graph only, and only with release_written).
  bool stream_new_value_info = false;
  // With release_written, found by FindProducers for WriteBack: whether no value is named by
  // two node outputs (each is written once), and how many node outputs name a value of each
  // block of the scope's (Scope::BlockOf).
  bool outputs_written_once = true;
  std::vector<uint32_t> outputs_in_block;
};

// Where WriteBack makes the bytes of new value_info entries (GraphRun::stream_new_value_info),
// appended to `chunks` (InferenceResult::new_value_info).
//
// A tensor type without a denotation (nearly every value) has its TypeProto's bytes made once
// per distinct type and kept: a value's entry is then the bytes of a ValueInfoProto holding
// only its name, then its type field framed (tag, length) around the kept bytes, which is what
// protobuf writes for the message with both (name is field 1, type field 2, nothing else is
// set). Dims are interned, so equal types have equal dims, and equal dims write equal bytes.
// Any other type is made whole in one reused ValueInfoProto on an arena of its own (the
// strings it is given are carved from the arena's blocks rather than allocated one by one;
// the arena is emptied and the message made anew once it has grown past 1 MiB).
class ValueInfoScratch {
 public:
  explicit ValueInfoScratch(std::vector<std::string>* chunks) : chunks_(chunks) {}
  // The last chunk is cut to what was written into it.
  ~ValueInfoScratch() { CutChunk(); }
  ValueInfoScratch(const ValueInfoScratch&) = delete;
  ValueInfoScratch& operator=(const ValueInfoScratch&) = delete;

  // Room for `size` bytes at the end of the chunks, to be written and then Commit-ted. The
  // last chunk is kept at its full capacity while it is written (cut when the next one is
  // begun, and by the destructor): an entry's bytes are written straight into it, with no
  // resize per entry.
  uint8_t* Room(size_t size) {
    if (static_cast<size_t>(end_ - next_) < size) NewChunk(size);
    return next_;
  }
  // The bytes written at Room(...) end at `end`.
  void Commit(uint8_t* end) { next_ = end; }

  onnx::ValueInfoProto& Whole() {
    constexpr uint32_t kCheckEvery = 4096;
    constexpr uint64_t kMaxArenaBytes = uint64_t{1} << 20;
    if (whole_ == nullptr || (++uses_ % kCheckEvery == 0 && arena_.SpaceUsed() > kMaxArenaBytes)) {
      arena_.Reset();
      whole_ = google::protobuf::Arena::CreateMessage<onnx::ValueInfoProto>(&arena_);
    }
    return *whole_;
  }

  // The bytes of TypeProto for `type` when it is a tensor type without a denotation, else
  // null. Valid until the next call (WriteBack calls it once per run of equal types).
  const std::string* TensorTypeBytes(const Type& type, DimTextCache* texts) {
    if (!type.is_tensor() || !type.denotation().empty()) return nullptr;
    if (auto it = cache_.find(type); it != cache_.end()) return &it->second;
    // Made in a reused TypeProto: a shape of the same rank is overwritten dim by dim
    // (WriteShape), each dim ending with exactly what the type says.
    onnx::TypeProto_Tensor* tensor = type_.mutable_tensor_type();
    tensor->clear_elem_type();
    if (!type.has_shape()) tensor->clear_shape();
    WriteTypeToProto(type, &type_, texts);
    constexpr size_t kMaxEntries = size_t{1} << 16;  // a bound on the memory kept
    std::string* bytes = &uncached_;
    if (cache_.size() < kMaxEntries) bytes = &cache_.try_emplace(type).first->second;
    bytes->clear();
    type_.AppendToString(bytes);
    return bytes;
  }

 private:
  // A tensor type's element type and dims (interned: equal dims, equal nodes).
  struct TensorTypeHash {
    size_t operator()(const Type& type) const {
      size_t hash = static_cast<size_t>(type.elem_type()) * 31 + (type.has_shape() ? 1 : 0);
      if (type.has_shape()) {
        for (Dim d : type.shape()) hash = hash * 1000003 ^ d.Hash();
      }
      return hash;
    }
  };
  // Begins a chunk with room for `size` bytes (driver_write_back.cc: out of line, so that
  // Room inlines).
  void NewChunk(size_t size);
  void CutChunk() {
    if (next_ == nullptr) return;
    std::string& chunk = chunks_->back();
    chunk.resize(static_cast<size_t>(next_ - reinterpret_cast<uint8_t*>(chunk.data())));
    next_ = end_ = nullptr;
  }
  std::vector<std::string>* chunks_;
  // The unwritten part of chunks_->back() while it is written (null: none).
  uint8_t* next_ = nullptr;
  uint8_t* end_ = nullptr;
  google::protobuf::Arena arena_;
  onnx::ValueInfoProto* whole_ = nullptr;
  uint32_t uses_ = 0;
  onnx::TypeProto type_;
  std::unordered_map<Type, std::string, TensorTypeHash> cache_;
  std::string uncached_;
};

// How much is known of a node output's type, as InferenceStats counts it (CountValueStats is
// AddValueStats(ClassifyValueStats(type), ...)): the write-back classifies a run of equal
// types once.
enum class ValueStatsClass : uint8_t { kStatic, kSymbolic, kPartial, kTypeOnly, kUnknown };
ValueStatsClass ClassifyValueStats(const Type& type);
inline void AddValueStats(ValueStatsClass c, int64_t n, InferenceStats& stats) {
  stats.values += n;
  switch (c) {
    case ValueStatsClass::kStatic:
      stats.typed += n;
      stats.shaped += n;
      stats.static_shaped += n;
      return;
    case ValueStatsClass::kSymbolic:
      stats.typed += n;
      stats.shaped += n;
      stats.symbolic += n;
      return;
    case ValueStatsClass::kPartial:
      stats.typed += n;
      stats.partial += n;
      return;
    case ValueStatsClass::kTypeOnly:
      stats.typed += n;
      stats.type_only += n;
      return;
    case ValueStatsClass::kUnknown:
      stats.unknown += n;
      return;
  }
}

// What a function call gives its node's outputs.
struct CallResult {
  std::vector<Type> types;
  std::vector<std::optional<ConstValue>> values;
};

class Driver {
 public:
  // Infers a whole model (Run).
  Driver(onnx::ModelProto& model, const SchemaRegistry& registry, const InferenceOptions& options,
         InferenceResult& result)
      : Driver(registry, options, result, ReadOpsets(model.opset_import())) {
    model_ = &model;
    for (const auto& opset : model.opset_import()) {
      CheckOpsetImport(std::string(CanonicalDomain(opset.domain())), opset.version(),
                       result_.diagnostics, "main");
    }
    for (int i = 0; i < model.functions_size(); ++i) {
      const auto& f = model.functions(i);
      functions_[FunctionKey(f.domain(), f.name(), f.overload())] = i;
    }
  }

  // Infers nodes on their own (InferLoneNode): no model, so no model-local functions.
  Driver(const SchemaRegistry& registry, const InferenceOptions& options, InferenceResult& result,
         Opsets opsets)
      : registry_(registry),
        options_(options),
        result_(result),
        opsets_(std::move(opsets)),
        external_values_(options.model_dir, options.max_value_elements),
        expansion_budget_(options.max_expanded_nodes) {}

  // Reports an imported version of `domain` this build does not know, or that does not exist.
  void CheckOpsetImport(const std::string& domain, int64_t version, std::vector<Diagnostic>& out,
                        const std::string& path) {
    auto range = registry_.OpsetRange(domain);
    if (!range) return;  // a domain we know nothing of: its ops are reported as custom
    if (version > range->second) {
      // Under strict, operators that may have changed since are not taken on trust.
      Report(out, options_.strict ? Severity::kError : Severity::kWarning, DiagCode::kOpsetNewer,
             path,
             StrCat("the model imports opset ", version, " of ", DisplayDomain(domain),
                    "; this build knows versions up to ", range->second,
                    ", so operators resolve as of ", range->second));
    } else if (version < range->first) {
      Report(out, Severity::kError, DiagCode::kOpsetInvalid, path,
             StrCat("the model imports opset ", version, " of ", DisplayDomain(domain),
                    ", which does not exist (versions start at ", range->first, ")"));
    }
  }

  void Run() {
    if (options_.record_provenance) {
      result_.provenance = std::make_shared<Provenance>();
      provenance_ = result_.provenance.get();
    }
    ApplyAssumptions();
    // What the options fix (input shapes, bindings, input values) and the names of anonymous
    // input dims, before anything reads the declarations.
    NoteDeclaredBeforeBind();
    Specialization specialization = Specialize(*model_, options_);
    for (const auto& error : specialization.errors) {
      Report(result_.diagnostics, Severity::kError, DiagCode::kOptionContradiction, "main", error);
    }
    for (const auto& fact : specialization.facts) {
      for (Dim d : {fact.lhs, fact.rhs}) {
        for (const auto& name : d.Symbols()) option_symbols_.insert(name);
      }
      if (Status st = unifier_.Unify(fact.lhs, fact.rhs, fact.origin); !st.ok()) {
        Report(result_.diagnostics, Severity::kError, DiagCode::kOptionContradiction, "main",
               st.message());
      }
    }
    for (const auto& [name, origin] : specialization.named_dims) introduced_[name] = origin;
    given_values_ = std::move(specialization.input_values);

    // The symbols the model declares, before inference adds its own.
    std::map<std::string, std::string> declared_symbols;
    auto note_declared = [&](const std::string& path, std::string_view kind,
                             const onnx::ValueInfoProto& vi) {
      VisitSymbols(TypeFromProto(vi.type()), [&](const std::string& name, int64_t axis) {
        if (declared_symbols.count(name) || specialization.named_dims.count(name)) return;
        declared_symbols[name] =
            StrCat(kind, " '", vi.name(), "'", axis >= 0 ? StrCat(" dim ", axis) : std::string(),
                   " of graph '", path, "'");
        declared_order_.push_back(name);
      });
    };
    VisitDeclaredValues(model_->graph(), "main", note_declared);
    for (int i = 0; i < model_->training_info_size(); ++i) {
      VisitDeclaredValues(model_->training_info(i).algorithm(),
                          StrCat("training_info[", i, "].algorithm"), note_declared);
    }

    Scope main_scope(nullptr);
    GraphRun run;
    run.graph = model_->mutable_graph();
    run.path = "main";
    run.opsets = &opsets_;
    run.diagnostics = &result_.diagnostics;
    run.given_values = &given_values_;
    // Training graphs see the main graph's scope; recorded value types are read from it.
    run.release_written = model_->training_info_size() == 0 && !options_.record_value_types;
    run.stream_new_value_info = run.release_written && options_.stream_new_value_info;
    InferGraph(run, &main_scope, /*count_stats=*/true);
    RecordValueTypes(run, main_scope);
    // Training graphs see the inference graph's values (its initializers in particular).
    for (int i = 0; i < model_->training_info_size(); ++i) {
      auto* info = model_->mutable_training_info(i);
      for (auto [graph, name] : {std::pair{info->mutable_initialization(), "initialization"},
                                 std::pair{info->mutable_algorithm(), "algorithm"}}) {
        if (graph->node_size() == 0 && graph->output_size() == 0) continue;
        Scope scope(&main_scope);
        GraphRun t;
        t.graph = graph;
        t.path = StrCat("training_info[", i, "].", name);
        t.opsets = &opsets_;
        t.diagnostics = &result_.diagnostics;
        InferGraph(t, &scope, /*count_stats=*/true);
        RecordValueTypes(t, scope);
      }
    }
    WriteFunctionValueInfo();
    // A binding of a symbol that is neither declared nor introduced changed nothing: most
    // likely a misspelt name.
    for (const auto& [name, value] : options_.bind) {
      const auto& used = specialization.bound_and_declared;
      if (std::find(used.begin(), used.end(), name) == used.end() && !introduced_.count(name)) {
        Report(result_.diagnostics, Severity::kWarning, DiagCode::kOptionUnused, "main",
               StrCat("bind ", name, "=", value, ": the model has no symbol '", name, "'"));
      }
    }
    Summarize(declared_symbols);
  }

  // Keeps the declared output and value_info types of every graph (subgraphs included) that
  // mention a bound symbol, before Specialize evaluates the bindings in them
  // (declared_before_bind_). The messages are edited in place, so their addresses stay.
  void NoteDeclaredBeforeBind() {
    if (options_.bind.empty()) return;
    NoteDeclaredBeforeBind(model_->graph());
  }
  void NoteDeclaredBeforeBind(const onnx::GraphProto& graph) {
    auto note = [&](const onnx::ValueInfoProto& vi) {
      Type type = TypeFromProto(vi.type());
      bool bound = false;
      VisitSymbols(type, [&](const std::string& name, int64_t) {
        bound = bound || options_.bind.count(name) > 0;
      });
      if (bound) declared_before_bind_.emplace(&vi, std::move(type));
    };
    for (const auto& vi : graph.output()) note(vi);
    for (const auto& vi : graph.value_info()) note(vi);
    // Bounded: CheckNesting refused graphs nested deeper than kMaxNestingDepth.
    for (const auto& node : graph.node()) {
      for (const auto& a : node.attribute()) {
        if (a.has_g()) NoteDeclaredBeforeBind(a.g());
        for (const auto& g : a.graphs()) NoteDeclaredBeforeBind(g);
      }
    }
  }

  // Whether `type` mentions a symbol the options fix.
  bool MentionsOptionSymbol(const Type& type) const {
    bool found = false;
    VisitSymbols(type, [&](const std::string& name, int64_t) {
      found = found || option_symbols_.count(name) > 0;
    });
    return found;
  }

  // The user's assumptions (InferenceOptions::assumptions, assume_positive), before any fact.
  void ApplyAssumptions() {
    for (const std::string& text : options_.assumptions) {
      std::string error;
      auto assumption = symbolic::ParseAssumption(text, &error);
      Status s = assumption ? unifier_.AssumeRelation(assumption->expr, assumption->lo,
                                                      assumption->hi, "", /*user=*/true)
                            : Status::Error(error);
      if (!s.ok()) {
        Report(result_.diagnostics, Severity::kError, DiagCode::kOptionInvalid, "main",
               StrCat("assumption '", text, "': ", s.message()));
      } else {
        for (const std::string& symbol : assumption->expr.Symbols()) {
          assumed_symbols_.push_back({symbol, text});
        }
      }
    }
    if (options_.assume_positive) {
      if (Status s = unifier_.AssumeAllPositive(); !s.ok()) {
        Report(result_.diagnostics, Severity::kError, DiagCode::kOptionInvalid, "main",
               StrCat("--assume-positive: ", s.message()));
      }
    }
  }

  // Lists, among the conditions, each default input (Value::default_input()) whose value `node`
  // consumed: its result holds only while the caller does not override the input.
  void NoteDefaultInputsRead(const GraphRun& run, const Scope& scope, const onnx::NodeProto& node,
                             const int* input_ids, const NodeInputs& inputs) {
    const Names names = InputNames(node);
    const std::string where =
        StrCat(run.path == "main" ? "" : StrCat("in ", run.path, ", "), "read by ",
               node.name().empty() ? StrCat("the ", node.op_type(), " node of output '",
                                            node.output_size() ? node.output(0) : "", "'")
                                   : StrCat("node '", node.name(), "' (", node.op_type(), ")"));
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i]->empty()) continue;
      const Value* v = scope.Find(input_ids[i], *names[i]);
      if (!v || !v->default_input()) continue;
      // Given to the rule: through Read (the entry is cleared) or, external, directly.
      const bool read = v->external() ? inputs.values[i] != nullptr
                                      : i < inputs.unread.size() && !inputs.unread[i] && v->data();
      if (!read) continue;
      unifier_.AddCondition(
          StrCat("input '", *names[i], "' keeps its initializer's value"),
          StrCat(where, "; an initializer listed as a graph input may be overridden at run ",
                 "time (IR.md)"));
    }
  }

  // Fills result_.symbols, facts and conditions from the annotated model and the unifier.
  void Summarize(const std::map<std::string, std::string>& declared_symbols) {
    // The symbols of the annotated model. Most dims repeat a few texts ("B", "S",
    // "floor((H + 1)/2)"): each distinct text is read (DimFromParam) once, and its symbols
    // added once, rather than every value's type converted again.
    std::set<std::string> present;
    std::unordered_set<std::string> seen_params;
    auto collect_type = [&](const onnx::TypeProto& type, auto& self) -> void {
      const onnx::TensorShapeProto* shape = nullptr;
      switch (type.value_case()) {
        case onnx::TypeProto::kTensorType:
          if (type.tensor_type().has_shape()) shape = &type.tensor_type().shape();
          break;
        case onnx::TypeProto::kSparseTensorType:
          if (type.sparse_tensor_type().has_shape()) shape = &type.sparse_tensor_type().shape();
          break;
        case onnx::TypeProto::kSequenceType:
          return self(type.sequence_type().elem_type(), self);
        case onnx::TypeProto::kOptionalType:
          return self(type.optional_type().elem_type(), self);
        case onnx::TypeProto::kMapType:
          return self(type.map_type().value_type(), self);
        default:
          return;
      }
      if (!shape) return;
      for (const auto& d : shape->dim()) {
        if (d.has_dim_value() || !d.has_dim_param()) continue;  // a constant or unknown
        if (!seen_params.insert(d.dim_param()).second) continue;
        if (d.dim_param().size() > static_cast<size_t>(symbolic::kMaxDimNesting)) {
          NoteDeepDimParam(d.dim_param());
        }
        const Dim dim = DimFromParam(d.dim_param());
        if (dim.is_unknown() || dim.is_const()) continue;
        for (auto& name : dim.Symbols()) present.insert(std::move(name));
      }
    };
    auto collect = [&](const std::string&, std::string_view, const onnx::ValueInfoProto& vi) {
      collect_type(vi.type(), collect_type);
    };
    VisitDeclaredValues(model_->graph(), "main", collect);
    for (const auto& info : model_->training_info()) {
      VisitDeclaredValues(info.initialization(), "", collect);
      VisitDeclaredValues(info.algorithm(), "", collect);
    }
    for (const auto& f : model_->functions()) {
      for (const auto& vi : f.value_info()) collect("", "", vi);
    }
    for (const auto& name : declared_order_) {
      result_.symbols.push_back({name, true, declared_symbols.at(name)});
    }
    for (const auto& name : present) {
      if (declared_symbols.count(name)) continue;
      auto origin = introduced_.find(name);
      result_.symbols.push_back(
          {name, false,
           origin != introduced_.end() ? origin->second : "written by a model-local function"});
    }
    // Each symbol's value as the model alone gives it (not simplified under the user's
    // assumptions: a contract states what the model says).
    for (auto& info : result_.symbols) {
      const Dim self = Dim::Symbol(info.name);
      std::vector<std::string> used;
      Dim without;
      Dim value = unifier_.Resolve(self, &used, &without);
      if (!used.empty()) value = without;
      if (value != self) info.value = value;
    }
    for (const auto& fact : unifier_.facts()) result_.facts.push_back(fact.ToString());
    result_.fact_dims = unifier_.facts();
    result_.relation_dims = unifier_.relations();
    for (const auto& [term, modulus] : unifier_.assumptions().multiples()) {
      result_.multiples.emplace_back(Dim::FromNode(term), modulus);
    }
    TagFacts();
    result_.fact_sources = std::move(fact_sources_);
    result_.conditions = unifier_.conditions();
    result_.bounds = unifier_.BoundsOfSymbols();
    for (const auto& r : unifier_.relations()) {
      if (!r.expr.is_symbol()) result_.relations.push_back(r.ToString());
    }
    // An assumption about a symbol the model never mentions is likely a typo.
    for (const auto& [symbol, text] : assumed_symbols_) {
      if (present.count(symbol) || declared_symbols.count(symbol) || introduced_.count(symbol)) {
        continue;
      }
      Report(result_.diagnostics, Severity::kWarning, DiagCode::kOptionUnused, "main",
             StrCat("assumption '", text, "': the model has no symbol '", symbol, "'"));
    }
  }

  // A dim_param nested past the dim expression nesting limit is kept as an opaque symbol
  // (as any text that is not an expression); the limit is said, since the model meant an
  // expression. Only long texts can reach the limit, so short ones are not parsed again.
  void NoteDeepDimParam(const std::string& text) {
    symbolic::ParseError error;
    if (symbolic::ParseDim(text, &error) || !error.too_deep) return;
    Report(result_.diagnostics, Severity::kWarning, DiagCode::kDimParam, "main",
           StrCat("dim_param '", text.substr(0, 40), "...' (", text.size(), " characters) is ",
                  error.message, " at offset ", error.offset, "; it stays an opaque symbol"));
  }

  // `subject`: the input, output or attribute the message is about, as its maker set it.
  // `code`: the kind of finding (schema/diagnostic_codes.h).
  static Diagnostic& Report(std::vector<Diagnostic>& out, Severity severity, DiagCode code,
                            const std::string& graph, std::string message, Subject subject = {}) {
    Diagnostic& d = out.emplace_back();
    d.severity = severity;
    d.code = code;
    d.graph = graph;
    d.message = std::move(message);
    d.subject = std::move(subject);
    return d;
  }

  static Diagnostic& ReportNode(std::vector<Diagnostic>& out, Severity severity, DiagCode code,
                                const std::string& graph, int index, const onnx::NodeProto& node,
                                const OpSchema* schema, std::string message, Subject subject = {}) {
    Diagnostic& d = Report(out, severity, code, graph, std::move(message), std::move(subject));
    d.node_index = index;
    d.node_name = node.name();
    d.op = schema ? schema->Id()
                  : StrCat(DisplayDomain(CanonicalDomain(node.domain())), "::", node.op_type());
    return d;
  }

  // Records what agreeing declared and inferred types of a main-graph value say about the
  // symbols: a declared N where inference found 5 (or M) binds N == 5 (N == M) for the rest
  // of the model, and a declared 5 where inference found N binds N == 5 the same way, so two
  // declarations that contradict each other through N surface. A contradiction with an
  // earlier fact is returned.
  Status BindDeclared(const Type& declared, const Type& inferred, std::string_view origin) {
    if (declared.kind() != inferred.kind()) return OkStatus();
    switch (declared.kind()) {
      case Type::Kind::kTensor:
      case Type::Kind::kSparseTensor: {
        if (!declared.has_shape() || !inferred.has_shape() || declared.rank() != inferred.rank()) {
          return OkStatus();
        }
        for (size_t axis = 0; axis < declared.shape().size(); ++axis) {
          Dim a = declared.shape()[axis], b = inferred.shape()[axis];
          if (a.is_unknown() || b.is_unknown() || a == b || (a.is_const() && b.is_const())) {
            continue;
          }
          if (a.is_const()) std::swap(a, b);  // read N == 1, the symbol first
          OI_RETURN_IF_ERROR(unifier_.Unify(a, b, StrCat(origin, " dim ", axis)));
        }
        return OkStatus();
      }
      case Type::Kind::kSequence:
      case Type::Kind::kMap:
      case Type::Kind::kOptional:
        return BindDeclared(declared.element(), inferred.element(), origin);
      default:
        return OkStatus();
    }
  }

  Severity StrictOr(Severity lenient) const { return options_.strict ? Severity::kError : lenient; }

  // `value` with its symbolic elements resolved through the facts learnt so far (N reads as
  // 4 once N == 4 is known, as output shapes do), so that comparisons and shape arithmetic
  // see what is known: an If whose condition is Equal(Shape(x)[0], 4) picks its branch.
  // `storage` holds the copy when an element changes.
  const ConstValue* Resolved(const ConstValue& value, std::optional<ConstValue>& storage) const {
    if (unifier_.facts().empty()) return &value;
    for (size_t k = 0; k < value.ints.size(); ++k) {
      Dim d = value.ints[k];
      if (d.is_unknown() || d.is_const()) continue;
      Dim r = unifier_.Resolve(d);
      if (r == d || r.is_unknown()) continue;
      if (!storage) storage = value;
      storage->ints[k] = r;
    }
    return storage ? &*storage : &value;
  }

  // Infers `run.graph` in `scope`, annotates it, and fills run.output_types:
  // the phases below, in order.
  void InferGraph(GraphRun& run, Scope* scope, bool count_stats);
  // Which node produces each value, by id (-1: none).
  using Producers = std::vector<int>;
  // Scope building: the graph's inputs (merged with what the caller passes), initializers
  // and sparse initializers, defined; then an id for every node output, and each node's
  // input and output ids (IndexNodeValues).
  void DefineGraphValues(GraphRun& run, Scope* scope);
  // What IndexNodeValues finds in the same walk: whether a node has a graph attribute (If,
  // Loop, Scan...: a subgraph that may read this graph's values by name), and whether every
  // node comes after the producers of its inputs (what subgraphs read aside).
  struct NodeIndex {
    bool has_subgraphs = false;
    bool in_order = true;
  };
  static NodeIndex IndexNodeValues(GraphRun& run, Scope* scope);
  // The types the graph declares for its outputs and in value_info, for the values it has;
  // the ids of those names (GraphRun::output_ids, value_info_ids).
  void ReadDeclaredTypes(GraphRun& run, Scope* scope) const;
  // Each node output's producer; reports outputs defined twice.
  Producers FindProducers(GraphRun& run, const Scope& scope);
  // An order in which producers come first (subgraph references count); reports cycles. None
  // when the nodes are in order already (most graphs): the index order, with nothing stored.
  std::optional<NodeOrder> OrderGraphNodes(const GraphRun& run, const Scope& scope,
                                           const Producers& producer, const NodeIndex& index);
  // Marks each value's last read among the nodes in `order` (none: index order) in
  // run.node_ids.last_read, so that InferGraphNode frees the value's elements there; not for
  // the graph's outputs (CollectGraphOutputs reads their elements after the nodes).
  static void MarkLastReads(GraphRun& run, const std::optional<NodeOrder>& order, int num_values);
  // Per-node inference: gathers the node's inputs, infers it, merges each output with its
  // declared type and defines it in the scope.
  void InferGraphNode(GraphRun& run, Scope* scope, int index, const Producers& producer,
                      bool count_stats);
  // What record_provenance keeps of node `index` once inferred.
  void RecordProvenance(const GraphRun& run, int index, const NodeInputs& inputs,
                        const NodeOutcome& outcome);
  // Merge with declared types: output `o` of the node at `index` against its declared
  // type (a declared symbol binds to what was inferred; a contradiction keeps the declared).
  // `before_bind`: the declaration before the options' bindings were evaluated in it, if
  // they changed it.
  Type MergeWithDeclared(const GraphRun& run, int index, const onnx::NodeProto& node,
                         const OpSchema* schema, int o, const Type& declared,
                         const Type* before_bind, Type type);
  // Reports each input of the model and initializer whose element type is UNDEFINED.
  static void ReportUndefinedElemTypes(const GraphRun& run);
  // Reports each graph output that names no value (issue 17).
  static void ReportUndefinedOutputs(const GraphRun& run, const Scope& scope,
                                     const Producers& producer);
  // The graph's outputs: produced by nodes, or passed through from inputs or outer scopes.
  void CollectGraphOutputs(GraphRun& run, const Scope& scope);
  // The main graph's node outputs written before the model stated an upper bound that decides
  // one of their dims, resolved again under it, each listed among the conditions with the
  // bound it needed (Unifier::RefineByModelBounds).
  void RefineByModelBounds(const GraphRun& run, Scope* scope);
  // Write-back: graph outputs in place, every other node output into value_info; counts
  // the statistics.
  void WriteBack(GraphRun& run, Scope& scope, bool count_stats);
  // Appends the value_info entry of `name` with `type` to result_.new_value_info as bytes,
  // made in `scratch` (WriteBack, with GraphRun::stream_new_value_info). `tensor_bytes`:
  // scratch.TensorTypeBytes(type).
  void AppendValueInfo(const std::string& name, const Type& type, const std::string* tensor_bytes,
                       ValueInfoScratch& scratch);
  // The type of every input and node output of the graph `run` inferred in `scope`, by name
  // (a node output that redefines an earlier value is not there).
  static std::map<std::string, Type, std::less<>> GraphValueTypeMap(const GraphRun& run,
                                                                    const Scope& scope);
  // Lists the graph's values and their types in the result, under run.path, when the run is
  // recorded and the options ask for them (a later pass over the same graph replaces an
  // earlier one's).
  void RecordValueTypes(const GraphRun& run, const Scope& scope);

  // The per-node step, shared by InferGraph and InferLoneNode: resolves the schema of the
  // node at `index` of run.graph, checks its signature and infers its outputs (by its rule,
  // a model-local function or the function body its schema has). `inputs_defined` false
  // (an input names nothing) keeps the rule from running. The outputs go to `outcome`, whose
  // lists are reused (one per output, unknown where nothing is inferred).
  void InferNode(const GraphRun& run, const Scope* scope, int index, onnx::NodeProto* node,
                 NodeInputs& inputs, bool inputs_defined, bool count_stats, NodeOutcome& outcome);

  // InferNodeOutputs: `node` on its own, its inputs' types and values given.
  NodeInferenceResult InferLoneNode(const onnx::NodeProto& node,
                                    const std::vector<Type>& input_types,
                                    const std::vector<std::optional<ConstValue>>& input_values);

  // Infers a subgraph (If branch, Loop/Scan body) for the node at `index` of `outer`.
  // `output_values` (if given) receives the values of the subgraph's outputs.
  StatusOr<std::vector<Type>> InferSubgraph(
      const GraphRun& outer, const Scope* scope, int index, onnx::GraphProto* graph,
      std::string_view attribute, const std::vector<Type>& input_types,
      std::vector<Diagnostic>* diagnostics,
      std::vector<std::optional<ConstValue>>* output_values = nullptr);

 private:
  static std::string FunctionKey(std::string_view domain, std::string_view name,
                                 std::string_view overload) {
    return StrCat(CanonicalDomain(domain), "\x1f", name, "\x1f", overload);
  }

  // Resolves the node's schema, reporting why when there is none. Null means: leave its
  // outputs unknown (or, for a model-local function, infer through its body).
  // Cached per (domain, op_type, overload, imported opset version): the registry's keys are
  // strings, and a model has a few dozen distinct operators for its many nodes.
  const OpSchema* ResolveSchema(const GraphRun& run, const onnx::NodeProto& node, int index,
                                int64_t* opset_version, int* function_index);
  // ResolveSchema for an operator the run's memo does not hold.
  const OpSchema* ResolveSchemaMissed(const GraphRun& run, const onnx::NodeProto& node, int index,
                                      int64_t* opset_version, int* function_index);
  const OpSchema* ResolveSchemaUncached(const GraphRun& run, const onnx::NodeProto& node, int index,
                                        int64_t* opset_version, int* function_index);

  // Infers a call of function `f`: a model-local function (`function_index` >= 0; the types
  // inside are kept for its value_info), or the body an operator's schema defines
  // (`schema`, whose attribute defaults apply).
  CallResult InferFunctionCall(const GraphRun& run, int index, const onnx::NodeProto& node,
                               const onnx::FunctionProto& f, int function_index,
                               const OpSchema* schema, const std::vector<const Type*>& inputs,
                               const std::vector<const ConstValue*>& input_values);
  // The function body `schema` defines for a model importing `opset` of its domain: the one
  // written against the newest opset not after `opset`, else the oldest. Null when there is
  // none or it does not parse (`*error` then says why).
  const onnx::FunctionProto* CatalogBody(const OpSchema& schema, int64_t opset, std::string* error);
  void WriteFunctionValueInfo();

  onnx::ModelProto* model_ = nullptr;  // null when inferring nodes on their own
  const SchemaRegistry& registry_;
  const InferenceOptions& options_;
  InferenceResult& result_;
  Opsets opsets_;
  std::set<std::string> reported_once_;   // "no rule" / "no schema" findings, once per op
  std::map<std::string, int> functions_;  // FunctionKey -> index in model.functions
  // ResolveSchema's outcomes that reported nothing.
  std::unordered_map<ResolvedOpKey, ResolvedOp, ResolvedOpHash, ResolvedOpEq> resolved_;
  // The entry of resolved_ found or added last (elements of an unordered_map do not move).
  const ResolvedOpEntry* last_resolved_ = nullptr;
  // What signature checks that found nothing found, shared by every graph run.
  SignatureMemo signature_memo_;
  // Functions being inferred, to detect recursion.
  std::vector<const onnx::FunctionProto*> function_stack_;
  // Parsed catalog function bodies, by schema and body index.
  std::map<std::pair<const OpSchema*, size_t>, StatusOr<onnx::FunctionProto>> catalog_bodies_;
  // Per function: each value's type in every call so far; nullopt once calls disagree.
  std::map<int, std::map<std::string, std::optional<Type>>> function_values_;
  // What the model says about its symbols (N == M, N == 5), shared by every node's rule.
  symbolic::Unifier unifier_;
  // The node each of unifier_.facts() came from (InferenceResult::fact_sources); the nodes
  // being inferred, innermost last (a node inside an If's branch inside the If).
  std::vector<FactSource> fact_sources_;
  // A node being inferred, as pointers into its graph run and graph (alive while it is on
  // the stack): its FactSource's strings are copied only for a fact it records, not per node.
  struct NodeFrame {
    const std::string* graph;
    int index;
    const onnx::NodeProto* node;
  };
  std::vector<NodeFrame> node_stack_;
  // Gives the facts recorded since the last call the innermost node being inferred. Twice
  // per node, and most nodes record none: only the count is compared inline.
  void TagFacts() {
    if (fact_sources_.size() < unifier_.facts().size()) TagNewFacts();
  }
  void TagNewFacts();  // driver_graph.cc
  // Symbols rules introduced, with their origin; symbols the model declares, in order.
  InferenceContext::SymbolLog introduced_;
  std::vector<std::string> declared_order_;
  // (symbol, text) of each assumption the user stated.
  std::vector<std::pair<std::string, std::string>> assumed_symbols_;
  // The main graph's input values the options give, in the run's context.
  std::map<std::string, ConstValue, std::less<>> given_values_;
  // Symbols the options fix (bound, or met by a given input shape or value), and the declared
  // output and value_info types (of every graph) that mentioned a bound symbol, as declared
  // before the bindings were evaluated in them: a declaration contradicting inference
  // through one of these is the options contradicting the model (an error), not the model
  // contradicting itself (a warning).
  std::set<std::string, std::less<>> option_symbols_;
  std::map<const onnx::ValueInfoProto*, Type> declared_before_bind_;
  ExternalValues external_values_;    // read on first use, shared by every graph
  ExpansionBudget expansion_budget_;  // nodes of function bodies and subgraphs, in all
  // The text of each expression dim the write-back has printed (the run's context's nodes).
  DimTextCache dim_texts_;
  // InferenceOptions::record_provenance: result_.provenance (null: not recorded).
  Provenance* provenance_ = nullptr;
};

// The driver's side of the subgraph hook for one node.
class NodeSubgraphs : public SubgraphInferencer {
 public:
  NodeSubgraphs(Driver& driver, const GraphRun& run, const Scope* scope, int index,
                onnx::NodeProto* node)
      : driver_(driver), run_(run), scope_(scope), index_(index), node_(node) {}

  StatusOr<std::vector<Type>> InferSubgraph(std::string_view attribute,
                                            const std::vector<Type>& input_types) override {
    for (auto& a : *node_->mutable_attribute()) {
      if (a.name() != attribute || !a.has_g()) continue;
      const std::string key(attribute);
      // Each pass starts from the graph as the model has it: annotations written by an
      // earlier pass are not declarations.
      auto [original, first_pass] = originals_.try_emplace(key);
      if (first_pass) {
        original->second = a.g();
      } else {
        *a.mutable_g() = original->second;
      }
      auto staged_it = std::find_if(staged_.begin(), staged_.end(),
                                    [&](const auto& entry) { return entry.first == key; });
      if (staged_it == staged_.end()) staged_it = staged_.insert(staged_.end(), {key, {}});
      auto& staged = staged_it->second;
      staged.clear();  // a new pass over the same body replaces the previous one's findings
      auto& values = values_[key];
      values.clear();
      return driver_.InferSubgraph(run_, scope_, index_, a.mutable_g(), attribute, input_types,
                                   &staged, &values);
    }
    return AttrError(attribute, "expected a graph");
  }

  std::vector<std::optional<ConstValue>> SubgraphOutputValues(
      std::string_view attribute) const override {
    auto it = values_.find(attribute);
    return it == values_.end() ? std::vector<std::optional<ConstValue>>() : it->second;
  }

  void NotTaken(std::string_view attribute, std::string_view reason) override {
    for (auto& [key, diagnostics] : staged_) {
      if (key != attribute) continue;
      for (Diagnostic& d : diagnostics) {
        if (d.severity == Severity::kNote) continue;
        d.severity = Severity::kNote;
        d.message = StrCat(reason, ": ", d.message);
      }
    }
  }

  // The findings of the last pass over each subgraph.
  void Flush(std::vector<Diagnostic>& out) {
    for (auto& [attribute, diagnostics] : staged_) {
      for (auto& d : diagnostics) out.push_back(std::move(d));
    }
    staged_.clear();
  }

 private:
  Driver& driver_;
  const GraphRun& run_;
  const Scope* scope_;
  int index_;
  onnx::NodeProto* node_;
  // Per subgraph attribute, in the order the rule first inferred them.
  std::vector<std::pair<std::string, std::vector<Diagnostic>>> staged_;
  std::map<std::string, onnx::GraphProto> originals_;
  // The output values of the last pass over each subgraph.
  std::map<std::string, std::vector<std::optional<ConstValue>>, std::less<>> values_;
};

}  // namespace onnx_infer::driver_internal

#endif  // ONNX_INFER_INFERENCE_DRIVER_H_
