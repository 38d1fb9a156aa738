#!/bin/bash
# Issue 36: the pass before (9aa975e) and after, untangling in kernels of its own.
# Also the LBM random-lattice test after the boundary moves' outlets were found once (9aa975e).
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/mesh_opt_cuda_test tests/mesh_module_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
mkdir -p /tmp/old && tar -xf .old-src.tar -C /tmp/old
(cmake -S /tmp/old -B /tmp/b-old -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-old.log 2>&1 && ninja -C /tmp/b-old warpscope > /tmp/build-old.log 2>&1) &
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
export OMP_NUM_THREADS=8
wait
/tmp/b/tests/mesh_opt_cuda_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure"
/tmp/b/tests/mesh_module_test --gtest_filter='*cuda*' 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure"
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; $S --tool $tool --error-exitcode 9 /tmp/b/tests/mesh_opt_cuda_test --gtest_filter='*Untangling*:*AngleSummary*:*EveryMethod*' > /tmp/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san-$tool.log | tr '\n' ' ')"; done
echo "== bench: the pass, before and after (no folds: jitter 0.25)"
B="bench --module mesh --backend cuda --variant nelder-mead --size 998787 --set mesh.mesh=torus --set mesh.jitter=0.25 --set mesh.seed=1 --samples 9 --steps-per-sample 2"
for round in 1 2; do
  /tmp/b-old/warpscope $B --json $OUT/bench-before-$round.json > /dev/null 2>&1; echo "before rc $?"
  /tmp/b/warpscope $B --json $OUT/bench-after-$round.json > /dev/null 2>&1; echo "after rc $?"
done
for f in $OUT/bench-*.json; do python3 -c "import json;r=json.load(open('$f'))['results'][0];print('$(basename $f)', round(r['ms_per_step'],3),'ms/sweep')"; done
echo "== untangling the folded sphere preset (163842 vertices)"
/tmp/b/warpscope --headless --preset assets/presets/mesh-folded-sphere.json --steps 6 --report $OUT/folded.json 2>&1 | grep -E "inverted|smallest angle|pass \(CUDA\)" | head -6
/tmp/b/warpscope --headless --preset assets/presets/mesh-folded-sphere.json --steps 1 2>&1 | grep -E "inverted|pass \(CUDA\)" | head -3
