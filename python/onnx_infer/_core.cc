// onnx_infer._core: the extension module under the Python package (python/onnx_infer/). It
// only translates: bytes and paths in, the library's InferShapes, bytes and diagnostics out.
// The Python layer (__init__.py) turns diagnostics into InferenceError and ModelProtos into
// bytes; nothing here knows about the `onnx` package.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/diagnostic.h"

namespace py = pybind11;

namespace onnx_infer {
namespace {

InferenceOptions OptionsFor(bool strict, bool data_propagation, std::string model_dir) {
  InferenceOptions options;
  options.strict = strict;
  options.data_propagation = data_propagation;
  options.model_dir = std::move(model_dir);
  return options;
}

// infer_shapes_bytes(model, strict, data_propagation) -> (annotated bytes, diagnostics)
std::pair<py::bytes, std::vector<Diagnostic>> InferShapesBytes(const py::bytes& model_bytes,
                                                               bool strict,
                                                               bool data_propagation) {
  std::string bytes = model_bytes;  // copied while the GIL is held
  const SchemaRegistry& registry = BuiltinSchemas();  // built on first use
  std::string annotated;
  std::vector<Diagnostic> diagnostics;
  std::string load_error;
  {
    py::gil_scoped_release release;
    StatusOr<onnx::ModelProto> model = ParseModel(bytes, "<bytes>");
    if (!model.ok()) {
      load_error = model.status().message();
    } else {
      InferenceResult result =
          InferShapes(*model, registry, OptionsFor(strict, data_propagation, ""));
      diagnostics = std::move(result.diagnostics);
      if (!model->SerializeToString(&annotated)) {
        load_error = "<bytes>: the annotated model cannot be serialized (larger than 2 GiB?)";
      }
    }
  }
  if (!load_error.empty()) throw py::value_error(load_error);
  return {py::bytes(annotated), std::move(diagnostics)};
}

// infer_shapes_file(model_path, output_path, strict, data_propagation) -> diagnostics.
// Writes the annotated model atomically unless `strict` and there are errors.
std::vector<Diagnostic> InferShapesFile(const std::string& model_path,
                                        const std::string& output_path, bool strict,
                                        bool data_propagation) {
  const SchemaRegistry& registry = BuiltinSchemas();  // built on first use
  std::vector<Diagnostic> diagnostics;
  std::string error;
  {
    py::gil_scoped_release release;
    StatusOr<onnx::ModelProto> model = LoadModel(model_path);
    if (!model.ok()) {
      error = model.status().message();
    } else {
      std::string model_dir = std::filesystem::path(model_path).parent_path().string();
      if (model_dir.empty()) model_dir = ".";
      InferenceResult result =
          InferShapes(*model, registry, OptionsFor(strict, data_propagation, model_dir));
      diagnostics = std::move(result.diagnostics);
      if (!(strict && result.HasErrors())) {
        if (Status saved = SaveModel(*model, output_path); !saved.ok()) error = saved.message();
      }
    }
  }
  if (!error.empty()) throw py::value_error(error);
  return diagnostics;
}

}  // namespace
}  // namespace onnx_infer

PYBIND11_MODULE(_core, m) {
  using onnx_infer::Diagnostic;
  m.doc() = "onnx-infer's C++ engine; use the onnx_infer package, not this module.";

  py::class_<Diagnostic>(m, "Diagnostic",
                         "One finding of inference: where it is and what was expected.")
      .def_property_readonly(
          "severity", [](const Diagnostic& d) { return std::string(SeverityName(d.severity)); },
          "'error', 'warning' or 'note'.")
      .def_readonly("graph", &Diagnostic::graph, "Graph path: 'main', 'main/If_3.then_branch'.")
      .def_readonly("node_index", &Diagnostic::node_index,
                    "Index of the node in its graph's node list; -1 when not about a node.")
      .def_readonly("node_name", &Diagnostic::node_name, "The node's name ('' if it has none).")
      .def_readonly("op", &Diagnostic::op,
                    "The operator as domain::op_type-since_version: 'ai.onnx::Concat-13'.")
      .def_property_readonly(
          "subject_kind", [](const Diagnostic& d) { return d.subject.kind; },
          "'input', 'output', 'attribute', or '' when about nothing in particular.")
      .def_property_readonly(
          "subject_index", [](const Diagnostic& d) { return d.subject.index; },
          "The input's or output's position; -1 for attributes or when unknown.")
      .def_property_readonly(
          "subject_name", [](const Diagnostic& d) { return d.subject.name; },
          "The value's or attribute's name, when known.")
      .def_readonly("message", &Diagnostic::message,
                    "What was expected and what was found (starts with the subject).")
      .def("render", &Diagnostic::Render, py::arg("source") = "model",
           "One line: \"model.onnx: error: graph 'main' node #7 'cat0' (...): ...\".")
      .def("__str__", [](const Diagnostic& d) { return d.Render("model"); })
      .def("__repr__", [](const Diagnostic& d) {
        return "<onnx_infer.Diagnostic " + d.Render("model") + ">";
      });

  m.def("infer_shapes_bytes", &onnx_infer::InferShapesBytes, py::arg("model"),
        py::arg("strict"), py::arg("data_propagation"),
        "Infers a binary model; returns (annotated model bytes, diagnostics). Raises "
        "ValueError when the bytes are no model.");
  m.def("infer_shapes_file", &onnx_infer::InferShapesFile, py::arg("model_path"),
        py::arg("output_path"), py::arg("strict"), py::arg("data_propagation"),
        "Infers a model file and writes it atomically to output_path, unless strict and "
        "there are errors; returns the diagnostics. Raises ValueError when the file cannot "
        "be read or written.");
}
