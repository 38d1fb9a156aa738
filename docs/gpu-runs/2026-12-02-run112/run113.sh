#!/bin/bash
# Issue 34, run 113 (after run112.sh, on the same machine if still warm): the betweenness
# experiments under memcheck (both) and racecheck (frontier), then the 1M-vertex, 10M-edge
# Barabasi-Albert graph (256 sources) each way, alternately, and the 1000 x 1000 grid (16 sources).
source "$(dirname "$0")"/prepare.sh || exit 1
for e in relabel frontier; do for t in memcheck racecheck; do
  [ $e = relabel ] && [ $t = racecheck ] && continue
  WS_GRAPH_EXP=$e WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter='*Centrality*' > $OUT/graph-$t-$e.log 2>&1
  echo "$t $e rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/graph-$t-$e.log | tr '\n' ' ')"
done; done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
for round in 1 2; do for v in edge node; do for e in none relabel frontier; do
  [ $v = node ] && [ $e = frontier ] && continue
  echo -n "round $round scale-free $v $e: "
  WS_GRAPH_EXP=$e timeout 100 $B $SF --variant $v --json $OUT/bench-sf-$v-$e-$round.json 2>&1 | grep "^cuda"
done; done; done
for e in none frontier; do
  echo -n "grid edge $e: "
  WS_GRAPH_EXP=$e timeout 100 $B --size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 3 \
    --variant edge --json $OUT/bench-grid-$e.json 2>&1 | grep "^cuda"
done
# Issue 31: where 256^3's time goes. 256 x 256 x D (16 blocks a part, 8 parts from D = 128 on):
# a step's time against D, whose intercept is what each pass costs whatever its planes (launch,
# march starts, drain) and whose slope is the steady march's cost a plane.
C="/tmp/e/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for i in RK2 Euler; do for d in 64 128 256 512 1024; do
  echo -n "ch $i 256x256x$d: "
  timeout 60 $C --size 256x256x$d --set cahn-hilliard.integrator=$i --json $OUT/bench-ch-$i-$d.json 2>&1 | grep "^cuda"
done; done
