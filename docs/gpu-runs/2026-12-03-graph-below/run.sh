#!/bin/bash
# Issue 34, 2026-12-03: the centrality results written over the pass before last's arrays and
# scaled on the GPU (after run 126), and the frontier mapping's late dense levels forward from
# below (forwardFromBelow), its cost constant set by WS_GRAPH_BELOW (below-cost.patch; 0: never).
# Tests, memcheck, racecheck, then the benches of run 126 for each constant.
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < docs/gpu-runs/2026-12-03-graph-below/below-cost.patch) || exit 1
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
for t in graph_cuda_test graph_module_test; do
  timeout 150 /tmp/e/tests/$t > $R/$t.log 2>&1
  echo "$t rc $?: $(tail -1 $R/$t.log)"; grep -h "Failure" -A5 $R/$t.log | head -20
done
WS_GRAPH_BELOW=0 timeout 100 /tmp/e/tests/graph_cuda_test --gtest_filter='*EveryMapping*:*Large*' > $R/graph-test-below0.log 2>&1
echo "graph_cuda_test never from below rc $?: $(tail -1 $R/graph-test-below0.log)"
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $R/graph-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/graph-$t.log | tr '\n' ' ')"
done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
GRID="--size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 5"
for c in 0 4 2 8 16 0 4; do
  echo -n "scale-free frontier, from-below cost $c: "
  L=$R/sf-below$c-$RANDOM
  WS_GRAPH_BELOW=$c timeout 100 $B $SF --variant frontier --json $L.json > $L.log 2>&1
  grep "^cuda" $L.log; grep levels $L.log | sort | uniq -c | sort -rn | head -2
done
for c in 0 4; do
  echo -n "grid frontier, from-below cost $c: "
  WS_GRAPH_BELOW=$c timeout 100 $B $GRID --variant frontier --json $R/bench-grid-below$c.json 2>&1 | grep "^cuda"
done
echo -n "scale-free edge: "; timeout 100 $B $SF --variant edge --json $R/bench-sf-edge.json 2>&1 | grep "^cuda"
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
