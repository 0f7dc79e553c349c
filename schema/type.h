// Type: onnx-infer's in-memory value type. Rules and the driver work on this, never on
// protobuf messages; type_proto.h converts at the boundary.
//
//   tensor          element type (0 = not known) and an optional shape of Dims
//   sparse_tensor   likewise
//   seq(T)          a sequence of T
//   map(K, V)       K an integer or string element type, V a type
//   optional(T)     maybe a T
//   opaque          (domain, name)
//   unknown         nothing is known, not even the kind
//
// A Type is a small value (24 bytes: the kind, the element type and two counted pointers): its
// shape, nested types and names are shared and immutable, so copying is cheap and allocates
// nothing; a type whose shape is changed gets its own copy of the shape first (mutable_shape).
// A chain of values of one type (a unary rule's output is its input's type) holds one shape
// between them.
#ifndef ONNX_INFER_SCHEMA_TYPE_H_
#define ONNX_INFER_SCHEMA_TYPE_H_

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer {

using symbolic::Dim;

// The dims of a tensor, outermost first. A rank-0 Shape is a scalar.
using Shape = std::vector<Dim>;

// The largest rank a rule creates from a number it reads (a shape input's length, say); more
// is treated as an error in the model rather than allocated.
inline constexpr int64_t kMaxRank = 1 << 16;

// "[N, 3, ?]"
std::string ShapeToString(const Shape& shape);
// True when every dim is a known constant.
bool IsStatic(const Shape& shape);

class Type {
 public:
  enum class Kind : uint8_t {
    kUnknown,
    kTensor,
    kSparseTensor,
    kSequence,
    kMap,
    kOptional,
    kOpaque
  };

  Type() = default;  // unknown
  Type(const Type& other)
      : kind_(other.kind_),
        elem_type_(other.elem_type_),
        shape_(other.shape_),
        extra_(other.extra_) {
    if (shape_) shape_->refs.fetch_add(1, std::memory_order_relaxed);
    if (extra_) extra_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  Type(Type&& other) noexcept
      : kind_(other.kind_),
        elem_type_(other.elem_type_),
        shape_(std::exchange(other.shape_, nullptr)),
        extra_(std::exchange(other.extra_, nullptr)) {}
  // `other` may live in this type's own Extra (t = t.element()): its fields are taken before
  // this type's are released.
  Type& operator=(const Type& other) {
    if (this != &other) {
      if (other.shape_) other.shape_->refs.fetch_add(1, std::memory_order_relaxed);
      if (other.extra_) other.extra_->refs.fetch_add(1, std::memory_order_relaxed);
      Assign(other.kind_, other.elem_type_, other.shape_, other.extra_);
    }
    return *this;
  }
  Type& operator=(Type&& other) noexcept {
    if (this != &other) {
      Assign(other.kind_, other.elem_type_, std::exchange(other.shape_, nullptr),
             std::exchange(other.extra_, nullptr));
    }
    return *this;
  }
  ~Type() {
    Unref(shape_);
    Unref(extra_);
  }
  static Type Unknown() { return Type(); }
  // A tensor of no known shape: inline, since most rules start their output so.
  static Type Tensor(int32_t elem_type) {
    Type t;
    t.kind_ = Kind::kTensor;
    t.elem_type_ = elem_type;
    return t;
  }
  static Type Tensor(int32_t elem_type, std::optional<Shape> shape);
  static Type SparseTensor(int32_t elem_type, std::optional<Shape> shape = std::nullopt);
  static Type Sequence(Type element);
  static Type Map(int32_t key_type, Type value);
  static Type Optional(Type element);
  static Type Opaque(std::string domain, std::string name);

  Kind kind() const { return kind_; }
  bool is_unknown() const { return kind_ == Kind::kUnknown; }
  bool is_tensor() const { return kind_ == Kind::kTensor; }
  // Tensor and sparse tensor: element type (0 when not known), shape.
  int32_t elem_type() const { return elem_type_; }
  void set_elem_type(int32_t t) { elem_type_ = t; }
  bool has_shape() const { return shape_ != nullptr; }
  const Shape& shape() const { return shape_->dims; }  // requires has_shape()
  // A copy of the shape, or none.
  std::optional<Shape> maybe_shape() const {
    return shape_ ? std::optional<Shape>(shape_->dims) : std::nullopt;
  }
  void set_shape(std::optional<Shape> shape);
  // The shape of `other` (or none), shared rather than copied.
  void ShareShape(const Type& other) {
    if (other.shape_) other.shape_->refs.fetch_add(1, std::memory_order_relaxed);
    Unref(shape_);
    shape_ = other.shape_;
  }
  // The shape to change in place (null: no shape): this type's own, copied first when it is
  // shared. A pointer into this type: copying the type afterwards shares what it points to.
  Shape* mutable_shape();
  int64_t rank() const { return shape_ ? static_cast<int64_t>(shape_->dims.size()) : -1; }
  // Sequence and optional: the element type. Map: the value type.
  const Type& element() const;
  // Map: the key's element type.
  int32_t map_key_type() const { return elem_type_; }
  const std::string& opaque_domain() const { return names().opaque_domain; }
  const std::string& opaque_name() const { return names().opaque_name; }
  // The denotation of the type (TypeProto.denotation), if any.
  const std::string& denotation() const { return names().denotation; }
  void set_denotation(std::string d);

  // Everything is known: the kind, every element type, and every shape with all dims
  // constant or symbolic.
  bool IsComplete() const;
  // Fully shaped with only constant dims.
  bool IsStatic() const;

  // Readable form: "float[N, 3]", "float" (shape unknown), "seq(int64[?])", "map(string,
  // float[])", "optional(float[2])", "sparse_tensor(float[3, 4])", "opaque(dom.name)", "?".
  std::string ToString() const;

  // Whether `other` is this type in the same shared pieces (kind, element type, and the one
  // shape and extras): equal without comparing dims. False says nothing.
  bool SharesWith(const Type& other) const {
    return kind_ == other.kind_ && elem_type_ == other.elem_type_ && shape_ == other.shape_ &&
           extra_ == other.extra_;
  }

  friend bool operator==(const Type& a, const Type& b);
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

 private:
  // A shape shared by the types that hold it; counted (atomically: a registry's types are
  // copied by concurrent runs), freed with its last holder.
  struct ShapeRep {
    std::atomic<int32_t> refs{1};
    Shape dims;

    // Made by the hundred thousand in a run and freed together: carved from slabs (type.cc)
    // rather than allocated one by one.
    static void* operator new(size_t size);
    static void operator delete(void* rep);
  };
  static void Unref(ShapeRep* rep) {
    if (rep && rep->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete rep;
  }
  // What few types have, kept apart so that a Type stays small to copy, move and store: the
  // element type (sequence, optional, map) and the names (opaque, denotation). Shared and
  // immutable, null when none is set; counted like ShapeRep (Extra, in type.cc, holds a Type,
  // which is incomplete here: only the count is seen inline).
  struct ExtraRep {
    mutable std::atomic<int32_t> refs{1};
  };
  struct Extra;
  struct Names {
    std::string opaque_domain, opaque_name, denotation;
  };
  static void Unref(const ExtraRep* rep) {
    if (rep && rep->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) Delete(rep);
  }
  static void Delete(const ExtraRep* rep);  // the Extra it is
  // Holds the given fields (and the counts of `shape` and `extra` they bring), releasing its
  // own after: they may hold what the fields came from.
  void Assign(Kind kind, int32_t elem_type, ShapeRep* shape, const ExtraRep* extra) {
    ShapeRep* const old_shape = std::exchange(shape_, shape);
    const ExtraRep* const old_extra = std::exchange(extra_, extra);
    kind_ = kind;
    elem_type_ = elem_type;
    Unref(old_shape);
    Unref(old_extra);
  }
  const Extra* extra() const;
  void set_extra(const Extra* extra);  // takes the new Extra's one count

  Kind kind_ = Kind::kUnknown;
  int32_t elem_type_ = 0;
  ShapeRep* shape_ = nullptr;        // null: no shape
  const ExtraRep* extra_ = nullptr;  // an Extra; null: none
  const Names& names() const;
};

// Every value the driver holds has one (inference/driver.h: Value).
static_assert(sizeof(Type) <= 24, "a Type is the kind, the element type and two pointers");

// Combines two descriptions of the same value (what the model declares and what inference
// found) into the most specific type both allow. Known beats unknown; a constant dim beats a
// symbol (the symbol is bound to it); two different symbols keep `a`'s. A contradiction
// (different kinds, element types, ranks or constant dims) is an error that says both.
StatusOr<Type> MergeTypes(const Type& a, const Type& b);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_TYPE_H_
