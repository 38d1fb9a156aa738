#!/bin/bash
# Issue 30: the curved walls' kernel with element indices made ahead: tests, sanitizer, its cost.
set -x
export OMP_NUM_THREADS=4
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1 || { tail -30 /tmp/configure.log; exit 1; }
ninja -C /tmp/b warpscope tests/lbm_cuda_test tests/presets_test > /tmp/build.log 2>&1 || { grep -B5 -A20 "error" /tmp/build.log | head -80; exit 1; }
mkdir -p $OUT/run; cd /tmp/b
nvidia-smi --query-gpu=name,driver_version --format=csv | tee $OUT/run/gpu.txt
./tests/lbm_cuda_test --gtest_filter=-LbmCuda.Dfg* > $OUT/run/lbm_cuda_test.txt 2>&1; echo "lbm_cuda_test rc $?"; tail -1 $OUT/run/lbm_cuda_test.txt
./tests/presets_test > $OUT/run/presets_test.txt 2>&1; echo "presets rc $?"; tail -1 $OUT/run/presets_test.txt
for tool in memcheck racecheck; do
  WS_SANITIZER_RUN=1 compute-sanitizer --tool $tool --error-exitcode 9 ./tests/lbm_cuda_test \
    --gtest_filter='LbmCuda.EveryVariantMeasures*:LbmCuda.ModuleViewsAndEditsMatchTheCpu' > $OUT/run/sanitizer-$tool.txt 2>&1
  echo "$tool rc $?"; tail -1 $OUT/run/sanitizer-$tool.txt
done
for walls in bounce-back interpolated; do
  ./warpscope bench -m lbm -b cuda -v aa-soa-fp32 aa-soa-fp16 ab-soa-fp32 -s 2048x1024 \
    --set lbm.curved_walls=$walls --json $OUT/run/bench-$walls.json > $OUT/run/bench-$walls.txt 2>&1
  echo "bench $walls rc $?"; grep "^cuda" $OUT/run/bench-$walls.txt
done
./warpscope --headless --backend cuda --preset lbm-cylinder --steps 200 --steps-per-frame 20 > $OUT/run/headless-cylinder.txt 2>&1
grep -A4 "curvedWallsKernel" $OUT/run/headless-cylinder.txt | head -6
