#include "onnx_infer/syntax/printer.h"

#include <charconv>
#include <initializer_list>
#include <vector>

#include "onnx_infer/syntax/lexer.h"
#include "onnx_infer/syntax/text_util.h"

namespace onnx_infer::syntax {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// True when every field set in `m` has one of the numbers in `allowed`.
bool OnlyFields(const Message& m, std::initializer_list<int> allowed) {
  std::vector<const FieldDescriptor*> fields;
  m.GetReflection()->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    bool ok = false;
    for (int n : allowed) ok = ok || f->number() == n;
    if (!ok) return false;
  }
  return true;
}

// The fields of `m` other than `native` (the ones the syntax spells), as protobuf text; ""
// when there are none. Copies only when something is left.
std::string Remainder(const Message& m, std::initializer_list<int> native) {
  if (OnlyFields(m, native)) return "";
  std::unique_ptr<Message> rest(m.New());
  rest->CopyFrom(m);
  const auto* reflection = rest->GetReflection();
  for (int n : native) {
    reflection->ClearField(rest.get(), rest->GetDescriptor()->FindFieldByNumber(n));
  }
  return ToProtoText(*rest);
}

bool ValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    unsigned char c = s[i];
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + extra >= s.size()) return false;
    for (int k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    }
    i += extra + 1;
  }
  return true;
}

