#include "onnx_infer/schema/value_movement.h"

#include <algorithm>
#include <climits>

namespace onnx_infer {
namespace {

// Row-major strides of `dims`.
std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

// The element count of `dims`, or nullopt past `max_elements` (or for a negative dim).
std::optional<int64_t> CountWithin(std::span<const int64_t> dims, int64_t max_elements) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    if (d == 0) return 0;
  }
  for (int64_t d : dims) {
    if (n > max_elements / d) return std::nullopt;
    n *= d;
  }
  if (n > max_elements) return std::nullopt;
  return n;
}

// Calls `fn(index)` for every row-major multi-index of `dims`, in order.
template <typename Fn>
void ForEachIndex(const std::vector<int64_t>& dims, Fn fn) {
  for (int64_t d : dims) {
    if (d <= 0) return;
  }
  std::vector<int64_t> index(dims.size(), 0);
  while (true) {
    fn(index);
    size_t j = dims.size();
    while (j > 0) {
      --j;
      if (++index[j] < dims[j]) break;
      index[j] = 0;
      if (j == 0) return;
    }
    if (dims.empty()) return;
  }
}

// Constant integer indices, each made non-negative against an axis of `extent`; nullopt when
// one is unknown or out of range.
std::optional<std::vector<int64_t>> Indices(const ConstValue& indices, int64_t extent) {
  auto ints = indices.ConstInts();
  if (!ints) return std::nullopt;
  for (int64_t& i : *ints) {
    if (i < 0) i += extent;
    if (i < 0 || i >= extent) return std::nullopt;
  }
  return ints;
}

}  // namespace

std::optional<ConstValue> PickElements(const ConstValue& in, std::vector<int64_t> dims,
                                       std::span<const int64_t> sources) {
  const size_t n = static_cast<size_t>(in.NumElements());
  ConstValue out;
  out.elem_type = in.elem_type;
  out.dims = std::move(dims);
  out.conditions = in.conditions;
  if (in.ints.size() == n) {
    for (int64_t s : sources) out.ints.push_back(in.ints[s]);
  } else if (in.reals.size() == n) {
    for (int64_t s : sources) out.reals.push_back(in.reals[s]);
  } else if (in.quotients.size() == n) {
    for (int64_t s : sources) out.quotients.push_back(in.quotients[s]);
  } else {
    return std::nullopt;
  }
  return out;
}

std::optional<ConstValue> TransposeValue(const ConstValue& in, std::span<const int64_t> perm,
                                         int64_t max_elements) {
  if (perm.size() != in.dims.size() || !in.HasElements()) return std::nullopt;
  const std::vector<int64_t> in_strides = Strides(in.dims);
  std::vector<int64_t> dims, strides;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(in.dims.size())) return std::nullopt;
    dims.push_back(in.dims[p]);
    strides.push_back(in_strides[p]);
  }
  if (!CountWithin(dims, max_elements)) return std::nullopt;
  std::vector<int64_t> sources;
  ForEachIndex(dims, [&](const std::vector<int64_t>& index) {
    int64_t s = 0;
    for (size_t i = 0; i < index.size(); ++i) s += index[i] * strides[i];
    sources.push_back(s);
  });
  return PickElements(in, std::move(dims), sources);
}

SliceAxis ResolveSliceAxis(int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (start < 0) start += dim;  // dim >= 0: no overflow
  if (end < 0) end += dim;
  SliceAxis a;
  a.step = step;
  if (dim <= 0) return a;  // nothing to take (and no [0, dim - 1] to clamp into)
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    a.first = start;
    a.count = end > start ? (end - start - 1) / step + 1 : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    a.first = start;
    a.count = start > end ? (start - end - 1) / -step + 1 : 0;
  }
  return a;
}

std::optional<ConstValue> SliceValue(const ConstValue& in, std::span<const SliceAxis> axes,
                                     int64_t max_elements) {
  if (axes.size() != in.dims.size() || !in.HasElements()) return std::nullopt;
  const std::vector<int64_t> strides = Strides(in.dims);
  std::vector<int64_t> dims;
  for (size_t i = 0; i < axes.size(); ++i) {
    const SliceAxis& a = axes[i];
    if (a.count < 0) return std::nullopt;
    if (a.count > 0) {
      const int64_t last = a.first + (a.count - 1) * a.step;
      if (a.first < 0 || a.first >= in.dims[i] || last < 0 || last >= in.dims[i]) {
        return std::nullopt;
      }
    }
    dims.push_back(a.count);
  }
  if (!CountWithin(dims, max_elements)) return std::nullopt;
  std::vector<int64_t> sources;
  ForEachIndex(dims, [&](const std::vector<int64_t>& index) {
    int64_t s = 0;
    for (size_t i = 0; i < index.size(); ++i) {
      s += (axes[i].first + index[i] * axes[i].step) * strides[i];
    }
    sources.push_back(s);
  });
  return PickElements(in, std::move(dims), sources);
}

