#!/bin/bash
# Issue 34, run 112: the mesh kernel's register cap checked for landing (tests, memcheck,
# racecheck, the sweep of the 3.6M torus); lbm_cuda_test on main's code (298eb7a's refactor of
# its tolerances had not run on a GPU); graph_cuda_test with each betweenness experiment.
source "$(dirname "$0")"/prepare.sh || exit 1
echo "mesh_opt_cuda_test: $(timeout 60 /tmp/e/tests/mesh_opt_cuda_test 2>&1 | tail -1)"
echo "mesh_module_test: $(timeout 60 /tmp/e/tests/mesh_module_test 2>&1 | tail -1)"
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 70 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/mesh_opt_cuda_test > $OUT/mesh-$t.log 2>&1
  echo "mesh $t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/mesh-$t.log | tr '\n' ' ')"
done
B="/tmp/e/warpscope bench --module mesh --size 3600000 --set mesh.mesh=torus --variant nelder-mead --steps-per-sample 2"
timeout 60 $B --samples 7 --json $OUT/bench-mesh-3600000.json 2>&1 | grep "^cuda"
timeout 60 $B --set mesh.colouring=first-fit --samples 5 --json $OUT/bench-mesh-3600000-first-fit.json 2>&1 | grep "^cuda"
s=$(date +%s); echo "lbm_cuda_test: $(timeout 150 /tmp/e/tests/lbm_cuda_test 2>&1 | tail -1) ($(($(date +%s) - s)) s)"
for e in none relabel frontier; do
  s=$(date +%s)
  WS_GRAPH_EXP=$e timeout 120 /tmp/e/tests/graph_cuda_test > $OUT/graph-test-$e.log 2>&1
  echo "graph_cuda_test $e: $(tail -1 $OUT/graph-test-$e.log) ($(($(date +%s) - s)) s)"
done
grep -h "FAILED\|Failure" $OUT/graph-test-*.log | head -20
