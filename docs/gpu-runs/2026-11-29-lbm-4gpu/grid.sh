#!/bin/bash
# Issue 35 on 4 H200s: a grid of ranks with a rank a GPU (2x2), against slabs; the split lattice's
# and the MPI tests with each rank on its own GPU; memcheck on 4 ranks of a 2x2 grid, one a GPU.
cd "$(dirname "$0")"/../../..
. docs/gpu-runs/2026-11-29-lbm-4gpu/common.sh
date -u
build warpscope tests/lbm_split_test tests/lbm_mpi_test
{
  V="--variant ab-soa-fp32"
  # Weak: each rank 512x512x128.
  bench weak-1 1 -- --size 512x512x128 $V
  bench weak-grid-1x2x2 4 -- --size 512x1024x256 $V --set lbm.split_grid=1x2x2
  bench weak-4-z 4 -- --size 512x512x512 $V --set lbm.split_axis=z
  # Strong: 512^3 and 256^3 over 4 GPUs, a 1x2x2 grid against slabs, the halo hidden and not.
  for size in 512x512x512 256x256x256; do
    bench strong-1-$size 1 -- --size $size $V
    for overlap in true false; do
      bench strong-grid-$size-$overlap 4 -- --size $size $V --set lbm.split_grid=1x2x2 --set lbm.split_overlap=$overlap
    done
    bench strong-4-z-$size 4 -- --size $size $V --set lbm.split_axis=z
  done
} 2>&1 | tee $OUT/bench.txt
tar czf $OUT/json.tgz -C /tmp/j .
for t in lbm_split_test lbm_mpi_test; do
  echo "== $t"
  timeout 100 /tmp/b/tests/$t > $OUT/$t.log 2>&1
  echo "rc $?"
  grep -E "^\[ +(FAILED|PASSED|SKIPPED) |Failure|^\[ +OK .*OnTheGpu" $OUT/$t.log | head -12
done
echo "== memcheck, 4 ranks in a 2x2 grid, a GPU each"
timeout 90 mpirun -np 4 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 \
  $W --headless --backend cuda --module lbm --size 256x128 --steps 21 --set lbm.split_grid=2x2 \
  --window 320x200 > $OUT/mpi-memcheck-2x2.log 2>&1
echo "rc $? $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/mpi-memcheck-2x2.log) of 4 ranks with 0 errors"
