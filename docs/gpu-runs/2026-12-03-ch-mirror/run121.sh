#!/bin/bash
# Run 121, two things in one call (both builds at once):
# - Issue 34: the graph module's frontier mapping with its edge betweenness summed per arc, as
#   committed (no switch; run 120 measured it as an experiment): graph_cuda_test, memcheck and
#   racecheck, benches against the edge mapping.
# - Issue 31: the 3-D fast path marching down the planes in whole passes (run121-experiment.patch,
#   WS_CH_EXP: none, alternate (every other pass: RK2's final passes, Euler's even ones), final
#   (RK2's final passes only), oddparts (run 118's)), so that a pass begins in the planes the pass
#   before ended in (the L2's); with run 119's timeline stamps, to see the final pass's blocks.
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e /tmp/x2 /tmp/e2 && mkdir /tmp/x /tmp/x2
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x2
(cd /tmp/x2 && patch -p1 -s < docs/gpu-runs/2026-12-03-ch-mirror/run121-experiment.patch) || exit 1
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
cmake -S /tmp/x2 -B /tmp/e2 -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e2.log 2>&1
ninja -C /tmp/e -j8 warpscope graph_cuda_test > /tmp/build-e.log 2>&1 &
ninja -C /tmp/e2 -j8 warpscope ch_cuda_test > /tmp/build-e2.log 2>&1 || { grep -B2 -A20 error /tmp/build-e2.log | head -60; exit 1; }
wait $! || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
echo "== graph, as committed"
s=$(date +%s); timeout 150 /tmp/e/tests/graph_cuda_test > $R/graph-test.log 2>&1
echo "graph_cuda_test rc $?: $(tail -1 $R/graph-test.log) ($(($(date +%s) - s)) s)"; grep -h "FAILED\|Failure" -A5 $R/graph-test.log | head -30
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $R/graph-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/graph-$t.log | tr '\n' ' ')"
done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
for v in frontier edge frontier; do
  echo -n "scale-free $v: "; timeout 100 $B $SF --variant $v --json $R/bench-sf-$v-$(date +%s).json 2>&1 | grep "^cuda"
done
echo -n "grid frontier: "
timeout 100 $B --size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 3 --variant frontier \
  --json $R/bench-grid-frontier.json 2>&1 | grep "^cuda"
echo "== cahn-hilliard, the experiment"
for e in alternate final; do
  s=$(date +%s); WS_CH_EXP=$e timeout 60 /tmp/e2/tests/ch_cuda_test > $R/ch-test-$e.log 2>&1
  echo "ch_cuda_test $e rc $?: $(tail -1 $R/ch-test-$e.log) ($(($(date +%s) - s)) s)"; grep -h "FAILED\|Failure" -A5 $R/ch-test-$e.log | head -20
done
WS_CH_EXP=alternate WS_SANITIZER_RUN=1 timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 \
  /tmp/e2/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > $R/ch-memcheck.log 2>&1
echo "memcheck alternate rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/ch-memcheck.log | tr '\n' ' ')"
C="/tmp/e2/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2; do for size in 256^3 384^3; do for i in RK2 Euler; do for e in none alternate final oddparts; do
  [ $i = Euler ] && [ $e = final ] && continue
  [ $round = 2 ] && [ $e = oddparts ] && continue
  echo -n "$size $i $e: "
  WS_CH_EXP=$e timeout 30 $C --size $size --set cahn-hilliard.integrator=$i --json $R/bench-${size/^/-}-$i-$e-$round.json 2>&1 | grep "^cuda"
done; done; done; done
T="/tmp/e2/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 5 --steps-per-sample 20"
for run in "none RK2 60" "final RK2 60" "final RK2 61" "alternate Euler 60" "alternate Euler 59"; do
  set -- $run
  echo "== timeline $1 $2 pass $3"
  WS_CH_EXP=$1 WS_CH_TIMELINE=$3 timeout 60 $T --size 256^3 --set cahn-hilliard.integrator=$2 2>&1 | grep -E "^cuda|timeline|\(us\)|cycles"
done
tar -czf $OUT/run121.tgz -C $OUT r && rm -rf $R
