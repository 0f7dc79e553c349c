// onnxruntime's com.microsoft operators on plain tensors: the ones that are ONNX operators
// under another domain or an older form (Trilu, Pad, Range, GatherND, GridSample, ExpandDims,
// Unique, Inverse), the FFTs (Rfft, Irfft), complex and distance arithmetic (ComplexMul,
// ComplexMulConj, CDist, SparseToDenseMatMul), lookups (CropAndResize, TorchEmbedding,
// WordConvEmbedding, UnfoldTensor), MurmurHash3, Tokenizer, DynamicTimeWarping, IsAllFinite
// and SampleOp.
//
// Where the document says less than onnxruntime's kernel allocates, or differs from it, the
// rule follows the kernel and says so.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/ai_onnx/generator.h"
#include "onnx_infer/schema/defs/ai_onnx/math/math.h"
#include "onnx_infer/schema/defs/ai_onnx/tensor/indexing.h"
#include "onnx_infer/schema/defs/ai_onnx/tensor/pad.h"
#include "onnx_infer/schema/defs/ai_onnx/tensor/resize.h"
#include "onnx_infer/schema/defs/ai_onnx/tensor/shape.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// A dim of input i that must be `expected` (a pair's 2, a box's 4); `what` says why.
Status RequireDim(InferenceContext& ctx, int i, size_t axis, int64_t expected,
                  const std::string& what) {
  const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
  if (!s || axis >= s->size()) return OkStatus();
  Dim d = Dim::Const(expected);
  return Agree(ctx, d, (*s)[axis], StrCat(InputLabel(ctx, i), " dim ", axis, " (", what, ")"),
               InputSubject(ctx, i));
}

// ---- ONNX operators under com.microsoft

// Pad (com.microsoft): ONNX's Pad 11, with pads [2 * rank] or [1, 2 * rank].
Status InferPad(InferenceContext& ctx) {
  if (const Shape* p = ctx.InputShape(1);
      p && (p->size() < 1 || p->size() > 2 ||
            (p->size() == 2 && (*p)[0].is_const() && (*p)[0] != Dim::Const(1)))) {
    return InputError(ctx, 1, DiagCode::kInputDims,
                      StrCat("expected [2 * rank] or [1, 2 * rank], got ", ShapeToString(*p)));
  }
  return InferPadOf(ctx, PadForm{.pads_input = true});
}

// ExpandDims: X with a dim of 1 inserted at `axis`, a scalar input in [-rank - 1, rank]; a
// negative axis counts from the end, -1 appending and -rank - 1 prepending. The document says
// only "Specified axis to insert a dimension"; onnxruntime 1.30 accepts exactly that range
// (tools/verify_runtime/contrib_probe.py: X [2, 3] with axis -3 gives [1, 2, 3]; axes 3 and
// -4 are refused). X's value, when known, is carried over.
Status InferExpandDims(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  if (const Shape* a = ctx.InputShape(1);
      a && (a->size() > 1 || (a->size() == 1 && (*a)[0].is_const() && (*a)[0] != Dim::Const(1)))) {
    return InputError(ctx, 1, DiagCode::kInputRank,
                      StrCat("expected a scalar, got ", ShapeToString(*a)));
  }
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  const int64_t rank = static_cast<int64_t>(in->size());
  const auto axis = ScalarInputDim(ctx, 1).const_value();
  if (!axis) {
    ctx.SetOutputShape(0, Shape(rank + 1));
    return OkStatus();
  }
  if (*axis < -rank - 1 || *axis > rank) {
    return InputError(ctx, 1, DiagCode::kAxisRange,
                      StrCat("expected an axis in [", -rank - 1, ", ", rank, "] for rank ", rank,
                             ", got ", *axis));
  }
  return UnsqueezeAt(ctx, *in, {*axis >= 0 ? *axis : *axis + rank + 1});
}