template <typename F>
std::string FloatText(F v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

// A float that reads as a float on its own (`1.0`, not `1`), where the value's kind decides
// the attribute type.
template <typename F>
std::string FloatLiteral(F v) {
  std::string s = FloatText(v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

bool DimPrintable(const onnx::TensorShapeProto::Dimension& d) { return !d.has_denotation(); }

bool TypePrintable(const onnx::TypeProto& t) {
  if (t.has_denotation()) return false;
  auto shape_ok = [](const onnx::TensorShapeProto& s) {
    for (const auto& d : s.dim()) {
      if (!DimPrintable(d)) return false;
    }
    return true;
  };
  switch (t.value_case()) {
    case onnx::TypeProto::kTensorType:
      return t.tensor_type().has_elem_type() &&
             !ElemTypeName(t.tensor_type().elem_type()).empty() &&
             shape_ok(t.tensor_type().shape());
    case onnx::TypeProto::kSparseTensorType:
      return t.sparse_tensor_type().has_elem_type() &&
             !ElemTypeName(t.sparse_tensor_type().elem_type()).empty() &&
             shape_ok(t.sparse_tensor_type().shape());
    case onnx::TypeProto::kSequenceType:
      return t.sequence_type().has_elem_type() && TypePrintable(t.sequence_type().elem_type());
    case onnx::TypeProto::kOptionalType:
      return t.optional_type().has_elem_type() && TypePrintable(t.optional_type().elem_type());
    case onnx::TypeProto::kMapType:
      return t.map_type().has_key_type() && !ElemTypeName(t.map_type().key_type()).empty() &&
             t.map_type().has_value_type() && TypePrintable(t.map_type().value_type());
    case onnx::TypeProto::kOpaqueType:
      return t.opaque_type().has_name() || !t.opaque_type().has_domain();
    case onnx::TypeProto::VALUE_NOT_SET:
      return false;
  }
  return false;
}

void AppendShape(const onnx::TensorShapeProto& shape, std::string& out) {
  out += '[';
  for (int i = 0; i < shape.dim_size(); ++i) {
    if (i) out += ", ";
    const auto& d = shape.dim(i);
    if (d.has_dim_value()) {
      out += std::to_string(d.dim_value());
    } else if (d.has_dim_param()) {
      // Dim params are quotable-ids; keywords need no quotes inside brackets.
      out += IsIdentifier(d.dim_param()) ? d.dim_param() : QuoteString(d.dim_param());
    } else {
      out += '?';
    }
  }
  out += ']';
}

void AppendType(const onnx::TypeProto& t, std::string& out) {
  switch (t.value_case()) {
    case onnx::TypeProto::kTensorType:
      out += ElemTypeName(t.tensor_type().elem_type());
      if (t.tensor_type().has_shape()) AppendShape(t.tensor_type().shape(), out);
      return;
    case onnx::TypeProto::kSparseTensorType:
      out += "sparse_tensor(" + ElemTypeName(t.sparse_tensor_type().elem_type());
      if (t.sparse_tensor_type().has_shape()) AppendShape(t.sparse_tensor_type().shape(), out);
      out += ')';
      return;
    case onnx::TypeProto::kSequenceType:
      out += "seq(";
      AppendType(t.sequence_type().elem_type(), out);
      out += ')';
      return;
    case onnx::TypeProto::kOptionalType:
      out += "optional(";
      AppendType(t.optional_type().elem_type(), out);
      out += ')';
      return;
    case onnx::TypeProto::kMapType:
      out += "map(" + ElemTypeName(t.map_type().key_type()) + ", ";
      AppendType(t.map_type().value_type(), out);
      out += ')';
      return;
    case onnx::TypeProto::kOpaqueType: {
      const auto& o = t.opaque_type();
      out += "opaque(";
      if (o.has_domain()) out += QuoteIfNeeded(o.domain()) + ", ";
      if (o.has_name()) out += QuoteIfNeeded(o.name());
      out += ')';
      return;
    }
    case onnx::TypeProto::VALUE_NOT_SET:
      out += '?';
      return;
  }
}

// Whether the syntax spells `t` exactly, and how its values are written.
bool TensorPrintable(const onnx::TensorProto& t, bool needs_name) {
  if (!t.has_data_type() || ElemTypeName(t.data_type()).empty()) return false;
  if (needs_name && !t.has_name()) return false;
  if (!OnlyFields(t, {1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14})) return false;
  ValueField field = ValueFieldOf(t.data_type());
  int values = 0;
  auto count = [&](int size, ValueField f) {
    if (size == 0) return true;
    ++values;
    return f == field;
  };
  if (!count(t.float_data_size(), ValueField::kFloat) ||
      !count(t.int32_data_size(), ValueField::kInt32) ||
      !count(t.string_data_size(), ValueField::kString) ||
      !count(t.int64_data_size(), ValueField::kInt64) ||
      !count(t.double_data_size(), ValueField::kDouble) ||
      !count(t.uint64_data_size(), ValueField::kUint64)) {
    return false;
  }
  if (t.external_data_size() > 0) {
    return values == 0 && !t.has_raw_data() && t.has_data_location() &&
           t.data_location() == onnx::TensorProto::EXTERNAL;
  }
  if (t.has_data_location()) return false;
  return !(values > 0 && t.has_raw_data());
}

// Values and indices present (each printed natively or as protobuf text), nothing else.
bool SparsePrintable(const onnx::SparseTensorProto& sp) {
  return sp.has_values() && sp.has_indices() && OnlyFields(sp, {1, 2, 3});
}

void AppendStrStrList(const google::protobuf::RepeatedPtrField<onnx::StringStringEntryProto>& list,
                      std::string& out) {
  out += '[';
  for (int i = 0; i < list.size(); ++i) {
    if (i) out += ", ";
    out += QuoteString(list[i].key()) + ": " + QuoteString(list[i].value());
  }
  out += ']';
}

template <typename Range, typename F>
void AppendJoined(const Range& items, std::string& out, F each) {
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ", ";
    first = false;
    each(item);
  }
}

class Printer {
 public:
  std::string out;

  void Model(const onnx::ModelProto& m) {
    std::vector<std::string> keys;
    if (m.has_ir_version()) keys.push_back("ir_version: " + std::to_string(m.ir_version()));
    if (m.opset_import_size() > 0) keys.push_back("opset_import: " + OpsetList(m.opset_import()));
    if (m.has_producer_name()) keys.push_back("producer_name: " + QuoteString(m.producer_name()));
    if (m.has_producer_version()) {
      keys.push_back("producer_version: " + QuoteString(m.producer_version()));
    }
    if (m.has_domain()) keys.push_back("domain: " + QuoteString(m.domain()));
    if (m.has_model_version()) {
      keys.push_back("model_version: " + std::to_string(m.model_version()));
    }
    if (m.has_doc_string()) keys.push_back("doc_string: " + QuoteString(m.doc_string()));
    AddMetadata(m.metadata_props(), keys);
    AddRemainder(Remainder(m, {1, 8, 2, 3, 4, 5, 6, 7, 14, 25}), keys);
    Header(keys, /*always=*/true);
    if (m.has_graph()) {
      Graph(m.graph(), "");
      out += '\n';
    }
    for (const auto& f : m.functions()) {
      out += '\n';
      Function(f);
    }
  }

  void Function(const onnx::FunctionProto& f) {
    std::vector<std::string> keys;
    if (f.has_domain()) keys.push_back("domain: " + QuoteString(f.domain()));
    if (f.has_overload()) keys.push_back("overload: " + QuoteString(f.overload()));
    if (f.opset_import_size() > 0) keys.push_back("opset_import: " + OpsetList(f.opset_import()));
    if (f.has_doc_string()) keys.push_back("doc_string: " + QuoteString(f.doc_string()));
    AddMetadata(f.metadata_props(), keys);
    AddRemainder(Remainder(f, {1, 4, 5, 6, 11, 7, 8, 9, 10, 13, 12, 14}), keys);
    Header(keys, /*always=*/false);
    out += QuoteIfNeeded(f.name());
    if (f.attribute_size() > 0 || f.attribute_proto_size() > 0) {
      out += " <";
      bool first = true;
      for (const auto& a : f.attribute()) {
        if (!first) out += ", ";
        first = false;
        out += QuoteIfNeeded(a);
      }
      for (const auto& a : f.attribute_proto()) {
        if (!first) out += ", ";
        first = false;
        Attribute(a, "");
      }
      out += '>';
    }
    out += " (";
    AppendJoined(f.input(), out, [&](const std::string& s) { out += QuoteIfNeeded(s); });
    out += ") => (";
    AppendJoined(f.output(), out, [&](const std::string& s) { out += QuoteIfNeeded(s); });
    out += ")\n";
    if (f.value_info_size() > 0) {
      out += "<\n";
      for (int i = 0; i < f.value_info_size(); ++i) {
        out += "  ";
        ValueInfo(f.value_info(i));
        out += i + 1 < f.value_info_size() ? ",\n" : "\n";
      }
      out += ">\n";
    }
    Nodes(f.node(), "");
    out += '\n';
  }

  // Starts where the caller left the cursor; `ind` is the indent of the graph's own lines.
  void Graph(const onnx::GraphProto& g, const std::string& ind) {
    out += QuoteIfNeeded(g.name());
    std::vector<std::string> keys;
    if (g.has_doc_string()) keys.push_back("doc_string: " + QuoteString(g.doc_string()));
    AddMetadata(g.metadata_props(), keys);
    bool sparse_native = true;
    for (const auto& sp : g.sparse_initializer()) {
      sparse_native = sparse_native && SparsePrintable(sp);
    }
    if (sparse_native) {
      AddRemainder(Remainder(g, {1, 2, 5, 15, 10, 11, 12, 13, 16}), keys);
    } else {
      AddRemainder(Remainder(g, {1, 2, 5, 10, 11, 12, 13, 16}), keys);
    }
    if (!keys.empty()) {
      out += " <";
      AppendJoined(keys, out, [&](const std::string& k) { out += k; });
      out += '>';
    }
    out += " (";
    ValueInfoList(g.input());
    out += ") => (";
    ValueInfoList(g.output());
    out += ")\n";
    int entries = g.initializer_size() + g.value_info_size() +
                  (sparse_native ? g.sparse_initializer_size() : 0);
    if (entries > 0) {
      out += ind + "<\n";
      int n = 0;
      for (const auto& t : g.initializer()) {
        out += ind + "  ";
        if (TensorPrintable(t, /*needs_name=*/true)) {
          Tensor(t);
        } else {
          out += "textproto " + QuoteString(ToProtoText(t));
        }
        out += ++n < entries ? ",\n" : "\n";
      }
      for (int i = 0; sparse_native && i < g.sparse_initializer_size(); ++i) {
        out += ind + "  ";
        Sparse(g.sparse_initializer(i));
        out += ++n < entries ? ",\n" : "\n";
      }
      for (const auto& vi : g.value_info()) {
        out += ind + "  ";
        ValueInfo(vi);
        out += ++n < entries ? ",\n" : "\n";
      }
      out += ind + ">\n";
    }
    Nodes(g.node(), ind);
  }

  void Nodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
             const std::string& ind) {
    out += ind + "{\n";
    for (const auto& n : nodes) {
      out += ind + "  ";
      Node(n, ind + "  ");
      out += '\n';
    }
    out += ind + "}";
  }

  void Node(const onnx::NodeProto& n, const std::string& ind) {
    std::vector<std::string> keys;
    if (n.has_doc_string()) keys.push_back("doc_string: " + QuoteString(n.doc_string()));
    if (n.has_overload()) keys.push_back("overload: " + QuoteString(n.overload()));
    AddMetadata(n.metadata_props(), keys);
    AddRemainder(Remainder(n, {1, 2, 3, 4, 7, 8, 5, 6, 9}), keys);
    if (n.has_name() || !keys.empty()) {
      out += '[';
      if (n.has_name()) {
        out += QuoteIfNeeded(n.name());
        if (!keys.empty()) out += ", ";
      }
      AppendJoined(keys, out, [&](const std::string& k) { out += k; });
      out += "] ";
    }
    if (n.output_size() > 0) {
      AppendJoined(n.output(), out, [&](const std::string& s) { out += QuoteIfNeeded(s); });
      out += ' ';
    }
    out += "= ";
    if (n.has_domain()) {
      out += DomainText(n.domain()) + ".";
      // After a domain any identifier is the op; only non-identifiers need quotes.
      out += IsIdentifier(n.op_type()) ? n.op_type() : QuoteString(n.op_type());
    } else {
      out += IsIdentifier(n.op_type()) ? n.op_type() : QuoteString(n.op_type());
    }
    if (n.attribute_size() > 0) {
      out += " <";
      AppendJoined(n.attribute(), out, [&](const onnx::AttributeProto& a) { Attribute(a, ind); });
      out += '>';
    }
    out += n.attribute_size() > 0 ? " (" : "(";
    AppendJoined(n.input(), out, [&](const std::string& s) { out += QuoteIfNeeded(s); });
    out += ')';
  }

  void Attribute(const onnx::AttributeProto& a, const std::string& ind) {
    using A = onnx::AttributeProto;
    out += QuoteIfNeeded(a.name());
    if (!AttributePrintable(a)) {
      onnx::AttributeProto rest = a;
      rest.clear_name();
      out += ": textproto = " + QuoteString(ToProtoText(rest));
      return;
    }
    A::AttributeType type = a.type();
    bool empty_list = (type == A::FLOATS && a.floats_size() == 0) ||
                      (type == A::INTS && a.ints_size() == 0) ||
                      (type == A::STRINGS && a.strings_size() == 0) ||
                      (type == A::TENSORS && a.tensors_size() == 0) ||
                      (type == A::SPARSE_TENSORS && a.sparse_tensors_size() == 0) ||
                      (type == A::GRAPHS && a.graphs_size() == 0) ||
                      (type == A::TYPE_PROTOS && a.type_protos_size() == 0);
    if (a.has_ref_attr_name() || empty_list || type == A::TYPE_PROTO || type == A::TYPE_PROTOS) {
      out += ": " + AttributeTypeName(type);
    }
    out += " = ";
    if (a.has_ref_attr_name()) {
      out += "@" + QuoteIfNeeded(a.ref_attr_name());
      return;
    }
    std::string inner = ind + "  ";
    switch (type) {
      case A::FLOAT:
        out += FloatLiteral(a.f());
        return;
      case A::INT:
        out += std::to_string(a.i());
        return;
      case A::STRING:
        out += QuoteString(a.s());
        return;
      case A::TENSOR:
        TensorValue(a.t());
        return;
      case A::GRAPH:
        Graph(a.g(), inner);
        return;
      case A::TYPE_PROTO:
        AppendType(a.tp(), out);
        return;
      case A::SPARSE_TENSOR:
        Sparse(a.sparse_tensor());
        return;
      case A::SPARSE_TENSORS:
        out += '[';
        AppendJoined(a.sparse_tensors(), out,
                     [&](const onnx::SparseTensorProto& sp) { Sparse(sp); });
        out += ']';
        return;
      case A::FLOATS:
        out += '[';
        AppendJoined(a.floats(), out, [&](float f) { out += FloatLiteral(f); });
        out += ']';
        return;
      case A::INTS:
        out += '[';
        AppendJoined(a.ints(), out, [&](int64_t i) { out += std::to_string(i); });
        out += ']';
        return;
      case A::STRINGS:
        out += '[';
        AppendJoined(a.strings(), out, [&](const std::string& s) { out += QuoteString(s); });
        out += ']';
        return;
      case A::TENSORS:
        out += '[';
        AppendJoined(a.tensors(), out, [&](const onnx::TensorProto& t) { TensorValue(t); });
        out += ']';
        return;
      case A::GRAPHS:
        out += '[';
        AppendJoined(a.graphs(), out, [&](const onnx::GraphProto& g) { Graph(g, inner); });
        out += ']';
        return;
      case A::TYPE_PROTOS:
        out += '[';
        AppendJoined(a.type_protos(), out, [&](const onnx::TypeProto& t) { AppendType(t, out); });
        out += ']';
        return;
      default:
        return;  // AttributePrintable excludes the rest
    }
  }

  void ValueInfo(const onnx::ValueInfoProto& vi) {
    bool typed = vi.has_type() && TypePrintable(vi.type());
    if (typed) {
      AppendType(vi.type(), out);
      out += ' ';
    }
    out += QuoteIfNeeded(vi.name());
    std::vector<std::string> keys;
    if (vi.has_doc_string()) keys.push_back("doc_string: " + QuoteString(vi.doc_string()));
    AddMetadata(vi.metadata_props(), keys);
    if (typed) {
      AddRemainder(Remainder(vi, {1, 2, 3, 4}), keys);
    } else {
      AddRemainder(Remainder(vi, {1, 3, 4}), keys);
    }
    if (!keys.empty()) {
      out += " <";
      AppendJoined(keys, out, [&](const std::string& k) { out += k; });
      out += '>';
    }
  }

  // A tensor written where a value is expected: natively or as protobuf text.
  void TensorValue(const onnx::TensorProto& t) {
    if (TensorPrintable(t, /*needs_name=*/false)) {
      Tensor(t);
    } else {
      out += "textproto " + QuoteString(ToProtoText(t));
    }
  }

  // `sparse_tensor[3, 4] {VALUES, INDICES}`; SparsePrintable says when it is exact.
  void Sparse(const onnx::SparseTensorProto& sp) {
    out += "sparse_tensor[";
    AppendJoined(sp.dims(), out, [&](int64_t d) { out += std::to_string(d); });
    out += "] {";
    TensorValue(sp.values());
    out += ", ";
    TensorValue(sp.indices());
    out += '}';
  }

  void Tensor(const onnx::TensorProto& t) {
    out += ElemTypeName(t.data_type()) + "[";
    AppendJoined(t.dims(), out, [&](int64_t d) { out += std::to_string(d); });
    out += "] ";
    if (t.has_name()) out += QuoteIfNeeded(t.name()) + " = ";
    if (t.external_data_size() > 0) {
      AppendStrStrList(t.external_data(), out);
      return;
    }
    if (t.has_raw_data()) {
      out += "raw \"" + Base64Encode(t.raw_data()) + '"';
      return;
    }
    out += '{';
    switch (ValueFieldOf(t.data_type())) {
      case ValueField::kFloat:
        AppendJoined(t.float_data(), out, [&](float f) { out += FloatText(f); });
        break;
      case ValueField::kInt32:
        AppendJoined(t.int32_data(), out, [&](int32_t i) { out += std::to_string(i); });
        break;
      case ValueField::kString:
        AppendJoined(t.string_data(), out, [&](const std::string& s) { out += QuoteString(s); });
        break;
      case ValueField::kInt64:
        AppendJoined(t.int64_data(), out, [&](int64_t i) { out += std::to_string(i); });
        break;
      case ValueField::kDouble:
        AppendJoined(t.double_data(), out, [&](double d) { out += FloatText(d); });
        break;
      case ValueField::kUint64:
        AppendJoined(t.uint64_data(), out, [&](uint64_t u) { out += std::to_string(u); });
        break;
    }
    out += '}';
  }

 private:
  static bool AttributePrintable(const onnx::AttributeProto& a) {
    using A = onnx::AttributeProto;
    if (!a.has_name() || !a.has_type()) return false;
    if (a.has_ref_attr_name()) {
      return !AttributeTypeName(a.type()).empty() && OnlyFields(a, {1, 20, 21});
    }
    switch (a.type()) {
      case A::FLOAT:
        return a.has_f() && OnlyFields(a, {1, 20, 2});
      case A::INT:
        return a.has_i() && OnlyFields(a, {1, 20, 3});
      case A::STRING:
        return a.has_s() && OnlyFields(a, {1, 20, 4});
      case A::TENSOR:
        return a.has_t() && OnlyFields(a, {1, 20, 5});
      case A::GRAPH:
        return a.has_g() && OnlyFields(a, {1, 20, 6});
      case A::TYPE_PROTO:
        return a.has_tp() && TypePrintable(a.tp()) && OnlyFields(a, {1, 20, 14});
      case A::SPARSE_TENSOR:
        return a.has_sparse_tensor() && SparsePrintable(a.sparse_tensor()) &&
               OnlyFields(a, {1, 20, 22});
      case A::SPARSE_TENSORS:
        for (const auto& sp : a.sparse_tensors()) {
          if (!SparsePrintable(sp)) return false;
        }
        return OnlyFields(a, {1, 20, 23});
      case A::FLOATS:
        return OnlyFields(a, {1, 20, 7});
      case A::INTS:
        return OnlyFields(a, {1, 20, 8});
      case A::STRINGS:
        return OnlyFields(a, {1, 20, 9});
      case A::TENSORS:
        return OnlyFields(a, {1, 20, 10});
      case A::GRAPHS:
        return OnlyFields(a, {1, 20, 11});
      case A::TYPE_PROTOS:
        for (const auto& t : a.type_protos()) {
          if (!TypePrintable(t)) return false;
        }
        return OnlyFields(a, {1, 20, 15});
      default:
        return false;
    }
  }

  static std::string DomainText(const std::string& domain) {
    if (domain.empty()) return "\"\"";
    size_t start = 0;
    while (true) {
      size_t dot = domain.find('.', start);
      std::string_view part = std::string_view(domain).substr(start, dot - start);
      if (!IsIdentifier(part)) return QuoteString(domain);
      if (dot == std::string::npos) return domain;
      start = dot + 1;
    }
  }

  static std::string OpsetList(
      const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& opsets) {
    std::string s = "[";
    AppendJoined(opsets, s, [&](const onnx::OperatorSetIdProto& o) {
      if (o.has_domain()) s += QuoteString(o.domain()) + " : ";
      s += o.has_version() ? std::to_string(o.version()) : "?";
    });
    return s + "]";
  }

  static void AddMetadata(
      const google::protobuf::RepeatedPtrField<onnx::StringStringEntryProto>& props,
      std::vector<std::string>& keys) {
    if (props.empty()) return;
    std::string s = "metadata_props: ";
    AppendStrStrList(props, s);
    keys.push_back(std::move(s));
  }

  static void AddRemainder(const std::string& rest, std::vector<std::string>& keys) {
    if (!rest.empty()) keys.push_back("textproto: " + QuoteString(rest));
  }

  void Header(const std::vector<std::string>& keys, bool always) {
    if (keys.empty()) {
      if (always) out += "<>\n";
      return;
    }
    out += "<\n";
    for (size_t i = 0; i < keys.size(); ++i) {
      out += "  " + keys[i] + (i + 1 < keys.size() ? ",\n" : "\n");
    }
    out += ">\n";
  }

  void ValueInfoList(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& list) {
    AppendJoined(list, out, [&](const onnx::ValueInfoProto& vi) { ValueInfo(vi); });
  }
};

}  // namespace

std::string QuoteString(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  bool utf8 = ValidUtf8(s);
  std::string out = "\"";
  out.reserve(s.size() + 2);
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\r':
        out += "\\r";
        continue;
      default:
        break;
    }
    if (u < 0x20 || u == 0x7f || (u >= 0x80 && !utf8)) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string QuoteIfNeeded(std::string_view s) {
  if (IsIdentifier(s) && !IsKeyword(s)) return std::string(s);
  return QuoteString(s);
}

std::string PrintModelText(const onnx::ModelProto& model) {
  Printer p;
  p.Model(model);
  return std::move(p.out);
}

std::string PrintNodeText(const onnx::NodeProto& node) {
  Printer p;
  p.Node(node, "");
  return std::move(p.out);
}

std::string PrintTypeText(const onnx::TypeProto& type) {
  std::string out;
  AppendType(type, out);
  return out;
}

}  // namespace onnx_infer::syntax
