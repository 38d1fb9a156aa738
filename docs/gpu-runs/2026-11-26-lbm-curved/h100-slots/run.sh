#!/bin/bash
# Issue 30: curved walls (interpolated bounce-back, precomputed slots), DFG 2D-1 and 2D-2 on the GPU.
set -x
export OMP_NUM_THREADS=4
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > $OUT/configure.log 2>&1 || { tail -30 $OUT/configure.log; exit 1; }
( time ninja -C /tmp/b ) > $OUT/build.log 2>&1 || { grep -B5 -A20 "error" $OUT/build.log | head -80; exit 1; }
tail -3 $OUT/build.log
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt
cat $OUT/gpu.txt
cd /tmp/b
for tool in memcheck racecheck; do
  WS_SANITIZER_RUN=1 compute-sanitizer --tool $tool --error-exitcode 9 ./tests/lbm_cuda_test \
    --gtest_filter='LbmCuda.EveryVariantMeasures*:LbmCuda.ModuleViewsAndEditsMatchTheCpu' > $OUT/sanitizer-$tool.txt 2>&1
  echo "$tool rc $?"; tail -2 $OUT/sanitizer-$tool.txt
done
for walls in bounce-back interpolated; do
  ./warpscope bench -m lbm -b cuda -v aa-soa-fp32 aa-soa-fp16 ab-soa-fp32 -s 2048x1024 \
    --set lbm.curved_walls=$walls --json $OUT/bench-$walls.json > $OUT/bench-$walls.txt 2>&1
  echo "bench $walls rc $?"; grep "^cuda" $OUT/bench-$walls.txt
done
# The presets as a user runs them: 2D-1 until steady, 2D-2 until it sheds (its series as CSV).
./warpscope --headless --backend cuda --preset lbm-dfg-2d1 --steps 300000 --steps-per-frame 5000 \
  > $OUT/preset-2d1.txt 2>&1; echo "2d1 rc $?"; grep -E "Cd|Cl|La|dp|note" $OUT/preset-2d1.txt
mkdir -p $OUT/dfg2d2
./warpscope --headless --backend cuda --preset lbm-dfg-2d2 --steps 400000 --steps-per-frame 5000 \
  --action "export series CSV" --output-dir $OUT/dfg2d2 > $OUT/preset-2d2.txt 2>&1
echo "2d2 rc $?"; grep -E "Cd|Cl|St|note|wrote" $OUT/preset-2d2.txt
WS_DFG_DIAMETERS=10,80 ./tests/lbm_cuda_test > $OUT/lbm_cuda_test.txt 2>&1; echo "lbm_cuda_test rc $?"
grep -E "DFG|OK|FAILED|PASSED|Failure" $OUT/lbm_cuda_test.txt | head -40
