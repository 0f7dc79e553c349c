#!/usr/bin/env bash
# The benchmark of docs/performance.md: builds infer-shapes and onnx-infer-bench (optimized,
# the default of .bazelrc), then runs bench/run.py, which generates the workloads once into
# a scratch directory (ONNX_INFER_BENCH_DIR, default /tmp/onnx-infer-bench) and prints
# figures side by side with ONNX's inference. Not a test: it prints figures, it checks
# nothing. Options (bench/run.py --help has all):
#   --sizes 10k,100k,1M          node counts of the generated workloads (default these three;
#                                700k too: the issue's tiny-nodes model)
#   --workloads decoder,chain,cnn,decoder-ext,tiny-nodes,real
#                                (default all; real = ../shared/models/real)
#   --runs N                     runs per workload (default 5 at 10k and real, 3 at 100k, 1 at 1M)
#   --callgrind                  also count instructions (valgrind) on the 10k/100k workloads
#   --callgrind-sizes 10k,100k,1M  the sizes --callgrind counts (default 10k,100k)
# With 100k and 1M both run, a scaling line per workload: cost per node at 1M over 100k.
#   --json FILE                  every figure, for comparing two runs
#   --onnx-cxx PREFIX            also a column of ONNX's C++ library installed under PREFIX
#                                (its CMake package; Debian's libonnx-dev: /usr; default
#                                $ONNX_INFER_BENCH_ONNX_CXX): bench/onnx_cxx is built against it
#                                with cmake into the scratch directory and run like the Python
#                                path, with no Python (docs/performance.md, "What is measured")
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
bazel build //cli:infer-shapes //bench:onnx-infer-bench >&2
exec /usr/bin/python3 bench/run.py --bin "$(bazel info bazel-bin 2>/dev/null)" "$@"