// Unique (com.microsoft): a 1-D x (onnxruntime's kernel requires it) gives its U unique
// values y [U], the index of each element in y, idx [len(x)], and counts [U]. U is data
// dependent: exact for a known x or a length of 0 or 1, else one fresh symbol y and counts
// share (as ONNX's Unique).
Status InferUnique(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.SetOutputType(1, Type::Tensor(kInt64));
  ctx.SetOutputType(2, Type::Tensor(kInt64));
  OI_ASSIGN_OR_RETURN(const Shape* x, RankedInput(ctx, 0, 1));
  const Dim length = x ? (*x)[0] : Dim();
  const Dim unique = UniqueCount(ctx, length, /*flattened=*/true, 0, 0);
  ctx.SetOutputShape(0, {unique});
  ctx.SetOutputShape(1, {length});
  ctx.SetOutputShape(2, {unique});
  return OkStatus();
}

// Inverse: X [*, M, M] gives its inverses, of X's type and shape.
Status InferInverse(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  OI_ASSIGN_OR_RETURN(Dim m, SquareMatrixDim(ctx, 0, *in));
  Shape out = *in;
  out[out.size() - 2] = out.back() = m;
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ---- FFTs (onnxruntime's CUDA kernels; signal_ndim in [1, 3])

StatusOr<int64_t> SignalNdim(const InferenceContext& ctx, const Shape* in, int64_t extra) {
  OI_ASSIGN_OR_RETURN(int64_t ndim, ctx.IntAttr("signal_ndim", 1));
  if (ndim < 1 || ndim > 3) {
    return AttrError("signal_ndim", StrCat("expected 1, 2 or 3, got ", ndim));
  }
  if (in) {
    OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *in, static_cast<size_t>(ndim + extra),
                                          StrCat("signal_ndim = ", ndim)));
  }
  return ndim;
}

