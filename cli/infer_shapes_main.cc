// infer-shapes: annotates an ONNX model with the type and shape of every value.
// See docs/cli.md. This file only parses flags and calls the library; main() is in main.cc,
// so that a build with custom operators can reuse it (cli/cli.h).
#include <google/protobuf/arena.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/cli/cli.h"
#include "onnx_infer/cli/contract_cli.h"
#include "onnx_infer/cli/cost_report.h"
#include "onnx_infer/cli/explain_cli.h"
#include "onnx_infer/cli/lint_cli.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/inference/memory.h"
#include "onnx_infer/inference/specialize.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/custom_schemas.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/symbolic/parse.h"
#include "onnx_infer/syntax/printer.h"

namespace onnx_infer {
namespace {

// Exit codes (docs/cli.md).
constexpr int kExitOk = 0;
constexpr int kExitInferenceErrors = 1;
constexpr int kExitUsageOrIo = 2;

// The version of onnx-infer (CMakeLists.txt's project(VERSION), pyproject.toml, python/).
constexpr char kVersion[] = "0.1.0";

constexpr char kUsage[] = R"(usage: infer-shapes MODEL.onnx [options]

Infers the type and shape of every value in an ONNX model and writes them into it.
MODEL may be binary (.onnx) or in the ONNX text syntax (.onnxtxt, or any file that is not
binary protobuf but reads as text); '-' reads it from standard input.

options:
  -o, --output OUT.onnx  write the annotated model to OUT.onnx ('-': standard output)
  --in-place             write the annotated model back to MODEL.onnx
  --strict               a missing schema or rule is an error (and a declared type that
                         contradicts the inferred one with --policy refine); on errors
                         the model is not written
  --policy P             what a declared type (value_info, an output) that contradicts the
                         inferred one becomes: 'inferred' (default: an error, and the
                         inferred type replaces it in the model), 'refine' (a warning, the
                         declared type is kept), 'override' (a note, the inferred type
                         replaces it), 'strict' (an error, and the model is not written)
  --json REPORT.json     write a report: summary counts and every diagnostic ('-': standard
                         output). It is written whenever asked, also when the run fails
  --json-values          add to the --json report every value of every graph with its
                         declared and inferred type and its symbols (docs/cli.md)
  --schemas OPS.json     load custom operator schemas (docs/custom-ops.md); repeatable
  --no-data-prop         track only constants (initializers, Constant nodes), not the values
                         operators compute from them (shape tensors)
  --assume 'S >= 2'      assume bounds of dims: 'S >= 2', 'S <= 2048', '1 <= B <= 64', or a
                         relation 'P + S <= 4096' (an expression compared with integers);
                         repeatable. Dims simplify and comparisons (an If's condition)
                         decide under it; each result that needed it is listed with it
                         among the conditions of the --json report, whose 'bounds' give
                         each symbol's range and where each bound came from
  --assume-positive      assume every dim symbol >= 1, as onnxruntime's symbolic shape
                         inference does (by default a dim may be 0, as in an empty cache)
  --no-check-types       a node input whose type its operator's type constraint does not
                         allow is a warning, not an error (onnx's check_type=False)
  --overridable-initializers
                         an initializer also listed as a graph input is a default that may
                         be overridden (IR.md): its value is not used. By default it is used,
                         as onnx and onnxruntime do, and each node that read it is listed
                         among the conditions of the --json report
  --values               print the type of every graph input, node output and graph output
  --memory               print each value's size in bytes, the weights' bytes and the peak
                         bytes of live activations (docs/memory.md); with --json, report them
  --cost                 print the model's FLOPs and MACs (expressions, and numbers under
                         --bind) and its costliest nodes (docs/cost.md); with --json, report
                         every node's
  --contract C.json      write the model's deployment contract: inputs, symbols with their
                         uses, bounds and derived values, divisibility, relations, conditions,
                         the inputs whose values reach shapes (docs/deploy.md)
  --range seq=1:128:4096 a symbol's min:opt:max (or one value); repeatable. Prints the input
                         shapes at min, opt and max as trtexec flags, symbols the facts fix
                         derived (total = past + seq); into --contract's 'profiles'
  --check-profile        with --range: report every fact, bound, relation and divisibility
                         of the model the profile violates, with its origin (exit 1)
  --profile-format F     print the profile as F: trtexec (default), ort-trt (onnxruntime's
                         TensorRT provider options), polygraphy or json; without --range,
                         symbols take the model's own bounds (docs/deploy.md)
  --profile TEXT|@FILE   check a given profile (trtexec, ort-trt or polygraphy syntax)
                         against the model: shared symbols, facts, bounds, relations (exit 1)
  --bind B=1,S=128       evaluate every dim under these symbol values; repeatable
  --input-shape x:1,3,H,W
                         replace a graph input's declared shape ('?' for unknown); repeatable
  --set-input sr=16000   give a graph input a known value (a number or a comma-separated list
                         such as pads=0,1,0,1; true/false): shape computations fold and an If
                         it decides takes its branch; repeatable
  --explain VALUE[:AXIS] why a dim of VALUE is unknown or symbolic: the reason, the node
                         where it was lost and the chain back to it; 'all': counts of every
                         unknown dim by reason, and what binding each input symbol or input
                         value would make static (docs/cli.md); repeatable; with --json,
                         an "explain" section
  --lint                 what the exporter pinned: declared dynamic axes forced to constants
                         or equal, outputs declared dynamic inferred constant, Shape results
                         no shape uses; each with the node, the pattern and the fix
                         (docs/lint.md); with --json, a "findings" section
  --what-if S=128        with --explain: bind this symbol (or give this input value) in the
                         what-if runs instead of 2; alone, the what-if lines only; repeatable
  --max-expanded-nodes N infer at most N nodes inside function bodies and subgraphs in all
                         (default 200000; docs/limits.md)
  --print                print the annotated model in the ONNX text syntax
  --quiet                print only errors
  --version              print the version
  -h, --help             show this help

Without -o or --in-place the model is only checked; nothing is written. Output files are
written atomically (a failed run leaves them untouched); a character device or FIFO
(/dev/stdout) is written directly. Standard output carries only what was asked for: with
--print, '-o -' or '--json -' it holds just that, and the summary goes to standard error.

exit codes:
  0  inference ran without errors (warnings and notes may have been printed)
  1  inference found errors (with --strict the model was not written)
  2  usage error, or the model, a schemas file or an output could not be read or written
)";

// Model text (names, op types, dim_params, strings) may hold any bytes. Everything the
// command prints as text goes through this, so that no byte of a model can drive the
// terminal: control characters (C0, DEL, and C1 as UTF-8 encodes them) and bytes that are
// not valid UTF-8 are printed as \xNN. With `keep_newlines`, '\n' stays (multi-line output
// such as --values); a diagnostic is one line, so its newlines are escaped too.
std::string TerminalSafe(std::string_view text, bool keep_newlines = false) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  auto escape = [&](unsigned char c) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
  };
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && !(keep_newlines && c == '\n')) || c == 0x7f) {
        escape(c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // The length of a well-formed UTF-8 sequence starting here (RFC 3629), 0 if none.
    size_t len = c >= 0xc2 && c <= 0xdf   ? 2
                 : c >= 0xe0 && c <= 0xef ? 3
                 : c >= 0xf0 && c <= 0xf4 ? 4
                                          : 0;
    if (len != 0 && i + len <= text.size()) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      bool ok = (c1 & 0xc0) == 0x80;
      if (c == 0xe0 && c1 < 0xa0) ok = false;  // overlong
      if (c == 0xed && c1 > 0x9f) ok = false;  // surrogates
      if (c == 0xf0 && c1 < 0x90) ok = false;  // overlong
      if (c == 0xf4 && c1 > 0x8f) ok = false;  // above U+10FFFF
      for (size_t k = 2; k < len; ++k) {
        ok = ok && (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
      }
      if (ok && !(c == 0xc2 && c1 <= 0x9f)) {  // U+0080..U+009F: the C1 controls
        out.append(text.substr(i, len));
        i += len;
        continue;
      }
    }
    escape(c);
    ++i;
  }
  return out;
}

