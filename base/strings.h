// Small string helpers shared by every layer.
#ifndef ONNX_INFER_BASE_STRINGS_H_
#define ONNX_INFER_BASE_STRINGS_H_

#include <charconv>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

namespace onnx_infer {
namespace strings_internal {

// Appends one StrCat argument as operator<< would print it. Text and integers are appended
// directly (an std::ostringstream costs about a thousand instructions to set up); anything
// else (Dim, Type, floating point, bool) goes through operator<<.
template <typename T>
void AppendPrinted(std::string& out, const T& value) {
  using U = std::remove_cv_t<T>;
  static_assert(!std::is_function_v<std::remove_pointer_t<U>>,
                "StrCat prints each argument on its own: a stream manipulator (std::hex) would "
                "not apply to the next one; format the value first");
  if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    out += std::string_view(value);
  } else if constexpr (std::is_same_v<U, char> || std::is_same_v<U, signed char> ||
                       std::is_same_v<U, unsigned char>) {
    out += static_cast<char>(value);
  } else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool>) {
    char buffer[24];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
    out.append(buffer, end);
  } else {
    std::ostringstream os;
    os << value;
    out += os.str();
  }
}

}  // namespace strings_internal

// StrCat("input ", 2, ": rank ", r): concatenates anything printable with operator<<.
template <typename... Args>
std::string StrCat(const Args&... args) {
  std::string out;
  (strings_internal::AppendPrinted(out, args), ...);
  return out;
}

// Joins the items of a range, each printed with operator<<.
template <typename Range>
std::string StrJoin(const Range& items, std::string_view separator) {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += separator;
    strings_internal::AppendPrinted(out, item);
    first = false;
  }
  return out;
}

}  // namespace onnx_infer

#endif  // ONNX_INFER_BASE_STRINGS_H_
