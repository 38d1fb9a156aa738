#!/bin/bash
# Issue 34, run 114: the frontier mapping of betweenness (graph_cuda_test, memcheck, racecheck;
# `warpscope bench` against the edge mapping on the 1M-vertex scale-free graph and the 1000 x 1000
# grid, its dense-level threshold kFrontierArcCost at 4, 8 and 16 through WS_FRONTIER_COST, which
# this run's copy of the tree alone reads; the window headless with the A/B view), and
# streams.cu, the copy of k arrays into k others.
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
f=/tmp/x/compute/graph/centrality_cuda.cu
sed -i 's/^constexpr double kFrontierArcCost = 8;/const double kFrontierArcCost = std::getenv("WS_FRONTIER_COST") ? std::atof(std::getenv("WS_FRONTIER_COST")) : 8;/; s/^#include <algorithm>/#include <algorithm>\n#include <cstdlib>/' $f
grep -q WS_FRONTIER_COST $f || { echo "the threshold's switch did not apply"; exit 1; }
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
(nvcc -O3 -arch=sm_90 -std=c++17 /tmp/x/docs/gpu-runs/2026-12-02-frontier/streams.cu -o /tmp/streams > /tmp/streams-build.log 2>&1) &
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
wait
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
s=$(date +%s); timeout 150 /tmp/e/tests/graph_cuda_test > $OUT/graph-test.log 2>&1
echo "graph_cuda_test rc $?: $(tail -1 $OUT/graph-test.log) ($(($(date +%s) - s)) s)"; grep -h "FAILED\|Failure" -A5 $OUT/graph-test.log | head -30
timeout 100 /tmp/e/tests/graph_module_test > $OUT/graph-module-test.log 2>&1; echo "graph_module_test rc $?: $(tail -1 $OUT/graph-module-test.log)"
timeout 60 /tmp/streams > $OUT/streams.log 2>&1; cat /tmp/streams-build.log $OUT/streams.log
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
for round in 1 2; do for v in edge frontier:8 frontier:4 frontier:16; do
  [ $round = 2 ] && [ $v = frontier:4 ] && continue
  c=${v#*:}; name=${v%%:*}
  echo -n "round $round scale-free $v: "
  WS_FRONTIER_COST=$c timeout 100 $B $SF --variant $name --json $OUT/bench-sf-${v/:/-}-$round.json 2>&1 | grep "^cuda"
done; done
for v in frontier edge; do
  echo -n "grid $v: "
  timeout 100 $B --size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 3 \
    --variant $v --json $OUT/bench-grid-$v.json 2>&1 | grep "^cuda"
done
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  WS_SANITIZER_RUN=1 timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $OUT/graph-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/graph-$t.log | tr '\n' ' ')"
done
timeout 60 /tmp/e/warpscope --headless --module graph --backend cuda --variant edge --compare frontier --with-ui \
  --size 2000 --set graph.graph=barabasi-albert --set graph.step=centrality --steps 3 --screenshot $OUT/graph-edge-vs-frontier.png > $OUT/headless.log 2>&1
echo "headless A/B rc $?: $(tail -3 $OUT/headless.log | tr '\n' ' ')"
