#include "onnx_infer/schema/type.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer {
namespace {

Dim C(int64_t v) { return Dim::Const(v); }
Dim S(const char* name) { return Dim::Symbol(name); }

template <typename Message>
Message Parse(const std::string& text) {
  Message m;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &m)) << text;
  return m;
}

TEST(DataTypeTest, NamesRoundTrip) {
  for (int32_t t = 1; t <= kMaxDataType; ++t) {
    EXPECT_EQ(DataTypeFromName(DataTypeName(t)), t) << t;
  }
  EXPECT_EQ(DataTypeName(kFloat8e4m3fn), "float8e4m3fn");
  EXPECT_EQ(DataTypeName(99), "dtype<99>");
  EXPECT_EQ(DataTypeFromName("nonsense"), std::nullopt);
  EXPECT_TRUE(IsIntegerDataType(kInt4));
  EXPECT_FALSE(IsIntegerDataType(kBool));
  EXPECT_TRUE(IsFloatDataType(kBfloat16));
}

TEST(TypeTest, ToString) {
  EXPECT_EQ(Type().ToString(), "?");
  EXPECT_EQ(Type::Tensor(kFloat, Shape{S("N"), C(3), Dim()}).ToString(), "float[N, 3, ?]");
  EXPECT_EQ(Type::Tensor(kFloat).ToString(), "float");
  EXPECT_EQ(Type::Tensor(kInt64, Shape{}).ToString(), "int64[]");
  EXPECT_EQ(Type::Sequence(Type::Tensor(kInt64, Shape{Dim()})).ToString(), "seq(int64[?])");
  EXPECT_EQ(Type::Map(kString, Type::Tensor(kFloat, Shape{})).ToString(), "map(string, float[])");
  EXPECT_EQ(Type::Optional(Type::Tensor(kFloat, Shape{C(2)})).ToString(), "optional(float[2])");
  EXPECT_EQ(Type::SparseTensor(kFloat, Shape{C(3), C(4)}).ToString(), "sparse_tensor(float[3, 4])");
  EXPECT_EQ(Type::Opaque("dom", "thing").ToString(), "opaque(dom.thing)");
}

TEST(TypeTest, CompletenessAndStatic) {
  EXPECT_FALSE(Type().IsComplete());
  EXPECT_FALSE(Type::Tensor(kFloat).IsComplete());
  EXPECT_FALSE(Type::Tensor(0, Shape{C(1)}).IsComplete());
  EXPECT_FALSE(Type::Tensor(kFloat, Shape{Dim()}).IsComplete());
  EXPECT_TRUE(Type::Tensor(kFloat, Shape{S("N")}).IsComplete());
  EXPECT_FALSE(Type::Tensor(kFloat, Shape{S("N")}).IsStatic());
  EXPECT_TRUE(Type::Tensor(kFloat, Shape{C(2)}).IsStatic());
  EXPECT_TRUE(Type::Sequence(Type::Tensor(kFloat, Shape{C(2)})).IsStatic());
  EXPECT_FALSE(Type::Sequence(Type()).IsComplete());
}

// A type's element and names are shared between copies and released with the last one; a
// type assigned one of its own parts keeps that part (the sanitizer builds check the frees).
TEST(TypeTest, SharedPartsOutliveTheirHolder) {
  Type seq = Type::Sequence(Type::Optional(Type::Tensor(kFloat, Shape{C(2)})));
  seq.set_denotation("BATCH");
  Type copy = seq;
  seq = Type();
  EXPECT_EQ(copy.ToString(), "seq(optional(float[2]))");
  EXPECT_EQ(copy.denotation(), "BATCH");
  copy = copy.element();  // the element lives in copy's own shared part, released here
  EXPECT_EQ(copy.ToString(), "optional(float[2])");
  copy = copy.element();
  EXPECT_EQ(copy.ToString(), "float[2]");
  Type opaque = Type::Opaque("dom", "thing");
  Type moved = std::move(opaque);
  moved.set_denotation("IMAGE");
  EXPECT_EQ(moved.ToString(), "opaque(dom.thing)");
  EXPECT_EQ(moved.denotation(), "IMAGE");
  moved.set_denotation("");
  EXPECT_EQ(moved.opaque_name(), "thing");
  EXPECT_EQ(moved, Type::Opaque("dom", "thing"));
}

