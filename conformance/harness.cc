#include "onnx_infer/conformance/harness.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/proto/onnx_data.pb.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer::conformance {
namespace {

namespace fs = std::filesystem;

Grade Worst(Grade a, Grade b) { return static_cast<int>(a) > static_cast<int>(b) ? a : b; }

// What a test expects of one value, read from its .pb file.
struct Expected {
  Type::Kind kind = Type::Kind::kTensor;
  int32_t elem_type = 0;           // tensors; a map's key type
  std::vector<int64_t> dims;       // tensors
  bool has_value = true;           // optionals
  std::vector<Expected> elements;  // a sequence's elements; an optional's value; a map's values

  std::string ToString() const {
    switch (kind) {
      case Type::Kind::kTensor:
      case Type::Kind::kSparseTensor:
        return StrCat(DataTypeName(elem_type), "[", StrJoin(dims, ", "), "]");
      case Type::Kind::kSequence:
        return StrCat("seq of ", elements.size(),
                      elements.empty() ? "" : StrCat(" like ", elements[0].ToString()));
      case Type::Kind::kOptional:
        return has_value && !elements.empty() ? "optional(" + elements[0].ToString() + ")"
                                              : "optional(none)";
      case Type::Kind::kMap:
        return StrCat("map(", DataTypeName(elem_type), ", ",
                      elements.empty() ? "?" : elements[0].ToString(), ")");
      default:
        return "?";
    }
  }
};

template <typename Message>
bool ReadMessage(const std::string& path, Message* m) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return m->ParseFromString(buffer.str());
}

Expected FromTensor(const onnx::TensorProto& t) {
  Expected e;
  e.elem_type = t.data_type();
  e.dims.assign(t.dims().begin(), t.dims().end());
  return e;
}

Expected FromMap(const onnx::MapProto& m);
Expected FromOptional(const onnx::OptionalProto& o);

Expected FromSequence(const onnx::SequenceProto& s) {
  Expected e;
  e.kind = Type::Kind::kSequence;
  for (const auto& t : s.tensor_values()) e.elements.push_back(FromTensor(t));
  for (const auto& t : s.sparse_tensor_values()) {
    Expected el = FromTensor(t.values());
    el.kind = Type::Kind::kSparseTensor;
    el.dims.assign(t.dims().begin(), t.dims().end());
    e.elements.push_back(el);
  }
  for (const auto& q : s.sequence_values()) e.elements.push_back(FromSequence(q));
  for (const auto& m : s.map_values()) e.elements.push_back(FromMap(m));
  for (const auto& o : s.optional_values()) e.elements.push_back(FromOptional(o));
  return e;
}

Expected FromMap(const onnx::MapProto& m) {
  Expected e;
  e.kind = Type::Kind::kMap;
  e.elem_type = m.key_type();
  e.elements = FromSequence(m.values()).elements;
  return e;
}

Expected FromOptional(const onnx::OptionalProto& o) {
  Expected e;
  e.kind = Type::Kind::kOptional;
  e.has_value = true;
  if (o.has_tensor_value()) {
    e.elements.push_back(FromTensor(o.tensor_value()));
  } else if (o.has_sequence_value()) {
    e.elements.push_back(FromSequence(o.sequence_value()));
  } else if (o.has_map_value()) {
    e.elements.push_back(FromMap(o.map_value()));
  } else if (o.has_optional_value()) {
    e.elements.push_back(FromOptional(o.optional_value()));
  } else if (o.has_sparse_tensor_value()) {
    Expected el = FromTensor(o.sparse_tensor_value().values());
    el.kind = Type::Kind::kSparseTensor;
    e.elements.push_back(el);
  } else {
    e.has_value = false;
  }
  return e;
}