// Rfft: X's last dim n becomes floor(n / 2) + 1 (n itself with onesided = 0), and a trailing
// dim of 2 holds the real and imaginary parts. (The document says "the signal dim"; the
// kernel transforms over the last signal_ndim dims, and only the last changes size.)
Status InferRfft(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  OI_RETURN_IF_ERROR(SignalNdim(ctx, in, 0).status());
  OI_ASSIGN_OR_RETURN(int64_t onesided, ctx.IntAttr("onesided", 1));
  if (!in) return OkStatus();
  Shape out = *in;
  if (onesided) out.back() = OnesidedBins(out.back());
  out.push_back(Dim::Const(2));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// Irfft: X [..., m, 2], complex pairs, gives [..., 2 * m - 1] (m with onesided = 0). The
// document says the signal dim becomes n where X had n // 2 + 1, i.e. 2 * (m - 1) for the
// even n it mentions; onnxruntime's kernel allocates 2 * m - 1, and that is what is used here.
Status InferIrfft(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  OI_RETURN_IF_ERROR(SignalNdim(ctx, in, 1).status());
  OI_ASSIGN_OR_RETURN(int64_t onesided, ctx.IntAttr("onesided", 1));
  if (!in) return OkStatus();
  OI_RETURN_IF_ERROR(RequireDim(ctx, 0, in->size() - 1, 2, "real and imaginary parts"));
  Shape out(in->begin(), in->end() - 1);
  if (onesided) out.back() = Dim::Const(2) * out.back() - Dim::Const(1);
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ---- Arithmetic

// ComplexMul and ComplexMulConj: A and B hold complex numbers as pairs in a last dim of 2
// (onnxruntime's kernel checks it) and broadcast as Mul does; C has the broadcast shape.
Status InferComplexMul(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  for (int i : {0, 1}) {
    const Shape* s = ctx.InputShape(i);
    if (s && s->empty()) {
      return InputError(ctx, i, DiagCode::kInputRank, "expected a last dim of 2, got a scalar");
    }
    if (s) OI_RETURN_IF_ERROR(RequireDim(ctx, i, s->size() - 1, 2, "real and imaginary parts"));
  }
  const Shape* a = ctx.InputShape(0);
  const Shape* b = ctx.InputShape(1);
  if (!a || !b) return OkStatus();
  OI_ASSIGN_OR_RETURN(Shape out, BroadcastShapes(*a, *b, &ctx));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// CDist: A [M, N] and B [K, N] give the pairwise distances C [M, K].
Status InferCDist(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* a, RankedInput(ctx, 0, 2));
  OI_ASSIGN_OR_RETURN(const Shape* b, RankedInput(ctx, 1, 2));
  if (a && b) {
    Dim n = (*a)[1];
    OI_RETURN_IF_ERROR(Agree(ctx, n, (*b)[1], "feature dims of A and B (dim 1)"));
  }
  ctx.SetOutputShape(0, {a ? (*a)[0] : Dim(), b ? (*b)[0] : Dim()});
  return OkStatus();
}

// SparseToDenseMatMul: a sparse A and a dense B, both 2-D (onnxruntime's kernel; the document
// calls B N-dimensional), transposed by transA and transB, give the dense Y [M, N] of B's type.
Status InferSparseToDenseMatMul(InferenceContext& ctx) {
  ctx.PropagateElemType(1, 0);
  OI_ASSIGN_OR_RETURN(int64_t trans_a, ctx.IntAttr("transA", 0));
  OI_ASSIGN_OR_RETURN(int64_t trans_b, ctx.IntAttr("transB", 0));
  OI_ASSIGN_OR_RETURN(const Shape* a, RankedInput(ctx, 0, 2));
  OI_ASSIGN_OR_RETURN(const Shape* b, RankedInput(ctx, 1, 2));
  if (a && b) {
    Dim k = (*a)[trans_a ? 0 : 1];
    OI_RETURN_IF_ERROR(
        Agree(ctx, k, (*b)[trans_b ? 1 : 0],
              StrCat("contracted dims of A (transA=", trans_a, ") and B (transB=", trans_b, ")")));
  }
  ctx.SetOutputShape(0, {a ? (*a)[trans_a ? 1 : 0] : Dim(), b ? (*b)[trans_b ? 0 : 1] : Dim()});
  return OkStatus();
}

// MurmurHash3: a 32-bit hash per element of X, uint32 when `positive` (the default), else
// int32.
Status InferMurmurHash3(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t positive, ctx.IntAttr("positive", 1));
  const Shape* in = ctx.InputShape(0);
  ctx.SetOutputType(0, in ? Type::Tensor(positive ? kUint32 : kInt32, *in)
                          : Type::Tensor(positive ? kUint32 : kInt32));
  return OkStatus();
}

// IsAllFinite: one bool, whatever its inputs.
Status InferIsAllFinite(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(kBool, Shape{}));
  return OkStatus();
}

// ---- Lookups

// CropAndResize: X [N, C, H, W], rois [num_rois, 4], batch_indices [num_rois] and crop_size
// [crop_height, crop_width] give Y [num_rois, C, crop_height, crop_width]. (The summary says
// [num_boxes, crop_height, crop_width, depth]; the output's description and onnxruntime's
// kernel are channels-first, as here.)
Status InferCropAndResize(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* x, RankedInput(ctx, 0, 4));
  OI_ASSIGN_OR_RETURN(const Shape* rois, RankedInput(ctx, 1, 2));
  OI_ASSIGN_OR_RETURN(const Shape* indices, RankedInput(ctx, 2, 1));
  OI_ASSIGN_OR_RETURN(const Shape* size, RankedInput(ctx, 3, 1));
  Dim num_rois = rois ? (*rois)[0] : Dim();
  OI_RETURN_IF_ERROR(RequireDim(ctx, 1, 1, 4, "a box's [y1, x1, y2, x2]"));
  if (indices)
    OI_RETURN_IF_ERROR(Agree(ctx, num_rois, (*indices)[0], "num_rois of rois and batch_indices"));
  if (size) OI_RETURN_IF_ERROR(RequireDim(ctx, 3, 0, 2, "[crop_height, crop_width]"));
  Dim crop_height, crop_width;
  if (const std::vector<Dim>* crop = IntValues(ctx, 3); crop && crop->size() == 2) {
    for (Dim d : *crop) {
      if (auto c = d.const_value(); c && *c <= 0) {
        return InputError(ctx, 3, DiagCode::kInputValue,
                          StrCat("expected positive sizes, got ", *c));
      }
    }
    crop_height = (*crop)[0];
    crop_width = (*crop)[1];
  }
  ctx.SetOutputShape(0, {num_rois, x ? (*x)[1] : Dim(), crop_height, crop_width});
  return OkStatus();
}

