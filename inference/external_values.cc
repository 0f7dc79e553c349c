#include "onnx_infer/inference/external_values.h"

#include <limits>
#include <utility>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/proto/external_data.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer {
namespace {

// The element types whose values data propagation tracks as integers, with their sizes in
// an external file (little-endian, as raw_data).
int IntegerElementBytes(int32_t data_type) {
  switch (data_type) {
    case kBool:
    case kInt8:
    case kUint8:
      return 1;
    case kInt16:
    case kUint16:
      return 2;
    case kInt32:
    case kUint32:
      return 4;
    case kInt64:
    case kUint64:
      return 8;
    default:
      return 0;
  }
}

// The element count from dims, when it is at most `max_elements`.
std::optional<int64_t> SmallElementCount(const onnx::TensorProto& tensor, int64_t max_elements) {
  int64_t n = 1;
  for (int64_t d : tensor.dims()) {
    if (d < 0 || (d > 0 && n > max_elements / d)) return std::nullopt;
    n *= d;
  }
  if (n > max_elements) return std::nullopt;
  return n;
}

// Everything the value depends on, length-prefixed so that no two references collide.
std::string CacheKey(const onnx::TensorProto& tensor) {
  std::string key = StrCat(tensor.data_type(), ";", StrJoin(tensor.dims(), ","), ";");
  for (const auto& e : tensor.external_data()) {
    key += StrCat(e.key().size(), ":", e.key(), e.value().size(), ":", e.value());
  }
  return key;
}

}  // namespace

ExternalValues::ExternalValues(std::string model_dir, int64_t max_elements)
    : model_dir_(std::move(model_dir)), max_elements_(max_elements) {}

bool ExternalValues::IsCandidate(const onnx::TensorProto& tensor) const {
  return !model_dir_.empty() && tensor.data_location() == onnx::TensorProto::EXTERNAL &&
         IntegerElementBytes(tensor.data_type()) > 0 &&
         SmallElementCount(tensor, max_elements_).has_value();
}

const ConstValue* ExternalValues::Get(const onnx::TensorProto& tensor,
                                      std::vector<std::string>* warnings) {
  if (!IsCandidate(tensor)) return nullptr;
  auto [it, first_request] = cache_.try_emplace(CacheKey(tensor));
  if (!first_request) return it->second ? &*it->second : nullptr;

  const int64_t element_bytes = IntegerElementBytes(tensor.data_type());
  ExternalDataOptions options;
  options.max_bytes = max_elements_ > std::numeric_limits<int64_t>::max() / 8
                          ? std::numeric_limits<int64_t>::max()
                          : max_elements_ * 8;
  auto data = ReadExternalData(tensor, model_dir_,
                               *SmallElementCount(tensor, max_elements_) * element_bytes, options);
  if (!data.ok()) {
    warnings->push_back(StrCat(data.status().message(), "; its value is left unknown"));
    return nullptr;
  }
  for (const auto& key : data->ignored_keys) {
    warnings->push_back(StrCat("tensor '", tensor.name(), "': external data key '", key,
                               "' is not one the format defines; it is ignored"));
  }
  // The bytes are what raw_data would hold, so the in-model decoder reads them.
  onnx::TensorProto inline_copy;
  inline_copy.set_name(tensor.name());
  inline_copy.set_data_type(tensor.data_type());
  *inline_copy.mutable_dims() = tensor.dims();
  inline_copy.set_raw_data(std::move(data->bytes));
  it->second = ConstValueOfTensor(inline_copy, max_elements_);
  return it->second ? &*it->second : nullptr;
}

}  // namespace onnx_infer
