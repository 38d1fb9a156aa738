#!/bin/bash
# Issue 34, prepared on 2026-12-02 and not yet run: the edge-parallel betweenness made
# work-efficient (run-experiment.patch on the main of 2026-12-02: WS_GRAPH_EXP=frontier makes
# the edge mapping sweep each level's frontier only, a thread an arc of it, found by a binary
# search of the frontier's degree sums; new vertices appended by compare-and-swap; the levels'
# lists kept for the backward sweep), against the edge mapping as it is, alternately.
# graph_cuda_test both ways (it checks the edge mapping against the CPU, in one batch and in
# batches of three), memcheck and racecheck of it with the frontier; the benchmark of the 1M-vertex,
# 10M-edge scale-free graph and of the 1000 x 1000 grid (some 2,000 levels a source).
cd "$(dirname "$0")"/../../..
root=$(pwd) && rm -rf /tmp/x && mkdir /tmp/x && tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < $root/docs/gpu-runs/next-graph-frontier/run-experiment.patch) || exit 1
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
start=$(date +%s)
ninja -C /tmp/e warpscope graph_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for e in none frontier; do
  echo "graph_cuda_test $e: $(WS_GRAPH_EXP=$e timeout 120 /tmp/e/tests/graph_cuda_test 2>&1 | tail -1)"
done
for t in memcheck racecheck; do
  WS_GRAPH_EXP=frontier WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter='*Centrality*' > $OUT/$t-frontier.log 2>&1
  echo "$t frontier rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/$t-frontier.log | tr '\n' ' ')"
done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1 --variant edge"
for round in 1 2; do for e in none frontier; do
  echo -n "round $round scale-free $e: "
  WS_GRAPH_EXP=$e timeout 120 $B --size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 \
    --set graph.sources=256 --samples 5 --json /tmp/j.json 2>&1 | grep "^cuda"
done; done
for e in none frontier; do
  echo -n "grid $e: "
  WS_GRAPH_EXP=$e timeout 120 $B --size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 3 \
    --json /tmp/j.json 2>&1 | grep "^cuda"
done
