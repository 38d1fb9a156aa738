#!/bin/bash
# Streamlines after streamCell (e2225fc): the CUDA tests, the sanitizers, the default's frame time.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/lbm_cuda_test tests/lbm_streamlines_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
export OMP_NUM_THREADS=8
/tmp/b/tests/lbm_streamlines_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure"
/tmp/b/tests/lbm_cuda_test --gtest_filter='*Streamlines*' --gtest_repeat=10 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | sort | uniq -c
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do $S --tool $tool --error-exitcode 9 /tmp/b/tests/lbm_cuda_test --gtest_filter='LbmCuda.Streamlines*' > /tmp/san-$tool.log 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san-$tool.log)"; done
C="--set lbm.lattice=d3q19 --set lbm.scene=cavity --size 256x256x256 --set lbm.reynolds=1000 --steps-per-frame 1 --steps 300 --set lbm.display=isosurface"
/tmp/b/warpscope --headless --module lbm --window 1600x1000 --with-ui $C --report $OUT/cavity256-speed-256.json 2>&1 | grep -E "streamlines \(CUDA\)|frame"
python3 -c "import json;r=json.load(open('$OUT/cavity256-speed-256.json'));print('frames median',round(r['frame_ms_median'],2),'p95',round(r['frame_ms_p95'],2))"