std::optional<ConstValue> GatherValue(const ConstValue& data, const ConstValue& indices,
                                      int64_t axis, int64_t max_elements) {
  const int64_t rank = static_cast<int64_t>(data.dims.size());
  if (axis < 0 || axis >= rank || !data.HasElements()) return std::nullopt;
  auto picked = Indices(indices, data.dims[axis]);
  if (!picked) return std::nullopt;
  if (rank == 1) {
    // A vector (a shape's dims, the usual case): the elements picked are the indices
    // themselves, in the indices' shape.
    if (!CountWithin(indices.dims, max_elements)) return std::nullopt;
    return PickElements(data, indices.dims, std::move(*picked));
  }
  std::vector<int64_t> dims(data.dims.begin(), data.dims.begin() + axis);
  dims.insert(dims.end(), indices.dims.begin(), indices.dims.end());
  dims.insert(dims.end(), data.dims.begin() + axis + 1, data.dims.end());
  if (!CountWithin(dims, max_elements)) return std::nullopt;
  const std::vector<int64_t> strides = Strides(data.dims);
  const size_t q = indices.dims.size();
  const std::vector<int64_t> index_strides = Strides(indices.dims);
  std::vector<int64_t> sources;
  ForEachIndex(dims, [&](const std::vector<int64_t>& index) {
    int64_t s = 0;
    for (int64_t i = 0; i < axis; ++i) s += index[i] * strides[i];
    int64_t k = 0;
    for (size_t j = 0; j < q; ++j) k += index[axis + j] * index_strides[j];
    s += (*picked)[k] * strides[axis];
    for (int64_t i = axis + 1; i < rank; ++i) s += index[q + i - 1] * strides[i];
    sources.push_back(s);
  });
  return PickElements(data, std::move(dims), sources);
}

std::optional<ElementRange> TableElementRange(const ConstValue& table, std::optional<int64_t> lo,
                                              std::optional<int64_t> hi) {
  if (table.dims.size() != 1) return std::nullopt;
  auto ints = table.ConstInts();
  if (!ints || static_cast<int64_t>(ints->size()) != table.dims[0]) return std::nullopt;
  const int64_t n = table.dims[0];
  // The indices in reach: [a, b] within [-n, n - 1]; a negative one reads position i + n.
  const int64_t a = std::max(lo.value_or(-n), -n);
  const int64_t b = std::min(hi.value_or(n - 1), n - 1);
  if (n == 0 || a > b) return std::nullopt;
  ElementRange r{INT64_MAX, INT64_MIN, 0};
  auto take = [&](int64_t first, int64_t last) {  // positions first..last
    for (int64_t p = first; p <= last; ++p) {
      r.min = std::min(r.min, (*ints)[p]);
      r.max = std::max(r.max, (*ints)[p]);
    }
    r.count += last - first + 1;
  };
  // Both halves may reach the same position (indices -1 and n - 1): counted once.
  const int64_t neg_first = a < 0 ? a + n : n, neg_last = std::min(b, int64_t{-1}) + n;
  const int64_t pos_first = std::max(a, int64_t{0}), pos_last = b;
  if (pos_first <= pos_last && neg_first <= neg_last) {
    // Two ranges of positions, [pos_first, pos_last] and [neg_first, neg_last]; merged when
    // they overlap or touch.
    if (neg_first <= pos_last + 1) {
      take(pos_first, std::max(pos_last, neg_last));
    } else {
      take(pos_first, pos_last);
      take(neg_first, neg_last);
    }
  } else if (pos_first <= pos_last) {
    take(pos_first, pos_last);
  } else {
    take(neg_first, neg_last);
  }
  return r;
}

