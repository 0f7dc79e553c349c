// Small string helpers shared by every layer.
#ifndef ONNX_INFER_BASE_STRINGS_H_
#define ONNX_INFER_BASE_STRINGS_H_

#include <sstream>
#include <string>
#include <string_view>

namespace onnx_infer {

// StrCat("input ", 2, ": rank ", r): concatenates anything printable with operator<<.
template <typename... Args>
std::string StrCat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

// Joins the items of a range, each printed with operator<<.
template <typename Range>
std::string StrJoin(const Range& items, std::string_view separator) {
  std::ostringstream os;
  bool first = true;
  for (const auto& item : items) {
    if (!first) os << separator;
    os << item;
    first = false;
  }
  return os.str();
}

}  // namespace onnx_infer

#endif  // ONNX_INFER_BASE_STRINGS_H_
