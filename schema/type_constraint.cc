#include "onnx_infer/schema/type_constraint.h"

#include <cctype>
#include <string>

#include "onnx_infer/base/limits.h"
#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"

namespace onnx_infer {
namespace {

using symbolic::Tri;

class TypeStringParser {
 public:
  explicit TypeStringParser(std::string_view text) : text_(text) {}

  StatusOr<Type> ParseAll() {
    OI_ASSIGN_OR_RETURN(Type t, ParseType(/*bare_elem_is_tensor=*/false));
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the type");
    return t;
  }

 private:
  Status Error(std::string_view what) const {
    // A hostile string can be megabytes long: quote its start only.
    constexpr size_t kQuoted = 80;
    std::string_view shown = text_.substr(0, kQuoted);
    return Status::Error(StrCat("type string '", shown, text_.size() > kQuoted ? "...'" : "'",
                                " at ", pos_, ": ", what));
  }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::string_view Word() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }
  Status Expect(char c) {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != c) return Error(StrCat("expected '", c, "'"));
    ++pos_;
    return OkStatus();
  }
  StatusOr<int32_t> ElemType() {
    std::string_view w = Word();
    auto t = DataTypeFromName(w);
    if (!t) return Error(StrCat("unknown element type '", w, "'"));
    return *t;
  }

  StatusOr<Type> ParseType(bool bare_elem_is_tensor) {
    // One call per level of seq(, optional( and map(k, : without a bound, a schema's type
    // string 20,000 levels deep overflowed the stack while loading.
    if (depth_ >= kMaxNestingDepth) {
      return Error(StrCat("nested too deeply: more than ", kMaxNestingDepth,
                          " levels (the nesting limit, docs/limits.md)"));
    }
    ++depth_;
    StatusOr<Type> t = ParseTypeAt(bare_elem_is_tensor);
    --depth_;
    return t;
  }
  StatusOr<Type> ParseTypeAt(bool bare_elem_is_tensor) {
    size_t start = pos_;
    std::string_view w = Word();
    if (w == "tensor" || w == "sparse_tensor") {
      OI_RETURN_IF_ERROR(Expect('('));
      OI_ASSIGN_OR_RETURN(int32_t e, ElemType());
      OI_RETURN_IF_ERROR(Expect(')'));
      return w == "tensor" ? Type::Tensor(e) : Type::SparseTensor(e);
    }
    if (w == "seq" || w == "optional") {
      OI_RETURN_IF_ERROR(Expect('('));
      OI_ASSIGN_OR_RETURN(Type inner, ParseType(false));
      OI_RETURN_IF_ERROR(Expect(')'));
      return w == "seq" ? Type::Sequence(std::move(inner)) : Type::Optional(std::move(inner));
    }
    if (w == "map") {
      OI_RETURN_IF_ERROR(Expect('('));
      OI_ASSIGN_OR_RETURN(int32_t key, ElemType());
      OI_RETURN_IF_ERROR(Expect(','));
      OI_ASSIGN_OR_RETURN(Type value, ParseType(true));
      OI_RETURN_IF_ERROR(Expect(')'));
      return Type::Map(key, std::move(value));
    }
    if (bare_elem_is_tensor) {
      if (auto e = DataTypeFromName(w)) return Type::Tensor(*e);
    }
    pos_ = start;
    return Error(StrCat("expected a type, got '", w, "'"));
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

StatusOr<Type> ParseTypeString(std::string_view text) { return TypeStringParser(text).ParseAll(); }

Tri MatchesPattern(const Type& type, const Type& pattern) {
  if (type.is_unknown()) return Tri::kUnknown;
  if (type.kind() != pattern.kind()) return Tri::kFalse;
  switch (type.kind()) {
    case Type::Kind::kUnknown:
      return Tri::kUnknown;
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor:
      if (type.elem_type() == 0) return Tri::kUnknown;
      return type.elem_type() == pattern.elem_type() ? Tri::kTrue : Tri::kFalse;
    case Type::Kind::kSequence:
    case Type::Kind::kOptional:
      return MatchesPattern(type.element(), pattern.element());
    case Type::Kind::kMap:
      if (type.map_key_type() != 0 && type.map_key_type() != pattern.map_key_type()) {
        return Tri::kFalse;
      }
      if (type.map_key_type() == 0) {
        return MatchesPattern(type.element(), pattern.element()) == Tri::kFalse ? Tri::kFalse
                                                                                : Tri::kUnknown;
      }
      return MatchesPattern(type.element(), pattern.element());
    case Type::Kind::kOpaque:
      return type.opaque_domain() == pattern.opaque_domain() &&
                     type.opaque_name() == pattern.opaque_name()
                 ? Tri::kTrue
                 : Tri::kFalse;
  }
  return Tri::kUnknown;
}

Type StripShapes(const Type& type) {
  switch (type.kind()) {
    case Type::Kind::kUnknown:
    case Type::Kind::kOpaque:
      return type;
    case Type::Kind::kTensor:
      return Type::Tensor(type.elem_type());
    case Type::Kind::kSparseTensor:
      return Type::SparseTensor(type.elem_type());
    case Type::Kind::kSequence:
      return Type::Sequence(StripShapes(type.element()));
    case Type::Kind::kOptional:
      return Type::Optional(StripShapes(type.element()));
    case Type::Kind::kMap:
      return Type::Map(type.map_key_type(), StripShapes(type.element()));
  }
  return type;
}

}  // namespace onnx_infer
