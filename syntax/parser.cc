#include "onnx_infer/syntax/parser.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/syntax/lexer.h"
#include "onnx_infer/syntax/text_util.h"

namespace onnx_infer::syntax {
namespace {

using A = onnx::AttributeProto;

// An attribute type as a value. AttributeProto's constants (A::INT) are static data members:
// binding one to a reference, as std::optional's constructor and assignment do, odr-uses it,
// and an unoptimised build of this file then defines it, which collides at link time with the
// definition in a .pb.cc compiled as C++11 or C++14 (a front end's own ONNX classes, built
// by Bazel's default toolchain: examples/frontend in fastbuild). Passing it by value does not.
constexpr A::AttributeType AttrType(A::AttributeType t) { return t; }
using StrStrList = google::protobuf::RepeatedPtrField<onnx::StringStringEntryProto>;
using OpsetList = google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>;

bool IsTypeKeyword(std::string_view s) {
  return ElemTypeFromName(s).has_value() || s == "seq" || s == "map" || s == "optional" ||
         s == "sparse_tensor" || s == "opaque";
}

// Recursive descent over the token list. Methods return false after recording the first
// error; callers return at once, so the first error is the one reported.
class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string_view source)
      : tokens_(std::move(tokens)), source_(source) {}

  const std::string& error() const { return error_; }

  bool AtEnd(const char* what) {
    if (Peek().kind == TokenKind::kEnd) return true;
    return Fail(Peek(), StrCat("expected end of input after ", what, ", got ", Describe(Peek())));
  }

  bool Model(onnx::ModelProto* m) {
    if (IsPunct("<")) {
      Next();
      bool ok = Keyed(">", [&](const std::string& key, const Token& at) {
        if (key == "ir_version") return IntTo([&](int64_t v) { m->set_ir_version(v); });
        if (key == "opset_import") return Opsets(m->mutable_opset_import());
        if (key == "producer_name") return String(m->mutable_producer_name());
        if (key == "producer_version") return String(m->mutable_producer_version());
        if (key == "domain") return String(m->mutable_domain());
        if (key == "model_version") return IntTo([&](int64_t v) { m->set_model_version(v); });
        if (key == "doc_string") return String(m->mutable_doc_string());
        if (key == "metadata_props") return StrStr(m->mutable_metadata_props());
        if (key == "textproto") return ProtoText(m);
        return UnknownKey(at, key, "model");
      });
      if (!ok) return false;
    }
    if (!Graph(m->mutable_graph())) return false;
    while (Peek().kind != TokenKind::kEnd) {
      if (!Function(m->add_functions())) return false;
    }
    return true;
  }

  bool Function(onnx::FunctionProto* f) {
    if (Accept("<")) {
      bool ok = Keyed(">", [&](const std::string& key, const Token& at) {
        if (key == "domain") return String(f->mutable_domain());
        if (key == "overload") return String(f->mutable_overload());
        if (key == "opset_import") return Opsets(f->mutable_opset_import());
        if (key == "doc_string") return String(f->mutable_doc_string());
        if (key == "metadata_props") return StrStr(f->mutable_metadata_props());
        if (key == "textproto") return ProtoText(f);
        return UnknownKey(at, key, "function");
      });
      if (!ok) return false;
    }
    if (!QuotableId(f->mutable_name(), "a function name")) return false;
    if (Accept("<")) {
      while (true) {
        std::string name;
        if (!QuotableId(&name, "an attribute name")) return false;
        if (IsPunct(":") || IsPunct("=")) {
          A* a = f->add_attribute_proto();
          a->set_name(name);
          if (!AttributeRest(a)) return false;
        } else {
          f->add_attribute(name);
        }
        if (Accept(">")) break;
        if (!Expect(",", "between function attributes")) return false;
      }
    }
    if (IsQuotableId()) {  // Syntax.md's `quotable-id` before the inputs: the overload
      if (!QuotableId(f->mutable_overload(), "")) return false;
    }
    if (!Expect("(", "to open the function inputs")) return false;
    if (!FunctionNames(f->mutable_input(), f)) return false;
    if (!Expect("=>", "after the function inputs")) return false;
    if (!Expect("(", "to open the function outputs")) return false;
    if (!FunctionNames(f->mutable_output(), f)) return false;
    if (Accept("<")) {
      if (!Accept(">")) {
        while (true) {
          if (!ValueInfo(f->add_value_info())) return false;
          if (Accept(">")) break;
          if (!Expect(",", "between value infos")) return false;
        }
      }
    }
    return Nodes(f->mutable_node());
  }

