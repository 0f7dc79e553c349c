// Elementwise arithmetic over ConstValues, for rules that propagate small data such as shape
// arithmetic (`Concat(Shape(x)[0:1] + 5, ...)`). Integer and bool elements are Dims, so a
// symbolic element (N from Shape(x)) flows through whatever Dim's algebra can express; an
// element it cannot express becomes an unknown Dim, never a guess. Floating-point elements
// are doubles, computed only for float and double tensors.
//
// Convention: a symbol inside a value is a dimension's size, so it is never negative. The
// integer operations below rely on it (truncating and flooring division agree on it).
#ifndef ONNX_INFER_SCHEMA_VALUE_OPS_H_
#define ONNX_INFER_SCHEMA_VALUE_OPS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "onnx_infer/schema/const_value.h"

namespace onnx_infer {

// One element of a ConstValue.
using ValueElement = std::variant<symbolic::Dim, double>;
// Computes one output element from the inputs' elements at the same (broadcast) index;
// nullopt when it cannot, which makes the whole value unknown.
using ElementFn = std::function<std::optional<ValueElement>(std::span<const ValueElement>)>;

// The numpy broadcast of value shapes; nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> BroadcastValueDims(std::span<const ConstValue* const> values);

// Applies `fn` at every index of the broadcast of `inputs` and returns a value of element
// type `out_type`. Nullopt when an input lacks its elements, the shapes do not broadcast, the
// result would have more than `max_elements` elements, `fn` fails, or an element does not fit
// `out_type` (a double for an integer type, a non-constant Dim for a floating one).
std::optional<ConstValue> MapValues(std::span<const ConstValue* const> inputs, int32_t out_type,
                                    int64_t max_elements, const ElementFn& fn);

// The elementwise operations rules propagate.
enum class ValueOp {
  kNone,
  // Unary.
  kNeg,
  kAbs,
  kFloor,
  kCeil,
  kNot,
  // Binary.
  kAdd,
  kSub,
  kMul,
  kDiv,   // integers truncate toward zero (ONNX Div)
  kMod,   // integer mod: the remainder takes the divisor's sign (ONNX Mod, fmod=0)
  kFmod,  // C fmod: the remainder takes the dividend's sign (ONNX Mod, fmod=1)
  kMin,
  kMax,
  kEqual,  // comparisons give bool elements, 0 or 1
  kLess,
  kLessOrEqual,
  kGreater,
  kGreaterOrEqual,
  kAnd,
  kOr,
  kXor,
};

// The element function of `op`, for its arity (1 for unary ops, 2 for binary ones).
ElementFn ElementFunction(ValueOp op);

// MapValues of ElementFunction(op): a unary op over one input, a binary op over two, or a
// binary op folded left over more (variadic Sum, Min, Max).
std::optional<ConstValue> ApplyValueOp(ValueOp op, std::span<const ConstValue* const> inputs,
                                       int32_t out_type, int64_t max_elements);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_VALUE_OPS_H_
