#include "onnx_infer/inference/infer_shapes.h"

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
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

namespace onnx_infer {

bool InferenceResult::HasCode(DiagCode code, std::optional<Severity> severity) const {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
    return d.code == code && (!severity || d.severity == *severity);
  });
}

int64_t InferenceResult::CountOf(Severity severity) const {
  int64_t n = 0;
  for (const auto& d : diagnostics) n += d.severity == severity;
  return n;
}

const Type* InferenceResult::TypeOf(std::string_view graph_path, std::string_view name) const {
  auto graph = value_types.find(graph_path);
  return graph == value_types.end() ? nullptr : graph->second.Find(name);
}

OpsetImports ReadOpsetImports(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
  OpsetImports opsets;
  for (const auto& opset : imports) {
    opsets[std::string(CanonicalDomain(opset.domain()))] = opset.version();
  }
  return opsets;
}

bool NodeInferenceResult::HasErrors() const {
  for (const auto& d : diagnostics) {
    if (d.severity == Severity::kError) return true;
  }
  return false;
}

const Type* NodeInferenceResult::OutputType(std::string_view name) const {
  for (size_t o = 0; o < output_names.size(); ++o) {
    if (!name.empty() && output_names[o] == name) return &output_types[o];
  }
  return nullptr;
}

std::map<std::string, onnx::TypeProto> NodeInferenceResult::OutputTypeProtos() const {
  std::map<std::string, onnx::TypeProto> protos;
  for (size_t o = 0; o < output_names.size(); ++o) {
    if (output_names[o].empty() || output_types[o].is_unknown()) continue;
    protos[output_names[o]] = TypeToProto(output_types[o]);
  }
  return protos;
}

namespace {

// The kind of a rule's error: the code it states. Every built-in rule states one (the rules'
// tests check it, schema/test_util.cc); a rule that states none is a custom operator's (a
// C++ or Python rule of the caller's), so its error is classified as such.
DiagCode RuleCode(const Status& status) {
  const DiagCode code = CodeOf(status);
  return code == DiagCode::kUnclassified ? DiagCode::kCustomRule : code;
}

// A node's input or output names as an array, read once per node: `node.input(i)` is a call
// into libprotobuf for every name (RepeatedPtrField<std::string> is instantiated there, so
// none of its accessors inline), and the per-node steps read each name several times.
using Names = std::span<const std::string* const>;
Names InputNames(const onnx::NodeProto& node) {
  return {node.input().data(), static_cast<size_t>(node.input_size())};
}
Names OutputNames(const onnx::NodeProto& node) {
  return {node.output().data(), static_cast<size_t>(node.output_size())};
}

// A hash of a value or operator name for the driver's tables, inline and 8 bytes at a time
// (std::hash calls libstdc++'s byte-wise _Hash_bytes out of line: a third of a name
// lookup). Not for anything that must resist chosen collisions: a long probe only slows a
// lookup down.
uint64_t Load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
uint64_t Load4(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}
uint64_t HashName(std::string_view s) {
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

// What the driver knows about one named value.
struct Value {
  Type type;
  // Mutable with `unread`: reading an initializer's elements on first use (ValueData) changes
  // what the value holds, not what it is, and happens through the const views the per-node
  // steps have (of this graph's scope and the enclosing ones').
  // Boxed, not inline: most values hold none, and a ConstValue is about 130 bytes (on the 1M
  // decoder, 1M values: about 140 MB of the peak).
  mutable std::unique_ptr<ConstValue> data;
  // An initializer whose elements are not decoded yet: `data` is read from it the first time
  // a rule asks for the value (most weights are never asked for).
  mutable const onnx::TensorProto* unread = nullptr;
  // An initializer whose value is in an external file, read only if a node consumes it.
  const onnx::TensorProto* external = nullptr;
  // Where the graph declares the value's type (an output or value_info): an index in
  // GraphRun::declared_types, or -1.
  int32_t declared = -1;
  // Defined so far: by an input or initializer, or by a node already inferred.
  bool defined = false;
  // Defined by a node of this graph (its type is written back), not by an input or
  // initializer.
  bool from_node = false;
  // A graph input whose initializer gives its value, a default the caller may override
  // (InferenceOptions::overridable_initializers off): a node that reads the value is listed
  // among the run's conditions.
  bool default_input = false;
};

// The values of one graph, and through `parent` those of the enclosing graphs (subgraphs see
// outer names lexically, as the IR says). Each name the graph defines gets a dense id once,
// when the scope is built (inputs, initializers, node outputs); the values are a flat list
// indexed by id, so the per-node steps look nothing up by name. Names are views of the
// graph's own strings (a graph outlives its scope, and names are never edited): kept once,
// in the name -> id table. A name is found only once it is defined: until then (a node not
// inferred yet, or on a cycle) the enclosing graphs' value of that name is what it reads.
class Scope {
 public:
  explicit Scope(const Scope* parent) : parent_(parent) {}

  // ---- Building: ids are assigned before any value is defined, and never after inference
  // starts (values_ does not move while the per-node steps hold pointers into it).
  // Room for `n` names, so that assigning them neither grows the table nor moves values.
  void Reserve(size_t n) {
    names_.reserve(n);
    values_.reserve(n);
    if (2 * n > slots_.size()) Rehash(2 * n);
  }
  // The id of `name` in this graph, assigned on first use. `name` must outlive the scope (a
  // name in the graph's proto).
  int Intern(std::string_view name) {
    if (2 * (names_.size() + 1) > slots_.size()) Rehash(2 * (names_.size() + 1));
    const uint32_t hash = Hash(name);
    Slot& slot = slots_[FindSlot(name, hash)];
    if (slot.id < 0) {
      slot = {hash, static_cast<int32_t>(names_.size())};
      names_.push_back(name);
      values_.emplace_back();
    }
    return slot.id;
  }
  // The id of `name` in this graph, or -1 when the graph has no value of that name.
  int IdOf(std::string_view name) const {
    return slots_.empty() ? -1 : slots_[FindSlot(name, Hash(name))].id;
  }
  int size() const { return static_cast<int>(values_.size()); }

  // ---- By id (this graph's values).
  Value& at(int id) { return values_[id]; }
  const Value& at(int id) const { return values_[id]; }
  const Value* FindHere(int id) const {
    return id >= 0 && values_[id].defined ? &values_[id] : nullptr;
  }
  // Defines the value of `id` unless it already is: the value, and whether it is new.
  std::pair<Value*, bool> Define(int id) {
    Value& v = values_[id];
    const bool fresh = !v.defined;
    v.defined = true;
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

  // An open scope stands for enclosing graphs the driver was not given (a node inferred on
  // its own): a name it does not find is unknown, not undefined.
  void set_open() { open_ = true; }

  // Frees the values and the name table: the scope is empty after this (its graph's
  // write-back, when nothing reads it again).
  void Release() {
    std::vector<Value>().swap(values_);
    std::vector<std::string_view>().swap(names_);
    std::vector<Slot>().swap(slots_);
  }
  bool IsOpen() const {
    for (const Scope* s = this; s; s = s->parent_) {
      if (s->open_) return true;
    }
    return false;
  }

 private:
  // The name -> id table: open addressing with linear probing over a power of two of slots,
  // at most half full. A flat list rather than a node per name: one allocation per graph
  // instead of one per value, and a lookup compares a name only when its hash matches.
  struct Slot {
    uint32_t hash = 0;
    int32_t id = -1;  // -1: empty
  };
  static uint32_t Hash(std::string_view name) { return static_cast<uint32_t>(HashName(name)); }
  // The slot holding `name`, or the empty one where it goes. Requires an empty slot.
  size_t FindSlot(std::string_view name, uint32_t hash) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.id < 0 || (s.hash == hash && names_[s.id] == name)) return i;
    }
  }
  // At least `n` slots (a power of two), every name placed again.
  void Rehash(size_t n) {
    size_t size = 16;
    while (size < n) size *= 2;
    slots_.assign(size, Slot{});
    for (int32_t id = 0; id < static_cast<int32_t>(names_.size()); ++id) {
      const uint32_t hash = Hash(names_[id]);
      size_t i = hash & (size - 1);
      while (slots_[i].id >= 0) i = (i + 1) & (size - 1);
      slots_[i] = {hash, id};
    }
  }

  const Scope* parent_;
  bool open_ = false;
  std::vector<Slot> slots_;
  std::vector<std::string_view> names_;  // by id: views of the graph's strings
  std::vector<Value> values_;            // by id
};

// A value's data boxed for Value::data (none: null).
std::unique_ptr<ConstValue> Boxed(std::optional<ConstValue> data) {
  return data ? std::make_unique<ConstValue>(std::move(*data)) : nullptr;
}

// The value `v` holds (none: null), its initializer's elements decoded now if they were not
// yet.
const ConstValue* ValueData(const Value& v, int64_t max_elements) {
  if (v.unread) {
    v.data = Boxed(ConstValueOfTensor(*v.unread, max_elements));
    v.unread = nullptr;
  }
  return v.data.get();
}

// Each node's input and output ids in its graph's scope, in one flat list per graph run:
// node i's inputs, then its outputs, from offsets[i]. -1 for an empty name, and for an input
// the graph does not define (a value of an enclosing graph, or of nothing).
struct NodeValueIds {
  std::vector<int> ids;
  std::vector<size_t> offsets;  // one per node
  const int* inputs(int node) const { return ids.data() + offsets[node]; }
  const int* outputs(int node, const onnx::NodeProto& proto) const {
    return ids.data() + offsets[node] + proto.input_size();
  }
};

// Whether MergeTypes(type, from_signature) is `type` itself: the signature gives an element
// type without a shape, and `type` is a tensor of that element type already.
bool AddsNothing(const Type& from_signature, const Type& type) {
  return from_signature.is_tensor() && type.is_tensor() && !from_signature.has_shape() &&
         from_signature.denotation().empty() && type.elem_type() == from_signature.elem_type();
}

