// Private to symbolic/: pieces the simplifier rule tables share.
#ifndef ONNX_INFER_SYMBOLIC_SIMPLIFY_UTIL_H_
#define ONNX_INFER_SYMBOLIC_SIMPLIFY_UTIL_H_

#include <optional>
#include <utility>

#include "onnx_infer/symbolic/expr.h"

namespace onnx_infer::symbolic {

// a = c·quotient + remainder, the remainder's coefficients and constant in [0, c) (c > 1).
// ok is false on overflow.
struct Split {
  bool ok = true;
  const DimNode* quotient = nullptr;
  const DimNode* remainder = nullptr;
};
Split SplitMultiples(const DimNode* a, int64_t c);

// gcd of c and every coefficient and the constant of a (>= 1).
int64_t CommonFactor(const DimNode* a, int64_t c);
// a / g where g divides every coefficient and the constant.
const DimNode* DivideExactly(const DimNode* a, int64_t g);

// For b = m·P (P a product of atoms known >= 0, b not constant) and a = P·x: (x, m).
// nullopt when b is not such a monomial or P does not divide a.
std::optional<std::pair<const DimNode*, const DimNode*>> CancelMonomial(const DimNode* a,
                                                                        const DimNode* b,
                                                                        const Assumptions* as);

// Known multiples (Assumptions::AddMultipleOf) in a sum: with c | KnownModulus(t),
// a·t + b·floor(t/c) is k·(t/c) for k = a·c + b, written (k/c)·t when c divides k and
// k·floor(t/c) otherwise. So with Mod(C, 2) == 0, C - floor(C/2) -> floor(C/2) and
// 2*floor(C/2) -> C. Other nodes, and sums without such terms, are returned as they are.
const DimNode* CombineMultiples(const DimNode* n, const Assumptions* as);

// An opaque binary atom (floor, ceiling, mod, min, max); null past kHardSizeCap.
const DimNode* MakeBinary(Kind kind, const DimNode* a, const DimNode* b);

}  // namespace onnx_infer::symbolic

#endif  // ONNX_INFER_SYMBOLIC_SIMPLIFY_UTIL_H_
