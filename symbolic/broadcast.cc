#include "onnx_infer/symbolic/broadcast.h"

namespace onnx_infer::symbolic {

BroadcastResult Broadcast(Dim a, Dim b, const Assumptions* as) {
  BroadcastResult r;
  const Dim one = Dim::Const(1);
  // Against a 1 the answer is the other side, whatever Equal() would say: a 1 on the right
  // gives a either way, and a 1 on the left gives b unless Equal(1, b) is kTrue, which for
  // b != 1 takes known multiples (2*floor(C/2) - C + 1). Neither builds a difference.
  if (a == b || b == one) {
    r.dim = a;
    return r;
  }
  if (a == one && !(as && as->has_multiples())) {
    r.dim = b;
    return r;
  }
  if (Equal(a, b, as) == Tri::kTrue) {
    r.dim = a;
    return r;
  }
  if (a == one) {
    r.dim = b;
    return r;
  }
  if (a.is_const() && b.is_const()) {
    r.ok = false;
    r.error = "cannot broadcast " + a.ToString() + " with " + b.ToString();
    return r;
  }
  const bool a_not_one = Equal(a, one, as) == Tri::kFalse;
  const bool b_not_one = Equal(b, one, as) == Tri::kFalse;
  if (a_not_one && b_not_one) {
    if (Equal(a, b, as) == Tri::kFalse) {
      r.ok = false;
      r.error = "cannot broadcast " + a.ToString() + " with " + b.ToString() +
                ": neither can be 1 and they differ";
      return r;
    }
    r.dim = a.is_unknown() ? b : a;
    if (!a.is_unknown() && !b.is_unknown()) {
      r.condition = a.ToString() + " == " + b.ToString();
      r.must_be_equal = true;
    }
    return r;
  }
  if (a_not_one || b_not_one) {
    Dim wins = a_not_one ? a : b, other = a_not_one ? b : a;
    r.dim = wins;
    if (!other.is_unknown()) {
      r.condition =
          other.ToString() + " == " + wins.ToString() + " or " + other.ToString() + " == 1";
    }
    return r;
  }
  if (a.is_unknown() || b.is_unknown()) return r;  // the unknown could be 1 or the other
  // Max(a, b) is the broadcast except where a 1 meets a 0: [1] with [0] is [0]. Under the
  // condition below, Max(a, b)*Min(1, a, b) is exact for every value: a 0 on either side makes
  // it 0 (and then the other side is 0 or 1), otherwise it is Max(a, b). Once both are known
  // or assumed to be at least 1, Min(1, a, b) is 1 and the result reads Max(a, b).
  r.dim = Dim::Max(a, b) * Dim::Min(Dim::Const(1), Dim::Min(a, b));
  r.condition = a.ToString() + " == " + b.ToString() + " or " + a.ToString() + " == 1 or " +
                b.ToString() + " == 1";
  return r;
}

}  // namespace onnx_infer::symbolic