// Domains whose operators the built-in catalog defines: an unknown op there is not a custom op.
bool IsOnnxDomain(std::string_view domain) {
  return domain.empty() || domain == "ai.onnx.ml" || domain == "ai.onnx.preview" ||
         domain == "ai.onnx.preview.training" || domain == "ai.onnx.training";
}

using Opsets = OpsetImports;

Opsets ReadOpsets(const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
  return ReadOpsetImports(imports);
}

// The path of a graph inside the graph at `parent` ("main/If_3.then_branch"); a node
// inferred on its own has no graph, so its subgraphs' paths start at the node.
std::string ChildPath(const std::string& parent, std::string_view child) {
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
  // (Value::default_input), read only through Read (null: none); empty when the node has
  // none.
  std::vector<const Value*> unread;
  // Whether Read gave the value of a default input (Value::default_input).
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
    if (unread[i]->default_input && values[i]) read_default = true;
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
  // The types the graph declares for its outputs and in value_info (Value::declared).
  std::vector<Type> declared_types;
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
};

// Where WriteBack makes the bytes of new value_info entries (GraphRun::stream_new_value_info).
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
  onnx::ValueInfoProto& Whole() {
    constexpr uint32_t kCheckEvery = 4096;
    constexpr uint64_t kMaxArenaBytes = uint64_t{1} << 20;
    if (whole_ == nullptr || (++uses_ % kCheckEvery == 0 && arena_.SpaceUsed() > kMaxArenaBytes)) {
      arena_.Reset();
      whole_ = google::protobuf::Arena::CreateMessage<onnx::ValueInfoProto>(&arena_);
    }
    return *whole_;
  }

  // The bytes of TypeProto for `type`, a tensor type without a denotation.
  const std::string& TensorTypeBytes(const Type& type, DimTextCache* texts) {
    // Consecutive values often have one type (a chain of elementwise nodes): the last one
    // found is compared first (interned dims: a comparison of pointers), before the hash.
    if (last_ && *last_key_ == type) return *last_;
    if (auto it = cache_.find(type); it != cache_.end()) {
      last_key_ = &it->first;
      last_ = &it->second;
      return it->second;
    }
    // Made in a reused TypeProto: a shape of the same rank is overwritten dim by dim
    // (WriteShape), each dim ending with exactly what the type says.
    onnx::TypeProto_Tensor* tensor = type_.mutable_tensor_type();
    tensor->clear_elem_type();
    if (!type.has_shape()) tensor->clear_shape();
    WriteTypeToProto(type, &type_, texts);
    constexpr size_t kMaxEntries = size_t{1} << 16;  // a bound on the memory kept
    std::string* bytes = &uncached_;
    last_key_ = nullptr;
    last_ = nullptr;
    if (cache_.size() < kMaxEntries) {
      auto it = cache_.try_emplace(type).first;
      last_key_ = &it->first;
      last_ = bytes = &it->second;
    }
    bytes->clear();
    type_.AppendToString(bytes);
    return *bytes;
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
  google::protobuf::Arena arena_;
  onnx::ValueInfoProto* whole_ = nullptr;
  uint32_t uses_ = 0;
  onnx::TypeProto type_;
  std::unordered_map<Type, std::string, TensorTypeHash> cache_;
  std::string uncached_;
  // The entry of cache_ found or made last (elements of an unordered_map do not move).
  const Type* last_key_ = nullptr;
  const std::string* last_ = nullptr;
};

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

  // Lists, among the conditions, each default input (Value::default_input) whose value `node`
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
      if (!v || !v->default_input) continue;
      // Given to the rule: through Read (the entry is cleared) or, external, directly.
      const bool read = v->external ? inputs.values[i] != nullptr
                                    : i < inputs.unread.size() && !inputs.unread[i] && v->data;
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
  static void IndexNodeValues(GraphRun& run, Scope* scope);
  // The types the graph declares for its outputs and in value_info, for the values it has.
  void ReadDeclaredTypes(GraphRun& run, Scope* scope) const;
  // Each node output's producer; reports outputs defined twice.
  Producers FindProducers(const GraphRun& run, const Scope& scope);
  // An order in which producers come first (subgraph references count); reports cycles.
  NodeOrder OrderGraphNodes(const GraphRun& run, const Scope& scope, const Producers& producer);
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
  // Write-back: graph outputs in place, every other node output into value_info; counts
  // the statistics.
  void WriteBack(GraphRun& run, Scope& scope, bool count_stats);
  // Appends the value_info entry of `name` with `type` to result_.new_value_info as bytes,
  // made in `scratch` (WriteBack, with GraphRun::stream_new_value_info).
  void AppendValueInfo(const std::string& name, const Type& type, ValueInfoScratch& scratch);
  // Statistics: one node output's type into result_.stats.
  void CountValue(const Type& type);
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
  const std::pair<const ResolvedOpKey, ResolvedOp>* last_resolved_ = nullptr;
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
  // Gives the facts recorded since the last call the innermost node being inferred.
  void TagFacts() {
    const auto& facts = unifier_.facts();
    while (fact_sources_.size() < facts.size()) {
      FactSource source;
      if (!node_stack_.empty()) {
        const NodeFrame& frame = node_stack_.back();
        source.graph = *frame.graph;
        source.node_index = frame.index;
        source.node_name = frame.node->name();
        source.op_type = frame.node->op_type();
        source.domain = frame.node->domain();
      }
      source.lhs = facts[fact_sources_.size()].lhs;
      source.rhs = facts[fact_sources_.size()].rhs;
      fact_sources_.push_back(std::move(source));
    }
  }
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

StatusOr<std::vector<Type>> Driver::InferSubgraph(
    const GraphRun& outer, const Scope* scope, int index, onnx::GraphProto* graph,
    std::string_view attribute, const std::vector<Type>& input_types,
    std::vector<Diagnostic>* diagnostics, std::vector<std::optional<ConstValue>>* output_values) {
  const onnx::NodeProto& node = outer.graph->node(index);
  if (outer.depth + 1 > options_.max_nesting) {
    return AttrError(attribute,
                     StrCat("subgraphs nested deeper than ", options_.max_nesting,
                            " levels are not inferred (the graph nesting limit, "
                            "InferenceOptions::max_nesting)"),
                     DiagCode::kNestingLimit);
  }
  if (!expansion_budget_.Charge(graph->node_size())) {
    return AttrError(attribute, StrCat(expansion_budget_.Message()), DiagCode::kExpansionLimit);
  }
  if (graph->input_size() != static_cast<int>(input_types.size())) {
    return AttrError(
        attribute,
        StrCat("the graph has ", graph->input_size(), " inputs, expected ", input_types.size()),
        DiagCode::kSubgraphMismatch);
  }
  GraphRun run;
  run.graph = graph;
  run.path = ChildPath(outer.path, StrCat(node.op_type(), "_", index, ".", attribute));
  run.parent = scope;
  run.opsets = outer.opsets;
  run.input_types = &input_types;
  run.annotate_inputs = true;
  run.depth = outer.depth + 1;
  run.diagnostics = diagnostics;
  run.record = outer.record;
  Scope sub_scope(scope);
  InferGraph(run, &sub_scope, /*count_stats=*/false);
  RecordValueTypes(run, sub_scope);
  if (output_values) *output_values = std::move(run.output_values);
  return run.output_types;
}

const OpSchema* Driver::ResolveSchema(const GraphRun& run, const onnx::NodeProto& node, int index,
                                      int64_t* opset_version, int* function_index) {
  const std::string_view domain = CanonicalDomain(node.domain());
  auto opset = run.opsets->find(domain);
  const ResolvedOpKeyView key{domain, node.op_type(), node.overload(),
                              opset == run.opsets->end() ? -1 : opset->second};
  // Consecutive nodes are often of one operator (a chain of Relu): the entry found last is
  // compared first, without hashing the three names.
  if (last_resolved_ && ResolvedOpEq()(key, last_resolved_->first)) {
    *opset_version = last_resolved_->second.opset_version;
    *function_index = last_resolved_->second.function_index;
    return last_resolved_->second.schema;
  }
  if (auto it = resolved_.find(key); it != resolved_.end()) {
    last_resolved_ = &*it;
    *opset_version = it->second.opset_version;
    *function_index = it->second.function_index;
    return it->second.schema;
  }
  const size_t reports = run.diagnostics->size();
  const OpSchema* schema = ResolveSchemaUncached(run, node, index, opset_version, function_index);
  // An outcome that reported nothing is the same for every node with this key.
  if (run.diagnostics->size() == reports) {
    last_resolved_ = &*resolved_
                           .emplace(ResolvedOpKey{std::string(key.domain), std::string(key.op_type),
                                                  std::string(key.overload), key.opset_version},
                                    ResolvedOp{schema, *opset_version, *function_index})
                           .first;
  }
  return schema;
}

