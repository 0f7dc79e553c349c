#include "onnx_infer/schema/type_proto.h"

#include <cstring>
#include <type_traits>
#include <vector>

#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/symbolic/parse.h"

namespace onnx_infer {

Dim DimFromProto(const onnx::TensorShapeProto::Dimension& d) {
  // Some exporters write -1 for "not known"; the IR says dim_value is never negative.
  if (d.has_dim_value()) return d.dim_value() >= 0 ? Dim::Const(d.dim_value()) : Dim();
  if (d.has_dim_param()) return DimFromParam(d.dim_param());
  return Dim();
}

Dim DimFromParam(const std::string& param) {
  // A plain name is a symbol; text that parses completely as an expression is that
  // expression; anything else ("batch size", "input.1_dim_0") stays a symbol with its exact
  // text, so no dim_param is lost. A negative constant is not a dim: it stays text too.
  if (symbolic::IsIdentifier(param)) return Dim::Symbol(param);
  if (auto e = symbolic::ParseDim(param)) {
    if (!(e->is_const() && *e->const_value() < 0)) return *e;
  }
  return Dim::Symbol(param);
}

namespace {

std::optional<Shape> ShapeFromProto(bool has_shape, const onnx::TensorShapeProto& proto) {
  if (!has_shape) return std::nullopt;
  Shape shape;
  shape.reserve(proto.dim_size());
  for (const auto& d : proto.dim()) shape.push_back(DimFromProto(d));
  return shape;
}

// (An unknown shape is not written: it leaves what the proto says, nothing or more.)
void WriteShape(const Shape* shape, bool* has, onnx::TensorShapeProto* proto, DimTextCache* texts) {
  *has = true;
  const int rank = static_cast<int>(shape->size());
  if (proto->dim_size() != rank) proto->clear_dim();
  if (proto->dim_size() < rank) proto->mutable_dim()->Reserve(rank);  // one allocation
  while (proto->dim_size() < rank) proto->add_dim();
  for (size_t i = 0; i < shape->size(); ++i) {
    Dim d = (*shape)[i];
    auto* pd = proto->mutable_dim(static_cast<int>(i));
    if (auto v = d.const_value()) {
      pd->set_dim_value(*v);
    } else if (d.is_symbol()) {
      const std::string_view name = d.symbol_name();
      pd->set_dim_param(name.data(), name.size());  // no temporary string
    } else if (!d.is_unknown()) {
      if (texts) {
        pd->set_dim_param(texts->TextOf(d));
      } else {
        pd->set_dim_param(d.ToString());
      }
    } else {
      pd->clear_dim_value();
      pd->clear_dim_param();
    }
  }
}

}  // namespace

const std::string& DimTextCache::TextOf(Dim d) {
  auto [it, inserted] = texts_.try_emplace(d);
  if (inserted) it->second = d.ToString();
  return it->second;
}

Type TypeFromProto(const onnx::TypeProto& proto) {
  Type t;
  switch (proto.value_case()) {
    case onnx::TypeProto::kTensorType:
      t = Type::Tensor(
          proto.tensor_type().elem_type(),
          ShapeFromProto(proto.tensor_type().has_shape(), proto.tensor_type().shape()));
      break;
    case onnx::TypeProto::kSparseTensorType:
      t = Type::SparseTensor(proto.sparse_tensor_type().elem_type(),
                             ShapeFromProto(proto.sparse_tensor_type().has_shape(),
                                            proto.sparse_tensor_type().shape()));
      break;
    case onnx::TypeProto::kSequenceType:
      t = Type::Sequence(TypeFromProto(proto.sequence_type().elem_type()));
      break;
    case onnx::TypeProto::kOptionalType:
      t = Type::Optional(TypeFromProto(proto.optional_type().elem_type()));
      break;
    case onnx::TypeProto::kMapType:
      t = Type::Map(proto.map_type().key_type(), TypeFromProto(proto.map_type().value_type()));
      break;
    case onnx::TypeProto::kOpaqueType:
      t = Type::Opaque(proto.opaque_type().domain(), proto.opaque_type().name());
      break;
    case onnx::TypeProto::VALUE_NOT_SET:
      return Type();
  }
  if (proto.has_denotation()) t.set_denotation(proto.denotation());
  return t;
}

void WriteTypeToProto(const Type& type, onnx::TypeProto* proto, DimTextCache* texts) {
  if (!type.denotation().empty()) proto->set_denotation(type.denotation());
  switch (type.kind()) {
    case Type::Kind::kUnknown:
      return;
    case Type::Kind::kTensor: {
      auto* t = proto->mutable_tensor_type();
      if (type.elem_type() != 0) t->set_elem_type(type.elem_type());
      bool has = t->has_shape();
      if (type.has_shape()) WriteShape(&type.shape(), &has, t->mutable_shape(), texts);
      return;
    }
    case Type::Kind::kSparseTensor: {
      auto* t = proto->mutable_sparse_tensor_type();
      if (type.elem_type() != 0) t->set_elem_type(type.elem_type());
      bool has = t->has_shape();
      if (type.has_shape()) WriteShape(&type.shape(), &has, t->mutable_shape(), texts);
      return;
    }
    case Type::Kind::kSequence:
      WriteTypeToProto(type.element(), proto->mutable_sequence_type()->mutable_elem_type(), texts);
      return;
    case Type::Kind::kOptional:
      WriteTypeToProto(type.element(), proto->mutable_optional_type()->mutable_elem_type(), texts);
      return;
    case Type::Kind::kMap: {
      auto* m = proto->mutable_map_type();
      if (type.map_key_type() != 0) m->set_key_type(type.map_key_type());
      WriteTypeToProto(type.element(), m->mutable_value_type(), texts);
      return;
    }
    case Type::Kind::kOpaque: {
      auto* o = proto->mutable_opaque_type();
      o->set_domain(type.opaque_domain());
      o->set_name(type.opaque_name());
      return;
    }
  }
}

onnx::TypeProto TypeToProto(const Type& type) {
  onnx::TypeProto proto;
  WriteTypeToProto(type, &proto);
  return proto;
}

Type TypeOfTensor(const onnx::TensorProto& tensor) {
  Shape shape;
  shape.reserve(tensor.dims_size());
  for (int64_t d : tensor.dims()) shape.push_back(Dim::Const(d));
  return Type::Tensor(tensor.data_type(), std::move(shape));
}

Type TensorTypeCache::Get(const onnx::TensorProto& tensor) {
  const auto& dims = tensor.dims();
  size_t h = static_cast<size_t>(tensor.data_type()) * 0x9e3779b97f4a7c15ULL;
  for (int64_t d : dims) h = (h ^ static_cast<size_t>(d)) * 0x100000001b3ULL;
  Type& slot = slots_[(h ^ (h >> 29)) % kSlots];
  if (slot.is_tensor() && slot.elem_type() == tensor.data_type() &&
      slot.shape().size() == static_cast<size_t>(dims.size())) {
    const Shape& shape = slot.shape();
    bool same = true;
    for (int i = 0; i < dims.size() && same; ++i) same = shape[i].const_value() == dims[i];
    if (same) return slot;
  }
  slot = TypeOfTensor(tensor);
  return slot;
}

Type TypeOfSparseTensor(const onnx::SparseTensorProto& tensor) {
  Shape shape;
  for (int64_t d : tensor.dims()) shape.push_back(Dim::Const(d));
  return Type::Tensor(tensor.values().data_type(), std::move(shape));
}

namespace {

// Bytes per element of the types whose raw_data we decode; 0 for the others.
int ElementSize(int32_t t) {
  switch (t) {
    case kBool:
    case kInt8:
    case kUint8:
      return 1;
    case kInt16:
    case kUint16:
      return 2;
    case kInt32:
    case kUint32:
    case kFloat:
      return 4;
    case kInt64:
    case kUint64:
    case kDouble:
      static_assert(kMaxDecodedElementBytes == 8, "the largest size above");
      return 8;
    default:
      return 0;
  }
}

template <typename T>
T ReadLittleEndian(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));  // the machines we build for are little-endian
  return v;
}

