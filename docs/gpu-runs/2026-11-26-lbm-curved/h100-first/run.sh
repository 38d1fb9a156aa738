#!/bin/bash
# Issue 30: curved walls (interpolated bounce-back) and DFG 2D-1 on the GPU.
set -x
export OMP_NUM_THREADS=4
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > $OUT/configure.log 2>&1 || { tail -30 $OUT/configure.log; exit 1; }
( time ninja -C /tmp/b ) > $OUT/build.log 2>&1 || { grep -B5 -A20 "error" $OUT/build.log | head -80; exit 1; }
tail -3 $OUT/build.log
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt
cat $OUT/gpu.txt
cd /tmp/b
# The CUDA tests touched: every variant against the CPU (curved walls on random links), the module.
WS_DFG_DIAMETERS=80 ./tests/lbm_cuda_test > $OUT/lbm_cuda_test.log 2>&1; echo "lbm_cuda_test rc $?"
grep -E "DFG|OK|FAILED|PASSED" $OUT/lbm_cuda_test.log | head -40
./tests/presets_test > $OUT/presets_test.log 2>&1; echo "presets_test rc $?"; tail -3 $OUT/presets_test.log
for tool in memcheck racecheck; do
  WS_SANITIZER_RUN=1 compute-sanitizer --tool $tool --error-exitcode 9 ./tests/lbm_cuda_test \
    --gtest_filter='LbmCuda.EveryVariantMeasures*:LbmCuda.ModuleViewsAndEditsMatchTheCpu' > $OUT/sanitizer-$tool.log 2>&1
  echo "$tool rc $?"; tail -4 $OUT/sanitizer-$tool.log
done
# The step's cost with and without the curved walls' kernel (the cylinder scene's default cylinder).
for walls in bounce-back interpolated; do
  ./warpscope bench -m lbm -b cuda -v aa-soa-fp32 aa-soa-fp16 ab-soa-fp32 -s 2048x1024 \
    --set lbm.curved_walls=$walls --json $OUT/bench-$walls.json > $OUT/bench-$walls.txt 2>&1
  echo "bench $walls rc $?"; cat $OUT/bench-$walls.txt | tail -8
done