const OpSchema* Driver::ResolveSchemaUncached(const GraphRun& run, const onnx::NodeProto& node,
                                              int index, int64_t* opset_version,
                                              int* function_index) {
  auto& out = *run.diagnostics;
  const std::string domain(CanonicalDomain(node.domain()));
  // A model-local function is the operator's fallback implementation (IR.md): a schema with
  // a rule wins; otherwise the body is inferred.
  auto fn = functions_.find(FunctionKey(domain, node.op_type(), node.overload()));
  if (fn != functions_.end()) {
    auto opset = run.opsets->find(domain);
    const OpSchema* schema = opset == run.opsets->end()
                                 ? nullptr
                                 : registry_.Lookup(domain, node.op_type(), opset->second);
    if (schema && schema->has_rule()) {
      *opset_version = opset->second;
      return schema;
    }
    *function_index = fn->second;
    return nullptr;
  }
  auto opset = run.opsets->find(domain);
  int64_t version = 0;
  if (opset != run.opsets->end()) {
    version = opset->second;
  } else if (auto range = registry_.OpsetRange(domain); range && !IsOnnxDomain(domain)) {
    // A domain with schemas beside ONNX's (com.microsoft): onnxruntime runs its operators
    // without the import (IR.md requires one), so do we, at the domain's newest version.
    version = range->second;
    if (reported_once_.insert(StrCat("import:", domain)).second) {
      ReportNode(out, Severity::kWarning, DiagCode::kOpsetMissing, run.path, index, node, nullptr,
                 StrCat("the model does not import the operator set of domain '",
                        DisplayDomain(domain), "' (opset_import has no entry for it); its ",
                        "operators are read at its newest version, ", version,
                        ", as onnxruntime does (reported once per domain)"));
    }
  } else {
    ReportNode(out, Severity::kError, DiagCode::kOpsetMissing, run.path, index, node, nullptr,
               StrCat("the model does not import the operator set of domain '",
                      DisplayDomain(domain), "' (opset_import has no entry for it)"));
    return nullptr;
  }
  *opset_version = version;
  const OpSchema* schema = registry_.Lookup(domain, node.op_type(), version);
  if (schema) {
    if (schema->deprecated()) {
      ReportNode(out, Severity::kWarning, DiagCode::kDeprecatedOperator, run.path, index, node,
                 schema,
                 StrCat(node.op_type(), " is deprecated in opset ", version, " of ",
                        DisplayDomain(domain)));
    }
    return schema;
  }
  auto versions = registry_.Versions(domain, node.op_type());
  if (!versions.empty()) {
    ReportNode(out, Severity::kError, DiagCode::kUnknownOperator, run.path, index, node, nullptr,
               StrCat(node.op_type(), " is not in opset ", version, " of ", DisplayDomain(domain),
                      " (its first version is ", versions.front()->since_version(), ")"));
  } else if (IsOnnxDomain(domain)) {
    ReportNode(out, Severity::kError, DiagCode::kUnknownOperator, run.path, index, node, nullptr,
               StrCat("unknown operator '", node.op_type(), "' in domain ", DisplayDomain(domain)));
  } else if (reported_once_.insert(StrCat("schema:", domain, "::", node.op_type())).second) {
    // A domain with schemas (com.microsoft, or one the user's schemas define) that lacks this
    // operator is not a custom domain: say so rather than call the operator custom.
    const bool known_domain = registry_.OpsetRange(domain).has_value();
    ReportNode(out, StrictOr(Severity::kWarning), DiagCode::kNoSchema, run.path, index, node,
               nullptr,
               StrCat("no schema for ", known_domain ? "operator " : "custom operator ", domain,
                      "::", node.op_type(),
                      known_domain ? " (its domain is known, this operator is not)" : "",
                      "; its outputs are left unknown (reported once per operator)"));
  }
  return nullptr;
}

const onnx::FunctionProto* Driver::CatalogBody(const OpSchema& schema, int64_t opset,
                                               std::string* error) {
  const auto& bodies = schema.function_bodies();
  if (bodies.empty() || schema.context_dependent_function()) return nullptr;
  std::optional<size_t> pick;
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].opset <= opset && (!pick || bodies[i].opset > bodies[*pick].opset)) pick = i;
  }
  if (!pick) {
    pick = 0;
    for (size_t i = 1; i < bodies.size(); ++i) {
      if (bodies[i].opset < bodies[*pick].opset) pick = i;
    }
  }
  auto it = catalog_bodies_.find({&schema, *pick});
  if (it == catalog_bodies_.end()) {
    it = catalog_bodies_
             .emplace(std::pair{&schema, *pick},
                      syntax::ParseFunctionText(bodies[*pick].text,
                                                StrCat(schema.Id(), " function body")))
             .first;
  }
  if (!it->second.ok()) {
    *error = it->second.status().message();
    return nullptr;
  }
  return &*it->second;
}

// Replaces each attribute reference of `node` (ref_attr_name) by the attribute `bound` gives
// it, renamed; one bound to nothing is dropped (absent, so its default applies). References
// reach into subgraphs too: a branch of an If in a function body may say `to = @target`, and
// the body's attributes are the only scope such a reference can name.
void BindAttributeReferences(const std::map<std::string, const onnx::AttributeProto*>& bound,
                             onnx::NodeProto* node) {
  auto* attributes = node->mutable_attribute();
  for (int i = 0; i < attributes->size();) {
    onnx::AttributeProto* a = attributes->Mutable(i);
    if (!a->ref_attr_name().empty()) {
      auto it = bound.find(a->ref_attr_name());
      if (it == bound.end()) {
        attributes->DeleteSubrange(i, 1);
        continue;
      }
      std::string name = a->name();
      *a = *it->second;
      a->set_name(std::move(name));
    } else if (a->has_g()) {
      for (auto& n : *a->mutable_g()->mutable_node()) BindAttributeReferences(bound, &n);
    } else {
      for (auto& g : *a->mutable_graphs()) {
        for (auto& n : *g.mutable_node()) BindAttributeReferences(bound, &n);
      }
    }
    ++i;
  }
}

CallResult Driver::InferFunctionCall(const GraphRun& run, int index, const onnx::NodeProto& node,
                                     const onnx::FunctionProto& f, int function_index,
                                     const OpSchema* schema, const std::vector<const Type*>& inputs,
                                     const std::vector<const ConstValue*>& input_values) {
  auto& out = *run.diagnostics;
  const std::string id =
      schema ? schema->Id() : StrCat(DisplayDomain(CanonicalDomain(f.domain())), "::", f.name());
  CallResult none{std::vector<Type>(node.output_size()),
                  std::vector<std::optional<ConstValue>>(node.output_size())};
  for (const onnx::FunctionProto* active : function_stack_) {
    if (active == &f) {
      ReportNode(out, Severity::kError, DiagCode::kFunctionRecursion, run.path, index, node, schema,
                 StrCat("function ", id, " calls itself (directly or through other functions)"));
      return none;
    }
  }
  if (run.depth + 1 > options_.max_nesting) {
    ReportNode(out, Severity::kError, DiagCode::kNestingLimit, run.path, index, node, schema,
               StrCat("function calls nested deeper than ", options_.max_nesting,
                      " levels are not inferred (the graph nesting limit, "
                      "InferenceOptions::max_nesting)"));
    return none;
  }
  if (!expansion_budget_.Charge(f.node_size())) {
    if (expansion_budget_.FirstRefusal()) {
      ReportNode(out, Severity::kError, DiagCode::kExpansionLimit, run.path, index, node, schema,
                 StrCat("function ", id, ": ", expansion_budget_.Message()));
    }
    return none;
  }
  if (node.input_size() > f.input_size() || node.output_size() > f.output_size()) {
    ReportNode(out, Severity::kError, DiagCode::kFunctionArity, run.path, index, node, schema,
               StrCat("function ", id, " takes ", f.input_size(), " inputs and ", f.output_size(),
                      " outputs; the call gives ", node.input_size(), " and ", node.output_size()));
    return none;
  }

  // The body as a graph: formal inputs typed by the call, attribute references bound to the
  // call's attributes or the defaults (the function's own, or its schema's).
  onnx::GraphProto body;
  std::vector<Type> types;
  std::vector<const ConstValue*> values;
  for (int i = 0; i < f.input_size(); ++i) {
    const bool given = i < static_cast<int>(inputs.size());
    body.add_input()->set_name(f.input(i));
    types.push_back(given && inputs[i] ? *inputs[i] : Type());
    values.push_back(given && options_.data_propagation ? input_values[i] : nullptr);
  }
  for (const auto& o : f.output()) body.add_output()->set_name(o);
  std::map<std::string, const onnx::AttributeProto*> bound;
  if (schema) {
    for (const auto& spec : schema->attributes()) {
      if (spec.default_value) bound[spec.name] = &*spec.default_value;
    }
  }
  for (const auto& a : f.attribute_proto()) bound[a.name()] = &a;  // defaults
  for (const auto& a : node.attribute()) bound[a.name()] = &a;
  for (const auto& fn_node : f.node()) {
    onnx::NodeProto* n = body.add_node();
    *n = fn_node;
    BindAttributeReferences(bound, n);
  }
  Opsets opsets = f.opset_import_size() ? ReadOpsets(f.opset_import()) : *run.opsets;
  GraphRun call;
  call.graph = &body;
  call.path = ChildPath(run.path, StrCat(node.op_type(), "_", index, ".", id));
  call.opsets = &opsets;
  call.input_types = &types;
  call.input_values = &values;
  call.annotate_inputs = true;
  call.depth = run.depth + 1;
  call.diagnostics = run.diagnostics;
  call.record = run.record && function_index >= 0;
  Scope scope(nullptr);  // a function sees only its inputs
  function_stack_.push_back(&f);
  InferGraph(call, &scope, /*count_stats=*/false);
  function_stack_.pop_back();

  if (function_index >= 0) {
    // Keep each value's type per call; value_info is written where all calls agree.
    auto& seen = function_values_[function_index];
    auto first_call = seen.empty();
    for (const auto& [name, type] : GraphValueTypeMap(call, scope)) {
      auto [it, inserted] = seen.try_emplace(name, type);
      if (!inserted && it->second && !(*it->second == type)) it->second.reset();
      if (inserted && !first_call) it->second.reset();  // absent from an earlier call
    }
  }
  RecordValueTypes(call, scope);
  CallResult result = none;
  for (int o = 0; o < node.output_size() && o < static_cast<int>(call.output_types.size()); ++o) {
    result.types[o] = call.output_types[o];
    result.values[o] = call.output_values[o];
  }
  return result;
}

void Driver::WriteFunctionValueInfo() {
  for (const auto& [index, values] : function_values_) {
    onnx::FunctionProto* f = model_->mutable_functions(index);
    std::map<std::string, onnx::ValueInfoProto*> existing;
    for (auto& vi : *f->mutable_value_info()) existing[vi.name()] = &vi;
    for (const auto& [name, type] : values) {
      if (!type || type->is_unknown()) continue;
      onnx::ValueInfoProto* vi = existing.count(name) ? existing[name] : f->add_value_info();
      vi->set_name(name);
      WriteTypeToProto(*type, vi->mutable_type(), &dim_texts_);
    }
  }
}

