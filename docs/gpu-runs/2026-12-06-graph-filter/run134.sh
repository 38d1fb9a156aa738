#!/bin/bash
# Issue 34, 2026-12-06: betweenness's dense scans with an experiment build (WS_GRAPH_EXP, bits:
# 1 the backward arc reads its far end's distance (the 4-byte array) before its 32-byte record,
# 2 the forward arc likewise (and the frontier's before its compare-and-swap), 4 the dense scans'
# blocks in source-fastest order), graph_cuda_test under each combination kept, the scale-free
# bench alternately; then the H100's ceilings that issue 34's LBM and hash figures lacked:
# streams.cu (19 arrays into 19) and ceilings.cu (random reads and atomics at 335 MB).
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -40; exit 1; }
mkdir -p $OUT/r; R=$OUT/r
for x in 3 7; do
  WS_GRAPH_EXP=$x timeout 150 /tmp/e/tests/graph_cuda_test > $R/test-$x.log 2>&1
  echo "exp $x: graph_cuda_test rc $? $(tail -1 $R/test-$x.log)"
done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5 --variant frontier"
for k in 1 2; do for x in 0 1 2 3 4 7; do
  echo -n "exp $x ($k): "; WS_GRAPH_EXP=$x timeout 100 $B $SF --json $R/sf-$x-$k.json > $R/sf-$x-$k.log 2>&1
  grep "^cuda" $R/sf-$x-$k.log || tail -3 $R/sf-$x-$k.log
done; done
D=docs/gpu-runs
nvcc -O3 -arch=sm_90 -std=c++17 $D/2026-12-02-frontier/streams.cu -o /tmp/streams && timeout 120 /tmp/streams
nvcc -O3 -arch=sm_90 -std=c++17 $D/2026-12-06-h100-ceilings/ceilings.cu -o /tmp/ceilings && timeout 60 /tmp/ceilings
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