struct Flags {
  std::string model;
  std::string output;
  std::string json;
  std::vector<std::string> schemas;
  std::vector<std::string> assumptions;  // --assume, as given
  bool assume_positive = false;
  bool overridable_initializers = false;
  bool check_types = true;
  std::vector<std::string> binds;         // "B=1,S=128"
  std::vector<std::string> input_shapes;  // "x:1,3,H,W"
  std::vector<std::string> set_inputs;    // "sr=16000"
  ExplainFlags explain;                   // --explain, --what-if
  ContractFlags contract;                 // --contract, --range, --check-profile
  bool memory = false;
  bool cost = false;
  bool lint = false;  // --lint
  bool in_place = false;
  bool strict = false;
  DeclaredPolicy declared_policy = DeclaredPolicy::kInferred;
  bool data_prop = true;
  bool values = false;
  bool json_values = false;  // the report's "values" section
  bool print = false;
  bool quiet = false;
  int64_t max_expanded_nodes = InferenceOptions().max_expanded_nodes;
  bool model_given = false;

  // '-' names standard input (the model) or standard output (-o, --json); /dev/stdout is
  // standard output too, so that the summary does not go into the data.
  bool model_from_stdin() const { return model == "-"; }
  bool output_to_stdout() const { return output == "-" || output == "/dev/stdout"; }
  bool json_to_stdout() const { return json == "-" || json == "/dev/stdout"; }
  // Standard output holds data (a model or a report): everything else goes to stderr.
  bool stdout_is_data() const { return print || output_to_stdout() || json_to_stdout(); }
  // The model's name in messages.
  std::string model_name() const { return model_from_stdin() ? "<stdin>" : model; }
};