void Driver::InferNode(const GraphRun& run, const Scope* scope, int index, onnx::NodeProto* node,
                       NodeInputs& inputs, bool inputs_defined, bool count_stats,
                       NodeOutcome& outcome) {
  auto& out = *run.diagnostics;
  const std::vector<const Type*>& input_types = inputs.types;
  const std::vector<const ConstValue*>& input_values = inputs.values;
  const std::string& path = run.path;
  const int num_outputs = node->output_size();
  int64_t opset_version = 0;
  int function_index = -1;
  const OpSchema* schema = ResolveSchema(run, *node, index, &opset_version, &function_index);
  outcome.schema = schema;
  // Emptied, not freed; sized at the end unless a rule or function call sets them.
  std::vector<Type>& outputs = outcome.types;
  std::vector<std::optional<ConstValue>>& output_values = outcome.values;
  outputs.clear();
  output_values.clear();
  outcome.how = NodeProvenance::How::kNotRun;
  outcome.rule_failed = false;
  if (function_index >= 0) {
    if (inputs_defined) {
      outcome.how = NodeProvenance::How::kFunction;
      inputs.ReadAll();
      CallResult call = InferFunctionCall(run, index, *node, model_->functions(function_index),
                                          function_index, nullptr, input_types, input_values);
      outputs = std::move(call.types);
      if (options_.data_propagation) output_values = std::move(call.values);
    }
  } else if (schema) {
    SignatureCheck& signature = inputs.signature;
    CheckSignature(*node, *schema, input_types, signature);
    for (const auto& issue : signature.issues) {
      const Severity severity = issue.type_constraint && !options_.check_types ? Severity::kWarning
                                : issue.strict_only ? StrictOr(issue.severity)
                                                    : issue.severity;
      ReportNode(out, severity,
                 issue.type_constraint ? DiagCode::kTypeConstraint : DiagCode::kSignature, path,
                 index, *node, schema, issue.message, issue.subject);
    }
    if (!signature.arity_error && inputs_defined) {
      std::string body_error;
      const onnx::FunctionProto* body =
          schema->has_rule() ? nullptr : CatalogBody(*schema, opset_version, &body_error);
      if (body) {
        // No rule, but ONNX defines the operator as a function: infer through its body.
        outcome.how = NodeProvenance::How::kFunction;
        inputs.ReadAll();
        CallResult call =
            InferFunctionCall(run, index, *node, *body, -1, schema, input_types, input_values);
        outputs = std::move(call.types);
        if (options_.data_propagation) output_values = std::move(call.values);
      } else if (!schema->has_rule()) {
        outcome.how = NodeProvenance::How::kNoRule;
        if (count_stats) result_.stats.nodes_without_rule++;
        if (reported_once_.insert("rule:" + schema->Id()).second) {
          ReportNode(out, StrictOr(Severity::kNote), DiagCode::kNoRule, path, index, *node, schema,
                     body_error.empty()
                         ? "no inference rule for this operator yet; its output shapes are "
                           "left unknown (reported once per operator version)"
                         : StrCat("no inference rule for this operator, and its function body "
                                  "does not parse (",
                                  body_error,
                                  "); its output shapes are "
                                  "left unknown (reported once per operator version)"));
        }
      } else {
        // The rule sets the outputs in place, in lists kept from node to node.
        InferenceContext ctx(*node, *schema, opset_version, input_types, input_values, &outputs,
                             &output_values);
        ctx.set_max_value_elements(options_.max_value_elements);
        ctx.set_unifier(&unifier_);
        ctx.set_nested(run.depth > 0);
        ctx.set_symbol_log(&introduced_);
        NodeSubgraphs subgraphs(*this, run, scope, index, node);
        ctx.set_subgraph_inferencer(&subgraphs);
        ctx.set_input_value_reader(&inputs);
        outcome.how = NodeProvenance::How::kRule;
        Status status = schema->rule()(ctx);
        outcome.rule_failed = !status.ok();
        subgraphs.Flush(out);
        for (size_t w = 0; w < ctx.warnings().size(); ++w) {
          ReportNode(out, Severity::kWarning, ctx.warning_codes()[w], path, index, *node, schema,
                     ctx.warnings()[w], ctx.warning_subjects()[w]);
        }
        if (!status.ok()) {
          if (!ctx.ReportedBySignature(status)) {
            ReportNode(out, Severity::kError, RuleCode(status), path, index, *node, schema,
                       status.message(), status.subject());
          }
          outputs.clear();  // what the rule set before it failed is not kept
          output_values.clear();
        } else if (!options_.data_propagation && node->op_type() != "Constant") {
          output_values.clear();  // without data propagation only constants carry values
        }
      }
      // What the signature says of each output (a bound type parameter, a single allowed
      // type) completes what the rule left open, or stands alone when there is no rule.
      outputs.resize(num_outputs);
      for (int o = 0; o < num_outputs; ++o) {
        const Type* from_signature = SignatureOutputType(*schema, signature, o);
        if (!from_signature || from_signature->is_unknown()) continue;
        if (AddsNothing(*from_signature, outputs[o])) continue;  // the usual case, no copy
        auto merged = MergeTypes(outputs[o], *from_signature);
        if (merged.ok()) outputs[o] = std::move(*merged);
      }
      // Inputs that disagree on a type parameter (MatMul of float16 and float): an output of
      // that parameter could be either, so its element type is unknown, whatever the rule
      // took from one input (its shape stays). Without type checks (onnx's check_type=False)
      // the rule's choice stands, as onnx's does.
      for (const auto& issue : signature.issues) {
        if (issue.conflicting_param.empty() || !options_.check_types) continue;
        for (int o = 0; o < num_outputs; ++o) {
          const FormalParameter* formal = FormalFor(schema->outputs(), o);
          if (formal && formal->type == issue.conflicting_param && outputs[o].is_tensor()) {
            outputs[o].set_elem_type(0);
          }
        }
      }
    }
  } else {
    outcome.how = NodeProvenance::How::kNoSchema;
    if (count_stats) result_.stats.nodes_without_rule++;
  }
  outputs.resize(num_outputs);
  output_values.resize(num_outputs);
}

std::map<std::string, Type, std::less<>> Driver::GraphValueTypeMap(const GraphRun& run,
                                                                   const Scope& scope) {
  std::map<std::string, Type, std::less<>> types;
  for (const auto& [name, type] : run.defined_inputs) types.emplace(name, type);
  for (const auto& node : run.graph->node()) {
    for (const auto& name : node.output()) {
      const Value* v = name.empty() ? nullptr : scope.FindHere(name);
      if (v && v->from_node) types.emplace(name, v->type);
    }
  }
  return types;
}

void Driver::RecordValueTypes(const GraphRun& run, const Scope& scope) {
  if (!run.record || !options_.record_value_types) return;
  const onnx::GraphProto& graph = *run.graph;
  GraphValueTypes values;
  std::unordered_set<std::string_view> listed;
  for (const auto& [name, type] : run.defined_inputs) {
    values.types.emplace(name, type);
    if (listed.insert(name).second) values.inputs.emplace_back(name);
  }
  for (const auto& [name, type] : run.declared_inputs) values.declared.emplace(name, type);
  for (const auto& [name, type] : run.inferred_declared) values.inferred[std::string(name)] = type;
  // What value_info and the graph's outputs declare (GraphRun::declared_types).
  auto note_declared = [&](const std::string& name, const Value* v) {
    if (v && v->declared >= 0 && !run.declared_types[v->declared].is_unknown()) {
      values.declared.emplace(name, run.declared_types[v->declared]);
    }
  };
  for (const auto& vi : graph.output()) listed.insert(vi.name());  // listed as outputs
  for (const auto& node : graph.node()) {
    for (const auto& name : node.output()) {
      if (name.empty() || !listed.insert(name).second) continue;
      const Value* v = scope.FindHere(name);
      if (!v || !v->from_node) continue;  // on a cycle
      values.types.emplace(name, v->type);
      values.values.push_back(name);
      note_declared(name, v);
    }
  }
  for (int i = 0; i < graph.output_size(); ++i) {
    const std::string& name = graph.output(i).name();
    if (name.empty()) continue;
    values.outputs.push_back(name);
    values.types[name] = run.output_types[i];
    note_declared(name, scope.FindHere(name));
  }
  result_.value_types[run.path] = std::move(values);
}

NodeInferenceResult Driver::InferLoneNode(
    const onnx::NodeProto& node, const std::vector<Type>& input_types,
    const std::vector<std::optional<ConstValue>>& input_values) {
  std::vector<Diagnostic>& out = result_.diagnostics;
  const std::string domain(CanonicalDomain(node.domain()));
  auto opset = opsets_.find(domain);
  if (opset != opsets_.end()) CheckOpsetImport(domain, opset->second, out, "");

  // The node as the only one of a graph of its own (a copy: subgraph inference annotates
  // the node's graphs). Its inputs are the values of enclosing graphs its subgraphs see; any
  // other name they read is unknown.
  onnx::GraphProto graph;
  onnx::NodeProto* copy = graph.add_node();
  *copy = node;
  Scope scope(nullptr);
  scope.set_open();
  for (int i = 0; i < node.input_size(); ++i) {
    const std::string& name = node.input(i);
    if (name.empty()) continue;
    auto [v, fresh] = scope.Define(scope.Intern(name));
    if (!fresh) continue;
    if (i < static_cast<int>(input_types.size())) v->type = input_types[i];
    if (i < static_cast<int>(input_values.size())) v->data = Boxed(input_values[i]);
  }
  NodeInputs inputs;
  inputs.types.assign(node.input_size(), nullptr);
  inputs.values.assign(node.input_size(), nullptr);
  for (int i = 0; i < node.input_size(); ++i) {
    if (node.input(i).empty()) continue;
    const Value* v = scope.Find(node.input(i));
    inputs.types[i] = &v->type;
    inputs.values[i] = v->data.get();
  }
  GraphRun run;
  run.graph = &graph;
  run.opsets = &opsets_;
  run.diagnostics = &out;
  run.record = false;
  NodeOutcome outcome;
  InferNode(run, &scope, /*index=*/0, copy, inputs, /*inputs_defined=*/true,
            /*count_stats=*/false, outcome);
  NodeInferenceResult result;
  result.schema = outcome.schema;
  result.output_names.assign(node.output().begin(), node.output().end());
  result.output_types = std::move(outcome.types);
  result.output_values = std::move(outcome.values);
  result.diagnostics = std::move(out);
  return result;
}

