// The `shape` rule of custom operators described in JSON (docs/custom-ops.md): output dims
// written as formulas over input dims and int attributes ("in0[2] / attr.heads",
// "floor((in0[-1] - 1) / 2) + 1"), slices of an input's dims spliced in ("in0[:-2]"), and the
// input ranks a rule accepts ("ranks": {"0": 4}). The JSON itself is read by
// custom_schemas.cc; this file knows formulas, slices and ranks.
//
// Safety: a rule never produces a shape for an input rank it does not state. Every input a
// shape rule indexes has a rank range, stated or (only when a slice of it runs to its end)
// inferred, and an input of known rank outside its range is an error, never a shape.
#ifndef ONNX_INFER_SCHEMA_CUSTOM_SHAPE_RULE_H_
#define ONNX_INFER_SCHEMA_CUSTOM_SHAPE_RULE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/op_schema.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

// The ranks an input may have: exactly `min` when max == min, at least `min` when there is
// no max, else min to max.
struct RankRange {
  int64_t min = 0;
  std::optional<int64_t> max;

  bool Contains(int64_t rank) const { return rank >= min && (!max || rank <= *max); }
  // "rank 4", "rank >= 2", "rank <= 3", "rank 2 to 4".
  std::string ToString() const;
};

// Input index -> the ranks it may have.
using InputRanks = std::map<int, RankRange>;

// The first input of known rank outside its range is an error:
// "input 0 'x': the rule expects rank 4, got rank 3". Inputs of unknown rank pass.
Status CheckInputRanks(const InferenceContext& ctx, const InputRanks& ranks);

// Makes an error about a place inside the rule's JSON object: ErrorAt("dims[2]", "...")
// becomes "my_ops.json: operators[0].rule.dims[2]: ...".
using ErrorAt = std::function<Status(std::string_view key, std::string_view what)>;

// One `dims` entry as written: an integer or a string.
using DimsItem = std::variant<int64_t, std::string>;

// The dims of one `shape` rule, checked against the rank policy when loaded.
class ShapeFormula {
 public:
  // `stated` holds the rule's "ranks" (already checked to name existing inputs); `schema` is
  // the operator's signature, whose inputs and int attributes the formulas may use. Errors
  // name the entry: ErrorAt("dims[1]", "'in0[0] +' at column 9: unexpected end").
  static StatusOr<ShapeFormula> Build(const std::vector<DimsItem>& dims, const InputRanks& stated,
                                      const OpSchema& schema, const ErrorAt& error);

  // The ranks the rule accepts: those stated, plus those inferred from its slices.
  const InputRanks& ranks() const { return ranks_; }

  // The output shape for one node; nullopt when the output's rank is unknown (an input the
  // rule slices has unknown rank). Dims that use an input of unknown rank, or an unknown
  // dim, are unknown. The input ranks must have passed CheckInputRanks(ctx, ranks()).
  // Errors: a missing int attribute, a dim that is provably negative, a division by zero.
  StatusOr<std::optional<Shape>> Evaluate(const InferenceContext& ctx, int output) const;

 private:
  struct Entry;  // one parsed dims entry (custom_shape_rule.cc)
  std::vector<std::shared_ptr<const Entry>> entries_;
  InputRanks ranks_;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_CUSTOM_SHAPE_RULE_H_