StatusOr<Expected> ReadExpected(const std::string& path, const onnx::TypeProto& declared) {
  bool ok = false;
  Expected e;
  switch (declared.value_case()) {
    case onnx::TypeProto::kSequenceType: {
      onnx::SequenceProto s;
      ok = ReadMessage(path, &s);
      e = FromSequence(s);
      break;
    }
    case onnx::TypeProto::kMapType: {
      onnx::MapProto m;
      ok = ReadMessage(path, &m);
      e = FromMap(m);
      break;
    }
    case onnx::TypeProto::kOptionalType: {
      onnx::OptionalProto o;
      ok = ReadMessage(path, &o);
      e = FromOptional(o);
      break;
    }
    default: {
      onnx::TensorProto t;
      ok = ReadMessage(path, &t);
      e = FromTensor(t);
      if (declared.value_case() == onnx::TypeProto::kSparseTensorType) {
        e.kind = Type::Kind::kSparseTensor;
      }
    }
  }
  if (!ok) return Status::Error(StrCat(path, ": cannot read the expected value"));
  return e;
}

Grade GradeTensor(const Type& t, const Expected& e) {
  if (t.elem_type() != 0 && t.elem_type() != e.elem_type) return Grade::kWrong;
  if (!t.has_shape()) return t.elem_type() != 0 ? Grade::kTypeOnly : Grade::kNone;
  if (t.shape().size() != e.dims.size()) return Grade::kWrong;
  bool unknown = false, symbolic = false;
  for (size_t i = 0; i < e.dims.size(); ++i) {
    Dim d = t.shape()[i];
    if (auto v = d.const_value()) {
      if (*v != e.dims[i]) return Grade::kWrong;
    } else if (d.is_unknown()) {
      unknown = true;
    } else {
      symbolic = true;
    }
  }
  if (t.elem_type() == 0 || unknown) return Grade::kRankOnly;
  return symbolic ? Grade::kSymbolic : Grade::kExact;
}

Grade GradeValue(const Type& t, const Expected& e) {
  if (t.is_unknown()) return Grade::kNone;
  if (t.kind() != e.kind) return Grade::kWrong;
  switch (e.kind) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor:
      return GradeTensor(t, e);
    case Type::Kind::kSequence: {
      if (e.elements.empty()) {
        return t.element().is_unknown() ? Grade::kTypeOnly : Grade::kExact;
      }
      Grade g = Grade::kExact;
      for (const auto& el : e.elements) g = Worst(g, GradeValue(t.element(), el));
      return g;
    }
    case Type::Kind::kOptional:
      if (!e.has_value || e.elements.empty()) {
        return t.element().is_unknown() ? Grade::kTypeOnly : Grade::kExact;
      }
      return GradeValue(t.element(), e.elements[0]);
    case Type::Kind::kMap: {
      if (t.map_key_type() != 0 && t.map_key_type() != e.elem_type) return Grade::kWrong;
      Grade g = t.map_key_type() == 0 ? Grade::kTypeOnly : Grade::kExact;
      if (e.elements.empty() && t.element().is_unknown()) g = Worst(g, Grade::kTypeOnly);
      for (const auto& el : e.elements) g = Worst(g, GradeValue(t.element(), el));
      return g;
    }
    case Type::Kind::kOpaque:
    case Type::Kind::kUnknown:
      return Grade::kNone;
  }
  return Grade::kNone;
}

// Replaces every dim that evaluates under `bindings` with its value.
Type Evaluated(const Type& t, const Bindings& bindings) {
  switch (t.kind()) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor: {
      if (!t.has_shape()) return t;
      Shape s = t.shape();
      for (Dim& d : s) {
        if (auto v = symbolic::Evaluate(d, bindings)) d = Dim::Const(*v);
      }
      Type out = t;
      out.set_shape(std::move(s));
      return out;
    }
    case Type::Kind::kSequence:
      return Type::Sequence(Evaluated(t.element(), bindings));
    case Type::Kind::kOptional:
      return Type::Optional(Evaluated(t.element(), bindings));
    case Type::Kind::kMap:
      return Type::Map(t.map_key_type(), Evaluated(t.element(), bindings));
    case Type::Kind::kUnknown:
    case Type::Kind::kOpaque:
      return t;
  }
  return t;
}