// Parses argv; returns an error message, or "" when fine. `help` is set for -h, `version`
// for --version.
std::string ParseFlags(int argc, char** argv, Flags* flags, bool* help, bool* version) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool options_done = false;  // after "--", every argument is a model name
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (options_done || a == "-" || a.empty() || a[0] != '-') {
      if (flags->model_given) {
        return "more than one model given ('" + flags->model + "' and '" + a + "')";
      }
      flags->model = a;
      flags->model_given = true;
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    auto value = [&](std::string* out) -> bool {
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      return true;
    };
    if (a == "-h" || a == "--help") {
      *help = true;
      return "";
    } else if (a == "--version") {
      *version = true;
      return "";
    } else if (a == "-o" || a == "--output") {
      if (!value(&flags->output) || flags->output.empty()) return a + " needs a file name";
    } else if (a.rfind("--output=", 0) == 0) {
      flags->output = a.substr(9);
      if (flags->output.empty()) return "--output needs a file name";
    } else if (a == "--json") {
      if (!value(&flags->json) || flags->json.empty()) return "--json needs a file name";
    } else if (a.rfind("--json=", 0) == 0) {
      flags->json = a.substr(7);
      if (flags->json.empty()) return "--json needs a file name";
    } else if (a == "--schemas") {
      std::string file;
      if (!value(&file)) return "--schemas needs a file name";
      flags->schemas.push_back(file);
    } else if (a.rfind("--schemas=", 0) == 0) {
      flags->schemas.push_back(a.substr(10));
    } else if (a == "--assume" || a.rfind("--assume=", 0) == 0) {
      std::string text = a == "--assume" ? "" : a.substr(9);
      if (a == "--assume" && !value(&text))
        return "--assume needs a bound such as 'S >= 2' or 'S <= 2048'";
      std::string why;
      if (!symbolic::ParseAssumption(text, &why)) return "--assume '" + text + "': " + why;
      flags->assumptions.push_back(text);
    } else if (a == "--assume-positive") {
      flags->assume_positive = true;
    } else if (a == "--overridable-initializers") {
      flags->overridable_initializers = true;
    } else if (a == "--no-check-types") {
      flags->check_types = false;
    } else if (a == "--policy" || a.rfind("--policy=", 0) == 0) {
      std::string text = a == "--policy" ? "" : a.substr(9);
      if (a == "--policy" && !value(&text)) return "--policy needs a value";
      auto policy = ParseDeclaredPolicy(text);
      if (!policy) {
        return "--policy '" + text + "': expected inferred, refine, override or strict";
      }
      flags->declared_policy = *policy;
    } else if (a == "--bind" || a == "--input-shape" || a == "--set-input") {
      std::string text;
      if (!value(&text)) return a + " needs a value";
      (a == "--bind"          ? flags->binds
       : a == "--input-shape" ? flags->input_shapes
                              : flags->set_inputs)
          .push_back(text);
    } else if (a.rfind("--bind=", 0) == 0) {
      flags->binds.push_back(a.substr(7));
    } else if (a.rfind("--input-shape=", 0) == 0) {
      flags->input_shapes.push_back(a.substr(14));
    } else if (a.rfind("--set-input=", 0) == 0) {
      flags->set_inputs.push_back(a.substr(12));
    } else if (a == "--max-expanded-nodes") {
      std::string n;
      if (!value(&n) || n.empty() || n.find_first_not_of("0123456789") != std::string::npos ||
          n.size() > 15) {
        return "--max-expanded-nodes needs a count of nodes";
      }
      flags->max_expanded_nodes = std::stoll(n);
    } else if (a == "--explain" || a == "--what-if") {
      std::string text;
      if (!value(&text) || text.empty()) return a + " needs a value";
      (a == "--explain" ? flags->explain.targets : flags->explain.what_if).push_back(text);
    } else if (a.rfind("--explain=", 0) == 0) {
      flags->explain.targets.push_back(a.substr(10));
    } else if (a.rfind("--what-if=", 0) == 0) {
      flags->explain.what_if.push_back(a.substr(10));
    } else if (a == "--contract" || a == "--range" || a == "--profile" || a == "--profile-format") {
      std::string text;
      if (!value(&text) || text.empty()) return a + " needs a value";
      if (a == "--contract") {
        flags->contract.file = text;
      } else if (a == "--range") {
        flags->contract.ranges.push_back(text);
      } else if (a == "--profile") {
        flags->contract.profile = text;
      } else {
        flags->contract.profile_format = text;
        flags->contract.profile_format_given = true;
      }
    } else if (a == "--check-profile") {
      flags->contract.check_profile = true;
    } else if (a == "--memory") {
      flags->memory = true;
    } else if (a == "--cost") {
      flags->cost = true;
    } else if (a == "--lint") {
      flags->lint = true;
    } else if (a == "--in-place") {
      flags->in_place = true;
    } else if (a == "--no-data-prop") {
      flags->data_prop = false;
    } else if (a == "--strict") {
      flags->strict = true;
    } else if (a == "--values") {
      flags->values = true;
    } else if (a == "--json-values") {
      flags->json_values = true;
    } else if (a == "--print") {
      flags->print = true;
    } else if (a == "--quiet" || a == "-q") {
      flags->quiet = true;
    } else {
      return "unknown option " + a;
    }
  }
  if (!flags->model_given) return "no model given";
  if (flags->model.empty()) return "the model's name is empty";
  // The specialization flags' syntax; whether they fit the model is checked once it is read.
  for (const auto& text : flags->binds) {
    if (auto b = ParseBindings(text); !b.ok()) return "--bind: " + b.status().message();
  }
  for (const auto& text : flags->input_shapes) {
    if (auto s = ParseInputShape(text); !s.ok()) return "--input-shape: " + s.status().message();
  }
  for (const auto& text : flags->set_inputs) {
    if (auto v = ParseInputValue(text); !v.ok()) return "--set-input: " + v.status().message();
  }
  if (flags->in_place && !flags->output.empty()) return "--in-place and -o exclude each other";
  if (flags->in_place && flags->model_from_stdin()) {
    return "--in-place needs a model file, not standard input";
  }
  if (flags->in_place) flags->output = flags->model;
  const int to_stdout = flags->print + flags->output_to_stdout() + flags->json_to_stdout();
  if (to_stdout > 1) {
    return "only one of --print, '-o -' and '--json -' can use standard output";
  }
  if (flags->json_values && flags->json.empty()) return "--json-values needs --json";
  if (std::string e = CheckContractFlags(flags->contract); !e.empty()) return e;
  // Two outputs on one file: the report, written last, would replace the model (the user's
  // own with --in-place). Compared by what the names land on, not by how they are spelt.
  if (!flags->json.empty() && !flags->json_to_stdout()) {
    const char* other = nullptr;
    if (!flags->output.empty() && !flags->output_to_stdout() &&
        SameOutputFile(flags->output, flags->json)) {
      other = flags->in_place ? "--in-place (the model)" : "-o";
    } else if (!flags->model_from_stdin() && SameOutputFile(flags->model, flags->json)) {
      other = "the model";
    }
    if (other) {
      return StrCat("--json '", flags->json, "' and ", other, " '",
                    flags->in_place || !flags->output.empty() ? flags->output : flags->model,
                    "' are the same file: the report would replace the model");
    }
  }
  return "";
}

