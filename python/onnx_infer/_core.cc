// onnx_infer._core: the extension module under the Python package (python/onnx_infer/). It
// translates between Python and the library: model bytes and paths in, the library's
// InferShapes / InferNodeOutputsByName, bytes, diagnostics and plain tuples out. Types cross
// as nested tuples (see TypeToPy); the Python layer (__init__.py, _types.py) wraps them in
// ValueType objects, turns diagnostics into InferenceError and ModelProtos into bytes.
// Nothing here knows about the `onnx` package: its messages cross as serialized bytes.
//
// The registry: the built-in one, or a copy extended by register_schemas / register_rule.
// Each call takes a reference to the registry current when it starts, so a registration on
// another thread never changes a run under way.
#include <google/protobuf/arena.h>
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/cli/contract_cli.h"
#include "onnx_infer/inference/cost.h"
#include "onnx_infer/inference/explain.h"
#include "onnx_infer/inference/infer_node.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/lint.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/inference/memory.h"
#include "onnx_infer/inference/session.h"
#include "onnx_infer/inference/specialize.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/custom_schemas.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/diagnostic.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/symbolic/parse.h"

namespace py = pybind11;

namespace onnx_infer {
namespace {

// ---- Strings and paths crossing into Python.

// Text from a model (names, dim_params, op types, and messages and facts that quote them) may
// be any bytes, but a Python str holds only Unicode: every such string crosses through Str,
// which turns each invalid UTF-8 sequence into U+FFFD, as the CLI's JSON report does, rather
// than let pybind11's strict decoding raise UnicodeDecodeError from a result.
py::str Str(std::string_view text) {
  PyObject* s = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

py::list StrList(const std::vector<std::string>& texts) {
  py::list l;
  for (const auto& t : texts) l.append(Str(t));
  return l;
}

// ValueError with a message that may quote model text (py::value_error would decode it
// strictly, and lose it on a byte that is not UTF-8).
[[noreturn]] void ThrowValueError(std::string_view message) {
  PyErr_SetObject(PyExc_ValueError, Str(message).ptr());
  throw py::error_already_set();
}

// A path is handed to the system as a C string, which ends at the first NUL: "d/victim\0.onnx"
// would name d/victim. Refused as Python's open() refuses it.
void CheckPath(const std::string& path, const char* what) {
  if (path.find('\0') != std::string::npos) {
    throw py::value_error(StrCat(what, ": embedded null byte"));
  }
}

// A model passed as bytes (the Python API's ModelProto or bytes); without the GIL.
StatusOr<onnx::ModelProto> ParseBytes(const std::string& bytes) {
  onnx::ModelProto m;
  if (!m.ParseFromString(bytes)) return Status::Error("<bytes>: not a valid ONNX model");
  return m;
}

// ---- The registry every call uses.

std::mutex registry_mutex;
// Leaked on purpose: registries may hold Python callables, which must not be destroyed after
// the interpreter is gone.
auto* registry = new std::shared_ptr<const SchemaRegistry>();

std::shared_ptr<const SchemaRegistry> CurrentRegistry() {
  std::lock_guard<std::mutex> lock(registry_mutex);
  if (!*registry) {
    if (Status st = BuiltinSchemasStatus(); !st.ok()) {
      throw std::runtime_error("onnx_infer: the built-in schemas failed to load: " + st.message());
    }
    // Not owned: the built-in registry lives as long as the process.
    *registry =
        std::shared_ptr<const SchemaRegistry>(&BuiltinSchemas(), [](const SchemaRegistry*) {});
  }
  return *registry;
}

// Applies `change` to a copy of the current registry and makes the copy current; nothing
// changes when it fails.
void ChangeRegistry(const std::function<Status(SchemaRegistry&)>& change) {
  auto base = CurrentRegistry();
  auto next = std::make_shared<SchemaRegistry>(*base);
  if (Status st = change(*next); !st.ok()) ThrowValueError(st.message());
  std::lock_guard<std::mutex> lock(registry_mutex);
  *registry = std::move(next);
}

// Loads a JSON schema document into `target`, replacing operator versions it already has
// (registering again is how a notebook re-runs a cell); `rule`, when given, becomes the rule
// of domain::name-since_version.
Status LoadReplacing(SchemaRegistry& target, const std::string& text, const std::string& source,
                     const InferenceRule* rule = nullptr, const std::string& domain = "",
                     const std::string& name = "", int since_version = 0) {
  SchemaRegistry loaded;
  OI_RETURN_IF_ERROR(LoadCustomSchemas(text, source, loaded));
  if (rule) OI_RETURN_IF_ERROR(loaded.AttachRule(domain, name, {since_version}, *rule));
  for (const OpSchema* schema : loaded.All()) {
    OI_RETURN_IF_ERROR(target.RegisterOrReplace(*schema));
  }
  return OkStatus();
}

// The current registry, extended by per-call JSON schemas (text, source name) when given.
std::shared_ptr<const SchemaRegistry> RegistryFor(
    const std::vector<std::pair<std::string, std::string>>& schemas) {
  auto base = CurrentRegistry();
  if (schemas.empty()) return base;
  auto extended = std::make_shared<SchemaRegistry>(*base);
  for (const auto& [text, source] : schemas) {
    if (Status st = LoadCustomSchemas(text, source, *extended); !st.ok()) {
      ThrowValueError(st.message());
    }
  }
  return extended;
}

// ---- Types as Python tuples:
//   None                                        unknown
//   ("tensor" | "sparse_tensor", elem_type, dims or None, text)
//   ("sequence" | "optional", element, text)
//   ("map", key_elem_type, value, text)
//   ("opaque", domain, name, text)
// dims: a tuple of int (a number), str (a symbol or expression, "N + 5") or None (unknown).

py::object DimToPy(const Dim& d) {
  if (d.is_unknown()) return py::none();
  if (auto v = d.const_value()) return py::int_(*v);
  return Str(d.ToString());
}

py::object TypeToPy(const Type& t) {
  const py::str text = Str(t.ToString());
  switch (t.kind()) {
    case Type::Kind::kUnknown:
      return py::none();
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor: {
      py::object dims = py::none();
      if (t.has_shape()) {
        py::tuple tuple(t.shape().size());
        for (size_t i = 0; i < t.shape().size(); ++i) tuple[i] = DimToPy(t.shape()[i]);
        dims = tuple;
      }
      return py::make_tuple(t.kind() == Type::Kind::kTensor ? "tensor" : "sparse_tensor",
                            t.elem_type(), dims, text);
    }
    case Type::Kind::kSequence:
      return py::make_tuple("sequence", TypeToPy(t.element()), text);
    case Type::Kind::kOptional:
      return py::make_tuple("optional", TypeToPy(t.element()), text);
    case Type::Kind::kMap:
      return py::make_tuple("map", t.map_key_type(), TypeToPy(t.element()), text);
    case Type::Kind::kOpaque:
      return py::make_tuple("opaque", Str(t.opaque_domain()), Str(t.opaque_name()), text);
  }
  return py::none();
}

StatusOr<Dim> DimFromPy(py::handle h) {
  if (h.is_none()) return Dim();
  if (py::isinstance<py::bool_>(h)) return Status::Error("a dim must be an int, a str or None");
  if (py::isinstance<py::int_>(h)) {
    const int64_t v = h.cast<int64_t>();
    if (v < 0) return Status::Error(StrCat("a dim must not be negative, got ", v));
    return Dim::Const(v);
  }
  if (py::isinstance<py::str>(h)) {
    const std::string s = h.cast<std::string>();
    if (s.empty()) return Status::Error("a dim must not be an empty string");
    return DimFromParam(s);
  }
  return Status::Error(StrCat("a dim must be an int, a str or None, got ",
                              std::string(py::str(h.get_type().attr("__name__")))));
}

// The inverse of TypeToPy (the text is ignored and may be left out).
StatusOr<Type> TypeFromPy(py::handle h) {
  if (h.is_none()) return Type();
  if (!py::isinstance<py::tuple>(h) || py::len(h) < 2) {
    return Status::Error("expected a type tuple");
  }
  auto tuple = h.cast<py::tuple>();
  const std::string kind = tuple[0].cast<std::string>();
  if (kind == "tensor" || kind == "sparse_tensor") {
    const int32_t elem = tuple[1].cast<int32_t>();
    std::optional<Shape> shape;
    if (py::len(tuple) > 2 && !tuple[2].is_none()) {
      Shape dims;
      for (py::handle d : tuple[2]) {
        OI_ASSIGN_OR_RETURN(Dim dim, DimFromPy(d));
        dims.push_back(dim);
      }
      shape = std::move(dims);
    }
    return kind == "tensor" ? Type::Tensor(elem, std::move(shape))
                            : Type::SparseTensor(elem, std::move(shape));
  }
  if (kind == "sequence" || kind == "optional") {
    OI_ASSIGN_OR_RETURN(Type element, TypeFromPy(tuple[1]));
    return kind == "sequence" ? Type::Sequence(element) : Type::Optional(element);
  }
  if (kind == "map" && py::len(tuple) > 2) {
    OI_ASSIGN_OR_RETURN(Type value, TypeFromPy(tuple[2]));
    return Type::Map(tuple[1].cast<int32_t>(), value);
  }
  return Status::Error(StrCat("unknown type kind '", kind, "'"));
}

// An attribute's value: int, float, str (bytes when not UTF-8), lists of them, and for the
// kinds Python sees as messages (tensor, graph, ...) ("tensor", serialized bytes) and alike.
py::object AttrToPy(const onnx::AttributeProto& a) {
  auto str = [](const std::string& s) -> py::object {
    PyObject* u = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
    if (u) return py::reinterpret_steal<py::object>(u);
    PyErr_Clear();
    return py::bytes(s);
  };
  auto message = [](const char* kind, const google::protobuf::MessageLite& m) {
    return py::make_tuple(kind, py::bytes(m.SerializeAsString()));
  };
  using A = onnx::AttributeProto;
  switch (a.type()) {
    case A::INT:
      return py::int_(a.i());
    case A::FLOAT:
      return py::float_(a.f());
    case A::STRING:
      return str(a.s());
    case A::INTS:
      return py::cast(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    case A::FLOATS:
      return py::cast(std::vector<float>(a.floats().begin(), a.floats().end()));
    case A::STRINGS: {
      py::list l;
      for (const auto& s : a.strings()) l.append(str(s));
      return std::move(l);
    }
    case A::TENSOR:
      return message("tensor", a.t());
    case A::SPARSE_TENSOR:
      return message("sparse_tensor", a.sparse_tensor());
    case A::GRAPH:
      return message("graph", a.g());
    case A::TYPE_PROTO:
      return message("type_proto", a.tp());
    default: {
      py::list l;  // TENSORS, GRAPHS, SPARSE_TENSORS, TYPE_PROTOS
      for (const auto& t : a.tensors()) l.append(message("tensor", t));
      for (const auto& g : a.graphs()) l.append(message("graph", g));
      for (const auto& t : a.sparse_tensors()) l.append(message("sparse_tensor", t));
      for (const auto& t : a.type_protos()) l.append(message("type_proto", t));
      return std::move(l);
    }
  }
}

// A rule written in Python: `fn(input_types, attributes, num_outputs)` returns one type tuple
// (or None) per output. The GIL is taken for the call; the callable is released under the GIL.
InferenceRule PythonRule(py::function fn) {
  std::shared_ptr<py::function> held(new py::function(std::move(fn)), [](py::function* f) {
    py::gil_scoped_acquire gil;
    delete f;
  });
  return [held](InferenceContext& ctx) -> Status {
    py::gil_scoped_acquire gil;
    try {
      py::list inputs;
      for (int i = 0; i < ctx.NumInputs(); ++i) {
        inputs.append(ctx.HasInput(i) ? TypeToPy(ctx.InputType(i)) : py::none());
      }
      py::dict attrs;
      for (const auto& a : ctx.node().attribute()) attrs[Str(a.name())] = AttrToPy(a);
      py::object result = (*held)(inputs, attrs, ctx.NumOutputs());
      if (result.is_none()) return OkStatus();
      py::sequence outs = result.cast<py::sequence>();
      if (static_cast<int>(py::len(outs)) > ctx.NumOutputs()) {
        return Status::Error(StrCat("the Python rule returned ", py::len(outs),
                                    " types for a node with ", ctx.NumOutputs(), " outputs"));
      }
      for (int i = 0; i < static_cast<int>(py::len(outs)); ++i) {
        auto type = TypeFromPy(outs[i]);
        if (!type.ok()) {
          return Status::Error(
              StrCat("the Python rule's output ", i, ": ", type.status().message()));
        }
        if (ctx.HasOutput(i) && !type->is_unknown()) ctx.SetOutputType(i, *type);
      }
      return OkStatus();
    } catch (py::error_already_set& e) {
      // The exception's type and message; the traceback would make a diagnostic of many
      // lines.
      return Status::Error(StrCat("the Python rule raised ",
                                  std::string(py::str(e.type().attr("__name__"))), ": ",
                                  std::string(py::str(e.value()))));
    } catch (const py::cast_error& e) {
      return Status::Error(
          StrCat("the Python rule returned something else than a list of "
                 "types: ",
                 e.what()));
    }
  };
}

// ---- Inference.

// A known input value from Python: (name, integer elements, real elements, dims, fit_dims),
// as KnownInputValue takes it; reals when any element is not an integer, dims ignored when
// fit_dims.
using PyInputValue =
    std::tuple<std::string, std::vector<int64_t>, std::vector<double>, std::vector<int64_t>, bool>;

struct CallOptions {
  bool strict = false;
  bool data_propagation = true;
  int64_t max_value_elements = 1024;
  int64_t max_expanded_nodes = InferenceOptions().max_expanded_nodes;
  std::vector<std::pair<std::string, std::string>> schemas;  // (JSON text, source name)
  std::vector<std::string> assumptions;                      // "S >= 2"
  bool assume_positive = false;
  bool check_types = true;
  bool overridable_initializers = false;
  // What a contradicted declaration becomes: "inferred", "refine", "override" or "strict"
  // (InferenceOptions::declared_policy; with "strict", infer_file writes nothing then).
  std::string policy = "inferred";
  // infer_file writes nothing when an inferred type contradicts a declared one (the caller
  // raises, as onnx's default mode does).
  bool raise_on_contradiction = false;
  // Specialization (InferenceOptions): symbol values, input shapes (dims as text), input
  // values, and values as serialized TensorProtos (name, bytes).
  std::map<std::string, int64_t> bind;
  std::map<std::string, std::vector<std::string>> input_shapes;
  std::vector<PyInputValue> input_values;
  std::vector<std::pair<std::string, py::bytes>> input_tensors;
  bool memory = false;  // add the memory estimate to the details
  bool cost = false;    // add the cost estimate to the details
  bool lint = false;    // add the lint findings to the details (inference/lint.h)
};

// The options of a call; the input tensors are parsed while the GIL is held.
InferenceOptions OptionsFor(const CallOptions& call, std::string model_dir) {
  InferenceOptions options;
  options.strict = call.strict;
  if (auto policy = ParseDeclaredPolicy(call.policy)) options.declared_policy = *policy;
  options.data_propagation = call.data_propagation;
  options.max_value_elements = call.max_value_elements;
  options.max_expanded_nodes = call.max_expanded_nodes;
  options.assumptions = call.assumptions;
  options.assume_positive = call.assume_positive;
  options.check_types = call.check_types;
  options.overridable_initializers = call.overridable_initializers;
  options.model_dir = std::move(model_dir);
  options.bind.insert(call.bind.begin(), call.bind.end());
  options.input_shapes.insert(call.input_shapes.begin(), call.input_shapes.end());
  for (const auto& [name, ints, reals, dims, fit] : call.input_values) {
    KnownInputValue v;
    v.name = name;
    v.fit_dims = fit;
    v.value.dims = dims;
    for (int64_t i : ints) v.value.ints.push_back(Dim::Const(i));
    v.value.reals = reals;
    options.input_values.push_back(std::move(v));
  }
  for (const auto& [name, bytes] : call.input_tensors) {
    onnx::TensorProto tensor;
    const std::string data = bytes;
    if (!tensor.ParseFromString(data)) {
      throw py::value_error(StrCat("input value for '", name, "': not a serialized TensorProto"));
    }
    auto value = ConstValueOfTensor(tensor, call.max_value_elements);
    if (!value) {
      throw py::value_error(StrCat("input value for '", name,
                                   "': the tensor's elements cannot "
                                   "be read (a type other than numbers or bool, external data, "
                                   "or more than max_value_elements)"));
    }
    KnownInputValue v;
    v.name = name;
    v.value = std::move(*value);
    options.input_values.push_back(std::move(v));
  }
  return options;
}

py::object BytesToPy(const Dim& d) { return d.is_unknown() ? py::none() : DimToPy(d); }

// The memory estimate as a dict (bytes as int, expression text, or None when unknown).
py::dict MemoryToPy(const MemoryEstimate& m) {
  py::dict d;
  py::dict values;
  for (const auto& v : m.values) {
    py::str path = Str(v.graph);
    if (!values.contains(path)) values[path] = py::dict();
    values[path][Str(v.name)] = BytesToPy(v.bytes);
  }
  d["values"] = values;
  d["weight_bytes"] = BytesToPy(m.weight_bytes);
  d["weights"] = m.weights;
  d["weights_of_unknown_size"] = m.weights_unknown_size;
  py::list steps;
  for (const auto& s : m.steps) {
    steps.append(py::make_tuple(s.node_index, Str(s.node_name), Str(s.op_type),
                                BytesToPy(s.live_bytes), s.unknown_values));
  }
  d["steps"] = steps;
  d["peak_bytes"] = BytesToPy(m.peak_bytes);
  d["peak_decided"] = m.peak_decided;
  py::list peak_nodes;
  for (int k : m.peak_steps) peak_nodes.append(m.steps[k].node_index);
  d["peak_nodes"] = peak_nodes;
  d["activations_of_unknown_size"] = m.unknown_activations;
  return d;
}

// The cost estimate as a dict (counts as int, expression text, or None when unknown).
py::dict CostToPy(const CostEstimate& c) {
  py::dict d;
  py::list nodes;
  for (const auto& n : c.nodes) {
    const std::string op =
        n.domain.empty() || n.domain == "ai.onnx" ? n.op_type : StrCat(n.domain, "::", n.op_type);
    nodes.append(py::make_tuple(Str(n.graph), n.node_index, Str(n.node_name), Str(op),
                                CostKindName(n.kind), BytesToPy(n.flops), BytesToPy(n.macs),
                                n.lower_bound, n.per_iteration, Str(n.note)));
  }
  d["nodes"] = nodes;
  d["total_flops"] = BytesToPy(c.total_flops);
  d["total_macs"] = BytesToPy(c.total_macs);
  py::dict ops;
  for (const auto& [op, k] : c.ops_without_formula) ops[Str(op)] = k;
  d["ops_without_formula"] = ops;
  d["nodes_without_formula"] = c.nodes_without_formula;
  d["nodes_unknown_shape"] = c.nodes_unknown_shape;
  d["lower_bound"] = c.lower_bound;
  d["per_iteration_loops"] = c.per_iteration_loops;
  return d;
}

// What a run gives Python besides the model: diagnostics, and with `details` the types by
// graph path, the symbols, facts, conditions and statistics.
struct RunOutput {
  std::vector<Diagnostic> diagnostics;
  std::shared_ptr<InferenceResult> result;           // with `details`
  std::optional<MemoryEstimate> memory;              // with CallOptions::memory
  std::shared_ptr<CostEstimate> cost;                // with CallOptions::cost
  std::optional<std::vector<LintFinding>> findings;  // with CallOptions::lint
};

py::dict Details(const InferenceResult& r) {
  py::dict d;
  py::dict values;
  for (const auto& [path, graph] : r.value_types) {
    py::dict g;
    for (const auto* names : {&graph.inputs, &graph.values, &graph.outputs}) {
      for (const auto& name : *names) {
        if (const Type* t = graph.Find(name)) g[Str(name)] = TypeToPy(*t);
      }
    }
    values[Str(path)] = g;
  }
  d["values"] = values;
  // InferenceResult.value_report: the --json report's "values" section.
  py::list report;
  for (const ValueReport& v : ReportValues(r.value_types)) {
    py::dict e;
    e["graph"] = Str(v.graph);
    e["name"] = Str(v.name);
    e["role"] = v.role;
    e["type"] = TypeToPy(v.type);
    e["known"] = v.known;
    e["symbols"] = StrList(v.symbols);
    e["declared"] = v.declared ? TypeToPy(*v.declared) : py::none();
    e["inferred"] = v.inferred ? TypeToPy(*v.inferred) : py::none();
    e["agreement"] = v.agreement;
    e["contradiction"] =
        v.contradiction.empty() ? py::object(py::none()) : py::object(Str(v.contradiction));
    report.append(e);
  }
  d["value_report"] = report;
  py::list symbols;
  for (const auto& s : r.symbols) {
    symbols.append(py::make_tuple(Str(s.name), s.declared, Str(s.origin)));
  }
  d["symbols"] = symbols;
  d["facts"] = StrList(r.facts);
  d["conditions"] = StrList(r.conditions);
  py::list bounds;
  for (const auto& b : r.bounds) {
    py::dict j;
    j["symbol"] = Str(b.symbol);
    j["min"] = b.lo;
    j["max"] = b.hi ? py::object(py::int_(*b.hi)) : py::object(py::none());
    py::list assumed;
    if (b.lo_assumed) assumed.append("min");
    if (b.hi_assumed) assumed.append("max");
    j["assumed"] = assumed;
    j["origins"] = StrList(b.origins);
    bounds.append(j);
  }
  d["bounds"] = bounds;
  d["relations"] = StrList(r.relations);
  const InferenceStats& s = r.stats;
  py::dict stats;
  stats["nodes"] = s.nodes;
  stats["values"] = s.values;
  stats["typed"] = s.typed;
  stats["shaped"] = s.shaped;
  stats["static_shaped"] = s.static_shaped;
  stats["symbolic"] = s.symbolic;
  stats["partial"] = s.partial;
  stats["type_only"] = s.type_only;
  stats["unknown"] = s.unknown;
  stats["nodes_without_rule"] = s.nodes_without_rule;
  d["stats"] = stats;
  return d;
}

py::object Finish(RunOutput& out, bool details) {
  if (!details) return py::cast(std::move(out.diagnostics));
  py::dict d = Details(*out.result);
  d["diagnostics"] = py::cast(std::move(out.diagnostics));
  d["memory"] = out.memory ? py::object(MemoryToPy(*out.memory)) : py::none();
  if (out.cost) {
    py::dict cost = CostToPy(*out.cost);
    cost["estimate"] = py::cast(out.cost);  // evaluated in C++ (CostEstimate.evaluate)
    d["cost"] = cost;
  } else {
    d["cost"] = py::none();
  }
  // The --json report's "findings" section: one dict per finding (docs/lint.md).
  if (out.findings) {
    py::list findings;
    for (const LintFinding& f : *out.findings) {
      py::dict j;
      j["id"] = f.id;
      j["severity"] = std::string(SeverityName(f.severity));
      j["graph"] = Str(f.graph);
      j["node_index"] = f.node_index >= 0 ? py::object(py::int_(f.node_index)) : py::none();
      j["node_name"] = Str(f.node_name);
      j["op"] = Str(f.op);
      j["subject"] = Str(f.subject);
      j["message"] = Str(f.message);
      j["pattern"] = Str(f.pattern);
      j["fix"] = Str(f.fix);
      findings.append(j);
    }
    d["findings"] = findings;
  } else {
    d["findings"] = py::none();
  }
  return std::move(d);
}

// infer_bytes(model, options, details) -> (annotated bytes, diagnostics or details dict)
// A symbol context for a call that keeps nothing of its result (infer_bytes without details):
// this thread's last one, reused while no result holds it and it is small. Making a context
// is a sizeable part of a call on a small model; one shared by calls grows with the distinct
// dims of all of them, so past kMaxSpareNodes a new one replaces it. Results do not depend on
// what a context holds (interning is canonical, names are the run's own).
std::shared_ptr<symbolic::SymbolContext> SpareContext() {
  constexpr size_t kMaxSpareNodes = 1 << 16;
  thread_local std::shared_ptr<symbolic::SymbolContext> spare;
  if (!spare || spare.use_count() > 1 || spare->node_count() > kMaxSpareNodes) {
    spare = std::make_shared<symbolic::SymbolContext>();
  }
  return spare;
}

// The call's cost beside onnx's own infer_shapes (bench/python_dropin.py): the caller's bytes
// are parsed in place (a bytes object is immutable, and the caller holds it for the call), the
// model lives on an arena (its messages allocated and freed in blocks), and the result is
// serialized straight into the bytes object returned.
py::tuple InferBytes(const py::bytes& model_bytes, const CallOptions& call, bool details) {
  char* data = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_AsStringAndSize(model_bytes.ptr(), &data, &size) != 0) throw py::error_already_set();
  const std::string_view bytes(data, static_cast<size_t>(size));
  auto registry = RegistryFor(call.schemas);
  InferenceOptions options = OptionsFor(call, "");
  if (!details) options.symbol_context = SpareContext();
  google::protobuf::Arena arena;
  onnx::ModelProto* model = nullptr;
  size_t annotated_size = 0;
  RunOutput out;
  std::string error;
  {
    py::gil_scoped_release release;
    StatusOr<onnx::ModelProto*> parsed = ParseModel(bytes, "<bytes>", &arena);
    if (!parsed.ok()) {
      error = parsed.status().message();
    } else if (Status st = CheckSpecialization(**parsed, options); !st.ok()) {
      error = st.message();
    } else {
      model = *parsed;
      auto result = std::make_shared<InferenceResult>(InferShapes(*model, *registry, options));
      out.diagnostics = result->diagnostics;
      if (call.memory) out.memory = EstimateMemory(*model, *result);
      if (call.cost) out.cost = std::make_shared<CostEstimate>(EstimateCost(*model, *result));
      if (call.lint) out.findings = Lint(*model, *result);
      out.result = std::move(result);
      annotated_size = model->ByteSizeLong();
      if (annotated_size > static_cast<size_t>(INT_MAX)) {
        error = "<bytes>: the annotated model cannot be serialized (larger than 2 GiB)";
      }
    }
  }
  if (!error.empty()) ThrowValueError(error);
  py::bytes annotated = py::reinterpret_steal<py::bytes>(
      PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(annotated_size)));
  if (!annotated) throw py::error_already_set();
  {
    // Nothing else sees the new object until it is returned.
    auto* target = reinterpret_cast<uint8_t*>(PyBytes_AS_STRING(annotated.ptr()));
    py::gil_scoped_release release;
    model->SerializeWithCachedSizesToArray(target);
  }
  return py::make_tuple(std::move(annotated), Finish(out, details));
}

// infer_file(model_path, output_path, options, details) -> diagnostics or details dict.
// Writes the annotated model atomically to output_path (when not empty) unless strict and
// there are errors.
py::object InferFile(const std::string& model_path, const std::string& output_path,
                     const CallOptions& call, bool details) {
  CheckPath(model_path, "model_path");
  CheckPath(output_path, "output_path");
  auto registry = RegistryFor(call.schemas);
  std::string model_dir = std::filesystem::path(model_path).parent_path().string();
  if (model_dir.empty()) model_dir = ".";
  const InferenceOptions options = OptionsFor(call, model_dir);
  RunOutput out;
  std::string error;
  {
    py::gil_scoped_release release;
    StatusOr<onnx::ModelProto> model = LoadModel(model_path);
    if (!model.ok()) {
      error = model.status().message();
    } else if (Status st = CheckSpecialization(*model, options); !st.ok()) {
      error = StrCat(model_path, ": ", st.message());
    } else {
      auto result = std::make_shared<InferenceResult>(InferShapes(*model, *registry, options));
      out.diagnostics = result->diagnostics;
      if (call.memory) out.memory = EstimateMemory(*model, *result);
      if (call.cost) out.cost = std::make_shared<CostEstimate>(EstimateCost(*model, *result));
      if (call.lint) out.findings = Lint(*model, *result);
      // Not written, as by the command: errors under strict, a declaration contradicted under
      // the strict policy (or onnx's strict_mode), options contradicting the model.
      const bool failed =
          (call.strict && result->HasErrors()) || result->HasCode(kDiagOptionContradiction) ||
          ((call.raise_on_contradiction || options.declared_policy == DeclaredPolicy::kStrict) &&
           result->HasCode(kDiagDeclaredContradiction));
      out.result = std::move(result);
      if (!output_path.empty() && !failed) {
        if (Status saved = SaveModel(*model, output_path); !saved.ok()) error = saved.message();
      }
    }
  }
  if (!error.empty()) ThrowValueError(error);
  return Finish(out, details);
}

template <typename Message>
Message ParseMessage(const py::bytes& bytes, const char* what) {
  Message m;
  const std::string data = bytes;
  if (!m.ParseFromString(data)) throw py::value_error(StrCat("not a serialized ", what));
  return m;
}

// infer_node(node, opsets, input_types, input_values, strict, check_types=True) ->
//   ({output name: serialized TypeProto}, diagnostics)
py::tuple InferNode(const py::bytes& node_bytes, const std::map<std::string, int64_t>& opsets,
                    const std::map<std::string, py::bytes>& input_types,
                    const std::map<std::string, py::bytes>& input_values, bool strict,
                    bool check_types) {
  auto node = ParseMessage<onnx::NodeProto>(node_bytes, "NodeProto");
  std::map<std::string, onnx::TypeProto> types;
  for (const auto& [name, bytes] : input_types) {
    types[name] = ParseMessage<onnx::TypeProto>(bytes, "TypeProto");
  }
  std::map<std::string, onnx::TensorProto> values;
  for (const auto& [name, bytes] : input_values) {
    values[name] = ParseMessage<onnx::TensorProto>(bytes, "TensorProto");
  }
  OpsetImports imports(opsets.begin(), opsets.end());
  auto registry = CurrentRegistry();
  NodeInferenceResult result;
  {
    py::gil_scoped_release release;
    InferenceOptions options;
    options.strict = strict;
    options.check_types = check_types;
    result = InferNodeOutputsByName(*registry, node, imports, types, values, options);
  }
  py::dict outputs;
  for (const auto& [name, proto] : result.OutputTypeProtos()) {
    outputs[Str(name)] = py::bytes(proto.SerializeAsString());
  }
  return py::make_tuple(outputs, py::cast(std::move(result.diagnostics)));
}

// ---- explain (inference/explain.h): onnx_infer.explain.

py::dict ExplanationToPy(const DimExplanation& e) {
  py::dict d;
  d["graph"] = Str(e.graph);
  d["value"] = Str(e.value);
  d["axis"] = e.axis;
  d["type"] = Str(e.type);
  d["what"] = Str(e.what);
  d["reason"] = Str(ExplainReasonName(e.reason));
  d["detail"] = Str(e.detail);
  py::list chain;
  for (const auto& s : e.chain) {
    py::dict step;
    step["graph"] = Str(s.graph);
    step["value"] = Str(s.value);
    step["axis"] = s.axis;
    step["of_value"] = s.of_value;
    step["node_index"] = s.node_index;
    step["node"] = Str(s.node);
    step["note"] = Str(s.note);
    chain.append(step);
  }
  d["chain"] = chain;
  py::list symbols;
  for (size_t i = 0; i < e.symbols.size(); ++i) {
    symbols.append(py::make_tuple(Str(e.symbols[i].name), e.symbols[i].declared,
                                  Str(e.symbols[i].origin),
                                  Str(ExplainReasonName(e.symbol_reasons[i]))));
  }
  d["symbols"] = symbols;
  d["input_value"] = e.input_value.empty() ? py::object(py::none()) : Str(e.input_value);
  d["text"] = Str(FormatExplanation(e));
  return d;
}

// contract(model bytes or None, model path, options, ranges, profile, profile_format, check,
// memory, cost) -> dict: the deployment contract as infer-shapes --contract writes it (JSON
// text, "contract"), what --range / --profile print ("text") and warn ("warnings"), the
// error that keeps a profile from being made ("error") and whether a check found a
// violation ("violated"). Raises ValueError for a model that cannot be read or flags that do
// not parse (docs/deploy.md).
py::dict ContractOf(const py::object& model_bytes, const std::string& path, const CallOptions& call,
                    const std::vector<std::string>& ranges, const std::string& profile,
                    const std::string& profile_format, bool check, bool memory, bool cost) {
  ContractFlags flags;
  flags.ranges = ranges;
  flags.profile = profile;
  flags.check_profile = check;
  if (!profile_format.empty()) {
    flags.profile_format = profile_format;
    flags.profile_format_given = true;
  }
  if (std::string e = CheckContractFlags(flags); !e.empty()) ThrowValueError(e);
  auto registry = RegistryFor(call.schemas);
  std::string model_dir;
  if (model_bytes.is_none()) {
    CheckPath(path, "model");
    model_dir = std::filesystem::path(path).parent_path().string();
    if (model_dir.empty()) model_dir = ".";
  }
  const InferenceOptions options = OptionsFor(call, model_dir);
  flags.bind = options.bind;    // what the binding derives and leaves free
  flags.registry = &*registry;  // the values of shape-tensor inputs are probed
  flags.options = &options;
  std::string bytes;
  if (!model_bytes.is_none()) bytes = py::bytes(model_bytes);
  std::string error;
  ContractRun run;
  std::ostringstream info, err;
  {
    py::gil_scoped_release release;
    StatusOr<onnx::ModelProto> loaded = model_bytes.is_none() ? LoadModel(path) : ParseBytes(bytes);
    if (!loaded.ok()) {
      error = loaded.status().message();
    } else if (Status st = CheckSpecialization(*loaded, options); !st.ok()) {
      error = st.message();
    } else {
      onnx::ModelProto& model = *loaded;
      const InferenceResult result = InferShapes(model, *registry, options);
      std::optional<MemoryEstimate> m;
      if (memory) m = EstimateMemory(model, result);
      std::optional<CostEstimate> c;
      if (cost) c = EstimateCost(model, result);
      run = RunContract(flags, model, result, info, err, m ? &*m : nullptr, c ? &*c : nullptr);
    }
  }
  if (!error.empty()) ThrowValueError(error);
  py::dict d;
  d["contract"] = Str(run.json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  d["text"] = Str(info.str());
  d["warnings"] = Str(err.str());
  d["error"] = Str(run.error);
  d["violated"] = run.violated;
  return d;
}

// explain(model bytes or None, model path, options, targets, what-if options, what_if) -> dict
// The model is read from `path` when `model` is None. `targets`: "all", "VALUE" or
// "VALUE:AXIS". `what_if`: run the what-if inferences, with what_if_options.bind (a name
// that is a graph input gives that input the value) and its input values.
py::dict ExplainModel(const py::object& model_bytes, const std::string& path,
                      const CallOptions& call, const std::vector<std::string>& targets,
                      const CallOptions& what_if_call, bool what_if) {
  auto registry = RegistryFor(call.schemas);
  std::string model_dir;
  if (model_bytes.is_none()) {
    CheckPath(path, "model");
    model_dir = std::filesystem::path(path).parent_path().string();
    if (model_dir.empty()) model_dir = ".";
  }
  InferenceOptions options = OptionsFor(call, model_dir);
  options.record_provenance = true;
  const InferenceOptions what_if_options = OptionsFor(what_if_call, "");
  std::string bytes;
  if (!model_bytes.is_none()) bytes = py::bytes(model_bytes);
  std::string error;
  std::vector<DimExplanation> explained, unknown;
  std::vector<WhatIf> runs;
  std::vector<std::pair<SymbolInfo, ExplainReason>> introduced;
  InferenceResult result;
  {
    py::gil_scoped_release release;
    StatusOr<onnx::ModelProto> loaded = model_bytes.is_none() ? LoadModel(path) : ParseBytes(bytes);
    if (!loaded.ok()) {
      error = loaded.status().message();
    } else if (Status st = CheckSpecialization(*loaded, options); !st.ok()) {
      error = st.message();
    } else {
      const onnx::ModelProto original = *loaded;
      onnx::ModelProto& model = *loaded;
      result = InferShapes(model, *registry, options);
      bool all = false;
      for (const auto& target : targets) {
        if (target == "all") {
          all = true;
          continue;
        }
        auto e = ExplainTarget(model, result, target);
        if (!e.ok()) {
          error = e.status().message();
          break;
        }
        explained.insert(explained.end(), e->begin(), e->end());
      }
      if (error.empty() && (all || what_if)) unknown = ExplainAllUnknown(model, result);
      if (error.empty() && all) introduced = ExplainIntroducedSymbols(model, result);
      if (error.empty() && what_if) {
        WhatIfRequest request;
        std::set<std::string, std::less<>> inputs;
        for (const auto& input : original.graph().input()) inputs.insert(input.name());
        for (const auto& [name, v] : what_if_options.bind) {
          if (!inputs.count(name)) {
            request.symbols[name] = v;
            continue;
          }
          KnownInputValue k;
          k.name = name;
          k.fit_dims = true;
          k.value.ints.push_back(Dim::Const(v));
          k.value.dims = {1};
          request.inputs.push_back(std::move(k));
        }
        for (const auto& k : what_if_options.input_values) request.inputs.push_back(k);
        runs = WhatIfBindings(original, *registry, options, result, unknown, request);
      }
    }
  }
  if (!error.empty()) ThrowValueError(error);
  py::dict d;
  py::list values, all_unknown, what_if_list;
  for (const auto& e : explained) values.append(ExplanationToPy(e));
  for (const auto& e : unknown) all_unknown.append(ExplanationToPy(e));
  py::dict summary;
  for (const auto& e : unknown) {
    py::str key = Str(ExplainReasonName(e.reason));
    summary[key] = (summary.contains(key) ? summary[key].cast<int64_t>() : 0) + 1;
  }
  for (const auto& w : runs) {
    py::dict r;
    r["label"] = Str(w.label);
    r["bind"] = py::cast(std::map<std::string, int64_t>(w.bind.begin(), w.bind.end()));
    py::list given;
    for (const auto& k : w.input_values) given.append(Str(k.name));
    r["inputs"] = given;
    r["static_values"] = w.static_values;
    r["gained"] = w.gained;
    r["errors"] = w.errors;
    what_if_list.append(r);
  }
  d["explanations"] = values;
  d["unknown"] = all_unknown;
  d["summary"] = summary;
  d["what_if"] = what_if_list;
  py::list symbols;
  for (const auto& [info, reason] : introduced) {
    symbols.append(
        py::make_tuple(Str(info.name), Str(info.origin), Str(ExplainReasonName(reason))));
  }
  d["introduced"] = symbols;
  d["static_values"] = result.stats.static_shaped;
  d["values"] = result.stats.values;
  std::string text;
  for (const auto& e : explained) text += FormatExplanation(e);
  if (!unknown.empty() || std::find(targets.begin(), targets.end(), "all") != targets.end()) {
    text += FormatExplainSummary(unknown, 3);
    text += FormatIntroducedSymbols(introduced, 3);
  }
  if (what_if) text += FormatWhatIf(runs, result.stats.static_shaped, result.stats.values);
  d["text"] = Str(text);
  return d;
}

}  // namespace
}  // namespace onnx_infer

namespace onnx_infer {

// ---- Session (inference/session.h): onnx_infer.Session's engine. Edits take one serialized
// message each (a node, an attribute, a tensor, a type); the model is serialized only when
// the caller asks for it (model()).
class PySession {
 public:
  PySession(const py::bytes& model_bytes, const CallOptions& call)
      : registry_(RegistryFor(call.schemas)) {
    auto model = ParseMessage<onnx::ModelProto>(model_bytes, "ModelProto");
    InferenceOptions options = OptionsFor(call, "");
    if (Status st = CheckSpecialization(model, options); !st.ok()) ThrowValueError(st.message());
    py::gil_scoped_release release;
    session_ = std::make_unique<Session>(std::move(model), *registry_, options);
  }

