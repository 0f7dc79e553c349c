// Recurrent operators of ai.onnx: RNN, GRU, LSTM.
#include "onnx_infer/schema/defs/ai_onnx/rnn.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// ---- Recurrent operators.

// Input i's dim `axis` is the dim `known` stands for (`meaning`, e.g. "hidden_size"): the two
// unify into `known`, and the equality is recorded. Provably different dims are an error.
Status Agree(InferenceContext& ctx, Dim& known, int i, size_t axis, std::string_view meaning) {
  const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
  if (!s || axis >= s->size()) return OkStatus();
  const Dim d = (*s)[axis];
  if (d.is_unknown()) return OkStatus();
  if (known.is_unknown()) {
    known = d;
    return OkStatus();
  }
  auto unified = UnifyDim(known, d);
  if (!unified.ok()) {
    return RuleError(DiagCode::kInputDims,
                     StrCat(InputLabel(ctx, i), " dim ", axis, ": expected ", known, " (", meaning,
                            "), got ", d),
                     InputSubject(ctx, i));
  }
  OI_RETURN_IF_ERROR(
      ctx.RecordEqual(known, d, StrCat(InputLabel(ctx, i), " dim ", axis, " and ", meaning)));
  known = *unified;
  return OkStatus();
}

// Input i's dim `axis` is `factor` * hidden_size (W, R, B and P stack their gates).
Status AgreeMultiple(InferenceContext& ctx, Dim hidden, int64_t factor, int i, size_t axis) {
  if (hidden.is_unknown()) return OkStatus();
  Dim expected = Dim::Const(factor) * hidden;
  return Agree(ctx, expected, i, axis, StrCat(factor, " * hidden_size"));
}

// hidden_size from input i's dim `axis`, which is `factor` * hidden_size, when the division
// is exact; an error when it provably is not.
StatusOr<Dim> HiddenFromMultiple(const InferenceContext& ctx, int i, size_t axis, int64_t factor) {
  const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
  if (!s || axis >= s->size() || (*s)[axis].is_unknown()) return Dim();
  const Dim d = (*s)[axis];
  const Dim f = Dim::Const(factor);
  const std::optional<int64_t> rest = Dim::Mod(d, f).const_value();
  if (rest == 0) return Dim::FloorDiv(d, f);
  if (rest) {
    return RuleError(DiagCode::kInputDims,
                     StrCat(InputLabel(ctx, i), " dim ", axis, ": expected a multiple of ", factor,
                            " (", factor, " * hidden_size), got ", d),
                     InputSubject(ctx, i));
  }
  return Dim();
}

// Inputs of RNN, GRU and LSTM.
enum RecurrentInput {
  kX = 0,
  kW = 1,
  kR = 2,
  kB = 3,
  kSeqLens = 4,
  kInitialH = 5,
  kInitialC = 6,
  kP = 7
};

}  // namespace

