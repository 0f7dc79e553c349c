#include "onnx_infer/syntax/text_util.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <array>

#include "onnx_infer/base/limits.h"
#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"

namespace onnx_infer::syntax {

bool IsKeyword(std::string_view s) {
  static constexpr std::string_view kWords[] = {
      "seq", "map", "optional", "sparse_tensor", "opaque",
      "raw", "nan", "inf",      "textproto",     "undefined"};
  for (std::string_view w : kWords) {
    if (s == w) return true;
  }
  return ElemTypeFromName(s).has_value();
}

std::optional<int32_t> ElemTypeFromName(std::string_view name) { return DataTypeFromName(name); }

std::string ElemTypeName(int32_t elem_type) {
  if (elem_type < 1 || elem_type > kMaxDataType) return "";
  return DataTypeName(elem_type);
}

ValueField ValueFieldOf(int32_t data_type) {
  switch (data_type) {
    case kFloat:
    case kComplex64:
      return ValueField::kFloat;
    case kString:
      return ValueField::kString;
    case kInt64:
      return ValueField::kInt64;
    case kDouble:
    case kComplex128:
      return ValueField::kDouble;
    case kUint32:
    case kUint64:
      return ValueField::kUint64;
    default:
      return ValueField::kInt32;
  }
}

namespace {

struct AttrTypeName {
  onnx::AttributeProto::AttributeType type;
  std::string_view name;
};

constexpr AttrTypeName kAttrTypes[] = {
    {onnx::AttributeProto::FLOAT, "float"},
    {onnx::AttributeProto::INT, "int"},
    {onnx::AttributeProto::STRING, "string"},
    {onnx::AttributeProto::TENSOR, "tensor"},
    {onnx::AttributeProto::GRAPH, "graph"},
    {onnx::AttributeProto::SPARSE_TENSOR, "sparse_tensor"},
    {onnx::AttributeProto::TYPE_PROTO, "type_proto"},
    {onnx::AttributeProto::FLOATS, "floats"},
    {onnx::AttributeProto::INTS, "ints"},
    {onnx::AttributeProto::STRINGS, "strings"},
    {onnx::AttributeProto::TENSORS, "tensors"},
    {onnx::AttributeProto::GRAPHS, "graphs"},
    {onnx::AttributeProto::SPARSE_TENSORS, "sparse_tensors"},
    {onnx::AttributeProto::TYPE_PROTOS, "type_protos"},
};

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (first_.empty()) first_ = StrCat("protobuf text ", line + 1, ":", column + 1, ": ", message);
  }
  const std::string& first() const { return first_; }

 private:
  std::string first_;
};

}  // namespace

std::string AttributeTypeName(onnx::AttributeProto::AttributeType type) {
  for (const auto& t : kAttrTypes) {
    if (t.type == type) return std::string(t.name);
  }
  return "";
}

std::optional<onnx::AttributeProto::AttributeType> AttributeTypeFromName(std::string_view name) {
  for (const auto& t : kAttrTypes) {
    if (t.name == name) return t.type;
  }
  return std::nullopt;
}

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    out.push_back(kBase64[v >> 18]);
    out.push_back(kBase64[(v >> 12) & 63]);
    out.push_back(kBase64[(v >> 6) & 63]);
    out.push_back(kBase64[v & 63]);
  }
  if (i + 1 == bytes.size()) {
    uint32_t v = uint8_t(bytes[i]) << 16;
    out.push_back(kBase64[v >> 18]);
    out.push_back(kBase64[(v >> 12) & 63]);
    out.append("==");
  } else if (i + 2 == bytes.size()) {
    uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8);
    out.push_back(kBase64[v >> 18]);
    out.push_back(kBase64[(v >> 12) & 63]);
    out.push_back(kBase64[(v >> 6) & 63]);
    out.push_back('=');
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  static const auto kDecode = [] {
    std::array<int8_t, 256> table;
    table.fill(-1);
    for (int i = 0; i < 64; ++i) table[uint8_t(kBase64[i])] = int8_t(i);
    return table;
  }();
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    int pad = 0;
    uint32_t v = 0;
    for (size_t k = 0; k < 4; ++k) {
      char c = text[i + k];
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        ++pad;
        v <<= 6;
        continue;
      }
      int8_t d = kDecode[uint8_t(c)];
      if (d < 0 || pad > 0) return std::nullopt;
      v = (v << 6) | uint32_t(d);
    }
    out.push_back(char(v >> 16));
    if (pad < 2) out.push_back(char((v >> 8) & 255));
    if (pad < 1) out.push_back(char(v & 255));
  }
  return out;
}

std::string ToProtoText(const google::protobuf::Message& message) {
  google::protobuf::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  std::string out;
  printer.PrintToString(message, &out);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string MergeProtoText(std::string_view text, google::protobuf::Message* message) {
  google::protobuf::TextFormat::Parser parser;
  // protobuf's text parser recurses once per message and has no limit of its own by default:
  // `type { sequence_type { elem_type { ...` 10,000 deep overflowed the stack.
  parser.SetRecursionLimit(kMaxProtobufDepth);
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  if (parser.MergeFromString(std::string(text), message)) return "";
  if (errors.first().find("recursion limit") != std::string::npos) {
    return StrCat("protobuf text nested deeper than ", kMaxProtobufDepth,
                  " messages (the nesting limit, docs/limits.md)");
  }
  return errors.first().empty() ? "invalid protobuf text" : errors.first();
}

}  // namespace onnx_infer::syntax