// The `n` elements of type T at `p` appended to `out` as integers; false when one does not
// fit int64 (a uint64 above INT64_MAX). One loop per type, reserved once.
template <typename T>
bool ReadInts(const char* p, int64_t n, std::vector<Dim>* out) {
  out->reserve(out->size() + n);
  for (int64_t i = 0; i < n; ++i, p += sizeof(T)) {
    const T x = ReadLittleEndian<T>(p);
    if constexpr (std::is_same_v<T, uint64_t>) {
      if (x > static_cast<uint64_t>(INT64_MAX)) return false;
    }
    out->push_back(Dim::Const(static_cast<int64_t>(x)));
  }
  return true;
}

template <typename T>
void ReadReals(const char* p, int64_t n, std::vector<double>* out) {
  out->reserve(out->size() + n);
  for (int64_t i = 0; i < n; ++i, p += sizeof(T)) out->push_back(ReadLittleEndian<T>(p));
}

}  // namespace

std::optional<ConstValue> ConstValueOfTensor(const onnx::TensorProto& tensor,
                                             int64_t max_elements) {
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL || tensor.has_segment()) {
    return std::nullopt;
  }
  const int32_t t = tensor.data_type();
  const int size = ElementSize(t);
  if (size == 0) return std::nullopt;
  ConstValue v;
  v.elem_type = t;
  int64_t n = 1;
  for (int64_t d : tensor.dims()) {
    if (d < 0 || (d > 0 && n > max_elements / d)) return std::nullopt;
    n *= d;
    v.dims.push_back(d);
  }
  if (n > max_elements) return std::nullopt;
  auto push_int = [&](int64_t x) { v.ints.push_back(Dim::Const(x)); };
  if (tensor.has_raw_data()) {
    const std::string& raw = tensor.raw_data();
    if (static_cast<int64_t>(raw.size()) != n * size) return std::nullopt;
    const char* p = raw.data();
    bool ok = true;
    switch (t) {
      case kBool:
      case kUint8:
        ok = ReadInts<uint8_t>(p, n, &v.ints);
        break;
      case kInt8:
        ok = ReadInts<int8_t>(p, n, &v.ints);
        break;
      case kInt16:
        ok = ReadInts<int16_t>(p, n, &v.ints);
        break;
      case kUint16:
        ok = ReadInts<uint16_t>(p, n, &v.ints);
        break;
      case kInt32:
        ok = ReadInts<int32_t>(p, n, &v.ints);
        break;
      case kUint32:
        ok = ReadInts<uint32_t>(p, n, &v.ints);
        break;
      case kInt64:
        ok = ReadInts<int64_t>(p, n, &v.ints);
        break;
      case kUint64:
        ok = ReadInts<uint64_t>(p, n, &v.ints);
        break;
      case kFloat:
        ReadReals<float>(p, n, &v.reals);
        break;
      case kDouble:
        ReadReals<double>(p, n, &v.reals);
        break;
      default:  // ElementSize() refused the others already
        return std::nullopt;
    }
    if (!ok) return std::nullopt;
  } else {
    switch (t) {
      case kInt64:
        if (tensor.int64_data_size() != n) return std::nullopt;
        v.ints.reserve(n);
        for (int64_t x : tensor.int64_data()) push_int(x);
        break;
      case kUint64:
        if (tensor.uint64_data_size() != n) return std::nullopt;
        for (uint64_t x : tensor.uint64_data()) {
          if (x > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
          push_int(static_cast<int64_t>(x));
        }
        break;
      case kUint32:
        if (tensor.uint64_data_size() != n) return std::nullopt;
        for (uint64_t x : tensor.uint64_data()) push_int(static_cast<int64_t>(x));
        break;
      case kBool:
      case kInt8:
      case kUint8:
      case kInt16:
      case kUint16:
      case kInt32:
        if (tensor.int32_data_size() != n) return std::nullopt;
        v.ints.reserve(n);
        for (int32_t x : tensor.int32_data()) push_int(x);
        break;
      case kFloat:
        if (tensor.float_data_size() != n) return std::nullopt;
        v.reals.reserve(n);
        for (float x : tensor.float_data()) v.reals.push_back(x);
        break;
      case kDouble:
        if (tensor.double_data_size() != n) return std::nullopt;
        v.reals.reserve(n);
        for (double x : tensor.double_data()) v.reals.push_back(x);
        break;
      default:
        return std::nullopt;
    }
  }
  return v;
}

}  // namespace onnx_infer
