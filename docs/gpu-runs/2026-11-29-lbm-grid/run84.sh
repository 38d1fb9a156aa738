#!/bin/bash
# Issue 33: a grid of ranks steps each box's border first (LbmEngine::stepBox). Build, then the
# split lattice's and the MPI tests on the GPU (the grid's GPU tests for the first time).
cd "$(dirname "$0")"/../../..
. docs/gpu-runs/2026-11-29-lbm-grid/common.sh
nvidia-smi -L; date -u
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
grep -i "mpi" /tmp/configure.log | head -2
start=$(date +%s)
ninja -C /tmp/b warpscope tests/lbm_split_test tests/lbm_mpi_test > /tmp/build.log 2>&1 ||
  { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
for t in lbm_split_test lbm_mpi_test; do
  echo "== $t"
  timeout 220 /tmp/b/tests/$t > $OUT/$t.log 2>&1
  echo "rc $?"
  grep -E "^\[ +(FAILED|PASSED|SKIPPED) |Failure|^\[ +OK .*OnTheGpu" $OUT/$t.log | head -12
done
