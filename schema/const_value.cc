#include "onnx_infer/schema/const_value.h"

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"

namespace onnx_infer {

namespace {

bool NonNegative(symbolic::Dim d) {
  return !d.is_unknown() && symbolic::LessEqual(symbolic::Dim::Const(0), d) == symbolic::Tri::kTrue;
}

// Whether |a.expr| <= a.bound follows from |b.expr| <= b.bound: both sides non-negative,
// a.expr <= b.expr and b.bound <= a.bound.
bool Implies(const ExactnessCondition& b, const ExactnessCondition& a) {
  if (a.expr == b.expr) return b.bound <= a.bound;
  return b.bound <= a.bound && NonNegative(a.expr) &&
         symbolic::LessEqual(a.expr, b.expr) == symbolic::Tri::kTrue;
}

}  // namespace

std::string ExactnessCondition::ToString() const {
  const char* type = precision == 24 ? "float32" : precision == 53 ? "float64" : "float";
  std::string lhs;
  if (NonNegative(expr)) {
    lhs = expr.ToString();
  } else if (NonNegative(symbolic::Dim::Const(0) - expr)) {
    lhs = (symbolic::Dim::Const(0) - expr).ToString();
  } else {
    lhs = StrCat("Abs(", expr, ")");
  }
  return StrCat(lhs, " <= ", bound, " (exact in ", type, ")");
}

void AddExactnessCondition(std::vector<ExactnessCondition>& list, const ExactnessCondition& c) {
  for (const ExactnessCondition& have : list) {
    if (Implies(have, c)) return;
  }
  std::erase_if(list, [&](const ExactnessCondition& have) { return Implies(c, have); });
  list.push_back(c);
}

int64_t ConstValue::NumElements() const {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;  // no such tensor
  }
  return n;
}

bool ConstValue::HasElements() const {
  const size_t n = static_cast<size_t>(NumElements());
  return ints.size() == n || reals.size() == n || quotients.size() == n;
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
  std::string body;
  if (!quotients.empty()) {
    for (const RealQuotient& q : quotients) {
      if (!body.empty()) body += ", ";
      std::string num = q.num.ToString();
      if (q.den != 1 && num.find(' ') != std::string::npos) num = StrCat("(", num, ")");
      body += q.den == 1 ? num : StrCat(num, "/", q.den, q.rounded ? "~" : "");
    }
  } else {
    body = !ints.empty() ? StrJoin(ints, ", ") : StrJoin(reals, ", ");
  }
  return StrCat(DataTypeName(elem_type), "[", StrJoin(dims, ", "), "] {", body, "}");
}

}  // namespace onnx_infer
