#!/bin/bash
# Issue 34, 2026-12-06: the staged scans at two arcs a thread (run 138's fastest), as they would
# be committed (staged-k2.patch, against d73f125): graph tests, memcheck, racecheck; the scale-free
# pass and the grid, alternately with main's scans (the patch taken back and rebuilt).
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
R=$OUT
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
B="bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5 --variant frontier"
GRID="--size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 5 --variant frontier"
bench() {  # name binary graph
  echo -n "$1: "; timeout 100 $2 $B $3 --json $R/$1.json > /tmp/$1.log 2>&1
  grep "^cuda" /tmp/$1.log || tail -2 /tmp/$1.log
}
cp /tmp/e/warpscope /tmp/k2
patch -R -d /tmp/x -p1 < /tmp/x/docs/gpu-runs/2026-12-06-graph-staged/staged-k2.patch || exit 1
ninja -C /tmp/e warpscope > /tmp/build-base.log 2>&1 || { tail -20 /tmp/build-base.log; exit 1; }
for i in 1 2; do
  bench sf-k2-$i /tmp/k2 "$SF"; bench sf-base-$i /tmp/e/warpscope "$SF"
done
bench grid-k2 /tmp/k2 "$GRID"; bench grid-base /tmp/e/warpscope "$GRID"