// Shapes live in slabs (type.cc): many shapes, made on one thread and freed on others, in
// any order, each keeping its dims while a holder lives; copies share, and a shape written
// through mutable_shape() is copied away from the ones it shared with.
TEST(TypeTest, ShapesMadeAndFreedOnAnyThread) {
  constexpr int kTypes = 20000;  // several slabs
  std::vector<Type> types;
  for (int i = 0; i < kTypes; ++i) types.push_back(Type::Tensor(kFloat, Shape{C(i), S("N")}));
  std::vector<Type> copies(types.begin(), types.end());
  std::vector<Type> made_there(kTypes);
  std::thread other([&] {
    for (int i = 0; i < kTypes; i += 2) types[i] = Type();  // every other one freed there
    for (int i = 0; i < kTypes; ++i) made_there[i] = Type::Tensor(kInt64, Shape{C(i)});
  });
  other.join();  // its current slab is released with it; the shapes made there live on
  for (int i = 0; i < kTypes; ++i) {
    ASSERT_EQ(copies[i].shape()[0].const_value(), i);
    ASSERT_EQ(made_there[i].shape()[0].const_value(), i);
    ASSERT_EQ(types[i].has_shape(), i % 2 == 1);
  }
  Shape* written = copies[7].mutable_shape();
  (*written)[0] = C(70);
  EXPECT_EQ(types[7].shape()[0].const_value(), 7);
  EXPECT_EQ(copies[7].shape()[0].const_value(), 70);
  // Freed in reverse, from several threads at once.
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = kTypes - 1 - t; i >= 0; i -= 4) {
        copies[i] = Type();
        made_there[i] = Type();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  types.clear();
  EXPECT_EQ(Type::Tensor(kFloat, Shape{C(3)}).shape()[0].const_value(), 3);
}

struct MergeCase {
  Type a, b;
  std::string expected;  // ToString of the result, or "error: <substring>"
};

class MergeTest : public ::testing::TestWithParam<MergeCase> {};