  bool Graph(onnx::GraphProto* g) {
    DepthGuard guard(this);
    if (depth_ > kMaxNestingDepth) return TooDeep();
    if (!QuotableId(g->mutable_name(), "a graph name")) return false;
    if (Accept("<")) {
      bool ok = Keyed(">", [&](const std::string& key, const Token& at) {
        if (key == "doc_string") return String(g->mutable_doc_string());
        if (key == "metadata_props") return StrStr(g->mutable_metadata_props());
        if (key == "textproto") return ProtoText(g);
        return UnknownKey(at, key, "graph");
      });
      if (!ok) return false;
    }
    if (!Expect("(", "to open the graph inputs")) return false;
    if (!Accept(")")) {
      while (true) {
        if (!GraphEntry(g, g->mutable_input(), /*allow_data=*/true)) return false;
        if (Accept(")")) break;
        if (!Expect(",", "or ')' after a graph input")) return false;
      }
    }
    if (!Expect("=>", "after the graph inputs")) return false;
    if (!Expect("(", "to open the graph outputs")) return false;
    if (!Accept(")")) {
      while (true) {
        if (!GraphEntry(g, g->mutable_output(), /*allow_data=*/false)) return false;
        if (Accept(")")) break;
        if (!Expect(",", "or ')' after a graph output")) return false;
      }
    }
    if (Accept("<")) {
      if (!Accept(">")) {
        while (true) {
          if (!GraphEntry(g, nullptr, /*allow_data=*/true)) return false;
          if (Accept(">")) break;
          if (!Expect(",", "or '>' after an initializer or value info")) return false;
        }
      }
    }
    return Nodes(g->mutable_node());
  }

  bool Node(onnx::NodeProto* n) {
    if (Accept("[")) {
      bool keyed = Peek().kind == TokenKind::kId && IsPunct(":", 1);
      if (!keyed) {
        if (!QuotableId(n->mutable_name(), "a node name")) return false;
        if (!Accept("]") && !Expect(",", "or ']' after the node name")) return false;
        keyed = tokens_[pos_ - 1].text == ",";
      }
      if (keyed) {
        bool ok = Keyed("]", [&](const std::string& key, const Token& at) {
          if (key == "doc_string") return String(n->mutable_doc_string());
          if (key == "overload") return String(n->mutable_overload());
          if (key == "metadata_props") return StrStr(n->mutable_metadata_props());
          if (key == "textproto") return ProtoText(n);
          return UnknownKey(at, key, "node");
        });
        if (!ok) return false;
      }
    }
    while (!IsPunct("=")) {
      if (!QuotableId(n->add_output(), "a node output or '='")) return false;
      if (!IsPunct("=") && !Expect(",", "or '=' after a node output")) return false;
    }
    Next();  // '='
    if (!OpName(n)) return false;
    bool attrs = false;
    if (Accept("<")) {
      if (!Attributes(n)) return false;
      attrs = true;
    }
    if (!Expect("(", "to open the node inputs")) return false;
    if (!Accept(")")) {
      while (true) {
        if (!QuotableId(n->add_input(), "a node input")) return false;
        if (Accept(")")) break;
        if (!Expect(",", "or ')' after a node input")) return false;
      }
    }
    if (!attrs && Accept("<")) return Attributes(n);
    return true;
  }