// The specialization flags as InferenceOptions ("" when fine; their syntax was checked).
std::string SpecializationOptions(const Flags& flags, InferenceOptions& options) {
  for (const auto& text : flags.binds) {
    const auto bindings = *ParseBindings(text);
    for (const auto& [name, value] : bindings) {
      auto [it, inserted] = options.bind.emplace(name, value);
      if (!inserted && it->second != value) {
        return StrCat("--bind: ", name, " is bound twice: to ", it->second, " and to ", value);
      }
    }
  }
  for (const auto& text : flags.input_shapes) {
    auto shape = *ParseInputShape(text);
    if (!options.input_shapes.emplace(shape.first, shape.second).second) {
      return StrCat("--input-shape: input '", shape.first, "' is given twice");
    }
  }
  for (const auto& text : flags.set_inputs) options.input_values.push_back(*ParseInputValue(text));
  return "";
}

// A byte count in the JSON report: a number, an expression's text, or null when unknown.
nlohmann::json BytesJson(const Dim& bytes) {
  if (bytes.is_unknown()) return nullptr;
  if (auto v = bytes.const_value()) return *v;
  return bytes.ToString();
}

std::string StepLabel(const MemoryStep& step) {
  return StrCat("node #", step.node_index,
                step.node_name.empty() ? std::string() : StrCat(" '", step.node_name, "'"), " (",
                step.op_type, ")");
}

nlohmann::json MemoryJson(const MemoryEstimate& m) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : m.values) {
    values.push_back({{"graph", v.graph}, {"name", v.name}, {"bytes", BytesJson(v.bytes)}});
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : m.steps) {
    steps.push_back({{"node_index", step.node_index},
                     {"node_name", step.node_name},
                     {"op", step.op_type},
                     {"live_bytes", BytesJson(step.live_bytes)},
                     {"unknown_values", step.unknown_values}});
  }
  nlohmann::json peak_nodes = nlohmann::json::array();
  for (int k : m.peak_steps) peak_nodes.push_back(m.steps[k].node_index);
  return {{"values", std::move(values)},
          {"weight_bytes", BytesJson(m.weight_bytes)},
          {"weights", m.weights},
          {"weights_of_unknown_size", m.weights_unknown_size},
          {"peak_bytes", BytesJson(m.peak_bytes)},
          {"peak_decided", m.peak_decided},
          {"peak_nodes", std::move(peak_nodes)},
          {"activations_of_unknown_size", m.unknown_activations},
          {"steps", std::move(steps)}};
}

