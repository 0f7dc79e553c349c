// The Dim handle: factories, queries and operators over the builders of expr.h.
#include "onnx_infer/symbolic/dim.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {

void Assumptions::SetLowerBound(std::string_view symbol, int64_t bound) {
  auto it = lower_.find(symbol);
  if (it == lower_.end()) {
    lower_.emplace(std::string(symbol), bound);
  } else {
    it->second = std::max(it->second, bound);
  }
}

void Assumptions::SetDefaultLowerBound(int64_t bound) {
  default_lower_ = std::max(default_lower_, bound);
}

int64_t Assumptions::LowerBound(std::string_view symbol) const {
  auto it = lower_.find(symbol);
  return std::max(default_lower_, it == lower_.end() ? 0 : it->second);
}

void Assumptions::SetUpperBound(std::string_view symbol, int64_t bound) {
  auto it = upper_.find(symbol);
  if (it == upper_.end()) {
    upper_.emplace(std::string(symbol), bound);
  } else {
    it->second = std::min(it->second, bound);
  }
}

std::optional<int64_t> Assumptions::UpperBound(std::string_view symbol) const {
  auto it = upper_.find(symbol);
  if (it == upper_.end()) return std::nullopt;
  return it->second;
}

void Assumptions::SetExprBounds(Dim expr, std::optional<int64_t> lo, std::optional<int64_t> hi) {
  const DimNode* n = expr.node();
  if (!n || n->kind != Kind::kSum) return;
  // Keyed by the sum without its constant: P + S + 1 <= 10 is P + S <= 9.
  const int64_t c = n->value;
  if (c != 0) {
    Poly p = AsPoly(n);
    p.constant = 0;
    n = FromPoly(std::move(p));
    if (!n || n->kind != Kind::kSum) return;
  }
  auto shift = [&](std::optional<int64_t> b, int64_t none) {
    int64_t r;
    if (!b || __builtin_sub_overflow(*b, c, &r)) return none;
    return r;
  };
  auto [it, inserted] = expr_bounds_.try_emplace(n, INT64_MIN, INT64_MAX);
  it->second.first = std::max(it->second.first, shift(lo, INT64_MIN));
  it->second.second = std::min(it->second.second, shift(hi, INT64_MAX));
}

void Assumptions::AddMultipleOf(Dim term, int64_t modulus) {
  const DimNode* n = term.node();
  if (!n || modulus <= 1 || n->kind == Kind::kConst || n->kind == Kind::kSum) return;
  int64_t& m = multiples_.try_emplace(n, 1).first->second;
  const int64_t g = std::gcd(m, modulus);
  int64_t lcm;
  if (__builtin_mul_overflow(m / g, modulus, &lcm)) return;  // keep what is known
  m = lcm;
}

int64_t Assumptions::KnownModulus(const DimNode* term) const {
  auto it = multiples_.find(term);
  return it == multiples_.end() ? 1 : it->second;
}

Dim Dim::Const(int64_t value) { return Dim(symbolic::Const(value)); }

Dim Dim::Symbol(std::string_view name) {
  if (name.empty()) return Dim();
  NodeKey n{Kind::kSymbol};
  n.name = name;
  return Dim(Intern(n));
}

bool Dim::is_const() const { return node_ && node_->kind == Kind::kConst; }
bool Dim::is_symbol() const { return node_ && node_->kind == Kind::kSymbol; }
bool Dim::is_expr() const { return node_ && !is_const() && !is_symbol(); }

std::optional<int64_t> Dim::const_value() const {
  if (!is_const()) return std::nullopt;
  return node_->value;
}

std::string_view Dim::symbol_name() const {
  if (!is_symbol()) return {};
  return node_->name;
}

int Dim::size() const { return node_ ? node_->size : 0; }

namespace {

void CollectSymbols(const DimNode* n, std::set<std::string>* out) {
  if (!n) return;
  switch (n->kind) {
    case Kind::kConst:
      return;
    case Kind::kSymbol:
      out->insert(n->name);
      return;
    case Kind::kProduct:
    case Kind::kSum:
      for (const auto& [t, c] : n->terms) CollectSymbols(t, out);
      return;
    case Kind::kFloorDiv:
    case Kind::kCeilDiv:
    case Kind::kMod:
    case Kind::kMin:
    case Kind::kMax:
      CollectSymbols(n->lhs, out);
      CollectSymbols(n->rhs, out);
      return;
  }
}

}  // namespace

std::vector<std::string> Dim::Symbols() const {
  std::set<std::string> names;
  CollectSymbols(node_, &names);
  return {names.begin(), names.end()};
}

Dim operator+(Dim a, Dim b) { return Dim::FromNode(Add(a.node(), b.node())); }
Dim operator-(Dim a, Dim b) { return Dim::FromNode(Sub(a.node(), b.node())); }
Dim operator*(Dim a, Dim b) { return Dim::FromNode(Mul(a.node(), b.node())); }
Dim Dim::FloorDiv(Dim a, Dim b) { return Dim(symbolic::FloorDiv(a.node(), b.node(), nullptr)); }
Dim Dim::CeilDiv(Dim a, Dim b) { return Dim(symbolic::CeilDiv(a.node(), b.node(), nullptr)); }
Dim Dim::Mod(Dim a, Dim b) { return Dim(symbolic::Mod(a.node(), b.node(), nullptr)); }
Dim Dim::Min(Dim a, Dim b) { return Dim(symbolic::Min(a.node(), b.node(), nullptr)); }
Dim Dim::Max(Dim a, Dim b) { return Dim(symbolic::Max(a.node(), b.node(), nullptr)); }
Dim Dim::Product(const std::vector<Dim>& dims) { return Dim(symbolic::Product(dims)); }

Dim Dim::AddConstants(Dim a, std::initializer_list<int64_t> ks) {
  return Dim(symbolic::AddConstants(a.node(), std::span<const int64_t>(ks.begin(), ks.size())));
}

Dim FreshSymbol(std::string_view value_name, int64_t axis) {
  std::string name;
  for (char ch : value_name) {
    const bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_';
    name += word ? ch : '_';
  }
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) name.insert(0, "v");
  return Dim::Symbol(name + "__d" + std::to_string(axis));
}

Dim CapSize(Dim d, std::string_view value_name, int64_t axis, std::string* note) {
  if (d.size() <= kMaxExprSize) return d;
  Dim fresh = FreshSymbol(value_name, axis);
  if (note) {
    *note = "dim " + std::to_string(axis) + " of '" + std::string(value_name) + "' is an " +
            "expression of " + std::to_string(d.size()) + " nodes (cap " +
            std::to_string(kMaxExprSize) + "); it is replaced by the symbol " + fresh.ToString();
  }
  return fresh;
}

std::ostream& operator<<(std::ostream& os, Dim d) { return os << d.ToString(); }

}  // namespace onnx_infer::symbolic