TEST_P(MergeTest, Merges) {
  const MergeCase& c = GetParam();
  auto merged = MergeTypes(c.a, c.b);
  if (c.expected.rfind("error: ", 0) == 0) {
    ASSERT_FALSE(merged.ok()) << merged->ToString();
    EXPECT_NE(merged.status().message().find(c.expected.substr(7)), std::string::npos)
        << merged.status().message();
  } else {
    ASSERT_TRUE(merged.ok()) << merged.status().message();
    EXPECT_EQ(merged->ToString(), c.expected);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, MergeTest,
    ::testing::Values(
        MergeCase{Type(), Type::Tensor(kFloat, Shape{C(2)}), "float[2]"},
        MergeCase{Type::Tensor(kFloat), Type::Tensor(kFloat, Shape{C(2)}), "float[2]"},
        MergeCase{Type::Tensor(0, Shape{C(2)}), Type::Tensor(kInt64), "int64[2]"},
        MergeCase{Type::Tensor(kFloat, Shape{S("N"), Dim()}),
                  Type::Tensor(kFloat, Shape{C(4), C(5)}), "float[4, 5]"},
        MergeCase{Type::Tensor(kFloat, Shape{S("N")}), Type::Tensor(kFloat, Shape{S("M")}),
                  "float[N]"},
        MergeCase{Type::Tensor(kFloat, Shape{C(3)}), Type::Tensor(kFloat, Shape{C(4)}),
                  "error: dim 0: 3 vs 4"},
        // An expression says more than a bare name; a provably different one contradicts.
        MergeCase{Type::Tensor(kFloat, Shape{S("unk__3")}),
                  Type::Tensor(kFloat, Shape{S("N") + C(5)}), "float[N + 5]"},
        MergeCase{Type::Tensor(kFloat, Shape{C(3)}), Type::Tensor(kFloat, Shape{S("N") + C(5)}),
                  "error: dim 0: 3 vs N + 5"},
        MergeCase{Type::Tensor(kFloat, Shape{S("N") + C(1)}),
                  Type::Tensor(kFloat, Shape{S("N") + C(2)}), "error: dim 0: N + 1 vs N + 2"},
        MergeCase{Type::Tensor(kFloat, Shape{C(3)}), Type::Tensor(kFloat, Shape{C(3), C(1)}),
                  "error: rank 1"},
        MergeCase{Type::Tensor(kFloat), Type::Tensor(kInt64), "error: element type float vs int64"},
        MergeCase{Type::Tensor(kFloat), Type::Sequence(Type::Tensor(kFloat)), "error: type"},
        MergeCase{Type::Sequence(Type::Tensor(kFloat)),
                  Type::Sequence(Type::Tensor(kFloat, Shape{S("N")})), "seq(float[N])"},
        MergeCase{Type::Map(kInt64, Type()), Type::Map(kInt64, Type::Tensor(kFloat, Shape{})),
                  "map(int64, float[])"},
        MergeCase{Type::Map(kInt64, Type()), Type::Map(kString, Type()), "error: map key"},
        MergeCase{Type::Opaque("a", "b"), Type::Opaque("a", "c"), "error: type"}));

TEST(TypeProtoTest, RoundTripsEveryKind) {
  const char* texts[] = {
      R"(tensor_type { elem_type: 1 shape { dim { dim_value: 3 } dim { dim_param: "N" } dim {} } })",
      R"(tensor_type { elem_type: 7 })",
      R"(tensor_type { elem_type: 7 shape {} })",
      R"(sparse_tensor_type { elem_type: 1 shape { dim { dim_value: 3 } } })",
      R"(sequence_type { elem_type { tensor_type { elem_type: 1 } } })",
      R"(map_type { key_type: 8 value_type { tensor_type { elem_type: 1 shape {} } } })",
      R"(optional_type { elem_type { sequence_type { elem_type { tensor_type { elem_type: 6 } } } } })",
      R"(opaque_type { domain: "d" name: "n" })",
      R"(denotation: "IMAGE" tensor_type { elem_type: 1 })",
  };
  for (const char* text : texts) {
    auto proto = Parse<onnx::TypeProto>(text);
    Type t = TypeFromProto(proto);
    onnx::TypeProto back = TypeToProto(t);
    EXPECT_EQ(back.SerializeAsString(), proto.SerializeAsString()) << text << "\n"
                                                                   << back.DebugString();
  }
  EXPECT_TRUE(TypeFromProto(onnx::TypeProto()).is_unknown());
  // A negative dim_value (an exporter's "not known") reads as unknown.
  EXPECT_EQ(TypeFromProto(Parse<onnx::TypeProto>(
                              "tensor_type { elem_type: 1 shape { dim { dim_value: -1 } } }"))
                .ToString(),
            "float[?]");
}

TEST(TypeProtoTest, DimParamsAreSymbolsExpressionsOrKeptText) {
  EXPECT_EQ(DimFromParam("N"), S("N"));
  EXPECT_EQ(DimFromParam("unk__3"), S("unk__3"));
  EXPECT_EQ(DimFromParam("N + 5"), S("N") + C(5));
  EXPECT_EQ(DimFromParam("N+5").ToString(), "N + 5");
  EXPECT_EQ(DimFromParam("2*N"), C(2) * S("N"));
  EXPECT_EQ(DimFromParam("floor((H - 1)/2) + 1").ToString(), "floor((H + 1)/2)");
  EXPECT_EQ(DimFromParam("ceiling(N/2)"), Dim::CeilDiv(S("N"), C(2)));
  EXPECT_EQ(DimFromParam("Mod(N, 3)").ToString(), "Mod(N, 3)");
  EXPECT_EQ(DimFromParam("Max(A, B)").ToString(), "Max(A, B)");
  // Not an expression of the syntax: a symbol with exactly that text.
  for (const char* text : {"batch size", "input.1_dim_0", "N/2", "-1", "a-b-"}) {
    SCOPED_TRACE(text);
    EXPECT_TRUE(DimFromParam(text).is_symbol());
    EXPECT_EQ(DimFromParam(text).symbol_name(), text);
  }
  // Written back, an expression is its printed normal form.
  Type t = TypeFromProto(Parse<onnx::TypeProto>(
      R"(tensor_type { elem_type: 1 shape { dim { dim_param: "N+5" } dim { dim_param: "batch size" } } })"));
  EXPECT_EQ(t.ToString(), "float[N + 5, batch size]");
  onnx::TypeProto out = TypeToProto(t);
  EXPECT_EQ(out.tensor_type().shape().dim(0).dim_param(), "N + 5");
  EXPECT_EQ(out.tensor_type().shape().dim(1).dim_param(), "batch size");
}

TEST(TypeProtoTest, WritingInPlaceKeepsDimDenotations) {
  auto proto = Parse<onnx::TypeProto>(
      R"(tensor_type { elem_type: 1 shape { dim { denotation: "DATA_BATCH" } dim { dim_value: 3 } } })");
  WriteTypeToProto(Type::Tensor(kFloat, Shape{S("N"), C(3)}), &proto);
  EXPECT_EQ(proto.tensor_type().shape().dim(0).dim_param(), "N");
  EXPECT_EQ(proto.tensor_type().shape().dim(0).denotation(), "DATA_BATCH");
  // A type with no shape leaves the declared shape alone.
  WriteTypeToProto(Type::Tensor(kFloat), &proto);
  EXPECT_EQ(proto.tensor_type().shape().dim_size(), 2);
}

// A write-back with a DimTextCache writes what one without writes, printing each distinct
// expression once (nested types included).
TEST(TypeProtoTest, ACacheOfDimTextsWritesTheSameProto) {
  const Dim half = Dim::FloorDiv(S("H") + C(1), C(2));
  const Type types[] = {
      Type::Tensor(kFloat, Shape{S("N"), half, C(3), Dim(), S("W") * C(2)}),
      Type::Sequence(Type::Tensor(kInt64, Shape{half, half})),
      Type::Map(kInt64, Type::Optional(Type::Tensor(kFloat, Shape{S("W") * C(2)}))),
  };
  DimTextCache texts;
  for (int pass = 0; pass < 2; ++pass) {
    for (const Type& t : types) {
      SCOPED_TRACE(t.ToString());
      onnx::TypeProto cached;
      WriteTypeToProto(t, &cached, &texts);
      EXPECT_EQ(cached.SerializeAsString(), TypeToProto(t).SerializeAsString());
      EXPECT_EQ(TypeFromProto(cached), t);
    }
  }
  EXPECT_EQ(texts.TextOf(half), "floor((H + 1)/2)");
  EXPECT_EQ(&texts.TextOf(half), &texts.TextOf(Dim::FloorDiv(S("H") + C(1), C(2))));
}

TEST(TypeProtoTest, ATensorTypeCacheGivesWhatTypeOfTensorGives) {
  // Shapes that repeat (hits), differ only in the element type, the rank or one dim (misses
  // that share a slot's hash, or take another's slot), negative and empty dims, scalars.
  TensorTypeCache cache;
  uint64_t state = 12345;
  auto next = [&](uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  for (int i = 0; i < 5000; ++i) {
    onnx::TensorProto t;
    t.set_data_type(next(3) == 0 ? kInt64 : kFloat);
    const int rank = static_cast<int>(next(5));
    for (int k = 0; k < rank; ++k) {
      const int64_t values[] = {0, 1, 3, 64, -1, int64_t{1} << 40};
      t.add_dims(values[next(6)]);
    }
    const Type want = TypeOfTensor(t);
    const Type got = cache.Get(t);
    ASSERT_EQ(got, want) << t.ShortDebugString();
    ASSERT_EQ(got.ToString(), want.ToString()) << t.ShortDebugString();
    // A tensor met again shares the type made for it, shape included.
    const Type again = cache.Get(t);
    ASSERT_TRUE(again.has_shape());
    EXPECT_EQ(&again.shape(), &got.shape()) << t.ShortDebugString();
  }
}

TEST(ConstValueTest, ReadsEveryStorageOfSmallTensors) {
  auto raw = Parse<onnx::TensorProto>(
      R"(data_type: 7 dims: 2 raw_data: "\003\000\000\000\000\000\000\000\377\377\377\377\377\377\377\377")");
  auto v = ConstValueOfTensor(raw, 100);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->ConstInts(), (std::vector<int64_t>{3, -1}));
  EXPECT_EQ(v->dims, (std::vector<int64_t>{2}));

  auto i64 =
      Parse<onnx::TensorProto>("data_type: 7 dims: 3 int64_data: 1 int64_data: 2 int64_data: 3");
  EXPECT_EQ(ConstValueOfTensor(i64, 100)->ConstInts(), (std::vector<int64_t>{1, 2, 3}));
  auto i32 = Parse<onnx::TensorProto>("data_type: 6 int32_data: -4");
  EXPECT_EQ(ConstValueOfTensor(i32, 100)->ConstInts(), (std::vector<int64_t>{-4}));
  auto f = Parse<onnx::TensorProto>("data_type: 1 dims: 2 float_data: 0.5 float_data: 2");
  EXPECT_EQ(ConstValueOfTensor(f, 100)->reals, (std::vector<double>{0.5, 2.0}));
  auto b = Parse<onnx::TensorProto>(R"(data_type: 9 dims: 2 raw_data: "\001\000")");
  EXPECT_EQ(ConstValueOfTensor(b, 100)->ConstInts(), (std::vector<int64_t>{1, 0}));
}

TEST(ConstValueTest, RefusesWhatItCannotOrShouldNotRead) {
  auto big = Parse<onnx::TensorProto>("data_type: 7 dims: 1000 dims: 1000");
  EXPECT_FALSE(ConstValueOfTensor(big, 1024).has_value());
  auto short_data = Parse<onnx::TensorProto>("data_type: 7 dims: 3 int64_data: 1");
  EXPECT_FALSE(ConstValueOfTensor(short_data, 100).has_value());
  auto bad_raw = Parse<onnx::TensorProto>(R"(data_type: 7 dims: 2 raw_data: "\001")");
  EXPECT_FALSE(ConstValueOfTensor(bad_raw, 100).has_value());
  auto external = Parse<onnx::TensorProto>(
      R"(data_type: 7 dims: 1 data_location: EXTERNAL external_data { key: "location" value: "../../etc/passwd" })");
  EXPECT_FALSE(ConstValueOfTensor(external, 100).has_value());
  auto strings = Parse<onnx::TensorProto>(R"(data_type: 8 dims: 1 string_data: "a")");
  EXPECT_FALSE(ConstValueOfTensor(strings, 100).has_value());
  auto negative = Parse<onnx::TensorProto>("data_type: 7 dims: -1");
  EXPECT_FALSE(ConstValueOfTensor(negative, 100).has_value());
  auto overflow = Parse<onnx::TensorProto>(
      "data_type: 7 dims: 4611686018427387904 dims: 4611686018427387904 dims: 8");
  EXPECT_FALSE(ConstValueOfTensor(overflow, 100).has_value());
}

// A tensor of `count` elements of type T in raw_data (little-endian, as the machine is).
template <typename T>
onnx::TensorProto RawTensor(int32_t data_type, const std::vector<T>& items) {
  onnx::TensorProto t;
  t.set_data_type(data_type);
  t.add_dims(static_cast<int64_t>(items.size()));
  t.set_raw_data(
      std::string(reinterpret_cast<const char*>(items.data()), items.size() * sizeof(T)));
  return t;
}

TEST(ConstValueTest, ReadsRawDataOfEveryNumericType) {
  using Ints = std::vector<int64_t>;
  EXPECT_EQ(ConstValueOfTensor(RawTensor<int8_t>(kInt8, {-1, 2}), 100)->ConstInts(), (Ints{-1, 2}));
  EXPECT_EQ(ConstValueOfTensor(RawTensor<uint8_t>(kUint8, {255, 0}), 100)->ConstInts(),
            (Ints{255, 0}));
  EXPECT_EQ(ConstValueOfTensor(RawTensor<int16_t>(kInt16, {-2}), 100)->ConstInts(), (Ints{-2}));
  EXPECT_EQ(ConstValueOfTensor(RawTensor<uint16_t>(kUint16, {65535}), 100)->ConstInts(),
            (Ints{65535}));
  EXPECT_EQ(ConstValueOfTensor(RawTensor<int32_t>(kInt32, {-3, 7}), 100)->ConstInts(),
            (Ints{-3, 7}));
  EXPECT_EQ(ConstValueOfTensor(RawTensor<uint32_t>(kUint32, {4294967295u}), 100)->ConstInts(),
            (Ints{4294967295}));
  EXPECT_EQ(ConstValueOfTensor(RawTensor<int64_t>(kInt64, {INT64_MIN, 5}), 100)->ConstInts(),
            (Ints{INT64_MIN, 5}));
  EXPECT_EQ(
      ConstValueOfTensor(RawTensor<uint64_t>(kUint64, {uint64_t{INT64_MAX}}), 100)->ConstInts(),
      (Ints{INT64_MAX}));
  // A uint64 above INT64_MAX is no int64: the value is not read.
  EXPECT_FALSE(ConstValueOfTensor(RawTensor<uint64_t>(kUint64, {1, uint64_t{INT64_MAX} + 1}), 100));
  EXPECT_EQ(ConstValueOfTensor(RawTensor<float>(kFloat, {0.5f, -3.0f}), 100)->reals,
            (std::vector<double>{0.5, -3.0}));
  EXPECT_EQ(ConstValueOfTensor(RawTensor<double>(kDouble, {-2.25}), 100)->reals,
            (std::vector<double>{-2.25}));
  // Element types without a reading are refused.
  EXPECT_FALSE(ConstValueOfTensor(RawTensor<uint16_t>(kFloat16, {15360}), 100));
  EXPECT_FALSE(ConstValueOfTensor(RawTensor<uint16_t>(kFloat16, {}), 100));
}

}  // namespace
}  // namespace onnx_infer
