#!/bin/bash
# Issue 34, run 116: the frontier mapping as committed (kFrontierArcCost 24, no switch), built
# afresh: graph_cuda_test, graph_module_test, memcheck and racecheck, and `warpscope bench` against
# the edge mapping on the four graphs of runs 114-115, alternately.
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
s=$(date +%s); timeout 150 /tmp/e/tests/graph_cuda_test > $R/graph-test.log 2>&1
echo "graph_cuda_test rc $?: $(tail -1 $R/graph-test.log) ($(($(date +%s) - s)) s)"; grep -h "FAILED\|Failure" -A5 $R/graph-test.log | head -30
timeout 100 /tmp/e/tests/graph_module_test > $R/graph-module-test.log 2>&1; echo "graph_module_test rc $?: $(tail -1 $R/graph-module-test.log)"
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  WS_SANITIZER_RUN=1 timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $R/graph-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/graph-$t.log | tr '\n' ' ')"
done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
for round in 1 2; do for v in edge frontier; do
  echo -n "round $round scale-free $v: "
  timeout 100 $B $SF --variant $v --json $R/bench-sf-$v-$round.json 2>&1 | grep "^cuda"
done; done
for g in "watts-strogatz --set graph.degree=10" "planted --set graph.groups=100" "grid"; do for v in frontier edge; do
  n=64; [ "$g" = grid ] && n=16
  echo -n "${g%% *} $v: "
  timeout 100 $B --size 1000000 --set graph.graph=$g --set graph.sources=$n --samples 3 \
    --variant $v --json $R/bench-${g%% *}-$v.json 2>&1 | grep "^cuda"
done; done
tar -czf $OUT/run116.tgz -C $OUT r && rm -rf $R
