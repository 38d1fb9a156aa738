#!/bin/bash
# Issue 30, free-slip sides, extrapolated outlets, obstacles from pictures: the CUDA paths, their
# sanitizer runs and what they cost.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/lbm_cuda_test tests/lbm_boundaries_test tests/lbm_forces_test tests/presets_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; git log --oneline -1
export OMP_NUM_THREADS=8
for t in lbm_boundaries_test lbm_forces_test; do echo "== $t"; /tmp/b/tests/$t --gtest_filter=-*Dfg* 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure|seed" | head -8; done
echo "== lbm_cuda_test"; /tmp/b/tests/lbm_cuda_test --gtest_filter=-*Dfg*:*Converges* 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|seed" | head -30
echo "== presets"; /tmp/b/tests/presets_test --gtest_filter='Presets.EveryShippedOneRunsOnTheGpuAtItsOwnSize' 2>&1 | grep -E "^\[ +(OK|FAILED) |Failure|airfoil" | head
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; $S --tool $tool --error-exitcode 1 /tmp/b/tests/lbm_cuda_test --gtest_filter='LbmCuda.EveryVariantMeasuresTheForcesAndProbesOfTheCpu' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[ +(OK|FAILED) |seed" | head -5; done
echo "== bench"
for scene in "walls pressure" "free-slip extrapolated"; do set -- $scene
  /tmp/b/warpscope bench --module lbm --backend cuda --variant aa-soa-fp32 aa-soa-fp16 --size 8192x4096 \
    --set lbm.scene=cylinder --set lbm.sides=$1 --set lbm.outflow=$2 --json $OUT/bench-2d-$1.json 2>&1 | tail -4
  /tmp/b/warpscope bench --module lbm --backend cuda --variant aa-soa-fp32 aa-soa-fp16 --size 512x256 \
    --set lbm.lattice=d3q19 --set lbm.depth=256 --set lbm.scene=cylinder --set lbm.sides=$1 --set lbm.outflow=$2 --json $OUT/bench-3d-$1.json 2>&1 | tail -4
done
echo "== airfoil"
/tmp/b/warpscope --headless --preset assets/presets/lbm-airfoil.json --steps 40000 --steps-per-frame 400 \
  --window 1600x1000 --with-ui --report $OUT/airfoil.json --screenshot $OUT/lbm-airfoil.png 2>&1 | grep -E "  (Cd|Cl|St|mass)|note" | head -8