std::vector<std::string> NumberedFiles(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (int i = 0;; ++i) {
    fs::path p = dir / StrCat(prefix, i, ".pb");
    if (!fs::exists(p)) break;
    out.push_back(p.string());
  }
  return out;
}

std::string ProducerOp(const onnx::GraphProto& g) {
  if (g.output_size() == 0) return "?";
  for (const auto& n : g.node()) {
    for (const auto& o : n.output()) {
      if (o == g.output(0).name()) {
        return n.domain().empty() || n.domain() == "ai.onnx" ? n.op_type()
                                                             : n.domain() + "::" + n.op_type();
      }
    }
  }
  return "(graph input)";
}

// Counted as InferenceStats::shaped counts: typed, with every dim known.
bool FullyShaped(const Type& t) {
  return !t.is_unknown() && !(t.is_tensor() && t.elem_type() == 0) && t.IsComplete();
}

std::vector<UnshapedValue> UnshapedValues(const onnx::GraphProto& graph,
                                          const InferenceResult& inference) {
  std::vector<UnshapedValue> out;
  auto main = inference.value_types.find("main");
  if (main == inference.value_types.end()) return out;
  const GraphValueTypes& types = main->second;
  std::unordered_set<std::string> initializers;
  for (const auto& init : graph.initializer()) initializers.insert(init.name());
  auto shaped = [&](const std::string& name) {
    if (initializers.count(name)) return true;
    const Type* t = types.Find(name);
    return t && FullyShaped(*t);
  };
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < graph.node_size(); ++i) {
    for (const auto& o : graph.node(i).output()) producer.emplace(o, i);
  }
  // A node's inputs, and the names its subgraphs use (a subgraph's own values among them,
  // which are not main-graph values and so are not followed).
  std::function<void(const onnx::NodeProto&, std::vector<std::string>&)> uses =
      [&](const onnx::NodeProto& node, std::vector<std::string>& names) {
        names.insert(names.end(), node.input().begin(), node.input().end());
        for (const auto& a : node.attribute()) {
          if (a.has_g()) {
            for (const auto& n : a.g().node()) uses(n, names);
          }
          for (const auto& g : a.graphs()) {
            for (const auto& n : g.node()) uses(n, names);
          }
        }
      };
  // cause[name], found going up through unshaped inputs (memoized; a cycle stops the walk).
  std::unordered_map<std::string, std::string> cause;
  std::function<std::string(const std::string&)> find_cause = [&](const std::string& name) {
    if (auto it = cause.find(name); it != cause.end()) return it->second;
    cause[name] = name;  // provisional, so a cycle ends here
    auto p = producer.find(name);
    if (p == producer.end()) return name;  // a graph input
    std::vector<std::string> names;
    uses(graph.node(p->second), names);
    for (const auto& in : names) {
      if (!in.empty() && (producer.count(in) || types.Find(in)) && !shaped(in)) {
        return cause[name] = find_cause(in);
      }
    }
    return name;
  };
  for (const auto& node : graph.node()) {
    for (const auto& o : node.output()) {
      if (o.empty() || shaped(o)) continue;
      const Type* t = types.Find(o);
      if (!t) continue;  // not inferred (a node on a cycle): not counted either
      UnshapedValue u;
      u.name = o;
      u.op = node.domain().empty() || node.domain() == "ai.onnx"
                 ? node.op_type()
                 : node.domain() + "::" + node.op_type();
      u.type = t->ToString();
      for (const auto& in : node.input()) {
        const Type* it = in.empty() ? nullptr : types.Find(in);
        u.inputs.push_back(StrCat(in, ": ",
                                  it                       ? it->ToString()
                                  : initializers.count(in) ? "(initializer)"
                                                           : "?"));
      }
      u.cause = find_cause(o);
      out.push_back(std::move(u));
    }
  }
  return out;
}

}  // namespace

std::string_view GradeName(Grade g) {
  switch (g) {
    case Grade::kExact:
      return "exact";
    case Grade::kSymbolic:
      return "symbolic";
    case Grade::kRankOnly:
      return "rank-only";
    case Grade::kTypeOnly:
      return "type-only";
    case Grade::kNone:
      return "none";
    case Grade::kWrong:
      return "WRONG";
  }
  return "?";
}

