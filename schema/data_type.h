// ONNX element types (TensorProto.DataType, 0-26) and their names in the ONNX text syntax.
#ifndef ONNX_INFER_SCHEMA_DATA_TYPE_H_
#define ONNX_INFER_SCHEMA_DATA_TYPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace onnx_infer {

// The numeric codes are the wire values of TensorProto.DataType.
enum DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBfloat16 = 16,
  kFloat8e4m3fn = 17,
  kFloat8e4m3fnuz = 18,
  kFloat8e5m2 = 19,
  kFloat8e5m2fnuz = 20,
  kUint4 = 21,
  kInt4 = 22,
  kFloat4e2m1 = 23,
  kFloat8e8m0 = 24,
  kUint2 = 25,
  kInt2 = 26,
};

inline constexpr int32_t kMaxDataType = 26;

// "float", "int64", "bfloat16", "float8e4m3fn"...; "undefined" for 0 and "dtype<N>" for codes
// this build does not know.
std::string DataTypeName(int32_t data_type);
// The inverse of DataTypeName for known names.
std::optional<int32_t> DataTypeFromName(std::string_view name);

bool IsIntegerDataType(int32_t data_type);  // signed and unsigned integers, 2 to 64 bits
bool IsFloatDataType(int32_t data_type);    // every floating-point format
// Bits per element of a fixed-size element type as a tensor stores it: 32 for float, 8 for
// bool, 4 for int4 and float4e2m1, 2 for int2, 64 for complex64; 0 for string (each element
// its own size), undefined and unknown codes.
int DataTypeBits(int32_t data_type);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DATA_TYPE_H_
