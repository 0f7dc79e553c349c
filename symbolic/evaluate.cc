// Evaluation, substitution and re-simplification under assumptions: walks over the tree.
#include <functional>
#include <unordered_map>

#include "onnx_infer/symbolic/simplify_util.h"

namespace onnx_infer::symbolic {
namespace {

std::optional<int64_t> IntPow(int64_t v, int64_t exp) {
  if (v == 0 || v == 1) return v;
  if (v == -1) return exp % 2 == 0 ? 1 : -1;
  int64_t p = 1;  // |v| >= 2: overflows within 63 steps
  for (int64_t i = 0; i < exp; ++i) {
    if (__builtin_mul_overflow(p, v, &p)) return std::nullopt;
  }
  return p;
}

std::optional<int64_t> Eval(const DimNode* n,
                            const std::map<std::string, int64_t, std::less<>>& values) {
  switch (n->kind) {
    case Kind::kConst:
      return n->value;
    case Kind::kSymbol: {
      auto it = values.find(n->name);
      if (it == values.end()) return std::nullopt;
      return it->second;
    }
    case Kind::kProduct: {
      int64_t p = 1;
      for (const auto& [atom, exp] : n->terms) {
        auto v = Eval(atom, values);
        if (!v) return std::nullopt;
        auto power = IntPow(*v, exp);
        if (!power || __builtin_mul_overflow(p, *power, &p)) return std::nullopt;
      }
      return p;
    }
    case Kind::kSum: {
      int64_t s = n->value;
      for (const auto& [term, coeff] : n->terms) {
        auto v = Eval(term, values);
        int64_t t;
        if (!v || __builtin_mul_overflow(*v, coeff, &t) || __builtin_add_overflow(s, t, &s)) {
          return std::nullopt;
        }
      }
      return s;
    }
    case Kind::kFloorDiv:
    case Kind::kCeilDiv:
    case Kind::kMod:
    case Kind::kMin:
    case Kind::kMax: {
      auto a = Eval(n->lhs, values), b = Eval(n->rhs, values);
      if (!a || !b) return std::nullopt;
      // Constant folding of the builders is the one definition of each operation.
      const DimNode* ca = Const(*a);
      const DimNode* cb = Const(*b);
      const DimNode* r = n->kind == Kind::kFloorDiv  ? FloorDiv(ca, cb, nullptr)
                         : n->kind == Kind::kCeilDiv ? CeilDiv(ca, cb, nullptr)
                         : n->kind == Kind::kMod     ? Mod(ca, cb, nullptr)
                         : n->kind == Kind::kMin     ? Min(ca, cb, nullptr)
                                                     : Max(ca, cb, nullptr);
      if (!r || r->kind != Kind::kConst) return std::nullopt;
      return r->value;
    }
  }
  return std::nullopt;
}

// Rebuilds n bottom-up through the builders, mapping symbols with `leaf`.
class Rebuilder {
 public:
  Rebuilder(std::function<const DimNode*(const DimNode*)> leaf, const Assumptions* as)
      : leaf_(std::move(leaf)), as_(as) {}

  const DimNode* Run(const DimNode* n) {
    auto it = memo_.find(n);
    if (it != memo_.end()) return it->second;
    const DimNode* r = Build(n);
    memo_.emplace(n, r);
    return r;
  }

 private:
  const DimNode* Build(const DimNode* n) {
    switch (n->kind) {
      case Kind::kConst:
        return n;
      case Kind::kSymbol:
        return leaf_(n);
      case Kind::kProduct: {
        const DimNode* p = Const(1);
        for (const auto& [atom, exp] : n->terms) {
          const DimNode* a = Run(atom);
          if (exp > 64) return nullptr;  // no dim is that large a power
          for (int64_t i = 0; i < exp && p; ++i) p = Mul(p, a);
        }
        return p;
      }
      case Kind::kSum: {
        const DimNode* s = Const(n->value);
        for (const auto& [term, coeff] : n->terms) s = Add(s, MulConst(Run(term), coeff));
        return CombineMultiples(s, as_);
      }
      case Kind::kFloorDiv:
        return FloorDiv(Run(n->lhs), Run(n->rhs), as_);
      case Kind::kCeilDiv:
        return CeilDiv(Run(n->lhs), Run(n->rhs), as_);
      case Kind::kMod:
        return Mod(Run(n->lhs), Run(n->rhs), as_);
      case Kind::kMin:
        return Min(Run(n->lhs), Run(n->rhs), as_);
      case Kind::kMax:
        return Max(Run(n->lhs), Run(n->rhs), as_);
    }
    return nullptr;
  }

  std::function<const DimNode*(const DimNode*)> leaf_;
  const Assumptions* as_;
  std::unordered_map<const DimNode*, const DimNode*> memo_;
};

}  // namespace

std::optional<int64_t> Evaluate(Dim d, const std::map<std::string, int64_t, std::less<>>& values) {
  if (d.is_unknown()) return std::nullopt;
  return Eval(d.node(), values);
}

Dim Substitute(Dim d, const std::map<std::string, Dim, std::less<>>& values) {
  if (d.is_unknown() || values.empty()) return d;
  Rebuilder r(
      [&](const DimNode* sym) {
        auto it = values.find(sym->name);
        return it == values.end() ? sym : it->second.node();
      },
      nullptr);
  return Dim::FromNode(r.Run(d.node()));
}

Dim Simplify(Dim d, const Assumptions& assumptions) {
  if (d.is_unknown() || assumptions.empty()) return d;
  Rebuilder r([](const DimNode* sym) { return sym; }, &assumptions);
  return Dim::FromNode(r.Run(d.node()));
}

}  // namespace onnx_infer::symbolic
