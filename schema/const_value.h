// ConstValue: the value of a small tensor that inference knows at compile time, such as a
// Reshape's shape input that comes from an initializer or a Constant node. Integer and bool
// elements are Dims, so that a later stage can carry symbolic values (Shape(x) = [N, 3]);
// floating-point elements are doubles.
#ifndef ONNX_INFER_SCHEMA_CONST_VALUE_H_
#define ONNX_INFER_SCHEMA_CONST_VALUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer {

struct ConstValue {
  int32_t elem_type = 0;          // a DataType code
  std::vector<int64_t> dims;      // the tensor's shape
  std::vector<symbolic::Dim> ints;  // integer and bool elements, row-major
  std::vector<double> reals;        // floating-point elements, row-major

  int64_t NumElements() const;
  // The integer elements when every one is a known constant.
  std::optional<std::vector<int64_t>> ConstInts() const;
  std::string ToString() const;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_CONST_VALUE_H_