  bool Type(onnx::TypeProto* t) {
    DepthGuard guard(this);
    if (depth_ > kMaxNestingDepth) return TooDeep();
    const Token& tok = Peek();
    if (tok.kind != TokenKind::kId) return Fail(tok, "expected a type, got " + Describe(tok));
    std::string word = tok.text;
    if (auto elem = ElemTypeFromName(word)) {
      Next();
      auto* tensor = t->mutable_tensor_type();
      tensor->set_elem_type(*elem);
      if (IsPunct("[")) return Shape(tensor->mutable_shape());
      return true;
    }
    if (word == "seq" || word == "optional") {
      Next();
      if (!Expect("(", "after " + word)) return false;
      onnx::TypeProto* inner = word == "seq" ? t->mutable_sequence_type()->mutable_elem_type()
                                             : t->mutable_optional_type()->mutable_elem_type();
      return Type(inner) && Expect(")", "to close " + word + "(...)");
    }
    if (word == "map") {
      Next();
      if (!Expect("(", "after map")) return false;
      auto* map = t->mutable_map_type();
      int32_t key = 0;
      if (!ElemType(&key)) return false;
      map->set_key_type(key);
      if (!Expect(",", "after the map key type")) return false;
      return Type(map->mutable_value_type()) && Expect(")", "to close map(...)");
    }
    if (word == "sparse_tensor") {
      Next();
      if (!Expect("(", "after sparse_tensor")) return false;
      auto* sparse = t->mutable_sparse_tensor_type();
      int32_t elem = 0;
      if (!ElemType(&elem)) return false;
      sparse->set_elem_type(elem);
      if (IsPunct("[") && !Shape(sparse->mutable_shape())) return false;
      return Expect(")", "to close sparse_tensor(...)");
    }
    if (word == "opaque") {
      Next();
      if (!Expect("(", "after opaque")) return false;
      auto* opaque = t->mutable_opaque_type();
      if (Accept(")")) return true;
      std::string first;
      if (!QualifiedOrString(&first, "an opaque type name")) return false;
      if (Accept(",")) {
        opaque->set_domain(first);
        if (!QuotableId(opaque->mutable_name(), "an opaque type name")) return false;
      } else {
        opaque->set_name(first);
      }
      return Expect(")", "to close opaque(...)");
    }
    return Fail(tok, "expected a type, got " + Describe(tok));
  }

  bool Nodes(google::protobuf::RepeatedPtrField<onnx::NodeProto>* nodes) {
    if (!Expect("{", "to open the node list")) return false;
    while (!Accept("}")) {
      if (Peek().kind == TokenKind::kEnd) return Expect("}", "to close the node list");
      if (!Node(nodes->Add())) return false;
    }
    return true;
  }

 private:
  struct DepthGuard {
    explicit DepthGuard(Parser* p) : p(p) { ++p->depth_; }
    ~DepthGuard() { --p->depth_; }
    Parser* p;
  };

  const Token& Peek(int ahead = 0) const {
    size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
    return tokens_[i];
  }
  const Token& Next() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool IsPunct(std::string_view p, int ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind == TokenKind::kPunct && t.text == p;
  }
  bool IsId(std::string_view word, int ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind == TokenKind::kId && t.text == word;
  }
  bool Accept(std::string_view p) {
    if (!IsPunct(p)) return false;
    Next();
    return true;
  }
  bool Expect(std::string_view p, const std::string& context) {
    if (Accept(p)) return true;
    return Fail(Peek(), StrCat("expected '", p, "' ", context, ", got ", Describe(Peek())));
  }
  bool Fail(const Token& at, const std::string& message) {
    if (error_.empty()) error_ = StrCat(source_, ":", at.line, ":", at.column, ": ", message);
    return false;
  }
  bool TooDeep() {
    return Fail(Peek(), StrCat("nesting deeper than ", kMaxNestingDepth,
                               " levels (graphs in attributes, types in types; the text syntax "
                               "nesting limit, docs/limits.md)"));
  }
  bool UnknownKey(const Token& at, const std::string& key, const char* where) {
    return Fail(at, StrCat("unknown ", where, " field '", key, "'"));
  }