  void ReplaceNode(int index, const py::bytes& node) {
    Check(session_->ReplaceNode(index, ParseMessage<onnx::NodeProto>(node, "NodeProto")));
  }
  void InsertNode(int index, const py::bytes& node) {
    Check(session_->InsertNode(index, ParseMessage<onnx::NodeProto>(node, "NodeProto")));
  }
  void RemoveNode(int index) { Check(session_->RemoveNode(index)); }
  void SetNodeAttribute(int index, const py::bytes& attr) {
    Check(session_->SetNodeAttribute(index,
                                     ParseMessage<onnx::AttributeProto>(attr, "AttributeProto")));
  }
  void SetInitializer(const py::bytes& tensor) {
    Check(session_->SetInitializer(ParseMessage<onnx::TensorProto>(tensor, "TensorProto")));
  }
  void SetInputType(const std::string& name, const py::bytes& type) {
    Check(session_->SetInputType(name, ParseMessage<onnx::TypeProto>(type, "TypeProto")));
  }
  void AddOutput(const py::bytes& output) {
    Check(session_->AddOutput(ParseMessage<onnx::ValueInfoProto>(output, "ValueInfoProto")));
  }
  void RemoveOutput(const std::string& name) { Check(session_->RemoveOutput(name)); }
  void RenameValue(const std::string& from, const std::string& to) {
    Check(session_->RenameValue(from, to));
  }

