// Row builders shared by the table tests of onnxruntime's operators outside attention,
// normalization, fused math and quantization (generation, recurrent, tensor,
// execution_provider and ort_default_domain _test.cc beside this file). Testonly.
#ifndef ONNX_INFER_SCHEMA_DEFS_COM_MICROSOFT_TABLE_TEST_ROWS_H_
#define ONNX_INFER_SCHEMA_DEFS_COM_MICROSOFT_TABLE_TEST_ROWS_H_

#include <cctype>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer::com_microsoft_test {

using testing::Int64s;
using testing::IntAttr;
using testing::IntsAttr;
using testing::Scalar;
using testing::StrAttr;
using Case = testing::RuleCase;

// ---- Node and value builders

inline std::string Ms(const char* op, const std::vector<const char*>& inputs,
                      const std::vector<const char*>& outputs, const std::string& attrs = "") {
  return testing::Node(op, inputs, outputs, attrs, "com.microsoft");
}
inline std::string Op(const char* op, const std::vector<const char*>& inputs,
                      const std::vector<const char*>& outputs, const std::string& attrs = "") {
  return testing::Node(op, inputs, outputs, attrs);
}
inline std::string FloatsAttr(const char* name, int n) {
  std::string s = std::string(R"( attribute { name: ")") + name + R"(" type: FLOATS)";
  for (int i = 0; i < n; ++i) s += " floats: 1";
  return s + " }";
}
// A decoder subgraph whose first output (the logits) is declared [?, ?, vocab].
inline std::string Decoder(int64_t vocab) {
  return StrCat(R"( attribute { name: "decoder" type: GRAPH g { name: "dec" output { )",
                R"(name: "logits" type { tensor_type { elem_type: 1 shape { dim { } dim { } )",
                R"(dim { dim_value: )", vocab, " } } } } } } }");
}
// An int32 tensor of one element (max_length, num_beams, ...), or of several.
inline ConstValue I32(std::vector<int64_t> v) {
  ConstValue c;
  c.elem_type = kInt32;
  c.dims = {static_cast<int64_t>(v.size())};
  for (int64_t x : v) c.ints.push_back(Dim::Const(x));
  return c;
}
inline ConstValue SymbolValue(const char* name) {
  ConstValue c;
  c.elem_type = kInt32;
  c.dims = {1};
  c.ints = {Dim::Symbol(name)};
  return c;
}
inline ConstValue ValueOf(const std::vector<std::string>& items) {
  ConstValue v;
  v.elem_type = kInt64;
  v.dims = {static_cast<int64_t>(items.size())};
  for (const auto& i : items) {
    v.ints.push_back(std::isdigit(static_cast<unsigned char>(i[0])) ? Dim::Const(std::stoll(i))
                                                                    : Dim::Symbol(i));
  }
  return v;
}

inline const std::vector<const char*> kBeamOutputs = {"seq", "seq_scores", "scores"};

// ---- Generation

// ---- Recurrent and state-carrying operators

// AttnLSTM's inputs: X, W, R, then (B, sequence_lens, initial_h, initial_c, P absent) QW, MW,
// V, M, memory_seq_lens, AW.
inline std::vector<const char*> AttnLstmInputs(const char* w, const char* mw, const char* m,
                                               const char* aw) {
  return {"float[T, B, 16]", w,  "float[1, 32, 8]", "", "",         "", "", "",
          "float[1, 8, 10]", mw, "float[1, 10]",    m,  "int32[B]", aw};
}
inline const std::vector<const char*> kAttnLstmNames = {"x", "w",  "r",  "",  "",  "",     "",
                                                        "",  "qw", "mw", "v", "m", "lens", "aw"};

inline std::string LinearHeads(int64_t q, int64_t kv) {
  return IntAttr("q_num_heads", q) + IntAttr("kv_num_heads", kv);
}

// ---- Tensor operators

inline const std::string kTokenizerAttrs =
    IntAttr("mark", 0) + IntAttr("mincharnum", 1) + StrAttr("pad_value", "#");

// ---- onnxruntime's default-domain extras (legacy experimental ops, TensorRT plugins)

}  // namespace onnx_infer::com_microsoft_test

#endif  // ONNX_INFER_SCHEMA_DEFS_COM_MICROSOFT_TABLE_TEST_ROWS_H_
