#include "onnx_infer/schema/type.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"

namespace onnx_infer {

std::string ShapeToString(const Shape& shape) { return "[" + StrJoin(shape, ", ") + "]"; }

bool IsStatic(const Shape& shape) {
  for (Dim d : shape) {
    if (!d.is_const()) return false;
  }
  return true;
}

namespace {

// The slabs shape reps are carved from: 64 KiB each, aligned to their size, so that a rep
// finds its slab by its address. A thread carves reps, in order, from its current slab; a
// slab counts the reps carved from it and not yet freed, plus one while it is a thread's
// current slab, and is freed when that count reaches 0. A freed rep's memory is not reused
// before its slab is freed: a run's reps live until its write-back, which frees them in the
// order they were made. On the 100k decoder, malloc and free took about 250 instructions a
// rep (a long-lived allocation takes malloc's slow path); a slab, about 20.
constexpr size_t kSlabBytes = size_t{1} << 16;

struct alignas(64) Slab {
  std::atomic<int64_t> live{1};
};

void Release(Slab* slab) {
  if (slab->live.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    slab->~Slab();
    std::free(slab);
  }
}

// A thread's current slab and the room left in it; the slab is released with the thread.
struct SlabCursor {
  Slab* slab = nullptr;
  char* next = nullptr;
  char* end = nullptr;

