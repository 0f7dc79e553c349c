// Printing in the dim_param syntax of docs/symbolic.md: what sympy's parse_expr reads back as
// the same expression (floor, ceiling, Mod, Min, Max, ** for powers).
#include <string>

#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {
namespace {

std::string Print(const DimNode* n);

// A term of a sum: coefficient and product/atom, without its sign when `unsigned_coeff`.
std::string PrintTerm(const DimNode* term, int64_t coeff) {
  std::string t = Print(term);
  if (coeff == 1) return t;
  if (coeff == -1) return "-" + t;
  return std::to_string(coeff) + "*" + t;
}

std::string Operand(const DimNode* n, bool paren_products) {
  const bool paren = n->kind == Kind::kSum || (paren_products && n->kind == Kind::kProduct) ||
                     (n->kind == Kind::kConst && n->value < 0);
  return paren ? "(" + Print(n) + ")" : Print(n);
}

std::string Print(const DimNode* n) {
  switch (n->kind) {
    case Kind::kConst:
      return std::to_string(n->value);
    case Kind::kSymbol:
      return n->name;
    case Kind::kProduct: {
      std::string out;
      for (const auto& [atom, exp] : n->terms) {
        if (!out.empty()) out += "*";
        out += Print(atom);
        if (exp != 1) out += "**" + std::to_string(exp);
      }
      return out;
    }
    case Kind::kSum: {
      std::string out;
      for (const auto& [term, coeff] : n->terms) {
        if (out.empty()) {
          out = PrintTerm(term, coeff);
        } else if (coeff < 0 && coeff != INT64_MIN) {
          out += " - " + PrintTerm(term, -coeff);
        } else {
          out += " + " + PrintTerm(term, coeff);
        }
      }
      if (n->value > 0) out += " + " + std::to_string(n->value);
      if (n->value < 0 && n->value != INT64_MIN) out += " - " + std::to_string(-n->value);
      if (n->value == INT64_MIN) out += " + (" + std::to_string(n->value) + ")";
      return out;
    }
    case Kind::kFloorDiv:
      return "floor(" + Operand(n->lhs, false) + "/" + Operand(n->rhs, true) + ")";
    case Kind::kCeilDiv:
      return "ceiling(" + Operand(n->lhs, false) + "/" + Operand(n->rhs, true) + ")";
    case Kind::kMod:
      return "Mod(" + Print(n->lhs) + ", " + Print(n->rhs) + ")";
    case Kind::kMin:
      return "Min(" + Print(n->lhs) + ", " + Print(n->rhs) + ")";
    case Kind::kMax:
      return "Max(" + Print(n->lhs) + ", " + Print(n->rhs) + ")";
  }
  return "?";
}

}  // namespace

std::string Dim::ToString() const { return node_ ? Print(node_) : "?"; }

}  // namespace onnx_infer::symbolic
