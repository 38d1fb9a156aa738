#!/bin/bash
# Issue 33, after run 84 in the same build: compute-sanitizer on the split lattice's GPU tests and
# on 4 ranks of a 2x2 grid; then the benchmark of a grid of ranks against slabs and one GPU, the
# halo sent while the inside steps and after the step.
cd "$(dirname "$0")"/../../..
. docs/gpu-runs/2026-11-29-lbm-grid/common.sh
for tool in memcheck racecheck; do
  filter='*OnTheGpuAGrid*:*OnTheGpuEveryVariantStepsInPieces*'
  [ $tool = racecheck ] && filter='*OnTheGpuEveryVariantStepsInPieces*'
  echo "== $tool lbm_split_test $filter"
  WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 \
    /tmp/b/tests/lbm_split_test --gtest_filter="$filter" > $OUT/sanitizer-$tool.log 2>&1
  echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$tool.log | tr '\n' ' ')"
done
echo "== memcheck, 4 ranks in a 2x2 grid"
timeout 120 mpirun --oversubscribe -np 4 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 \
  $W --headless --backend cuda --module lbm --size 256x128 --steps 21 --set lbm.split_grid=2x2 \
  --window 320x200 > $OUT/mpi-memcheck-2x2.log 2>&1
echo "rc $? $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/mpi-memcheck-2x2.log) of 4 ranks with 0 errors"
mkdir -p /tmp/j
bench() {  # name ranks mpirun-options -- warpscope-options...
  local name=$1 n=$2
  shift 2
  local launcher=()
  while [ "$1" != "--" ]; do launcher+=("$1"); shift; done
  shift
  [ $n -gt 1 ] && launcher=(mpirun --oversubscribe -np $n "${launcher[@]}")
  timeout 150 "${launcher[@]}" $W bench --module lbm --backend cuda --set lbm.lattice=d3q19 --set lbm.tracers=0 \
    --samples 7 --steps-per-sample 20 "$@" --json /tmp/j/$name.json > /tmp/j/$name.log 2>&1 ||
    { echo "$name failed"; tail -3 /tmp/j/$name.log; return; }
  python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
print(sys.argv[2], r['size'], r['variant'], round(r['ms_per_step'], 3), 'ms', round(r['rate_per_second'] / 1e6), 'MLUPS')
for line in r['notes'].splitlines():
    if 'rank' in line or 'eq. 15.1' in line: print('   ', line)" /tmp/j/$name.json "$name"
}
V="--variant aa-soa-fp32"
{
  # Two GPUs, 512x512x256: a rank a GPU (slabs along z), and 4 ranks (2 a GPU) as a 1x2x2 grid
  # and as slabs along z; one GPU's share alone.
  bench one-gpu-512x512x128 1 -- --size 512x512x128 $V
  bench slabs-2-z 2 -- --size 512x512x256 $V --set lbm.split_axis=z
  for overlap in true false; do
    bench grid-1x2x2-$overlap 4 -- --size 512x512x256 $V --set lbm.split_grid=1x2x2 --set lbm.split_overlap=$overlap
    bench slabs-4-z-$overlap 4 -- --size 512x512x256 $V --set lbm.split_axis=z --set lbm.split_overlap=$overlap
  done
  # One GPU, 256^3: 1 rank against 4 sharing it as a 2x2x1 grid.
  bench one-gpu-256 1 -- --size 256x256x256 $V
  for overlap in true false; do
    bench shared-grid-2x2x1-$overlap 4 -x CUDA_VISIBLE_DEVICES=0 -- --size 256x256x256 $V \
      --set lbm.split_grid=2x2x1 --set lbm.split_overlap=$overlap
  done
} 2>&1 | tee $OUT/bench.txt
tar czf $OUT/json.tgz -C /tmp/j .
