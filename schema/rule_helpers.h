// Building blocks shared by inference rules: broadcasting, unification, elementwise families.
#ifndef ONNX_INFER_SCHEMA_RULE_HELPERS_H_
#define ONNX_INFER_SCHEMA_RULE_HELPERS_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

// One dim of a multidirectional broadcast (ONNX Broadcasting.md, symbolic::Broadcast): equal
// dims stay, a 1 gives way to the other, a dim that cannot be 1 (a constant other than 1,
// N + 2) wins (the other must be it or 1). Two different dims that could each be 1 give the
// explicit broadcast Max(a, b); a symbol against an unknown gives unknown. Dims that are
// provably different and provably not 1 are an error. With a context, the side condition is
// recorded (RecordCondition) and a forced equality becomes a fact (RecordEqual).
StatusOr<Dim> BroadcastDim(Dim a, Dim b, InferenceContext* ctx = nullptr);
// Multidirectional broadcast of two shapes, aligned at the right.
StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b, InferenceContext* ctx = nullptr);

// Two dims that must be equal (MatMul's contracted dims, Concat's other axes): the more
// specific one (constant, then expression, then symbol, then unknown). Dims that are provably
// different (3 vs 4, N + 1 vs N) are an error. Callers with a context also record the
// equality (InferenceContext::RecordEqual).
StatusOr<Dim> UnifyDim(Dim a, Dim b);

// numpy matmul of two shapes (MatMul, MatMulInteger, QLinearMatMul): a 1-D operand is
// promoted (a row for A, a column for B) and the promoted dim dropped again; leading dims
// broadcast; A's last dim and B's second-to-last are contracted and must agree. With a
// context the contracted dims' equality is recorded (RecordEqual).
StatusOr<Shape> MatMulShape(const Shape& a, const Shape& b, InferenceContext* ctx = nullptr);

// Product of dims (unknown if any factor is).
Dim Product(const Shape& dims);

// a == b where the operator requires it (`what` names them): the more specific of the two,
// with the equality recorded as a fact; provably different dims are an error, about `about`
// when `what` starts with it ("input 1 'W' dim 0 and X's channels": InputSubject(ctx, 1)).
StatusOr<Dim> RequireEqualDims(InferenceContext& ctx, Dim a, Dim b, const std::string& what,
                               const Subject& about = {});
// The same with `what()` and `about()` called only when they are used: for a mismatch, or to
// record a fact about dims that are not the same node. Dims that are the same, or an unknown
// one, need neither, and that is the common case: hot rules pass lambdas, and build no label
// on success.
template <typename What, typename About,
          typename = std::enable_if_t<std::is_invocable_v<What> && std::is_invocable_v<About>>>
StatusOr<Dim> RequireEqualDims(InferenceContext& ctx, Dim a, Dim b, What what, About about) {
  if (a == b || b.is_unknown()) return a;  // what UnifyDim gives; RecordEqual records nothing
  if (a.is_unknown()) return b;
  return RequireEqualDims(ctx, a, b, std::string(what()), Subject(about()));
}
template <typename What, typename = std::enable_if_t<std::is_invocable_v<What>>>
StatusOr<Dim> RequireEqualDims(InferenceContext& ctx, Dim a, Dim b, What what) {
  return RequireEqualDims(ctx, a, b, what, [] { return Subject(); });
}
// The same, accumulating: `acc` becomes the more specific of `acc` and `d`, which must be
// equal; `what` names them in the error ("what: <why they differ>") and the recorded fact.
Status Agree(InferenceContext& ctx, Dim& acc, Dim d, const std::string& what,
             const Subject& about = {});

// Rank checks, one vocabulary for every rule. A shape already in hand (`shape`, input
// `input`'s) of another rank is an error naming the input: "input 1 'W': expected rank 4,
// got rank 3" (at least: "expected rank >= 3, got rank 2"). Each takes an optional `layout`
// that says what the dims are, shown after the rank: "expected rank 3 ([batch, seq, hidden]),
// got rank 2"; it may be any short explanation ("the rank of X", "a byte stream").
Status RequireRank(const InferenceContext& ctx, int input, const Shape& shape, size_t rank,
                   std::string_view layout = {});
Status RequireRankAtLeast(const InferenceContext& ctx, int input, const Shape& shape, size_t rank,
                          std::string_view layout = {});
// Input `input`, when present with a known shape, has rank `rank` (one of `ranks`, at least
// `rank`); the error also shows the shape ("expected rank 3, got rank 2 [N, C]"). RankedInput
// below also returns the shape.
Status RequireRank(const InferenceContext& ctx, int input, size_t rank,
                   std::string_view layout = {});
Status RequireRank(const InferenceContext& ctx, int input, std::initializer_list<size_t> ranks,
                   std::string_view layout = {});
Status RequireRankAtLeast(const InferenceContext& ctx, int input, size_t rank,
                          std::string_view layout = {});

// Input `input`, when its kind is known, is one of `kinds`; `expected` says which ("a
// sequence"). KindName is a kind as a message says it ("an optional").
Status RequireKind(const InferenceContext& ctx, int input, std::initializer_list<Type::Kind> kinds,
                   std::string_view expected);
std::string_view KindName(Type::Kind kind);

// The element type of input `input` when it is present and a known tensor type; 0 otherwise.
int32_t InputElemType(const InferenceContext& ctx, int input);
// A data type code read from attribute `attr`: an error unless it names an ONNX element type.
Status CheckDataType(int64_t type, const char* attr);

// Input `input`'s shape when it is a tensor of exactly `rank`; null when it is absent or its
// shape is unknown; an error naming the input for another rank.
StatusOr<const Shape*> RankedInput(const InferenceContext& ctx, int input, size_t rank,
                                   std::string_view layout = {});
// The same for an input of any of `ranks` ("expected rank 3 or 4, got rank 2 [N, C]").
StatusOr<const Shape*> RankedInput(const InferenceContext& ctx, int input,
                                   std::initializer_list<size_t> ranks,
                                   std::string_view layout = {});

// Known input values. Each is null (nothing) when the value is not known or not of that kind.
// Every element as a Dim (constant or symbolic): shapes, axes, repeats.
const std::vector<Dim>* IntValues(const InferenceContext& ctx, int input);
// Every element as an int64 constant.
std::optional<std::vector<int64_t>> ConstInts(const InferenceContext& ctx, int input);
// Every element as a real (float and double tensors): scales, roi.
const std::vector<double>* RealValues(const InferenceContext& ctx, int input);
// The number of elements of a 1-D input when its value or its shape says; -1 otherwise.
int64_t KnownLength(const InferenceContext& ctx, int input);
// A 1-D integer value of `elem_type` holding `values`.
ConstValue IntVector(int32_t elem_type, std::vector<Dim> values);
// The single element of an integer input's known value (a scalar or a 1-element tensor),
// possibly symbolic; unknown otherwise.
Dim ScalarInputDim(const InferenceContext& ctx, int input);

// Rule families.
// Output 0 has input 0's type (tensors keep shape and element type).
Status InferSameAsInput(InferenceContext& ctx);
// Output 0 is a bool tensor of input 0's shape (IsInf, IsNaN, RegexFullMatch).
Status InferBoolOfSameShape(InferenceContext& ctx);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_RULE_HELPERS_H_
