#!/bin/bash
# Issue 34, run 125 of 2026-12-03: the frontier mapping's dense levels scanned a
# thread an arc for all the batch's sources (run-experiment.patch, WS_GRAPH_EXP=allsources)
# against a thread an arc and source; and where the pass's host time goes (nsys, if there).
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < docs/gpu-runs/2026-12-03-graph-allsources/run-experiment.patch) || exit 1
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
for e in none allsources; do
  WS_GRAPH_EXP=$e timeout 150 /tmp/e/tests/graph_cuda_test > $R/graph-test-$e.log 2>&1
  echo "graph_cuda_test $e rc $?: $(tail -1 $R/graph-test-$e.log)"; grep -h "Failure" -A5 $R/graph-test-$e.log | head -20
done
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  WS_GRAPH_EXP=allsources timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $R/graph-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/graph-$t.log | tr '\n' ' ')"
done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
for round in 1 2; do for e in none allsources; do
  echo -n "round $round scale-free frontier $e: "
  WS_GRAPH_EXP=$e timeout 100 $B $SF --variant frontier --json $R/bench-sf-$e-$round.json 2>&1 | grep "^cuda"
done; done
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys 2>/dev/null)
if [ -n "$NSYS" ]; then
  timeout 150 $NSYS profile -o $R/pass --stats=true --force-overwrite true $B $SF --variant frontier \
    > $R/nsys.log 2>&1
  echo "nsys rc $?"; grep -A14 "cuda_api_sum\|CUDA API Statistics" $R/nsys.log | head -20
else
  echo "no nsys here"
fi
rm -f $R/pass.nsys-rep $R/pass.sqlite
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