// TorchEmbedding: weight [N, M] looked up by indices [*] gives Y [*, M].
Status InferTorchEmbedding(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(const Shape* weight, RankedInput(ctx, 0, 2));
  const Shape* indices = ctx.InputShape(1);
  if (!indices) return OkStatus();
  Shape out = *indices;
  out.push_back(weight ? (*weight)[1] : Dim());
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// WordConvEmbedding (onnxruntime's kernel; the document gives no shapes): Sequence
// [seq_len, word_len] of char ids, W [filters, _, window, char_embedding], B [filters], C
// [chars, char_embedding] give Y [seq_len, filters]. The embedding_size, conv_window_size and
// char_embedding_size attributes, when given, must be W's dims 0 and 2 and C's dim 1.
Status InferWordConvEmbedding(InferenceContext& ctx) {
  ctx.PropagateElemType(1, 0);
  OI_ASSIGN_OR_RETURN(const Shape* seq, RankedInput(ctx, 0, 2));
  OI_ASSIGN_OR_RETURN(const Shape* w, RankedInput(ctx, 1, 4));
  OI_ASSIGN_OR_RETURN(const Shape* b, RankedInput(ctx, 2, 1));
  OI_ASSIGN_OR_RETURN(const Shape* c, RankedInput(ctx, 3, 2));
  Dim filters = w ? (*w)[0] : Dim(), window = w ? (*w)[2] : Dim();
  Dim char_embedding = c ? (*c)[1] : Dim();
  if (w)
    OI_RETURN_IF_ERROR(
        Agree(ctx, char_embedding, (*w)[3], "char embedding size of C (dim 1) and W (dim 3)"));
  if (b) OI_RETURN_IF_ERROR(Agree(ctx, filters, (*b)[0], "filters of W (dim 0) and B"));
  const std::pair<const char*, Dim*> attrs[] = {{"embedding_size", &filters},
                                                {"conv_window_size", &window},
                                                {"char_embedding_size", &char_embedding}};
  for (auto [name, dim] : attrs) {
    if (!ctx.HasAttr(name)) continue;
    OI_ASSIGN_OR_RETURN(int64_t v, ctx.IntAttr(name));
    if (v != -1)
      OI_RETURN_IF_ERROR(Agree(ctx, *dim, Dim::Const(v), StrCat("attribute '", name, "'")));
  }
  ctx.SetOutputShape(0, {seq ? (*seq)[0] : Dim(), filters});
  return OkStatus();
}

// UnfoldTensor: the dim `dim` (default -1) of size d becomes floor((d - size) / step) + 1
// windows (step default 1) and a trailing dim of `size` is appended.
Status InferUnfoldTensor(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t size, ctx.IntAttr("size"));
  OI_ASSIGN_OR_RETURN(int64_t step, ctx.IntAttr("step", 1));
  OI_ASSIGN_OR_RETURN(int64_t dim, ctx.IntAttr("dim", -1));
  if (size <= 0) return AttrError("size", StrCat("expected > 0, got ", size));
  if (step <= 0) return AttrError("step", StrCat("expected > 0, got ", step));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  OI_ASSIGN_OR_RETURN(
      dim, ctx.NormalizeAxis(dim, static_cast<int64_t>(in->size()), Subject::Attribute("dim")));
  const Dim d = (*in)[dim];
  if (auto c = d.const_value(); c && *c < size) {
    return AttrError("size", StrCat("expected at most ", InputLabel(ctx, 0), " dim ", dim, " = ",
                                    *c, ", got ", size));
  }
  Shape out = *in;
  out[dim] = Dim::FloorDiv(d - Dim::Const(size), Dim::Const(step)) + Dim::Const(1);
  out.push_back(Dim::Const(size));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ---- Data-dependent lengths

// Tokenizer: strings [C] give tokens [C, D], [N, C] give [N, C, D], D being the most tokens
// of one string (plus 2 with `mark`): data dependent. An empty input gives [0], or [N, 0] for
// [N, C] (onnxruntime's kernel; the document mentions [0] and [N, 0]), so the rank is known
// only when every dim is a known constant or one of them is 0.
Status InferTokenizer(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  if (in->size() != 1 && in->size() != 2) {
    return InputError(ctx, 0, DiagCode::kInputRank,
                      StrCat("expected [C] or [N, C], got rank ", in->size()));
  }
  if (Product(*in) == Dim::Const(0)) {
    Shape out = in->size() == 2 ? Shape{(*in)[0]} : Shape{};
    out.push_back(Dim::Const(0));
    ctx.SetOutputShape(0, std::move(out));
  } else if (IsStatic(*in)) {
    Shape out = *in;
    out.push_back(Dim());
    ctx.SetOutputShape(0, std::move(out));
  }
  return OkStatus();
}

// DynamicTimeWarping: a cost matrix [M, N] or [1, M, N] gives the path int32 [2, x] with
// max(M, N) <= x < M + N: data dependent, except that a single row or column (M or N of 1)
// forces x = max(M, N).
Status InferDynamicTimeWarping(InferenceContext& ctx) {
  const Shape* in = ctx.InputShape(0);
  Dim length;
  if (in) {
    if (in->size() != 2 && in->size() != 3) {
      return InputError(ctx, 0, DiagCode::kInputRank,
                        StrCat("expected [M, N] or [1, M, N], got rank ", in->size()));
    }
    if (in->size() == 3) OI_RETURN_IF_ERROR(RequireDim(ctx, 0, 0, 1, "[1, M, N]"));
    const Dim m = (*in)[in->size() - 2], n = in->back();
    if (m == Dim::Const(1)) length = n;
    if (n == Dim::Const(1)) length = m;
  }
  ctx.SetOutputType(0, Type::Tensor(kInt32, Shape{Dim::Const(2), length}));
  return OkStatus();
}

}  // namespace

