// One dim of an ONNX multidirectional broadcast (numpy rules): equal dims stay, a 1 gives way
// to the other, and otherwise the two must be equal. With symbols, what the result is can
// depend on values not known yet; the answer then carries the condition the model must meet.
#ifndef ONNX_INFER_SYMBOLIC_BROADCAST_H_
#define ONNX_INFER_SYMBOLIC_BROADCAST_H_

#include <string>

#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer::symbolic {

struct BroadcastResult {
  bool ok = true;  // false: the dims cannot broadcast (error says why)
  Dim dim;         // the result (unknown when it cannot be expressed)
  std::string error;
  // A side condition the model must meet for `dim` to be right, "" if none. When
  // `must_be_equal`, it is exactly a == b (both are known not to be 1), a fact a unifier can
  // record.
  std::string condition;
  bool must_be_equal = false;
};

// Cases, in order: a == b (structurally or provably) -> a; a is 1 -> b; b is 1 -> a; two
// different constants -> error; one side provably not 1 -> that side, the other must equal
// it or be 1 (error if both are provably not 1 and provably different); an unknown against
// anything that could be 1 -> unknown; otherwise the explicit broadcast
// Max(a, b)*Min(1, a, b), with the condition "a == b or a == 1 or b == 1" (the factor makes a
// 1 broadcast against a 0 give 0, as ONNX does; it is 1 once both are known to be >= 1).
BroadcastResult Broadcast(Dim a, Dim b, const Assumptions* assumptions = nullptr);

}  // namespace onnx_infer::symbolic

#endif  // ONNX_INFER_SYMBOLIC_BROADCAST_H_
