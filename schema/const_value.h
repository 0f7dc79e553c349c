// ConstValue: the value of a small tensor that inference knows at compile time, such as a
// Reshape's shape input that comes from an initializer or a Constant node. Integer and bool
// elements are Dims, so that a later stage can carry symbolic values (Shape(x) = [N, 3]);
// floating-point elements are doubles, or RealQuotients when some element is symbolic
// (shape arithmetic through floats: Cast(Shape(x)) * 0.5).
#ifndef ONNX_INFER_SCHEMA_CONST_VALUE_H_
#define ONNX_INFER_SCHEMA_CONST_VALUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer {

// A floating-point element known exactly as num / den (den > 0), where num is an integer
// expression: Cast(N) is N / 1, Cast(N) * 0.5 is N / 2. Not `rounded`: the element holds
// exactly num / den (the rule that made it records the condition under which the float
// type represents it, |num| <= 2^24 for float32). `rounded`: the element holds num / den
// rounded once to the float type (a division that is not exact); only Floor, Ceil and a Cast
// to an integer type read such an element, and they are exact under the condition recorded.
struct RealQuotient {
  symbolic::Dim num;  // unknown: the element is not known
  int64_t den = 1;
  bool rounded = false;
};

// What a symbolic float element needs to be exact: |expr| <= bound, in a float type with
// `precision` significand bits. Printed "2*H <= 16777216 (exact in float32)".
struct ExactnessCondition {
  symbolic::Dim expr;
  int64_t bound = 0;
  int precision = 24;
  std::string ToString() const;
};

// Adds `c` to `list` unless a condition there implies it; drops those it implies.
void AddExactnessCondition(std::vector<ExactnessCondition>& list, const ExactnessCondition& c);

struct ConstValue {
  int32_t elem_type = 0;            // a DataType code
  std::vector<int64_t> dims;        // the tensor's shape
  std::vector<symbolic::Dim> ints;  // integer and bool elements, row-major
  std::vector<double> reals;        // floating-point elements, row-major
  // Floating-point elements instead of `reals` when some element is symbolic; row-major.
  std::vector<RealQuotient> quotients;
  // What symbolic float elements need to be exact: they travel with the float value, and
  // InferenceContext::SetOutputValue records them as conditions where a value of an integer
  // or bool type is made from it (a Cast to int64, a comparison), so a condition is reported
  // only where a result depends on it.
  std::vector<ExactnessCondition> conditions;

  // The product of dims; -1 when a dim is negative or the product overflows int64 (a value
  // no tensor can have, so it matches no element count).
  int64_t NumElements() const;
  // Whether every element is present in one of the three element lists.
  bool HasElements() const;
  // The integer elements when every one is a known constant.
  std::optional<std::vector<int64_t>> ConstInts() const;
  // "int64[2] {B, 4}"; quotients print as "H/2", "(H + 1)/3~" when rounded.
  std::string ToString() const;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_CONST_VALUE_H_
