#!/bin/bash
# Issue 34, 2026-12-03: where the frontier mapping's host-timed pass goes outside the kernels
# (timing.patch, WS_GRAPH_EXP=timing: a wait for the GPU and a clock reading between the phases of
# CudaCentrality::run, and the result copies' alternatives timed after it).
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < docs/gpu-runs/2026-12-03-graph-host/timing.patch) || exit 1
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
GRID="--size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 5"
for round in 1 2; do
  echo -n "round $round scale-free frontier: "
  timeout 100 $B $SF --variant frontier --json $R/bench-sf-$round.json 2>&1 | grep "^cuda"
  echo -n "round $round scale-free frontier timed: "
  WS_GRAPH_EXP=timing timeout 100 $B $SF --variant frontier --json $R/bench-sf-timed-$round.json > $R/sf-timed-$round.log 2>&1
  grep "^cuda" $R/sf-timed-$round.log; grep "^timing" $R/sf-timed-$round.log
done
echo -n "grid frontier timed: "
WS_GRAPH_EXP=timing timeout 100 $B $GRID --variant frontier > $R/grid-timed.log 2>&1
grep "^cuda" $R/grid-timed.log; grep "^timing" $R/grid-timed.log | tail -4
echo -n "scale-free edge timed: "
WS_GRAPH_EXP=timing timeout 100 $B $SF --variant edge > $R/sf-edge-timed.log 2>&1
grep "^cuda" $R/sf-edge-timed.log; grep "^timing" $R/sf-edge-timed.log | tail -4
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