  ~SlabCursor() {
    if (slab != nullptr) Release(slab);
  }
};

thread_local SlabCursor slab_cursor;

}  // namespace

void* Type::ShapeRep::operator new(size_t size) {
  SlabCursor& cursor = slab_cursor;
  if (static_cast<size_t>(cursor.end - cursor.next) < size) {
    void* memory = std::aligned_alloc(kSlabBytes, kSlabBytes);
    if (memory == nullptr) throw std::bad_alloc();
    if (cursor.slab != nullptr) Release(cursor.slab);
    cursor.slab = new (memory) Slab;
    cursor.next = static_cast<char*>(memory) + sizeof(Slab);
    cursor.end = static_cast<char*>(memory) + kSlabBytes;
  }
  cursor.slab->live.fetch_add(1, std::memory_order_relaxed);
  void* rep = cursor.next;
  cursor.next += (size + alignof(ShapeRep) - 1) / alignof(ShapeRep) * alignof(ShapeRep);
  return rep;
}

void Type::ShapeRep::operator delete(void* rep) {
  Release(reinterpret_cast<Slab*>(reinterpret_cast<uintptr_t>(rep) & ~(kSlabBytes - 1)));
}

struct Type::Extra : ExtraRep {
  Extra(Type e, Names n) : element(std::move(e)), names(std::move(n)) {}
  Type element;
  Names names;
};

void Type::Delete(const ExtraRep* rep) { delete static_cast<const Extra*>(rep); }

const Type::Extra* Type::extra() const { return static_cast<const Extra*>(extra_); }

void Type::set_extra(const Extra* extra) {
  Unref(extra_);
  extra_ = extra;
}

void Type::set_shape(std::optional<Shape> shape) {
  Unref(shape_);
  shape_ = nullptr;
  if (shape) {
    shape_ = new ShapeRep;
    shape_->dims = std::move(*shape);
  }
}

Shape* Type::mutable_shape() {
  if (!shape_) return nullptr;
  if (shape_->refs.load(std::memory_order_acquire) != 1) {
    auto* own = new ShapeRep;
    own->dims = shape_->dims;
    Unref(shape_);
    shape_ = own;
  }
  return &shape_->dims;
}

Type Type::Tensor(int32_t elem_type, std::optional<Shape> shape) {
  Type t;
  t.kind_ = Kind::kTensor;
  t.elem_type_ = elem_type;
  t.set_shape(std::move(shape));
  return t;
}

Type Type::SparseTensor(int32_t elem_type, std::optional<Shape> shape) {
  Type t = Tensor(elem_type, std::move(shape));
  t.kind_ = Kind::kSparseTensor;
  return t;
}

Type Type::Sequence(Type element) {
  Type t;
  t.kind_ = Kind::kSequence;
  t.set_extra(new Extra(std::move(element), {}));
  return t;
}

Type Type::Map(int32_t key_type, Type value) {
  Type t;
  t.kind_ = Kind::kMap;
  t.elem_type_ = key_type;
  t.set_extra(new Extra(std::move(value), {}));
  return t;
}

Type Type::Optional(Type element) {
  Type t;
  t.kind_ = Kind::kOptional;
  t.set_extra(new Extra(std::move(element), {}));
  return t;
}

Type Type::Opaque(std::string domain, std::string name) {
  Type t;
  t.kind_ = Kind::kOpaque;
  if (!domain.empty() || !name.empty()) {
    t.set_extra(new Extra(Type(), Names{std::move(domain), std::move(name), {}}));
  }
  return t;
}

const Type::Names& Type::names() const {
  static const Names* const kNone = new Names();  // never freed: types outlive statics
  return extra_ ? extra()->names : *kNone;
}

void Type::set_denotation(std::string d) {
  if (d == denotation()) return;  // most often both empty: nothing to allocate
  Type element = this->element();
  Names names = this->names();
  names.denotation = std::move(d);
  set_extra(element.is_unknown() && names.opaque_domain.empty() && names.opaque_name.empty() &&
                    names.denotation.empty()
                ? nullptr
                : new Extra(std::move(element), std::move(names)));
}

const Type& Type::element() const {
  static const Type* unknown = new Type();
  return extra_ ? extra()->element : *unknown;
}

bool Type::IsComplete() const {
  switch (kind_) {
    case Kind::kUnknown:
      return false;
    case Kind::kTensor:
    case Kind::kSparseTensor:
      if (elem_type_ == 0 || !shape_) return false;
      for (Dim d : shape_->dims) {
        if (d.is_unknown()) return false;
      }
      return true;
    case Kind::kSequence:
    case Kind::kOptional:
      return element().IsComplete();
    case Kind::kMap:
      return elem_type_ != 0 && element().IsComplete();
    case Kind::kOpaque:
      return true;
  }
  return false;
}

bool Type::IsStatic() const {
  switch (kind_) {
    case Kind::kUnknown:
      return false;
    case Kind::kTensor:
    case Kind::kSparseTensor:
      return elem_type_ != 0 && shape_ && onnx_infer::IsStatic(shape_->dims);
    case Kind::kSequence:
    case Kind::kOptional:
      return element().IsStatic();
    case Kind::kMap:
      return elem_type_ != 0 && element().IsStatic();
    case Kind::kOpaque:
      return true;
  }
  return false;
}

std::string Type::ToString() const {
  auto tensor = [&] {
    std::string s = elem_type_ ? DataTypeName(elem_type_) : "?";
    if (shape_) s += ShapeToString(shape_->dims);
    return s;
  };
  switch (kind_) {
    case Kind::kUnknown:
      return "?";
    case Kind::kTensor:
      return tensor();
    case Kind::kSparseTensor:
      return "sparse_tensor(" + tensor() + ")";
    case Kind::kSequence:
      return "seq(" + element().ToString() + ")";
    case Kind::kOptional:
      return "optional(" + element().ToString() + ")";
    case Kind::kMap:
      return "map(" + (elem_type_ ? DataTypeName(elem_type_) : std::string("?")) + ", " +
             element().ToString() + ")";
    case Kind::kOpaque:
      return "opaque(" + opaque_domain() + (opaque_domain().empty() ? "" : ".") + opaque_name() +
             ")";
  }
  return "?";
}

bool operator==(const Type& a, const Type& b) {
  if (a.kind_ != b.kind_ || a.elem_type_ != b.elem_type_) return false;
  if (a.shape_ != b.shape_ && (!a.shape_ || !b.shape_ || a.shape_->dims != b.shape_->dims)) {
    return false;
  }
  if (a.extra_ == b.extra_) return true;
  if (a.opaque_domain() != b.opaque_domain() || a.opaque_name() != b.opaque_name() ||
      a.denotation() != b.denotation()) {
    return false;
  }
  return a.element() == b.element();
}

namespace {

StatusOr<int32_t> MergeElemType(int32_t a, int32_t b, const char* what) {
  if (a == 0) return b;
  if (b == 0 || a == b) return a;
  return Status::Error(StrCat(what, " ", DataTypeName(a), " vs ", DataTypeName(b)));
}

// The more specific of two descriptions of one dim: a constant binds a symbol or expression;
// an expression (N + 5) says more than a bare name (often an exporter's unk__3). Provably
// different dims (3 vs 4, 3 vs N + 5) are a contradiction.
StatusOr<Dim> MergeDim(Dim a, Dim b, size_t axis) {
  if (a.is_unknown()) return b;
  if (b.is_unknown() || a == b) return a;
  if (symbolic::Equal(a, b) == symbolic::Tri::kFalse) {
    return Status::Error(StrCat("dim ", axis, ": ", a, " vs ", b));
  }
  if (a.is_const()) return a;
  if (b.is_const()) return b;
  if (a.is_symbol() && b.is_expr()) return b;
  return a;
}

}  // namespace

StatusOr<Type> MergeTypes(const Type& a, const Type& b) {
  if (a.is_unknown()) return b;
  if (b.is_unknown()) return a;
  auto mismatch = [&] {
    return Status::Error(StrCat("type ", a.ToString(), " vs ", b.ToString()));
  };
  if (a.kind() != b.kind()) return mismatch();
  Type out = a;
  if (out.denotation().empty()) out.set_denotation(b.denotation());
  switch (a.kind()) {
    case Type::Kind::kUnknown:
      return b;
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor: {
      OI_ASSIGN_OR_RETURN(int32_t elem,
                          MergeElemType(a.elem_type(), b.elem_type(), "element type"));
      out.set_elem_type(elem);
      if (!a.has_shape()) {
        out.ShareShape(b);
      } else if (b.has_shape()) {
        if (a.rank() != b.rank()) {
          return Status::Error(StrCat("rank ", a.rank(), " ", ShapeToString(a.shape()), " vs ",
                                      b.rank(), " ", ShapeToString(b.shape())));
        }
        Shape merged(a.shape().size());
        for (size_t i = 0; i < merged.size(); ++i) {
          OI_ASSIGN_OR_RETURN(merged[i], MergeDim(a.shape()[i], b.shape()[i], i));
        }
        // a's own shape when merging adds nothing to it: shared, not copied
        if (merged != a.shape()) out.set_shape(std::move(merged));
      }
      return out;
    }
    case Type::Kind::kSequence:
    case Type::Kind::kOptional: {
      OI_ASSIGN_OR_RETURN(Type element, MergeTypes(a.element(), b.element()));
      Type merged = a.kind() == Type::Kind::kSequence ? Type::Sequence(std::move(element))
                                                      : Type::Optional(std::move(element));
      merged.set_denotation(out.denotation());
      return merged;
    }
    case Type::Kind::kMap: {
      OI_ASSIGN_OR_RETURN(int32_t key,
                          MergeElemType(a.map_key_type(), b.map_key_type(), "map key"));
      OI_ASSIGN_OR_RETURN(Type value, MergeTypes(a.element(), b.element()));
      Type merged = Type::Map(key, std::move(value));
      merged.set_denotation(out.denotation());
      return merged;
    }
    case Type::Kind::kOpaque:
      if (a.opaque_domain() != b.opaque_domain() || a.opaque_name() != b.opaque_name()) {
        return mismatch();
      }
      return out;
  }
  return out;
}

}  // namespace onnx_infer