std::string_view ModeName(Mode m) {
  switch (m) {
    case Mode::kStatic:
      return "static";
    case Mode::kSymbolic:
      return "symbolic";
    case Mode::kValues:
      return "values";
  }
  return "?";
}

std::vector<Case> FindCases(const std::string& shared_dir) {
  std::vector<Case> cases;
  const fs::path root = fs::path(shared_dir) / "conformance" / "onnx-backend";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return cases;
  for (const auto& suite : fs::directory_iterator(root)) {
    if (!suite.is_directory()) continue;
    const std::string suite_name = suite.path().filename().string();
    for (const auto& entry : fs::directory_iterator(suite.path())) {
      if (entry.is_directory() && fs::exists(entry.path() / "model.onnx")) {
        Case c;
        c.name = suite_name + "/" + entry.path().filename().string();
        c.model = (entry.path() / "model.onnx").string();
        c.inputs = NumberedFiles(entry.path() / "test_data_set_0", "input_");
        c.outputs = NumberedFiles(entry.path() / "test_data_set_0", "output_");
        cases.push_back(std::move(c));
      } else if (entry.is_regular_file() && entry.path().extension() == ".onnx") {
        // light/: <name>.onnx with <name>_output_<i>.pb beside it, and no inputs.
        Case c;
        const std::string stem = entry.path().stem().string();
        c.name = suite_name + "/" + stem;
        c.model = entry.path().string();
        c.outputs = NumberedFiles(entry.path().parent_path(), stem + "_output_");
        cases.push_back(std::move(c));
      }
    }
  }
  std::sort(cases.begin(), cases.end(),
            [](const Case& a, const Case& b) { return a.name < b.name; });
  return cases;
}

Bindings SymbolizeInputs(const Case& c, onnx::GraphProto* graph) {
  Bindings bindings;
  std::unordered_set<std::string> initialized;
  for (const auto& init : graph->initializer()) initialized.insert(init.name());
  int input_index = 0;
  for (auto& vi : *graph->mutable_input()) {
    if (initialized.count(vi.name())) continue;
    const int i = input_index++;
    if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) continue;
    // The real shape: from input_<i>.pb, or for cases without inputs the declared one.
    std::vector<int64_t> actual;
    onnx::TensorProto data;
    if (i < static_cast<int>(c.inputs.size()) && ReadMessage(c.inputs[i], &data)) {
      actual.assign(data.dims().begin(), data.dims().end());
    } else {
      for (const auto& d : vi.type().tensor_type().shape().dim()) actual.push_back(d.dim_value());
    }
    auto* shape = vi.mutable_type()->mutable_tensor_type()->mutable_shape();
    if (static_cast<size_t>(shape->dim_size()) != actual.size()) continue;
    for (int axis = 0; axis < shape->dim_size(); ++axis) {
      const std::string symbol = StrCat("d", i, "_", axis);
      shape->mutable_dim(axis)->set_dim_param(symbol);
      bindings[symbol] = actual[axis];
    }
  }
  return bindings;
}

CaseResult RunCase(const Case& c, Mode mode, const SchemaRegistry& registry) {
  CaseResult result;
  result.name = c.name;
  auto model = LoadBinaryModel(c.model);
  if (!model.ok()) {
    result.error = model.status().message();
    return result;
  }
  onnx::GraphProto* graph = model->mutable_graph();
  result.op = ProducerOp(*graph);

  std::vector<Expected> expected;
  for (int i = 0; i < graph->output_size(); ++i) {
    if (i >= static_cast<int>(c.outputs.size())) {
      result.error = StrCat("no expected value for output ", i);
      return result;
    }
    auto e = ReadExpected(c.outputs[i], graph->output(i).type());
    if (!e.ok()) {
      result.error = e.status().message();
      return result;
    }
    expected.push_back(std::move(*e));
    graph->mutable_output(i)->clear_type();
  }

  Bindings bindings;
  if (mode == Mode::kSymbolic) bindings = SymbolizeInputs(c, graph);

  InferenceOptions options;
  if (mode == Mode::kValues) {
    options.input_values = GivenInputValues(*graph, c, options.max_value_elements);
  }
  InferShapes(*model, registry, options);
  for (int i = 0; i < graph->output_size(); ++i) {
    Type inferred = TypeFromProto(graph->output(i).type());
    if (mode == Mode::kSymbolic) inferred = Evaluated(inferred, bindings);
    OutputResult out;
    out.name = graph->output(i).name();
    out.grade = GradeValue(inferred, expected[i]);
    out.inferred = inferred.ToString();
    out.expected = expected[i].ToString();
    result.outputs.push_back(std::move(out));
  }
  return result;
}

