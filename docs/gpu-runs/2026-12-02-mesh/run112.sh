#!/bin/bash
# Issue 34, run 112 (not yet run): the working tree with float-kernel-64-registers.patch applied
# (the float class kernel held to 64 registers, optimizeClassFloatKernel): mesh_opt_cuda_test and
# mesh_module_test, memcheck and racecheck of mesh_opt_cuda_test, the sweep of the 3.6M torus.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope mesh_opt_cuda_test mesh_module_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "mesh_opt_cuda_test: $(timeout 60 /tmp/b/tests/mesh_opt_cuda_test 2>&1 | tail -1)"
echo "mesh_module_test: $(timeout 60 /tmp/b/tests/mesh_module_test 2>&1 | tail -1)"
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 70 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/mesh_opt_cuda_test > $OUT/sanitizer-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$t.log | tr '\n' ' ')"
done
B="/tmp/b/warpscope bench --module mesh --size 3600000 --set mesh.mesh=torus --variant nelder-mead --steps-per-sample 2"
timeout 60 $B --samples 7 --json $OUT/bench-mesh-3600000.json 2>&1 | grep "^cuda"
timeout 60 $B --set mesh.colouring=first-fit --samples 5 --json $OUT/bench-mesh-3600000-first-fit.json 2>&1 | grep "^cuda"
