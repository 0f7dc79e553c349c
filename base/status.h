// Errors as values. Nothing throws across symbolic/, schema/ or inference/: a function that
// can fail returns a Status (or a StatusOr<T>) whose message says what was expected and what
// was found ("input 2: expected rank 1, got rank 0"). Callers add the context (graph, node).
#ifndef ONNX_INFER_BASE_STATUS_H_
#define ONNX_INFER_BASE_STATUS_H_

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace onnx_infer {

class [[nodiscard]] Status {
 public:
  Status() = default;  // ok
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !error_; }
  const std::string& message() const { return message_; }

 private:
  explicit Status(std::string message) : error_(true), message_(std::move(message)) {}
  bool error_ = false;
  std::string message_;
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
