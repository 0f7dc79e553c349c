#include "onnx_infer/schema/data_type.h"

#include <array>
#include <string>

namespace onnx_infer {
namespace {

constexpr std::array<std::string_view, kMaxDataType + 1> kNames = {
    "undefined",      "float",      "uint8",          "int8",       "uint16",   "int16",
    "int32",          "int64",      "string",         "bool",       "float16",  "double",
    "uint32",         "uint64",     "complex64",      "complex128", "bfloat16", "float8e4m3fn",
    "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4",      "int4",     "float4e2m1",
    "float8e8m0",     "uint2",      "int2",
};

}  // namespace

std::string DataTypeName(int32_t data_type) {
  if (data_type >= 0 && data_type <= kMaxDataType) return std::string(kNames[data_type]);
  return "dtype<" + std::to_string(data_type) + ">";
}

std::optional<int32_t> DataTypeFromName(std::string_view name) {
  for (int32_t i = 1; i <= kMaxDataType; ++i) {
    if (kNames[i] == name) return i;
  }
  return std::nullopt;
}

bool IsIntegerDataType(int32_t t) {
  switch (t) {
    case kUint8:
    case kInt8:
    case kUint16:
    case kInt16:
    case kInt32:
    case kInt64:
    case kUint32:
    case kUint64:
    case kUint4:
    case kInt4:
    case kUint2:
    case kInt2:
      return true;
    default:
      return false;
  }
}

bool IsFloatDataType(int32_t t) {
  switch (t) {
    case kFloat:
    case kFloat16:
    case kDouble:
    case kBfloat16:
    case kFloat8e4m3fn:
    case kFloat8e4m3fnuz:
    case kFloat8e5m2:
    case kFloat8e5m2fnuz:
    case kFloat4e2m1:
    case kFloat8e8m0:
      return true;
    default:
      return false;
  }
}

int DataTypeBits(int32_t t) {
  switch (t) {
    case kBool:
    case kUint8:
    case kInt8:
    case kFloat8e4m3fn:
    case kFloat8e4m3fnuz:
    case kFloat8e5m2:
    case kFloat8e5m2fnuz:
    case kFloat8e8m0:
      return 8;
    case kUint16:
    case kInt16:
    case kFloat16:
    case kBfloat16:
      return 16;
    case kFloat:
    case kInt32:
    case kUint32:
      return 32;
    case kInt64:
    case kUint64:
    case kDouble:
    case kComplex64:
      return 64;
    case kComplex128:
      return 128;
    case kUint4:
    case kInt4:
    case kFloat4e2m1:
      return 4;
    case kUint2:
    case kInt2:
      return 2;
    default:
      return 0;  // undefined, string, unknown codes
  }
}

}  // namespace onnx_infer
