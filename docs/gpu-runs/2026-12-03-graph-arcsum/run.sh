#!/bin/bash
# Issue 34, prepared on 2026-12-02 and not yet run: edge betweenness summed per arc in the
# threads' order and folded into the edges at the end (run-experiment.patch, WS_GRAPH_EXP=arcsum),
# against the per-edge atomics: graph_cuda_test both ways, memcheck, benches alternately.
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < docs/gpu-runs/next-graph-arcsum/run-experiment.patch) || exit 1
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
for e in none arcsum; do
  WS_GRAPH_EXP=$e timeout 150 /tmp/e/tests/graph_cuda_test > $R/graph-test-$e.log 2>&1
  echo "graph_cuda_test $e rc $?: $(tail -1 $R/graph-test-$e.log)"
done
WS_GRAPH_EXP=arcsum WS_SANITIZER_RUN=1 timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 \
  /tmp/e/tests/graph_cuda_test --gtest_filter='*Centrality*' > $R/graph-memcheck.log 2>&1
echo "memcheck rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/graph-memcheck.log | tr '\n' ' ')"
# main's backward sweeps since 6935657 (sumRuns, run on no GPU before this): racecheck as it is
# (the frontier test's BA graph runs dense levels too, so both of sumRuns' callers)
WS_SANITIZER_RUN=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 \
  /tmp/e/tests/graph_cuda_test --gtest_filter='*TheFrontierMapping*' > $R/graph-racecheck.log 2>&1
echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $R/graph-racecheck.log | tr '\n' ' ')"
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
for round in 1 2; do for v in edge frontier; do for e in none arcsum; do
  echo -n "round $round scale-free $v $e: "
  WS_GRAPH_EXP=$e timeout 100 $B $SF --variant $v --json $R/bench-sf-$v-$e-$round.json 2>&1 | grep "^cuda"
done; done; done
for e in none arcsum; do
  echo -n "grid frontier $e: "
  WS_GRAPH_EXP=$e timeout 100 $B --size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 3 \
    --variant frontier --json $R/bench-grid-$e.json 2>&1 | grep "^cuda"
done
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