std::vector<KnownInputValue> GivenInputValues(const onnx::GraphProto& graph, const Case& c,
                                              int64_t max_elements) {
  std::vector<KnownInputValue> given;
  std::unordered_set<std::string> initialized;
  for (const auto& init : graph.initializer()) initialized.insert(init.name());
  int input_index = 0;  // test data is numbered over the inputs without an initializer
  for (const auto& vi : graph.input()) {
    if (initialized.count(vi.name())) continue;
    const int i = input_index++;
    if (i >= static_cast<int>(c.inputs.size())) break;
    if (!vi.type().has_tensor_type() || !IsIntegerDataType(vi.type().tensor_type().elem_type())) {
      continue;
    }
    onnx::TensorProto data;
    if (!ReadMessage(c.inputs[i], &data)) continue;
    int64_t elements = 1;
    for (int64_t d : data.dims()) elements *= d;
    if (elements > max_elements) continue;
    std::optional<ConstValue> value = ConstValueOfTensor(data, max_elements);
    if (!value) continue;
    KnownInputValue known;
    known.name = vi.name();
    known.value = std::move(*value);
    given.push_back(std::move(known));
  }
  return given;
}

std::vector<std::string> FindRealModels(const std::string& shared_dir) {
  std::vector<std::string> paths;
  const fs::path root = fs::path(shared_dir) / "models" / "real";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return paths;
  for (const auto& e : fs::directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".onnx") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

Grade GradeAgainstDeclared(const Type& inferred, const Type& declared) {
  if (!MergeTypes(declared, inferred).ok()) return Grade::kWrong;
  if (inferred.is_unknown()) return Grade::kNone;
  if (inferred.IsStatic()) return Grade::kExact;
  if (inferred.IsComplete()) return Grade::kSymbolic;
  if (inferred.kind() == Type::Kind::kTensor) {
    if (inferred.has_shape()) return Grade::kRankOnly;
    return inferred.elem_type() ? Grade::kTypeOnly : Grade::kNone;
  }
  return Grade::kTypeOnly;
}

RealModelResult RunRealModel(const std::string& path, const SchemaRegistry& registry) {
  RealModelResult r;
  r.name = fs::path(path).filename().string();
  auto model = LoadBinaryModel(path);
  if (!model.ok()) {
    r.error = model.status().message();
    return r;
  }
  std::vector<Type> declared;
  for (auto& out : *model->mutable_graph()->mutable_output()) {
    declared.push_back(TypeFromProto(out.type()));
    out.clear_type();
  }
  InferenceResult inference = InferShapes(*model, registry, InferenceOptions{});
  r.values = inference.stats.values;
  r.shaped = inference.stats.shaped;
  r.unshaped = UnshapedValues(model->graph(), inference);
  for (int i = 0; i < model->graph().output_size(); ++i) {
    OutputResult out;
    out.name = model->graph().output(i).name();
    Type inferred = TypeFromProto(model->graph().output(i).type());
    out.grade = GradeAgainstDeclared(inferred, declared[i]);
    out.inferred = inferred.ToString();
    out.expected = declared[i].ToString();
    r.outputs.push_back(std::move(out));
  }
  return r;
}

}  // namespace onnx_infer::conformance