// What --memory prints.
void PrintMemory(const MemoryEstimate& m, const InferenceResult& result, std::ostream& out) {
  out << "memory in bytes (docs/memory.md):\n";
  std::string graph;
  for (const auto& v : m.values) {
    if (v.graph != graph) {
      graph = v.graph;
      out << "graph " << graph << ":\n";
    }
    const Type* type = result.TypeOf(v.graph, v.name);
    out << "  " << v.name << ": " << (type ? type->ToString() : "?") << " = "
        << FormatBytes(v.bytes) << "\n";
  }
  out << "weights: " << FormatBytes(m.weight_bytes) << " in " << m.weights << " tensors";
  if (m.weights_unknown_size) out << " (" << m.weights_unknown_size << " of unknown size)";
  out << "\n";
  out << "activations: peak " << FormatBytes(m.peak_bytes);
  if (m.peak_decided) {
    out << " at " << StepLabel(m.steps[m.peak_steps.front()]);
  } else if (!m.peak_steps.empty()) {
    std::vector<std::string> labels;
    for (int k : m.peak_steps) labels.push_back(StepLabel(m.steps[k]));
    out << ", at whichever of " << StrJoin(labels, ", ") << " is largest for the symbols' values";
  }
  if (m.unknown_activations) {
    out << "; " << m.unknown_activations
        << " activations of unknown size are not counted, so it is a lower bound";
  }
  out << "\n";
}

// Each symbol's range: {"symbol", "min", "max" (absent: unbounded), "assumed" (which of the
// two bounds rest on the user's --assume), "origins"}.
nlohmann::json BoundsJson(const InferenceResult& result) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& b : result.bounds) {
    nlohmann::json j = {{"symbol", b.symbol}, {"min", b.lo}, {"origins", b.origins}};
    if (b.hi) j["max"] = *b.hi;
    nlohmann::json assumed = nlohmann::json::array();
    if (b.lo_assumed) assumed.push_back("min");
    if (b.hi_assumed) assumed.push_back("max");
    j["assumed"] = std::move(assumed);
    out.push_back(std::move(j));
  }
  return out;
}

// The report's "values": every value of every graph inference recorded (--json-values).
nlohmann::json ValuesJson(const InferenceResult& result) {
  nlohmann::json values = nlohmann::json::array();
  for (const ValueReport& r : ReportValues(result.value_types)) {
    nlohmann::json v = {{"graph", r.graph},          {"name", r.name},   {"role", r.role},
                        {"type", r.type.ToString()}, {"known", r.known}, {"symbols", r.symbols},
                        {"agreement", r.agreement}};
    if (r.declared) v["declared"] = r.declared->ToString();
    if (r.inferred) v["inferred"] = r.inferred->ToString();
    if (!r.contradiction.empty()) v["contradiction"] = r.contradiction;
    values.push_back(std::move(v));
  }
  return values;
}

nlohmann::json Report(const Flags& flags, const InferenceResult& result,
                      const MemoryEstimate* memory) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& d : result.diagnostics) {
    nlohmann::json j = {{"severity", SeverityName(d.severity)},
                        {"code", CodeId(d.code)},
                        {"kind", CodeName(d.code)},
                        {"graph", d.graph},
                        {"message", d.message}};
    if (d.node_index >= 0) {
      j["node_index"] = d.node_index;
      j["node_name"] = d.node_name;
    }
    if (!d.op.empty()) j["op"] = d.op;
    if (!d.subject.empty()) {
      nlohmann::json subject = {{"kind", d.subject.kind}};
      if (d.subject.index >= 0) subject["index"] = d.subject.index;
      if (!d.subject.name.empty()) subject["name"] = d.subject.name;
      j["subject"] = std::move(subject);
    }
    diagnostics.push_back(std::move(j));
  }
  nlohmann::json symbols = nlohmann::json::array();
  int64_t declared = 0;
  for (const auto& sym : result.symbols) {
    declared += sym.declared;
    symbols.push_back({{"name", sym.name}, {"declared", sym.declared}, {"origin", sym.origin}});
  }
  const InferenceStats& s = result.stats;
  nlohmann::json report = {
      {"version", kVersion},
      {"model", flags.model},
      {"summary",
       {{"nodes", s.nodes},
        {"values", s.values},
        {"typed", s.typed},
        {"shaped", s.shaped},
        {"static_shaped", s.static_shaped},
        {"symbolic", s.symbolic},
        {"partial", s.partial},
        {"type_only", s.type_only},
        {"unknown", s.unknown},
        {"nodes_without_rule", s.nodes_without_rule},
        {"symbols_declared", declared},
        {"symbols_introduced", static_cast<int64_t>(result.symbols.size()) - declared},
        {"facts", result.facts.size()},
        {"errors", result.CountOf(Severity::kError)},
        {"warnings", result.CountOf(Severity::kWarning)},
        {"notes", result.CountOf(Severity::kNote)}}},
      {"symbols", std::move(symbols)},
      {"facts", result.facts},
      {"assumptions", flags.assumptions},
      {"assume_positive", flags.assume_positive},
      {"overridable_initializers", flags.overridable_initializers},
      {"policy", DeclaredPolicyName(flags.declared_policy)},
      {"conditions", result.conditions},
      {"bounds", BoundsJson(result)},
      {"relations", result.relations},
      {"diagnostics", std::move(diagnostics)},
  };
  if (memory) report["memory"] = MemoryJson(*memory);
  if (flags.json_values) report["values"] = ValuesJson(result);
  return report;
}

