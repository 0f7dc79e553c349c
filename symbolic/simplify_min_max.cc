// Min and Max. Comparable operands (LessEqual decides) give one of them; otherwise an opaque
// atom with its operands in Compare order, so Max(A, B) and Max(B, A) are the same node.
#include "onnx_infer/symbolic/simplify_util.h"

namespace onnx_infer::symbolic {
namespace {

// Rules, in order: unknown in -> unknown out; a <= b decides; b <= a decides; else an atom.
const DimNode* MinOrMax(Kind kind, const DimNode* a, const DimNode* b, const Assumptions* as) {
  if (!a || !b) return nullptr;
  if (a == b) return a;
  const bool is_min = kind == Kind::kMin;
  if (LessEqualNodes(a, b, as) == Tri::kTrue) return is_min ? a : b;
  if (LessEqualNodes(b, a, as) == Tri::kTrue) return is_min ? b : a;
  if (Compare(b, a) < 0) std::swap(a, b);
  return MakeBinary(kind, a, b);
}

}  // namespace

const DimNode* Min(const DimNode* a, const DimNode* b, const Assumptions* as) {
  return MinOrMax(Kind::kMin, a, b, as);
}

const DimNode* Max(const DimNode* a, const DimNode* b, const Assumptions* as) {
  return MinOrMax(Kind::kMax, a, b, as);
}

}  // namespace onnx_infer::symbolic
