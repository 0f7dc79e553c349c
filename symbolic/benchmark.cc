// Micro-benchmark of the symbolic algebra: ns per operation for interning and for the
// simplifying constructors. Not a test (timings vary with the machine):
//   bazel run -c opt //symbolic:symbolic_benchmark
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "onnx_infer/symbolic/dim.h"
#include "onnx_infer/symbolic/parse.h"
#include "onnx_infer/symbolic/unifier.h"

namespace {

using onnx_infer::symbolic::Dim;

// Keeps the optimizer from dropping a result.
volatile size_t sink = 0;

template <typename F>
void Bench(const char* name, int iterations, F&& op) {
  for (int i = 0; i < iterations / 10; ++i) sink = sink + op(i);  // warm up the tables
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) sink = sink + op(i);
  auto end = std::chrono::steady_clock::now();
  double ns = std::chrono::duration<double, std::nano>(end - start).count() / iterations;
  std::printf("%-48s %10.1f ns/op\n", name, ns);
}

}  // namespace

int main() {
  const Dim n = Dim::Symbol("N"), m = Dim::Symbol("M"), b = Dim::Symbol("B"), s = Dim::Symbol("S");
  const int kIters = 200000;
  std::vector<std::string> fresh_names;
  for (int i = 0; i < kIters + kIters / 10; ++i) fresh_names.push_back("sym" + std::to_string(i));

  std::printf("symbolic micro-benchmark (%d iterations each)\n", kIters);
  Bench("intern: Const(i % 1024) (existing node)", kIters,
        [](int i) { return Dim::Const(i % 1024).Hash(); });
  Bench("intern: Symbol(\"N\") (existing node)", kIters,
        [](int) { return Dim::Symbol("N").Hash(); });
  Bench("intern: Symbol(new name) (new node)", kIters,
        [&](int i) { return Dim::Symbol(fresh_names[i]).Hash(); });
  Bench("add: N + c (sum, constant folding)", kIters,
        [&](int i) { return (n + Dim::Const(i % 64)).Hash(); });
  Bench("add: (N + c) + (M - c) (like terms)", kIters, [&](int i) {
    Dim c = Dim::Const(i % 64);
    return ((n + c) + (m - c)).Hash();
  });
  Bench("mul: 768*B*S (product of atoms)", kIters,
        [&](int i) { return (Dim::Const(768 + i % 8) * b * s).Hash(); });
  Bench("mul: (N + 1)*(M + c) (distribution)", kIters,
        [&](int i) { return ((n + Dim::Const(1)) * (m + Dim::Const(i % 64))).Hash(); });
  Bench("floordiv: floor((2*N + 2c)/2) -> N + c", kIters, [&](int i) {
    return Dim::FloorDiv(Dim::Const(2) * n + Dim::Const(2 * (i % 64)), Dim::Const(2)).Hash();
  });
  Bench("floordiv: (768*B*S)/(12*B) -> 64*S", kIters, [&](int i) {
    return Dim::FloorDiv(Dim::Const(768) * b * s, Dim::Const(12 + 0 * i) * b).Hash();
  });
  Bench("ceildiv: ceiling((N + c - 1)/2)", kIters,
        [&](int i) { return Dim::CeilDiv(n + Dim::Const(i % 64 - 1), Dim::Const(2)).Hash(); });
  Bench("max: Max(N, N + c) (decided by bounds)", kIters,
        [&](int i) { return Dim::Max(n, n + Dim::Const(i % 64)).Hash(); });
  // The short form of a one-variable nest: Slice(x, 1 + c, -1) on an axis of S.
  Bench("max: Max(0, -Min(1 + c, S) + Max(0, S - 1)) short", kIters / 4, [&](int i) {
    Dim c = Dim::Const(1 + i % 8);
    return Dim::Max(Dim::Const(0), Dim::Max(Dim::Const(0), s - Dim::Const(1)) - Dim::Min(c, s))
        .Hash();
  });
  Bench("equal: Equal(N + c, N + c + 1)", kIters, [&](int i) {
    Dim c = Dim::Const(i % 64);
    return static_cast<size_t>(Equal(n + c, n + c + Dim::Const(1)));
  });
  Bench("print: ToString(floor((H + 1)/2) + c)", kIters / 4, [&](int i) {
    return (Dim::FloorDiv(Dim::Symbol("H") + Dim::Const(1), Dim::Const(2)) + Dim::Const(i % 64))
        .ToString()
        .size();
  });
  Bench("parse: \"floor((H - 1)/2) + 1\"", kIters / 4,
        [](int) { return onnx_infer::symbolic::ParseDim("floor((H - 1)/2) + 1")->Hash(); });

  // The fact chain of 10,000 MatMuls as the unifier sees it: each fact merges two symbols seen
  // nowhere else, and each output dim is resolved. Per fact, over the whole chain.
  for (int facts : {1000, 10000}) {
    std::vector<Dim> k, j;
    for (int i = 0; i < facts; ++i) {
      k.push_back(Dim::Symbol("K" + std::to_string(i)));
      j.push_back(Dim::Symbol("J" + std::to_string(i)));
    }
    auto start = std::chrono::steady_clock::now();
    onnx_infer::symbolic::Unifier u;
    for (int i = 0; i < facts; ++i) {
      if (!u.Unify(k[i], j[i], "matmul").ok()) return 1;
      sink = sink + u.Resolve(j[i]).Hash();
    }
    auto end = std::chrono::steady_clock::now();
    const double ns = std::chrono::duration<double, std::nano>(end - start).count() / facts;
    std::printf("%-48s %10.1f ns/op\n",
                ("unify: fact chain of " + std::to_string(facts) + " (per fact)").c_str(), ns);
  }
  return 0;
}
