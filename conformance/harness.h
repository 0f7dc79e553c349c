// The conformance harness: runs inference over ONNX's backend test suite and grades every
// output against the value the test expects (docs/conformance.md).
//
// Static mode keeps each model's declared input shapes. Symbolic mode first replaces every
// input dim with a symbol (d0_1 for input 0 axis 1), infers, then binds the symbols to the
// real input shapes and evaluates each output dim, so it checks the symbolic algebra on real
// data. Values mode keeps the declared shapes and gives inference the test data of every
// small integer input (shapes, axes, k, sizes, pads: InferenceOptions::input_values), as a
// user who knows them would; the other inputs stay declared types only. In every mode the
// graph outputs' declared types are removed before inference.
#ifndef ONNX_INFER_CONFORMANCE_HARNESS_H_
#define ONNX_INFER_CONFORMANCE_HARNESS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer::conformance {

// Best first. A value's grade is the worst of its parts.
enum class Grade {
  kExact,     // element type and every dim right
  kSymbolic,  // right rank, some dims symbolic (none unknown)
  kRankOnly,  // right rank, some dims unknown
  kTypeOnly,  // element type right, no shape
  kNone,      // nothing inferred
  kWrong,     // an element type, rank or known dim that disagrees
};
inline constexpr int kNumGrades = 6;
std::string_view GradeName(Grade g);

enum class Mode { kStatic, kSymbolic, kValues };
inline constexpr int kNumModes = 3;
inline constexpr Mode kModes[kNumModes] = {Mode::kStatic, Mode::kSymbolic, Mode::kValues};
std::string_view ModeName(Mode m);

struct Case {
  std::string name;                          // "node/test_add_bcast"
  std::string model;                         // path of model.onnx
  std::vector<std::string> inputs, outputs;  // paths of input_*.pb / output_*.pb, in order
};

struct OutputResult {
  std::string name;
  Grade grade = Grade::kNone;
  std::string inferred, expected;  // readable, for reports of WRONG
};

struct CaseResult {
  std::string name;
  std::string op;     // op_type of the node producing the first output
  std::string error;  // the case could not be run (unreadable files): counted apart
  std::vector<OutputResult> outputs;
};

// Every case under `<shared>/conformance/onnx-backend/`, sorted by name.
std::vector<Case> FindCases(const std::string& shared_dir);

CaseResult RunCase(const Case& c, Mode mode, const SchemaRegistry& registry);

// Symbolic mode's rewrite of `graph`, the model of case `c`: every dim of every graph input
// (initializers aside) whose rank matches the case's data becomes a symbol, d<i>_<axis> for
// input i (counted over inputs without an initializer). Returns each symbol's real value.
using Bindings = std::map<std::string, int64_t, std::less<>>;
Bindings SymbolizeInputs(const Case& c, onnx::GraphProto* graph);

// Values mode's known inputs: for each graph input (initializers aside) declared as an
// integer tensor whose test data has at most `max_elements` elements, that data, named by
// the input, in the graph's input order.
std::vector<KnownInputValue> GivenInputValues(const onnx::GraphProto& graph, const Case& c,
                                              int64_t max_elements);

// One real-world model, inferred with its graph outputs' declared types removed and graded
// against them.
// A node output of a real model's main graph that is not fully shaped.
struct UnshapedValue {
  std::string name, op, type;
  std::vector<std::string> inputs;  // the node's inputs, "name: type"
  // The value it is traced back to: the first not fully shaped value found going up through
  // inputs that are not fully shaped. A value whose node's inputs are all fully shaped is its
  // own cause: its operator's rule, or a value it does not know, stops there.
  std::string cause;
};

struct RealModelResult {
  std::string name;
  std::string error;
  int64_t values = 0, shaped = 0;  // node outputs; with every dim known
  std::vector<OutputResult> outputs;
  std::vector<UnshapedValue> unshaped;  // in the graph's node order
};
std::vector<std::string> FindRealModels(const std::string& shared_dir);
RealModelResult RunRealModel(const std::string& path, const SchemaRegistry& registry);

// Grades an inferred type against an expected one whose dims may be symbolic (a declared
// type): a symbol in the expectation accepts anything; a constant must match.
Grade GradeAgainstDeclared(const Type& inferred, const Type& declared);

}  // namespace onnx_infer::conformance

#endif  // ONNX_INFER_CONFORMANCE_HARNESS_H_
