#!/bin/bash
# Issue 34, prepared on 2026-12-02 and not yet run: betweenness with the vertices numbered by
# falling degree (run-experiment.patch on the main of 2026-12-02: WS_GRAPH_EXP=relabel makes
# CudaCentrality sweep a relabelled copy of the graph, sources and results mapped through the
# numbering), so that the hubs, where most arcs of a scale-free graph lead, share cache lines;
# against the numbering as it is, alternately. graph_cuda_test both ways, memcheck relabelled.
# (The relabelling itself was checked on the CPU: Brandes on the relabelled graph, mapped back,
# gives the original's betweenness, edge betweenness and closeness on Barabasi-Albert graphs.)
cd "$(dirname "$0")"/../../..
root=$(pwd) && rm -rf /tmp/x && mkdir /tmp/x && tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < $root/docs/gpu-runs/next-graph-relabel/run-experiment.patch) || exit 1
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
start=$(date +%s)
ninja -C /tmp/e warpscope graph_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for e in none relabel; do
  echo "graph_cuda_test $e: $(WS_GRAPH_EXP=$e timeout 120 /tmp/e/tests/graph_cuda_test 2>&1 | tail -1)"
done
WS_GRAPH_EXP=relabel WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 \
  /tmp/e/tests/graph_cuda_test --gtest_filter='*Centrality*' > $OUT/memcheck-relabel.log 2>&1
echo "memcheck relabel rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/memcheck-relabel.log | tr '\n' ' ')"
B="/tmp/e/warpscope bench --module graph --size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 \
  --set graph.step=centrality --set graph.sources=256 --set graph.layout=false --samples 5 --steps-per-sample 1"
for round in 1 2; do for v in edge node; do for e in none relabel; do
  echo -n "round $round $v $e: "
  WS_GRAPH_EXP=$e timeout 120 $B --variant $v --json /tmp/j.json 2>&1 | grep "^cuda"
done; done; done