  // After the opening bracket: `key: value, ...` up to `close`.
  bool Keyed(std::string_view close,
             const std::function<bool(const std::string&, const Token&)>& on_key) {
    if (Accept(close)) return true;
    while (true) {
      const Token& key = Peek();
      if (key.kind != TokenKind::kId) {
        return Fail(key, StrCat("expected a field name, got ", Describe(key)));
      }
      Token at = key;
      Next();
      if (!Expect(":", "after field name '" + at.text + "'")) return false;
      if (!on_key(at.text, at)) return false;
      if (Accept(close)) return true;
      if (!Expect(",", StrCat("or '", close, "' after field '", at.text, "'"))) return false;
    }
  }

  bool IsQuotableId() const {
    const Token& t = Peek();
    return t.kind == TokenKind::kString || (t.kind == TokenKind::kId && !IsKeyword(t.text));
  }
  bool QuotableId(std::string* out, const char* what) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kString || t.kind == TokenKind::kId) {
      *out = Next().text;
      return true;
    }
    return Fail(t, StrCat("expected ", what, ", got ", Describe(t)));
  }
  // `a.b.c` or a quoted string.
  bool QualifiedOrString(std::string* out, const char* what) {
    if (Peek().kind == TokenKind::kString) return QuotableId(out, what);
    if (Peek().kind != TokenKind::kId) return QuotableId(out, what);
    *out = Next().text;
    while (IsPunct(".") && Peek(1).kind == TokenKind::kId) {
      Next();
      *out += "." + Next().text;
    }
    return true;
  }

  bool OpName(onnx::NodeProto* n) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kString) {
      std::string first = Next().text;
      if (Accept(".")) {
        n->set_domain(first);
        return QuotableId(n->mutable_op_type(), "an operator name");
      }
      n->set_op_type(first);
      return true;
    }
    if (t.kind != TokenKind::kId) return Fail(t, "expected an operator name, got " + Describe(t));
    std::vector<std::string> parts{Next().text};
    while (Accept(".")) {
      std::string part;
      if (!QuotableId(&part, "an operator name after '.'")) return false;
      parts.push_back(std::move(part));
    }
    n->set_op_type(parts.back());
    if (parts.size() > 1) {
      parts.pop_back();
      n->set_domain(StrJoin(parts, "."));
    }
    return true;
  }

  bool Attributes(onnx::NodeProto* n) {
    while (true) {
      A* a = n->add_attribute();
      if (!QuotableId(a->mutable_name(), "an attribute name")) return false;
      if (!AttributeRest(a)) return false;
      if (Accept(">")) return true;
      if (!Expect(",", "or '>' after an attribute")) return false;
    }
  }

  // After the attribute name: `(: type)? = value`.
  bool AttributeRest(A* a) {
    std::optional<A::AttributeType> type;
    if (Accept(":")) {
      const Token& t = Peek();
      if (t.kind == TokenKind::kId && t.text == "textproto") {
        Next();
        if (!Expect("=", "after ': textproto'")) return false;
        std::string name = a->name();
        if (!ProtoText(a)) return false;
        a->set_name(name);
        return true;
      }
      auto known = t.kind == TokenKind::kId ? AttributeTypeFromName(t.text) : std::nullopt;
      if (!known)
        return Fail(t, "expected an attribute type (int, floats, tensor...), got " + Describe(t));
      Next();
      type = *known;
    }
    if (!Expect("=", "after the attribute name")) return false;
    if (Accept("@")) {
      if (type) a->set_type(*type);
      return QuotableId(a->mutable_ref_attr_name(), "an attribute name after '@'");
    }
    if (!type) {
      type = InferAttributeType();
      if (!type) return false;
    }
    a->set_type(*type);
    return AttributeValue(a, *type);
  }

  std::optional<A::AttributeType> InferAttributeType() {
    const Token& t = Peek();
    bool list = IsPunct("[");
    const Token& v = list ? Peek(1) : t;
    std::optional<A::AttributeType> single;
    if (v.kind == TokenKind::kInt) {
      single = AttrType(A::INT);
    } else if (v.kind == TokenKind::kFloat ||
               (v.kind == TokenKind::kId && (v.text == "nan" || v.text == "inf"))) {
      single = AttrType(A::FLOAT);
    } else if (v.kind == TokenKind::kString) {
      int after = list ? 2 : 1;
      single =
          IsPunct("(", after) || IsPunct("<", after) ? AttrType(A::GRAPH) : AttrType(A::STRING);
    } else if (v.kind == TokenKind::kId && v.text == "sparse_tensor") {
      single = AttrType(A::SPARSE_TENSOR);
    } else if (v.kind == TokenKind::kId) {
      single = ElemTypeFromName(v.text) || v.text == "textproto" ? AttrType(A::TENSOR)
                                                                 : AttrType(A::GRAPH);
    }
    if (!single) {
      if (list && IsPunct("]", 1)) {
        Fail(t, "an empty list needs its type: write 'name: ints = []'");
      } else {
        Fail(v, "expected an attribute value, got " + Describe(v));
      }
      return std::nullopt;
    }
    if (!list) return single;
    switch (*single) {
      case A::INT:
        return AttrType(A::INTS);
      case A::FLOAT:
        return AttrType(A::FLOATS);
      case A::STRING:
        return AttrType(A::STRINGS);
      case A::TENSOR:
        return AttrType(A::TENSORS);
      case A::SPARSE_TENSOR:
        return AttrType(A::SPARSE_TENSORS);
      default:
        return AttrType(A::GRAPHS);
    }
  }

  template <typename F>
  bool List(F each) {
    if (!Expect("[", "to open a list")) return false;
    if (Accept("]")) return true;
    while (true) {
      if (!each()) return false;
      if (Accept("]")) return true;
      if (!Expect(",", "or ']' in a list")) return false;
    }
  }

  bool AttributeValue(A* a, A::AttributeType type) {
    switch (type) {
      case A::FLOAT:
        return FloatTo([&](float v) { a->set_f(v); });
      case A::INT:
        return IntTo([&](int64_t v) { a->set_i(v); });
      case A::STRING:
        return String(a->mutable_s());
      case A::TENSOR:
        return TensorConstant(a->mutable_t());
      case A::GRAPH:
        return Graph(a->mutable_g());
      case A::TYPE_PROTO:
        return Type(a->mutable_tp());
      case A::FLOATS:
        return List([&] { return FloatTo([&](float v) { a->add_floats(v); }); });
      case A::INTS:
        return List([&] { return IntTo([&](int64_t v) { a->add_ints(v); }); });
      case A::STRINGS:
        return List([&] { return String(a->add_strings()); });
      case A::TENSORS:
        return List([&] { return TensorConstant(a->add_tensors()); });
      case A::GRAPHS:
        return List([&] { return Graph(a->add_graphs()); });
      case A::TYPE_PROTOS:
        return List([&] { return Type(a->add_type_protos()); });
      case A::SPARSE_TENSOR:
        return SparseConstant(a->mutable_sparse_tensor());
      case A::SPARSE_TENSORS:
        return List([&] { return SparseConstant(a->add_sparse_tensors()); });
      default:
        return Fail(Peek(), "unsupported attribute type");
    }
  }

  // `float[2, 3] name? =? data`, or `textproto "..."`.
  bool TensorConstant(onnx::TensorProto* t) {
    if (IsId("textproto")) {
      Next();
      return ProtoText(t);
    }
    int32_t elem = 0;
    if (!ElemType(&elem)) return false;
    t->set_data_type(elem);
    if (IsPunct("[") && !(Peek(1).kind == TokenKind::kString && IsPunct(":", 2))) {
      if (!TensorDims(t)) return false;
    }
    if (Peek().kind == TokenKind::kString ||
        (Peek().kind == TokenKind::kId && !IsKeyword(Peek().text))) {
      Next();
      t->set_name(tokens_[pos_ - 1].text);
    }
    Accept("=");
    return TensorData(t);
  }

  // `sparse_tensor[3, 4] {VALUES, INDICES}`, both tensor constants.
  bool SparseConstant(onnx::SparseTensorProto* sp) {
    if (!IsId("sparse_tensor")) {
      return Fail(Peek(),
                  "expected 'sparse_tensor[dims] {values, indices}', got " + Describe(Peek()));
    }
    Next();
    bool dims = List([&] {
      int64_t d = 0;
      if (!Int(&d)) return false;
      sp->add_dims(d);
      return true;
    });
    return dims && Expect("{", "to open the sparse tensor's values and indices") &&
           TensorConstant(sp->mutable_values()) &&
           Expect(",", "between the sparse tensor's values and indices") &&
           TensorConstant(sp->mutable_indices()) &&
           Expect("}", "after the sparse tensor's indices");
  }

  bool TensorDims(onnx::TensorProto* t) {
    return List([&] {
      int64_t d = 0;
      if (!Int(&d)) return false;
      t->add_dims(d);
      return true;
    });
  }

  // `{values}`, `raw "base64"` or `["key": "value", ...]` (external data).
  bool TensorData(onnx::TensorProto* t) {
    if (IsId("raw")) {
      Next();
      const Token& s = Peek();
      if (s.kind != TokenKind::kString) {
        return Fail(s, "expected the base64 string of raw data, got " + Describe(s));
      }
      auto bytes = Base64Decode(s.text);
      if (!bytes) return Fail(s, "raw data is not valid base64");
      t->set_raw_data(std::move(*bytes));
      Next();
      return true;
    }
    if (IsPunct("[")) {
      if (!StrStr(t->mutable_external_data())) return false;
      t->set_data_location(onnx::TensorProto::EXTERNAL);
      return true;
    }
    if (!Expect("{", "to open the tensor values (or 'raw \"...\"', or external data)")) {
      return false;
    }
    if (Accept("}")) return true;
    ValueField field = ValueFieldOf(t->data_type());
    while (true) {
      bool ok = true;
      switch (field) {
        case ValueField::kFloat:
          ok = FloatTo([&](float v) { t->add_float_data(v); });
          break;
        case ValueField::kInt32: {
          int64_t v = 0;
          ok = Int(&v);
          if (ok && (v < std::numeric_limits<int32_t>::min() ||
                     v > std::numeric_limits<int32_t>::max())) {
            ok = Fail(tokens_[pos_ - 1], "value does not fit in int32_data");
          }
          t->add_int32_data(static_cast<int32_t>(v));
          break;
        }
        case ValueField::kString:
          ok = String(t->add_string_data());
          break;
        case ValueField::kInt64:
          ok = IntTo([&](int64_t v) { t->add_int64_data(v); });
          break;
        case ValueField::kDouble:
          ok = DoubleTo([&](double v) { t->add_double_data(v); });
          break;
        case ValueField::kUint64:
          ok = Uint64To([&](uint64_t v) { t->add_uint64_data(v); });
          break;
      }
      if (!ok) return false;
      if (Accept("}")) return true;
      if (!Expect(",", "or '}' between tensor values")) return false;
    }
  }

  // An input, output, value info or initializer of a graph. `list` is the inputs or the
  // outputs; null for the `<...>` list, where an entry with data is only an initializer.
  bool GraphEntry(onnx::GraphProto* g,
                  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, bool allow_data) {
    if (!list && IsId("textproto")) {
      Next();
      return ProtoText(g->add_initializer());
    }
    if (!list && IsId("sparse_tensor") && IsPunct("[", 1)) {
      return SparseConstant(g->add_sparse_initializer());
    }
    onnx::ValueInfoProto vi;
    const Token start = Peek();
    if (!ValueInfo(&vi)) return false;
    if (allow_data && Accept("=")) {
      const auto& type = vi.type();
      if (!type.has_tensor_type()) {
        return Fail(start, "an initializer needs a tensor type, like 'float[2] w = {1, 2}'");
      }
      onnx::TensorProto* t = g->add_initializer();
      t->set_data_type(type.tensor_type().elem_type());
      for (const auto& d : type.tensor_type().shape().dim()) {
        if (!d.has_dim_value()) {
          return Fail(start, "an initializer's dims must be numbers");
        }
        t->add_dims(d.dim_value());
      }
      t->set_name(vi.name());
      if (!TensorData(t)) return false;
      if (!list) return true;
    }
    if (list) {
      *list->Add() = std::move(vi);
    } else {
      *g->add_value_info() = std::move(vi);
    }
    return true;
  }

  // `type? name <doc_string: ..., metadata_props: ..., textproto: ...>?`
  bool ValueInfo(onnx::ValueInfoProto* vi) {
    if (Peek().kind == TokenKind::kId && IsTypeKeyword(Peek().text)) {
      if (!Type(vi->mutable_type())) return false;
    }
    if (!QuotableId(vi->mutable_name(), "a value name")) return false;
    if (Accept("<")) {
      return Keyed(">", [&](const std::string& key, const Token& at) {
        if (key == "doc_string") return String(vi->mutable_doc_string());
        if (key == "metadata_props") return StrStr(vi->mutable_metadata_props());
        if (key == "textproto") return ProtoText(vi);
        return UnknownKey(at, key, "value info");
      });
    }
    return true;
  }

  // Function inputs or outputs: `type? name`; a type goes to the function's value_info.
  bool FunctionNames(google::protobuf::RepeatedPtrField<std::string>* names,
                     onnx::FunctionProto* f) {
    if (Accept(")")) return true;
    while (true) {
      if (Peek().kind == TokenKind::kId && IsTypeKeyword(Peek().text)) {
        onnx::ValueInfoProto* vi = f->add_value_info();
        if (!Type(vi->mutable_type())) return false;
        if (!QuotableId(vi->mutable_name(), "a value name")) return false;
        *names->Add() = vi->name();
      } else if (!QuotableId(names->Add(), "a value name")) {
        return false;
      }
      if (Accept(")")) return true;
      if (!Expect(",", "or ')' after a function input or output")) return false;
    }
  }

  bool Shape(onnx::TensorShapeProto* shape) {
    return List([&] {
      auto* d = shape->add_dim();
      const Token& t = Peek();
      if (Accept("?")) return true;
      if (t.kind == TokenKind::kInt) {
        int64_t v = 0;
        if (!Int(&v)) return false;
        d->set_dim_value(v);
        return true;
      }
      if (t.kind == TokenKind::kId || t.kind == TokenKind::kString) {
        d->set_dim_param(Next().text);
        return true;
      }
      return Fail(t, "expected a dimension (a number, a name or '?'), got " + Describe(t));
    });
  }

  bool ElemType(int32_t* out) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kId) {
      if (auto e = ElemTypeFromName(t.text)) {
        *out = *e;
        Next();
        return true;
      }
    }
    return Fail(t, "expected an element type (float, int64...), got " + Describe(t));
  }

  bool Opsets(OpsetList* opsets) {
    return List([&] {
      auto* o = opsets->Add();
      if (Peek().kind == TokenKind::kString) {
        o->set_domain(Next().text);
        if (!Expect(":", "after the opset domain")) return false;
      }
      if (Accept("?")) return true;
      int64_t v = 0;
      if (!Int(&v)) return false;
      o->set_version(v);
      return true;
    });
  }

  bool StrStr(StrStrList* list) {
    return List([&] {
      auto* e = list->Add();
      return String(e->mutable_key()) && Expect(":", "between key and value") &&
             String(e->mutable_value());
    });
  }

  bool ProtoText(google::protobuf::Message* m) {
    const Token& t = Peek();
    if (t.kind != TokenKind::kString) {
      return Fail(t, "expected a string of protobuf text, got " + Describe(t));
    }
    std::string err = MergeProtoText(t.text, m);
    if (!err.empty()) return Fail(t, err);
    Next();
    return true;
  }

  bool String(std::string* out) {
    const Token& t = Peek();
    if (t.kind != TokenKind::kString) return Fail(t, "expected a string, got " + Describe(t));
    *out = Next().text;
    return true;
  }

  bool Int(int64_t* out) {
    const Token& t = Peek();
    if (t.kind != TokenKind::kInt) return Fail(t, "expected an integer, got " + Describe(t));
    const char* end = t.text.data() + t.text.size();
    auto r = std::from_chars(t.text.data(), end, *out);
    if (r.ec != std::errc() || r.ptr != end) return Fail(t, "integer out of range: " + t.text);
    Next();
    return true;
  }

  bool Uint64(uint64_t* out) {
    const Token& t = Peek();
    if (t.kind != TokenKind::kInt || t.text[0] == '-') {
      return Fail(t, "expected an unsigned integer, got " + Describe(t));
    }
    const char* end = t.text.data() + t.text.size();
    auto r = std::from_chars(t.text.data(), end, *out);
    if (r.ec != std::errc() || r.ptr != end) return Fail(t, "integer out of range: " + t.text);
    Next();
    return true;
  }

  template <typename F>
  bool Real(F* out) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kId && (t.text == "nan" || t.text == "inf")) {
      *out = t.text == "nan" ? std::numeric_limits<F>::quiet_NaN()
                             : std::numeric_limits<F>::infinity();
      Next();
      return true;
    }
    if (t.kind != TokenKind::kInt && t.kind != TokenKind::kFloat) {
      return Fail(t, "expected a number, got " + Describe(t));
    }
    const char* begin = t.text.data();
    const char* end = begin + t.text.size();
    auto r = std::from_chars(begin, end, *out);
    if (r.ptr != end || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range)) {
      return Fail(t, "not a number: " + t.text);
    }
    if (r.ec == std::errc::result_out_of_range) {
      // Overflow reads as infinity and underflow as zero, as strtod does.
      double d = std::strtod(std::string(t.text).c_str(), nullptr);
      *out = static_cast<F>(d);
    }
    Next();
    return true;
  }
  template <typename Set>
  bool FloatTo(Set set) {
    float v = 0;
    if (!Real(&v)) return false;
    set(v);
    return true;
  }
  template <typename Set>
  bool DoubleTo(Set set) {
    double v = 0;
    if (!Real(&v)) return false;
    set(v);
    return true;
  }
  template <typename Set>
  bool IntTo(Set set) {
    int64_t v = 0;
    if (!Int(&v)) return false;
    set(v);
    return true;
  }
  template <typename Set>
  bool Uint64To(Set set) {
    uint64_t v = 0;
    if (!Uint64(&v)) return false;
    set(v);
    return true;
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  std::string source_;
  std::string error_;
  int depth_ = 0;
};

