// The deployment contract of a model (docs/deploy.md): what whoever runs it must give and
// may rely on, from one inference run. Its inputs with their declared shapes; each input dim
// symbol with the inputs and axes that share it, its bounds and, when the model's facts fix
// it, its value (a constant, or an expression of other symbols: total == past + seq); the
// divisibility the model requires (Mod(C, 2) == 0), its relations and conditions; and the
// inputs whose values (not only shapes) reach shapes.
//
//   InferenceResult result = InferShapes(model, BuiltinSchemas(), options);
//   Contract contract = BuildContract(model, result);
//
// And deployment profiles: min/opt/max values per symbol (`--range seq=1:128:4096`), the
// symbols the facts fix derived from them, the input shapes at each point, and every fact,
// bound, relation and divisibility of the model that a point violates.
#ifndef ONNX_INFER_INFERENCE_CONTRACT_H_
#define ONNX_INFER_INFERENCE_CONTRACT_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/symbolic/dim.h"
#include "onnx_infer/symbolic/unifier.h"

namespace onnx_infer {

// One element of a shape input's value (ContractInput::value_elements), taken as a size (a
// non-negative integer): what the model forces it to be, when it does, and its bounds.
struct ContractValueElement {
  std::string name;    // "shape[1]" (a scalar's is "n[0]"): the name a --range gives it
  std::string symbol;  // the symbol that stood for it in the probing run ("shape__value1")
  // What the model's facts make of it, in the input symbols: "batch", "8*past + 8*seq"; ""
  // when it is free (a deployment must give its range).
  std::string value;
  symbolic::Dim value_dim;
  int64_t min = 0;
  std::optional<int64_t> max;
  std::vector<std::string> bound_origins;
  // The facts that mention it, its elements spelt by name ("shape[0] == batch (...)").
  std::vector<std::string> facts;
};

struct ContractInput {
  std::string name;
  std::string elem_type;  // "float", "int64"; "" when not a tensor or not declared
  // The declared shape, one text per dim: a number, a symbol or expression, or "?" for
  // unknown; absent when the rank is unknown.
  std::optional<std::vector<std::string>> shape;
  std::vector<symbolic::Dim> dims;  // the same as Dims (in the result's symbol context)
  bool has_initializer = false;     // a default value (an initializer listed as an input)
  // The node inputs that read this input's value as a shape, size, axis or count (directly
  // or through arithmetic): "node 'r' (Reshape) input 1". Empty when only its shape matters.
  std::vector<std::string> shape_consumers;
  // A shape input that is a TensorRT shape tensor (an integer scalar, or 1-D of a constant
  // length, with shape consumers, no initializer and no value given): a profile gives its
  // values. Its elements, filled by AddShapeInputValues (empty before).
  bool shape_tensor = false;
  std::vector<ContractValueElement> value_elements;
};

struct ContractSymbol {
  std::string name;
  // Where it appears: (input, axis), in input order.
  std::vector<std::pair<std::string, int>> uses;
  int64_t min = 0;
  std::optional<int64_t> max;
  bool min_assumed = false, max_assumed = false;  // the bound is the user's (--assume)
  std::vector<std::string> bound_origins;
  // What the model's facts make of it (SymbolInfo::value): "4", "past + seq"; "" when free.
  std::string value;
  symbolic::Dim value_dim;
  // The facts that mention it, with their origins.
  std::vector<std::string> facts;
};

struct Contract {
  std::vector<ContractInput> inputs;
  std::vector<ContractSymbol> symbols;  // every symbol of the inputs' shapes, by name
  // The symbols inference introduced (not of the inputs' shapes) that have a bound beyond
  // >= 0: a Gather of a constant table at an unknown index (`n__e0`, 128..512), TopK's k
  // within its axis. Only name, bounds and their origins are set; a profile gives them no
  // value (they follow from the inputs' values, not their shapes).
  std::vector<ContractSymbol> introduced_symbols;
  std::vector<std::string> divisibility;  // "Mod(C, 2) == 0"
  std::vector<std::string> facts;         // InferenceResult::facts
  std::vector<std::string> relations;     // InferenceResult::relations
  std::vector<std::string> conditions;    // InferenceResult::conditions
  // The facts of AddShapeInputValues' probing run that mention a value element's symbol
  // (ContractValueElement::symbol), in the result's symbol context, and whether the probing
  // run reported errors the model's own run did not (its facts are then not used).
  std::vector<symbolic::Fact> value_facts;
  bool value_probe_failed = false;
};

// The contract of `model` as annotated by the run that gave `result`.
Contract BuildContract(const onnx::ModelProto& model, const InferenceResult& result);

// What the model forces the values of its shape-tensor inputs to (ContractInput::
// value_elements): a copy of `model` (as given to InferShapes, or as it annotated it: the
// main graph's value_info is dropped) is inferred again, under `options` (the run's own,
// giving `result`), with each element of each shape-tensor input a size of at least 1 of its
// own (1 + a fresh symbol); the facts that run learns relate them to the input symbols (a
// Reshape whose output is declared [batch, 8*total] makes shape == [batch, 8*total]). An
// element that no fact fixes linearly in the input symbols is free. An input given a value
// in `options` has that value's constants. Dims are made in the result's context. Runs
// nothing when the contract has no shape-tensor input to probe.
void AddShapeInputValues(const onnx::ModelProto& model, const SchemaRegistry& registry,
                         const InferenceOptions& options, const InferenceResult& result,
                         Contract* contract);

// ---- Completing a partial binding (`--bind seq=1` on a decoder).

// What a binding of some symbols makes of the contract's other input symbols: the ones the
// model's facts now fix (`total = past + 1` from `total == past + seq` and `seq = 1`), each
// with the facts and bindings it follows from, and the ones still free (what a deployment
// must still give).
struct BindingCompletion {
  struct Derived {
    std::string symbol;
    std::string value;              // "past + 1", "5"
    std::vector<std::string> from;  // "total == past + seq (...)", "seq = 1 (bind)"
    std::string ToString()
        const;  // "total = past + 1 (from total == past + seq (...); seq = 1 (bind))"
  };
  std::vector<Derived> derived;
  std::vector<std::string> free;  // by name
};
// `contract` as built from a run with `bind` (InferenceOptions::bind): every symbol of the
// inputs' shapes that is not bound itself, derived when the facts give it a value, else free.
BindingCompletion CompleteBinding(const Contract& contract, const InferenceResult& result,
                                  const std::map<std::string, int64_t, std::less<>>& bind);

// ---- Profiles.

// One symbol's range: min <= opt <= max.
struct SymbolRange {
  std::string symbol;
  int64_t min = 0, opt = 0, max = 0;
};
// "seq=1:128:4096", or "seq=128" for a single value. Nullopt with `*error` set otherwise.
std::optional<SymbolRange> ParseSymbolRange(std::string_view text, std::string* error);

inline constexpr std::array<const char*, 3> kProfilePoints = {"min", "opt", "max"};

struct Profile {
  // Per point (min, opt, max): the value of every symbol given or derived.
  std::array<std::map<std::string, int64_t, std::less<>>, 3> values;
  // "total = past + seq": each symbol the facts fix, and what it was computed from.
  std::vector<std::string> derived;
  // "seq = 1:4096:4096 from its bounds 0 <= seq <= 4096 (origin)": each symbol without a
  // range that took the model's (or the user's --assume) finite bounds.
  std::vector<std::string> from_bounds;
  // A range whose max exceeds the model's own bound ("--range seq: max 5000 exceeds ...").
  std::vector<std::string> warnings;
  // Per input whose shape has a symbol: its shape at each point.
  struct InputShapes {
    std::string input;
    std::array<std::vector<int64_t>, 3> shapes;
  };
  std::vector<InputShapes> inputs;
  // Per shape-tensor input (ContractInput::shape_tensor): its values at each point, which
  // the profile formats give in the place of a shape (`--minShapes=shape:1x8`).
  std::vector<InputShapes> shape_values;
  // What keeps the profile from being complete: a symbol with no range that nothing derives
  // ("symbol 'past' has no --range, no fact derives it and it has no finite bound"), an
  // unknown input dim.
  std::vector<std::string> errors;
};

// The profile of `ranges` for the contract's inputs: each symbol of the inputs takes its
// range, or the value the facts give it from the others (a fact linear in one unknown symbol
// is solved for it, and the solution checked), or else, when its bounds are finite, min =
// max(lower bound, 1) and opt = max = its upper bound (`from_bounds`).
Profile MakeProfile(const Contract& contract, const InferenceResult& result,
                    const std::vector<SymbolRange>& ranges);

// `--minShapes=x:1x1x8,past:1x0x8 --optShapes=... --maxShapes=...` (trtexec's flags).
std::string TrtexecFlags(const Profile& profile);

// The text forms of a profile (docs/deploy.md#profile-formats):
// - kTrtexec: `--minShapes=x:1x3x224x224,y:1x16 --optShapes=... --maxShapes=...`;
// - kOrtTrt: onnxruntime's TensorRT execution provider options, one per line,
//   `trt_profile_min_shapes=x:1x3x224x224,y:1x16` (and _opt_, _max_);
// - kPolygraphy: `--trt-min-shapes x:[1,3,224,224] y:[1,16] --trt-opt-shapes ...
//   --trt-max-shapes ...`;
// - kJson: ProfileJson's object (written by the CLI, not by FormatProfile).
enum class ProfileFormat { kTrtexec, kOrtTrt, kPolygraphy, kJson };
// "trtexec", "ort-trt", "polygraphy", "json".
std::optional<ProfileFormat> ParseProfileFormat(std::string_view text);
const char* ProfileFormatName(ProfileFormat format);
// The profile in `format` (kTrtexec, kOrtTrt or kPolygraphy; kJson gives the trtexec text).
std::string FormatProfile(const Profile& profile, ProfileFormat format);

// A profile the user gives: per input, its shape at min, opt and max.
struct GivenProfile {
  ProfileFormat format = ProfileFormat::kTrtexec;
  std::vector<Profile::InputShapes> inputs;
};
// Parses a profile in any of the three text formats, told apart by their keys (`--minShapes=`,
// `trt_profile_min_shapes`, `--trt-min-shapes`). Each of min, opt and max must be given, and
// every input in one of them in all three with the same rank. Nullopt with `*error` set (what
// is wrong and where) otherwise.
std::optional<GivenProfile> ParseProfileText(std::string_view text, std::string* error);

// A fact, bound, relation or divisibility of the model that a point of the profile breaks.
struct ProfileViolation {
  std::string point;   // "min", "opt", "max"
  std::string what;    // "total_sequence_length == past_sequence_length + sequence_length"
  std::string values;  // "at total_sequence_length = 5, past_sequence_length = 2, ..."
  std::string origin;  // where the model states it
  std::string ToString() const;
};
// Every fact (InferenceResult::fact_dims), bound, relation and divisibility of `result`
// that the profile's values break, at each point. Ones that mention a symbol the profile
// has no value for are not checked. The conditions (text) are not evaluated.
std::vector<ProfileViolation> CheckProfile(const Profile& profile, const InferenceResult& result);
// The values of the shape-tensor inputs (Profile::shape_values) against what the model
// forces them to (ContractValueElement::value), their bounds and the facts of the probing run
// (Contract::value_facts), at each point. An element given 0 is not checked: what is known
// of an element holds where it is at least 1 (0 is special to a Reshape, which copies the
// input's dim there).
std::vector<ProfileViolation> CheckShapeInputValues(const Contract& contract,
                                                    const Profile& profile,
                                                    const InferenceResult& result);

// The symbol values a given profile means for the contract's inputs: each input dim that is
// a symbol takes the profile's size, then the model's facts derive what they fix, and every
// dim (a constant, an expression) is compared with the profile's size. What does not fit is
// in `*violations` (a constant dim given another size, two inputs that share a symbol given
// different sizes, min > opt); what is missing (an input with a symbolic shape the profile
// does not give, a name no input has, a rank that differs) in the result's `errors`. Check
// the result with CheckProfile for the facts, bounds, relations and divisibility.
Profile ProfileFromShapes(const Contract& contract, const InferenceResult& result,
                          const GivenProfile& given, std::vector<ProfileViolation>* violations);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_CONTRACT_H_
