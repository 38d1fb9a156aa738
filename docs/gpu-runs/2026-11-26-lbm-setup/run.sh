#!/bin/bash
# Issue 30: the starting flow set up on the device (LbmEngine::initialize) against the host-built
# state it replaces (the previous commit, in .gpu-old): set-up time in bench; the tests touched.
set -x
export OMP_NUM_THREADS=16
TIMEFORMAT='%R s wall' 
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1 || { tail -30 /tmp/configure.log; exit 1; }
ninja -C /tmp/b warpscope tests/lbm_cuda_test tests/lbm_cpu_test > /tmp/build.log 2>&1 || { grep -B5 -A20 "error" /tmp/build.log | head -80; exit 1; }
cmake -S .gpu-old -B /tmp/old -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF > /tmp/configure-old.log 2>&1 || { tail -30 /tmp/configure-old.log; exit 1; }
ninja -C /tmp/old warpscope > /tmp/build-old.log 2>&1 || { tail -30 /tmp/build-old.log; exit 1; }
mkdir -p $OUT/run
nvidia-smi --query-gpu=name,driver_version --format=csv | tee $OUT/run/gpu.txt
OMP_NUM_THREADS=4 /tmp/b/tests/lbm_cuda_test --gtest_filter=-LbmCuda.Dfg* > $OUT/run/lbm_cuda_test.txt 2>&1; echo "lbm_cuda_test rc $?"; grep -E "OK|FAILED" $OUT/run/lbm_cuda_test.txt
OMP_NUM_THREADS=4 /tmp/b/tests/lbm_cpu_test > $OUT/run/lbm_cpu_test.txt 2>&1; echo "lbm_cpu_test rc $?"; tail -1 $OUT/run/lbm_cpu_test.txt
WS_SANITIZER_RUN=1 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/lbm_cuda_test \
  --gtest_filter='LbmCuda.EveryVariantStartsAtTheCpusEquilibrium' > $OUT/run/sanitizer-memcheck.txt 2>&1
echo "memcheck rc $?"; tail -1 $OUT/run/sanitizer-memcheck.txt
for tree in old b; do
  for size in 256x256x256 128x128x128; do
    time timeout 200 /tmp/$tree/warpscope bench -m lbm -b cuda -v aa-soa-fp32 aa-soa-fp16 -s $size --set lbm.lattice=d3q19 \
      --samples 3 --steps-per-sample 5 --json $OUT/run/bench-$tree-$size.json > $OUT/run/bench-$tree-$size.txt 2>&1
    echo "bench $tree $size rc $?"; grep -E "^cuda|set-up" $OUT/run/bench-$tree-$size.txt
  done
done
for tree in old b; do
  echo "headless $tree, 256^3, 1 step:"
  time /tmp/$tree/warpscope --headless --backend cuda --module lbm --set lbm.lattice=d3q19 \
    --size 256x256x256 --steps 1 > $OUT/run/headless-$tree.txt 2>&1
done
