// What `infer-shapes --contract FILE.json`, `--range` and `--check-profile` write and print
// (docs/deploy.md): the contract of inference/contract.h as JSON (docs/contract.schema.json),
// and the deployment profile as trtexec flags.
#ifndef ONNX_INFER_CLI_CONTRACT_CLI_H_
#define ONNX_INFER_CLI_CONTRACT_CLI_H_

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "onnx_infer/inference/contract.h"
#include "onnx_infer/inference/cost.h"
#include "onnx_infer/inference/memory.h"

namespace onnx_infer {

// The flags: --contract FILE.json, --range SYMBOL=MIN:OPT:MAX (repeatable), --check-profile,
// --profile-format, --profile.
struct ContractFlags {
  std::string file;
  std::vector<std::string> ranges;
  bool check_profile = false;
  // --profile-format trtexec|ort-trt|polygraphy|json: how the profile is printed.
  std::string profile_format = "trtexec";
  bool profile_format_given = false;  // a profile is made also without --range
  // --profile TEXT or @FILE: a profile to check (any of the three text formats).
  std::string profile;
  // --bind's symbols (InferenceOptions::bind): the binding to complete (CompleteBinding).
  std::map<std::string, int64_t, std::less<>> bind;
  bool print_bind = true;  // the bind: lines (not with --quiet, which prints only errors)
  // The run's registry and options: with both, the values of the shape-tensor inputs are
  // probed (AddShapeInputValues) and belong to the contract and its profiles.
  const SchemaRegistry* registry = nullptr;
  const InferenceOptions* options = nullptr;
  bool requested() const {
    return !file.empty() || !ranges.empty() || check_profile || !profile.empty() ||
           profile_format_given || !bind.empty();
  }
};

// The flags' own syntax: "" when fine, else the error.
std::string CheckContractFlags(const ContractFlags& flags);

struct ContractRun {
  std::string error;      // a profile that cannot be made (a symbol without a range), or I/O
  bool violated = false;  // --check-profile found a violation
  // The profile made (from --range or the model's bounds) or given (--profile), for
  // --memory and --cost at its points; absent when none could be made.
  std::optional<Profile> profile;
  // The contract as written to --contract's file (also without one): what the Python API's
  // contract() returns.
  nlohmann::json json;
};
// After inference: builds the contract of `model` (as annotated) and `result`; with --bind,
// what the binding derives and leaves free (printed on `info` as "bind: " lines, and the
// contract's "binding"); with ranges,
// the profile, printed as trtexec flags on `info`, and with --check-profile its violations
// on `err`; writes the contract file when asked.
// With `memory` (--memory) and `cost` (--cost) and a profile, prints their numbers at min,
// opt and max (SizesAtPoints) and puts them in the contract's profile.
ContractRun RunContract(const ContractFlags& flags, const onnx::ModelProto& model,
                        const InferenceResult& result, std::ostream& info, std::ostream& err,
                        const MemoryEstimate* memory = nullptr, const CostEstimate* cost = nullptr);

// The memory estimate and the cost at each point of `profile`: {"memory": {"min": {
// "peak_bytes", "peak_node", "peak_node_index", "steps_not_evaluated"}, ...}, "cost": {"min":
// {"flops", "macs", "top_node", "top_node_flops", "nodes_not_evaluated"}, ...}} (a section
// only with its estimate). A number is null when a symbol the profile does not give (one
// inference introduced inside the model) or an unknown size keeps it from evaluating; a
// peak over the steps that evaluate is a lower bound when some do not. On a tie, the node
// named is the first in run order.
nlohmann::json SizesAtPoints(const Profile& profile, const MemoryEstimate* memory,
                             const CostEstimate* cost);
// The lines --memory and --cost print for them.
void PrintSizesAtPoints(const nlohmann::json& sizes, std::ostream& out);

// The contract as JSON; with `profile`, its "profiles" section (and the violations found).
nlohmann::json ContractJson(const Contract& contract, const Profile* profile,
                            const std::vector<ProfileViolation>* violations);

// A binding's completion as JSON: {"bound": {"seq": 1}, "derived": [{"symbol": "total",
// "value": "past + 1", "from": [...]}], "free": ["batch", "past"]}.
nlohmann::json BindingJson(const std::map<std::string, int64_t, std::less<>>& bind,
                           const BindingCompletion& completion);

// One profile as JSON: per point, each symbol's value and each input's shape; the derived
// symbols; the trtexec flags.
nlohmann::json ProfileJson(const Profile& profile);

}  // namespace onnx_infer

#endif  // ONNX_INFER_CLI_CONTRACT_CLI_H_
