#!/bin/bash
# Issue 34, prepared 2026-12-06, NOT RUN yet: run 140 found the forward dense scan still waiting on
# loads 85-90% of its cycles at two arcs a thread (26 registers) and the backward one 57-67% (40);
# run 138 moved both together. split.patch (against 4af4aaa) gives each scan its own count
# (kForwardArcsAThread, kBackwardArcsAThread). This run builds it at forward 2, 4, 8 with backward
# 2, and backward 1 and 3 with forward 2; at each the graph test and the scale-free bench; then
# main's scans (two and two) again; then memcheck and racecheck at the last build.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
patch -d /tmp/x -p1 < /tmp/x/docs/gpu-runs/2026-12-06-graph-split/split.patch || exit 1
C=/tmp/x/compute/graph/centrality_cuda.cu
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
R=$OUT
B="bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5 --variant frontier"
for fb in "2 2" "4 2" "8 2" "2 1" "2 3"; do
  set -- $fb
  sed -i -e "s/^constexpr int kForwardArcsAThread = .*;/constexpr int kForwardArcsAThread = $1;/" \
    -e "s/^constexpr int kBackwardArcsAThread = .*;/constexpr int kBackwardArcsAThread = $2;/" $C
  ninja -C /tmp/e warpscope graph_cuda_test > /tmp/build-$1-$2.log 2>&1 || { grep -B2 -A20 error /tmp/build-$1-$2.log | head -40; exit 1; }
  timeout 100 /tmp/e/tests/graph_cuda_test > $R/graph_cuda_test-f$1-b$2.log 2>&1
  echo "forward $1 backward $2: test rc $? $(tail -1 $R/graph_cuda_test-f$1-b$2.log)"
  echo -n "  scale-free: "; timeout 100 /tmp/e/warpscope $B $SF > /tmp/sf-f$1-b$2.log 2>&1
  grep "^cuda" /tmp/sf-f$1-b$2.log || tail -2 /tmp/sf-f$1-b$2.log
done
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $R/graph-$t.log 2>&1
  echo "$t (forward 2, backward 3) rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/graph-$t.log | tr '\n' ' ')"
done
sed -i -e "s/^constexpr int kForwardArcsAThread = .*;/constexpr int kForwardArcsAThread = 2;/" \
  -e "s/^constexpr int kBackwardArcsAThread = .*;/constexpr int kBackwardArcsAThread = 2;/" $C
patch -R -d /tmp/x -p1 < /tmp/x/docs/gpu-runs/2026-12-06-graph-split/split.patch || exit 1
ninja -C /tmp/e warpscope > /tmp/build-main.log 2>&1 || { tail -20 /tmp/build-main.log; exit 1; }
echo -n "main (2 and 2): "; timeout 100 /tmp/e/warpscope $B $SF > /tmp/sf-main.log 2>&1
grep "^cuda" /tmp/sf-main.log || tail -2 /tmp/sf-main.log