  py::dict Update() {
    SessionUpdate u;
    {
      py::gil_scoped_release release;
      u = session_->Update();
    }
    py::dict d;
    d["changed_values"] = StrList(u.changed_values);
    d["added_diagnostics"] = u.added_diagnostics;
    d["removed_diagnostics"] = u.removed_diagnostics;
    d["incremental"] = u.incremental;
    return d;
  }
  py::object TypeOf(const std::string& name) const {
    const Type* t = session_->TypeOf(name);
    return t ? TypeToPy(*t) : py::none();
  }
  py::bytes Model() const {
    std::string bytes;
    {
      py::gil_scoped_release release;
      bytes = session_->Model().SerializeAsString();
    }
    return py::bytes(bytes);
  }
  int NumNodes() const { return session_->EditedModel().graph().node_size(); }
  py::bytes Node(int index) const {
    const onnx::GraphProto& g = session_->EditedModel().graph();
    if (index < 0 || index >= g.node_size()) throw py::index_error("node index out of range");
    return py::bytes(g.node(index).SerializeAsString());
  }
  py::bytes EditedModel() const { return py::bytes(session_->EditedModel().SerializeAsString()); }
  std::vector<Diagnostic> Diagnostics() const { return session_->result().diagnostics; }
  std::vector<std::string> Facts() const { return session_->result().facts; }
  bool Dirty() const { return session_->dirty(); }
  py::dict Stats() const {
    const Session::Stats& s = session_->stats();
    py::dict d;
    d["incremental_updates"] = s.incremental_updates;
    d["full_updates"] = s.full_updates;
    d["empty_updates"] = s.empty_updates;
    d["nodes_inferred"] = s.nodes_inferred;
    d["structural_updates"] = s.structural_updates;
    py::dict reasons;
    for (const auto& [reason, n] : s.full_reasons) reasons[Str(reason)] = n;
    d["full_reasons"] = reasons;
    return d;
  }