void Driver::InferGraph(GraphRun& run, Scope* scope, bool count_stats) {
  ReportUndefinedElemTypes(run);
  DefineGraphValues(run, scope);
  IndexNodeValues(run, scope);
  {
    const Producers producer = FindProducers(run, *scope);
    const NodeOrder order = OrderGraphNodes(run, *scope, producer);
    ReadDeclaredTypes(run, scope);
    for (int index : order.order) {
      if (count_stats) result_.stats.nodes++;
      InferGraphNode(run, scope, index, producer, count_stats);
    }
    ReportUndefinedOutputs(run, *scope, producer);
  }  // the producers and the order are freed before the write-back (its peak)
  CollectGraphOutputs(run, *scope);
  if (run.release_written) {
    run.declared_types = {};
    run.node_inputs = {};
    run.node_outcome = {};
  }
  WriteBack(run, *scope, count_stats);
}

// Whether `type` holds a tensor type whose elem_type is given as UNDEFINED (0), at the top or
// inside a sequence, map or optional. An absent elem_type is not reported.
bool HasUndefinedElemType(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      return type.tensor_type().has_elem_type() && type.tensor_type().elem_type() == 0;
    case onnx::TypeProto::kSparseTensorType:
      return type.sparse_tensor_type().has_elem_type() &&
             type.sparse_tensor_type().elem_type() == 0;
    case onnx::TypeProto::kSequenceType:
      return type.sequence_type().has_elem_type() &&
             HasUndefinedElemType(type.sequence_type().elem_type());
    case onnx::TypeProto::kOptionalType:
      return type.optional_type().has_elem_type() &&
             HasUndefinedElemType(type.optional_type().elem_type());
    case onnx::TypeProto::kMapType:
      return type.map_type().has_value_type() && HasUndefinedElemType(type.map_type().value_type());
    default:
      return false;
  }
}

// onnx.proto: a tensor type's elem_type and a tensor's data_type MUST NOT be UNDEFINED. A
// model's input or an initializer so declared has no element type a rule could check (onnx
// stops at the first node reading it: "Element type of input 0 unknown"); the value is still
// defined, of unknown element type. A subgraph's inputs and any value_info are left alone:
// there UNDEFINED is used, and read by onnx, as "to be inferred" (a Loop body's placeholders,
// a value_info giving only a shape).
void Driver::ReportUndefinedElemTypes(const GraphRun& run) {
  const onnx::GraphProto& graph = *run.graph;
  constexpr const char* kWhy = "the element type is UNDEFINED (0), which onnx.proto forbids";
  for (int i = 0; run.depth == 0 && i < graph.input_size(); ++i) {
    const onnx::ValueInfoProto& vi = graph.input(i);
    if (vi.has_type() && HasUndefinedElemType(vi.type())) {
      Report(*run.diagnostics, Severity::kError, DiagCode::kUndefinedElemType, run.path,
             StrCat("input ", i, " '", vi.name(), "': ", kWhy), Subject::Input(i, vi.name()));
    }
  }
  for (const auto& init : graph.initializer()) {
    if (init.data_type() == 0) {
      Report(*run.diagnostics, Severity::kError, DiagCode::kUndefinedElemType, run.path,
             StrCat("initializer '", init.name(), "': ", kWhy));
    }
  }
}

// A graph output is a use (IR.md): of a node output, a graph input or initializer, or, in a
// subgraph or training graph, a value of an enclosing graph. One that names none of these
// is an error; its declared type is kept. (Nodes on a cycle count as producers.)
void Driver::ReportUndefinedOutputs(const GraphRun& run, const Scope& scope,
                                    const Producers& producer) {
  if (scope.IsOpen()) return;
  for (int i = 0; i < run.graph->output_size(); ++i) {
    const std::string& name = run.graph->output(i).name();
    const int id = scope.IdOf(name);
    if (scope.Find(id, name) || (id >= 0 && producer[id] >= 0)) continue;
    Report(*run.diagnostics, Severity::kError, DiagCode::kUndefinedValue, run.path,
           StrCat("output ", i, " '", name,
                  "' is not defined by any node, graph input or initializer"),
           Subject::Output(i, name));
  }
}

void Driver::ReadDeclaredTypes(GraphRun& run, Scope* scope) const {
  run.declared_types.clear();
  run.declared_before_bind.clear();
  // A later declaration of the same name replaces an earlier one.
  auto declare = [&](const onnx::ValueInfoProto& vi) {
    const int id = scope->IdOf(vi.name());
    if (id < 0) return;  // not a value of this graph: no node output to merge with
    scope->at(id).declared = static_cast<int32_t>(run.declared_types.size());
    run.declared_types.push_back(TypeFromProto(vi.type()));
    if (!declared_before_bind_.empty()) {
      auto before = declared_before_bind_.find(&vi);
      run.declared_before_bind.push_back(before != declared_before_bind_.end() ? &before->second
                                                                               : nullptr);
    }
  };
  for (const auto& vi : run.graph->output()) declare(vi);
  for (const auto& vi : run.graph->value_info()) {
    if (vi.has_type()) declare(vi);
  }
}

void Driver::IndexNodeValues(GraphRun& run, Scope* scope) {
  const onnx::GraphProto& graph = *run.graph;
  const int num_nodes = graph.node_size();
  NodeValueIds& ids = run.node_ids;
  ids.offsets.resize(num_nodes);
  size_t total = 0;
  for (int i = 0; i < num_nodes; ++i) {
    ids.offsets[i] = total;
    total += graph.node(i).input_size() + graph.node(i).output_size();
  }
  ids.ids.assign(total, -1);
  // Outputs first, so that an input names a node output wherever that node is.
  for (int i = 0; i < num_nodes; ++i) {
    const Names outputs = OutputNames(graph.node(i));
    int* out = ids.ids.data() + ids.offsets[i] + graph.node(i).input_size();
    for (size_t o = 0; o < outputs.size(); ++o) {
      if (!outputs[o]->empty()) out[o] = scope->Intern(*outputs[o]);
    }
  }
  for (int i = 0; i < num_nodes; ++i) {
    const Names inputs = InputNames(graph.node(i));
    int* in = ids.ids.data() + ids.offsets[i];
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (!inputs[k]->empty()) in[k] = scope->IdOf(*inputs[k]);
    }
  }
}

void Driver::DefineGraphValues(GraphRun& run, Scope* scope) {
  onnx::GraphProto& graph = *run.graph;
  auto& out = *run.diagnostics;
  // Inputs, initializers and node outputs: every name the scope holds.
  size_t names = static_cast<size_t>(graph.input_size()) + graph.initializer_size() +
                 graph.sparse_initializer_size();
  for (const auto& node : graph.node()) names += node.output_size();
  scope->Reserve(names);
  const std::string& path = run.path;
  // The value `name` defines, or null (reported) when it is defined already.
  auto define = [&](const std::string& name, Type type, std::string_view what) -> Value* {
    auto [v, fresh] = scope->Define(scope->Intern(name));
    if (!fresh) {
      Report(out, Severity::kError, DiagCode::kDuplicateDefinition, path,
             StrCat("'", name, "' is defined more than once (again as ", what, ")"));
      return nullptr;
    }
    v->type = std::move(type);
    return v;
  };

  for (int i = 0; i < graph.input_size(); ++i) {
    onnx::ValueInfoProto* vi = graph.mutable_input(i);
    Type type = TypeFromProto(vi->type());
    if (run.record && options_.record_value_types && !type.is_unknown()) {
      run.declared_inputs.emplace_back(vi->name(), type);
    }
    if (run.input_types && i < static_cast<int>(run.input_types->size())) {
      const Type& given = (*run.input_types)[i];
      auto merged = MergeTypes(type, given);
      if (merged.ok()) {
        type = std::move(*merged);
      } else {
        Report(out, Severity::kError, DiagCode::kSubgraphMismatch, path,
               StrCat("input ", i, " '", vi->name(), "' is declared ", type.ToString(),
                      " but receives ", given.ToString(), " (", merged.status().message(), ")"),
               Subject::Input(i, vi->name()));
      }
      if (run.annotate_inputs && !type.is_unknown()) {
        WriteTypeToProto(type, vi->mutable_type(), &dim_texts_);
      }
    }
    Value* v = define(vi->name(), type, "a graph input");
    if (!v) continue;
    run.defined_inputs.emplace_back(vi->name(), type);
    if (run.input_values && i < static_cast<int>(run.input_values->size()) &&
        (*run.input_values)[i]) {
      v->data = Boxed(*(*run.input_values)[i]);
    }
    if (run.given_values) {
      auto given = run.given_values->find(vi->name());
      if (given != run.given_values->end()) v->data = Boxed(given->second);
    }
  }
  // An initializer's elements: read only if a node consumes them (external data) or a rule
  // asks for them (decoded on first use).
  auto attach_elements = [&](Value& v, const onnx::TensorProto& init) {
    if (external_values_.IsCandidate(init)) {
      v.external = &init;
    } else {
      v.unread = &init;
    }
  };
  for (const auto& init : graph.initializer()) {
    Type type = TypeOfTensor(init);
    const int id = scope->Intern(init.name());
    if (scope->at(id).defined) {
      // A graph input with a default value: the two descriptions must agree.
      Value& v = scope->at(id);
      auto merged = MergeTypes(v.type, type);
      if (!merged.ok()) {
        Report(out, Severity::kError, DiagCode::kInitializerMismatch, path,
               StrCat("initializer '", init.name(),
                      "' does not match its graph input: ", merged.status().message()));
      } else {
        v.type = *merged;
      }
      // A value the caller gives for the input wins. From IR version 4 the initializer is a
      // default that may be overridden at run time: used, as onnx and onnxruntime use it,
      // with each node that reads it listed as a condition, unless the caller takes the
      // strict reading (InferenceOptions::overridable_initializers). Before, every
      // initializer had to be listed as a graph input (IR.md), so being one says nothing:
      // runtimes treat those initializers as constants, and so do we.
      if (run.given_values && run.given_values->count(init.name())) continue;
      if (model_ != nullptr && model_->ir_version() >= 4) {
        if (options_.overridable_initializers) continue;
        v.default_input = true;
      }
      attach_elements(v, init);
      continue;
    }
    Value* v = define(init.name(), std::move(type), "an initializer");
    if (!v) continue;
    attach_elements(*v, init);
  }
  for (const auto& sparse : graph.sparse_initializer()) {
    if (scope->DefinesHere(sparse.values().name())) continue;
    define(sparse.values().name(), TypeOfSparseTensor(sparse), "a sparse initializer");
  }
}