Status RegisterComMicrosoftTensorRules(SchemaRegistry& r) {
  const char* ms = "com.microsoft";
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "Trilu", {1}, InferTrilu));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "GatherND", {1}, InferGatherND));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "GridSample", {1}, InferGridSample));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "Range", {1}, InferRange));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "Pad", {1}, InferPad));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "ExpandDims", {1}, InferExpandDims));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "Unique", {1}, InferUnique));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "Inverse", {1}, InferInverse));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "Rfft", {1}, InferRfft));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "Irfft", {1}, InferIrfft));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "ComplexMul", {1}, InferComplexMul));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "ComplexMulConj", {1}, InferComplexMul));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "CDist", {1}, InferCDist));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "SparseToDenseMatMul", {1}, InferSparseToDenseMatMul));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "MurmurHash3", {1}, InferMurmurHash3));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "IsAllFinite", {1}, InferIsAllFinite));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "SampleOp", {1}, InferSameAsInput));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "CropAndResize", {1}, InferCropAndResize));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "TorchEmbedding", {1}, InferTorchEmbedding));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "WordConvEmbedding", {1}, InferWordConvEmbedding));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "UnfoldTensor", {1}, InferUnfoldTensor));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "Tokenizer", {1}, InferTokenizer));
  OI_RETURN_IF_ERROR(r.AttachRule(ms, "DynamicTimeWarping", {1}, InferDynamicTimeWarping));
  return OkStatus();
}

}  // namespace onnx_infer
