#!/bin/bash
# PREPARED, NOT RUN (2026-12-08: the session had 175 s of device time left, too little to start a
# machine). Issue 34, betweenness, run 153. The frontier mapping's dense scans test a far end's
# level by its distance, a random 4 bytes of a source's 4 MB array (in the L2, not the L1): the
# backward scan every arc from level d (is the far end on d + 1?), 94.8 of the pass's 185 ms by
# run 131's profile. run153-bits.patch builds, before each dense scan, a bit a vertex for each of
# the batch's sources (125 KB a source at 10^6 vertices: levelBitsKernel, a ballot a warp), read in
# place of the distance: WS_GRAPH_BITS=1 the backward scans (level d + 1's vertices), 2 the forward
# ones too (the vertices already reached, whose records an arc then need not read). One build;
# graph_cuda_test at 0, 1 and 2; the scale-free bench alternately at 0, 1, 2, twice; the grid at
# 0 and 2; memcheck and racecheck at 2.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
patch -d /tmp/x -p1 -s < /tmp/x/docs/gpu-runs/2026-12-08-graph-bits/run153-bits.patch || exit 1
started=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 ||
  { grep -B2 -A20 error /tmp/build-e.log | head -40; exit 1; }
echo "built in $(($(date +%s) - started)) s"
mkdir -p /tmp/g
for bits in 0 1 2; do
  WS_GRAPH_BITS=$bits timeout 120 /tmp/e/tests/graph_cuda_test > /tmp/g/graph_cuda_test-$bits.log 2>&1
  echo "graph_cuda_test bits $bits: rc $? $(tail -1 /tmp/g/graph_cuda_test-$bits.log)"
done
B="bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5 --variant frontier"
GRID="--size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 5 --variant frontier"
bench() {  # name bits settings
  echo -n "$1 bits $2: "
  WS_GRAPH_BITS=$2 timeout 100 /tmp/e/warpscope $B $3 --json /tmp/g/$1-$2.json > /tmp/g/$1-$2.log 2>&1
  grep "^cuda" /tmp/g/$1-$2.log || tail -2 /tmp/g/$1-$2.log
}
for round in 1 2; do for bits in 0 1 2; do bench scale-free$round $bits "$SF"; done; done
tar -czf $OUT/run153.tgz -C /tmp g
bench grid 0 "$GRID"; bench grid 2 "$GRID"
WS_GRAPH_BITS=2 timeout 120 /tmp/e/tests/graph_module_test > /tmp/g/graph_module_test.log 2>&1
echo "graph_module_test bits 2: rc $? $(tail -1 /tmp/g/graph_module_test.log)"
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  WS_GRAPH_BITS=2 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > /tmp/g/graph-$t.log 2>&1
  echo "$t (bits 2) rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/g/graph-$t.log | tr '\n' ' ')"
done
tar -czf $OUT/run153.tgz -C /tmp g
date -u