Driver::Producers Driver::FindProducers(const GraphRun& run, const Scope& scope) {
  const onnx::GraphProto& graph = *run.graph;
  auto& out = *run.diagnostics;
  const std::string& path = run.path;
  const int num_nodes = graph.node_size();
  Producers producer(scope.size(), -1);
  for (int i = 0; i < num_nodes; ++i) {
    const int* ids = run.node_ids.outputs(i, graph.node(i));
    const Names outputs = OutputNames(graph.node(i));
    for (size_t k = 0; k < outputs.size(); ++k) {
      const std::string& o = *outputs[k];
      if (o.empty()) continue;
      if (scope.FindHere(ids[k])) {  // before inference: an input or initializer
        ReportNode(out, Severity::kError, DiagCode::kDuplicateDefinition, path, i, graph.node(i),
                   nullptr, StrCat("output '", o, "' redefines a graph input or initializer"),
                   Subject::Output(-1, o));
        continue;
      }
      if (scope.DefinedOutside(o)) {
        // IR.md: node output names are unique across a graph and the graphs it is nested in
        // (SSA holds across scopes); inside, the node's output is what the subgraph sees.
        ReportNode(out, Severity::kError, DiagCode::kDuplicateDefinition, path, i, graph.node(i),
                   nullptr, StrCat("output '", o, "' redefines a value of an enclosing graph"),
                   Subject::Output(-1, o));
      }
      int& first = producer[ids[k]];
      if (first >= 0) {
        ReportNode(out, Severity::kError, DiagCode::kDuplicateDefinition, path, i, graph.node(i),
                   nullptr, StrCat("output '", o, "' is also produced by node #", first),
                   Subject::Output(-1, o));
      } else {
        first = i;
      }
    }
  }
  return producer;
}

NodeOrder Driver::OrderGraphNodes(const GraphRun& run, const Scope& scope,
                                  const Producers& producer) {
  const onnx::GraphProto& graph = *run.graph;
  const int num_nodes = graph.node_size();
  // Each node's producers, in one flat list rather than a vector per node.
  ProducerLists producers;
  producers.offsets.reserve(num_nodes + 1);
  producers.offsets.push_back(0);
  producers.nodes.reserve(run.node_ids.ids.size());
  for (int i = 0; i < num_nodes; ++i) {
    const int* ids = run.node_ids.inputs(i);
    for (int k = 0, n = graph.node(i).input_size(); k < n; ++k) {
      if (ids[k] >= 0 && producer[ids[k]] >= 0) producers.nodes.push_back(producer[ids[k]]);
    }
    // A subgraph's references to this graph's values are dependencies of its node too.
    for (const auto& a : graph.node(i).attribute()) {
      std::vector<const onnx::GraphProto*> subgraphs;
      if (a.has_g()) subgraphs.push_back(&a.g());
      for (const auto& g : a.graphs()) subgraphs.push_back(&g);
      for (const auto* g : subgraphs) {
        for (const auto& n : g->node()) {
          for (const auto& in : n.input()) {
            const int id = scope.IdOf(in);
            if (id >= 0 && producer[id] >= 0 && producer[id] != i) {
              producers.nodes.push_back(producer[id]);
            }
          }
        }
      }
    }
    producers.offsets.push_back(static_cast<int>(producers.nodes.size()));
  }
  NodeOrder order = OrderNodes(producers);
  for (const auto& cycle : order.cycles) {
    std::vector<std::string> names;
    for (int i : cycle) {
      names.push_back(graph.node(i).name().empty()
                          ? StrCat("#", i, " (", graph.node(i).op_type(), ")")
                          : StrCat("#", i, " '", graph.node(i).name(), "'"));
    }
    Report(*run.diagnostics, Severity::kError, DiagCode::kGraphCycle, run.path,
           StrCat("the nodes ", StrJoin(names, ", "),
                  " form a cycle; their outputs are left unknown"));
  }
  return order;
}

void Driver::InferGraphNode(GraphRun& run, Scope* scope, int index, const Producers& producer,
                            bool count_stats) {
  onnx::NodeProto* node = run.graph->mutable_node(index);
  // Facts recorded from here on are this node's (until a nested node's start or this end).
  TagFacts();
  node_stack_.push_back({&run.path, index, node});
  struct PopNode {
    Driver* driver;
    ~PopNode() {
      driver->TagFacts();
      driver->node_stack_.pop_back();
    }
  } pop_node{this};
  auto& out = *run.diagnostics;
  const std::string& path = run.path;
  NodeInputs& inputs = run.node_inputs;  // the previous node's, cleared
  std::vector<const Type*>& input_types = inputs.types;
  std::vector<const ConstValue*>& input_values = inputs.values;
  std::vector<std::optional<ConstValue>>& resolved = inputs.resolved;  // sized when needed
  const Names names = InputNames(*node);
  input_types.assign(names.size(), nullptr);
  input_values.assign(names.size(), nullptr);
  resolved.clear();
  inputs.unread.clear();
  inputs.max_value_elements = options_.max_value_elements;
  bool inputs_defined = true;
  inputs.read_default = false;
  bool read_default = false;  // an external default input's value given to the rule
  const int* input_ids = run.node_ids.inputs(index);
  for (int i = 0; i < static_cast<int>(names.size()); ++i) {
    const std::string& name = *names[i];
    if (name.empty()) continue;
    const int id = input_ids[i];
    const Value* v = scope->Find(id, name);
    if (!v) {
      if (!(id >= 0 && producer[id] >= 0) && !scope->IsOpen()) {
        ReportNode(out, Severity::kError, DiagCode::kUndefinedValue, path, index, *node, nullptr,
                   StrCat("input ", i, " '", name, "' is not defined by any node, graph ",
                          "input or initializer"),
                   Subject::Input(i, name));
        inputs_defined = false;
      }
      continue;  // produced by a node on a cycle: unknown
    }
    input_types[i] = &v->type;
    if (v->default_input && !v->external) {
      // Read only through Read, so that a rule that reads it is known (a condition).
      if (inputs.unread.empty()) inputs.unread.resize(names.size());
      inputs.unread[i] = v;
    } else if (v->unread) {
      // An initializer's elements, decoded only if the rule asks for them (the facts do not
      // change them: they are constants).
      if (inputs.unread.empty()) inputs.unread.resize(names.size());
      inputs.unread[i] = v;
    } else if (v->data) {
      if (resolved.empty()) resolved.resize(names.size());
      input_values[i] = Resolved(*v->data, resolved[i]);
    } else if (v->external) {
      // Straight into the result: a subgraph pass's findings may be replaced by the next
      // pass's, and the read (cached) happens only once.
      std::vector<std::string> warnings;
      input_values[i] = external_values_.Get(*v->external, &warnings);
      for (auto& w : warnings) {
        ReportNode(result_.diagnostics, Severity::kWarning, DiagCode::kExternalData, path, index,
                   *node, nullptr, w);
      }
      if (v->default_input && input_values[i]) read_default = true;
    }
  }
  NodeOutcome& outcome = run.node_outcome;
  if (provenance_) inputs.asked.assign(names.size(), 0);
  InferNode(run, scope, index, node, inputs, inputs_defined, count_stats, outcome);
  if (provenance_) RecordProvenance(run, index, inputs, outcome);
  if (read_default || inputs.read_default) {
    NoteDefaultInputsRead(run, *scope, *node, input_ids, inputs);
  }
  const OpSchema* schema = outcome.schema;
  std::vector<Type>& outputs = outcome.types;
  std::vector<std::optional<ConstValue>>& output_values = outcome.values;
  const int* output_ids = input_ids + names.size();
  for (int o = 0, n = node->output_size(); o < n; ++o) {
    if (output_ids[o] < 0) continue;  // an omitted output
    // An input, initializer or earlier output of that name keeps its value.
    auto [v, defined] = scope->Define(output_ids[o]);
    if (!defined) continue;
    if (v->declared >= 0) {
      if (run.record && options_.record_value_types &&
          !run.declared_types[v->declared].is_unknown()) {
        run.inferred_declared.emplace_back(node->output(o), outputs[o]);
      }
      v->type = MergeWithDeclared(
          run, index, *node, schema, o, run.declared_types[v->declared],
          run.declared_before_bind.empty() ? nullptr : run.declared_before_bind[v->declared],
          std::move(outputs[o]));
    } else {
      v->type = std::move(outputs[o]);
    }
    v->from_node = true;
    if (output_values[o] || v->data)
      v->data = Boxed(std::move(output_values[o]));  // most have none
  }
}