// RNN (gates = 1), GRU (3) and LSTM (4). With num_directions = 2 for a bidirectional
// direction, else 1:
//   X [seq_length, batch_size, input_size]   W [num_directions, gates*hidden, input_size]
//   R [num_directions, gates*hidden, hidden]  B [num_directions, 2*gates*hidden]
//   sequence_lens [batch_size]   initial_h, initial_c [num_directions, batch_size, hidden]
//   P [num_directions, 3*hidden]
//   Y [seq_length, num_directions, batch_size, hidden]
//   Y_h, Y_c [num_directions, batch_size, hidden]
// From version 14, layout = 1 puts batch_size first in X, initial_h/c, Y and Y_h/c:
// X [batch, seq, input], Y [batch, seq, num_directions, hidden], Y_h [batch, num_directions,
// hidden]. hidden_size is the attribute's, else what R, initial_h/c or (divided) W, B and P
// say. Dims that must agree are unified and recorded.
Status InferRecurrent(InferenceContext& ctx, int64_t gates, bool w_spans_input) {
  const bool lstm = gates == 4;
  int64_t layout = 0;
  if (ctx.schema().since_version() >= 14) {
    OI_ASSIGN_OR_RETURN(layout, ctx.IntAttr("layout", 0));
    if (layout != 0 && layout != 1) {
      return AttrError("layout", StrCat("expected 0 or 1, got ", layout));
    }
  }
  OI_ASSIGN_OR_RETURN(std::string direction, ctx.StringAttr("direction", "forward"));
  int64_t num_directions = 0;
  // GRU-1's schema spells its default "foward".
  if (direction == "forward" || direction == "reverse" || direction == "foward") {
    num_directions = 1;
  } else if (direction == "bidirectional") {
    num_directions = 2;
  } else {
    return AttrError("direction",
                     StrCat("expected forward, reverse or bidirectional, got '", direction, "'"));
  }
  const std::vector<std::pair<int, size_t>> ranks = {
      {kX, 3}, {kW, 3}, {kR, 3}, {kB, 2}, {kSeqLens, 1}, {kInitialH, 3}, {kInitialC, 3}, {kP, 2}};
  for (auto [input, rank] : ranks) {
    if (input >= ctx.NumInputs() || (!lstm && input >= kInitialC)) continue;
    OI_RETURN_IF_ERROR(RequireRank(ctx, input, rank));
  }
  const size_t seq_axis = layout ? 1 : 0, batch_axis = layout ? 0 : 1;
  // initial_h and initial_c: [num_directions, batch] or [batch, num_directions].
  const size_t state_dir_axis = layout ? 1 : 0, state_batch_axis = layout ? 0 : 1;
  std::vector<int> states = {kInitialH};
  if (lstm) states.push_back(kInitialC);

  Dim seq_length, batch, input_size, hidden;
  Dim dirs = Dim::Const(num_directions);
  if (const Shape* x = ctx.InputShape(kX)) {
    seq_length = (*x)[seq_axis];
    batch = (*x)[batch_axis];
    input_size = (*x)[2];
  }
  if (ctx.HasAttr("hidden_size")) {
    OI_ASSIGN_OR_RETURN(int64_t h, ctx.IntAttr("hidden_size"));
    if (h <= 0) {
      return AttrError("hidden_size", StrCat("expected a positive number, got ", h));
    }
    hidden = Dim::Const(h);
  }
  OI_RETURN_IF_ERROR(Agree(ctx, hidden, kR, 2, "hidden_size"));
  for (int s : states) OI_RETURN_IF_ERROR(Agree(ctx, hidden, s, 2, "hidden_size"));
  const std::vector<std::pair<int, int64_t>> multiples = {
      {kW, gates}, {kR, gates}, {kB, 2 * gates}, {kP, 3}};
  for (auto [input, factor] : multiples) {
    if (!hidden.is_unknown()) break;
    if (input == kP && !lstm) continue;
    OI_ASSIGN_OR_RETURN(hidden, HiddenFromMultiple(ctx, input, 1, factor));
  }
  for (auto [input, factor] : multiples) {
    if (input == kP && !lstm) continue;
    OI_RETURN_IF_ERROR(AgreeMultiple(ctx, hidden, factor, input, 1));
  }
  for (int input : {kW, kR, kB}) OI_RETURN_IF_ERROR(Agree(ctx, dirs, input, 0, "num_directions"));
  if (lstm) OI_RETURN_IF_ERROR(Agree(ctx, dirs, kP, 0, "num_directions"));
  for (int s : states) {
    OI_RETURN_IF_ERROR(Agree(ctx, dirs, s, state_dir_axis, "num_directions"));
    OI_RETURN_IF_ERROR(Agree(ctx, batch, s, state_batch_axis, "batch_size"));
  }
  OI_RETURN_IF_ERROR(Agree(ctx, batch, kSeqLens, 0, "batch_size"));
  if (w_spans_input) OI_RETURN_IF_ERROR(Agree(ctx, input_size, kW, 2, "input_size"));

  const Shape y =
      layout ? Shape{batch, seq_length, dirs, hidden} : Shape{seq_length, dirs, batch, hidden};
  const Shape state = layout ? Shape{batch, dirs, hidden} : Shape{dirs, batch, hidden};
  const int num_outputs = lstm ? 3 : 2;
  for (int o = 0; o < num_outputs && o < ctx.NumOutputs(); ++o) {
    if (!ctx.HasOutput(o)) continue;
    ctx.PropagateElemType(kX, o);
    ctx.SetOutputShape(o, o == 0 ? y : state);
  }
  return OkStatus();
}

namespace {

Status InferRNN(InferenceContext& ctx) { return InferRecurrent(ctx, 1); }
Status InferGRU(InferenceContext& ctx) { return InferRecurrent(ctx, 3); }
Status InferLSTM(InferenceContext& ctx) { return InferRecurrent(ctx, 4); }

}  // namespace

Status RegisterAiOnnxRnnRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "RNN", {1, 7, 14, 22}, InferRNN));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GRU", {1, 3, 7, 14, 22}, InferGRU));
  OI_RETURN_IF_ERROR(r.AttachRule("", "LSTM", {1, 7, 14, 22}, InferLSTM));
  return OkStatus();
}

}  // namespace onnx_infer