// The JSON report's text. Model text that is not valid UTF-8 (which JSON cannot hold) has
// each invalid byte replaced by U+FFFD, so the report is always written.
std::string ReportText(const nlohmann::json& report) {
  return report.dump(2, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

// The report of a run that stopped before inference (the model or a schemas file could not
// be read, a specialization flag does not fit the model): its one error as a diagnostic.
nlohmann::json FailureReport(const Flags& flags, const std::string& message, DiagCode code) {
  return {{"version", kVersion},
          {"model", flags.model},
          {"exit_code", kExitUsageOrIo},
          {"diagnostics", nlohmann::json::array({{{"severity", "error"},
                                                  {"code", CodeId(code)},
                                                  {"kind", CodeName(code)},
                                                  {"message", message}}})}};
}

// Writes the report where --json says; "" when fine, else the error.
std::string WriteReport(const Flags& flags, const nlohmann::json& report) {
  const std::string text = ReportText(report);
  Status st = flags.json_to_stdout() ? OutputFile::Stream(STDOUT_FILENO, "<stdout>").Write(text)
                                     : WriteFileAtomically(flags.json, text);
  if (st.ok() && flags.json_to_stdout()) std::cout.flush();
  return st.ok() ? "" : st.message();
}

void PrintError(const std::string& message) {
  std::cerr << "infer-shapes: " << TerminalSafe(message) << "\n";
}

// A run that stops before inference: the error, of the kind `code`, and the report when one
// is asked for.
int Fail(const Flags& flags, const std::string& message, DiagCode code) {
  PrintError(StrCat("error[", CodeId(code), "]: ", message));
  if (!flags.json.empty()) {
    if (std::string error = WriteReport(flags, FailureReport(flags, message, code));
        !error.empty()) {
      PrintError(error);
    }
  }
  return kExitUsageOrIo;
}

int Run(int argc, char** argv, const SchemaRegistry& base_registry) {
  Flags flags;
  bool help = false;
  bool version = false;
  std::string error = ParseFlags(argc, argv, &flags, &help, &version);
  if (help) {
    std::cout << kUsage;
    return kExitOk;
  }
  if (version) {
    std::cout << "infer-shapes (onnx-infer) " << kVersion << "\n";
    return kExitOk;
  }
  if (!error.empty()) {
    std::cerr << "infer-shapes: " << TerminalSafe(error) << "\n"
              << "Try 'infer-shapes --help' for the options.\n";
    return kExitUsageOrIo;
  }
  // Standard output carries only what was asked for: the model text, the model or the
  // report when one of them goes there; the summary and listings otherwise.
  std::ostream& info = flags.stdout_is_data() ? std::cerr : std::cout;
  const std::string name = flags.model_name();

  const SchemaRegistry* registry = &base_registry;
  SchemaRegistry with_custom;
  if (!flags.schemas.empty()) {
    with_custom = base_registry;
    for (const auto& file : flags.schemas) {
      Status st = LoadCustomSchemasFile(file, with_custom);
      if (!st.ok()) return Fail(flags, st.message(), DiagCode::kSchemasInvalid);
    }
    registry = &with_custom;
  }
  // A model file is parsed onto an arena (LoadModelOnArena: less memory on a large model);
  // standard input onto the heap. Never freed: the process ends right after, and freeing a
  // large model costs about a tenth of the run (docs/performance.md). The static pointers
  // keep them reachable for leak checkers.
  // A caller that runs the command more than once in one process (the report test) frees
  // the previous run's model here.
  static google::protobuf::Arena* arena = nullptr;
  static onnx::ModelProto* heap_model = nullptr;
  static onnx::ModelProto* model = nullptr;
  // The model file, read again at the write for the parts inference leaves as they were.
  std::optional<ModelSource> source;
  delete heap_model;
  heap_model = nullptr;
  delete arena;
  arena = nullptr;
  model = nullptr;
  if (flags.model_from_stdin()) {
    auto loaded = LoadModelFromDescriptor(STDIN_FILENO, name);
    if (!loaded.ok()) return Fail(flags, loaded.status().message(), DiagCode::kModelUnreadable);
    model = heap_model = new onnx::ModelProto(std::move(*loaded));
  } else {
    // Inference reads no initializer data of more than max_value_elements elements, so such
    // raw_data may stay in the file (FileParseOptions): the write copies the initializers
    // from the file, or reads it back first. Not under the options that read the model as
    // loaded: --print shows the data; --memory, --cost, --explain and the contract reread it.
    FileParseOptions parse_options;
    if (!flags.print && !flags.memory && !flags.cost && !flags.explain.requested() &&
        !flags.contract.requested()) {
      parse_options.leave_raw_data_above = std::max(
          kLeaveRawDataAboveMin,
          static_cast<uint64_t>(InferenceOptions().max_value_elements * kMaxDecodedElementBytes));
    }
    auto loaded = LoadModelOnArena(flags.model, parse_options);
    if (!loaded.ok()) return Fail(flags, loaded.status().message(), DiagCode::kModelUnreadable);
    arena = loaded->arena.release();
    model = loaded->model;
    source = std::move(loaded->source);
  }
  InferenceOptions options;
  options.strict = flags.strict;
  options.declared_policy = flags.declared_policy;
  options.data_propagation = flags.data_prop;
  options.max_expanded_nodes = flags.max_expanded_nodes;
  options.assumptions = flags.assumptions;
  options.assume_positive = flags.assume_positive;
  options.overridable_initializers = flags.overridable_initializers;
  options.check_types = flags.check_types;
  // Only --values, --memory, --cost and --json-values read the listing of every value's type.
  options.record_value_types =
      flags.values || flags.memory || flags.cost || flags.json_values || flags.lint;
  // The model is only written after inference, with nothing reading it in between but
  // --print and --memory: its new value_info entries can go to the output as bytes
  // (InferenceOptions::stream_new_value_info), never made as messages.
  options.stream_new_value_info =
      !flags.output.empty() && !flags.print && !flags.memory && !flags.cost;
  if (std::string error = SpecializationOptions(flags, options); !error.empty()) {
    return Fail(flags, error, DiagCode::kOptionInvalid);
  }
  if (Status st = CheckSpecialization(*model, options); !st.ok()) {
    return Fail(flags, StrCat(name, ": ", st.message()), DiagCode::kOptionInvalid);
  }
  // External data is looked for beside the model file, and nowhere else; a model read from
  // standard input has no directory, so none is read.
  if (!flags.model_from_stdin()) {
    const std::filesystem::path model_dir = std::filesystem::path(flags.model).parent_path();
    options.model_dir = model_dir.empty() ? std::filesystem::path(".") : model_dir;
  }
  // --explain: the driver's per-node record, every value's type, and the model as loaded for
  // the what-if runs.
  std::optional<onnx::ModelProto> original;
  if (flags.explain.requested()) {
    options.record_provenance = true;
    options.record_value_types = true;
    options.stream_new_value_info = false;
    original.emplace(*model);
  }
  // --cost under --bind reads the expressions from the model as read (docs/cost.md).
  std::optional<onnx::ModelProto> pristine;
  if (flags.cost && !options.bind.empty()) pristine = *model;
  InferenceResult result = InferShapes(*model, *registry, options);

  for (const auto& d : result.diagnostics) {
    if (flags.quiet && d.severity != Severity::kError) continue;
    std::cerr << TerminalSafe(d.Render(name)) << "\n";
  }
  if (flags.values) {
    info << TerminalSafe(FormatValues(result.value_types.at("main")), /*keep_newlines=*/true);
  }
  std::optional<MemoryEstimate> memory;
  if (flags.memory) {
    memory = EstimateMemory(*model, result);
    std::ostringstream text;
    PrintMemory(*memory, result, text);
    info << TerminalSafe(text.str(), /*keep_newlines=*/true);
  }
  std::optional<CostReport> cost;
  if (flags.cost) {
    cost = CostOfRun(*model, result, pristine ? &*pristine : nullptr, *registry, options);
    std::ostringstream text;
    PrintCostReport(*cost, text);
    info << TerminalSafe(text.str(), /*keep_newlines=*/true);
  }
  if (flags.print) std::cout << syntax::PrintModelText(*model);
  // --contract, --range, --check-profile (docs/deploy.md).
  std::optional<ContractRun> contract_run;
  ContractFlags contract_flags = flags.contract;
  contract_flags.bind = options.bind;  // --bind: what it derives and leaves free
  contract_flags.print_bind = !flags.quiet;
  contract_flags.registry = registry;  // the values of shape-tensor inputs are probed
  contract_flags.options = &options;
  if (contract_flags.requested()) {
    contract_run = RunContract(contract_flags, *model, result, info, std::cerr,
                               memory ? &*memory : nullptr, cost ? &cost->cost : nullptr);
    if (!contract_run->error.empty()) PrintError(contract_run->error);
  }
  // Lint (docs/lint.md). Without --lint, the declared axes an exporter pinned (L001, L003) are
  // still printed as warning lines, apart from the diagnostics: they change no exit code.
  std::vector<LintFinding> findings;
  if (flags.lint || !flags.quiet) findings = Lint(*model, result, /*shape_checks=*/flags.lint);
  if (!flags.lint) {
    findings.erase(
        std::remove_if(findings.begin(), findings.end(),
                       [](const LintFinding& f) { return f.id != "L001" && f.id != "L003"; }),
        findings.end());
  }
  if (flags.lint || !flags.quiet) {
    std::ostringstream text;
    PrintFindings(findings, name, flags.lint, text);
    std::cerr << TerminalSafe(text.str(), /*keep_newlines=*/true);
  }
  nlohmann::json explain_json = nullptr;
  if (original) {
    std::ostringstream text;
    std::string error = RunExplain(flags.explain, *original, *model, *registry, options, result,
                                   text, flags.json.empty() ? nullptr : &explain_json);
    if (!error.empty()) return Fail(flags, error, DiagCode::kOptionInvalid);
    info << TerminalSafe(text.str(), /*keep_newlines=*/true);
  }
  const InferenceStats& s = result.stats;
  if (!flags.quiet) {
    info << TerminalSafe(name) << ": " << s.nodes << " nodes, " << s.values
         << " values: " << s.typed << " typed, " << s.shaped << " fully shaped (" << s.static_shaped
         << " static, " << s.symbolic << " symbolic), " << s.unknown << " unknown; "
         << result.CountOf(Severity::kError) << " errors, " << result.CountOf(Severity::kWarning)
         << " warnings, " << result.CountOf(Severity::kNote) << " notes\n";
  }
  info.flush();
  std::cout.flush();

  // The model first, then the report, which says what became of the model.
  int exit_code = result.HasErrors() ? kExitInferenceErrors : kExitOk;
  if (contract_run && contract_run->violated) exit_code = kExitInferenceErrors;
  if (contract_run && !contract_run->error.empty()) exit_code = kExitUsageOrIo;
  nlohmann::json output = nullptr;
  if (!flags.output.empty()) {
    const std::string target = flags.output_to_stdout() ? "<stdout>" : flags.output;
    output = {{"path", flags.output}, {"written", false}};
    // Options that contradict the model would be written over what inference proves (a
    // bound 9 where the model computes 7): such a model is never written.
    const bool options_contradicted = result.HasCode(kDiagOptionContradiction);
    const bool declared_contradicted = flags.declared_policy == DeclaredPolicy::kStrict &&
                                       result.HasCode(kDiagDeclaredContradiction, Severity::kError);
    if ((flags.strict && result.HasErrors()) || options_contradicted || declared_contradicted) {
      const std::string why = options_contradicted ? "not written: the options contradict the model"
                              : declared_contradicted
                                  ? "not written: a declared type contradicts inference "
                                    "(--policy strict)"
                                  : "not written: inference found errors (--strict)";
      std::cerr << "infer-shapes: " << TerminalSafe(target) << ": " << why << "\n";
      output["error"] = why;
    } else {
      Status st =
          flags.output_to_stdout()
              ? SaveModelToDescriptor(*model, result.new_value_info, STDOUT_FILENO, target,
                                      source ? &*source : nullptr)
              : SaveModel(*model, result.new_value_info, flags.output, source ? &*source : nullptr);
      if (st.ok()) {
        output["written"] = true;
        if (!flags.quiet && !flags.output_to_stdout()) {
          info << "wrote " << TerminalSafe(flags.output) << "\n";
        }
      } else {
        PrintError(st.message());
        output["error"] = st.message();
        exit_code = kExitUsageOrIo;
      }
    }
  }
  if (!flags.json.empty()) {
    nlohmann::json report = Report(flags, result, memory ? &*memory : nullptr);
    if (cost) report["cost"] = CostReportJson(*cost);
    if (flags.lint) report["findings"] = FindingsJson(findings);
    if (!explain_json.is_null()) report["explain"] = std::move(explain_json);
    if (!output.is_null()) report["output"] = std::move(output);
    report["exit_code"] = exit_code;
    if (std::string error = WriteReport(flags, report); !error.empty()) {
      PrintError(error);
      exit_code = kExitUsageOrIo;
    }
  }
  return exit_code;
}

}  // namespace

int RunInferShapes(int argc, char** argv, const SchemaRegistry& base_registry) {
  // Out of memory (a limit such as `ulimit -v` or a container's, or a model that needs more
  // than the machine has) is an error like any other, not an abort: exit 2, and nothing more
  // is written. An output being written when it happens is a temporary file, which goes
  // with the unwinding (OutputFile), so the old file stays as it was. The message is written
  // without allocating, since memory is what is missing.
  try {
    return Run(argc, argv, base_registry);
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    static constexpr char kMessage[] =
        "infer-shapes: out of memory: the model needs more memory than this process may use "
        "(see ulimit -v, or the container's memory limit); nothing was written\n";
    [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    return kExitUsageOrIo;
  }
}

}  // namespace onnx_infer