 private:
  static void Check(const Status& st) {
    if (!st.ok()) ThrowValueError(st.message());
  }
  std::shared_ptr<const SchemaRegistry> registry_;  // outlives the session (declared first)
  std::unique_ptr<Session> session_;
};

void RegisterSession(py::module_& m) {
  py::class_<PySession>(m, "Session", "An incremental inference session (onnx_infer.Session).")
      .def(py::init<const py::bytes&, const CallOptions&>(), py::arg("model"), py::arg("options"))
      .def("replace_node", &PySession::ReplaceNode, py::arg("index"), py::arg("node"))
      .def("insert_node", &PySession::InsertNode, py::arg("index"), py::arg("node"))
      .def("remove_node", &PySession::RemoveNode, py::arg("index"))
      .def("set_node_attribute", &PySession::SetNodeAttribute, py::arg("index"),
           py::arg("attribute"))
      .def("set_initializer", &PySession::SetInitializer, py::arg("tensor"))
      .def("set_input_type", &PySession::SetInputType, py::arg("name"), py::arg("type"))
      .def("add_output", &PySession::AddOutput, py::arg("output"))
      .def("remove_output", &PySession::RemoveOutput, py::arg("name"))
      .def("rename_value", &PySession::RenameValue, py::arg("old"), py::arg("new"))
      .def("update", &PySession::Update)
      .def("type_of", &PySession::TypeOf, py::arg("name"))
      .def("model", &PySession::Model)
      .def("edited_model", &PySession::EditedModel)
      .def("num_nodes", &PySession::NumNodes)
      .def("node", &PySession::Node, py::arg("index"))
      .def("diagnostics", &PySession::Diagnostics)
      .def("facts", &PySession::Facts)
      .def("dirty", &PySession::Dirty)
      .def("stats", &PySession::Stats);
}

}  // namespace onnx_infer

PYBIND11_MODULE(_core, m) {
  using onnx_infer::CallOptions;
  using onnx_infer::Diagnostic;
  m.doc() = "onnx-infer's C++ engine; use the onnx_infer package, not this module.";

  py::class_<Diagnostic>(m, "Diagnostic",
                         "One finding of inference: where it is and what was expected.")
      .def_property_readonly(
          "severity", [](const Diagnostic& d) { return std::string(SeverityName(d.severity)); },
          "'error', 'warning' or 'note'.")
      .def_property_readonly(
          "graph", [](const Diagnostic& d) { return onnx_infer::Str(d.graph); },
          "Graph path: 'main', 'main/If_3.then_branch'.")
      .def_readonly("node_index", &Diagnostic::node_index,
                    "Index of the node in its graph's node list; -1 when not about a node.")
      .def_property_readonly(
          "node_name", [](const Diagnostic& d) { return onnx_infer::Str(d.node_name); },
          "The node's name ('' if it has none).")
      .def_property_readonly(
          "op", [](const Diagnostic& d) { return onnx_infer::Str(d.op); },
          "The operator as domain::op_type-since_version: 'ai.onnx::Concat-13'.")
      .def_property_readonly(
          "subject_kind", [](const Diagnostic& d) { return d.subject.kind; },
          "'input', 'output', 'attribute', or '' when about nothing in particular.")
      .def_property_readonly(
          "subject_index", [](const Diagnostic& d) { return d.subject.index; },
          "The input's or output's position; -1 for attributes or when unknown.")
      .def_property_readonly(
          "subject_name", [](const Diagnostic& d) { return onnx_infer::Str(d.subject.name); },
          "The value's or attribute's name, when known.")
      .def_property_readonly(
          "code", [](const Diagnostic& d) { return std::string(CodeId(d.code)); },
          "The stable code of the kind of finding: 'OI2101' (docs/diagnostics.md).")
      .def_property_readonly(
          "kind", [](const Diagnostic& d) { return std::string(CodeName(d.code)); },
          "The code's name: 'signature', 'type-constraint', 'declared-contradiction', "
          "'graph-cycle', ... (docs/diagnostics.md).")
      .def_property_readonly(
          "message", [](const Diagnostic& d) { return onnx_infer::Str(d.message); },
          "What was expected and what was found (starts with the subject).")
      .def(
          "render",
          [](const Diagnostic& d, const std::string& source) {
            return onnx_infer::Str(d.Render(source));
          },
          py::arg("source") = "model",
          "One line: \"model.onnx: error[OI3001]: graph 'main' node #7 'cat0' (...): ...\".")
      .def("__str__", [](const Diagnostic& d) { return onnx_infer::Str(d.Render("model")); })
      .def("__repr__", [](const Diagnostic& d) {
        return onnx_infer::Str("<onnx_infer.Diagnostic " + d.Render("model") + ">");
      });

  py::class_<CallOptions>(m, "CallOptions", "Options of one inference call.")
      .def(py::init<>())
      .def_readwrite("strict", &CallOptions::strict)
      .def_readwrite("policy", &CallOptions::policy,
                     "What a declared type that contradicts inference becomes: inferred, "
                     "refine, override or strict.")
      .def_readwrite("data_propagation", &CallOptions::data_propagation)
      .def_readwrite("max_value_elements", &CallOptions::max_value_elements)
      .def_readwrite("max_expanded_nodes", &CallOptions::max_expanded_nodes,
                     "Nodes inferred inside function bodies and subgraphs, in all.")
      .def_readwrite("schemas", &CallOptions::schemas,
                     "Custom operator schemas for this call: (JSON text, source name) pairs.")
      .def_readwrite("assumptions", &CallOptions::assumptions,
                     "Lower bounds of dim symbols to assume: 'S >= 2'.")
      .def_readwrite("assume_positive", &CallOptions::assume_positive,
                     "Assume every dim symbol >= 1.")
      .def_readwrite("check_types", &CallOptions::check_types,
                     "A type-constraint violation is an error (else a warning).")
      .def_readwrite("overridable_initializers", &CallOptions::overridable_initializers,
                     "An initializer listed as a graph input may be overridden: not used.")
      .def_readwrite("raise_on_contradiction", &CallOptions::raise_on_contradiction,
                     "infer_file writes nothing when a declared type is contradicted.")
      .def_readwrite("bind", &CallOptions::bind, "Symbol values: {symbol: int}.")
      .def_readwrite("input_shapes", &CallOptions::input_shapes,
                     "New declared shapes of graph inputs: {name: [dim text, ...]}.")
      .def_readwrite("input_values", &CallOptions::input_values,
                     "Known input values: (name, ints, reals, dims, fit_dims) tuples.")
      .def_readwrite("input_tensors", &CallOptions::input_tensors,
                     "Known input values as (name, serialized TensorProto) pairs.")
      .def_readwrite("memory", &CallOptions::memory, "Add the memory estimate to the details.")
      .def_readwrite("cost", &CallOptions::cost, "Add the cost estimate to the details.")
      .def_readwrite("lint", &CallOptions::lint, "Add the lint findings to the details.");

  py::class_<onnx_infer::CostEstimate, std::shared_ptr<onnx_infer::CostEstimate>>(
      m, "CostEstimate", "A model's cost (inference/cost.h), kept to be evaluated.")
      .def(
          "evaluate",
          [](const onnx_infer::CostEstimate& cost, const std::map<std::string, int64_t>& binding) {
            onnx_infer::CostValues v = onnx_infer::EvaluateCost(
                cost, onnx_infer::CostBinding(binding.begin(), binding.end()));
            std::vector<std::pair<std::optional<int64_t>, std::optional<int64_t>>> nodes;
            for (const auto& n : v.nodes) nodes.emplace_back(n.flops, n.macs);
            return py::make_tuple(v.total_flops, v.total_macs, nodes, v.unbound_symbols);
          },
          py::arg("binding"),
          "(total FLOPs, total MACs, [(FLOPs, MACs) per node], unbound symbols) under "
          "{symbol: int}; None where a count is unknown, uses an unbound symbol or "
          "overflows.");

  m.def(
      "parse_assumption",
      [](const std::string& text) {
        std::string error;
        auto a = onnx_infer::symbolic::ParseAssumption(text, &error);
        if (!a) throw py::value_error(onnx_infer::StrCat("assumption '", text, "': ", error));
        return std::make_tuple(a->expr.ToString(), a->lo, a->hi);
      },
      py::arg("text"),
      "(expression, lower bound or None, upper bound or None) of an assumption such as "
      "'S >= 2', 'S <= 2048', '1 <= B <= 64' or 'P + S <= 4096'; ValueError for anything else.");

  m.def("infer_bytes", &onnx_infer::InferBytes, py::arg("model"), py::arg("options"),
        py::arg("details"),
        "Infers a binary model; returns (annotated model bytes, diagnostics), or with details "
        "a dict of values, symbols, facts, conditions, stats, memory (None unless "
        "options.memory) and diagnostics. Raises ValueError when the bytes are no model or "
        "the specialization options do not fit it.");
  m.def("infer_file", &onnx_infer::InferFile, py::arg("model_path"), py::arg("output_path"),
        py::arg("options"), py::arg("details"),
        "Infers a model file and, when output_path is not empty, writes it atomically there "
        "(not when strict and there are errors); returns what infer_bytes returns besides the "
        "bytes. Raises ValueError when the file cannot be read or written.");
  m.def("contract", &onnx_infer::ContractOf, py::arg("model"), py::arg("path"), py::arg("options"),
        py::arg("ranges"), py::arg("profile"), py::arg("profile_format"), py::arg("check"),
        py::arg("memory"), py::arg("cost"),
        "Infers a model (bytes, or read from path when model is None) and returns its "
        "deployment contract (docs/deploy.md) as a dict: contract (JSON text), text, "
        "warnings, error, violated.");
  m.def("explain", &onnx_infer::ExplainModel, py::arg("model"), py::arg("path"), py::arg("options"),
        py::arg("targets"), py::arg("what_if_options"), py::arg("what_if"),
        "Infers a model (bytes, or read from path when model is None) recording provenance and "
        "explains the targets (\"all\", \"VALUE\", \"VALUE:AXIS\"); with what_if, runs the "
        "what-if inferences. Returns a dict (explanations, unknown, summary, what_if, text).");
  m.def("infer_node", &onnx_infer::InferNode, py::arg("node"), py::arg("opsets"),
        py::arg("input_types"), py::arg("input_values"), py::arg("strict"),
        py::arg("check_types") = true,
        "Infers one node (serialized NodeProto; types as serialized TypeProto and values as "
        "serialized TensorProto, by input name); returns ({output: serialized TypeProto}, "
        "diagnostics).");
  m.def(
      "register_schemas",
      [](const std::string& text, const std::string& source) {
        onnx_infer::ChangeRegistry([&](onnx_infer::SchemaRegistry& r) {
          return onnx_infer::LoadReplacing(r, text, source);
        });
      },
      py::arg("text"), py::arg("source"),
      "Adds the operators of a JSON schema document to the registry every later call uses, "
      "replacing versions registered before.");
  m.def(
      "register_rule",
      [](const std::string& schema_json, const std::string& domain, const std::string& name,
         int since_version, py::function rule) {
        auto wrapped = onnx_infer::PythonRule(std::move(rule));
        onnx_infer::ChangeRegistry([&](onnx_infer::SchemaRegistry& r) {
          return onnx_infer::LoadReplacing(r, schema_json, "<register_op>", &wrapped, domain, name,
                                           since_version);
        });
      },
      py::arg("schema_json"), py::arg("domain"), py::arg("name"), py::arg("since_version"),
      py::arg("rule"),
      "Adds one operator (a JSON schema document without a rule) whose rule is a Python "
      "callable rule(input_types, attributes, num_outputs) -> [type tuple or None, ...].");
  m.def(
      "reset_registry",
      [] {
        std::lock_guard<std::mutex> lock(onnx_infer::registry_mutex);
        onnx_infer::registry->reset();
      },
      "Forgets every registered schema: later calls use the built-in registry.");
  m.def(
      "newest_opset",
      [](const std::string& domain) -> std::optional<int> {
        auto range = onnx_infer::CurrentRegistry()->OpsetRange(domain);
        if (!range) return std::nullopt;
        return range->second;
      },
      py::arg("domain"), "The newest version of an operator set the registry knows, or None.");
  m.def("data_type_name", &onnx_infer::DataTypeName, py::arg("data_type"),
        "The name of a TensorProto data type: 1 -> 'float'.");
  m.def(
      "data_type_from_name",
      [](const std::string& name) -> std::optional<int32_t> {
        return onnx_infer::DataTypeFromName(name);
      },
      py::arg("name"), "The TensorProto data type of a name: 'float' -> 1; None if unknown.");
  onnx_infer::RegisterSession(m);
}