std::optional<ConstValue> GatherElementsValue(const ConstValue& data, const ConstValue& indices,
                                              int64_t axis, int64_t max_elements) {
  const size_t rank = data.dims.size();
  if (axis < 0 || axis >= static_cast<int64_t>(rank) || indices.dims.size() != rank ||
      !data.HasElements()) {
    return std::nullopt;
  }
  for (size_t i = 0; i < rank; ++i) {
    if (static_cast<int64_t>(i) != axis && indices.dims[i] > data.dims[i]) return std::nullopt;
  }
  auto picked = Indices(indices, data.dims[axis]);
  if (!picked || !CountWithin(indices.dims, max_elements)) return std::nullopt;
  const std::vector<int64_t> strides = Strides(data.dims);
  std::vector<int64_t> sources;
  int64_t k = 0;
  ForEachIndex(indices.dims, [&](const std::vector<int64_t>& index) {
    int64_t s = 0;
    for (size_t i = 0; i < rank; ++i) {
      s += (static_cast<int64_t>(i) == axis ? (*picked)[k] : index[i]) * strides[i];
    }
    ++k;
    sources.push_back(s);
  });
  return PickElements(data, indices.dims, sources);
}

std::optional<ConstValue> GatherNDValue(const ConstValue& data, const ConstValue& indices,
                                        int64_t batch_dims, int64_t max_elements) {
  const int64_t r = static_cast<int64_t>(data.dims.size());
  const int64_t q = static_cast<int64_t>(indices.dims.size());
  if (q < 1 || !data.HasElements()) return std::nullopt;
  const int64_t m = indices.dims.back();
  const int64_t b = batch_dims;
  if (b < 0 || b >= q || b + m > r) return std::nullopt;
  for (int64_t i = 0; i < b; ++i) {
    if (indices.dims[i] != data.dims[i]) return std::nullopt;
  }
  auto tuples = indices.ConstInts();
  if (!tuples) return std::nullopt;
  // Output: indices' dims but the last, then data's dims after b + m.
  std::vector<int64_t> dims(indices.dims.begin(), indices.dims.end() - 1);
  dims.insert(dims.end(), data.dims.begin() + b + m, data.dims.end());
  if (!CountWithin(dims, max_elements)) return std::nullopt;
  const std::vector<int64_t> strides = Strides(data.dims);
  bool ok = true;
  std::vector<int64_t> sources;
  ForEachIndex(dims, [&](const std::vector<int64_t>& index) {
    // Which index tuple: the position among the indices' leading q - 1 dims.
    int64_t t = 0;
    for (int64_t i = 0; i < q - 1; ++i) t = t * indices.dims[i] + index[i];
    int64_t s = 0;
    for (int64_t i = 0; i < b; ++i) s += index[i] * strides[i];
    for (int64_t j = 0; j < m; ++j) {
      int64_t v = (*tuples)[t * m + j];
      const int64_t extent = data.dims[b + j];
      if (v < 0) v += extent;
      if (v < 0 || v >= extent) {
        ok = false;
        return;
      }
      s += v * strides[b + j];
    }
    for (int64_t i = b + m; i < r; ++i) s += index[q - 1 + i - b - m] * strides[i];
    sources.push_back(s);
  });
  if (!ok) return std::nullopt;
  return PickElements(data, std::move(dims), sources);
}

std::optional<ConstValue> ConcatValues(std::span<const ConstValue* const> inputs, int64_t axis,
                                       int64_t max_elements) {
  if (inputs.empty()) return std::nullopt;
  const ConstValue& first = *inputs[0];
  const size_t rank = first.dims.size();
  if (axis < 0 || axis >= static_cast<int64_t>(rank)) return std::nullopt;
  std::vector<int64_t> dims = first.dims;
  dims[axis] = 0;
  // Every input that has elements keeps them in the same list (ints, reals or quotients).
  enum class List { kNone, kInts, kReals, kQuotients } list = List::kNone;
  for (const ConstValue* v : inputs) {
    if (v->dims.size() != rank || v->elem_type != first.elem_type || !v->HasElements()) {
      return std::nullopt;
    }
    for (size_t i = 0; i < rank; ++i) {
      if (static_cast<int64_t>(i) != axis && v->dims[i] != first.dims[i]) return std::nullopt;
    }
    dims[axis] += v->dims[axis];
    const size_t n = static_cast<size_t>(v->NumElements());
    if (n == 0) continue;
    const List here = v->ints.size() == n    ? List::kInts
                      : v->reals.size() == n ? List::kReals
                                             : List::kQuotients;
    if (list != List::kNone && list != here) return std::nullopt;
    list = here;
  }
  const std::optional<int64_t> count = CountWithin(dims, max_elements);
  if (!count) return std::nullopt;
  int64_t outer = 1;  // each input gives one block of its dims from `axis` on per outer index
  for (int64_t i = 0; i < axis; ++i) outer *= first.dims[i];
  ConstValue out;
  out.elem_type = first.elem_type;
  out.dims = std::move(dims);
  for (const ConstValue* v : inputs) {
    for (const ExactnessCondition& c : v->conditions) AddExactnessCondition(out.conditions, c);
  }
  const size_t total = static_cast<size_t>(*count);
  switch (list) {  // one allocation, not one per doubling
    case List::kInts:
      out.ints.reserve(total);
      break;
    case List::kReals:
      out.reals.reserve(total);
      break;
    case List::kQuotients:
      out.quotients.reserve(total);
      break;
    case List::kNone:
      break;
  }
  for (int64_t o = 0; o < outer; ++o) {
    for (const ConstValue* v : inputs) {
      int64_t block = 1;
      for (size_t i = axis; i < rank; ++i) block *= v->dims[i];
      for (int64_t k = o * block; k < (o + 1) * block; ++k) {
        switch (list) {
          case List::kInts:
            out.ints.push_back(v->ints[k]);
            break;
          case List::kReals:
            out.reals.push_back(v->reals[k]);
            break;
          case List::kQuotients:
            out.quotients.push_back(v->quotients[k]);
            break;
          case List::kNone:
            break;
        }
      }
    }
  }
  return out;
}

