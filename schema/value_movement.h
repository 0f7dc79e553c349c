// Data movement over ConstValues of any rank: the values of Transpose, Slice, Gather,
// GatherElements, GatherND, Concat, Split, Expand and Tile. Every output element is one of
// the input's, so these work alike for integer (Dim), real and quotient elements, symbolic
// ones included: PyTorch's F.pad export reshapes its pads to [k, 2], reverses the rows with a
// Slice of step -1 and transposes them, and the Pad still sees the numbers.
//
// Each returns nullopt when an input lacks its elements, an index is not a known constant or
// is out of range, or the result would have more than `max_elements` elements. Rules check
// their operands' shapes themselves and report contradictions; these only compute values.
#ifndef ONNX_INFER_SCHEMA_VALUE_MOVEMENT_H_
#define ONNX_INFER_SCHEMA_VALUE_MOVEMENT_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "onnx_infer/schema/const_value.h"

namespace onnx_infer {

// The value with dims `dims` whose element i is element sources[i] of `in` (row-major flat
// indices, each in range).
std::optional<ConstValue> PickElements(const ConstValue& in, std::vector<int64_t> dims,
                                       std::span<const int64_t> sources);

// Transpose: output axis i is input axis perm[i] (perm a permutation of the input's axes).
std::optional<ConstValue> TransposeValue(const ConstValue& in, std::span<const int64_t> perm,
                                         int64_t max_elements);

// One axis of a Slice with constant bounds: the first index taken, the step and the count.
struct SliceAxis {
  int64_t first = 0;
  int64_t step = 1;
  int64_t count = 0;
};
// ONNX's clamping of constant start/end on an axis of `dim` elements (step != 0): bounds count
// from the end when negative and are clamped into [0, dim] (step > 0) or [-1, dim - 1].
SliceAxis ResolveSliceAxis(int64_t dim, int64_t start, int64_t end, int64_t step);
// Slice: `axes` has one entry per input axis (an axis not sliced is {0, 1, dim}).
std::optional<ConstValue> SliceValue(const ConstValue& in, std::span<const SliceAxis> axes,
                                     int64_t max_elements);

// Gather along `axis` (normalized) by constant indices (negative ones count from the end):
// data's dims before `axis`, the indices' dims, data's dims after.
std::optional<ConstValue> GatherValue(const ConstValue& data, const ConstValue& indices,
                                      int64_t axis, int64_t max_elements);
// What an element of a constant 1-D integer `table` can be when it is read at an index that
// is not known (Gather or GatherElements of a table of sizes by a computed index): the least
// and greatest of the elements the index can reach. The index lies in [lo, hi] (either absent:
// unbounded); negative indices count from the end (-1 is the last), as Gather reads them, and
// indices out of [-n, n - 1] are not read (the operator rejects them). `count` is how many
// elements are within reach. nullopt when some element is not a known constant, the table is
// not 1-D, or no index in [lo, hi] is in range.
struct ElementRange {
  int64_t min = 0;
  int64_t max = 0;
  int64_t count = 0;
};
std::optional<ElementRange> TableElementRange(const ConstValue& table, std::optional<int64_t> lo,
                                              std::optional<int64_t> hi);

// GatherElements: the indices' dims; each index replaces the position along `axis`.
std::optional<ConstValue> GatherElementsValue(const ConstValue& data, const ConstValue& indices,
                                              int64_t axis, int64_t max_elements);
// GatherND with `batch_dims` leading dims shared by data and indices.
std::optional<ConstValue> GatherNDValue(const ConstValue& data, const ConstValue& indices,
                                        int64_t batch_dims, int64_t max_elements);

// Concat along `axis` (normalized) of values of one rank and element type.
std::optional<ConstValue> ConcatValues(std::span<const ConstValue* const> inputs, int64_t axis,
                                       int64_t max_elements);
// Split along `axis` (normalized) into pieces of `sizes` (adding up to the axis' extent).
std::optional<std::vector<ConstValue>> SplitValue(const ConstValue& in, int64_t axis,
                                                  std::span<const int64_t> sizes);

// `in` broadcast to `dims` (numpy rules, both ways, as Expand does).
std::optional<ConstValue> ExpandValue(const ConstValue& in, std::span<const int64_t> dims,
                                      int64_t max_elements);
// Tile: each axis repeated `repeats[i]` times (one non-negative count per axis).
std::optional<ConstValue> TileValue(const ConstValue& in, std::span<const int64_t> repeats,
                                    int64_t max_elements);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_VALUE_MOVEMENT_H_