template <typename M, typename F>
StatusOr<M> Run(std::string_view text, std::string_view source, const char* what, F parse) {
  auto tokens = Tokenize(text, source);
  if (!tokens.ok()) return tokens.status();
  Parser parser(std::move(*tokens), source);
  M message;
  if (!parse(parser, &message) || !parser.AtEnd(what)) return Status::Error(parser.error());
  return message;
}

}  // namespace

StatusOr<onnx::ModelProto> ParseModelText(std::string_view text, std::string_view source) {
  return Run<onnx::ModelProto>(text, source, "the model",
                               [](Parser& p, onnx::ModelProto* m) { return p.Model(m); });
}

StatusOr<onnx::FunctionProto> ParseFunctionText(std::string_view text, std::string_view source) {
  return Run<onnx::FunctionProto>(text, source, "the function",
                                  [](Parser& p, onnx::FunctionProto* f) { return p.Function(f); });
}

StatusOr<onnx::NodeProto> ParseNodeText(std::string_view text, std::string_view source) {
  return Run<onnx::NodeProto>(text, source, "the node",
                              [](Parser& p, onnx::NodeProto* n) { return p.Node(n); });
}

StatusOr<onnx::TypeProto> ParseTypeText(std::string_view text, std::string_view source) {
  return Run<onnx::TypeProto>(text, source, "the type",
                              [](Parser& p, onnx::TypeProto* t) { return p.Type(t); });
}

bool LooksLikeModelText(std::string_view bytes) {
  std::string_view head = bytes.substr(0, 4096);
  for (char c : head) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
  }
  size_t i = 0;
  while (i < head.size()) {
    char c = head[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
    } else if (c == '#') {
      while (i < head.size() && head[i] != '\n') ++i;
    } else {
      break;
    }
  }
  if (i >= head.size()) return false;
  char c = head[i];
  return c == '<' || c == '"' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

}  // namespace onnx_infer::syntax