// How much of a value is known, as NodeProvenance's bits.
uint8_t ValueBits(const ConstValue* value) {
  if (!value) return 0;
  if (!value->HasElements()) return NodeProvenance::kValuePartial;
  for (Dim d : value->ints) {
    if (d.is_unknown()) return NodeProvenance::kValuePartial;
  }
  return NodeProvenance::kValueKnown;
}

void Driver::RecordProvenance(const GraphRun& run, int index, const NodeInputs& inputs,
                              const NodeOutcome& outcome) {
  std::vector<NodeProvenance>& nodes = provenance_->graphs[run.path];
  if (nodes.size() < static_cast<size_t>(run.graph->node_size())) {
    nodes.resize(run.graph->node_size());
  }
  NodeProvenance& p = nodes[index];
  p.how = outcome.how;
  p.rule_failed = outcome.rule_failed;
  p.inputs.assign(inputs.values.size(), 0);
  for (size_t i = 0; i < inputs.values.size(); ++i) {
    // An initializer not decoded yet is known: a rule that asks for it gets it.
    const bool unread = i < inputs.unread.size() && inputs.unread[i] != nullptr;
    p.inputs[i] = unread ? NodeProvenance::kValueKnown : ValueBits(inputs.values[i]);
    if (inputs.asked[i] && !inputs.values[i] && !unread) {
      p.inputs[i] |= NodeProvenance::kValueAsked;
    }
  }
  p.outputs.assign(outcome.values.size(), 0);
  for (size_t o = 0; o < outcome.values.size(); ++o) {
    p.outputs[o] = outcome.values[o] ? ValueBits(&*outcome.values[o]) : 0;
  }
}

Type Driver::MergeWithDeclared(const GraphRun& run, int index, const onnx::NodeProto& node,
                               const OpSchema* schema, int o, const Type& declared,
                               const Type* before_bind, Type type) {
  auto& out = *run.diagnostics;
  const std::string& name = node.output(o);
  auto merged = MergeTypes(declared, type);
  // A declaration that contradicts inference through a symbol the options fix (a binding, a
  // given input shape or value) means the options contradict the model: an error naming the
  // facts, so that the model is not written with the options' dims over the inferred ones.
  auto option_contradiction = [&](const Status& why) {
    if (option_symbols_.empty()) return false;
    const Type& original = before_bind ? *before_bind : declared;
    if (!MentionsOptionSymbol(original)) return false;
    Status named = BindDeclared(original, type, StrCat("declared type of '", name, "'"));
    ReportNode(
        out, Severity::kError, DiagCode::kOptionContradiction, run.path, index, node, schema,
        StrCat("output ", o, " '", name, "': ",
               named.ok() ? StrCat("inferred type ", type.ToString(), " contradicts the declared ",
                                   declared.ToString(), " under the options (", why.message(), ")")
                          : named.message()),
        Subject::Output(o, name));
    return true;
  };
  if (!merged.ok() && option_contradiction(merged.status())) return declared;
  const bool keep = options_.declared_policy == DeclaredPolicy::kRefine;
  const Severity severity = keep ? StrictOr(Severity::kWarning)
                            : options_.declared_policy == DeclaredPolicy::kOverride
                                ? StrictOr(Severity::kNote)
                                : Severity::kError;
  const char* outcome = keep ? "keeping the declared type" : "the inferred type replaces it";
  if (!merged.ok()) {
    ReportNode(out, severity, DiagCode::kDeclaredContradiction, run.path, index, node, schema,
               StrCat("output ", o, " '", name, "': inferred type ", type.ToString(),
                      " contradicts the declared ", declared.ToString(), " (",
                      merged.status().message(), "); ", outcome),
               Subject::Output(o, name));
    return keep ? declared : type;
  }
  // Only where a node is inferred once: a subgraph or function body is inferred per pass
  // and per call, and what holds in one need not hold in all.
  Status bound = run.depth == 0
                     ? BindDeclared(declared, type, StrCat("declared type of '", name, "'"))
                     : OkStatus();
  if (!bound.ok() && !option_contradiction(bound)) {
    ReportNode(out, severity, DiagCode::kDeclaredContradiction, run.path, index, node, schema,
               StrCat("output ", o, " '", name, "': ", bound.message(), "; ", outcome),
               Subject::Output(o, name));
    // The declaration cannot hold with what is known (a declared 2 where N == 1 is a fact).
    if (!keep) return type;
  }
  return std::move(*merged);
}

void Driver::CollectGraphOutputs(GraphRun& run, const Scope& scope) {
  const onnx::GraphProto& graph = *run.graph;
  run.output_types.clear();
  run.output_values.clear();
  for (const auto& vi : graph.output()) {
    const Value* v = scope.Find(vi.name());
    Type type = v ? v->type : Type();
    auto merged = MergeTypes(TypeFromProto(vi.type()), type);
    // A contradiction (reported where the value was inferred) keeps the declaration only
    // under the refine policy.
    const bool keep = options_.declared_policy == DeclaredPolicy::kRefine || type.is_unknown();
    run.output_types.push_back(merged.ok() ? *merged : keep ? TypeFromProto(vi.type()) : type);
    const ConstValue* data = v ? ValueData(*v, options_.max_value_elements) : nullptr;
    run.output_values.push_back(data ? std::optional<ConstValue>(*data) : std::nullopt);
  }
}

void Driver::WriteBack(GraphRun& run, Scope& scope, bool count_stats) {
  onnx::GraphProto& graph = *run.graph;
  const int num_nodes = graph.node_size();
  // Per value id: where its type goes. The value_info entry of that name (the last one, when
  // a name has several), to be added when there is none, or none for a graph output (written
  // in place from run.output_types).
  constexpr int32_t kAdd = -1, kGraphOutput = -2;
  std::vector<int32_t> info(scope.size(), kAdd);
  for (int i = 0; i < graph.value_info_size(); ++i) {
    const int id = scope.IdOf(graph.value_info(i).name());
    if (id >= 0) info[id] = i;
  }
  for (const auto& vi : graph.output()) {
    const int id = scope.IdOf(vi.name());
    if (id >= 0) info[id] = kGraphOutput;
  }
  for (int i = 0; i < graph.output_size(); ++i) {
    const Type& t = run.output_types[i];
    if (!t.is_unknown()) {
      WriteTypeToProto(t, graph.mutable_output(i)->mutable_type(), &dim_texts_);
    }
  }
  // New entries as bytes (GraphRun::stream_new_value_info), made in `scratch`, when each
  // value is written at most once (below): a name several nodes define gets one entry, where
  // its first write would add it, with its last write's type, which bytes cannot be.
  bool stream = run.stream_new_value_info && CanAppendValueInfo(graph);
  ValueInfoScratch scratch;
  // Counts the type of output `o` of node `index` (value `id`) and writes it into the graph.
  auto write = [&](int index, int o, int id, const Type& type) {
    if (count_stats) CountValue(type);
    if (type.is_unknown() || (type.is_tensor() && type.elem_type() == 0 && !type.has_shape())) {
      return;
    }
    int32_t& where = info[id];
    if (where == kGraphOutput) return;
    if (where == kAdd && stream) {
      AppendValueInfo(graph.node(index).output(o), type, scratch);
      return;
    }
    if (where == kAdd) {
      where = graph.value_info_size();
      graph.add_value_info()->set_name(graph.node(index).output(o));
    }
    WriteTypeToProto(type, graph.mutable_value_info(where)->mutable_type(), &dim_texts_);
  };
  if (!run.release_written) {
    for (int index = 0; index < num_nodes; ++index) {
      const int* ids = run.node_ids.outputs(index, graph.node(index));
      for (int o = 0; o < graph.node(index).output_size(); ++o) {
        const Value* inferred = scope.FindHere(ids[o]);
        if (inferred && inferred->from_node) write(index, o, ids[o], inferred->type);
      }
    }
    return;
  }
  // Nothing reads the scope after this (GraphRun::release_written): the node outputs' types
  // are moved out of it in write order, in blocks, and the scope and the per-node ids are freed
  // before the first value_info is made; each block is freed once written. (A name several
  // nodes define is written, and counted, once per node, as above: its type is copied but for
  // the last.)
  struct Pending {
    int32_t node, output, id;
    Type type;
  };
  constexpr size_t kBlock = size_t{1} << 14;
  std::vector<std::vector<Pending>> blocks;
  {
    std::vector<uint32_t> writes_left(scope.size(), 0);
    for (int index = 0; index < num_nodes; ++index) {
      const int* ids = run.node_ids.outputs(index, graph.node(index));
      for (int o = 0; o < graph.node(index).output_size(); ++o) {
        if (ids[o] >= 0 && ++writes_left[ids[o]] > 1) stream = false;
      }
    }
    if (stream) {
      // Each value written once: straight from the scope, its type freed once written, so
      // that the bytes (far smaller than the messages) reuse its memory; no write list.
      std::vector<uint32_t>().swap(writes_left);
      for (int index = 0; index < num_nodes; ++index) {
        const int* ids = run.node_ids.outputs(index, graph.node(index));
        for (int o = 0; o < graph.node(index).output_size(); ++o) {
          if (ids[o] < 0 || !scope.FindHere(ids[o]) || !scope.at(ids[o]).from_node) continue;
          Type& type = scope.at(ids[o]).type;
          write(index, o, ids[o], type);
          type = Type();
        }
      }
      scope.Release();
      run.node_ids = {};
      return;
    }
    for (int index = 0; index < num_nodes; ++index) {
      const int* ids = run.node_ids.outputs(index, graph.node(index));
      for (int o = 0; o < graph.node(index).output_size(); ++o) {
        if (ids[o] < 0) continue;
        const bool last = --writes_left[ids[o]] == 0;
        if (!scope.FindHere(ids[o]) || !scope.at(ids[o]).from_node) continue;
        if (blocks.empty() || blocks.back().size() == kBlock) {
          blocks.emplace_back().reserve(kBlock);
        }
        Type& type = scope.at(ids[o]).type;
        if (last) {
          blocks.back().push_back({index, o, ids[o], std::move(type)});
        } else {
          blocks.back().push_back({index, o, ids[o], type});
        }
      }
    }
  }
  scope.Release();
  run.node_ids = {};
  for (auto& block : blocks) {
    for (const Pending& p : block) write(p.node, p.output, p.id, p.type);
    std::vector<Pending>().swap(block);
  }
}

