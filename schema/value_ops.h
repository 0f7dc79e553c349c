// Elementwise arithmetic over ConstValues, for rules that propagate small data such as shape
// arithmetic (`Concat(Shape(x)[0:1] + 5, ...)`). Integer and bool elements are Dims, so a
// symbolic element (N from Shape(x)) flows through whatever Dim's algebra can express; an
// element it cannot express becomes an unknown Dim, never a guess. Floating-point elements
// are doubles, computed only for float and double tensors, or RealQuotients (const_value.h)
// once an element is symbolic: Cast(N) to float is N/1, times 0.5 is N/2, Floor of that is
// floor(N/2), and a Cast back to int64 gives the Dim floor(N/2).
//
// Floats hold integers exactly only up to 2^24 (float32) or 2^53 (float64): a symbolic float
// element is exact under a condition on its symbols, which ExactnessConditions states and
// the rule records (InferenceContext::RecordCondition). A division that is not exact leaves
// an element rounded once; Floor, Ceil and a Cast to an integer type of it are still exact
// while |num| + den < 2^24 (or 2^53): the quotient is then at least 1/den away from the next
// integer, farther than half the float spacing there. Any other arithmetic on a rounded
// element is unknown.
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
using ValueElement = std::variant<symbolic::Dim, double, RealQuotient>;
// Computes one output element from the inputs' elements at the same (broadcast) index;
// nullopt when it cannot, which makes the whole value unknown.
using ElementFn = std::function<std::optional<ValueElement>(std::span<const ValueElement>)>;

// The numpy broadcast of value shapes; nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> BroadcastValueDims(std::span<const ConstValue* const> values);

// Applies `fn` at every index of the broadcast of `inputs` and returns a value of element
// type `out_type`. Nullopt when an input lacks its elements, the shapes do not broadcast, the
// result would have more than `max_elements` elements, `fn` fails, or an element does not fit
// `out_type` (a real for an integer type, a Dim for a floating one).
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
// Comparisons, Abs and integer division decide signs and orders of symbolic elements under
// `assumptions` when given (lower bounds of symbols), else with every symbol >= 0.
ElementFn ElementFunction(ValueOp op, const symbolic::Assumptions* assumptions = nullptr);

// MapValues of ElementFunction(op): a unary op over one input, a binary op over two, or a
// binary op folded left over more (variadic Sum, Min, Max).
std::optional<ConstValue> ApplyValueOp(ValueOp op, std::span<const ConstValue* const> inputs,
                                       int32_t out_type, int64_t max_elements,
                                       const symbolic::Assumptions* assumptions = nullptr);

// The value of Cast(v, to): integers that fit `to` keep their Dims (a symbolic size fits
// int32 and int64), reals truncate toward zero into integer types, symbolic integers become
// RealQuotients in float types and quotients truncate back. Nullopt when an element does not
// survive the conversion (out of range, NaN, an untracked type).
std::optional<ConstValue> CastValue(const ConstValue& v, int32_t to);

// The significand bits of a tracked floating-point type: 24 for float, 53 for double; 0 for
// any other type.
int FloatPrecision(int32_t elem_type);

// The conditions under which the symbolic RealQuotients of `v` are exact in its float type
// ("2*H <= 16777216"), none implied by another. An element whose condition fails already
// when its symbols are small (a coefficient or denominator beyond 2^(precision/2), as for
// N * 0.1f) is not worth stating: it becomes unknown instead. MapValues and CastValue add
// these to the conditions a float result carries (ConstValue::conditions).
std::vector<ExactnessCondition> ExactnessConditions(ConstValue& v);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_VALUE_OPS_H_
