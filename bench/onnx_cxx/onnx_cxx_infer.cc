// onnx-cxx-infer: ONNX's own C++ shape inference on one model, with no Python, for the
// "ONNX <version> C++" column of bench/run.py (bench/onnx_cxx/CMakeLists.txt builds it against
// an installed ONNX C++ library; docs/performance.md).
//
//   onnx-cxx-infer MODEL OUT [--check-type] [--strict] [--data-prop]
//       parses MODEL into ONNX's ModelProto, runs onnx::shape_inference::InferShapes on it
//       with the schema registry of the library and these options (bench/run.py passes all
//       three, the settings of bench/onnx_child.py's infer_shapes_path), serializes the result
//       into OUT and prints one JSON line, times in seconds:
//         {"seconds": S, "registry": R, "load": L, "infer": I, "save": W, "nodes": N,
//          "value_info": V, "version": "1.12.0"}
//       seconds = registry + load + infer + save, the span bench/onnx_child.py times around
//       infer_shapes_path (whose registry is built lazily, inside that call); registry = the
//       library's operator schemas registered (done first, so that infer is inference alone);
//       value_info = the entries of the written model, subgraphs included
//   onnx-cxx-infer --count MODEL
//       prints {"nodes": N, "value_info": V} of MODEL (to compare two outputs)
//   onnx-cxx-infer --version
//       prints {"version": "1.12.0"}: the version of the ONNX package it was built against
//
// A failure (a model ONNX rejects, a file that does not parse) prints {"error": "..."} and exits
// 1, as bench/onnx_child.py does; a usage error exits 2.
#include <fcntl.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

#ifndef ONNX_CXX_VERSION
#error "ONNX_CXX_VERSION (the ONNX package's version) is defined by bench/onnx_cxx/CMakeLists.txt"
#endif

namespace {

namespace onnx = ::ONNX_NAMESPACE;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// A JSON string literal of text (the error messages of ONNX quote names and may hold anything).
std::string Quoted(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

int Failed(std::string_view message) {
  std::printf("{\"error\": %s}\n", Quoted(message).c_str());
  return 1;
}

int Usage() {
  std::fprintf(stderr,
               "usage: onnx-cxx-infer MODEL OUT [--check-type] [--strict] [--data-prop]\n"
               "       onnx-cxx-infer --count MODEL\n"
               "       onnx-cxx-infer --version\n");
  return 2;
}

// Parses path into model straight from the file, through protobuf's small buffer.
bool Load(const std::string& path, onnx::ModelProto& model, std::string& error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path;
    return false;
  }
  google::protobuf::io::FileInputStream input(fd);
  input.SetCloseOnDelete(true);
  if (!model.ParseFromZeroCopyStream(&input)) {
    error = path + " is not an ONNX model (it does not parse as a ModelProto)";
    return false;
  }
  return true;
}

// Serializes model straight into path (no fsync: ONNX's own InferShapes(path, ...) does none).
bool Save(const onnx::ModelProto& model, const std::string& path, std::string& error) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = "cannot create " + path;
    return false;
  }
  google::protobuf::io::FileOutputStream output(fd);
  bool written = model.SerializeToZeroCopyStream(&output);
  bool closed = output.Close();
  if (!written || !closed) {
    error = "cannot write " + path;
    return false;
  }
  return true;
}

struct Counts {
  int64_t nodes = 0;
  int64_t value_info = 0;
};

void Count(const onnx::GraphProto& graph, Counts& counts) {
  counts.nodes += graph.node_size();
  counts.value_info += graph.value_info_size();
  for (const onnx::NodeProto& node : graph.node()) {
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      if (attribute.has_g()) Count(attribute.g(), counts);
      for (const onnx::GraphProto& sub : attribute.graphs()) Count(sub, counts);
    }
  }
}

int PrintCounts(const std::string& path) {
  onnx::ModelProto model;
  std::string error;
  if (!Load(path, model, error)) return Failed(error);
  Counts counts;
  Count(model.graph(), counts);
  std::printf("{\"nodes\": %lld, \"value_info\": %lld}\n", static_cast<long long>(counts.nodes),
              static_cast<long long>(counts.value_info));
  return 0;
}

int Infer(const std::string& in, const std::string& out,
          const onnx::ShapeInferenceOptions& options) {
  Clock::time_point start = Clock::now();
  // The registry registers every operator schema on its first lookup; looking one up here keeps
  // that out of the inference figure (our own infer phase excludes our registry too).
  const onnx::ISchemaRegistry* registry = onnx::OpSchemaRegistry::Instance();
  registry->GetSchema("Relu", 14, "");
  Clock::time_point registered = Clock::now();

  onnx::ModelProto model;
  std::string error;
  if (!Load(in, model, error)) return Failed(error);
  Clock::time_point loaded = Clock::now();

  onnx::shape_inference::InferShapes(model, registry, options);
  Clock::time_point inferred = Clock::now();

  if (!Save(model, out, error)) return Failed(error);
  Clock::time_point saved = Clock::now();

  Counts counts;
  Count(model.graph(), counts);
  std::printf(
      "{\"seconds\": %.6f, \"registry\": %.6f, \"load\": %.6f, \"infer\": %.6f, \"save\": %.6f, "
      "\"nodes\": %lld, \"value_info\": %lld, \"version\": %s}\n",
      Seconds(start, saved), Seconds(start, registered), Seconds(registered, loaded),
      Seconds(loaded, inferred), Seconds(inferred, saved), static_cast<long long>(counts.nodes),
      static_cast<long long>(counts.value_info), Quoted(ONNX_CXX_VERSION).c_str());
  return 0;
}

int Main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::printf("{\"version\": %s}\n", Quoted(ONNX_CXX_VERSION).c_str());
    return 0;
  }
  if (argc == 3 && std::string_view(argv[1]) == "--count") return PrintCounts(argv[2]);
  if (argc < 3 || argv[1][0] == '-' || argv[2][0] == '-') return Usage();
  onnx::ShapeInferenceOptions options;  // ONNX's defaults: all off
  options.check_type = false;
  options.error_mode = 0;
  options.enable_data_propagation = false;
  for (int i = 3; i < argc; ++i) {
    std::string_view flag = argv[i];
    if (flag == "--check-type") {
      options.check_type = true;
    } else if (flag == "--strict") {
      options.error_mode = 1;
    } else if (flag == "--data-prop") {
      options.enable_data_propagation = true;
    } else {
      return Usage();
    }
  }
  return Infer(argv[1], argv[2], options);
}

}  // namespace

int main(int argc, char** argv) {
  // Whatever ONNX throws (its InferenceError in strict mode, a bad attribute...) is one "n/a".
  try {
    return Main(argc, argv);
  } catch (const std::exception& e) {
    return Failed(std::string(e.what()).substr(0, 300));
  }
}
