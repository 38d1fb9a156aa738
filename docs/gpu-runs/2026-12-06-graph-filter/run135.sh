#!/bin/bash
# Issue 34, 2026-12-06: run 134's kept change as committed (the backward arc reads its far end's
# distance before its record): graph tests, memcheck, racecheck, the scale-free bench for the
# frontier (twice) and edge mappings, and the grid.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
mkdir -p $OUT/r; R=$OUT/r
for t in graph_cuda_test graph_module_test; do
  timeout 150 /tmp/e/tests/$t > $R/$t.log 2>&1
  echo "$t rc $?: $(tail -1 $R/$t.log)"; grep -h "Failure" -A5 $R/$t.log | head -20
done
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $R/graph-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/graph-$t.log | tr '\n' ' ')"
done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256"
GRID="--size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 5"
for v in frontier edge frontier; do
  echo -n "scale-free $v: "; timeout 100 $B $SF --samples 5 --variant $v --json $R/sf-$v-$RANDOM.json > $R/sf-$v.log 2>&1
  grep "^cuda" $R/sf-$v.log || tail -2 $R/sf-$v.log
done
echo -n "grid frontier: "; timeout 100 $B $GRID --variant frontier --json $R/grid.json > $R/grid.log 2>&1
grep "^cuda" $R/grid.log
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
