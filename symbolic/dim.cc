#include "symbolic/dim.h"

#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace onnx_infer::symbolic {

// Node kinds. Every switch over Kind lists all of them (no default:), so adding a kind makes
// the compiler point at each place that must learn about it.
enum class Kind : uint8_t {
  kConst,   // value
  kSymbol,  // name
};

struct DimNode {
  Kind kind;
  int64_t value = 0;
  std::string name;
};

namespace {

// The intern table: nodes are created once and live for the whole process, so a Dim never
// dangles. Lookups take a lock; the table is shared by every thread.
class InternTable {
 public:
  const DimNode* Const(int64_t value) {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, inserted] = consts_.try_emplace(value, nullptr);
    if (inserted) it->second = &nodes_.emplace_back(DimNode{Kind::kConst, value, {}});
    return it->second;
  }

  const DimNode* Symbol(std::string_view name) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = symbols_.find(std::string(name));
    if (it != symbols_.end()) return it->second;
    const DimNode* node = &nodes_.emplace_back(DimNode{Kind::kSymbol, 0, std::string(name)});
    symbols_.emplace(node->name, node);
    return node;
  }

 private:
  std::mutex mu_;
  std::deque<DimNode> nodes_;  // stable addresses
  std::unordered_map<int64_t, const DimNode*> consts_;
  std::unordered_map<std::string, const DimNode*> symbols_;
};

InternTable& Table() {
  static auto* table = new InternTable();  // never destroyed: Dims may outlive main()
  return *table;
}

}  // namespace

Dim Dim::Const(int64_t value) { return Dim(Table().Const(value)); }

Dim Dim::Symbol(std::string_view name) {
  if (name.empty()) return Dim();
  return Dim(Table().Symbol(name));
}

bool Dim::is_const() const { return node_ && node_->kind == Kind::kConst; }
bool Dim::is_symbol() const { return node_ && node_->kind == Kind::kSymbol; }

std::optional<int64_t> Dim::const_value() const {
  if (!is_const()) return std::nullopt;
  return node_->value;
}

std::string_view Dim::symbol_name() const {
  if (!is_symbol()) return {};
  return node_->name;
}

std::string Dim::ToString() const {
  if (!node_) return "?";
  switch (node_->kind) {
    case Kind::kConst:
      return std::to_string(node_->value);
    case Kind::kSymbol:
      return node_->name;
  }
  return "?";
}

namespace {

bool AddOverflows(int64_t a, int64_t b, int64_t* out) { return __builtin_add_overflow(a, b, out); }
bool MulOverflows(int64_t a, int64_t b, int64_t* out) { return __builtin_mul_overflow(a, b, out); }

}  // namespace

Dim operator+(Dim a, Dim b) {
  auto av = a.const_value(), bv = b.const_value();
  int64_t sum;
  if (av && bv) return AddOverflows(*av, *bv, &sum) ? Dim() : Dim::Const(sum);
  if (av == 0) return b;
  if (bv == 0) return a;
  return Dim();
}

Dim operator-(Dim a, Dim b) {
  auto av = a.const_value(), bv = b.const_value();
  int64_t diff;
  if (av && bv) return __builtin_sub_overflow(*av, *bv, &diff) ? Dim() : Dim::Const(diff);
  if (bv == 0) return a;
  if (!a.is_unknown() && a == b) return Dim::Const(0);
  return Dim();
}

Dim operator*(Dim a, Dim b) {
  auto av = a.const_value(), bv = b.const_value();
  int64_t product;
  if (av && bv) return MulOverflows(*av, *bv, &product) ? Dim() : Dim::Const(product);
  if (av == 0 || bv == 0) return Dim::Const(0);
  if (av == 1) return b;
  if (bv == 1) return a;
  return Dim();
}

Dim Dim::FloorDiv(Dim a, Dim b) {
  auto av = a.const_value(), bv = b.const_value();
  if (bv == 0) return Dim();
  if (bv == 1) return a;
  if (av && bv) {
    if (*av == INT64_MIN && *bv == -1) return Dim();
    int64_t q = *av / *bv;
    if ((*av % *bv != 0) && ((*av < 0) != (*bv < 0))) --q;
    return Dim::Const(q);
  }
  if (!a.is_unknown() && a == b) return Dim::Const(1);
  return Dim();
}

Tri Equal(Dim a, Dim b) {
  if (a.is_unknown() || b.is_unknown()) return Tri::kUnknown;
  if (a == b) return Tri::kTrue;
  if (a.is_const() && b.is_const()) return Tri::kFalse;
  return Tri::kUnknown;
}

std::ostream& operator<<(std::ostream& os, Dim d) { return os << d.ToString(); }

}  // namespace onnx_infer::symbolic
