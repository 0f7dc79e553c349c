#include "onnx_infer/schema/const_value.h"

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"

namespace onnx_infer {

int64_t ConstValue::NumElements() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::optional<std::vector<int64_t>> ConstValue::ConstInts() const {
  if (static_cast<int64_t>(ints.size()) != NumElements()) return std::nullopt;
  std::vector<int64_t> out;
  out.reserve(ints.size());
  for (symbolic::Dim d : ints) {
    auto v = d.const_value();
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::string ConstValue::ToString() const {
  std::string body = !ints.empty() ? StrJoin(ints, ", ") : StrJoin(reals, ", ");
  return StrCat(DataTypeName(elem_type), "[", StrJoin(dims, ", "), "] {", body, "}");
}

}  // namespace onnx_infer