std::optional<std::vector<ConstValue>> SplitValue(const ConstValue& in, int64_t axis,
                                                  std::span<const int64_t> sizes) {
  if (axis < 0 || axis >= static_cast<int64_t>(in.dims.size())) return std::nullopt;
  std::vector<ConstValue> pieces;
  int64_t at = 0;
  for (int64_t size : sizes) {
    if (size < 0 || at + size > in.dims[axis]) return std::nullopt;
    std::vector<SliceAxis> axes;
    for (size_t i = 0; i < in.dims.size(); ++i) {
      axes.push_back(static_cast<int64_t>(i) == axis ? SliceAxis{at, 1, size}
                                                     : SliceAxis{0, 1, in.dims[i]});
    }
    auto piece = SliceValue(in, axes, in.NumElements());
    if (!piece) return std::nullopt;
    pieces.push_back(std::move(*piece));
    at += size;
  }
  if (at != in.dims[axis]) return std::nullopt;
  return pieces;
}

std::optional<ConstValue> ExpandValue(const ConstValue& in, std::span<const int64_t> target,
                                      int64_t max_elements) {
  if (!in.HasElements()) return std::nullopt;
  const size_t rank = std::max(in.dims.size(), target.size());
  std::vector<int64_t> dims(rank, 1), in_dims(rank, 1);
  std::copy(in.dims.begin(), in.dims.end(), in_dims.begin() + (rank - in.dims.size()));
  std::copy(target.begin(), target.end(), dims.begin() + (rank - target.size()));
  for (size_t i = 0; i < rank; ++i) {
    if (in_dims[i] == dims[i] || in_dims[i] == 1) continue;
    if (dims[i] != 1) return std::nullopt;
    dims[i] = in_dims[i];
  }
  if (!CountWithin(dims, max_elements)) return std::nullopt;
  std::vector<int64_t> strides = Strides(in_dims);
  for (size_t i = 0; i < rank; ++i) {
    if (in_dims[i] == 1) strides[i] = 0;
  }
  std::vector<int64_t> sources;
  ForEachIndex(dims, [&](const std::vector<int64_t>& index) {
    int64_t s = 0;
    for (size_t i = 0; i < rank; ++i) s += index[i] * strides[i];
    sources.push_back(s);
  });
  return PickElements(in, std::move(dims), sources);
}

std::optional<ConstValue> TileValue(const ConstValue& in, std::span<const int64_t> repeats,
                                    int64_t max_elements) {
  if (repeats.size() != in.dims.size() || !in.HasElements()) return std::nullopt;
  std::vector<int64_t> dims;
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] < 0) return std::nullopt;
    if (in.dims[i] != 0 && repeats[i] > max_elements / in.dims[i]) return std::nullopt;
    dims.push_back(in.dims[i] * repeats[i]);
  }
  if (!CountWithin(dims, max_elements)) return std::nullopt;
  const std::vector<int64_t> strides = Strides(in.dims);
  std::vector<int64_t> sources;
  ForEachIndex(dims, [&](const std::vector<int64_t>& index) {
    int64_t s = 0;
    for (size_t i = 0; i < index.size(); ++i) s += (index[i] % in.dims[i]) * strides[i];
    sources.push_back(s);
  });
  return PickElements(in, std::move(dims), sources);
}

}  // namespace onnx_infer
