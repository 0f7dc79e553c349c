// Errors as values. Nothing throws across symbolic/, schema/ or inference/: a function that
// can fail returns a Status (or a StatusOr<T>) whose message says what was expected and what
// was found ("input 2: expected rank 1, got rank 0"). Callers add the context (graph, node).
#ifndef ONNX_INFER_BASE_STATUS_H_
#define ONNX_INFER_BASE_STATUS_H_

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace onnx_infer {

// The input, output or attribute of a node an error is about, set where the error is made
// (InferenceContext::InputError, the signature check) and carried to the Diagnostic.
struct Subject {
  std::string kind;  // "input", "output", "attribute"; empty when about none in particular
  int index = -1;    // the input's or output's position; -1 for attributes or when unknown
  std::string name;  // the value's or attribute's name, when known

  static Subject Input(int index, std::string name = "") { return {"input", index, name}; }
  static Subject Output(int index, std::string name = "") { return {"output", index, name}; }
  static Subject Attribute(std::string name) { return {"attribute", -1, std::move(name)}; }

  bool empty() const { return kind.empty(); }
  // "input 1 'b'", "output 'y'", "attribute 'axis'", "input 3" (no name): how a message
  // about it starts.
  std::string ToString() const {
    if (kind.empty()) return "";
    std::string out = kind;
    if (index >= 0) out.append(" ").append(std::to_string(index));
    if (!name.empty() || index < 0) out.append(" '").append(name).append("'");
    return out;
  }
  // Written out, not defaulted: public headers stay C++17.
  bool operator==(const Subject& other) const {
    return kind == other.kind && index == other.index && name == other.name;
  }
  bool operator!=(const Subject& other) const { return !(*this == other); }
};

class [[nodiscard]] Status {
 public:
  Status() = default;  // ok
  static Status Error(std::string message) { return Status(std::move(message), nullptr); }
  // An error about `subject`; the message names it too ("input 1 'b': expected rank 2, ...").
  static Status Error(std::string message, Subject subject) {
    if (subject.empty()) return Error(std::move(message));
    return Status(std::move(message), std::make_shared<const Subject>(std::move(subject)));
  }

  bool ok() const { return !error_; }
  const std::string& message() const { return message_; }
  // What kind of finding the error is, as its maker classified it: a DiagCode of
  // schema/diagnostic_codes.h, carried to the Diagnostic; 0 when none was given.
  int code() const { return code_; }
  // The same error, classified as `code`.
  Status WithCode(int code) const& {
    Status s = *this;
    s.code_ = static_cast<uint16_t>(code);
    return s;
  }
  Status WithCode(int code) && {
    code_ = static_cast<uint16_t>(code);
    return std::move(*this);
  }
  // What the error is about; empty when it names no input, output or attribute.
  const Subject& subject() const {
    static const Subject kNone;
    return subject_ ? *subject_ : kNone;
  }

 private:
  Status(std::string message, std::shared_ptr<const Subject> subject)
      : error_(true), message_(std::move(message)), subject_(std::move(subject)) {}
  bool error_ = false;
  uint16_t code_ = 0;
  std::string message_;
  std::shared_ptr<const Subject> subject_;  // null for none: keeps Status small
};

inline Status OkStatus() { return Status(); }

// Holds either a value or an error Status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  StatusOr(Status status) : v_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(v_).ok() && "StatusOr needs an error status or a value");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status() : std::get<Status>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<Status, T> v_;
};

}  // namespace onnx_infer

#define OI_CONCAT_INNER_(a, b) a##b
#define OI_CONCAT_(a, b) OI_CONCAT_INNER_(a, b)

// Returns from the enclosing function when `expr` (a Status) is an error.
#define OI_RETURN_IF_ERROR(expr)              \
  do {                                        \
    ::onnx_infer::Status oi_status_ = (expr); \
    if (!oi_status_.ok()) return oi_status_;  \
  } while (0)

// `OI_ASSIGN_OR_RETURN(auto x, F())`: declares x from a StatusOr or returns its error.
#define OI_ASSIGN_OR_RETURN(lhs, expr) \
  OI_ASSIGN_OR_RETURN_IMPL_(OI_CONCAT_(oi_statusor_, __LINE__), lhs, expr)
#define OI_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

#endif  // ONNX_INFER_BASE_STATUS_H_
