#!/bin/bash
# Issue 34, 2026-12-03 (after run 127): the frontier mapping's dense levels backward whose next
# level is thin go from above (backwardFromAbove); WS_GRAPH_ABOVE=0 (above.patch) keeps the scan.
# Tests, memcheck, racecheck, then the scale-free bench alternately and the grid.
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < docs/gpu-runs/2026-12-03-graph-above/above.patch) || exit 1
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
for t in graph_cuda_test graph_module_test; do
  timeout 150 /tmp/e/tests/$t > $R/$t.log 2>&1
  echo "$t rc $?: $(tail -1 $R/$t.log)"; grep -h "Failure" -A5 $R/$t.log | head -20
done
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $R/graph-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/graph-$t.log | tr '\n' ' ')"
done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
GRID="--size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 5"
for a in 0 1 0 1; do
  echo -n "scale-free frontier, from above $a: "
  L=$R/sf-above$a-$RANDOM
  WS_GRAPH_ABOVE=$a timeout 100 $B $SF --variant frontier --json $L.json > $L.log 2>&1
  grep "^cuda" $L.log; grep levels $L.log | sort | uniq -c | sort -rn | head -1
done
echo -n "grid frontier: "; WS_GRAPH_ABOVE=1 timeout 100 $B $GRID --variant frontier --json $R/bench-grid.json > $R/grid.log 2>&1
grep "^cuda" $R/grid.log; grep levels $R/grid.log | sort | uniq -c | head -1
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