void Driver::AppendValueInfo(const std::string& name, const Type& type,
                             ValueInfoScratch& scratch_message) {
  using google::protobuf::internal::WireFormatLite;
  using google::protobuf::io::CodedOutputStream;
  // Framed as GraphProto frames a value_info element: tag, length, bytes.
  constexpr size_t kMaxHead = 5 + 10;
  // Chunks of 64 KiB: taken from the heap rather than mapped (malloc maps blocks from 128 KiB),
  // and few enough that their list costs nothing.
  constexpr size_t kChunk = size_t{1} << 16;
  std::vector<std::string>& chunks = result_.new_value_info;
  // Appends one entry whose ValueInfoProto is `size` bytes, written by `body` (which returns
  // the end of what it wrote).
  auto append = [&](size_t size, auto&& body) {
    if (chunks.empty() || chunks.back().capacity() - chunks.back().size() < kMaxHead + size) {
      chunks.emplace_back().reserve(std::max(kChunk, kMaxHead + size));
    }
    std::string& out = chunks.back();
    const size_t old = out.size();
    out.resize(old + kMaxHead + size);
    auto* start = reinterpret_cast<uint8_t*>(out.data() + old);
    uint8_t* p = WireFormatLite::WriteTagToArray(onnx::GraphProto::kValueInfoFieldNumber,
                                                 WireFormatLite::WIRETYPE_LENGTH_DELIMITED, start);
    p = CodedOutputStream::WriteVarint64ToArray(size, p);
    p = body(p);
    out.resize(old + static_cast<size_t>(p - start));
  };
  if (type.is_tensor() && type.denotation().empty()) {
    const std::string& type_bytes = scratch_message.TensorTypeBytes(type, &dim_texts_);
    // The bytes of a ValueInfoProto holding only the name, made here rather than by a
    // message (proto2: a set string field is written even when empty): field 1's tag, the
    // length, the name.
    const size_t name_size = WireFormatLite::TagSize(onnx::ValueInfoProto::kNameFieldNumber,
                                                     WireFormatLite::TYPE_STRING) +
                             CodedOutputStream::VarintSize64(name.size()) + name.size();
    const size_t size = name_size +
                        WireFormatLite::TagSize(onnx::ValueInfoProto::kTypeFieldNumber,
                                                WireFormatLite::TYPE_MESSAGE) +
                        CodedOutputStream::VarintSize64(type_bytes.size()) + type_bytes.size();
    append(size, [&](uint8_t* p) {
      p = WireFormatLite::WriteTagToArray(onnx::ValueInfoProto::kNameFieldNumber,
                                          WireFormatLite::WIRETYPE_LENGTH_DELIMITED, p);
      p = CodedOutputStream::WriteVarint64ToArray(name.size(), p);
      p = std::copy(name.begin(), name.end(), p);
      p = WireFormatLite::WriteTagToArray(onnx::ValueInfoProto::kTypeFieldNumber,
                                          WireFormatLite::WIRETYPE_LENGTH_DELIMITED, p);
      p = CodedOutputStream::WriteVarint64ToArray(type_bytes.size(), p);
      return std::copy(type_bytes.begin(), type_bytes.end(), p);
    });
    return;
  }
  // The scratch message is reused: clearing the tensor type keeps its sub-messages (its
  // shape's dims), and what is made anew (a dim_param's string) is carved from the scratch's
  // arena. Its bytes are those of a fresh message filled alike.
  onnx::ValueInfoProto& scratch = scratch_message.Whole();
  onnx::TypeProto* proto = scratch.mutable_type();
  if (type.is_tensor() && proto->has_tensor_type()) {
    // A tensor after a tensor: only what WriteTypeToProto leaves as it is is cleared; a shape
    // of the same rank is overwritten dim by dim (WriteShape), each dim ending with exactly
    // what the type says, so a dim_param's string is reused rather than made anew.
    proto->clear_denotation();
    onnx::TypeProto_Tensor* tensor = proto->mutable_tensor_type();
    tensor->clear_elem_type();
    if (!type.has_shape()) tensor->clear_shape();
  } else {
    proto->Clear();
  }
  scratch.set_name(name);
  WriteTypeToProto(type, proto, &dim_texts_);
  append(scratch.ByteSizeLong(),
         [&](uint8_t* p) { return scratch.SerializeWithCachedSizesToArray(p); });
}

void Driver::CountValue(const Type& type) { CountValueStats(type, 1, result_.stats); }

}  // namespace

void CountValueStats(const Type& type, int64_t n, InferenceStats& stats) {
  stats.values += n;
  if (!type.is_unknown() && !(type.is_tensor() && type.elem_type() == 0)) {
    stats.typed += n;
    if (type.IsStatic()) {
      stats.shaped += n;
      stats.static_shaped += n;
    } else if (type.IsComplete()) {
      stats.shaped += n;
      stats.symbolic += n;
    } else if (type.has_shape() ||
               (!type.is_tensor() && type.kind() != Type::Kind::kSparseTensor)) {
      stats.partial += n;
    } else {
      stats.type_only += n;
    }
  } else {
    stats.unknown += n;
  }
}

InferenceResult InferShapes(onnx::ModelProto& model, const SchemaRegistry& registry,
                            const InferenceOptions& options) {
  InferenceResult result;
  result.symbol_context =
      options.symbol_context ? options.symbol_context : std::make_shared<symbolic::SymbolContext>();
  symbolic::SymbolContext::Scope symbols(*result.symbol_context);
  // A model built in memory went through no parser's depth limit; every walker below recurses.
  if (Status nesting = CheckNesting(model); !nesting.ok()) {
    Diagnostic d;
    d.graph = "main";
    d.code = DiagCode::kNestingLimit;
    d.message = StrCat("the model is not inferred: ", nesting.message());
    result.diagnostics.push_back(std::move(d));
    return result;
  }
  Driver(model, registry, options, result).Run();
  return result;
}

NodeInferenceResult InferNodeOutputs(const SchemaRegistry& registry, const onnx::NodeProto& node,
                                     const OpsetImports& opsets,
                                     const std::vector<Type>& input_types,
                                     const std::vector<std::optional<ConstValue>>& input_values,
                                     const InferenceOptions& options) {
  Opsets canonical;
  for (const auto& [domain, version] : opsets) {
    canonical[std::string(CanonicalDomain(domain))] = version;
  }
  // The caller's input Dims live in the current context (or the one options name), so the
  // outputs are made there too: a context of the call's own would mix the two.
  if (Status nesting = CheckNesting(node); !nesting.ok()) {
    NodeInferenceResult refused;
    refused.output_names.assign(node.output().begin(), node.output().end());
    refused.output_types.resize(node.output_size());
    refused.output_values.resize(node.output_size());
    Diagnostic d;
    d.node_index = 0;
    d.node_name = node.name();
    d.code = DiagCode::kNestingLimit;
    d.message = StrCat("the node is not inferred: ", nesting.message());
    refused.diagnostics.push_back(std::move(d));
    return refused;
  }
  std::optional<symbolic::SymbolContext::Scope> symbols;
  if (options.symbol_context) symbols.emplace(*options.symbol_context);
  InferenceResult scratch;  // the driver's per-run state; its findings are the node's
  return Driver(registry, options, scratch, std::move(canonical))
      .InferLoneNode(node, input_types, input_values);
}

NodeInferenceResult InferNodeOutputsByName(
    const SchemaRegistry& registry, const onnx::NodeProto& node, const OpsetImports& opsets,
    const std::map<std::string, onnx::TypeProto>& input_types,
    const std::map<std::string, onnx::TensorProto>& input_values, const InferenceOptions& options) {
  std::vector<Type> types(node.input_size());
  std::vector<std::optional<ConstValue>> values(node.input_size());
  for (int i = 0; i < node.input_size(); ++i) {
    const std::string& name = node.input(i);
    if (name.empty()) continue;
    auto type = input_types.find(name);
    auto value = input_values.find(name);
    if (type != input_types.end()) {
      // A type nested past the limit stays unknown; the node's inference then says so.
      if (CheckNesting(type->second).ok()) types[i] = TypeFromProto(type->second);
    } else if (value != input_values.end()) {
      types[i] = TypeOfTensor(value->second);
    }
    if (value != input_values.end()) {
      values[i] = ConstValueOfTensor(value->second, options.max_value_elements);
    }
  }
  return InferNodeOutputs(registry, node, opsets, types, values, options);
}

const char* DeclaredPolicyName(DeclaredPolicy p) {
  switch (p) {
    case DeclaredPolicy::kInferred:
      return "inferred";
    case DeclaredPolicy::kRefine:
      return "refine";
    case DeclaredPolicy::kOverride:
      return "override";
    case DeclaredPolicy::kStrict:
      return "strict";
  }
  return "inferred";
}

std::optional<DeclaredPolicy> ParseDeclaredPolicy(std::string_view name) {
  for (DeclaredPolicy p : {DeclaredPolicy::kInferred, DeclaredPolicy::kRefine,
                           DeclaredPolicy::kOverride, DeclaredPolicy::kStrict}) {
    if (name == DeclaredPolicyName(p)) return p;
  }
  return std::nullopt;
}

}  // namespace onnx_infer
