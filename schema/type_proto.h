// Conversions between onnx-infer's Type/ConstValue and the protobuf messages of the model
// format. This is the only place in schema/ that reads or writes TypeProto.
#ifndef ONNX_INFER_SCHEMA_TYPE_PROTO_H_
#define ONNX_INFER_SCHEMA_TYPE_PROTO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

// A dim_value is a constant (a negative one unknown), a dim_param is read by DimFromParam,
// anything else is unknown.
Dim DimFromProto(const onnx::TensorShapeProto::Dimension& d);
// A dim_param: a plain name is a symbol; text that parses completely as an expression of
// docs/symbolic.md ("N + 5", "floor((H - 1)/2) + 1") is that expression; anything else
// ("batch size", "input.1_dim_0") is a symbol with exactly that text.
Dim DimFromParam(const std::string& param);
Type TypeFromProto(const onnx::TypeProto& proto);

// The dim_param text of the expression dims written so far ("floor((H + 1)/2)"): a write-back
// of many values meets the same few expressions again and again, and printing one costs far
// more than copying its text. Dims are interned, so the text is kept per node. Keys are the
// nodes of the current symbol context: a cache must not outlive it (the driver keeps one per
// run), and is not shared between threads.
class DimTextCache {
 public:
  const std::string& TextOf(Dim d);

 private:
  std::unordered_map<Dim, std::string> texts_;
};

// Writes `type` into `proto`, updating it in place where the kind matches, so that what the
// type does not describe (dim denotations) survives. Unknown parts are left empty. `texts`
// (optional) keeps the text of expression dims from one call to the next.
void WriteTypeToProto(const Type& type, onnx::TypeProto* proto, DimTextCache* texts = nullptr);
onnx::TypeProto TypeToProto(const Type& type);

// The type of a tensor literal: its data_type and dims.
Type TypeOfTensor(const onnx::TensorProto& tensor);
Type TypeOfSparseTensor(const onnx::SparseTensorProto& tensor);

// TypeOfTensor for many tensors, where shapes repeat (a CNN's weights and biases): a tensor
// of a type met lately gets a copy of that type, which shares its shape, instead of a new
// one (two allocations and a Dim per axis). The same types as TypeOfTensor. The cached types
// hold Dims of the current symbol context: a cache must not outlive it.
class TensorTypeCache {
 public:
  Type Get(const onnx::TensorProto& tensor);

 private:
  static constexpr size_t kSlots = 64;
  Type slots_[kSlots];
};

// Reads the elements of a tensor stored inside the model, when it has at most
// `max_elements` of them and is of a numeric or bool type. Returns nothing for external data,
// strings, 4/2-bit and 8-bit float types, or data that is missing or inconsistent.
std::optional<ConstValue> ConstValueOfTensor(const onnx::TensorProto& tensor, int64_t max_elements);
// The most bytes an element ConstValueOfTensor reads takes in raw_data: it never reads a
// raw_data longer than max_elements times this (a model's reader may leave such data unread:
// FileParseOptions in proto/model_io.h).
inline constexpr int64_t kMaxDecodedElementBytes = 8;

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_TYPE_PROTO_H_
