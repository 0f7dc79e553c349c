// Dim: one dimension of a tensor shape. It is a known integer, a named symbol ("N"), or
// unknown. A Dim is a pointer-sized, immutable handle to an interned node: two Dims that
// denote the same thing are the same pointer, so comparison and hashing are O(1).
//
// symbolic/ knows nothing of ONNX. The node kinds are private, so later kinds (sums,
// products, floor division, min/max...) can be added without changing callers: callers
// only build Dims through the factories and operators below and inspect them through the
// queries.
#ifndef ONNX_INFER_SYMBOLIC_DIM_H_
#define ONNX_INFER_SYMBOLIC_DIM_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace onnx_infer::symbolic {

struct DimNode;  // private: see dim.cc

// The answer to a question about dims that may not be decidable.
enum class Tri { kFalse, kTrue, kUnknown };

class Dim {
 public:
  Dim() = default;  // unknown
  static Dim Unknown() { return Dim(); }
  static Dim Const(int64_t value);
  // A named symbol. An empty name is unknown.
  static Dim Symbol(std::string_view name);

  bool is_unknown() const { return node_ == nullptr; }
  bool is_const() const;
  bool is_symbol() const;
  // The value of a constant dim.
  std::optional<int64_t> const_value() const;
  // The name of a symbol dim; empty otherwise.
  std::string_view symbol_name() const;

  // "5", "N" or "?".
  std::string ToString() const;

  // Structural identity: the same constant, the same symbol, or both unknown. This is not
  // "known equal at run time": see Equal() for that.
  friend bool operator==(Dim a, Dim b) { return a.node_ == b.node_; }
  friend bool operator!=(Dim a, Dim b) { return a.node_ != b.node_; }
  size_t Hash() const { return std::hash<const void*>()(node_); }

  // Arithmetic. Constants fold and identities (x + 0, x * 1, x * 0) apply; anything the
  // algebra cannot express yet is unknown, never a guess.
  friend Dim operator+(Dim a, Dim b);
  friend Dim operator-(Dim a, Dim b);
  friend Dim operator*(Dim a, Dim b);
  // Floor division; unknown when b is zero or not known to divide.
  static Dim FloorDiv(Dim a, Dim b);

 private:
  explicit Dim(const DimNode* node) : node_(node) {}
  const DimNode* node_ = nullptr;
};

// Three-valued equality: kTrue when provably equal, kFalse when provably different.
Tri Equal(Dim a, Dim b);

std::ostream& operator<<(std::ostream& os, Dim d);

}  // namespace onnx_infer::symbolic

template <>
struct std::hash<onnx_infer::symbolic::Dim> {
  size_t operator()(onnx_infer::symbolic::Dim d) const { return d.Hash(); }
};

#endif  // ONNX_INFER_SYMBOLIC_DIM_H_
