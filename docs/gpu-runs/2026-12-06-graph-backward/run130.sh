#!/bin/bash
# Issue 34, 2026-12-06: the backward sweep's own threshold between a level's frontier
# (frontierBackward) and the scan of every arc (backwardArcs, or from above), as
# kFrontierBackwardArcCost: 24 (the forward one's, as before), 6, 3 and 1.5, the scale-free bench
# twice at each, graph_cuda_test at each.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
mkdir -p $OUT/r; R=$OUT/r
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5 --variant frontier"
for c in 24 6 3 1.5; do
  sed -i "s/kFrontierBackwardArcCost = [0-9.]*;/kFrontierBackwardArcCost = $c;/" /tmp/x/compute/graph/centrality_cuda.cu
  ninja -C /tmp/e warpscope graph_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -40; exit 1; }
  timeout 120 /tmp/e/tests/graph_cuda_test > $R/test-$c.log 2>&1
  echo "cost $c: graph_cuda_test rc $? $(tail -1 $R/test-$c.log)"
  for k in 1 2; do
    echo -n "  scale-free frontier ($k): "; timeout 100 $B $SF --json $R/sf-$c-$k.json > $R/sf-$c-$k.log 2>&1
    grep "^cuda" $R/sf-$c-$k.log
  done
done
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
