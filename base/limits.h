// The one nesting limit every reader of the project obeys (docs/limits.md). Whatever reads
// input by recursive descent (the text syntax parser, protobuf's text and binary parsers, the
// type-string parser of custom schemas, the custom-schema JSON reader, the dim_param parser)
// refuses input nested deeper with an error naming the limit, so no input, however hostile,
// can exhaust the stack. Real models nest a handful of levels (a sequence of maps, an If in a
// Loop); the limit is far above that and far below what a thread's stack can hold.
#ifndef ONNX_INFER_BASE_LIMITS_H_
#define ONNX_INFER_BASE_LIMITS_H_

namespace onnx_infer {

// Levels of nesting: types in types (`seq(seq(float))` is 2), graphs in attributes,
// parentheses and calls in a dim expression, arrays and objects in JSON.
inline constexpr int kMaxNestingDepth = 128;

// The same limit counted in protobuf messages, for protobuf's own parsers (binary and text
// format). A level of our nesting is at most 3 messages (a subgraph: NodeProto, AttributeProto,
// GraphProto; a type in a type is 2: TypeProto and its Sequence, Optional or Map), and a few
// more sit above the main graph (ModelProto, FunctionProto, ValueInfoProto...).
inline constexpr int kMaxProtobufDepth = 3 * kMaxNestingDepth + 16;

}  // namespace onnx_infer

#endif  // ONNX_INFER_BASE_LIMITS_H_
