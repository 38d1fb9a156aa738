#!/bin/bash
# Issue 31, Cahn-Hilliard: every kernel against the CPU, the sanitizers, the benchmark at the
# issue's sizes (CUDA kernels A-D and the fast path; the CPU on all cores and on one), and a long
# spinodal run for the coarsening exponent.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test tests/ch_test tests/contract_test tests/launch_readout_test tests/presets_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc
export OMP_NUM_THREADS=16
echo "== ch_cuda_test"; /tmp/b/tests/ch_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|seed|Which is|after|Expected|actual|trace|:[0-9]+: " | head -60
echo "== ch_test"; /tmp/b/tests/ch_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
echo "== contract"; /tmp/b/tests/contract_test --gtest_filter='*cahn*' 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure|Expected|actual" | head -20
echo "== launch readout"; /tmp/b/tests/launch_readout_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure|Expected|actual" | head -20
echo "== presets"; /tmp/b/tests/presets_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*:*Totals*' > /tmp/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san-$tool.log | tr '\n' ' ')"; done
cp /tmp/san-*.log $OUT/ 2>/dev/null
echo "== bench CUDA"
W=/tmp/b/warpscope
for size in 4096 5792 256^3 322^3; do
  tag=${size/^/c}
  $W bench --module cahn-hilliard --backend cuda --size $size --samples 9 --steps-per-sample 20 --json $OUT/bench-cuda-$tag.json > $OUT/bench-cuda-$tag.txt 2>&1; echo "$size rc $?"
done
$W bench --module cahn-hilliard --backend cuda --variant global texture --size 4096 --set cahn-hilliard.thread_shape=strips --samples 9 --json $OUT/bench-strips-4096.json > $OUT/bench-strips.txt 2>&1; echo "strips rc $?"
$W bench --module cahn-hilliard --backend cuda --size 4096 --set cahn-hilliard.constant_memory=true --samples 9 --json $OUT/bench-constant-4096.json > $OUT/bench-constant.txt 2>&1; echo "constant rc $?"
$W bench --module cahn-hilliard --backend cuda --size 4096 --set cahn-hilliard.integrator=Euler --samples 9 --json $OUT/bench-euler-4096.json > $OUT/bench-euler.txt 2>&1; echo "euler rc $?"
echo "== bench CPU"
for size in 4096 256^3; do
  tag=${size/^/c}
  $W bench --module cahn-hilliard --backend cpu --size $size --samples 3 --steps-per-sample 2 --json $OUT/bench-cpu-$tag.json > $OUT/bench-cpu-$tag.txt 2>&1; echo "cpu $size rc $?"
done
for f in $OUT/bench-*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f)', r['backend'], r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', round(r['rate_per_second']/1e9,3), 'Gcell/s', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%')
print('   copy bandwidth', d['copy_bandwidth_gb_per_second'])"; done
echo "== coarsening: spinodal 2048^2 to t = 20000"
$W --headless --preset assets/presets/cahn-hilliard-spinodal.json --steps 1000000 --steps-per-frame 1000 --window 1600x1000 --with-ui --frames $OUT/frames --frame-every 250 --report $OUT/spinodal.json > $OUT/spinodal.txt 2>&1; echo "rc $?"
grep -E "coarsening|mass drift|t = " $OUT/spinodal.txt | tail -5
$W --headless --preset assets/presets/cahn-hilliard-droplets.json --steps 100000 --steps-per-frame 1000 --window 1600x1000 --with-ui --screenshot $OUT/droplets.png > $OUT/droplets.txt 2>&1; echo "droplets rc $?"
$W --headless --preset assets/presets/cahn-hilliard-3d.json --steps 20000 --steps-per-frame 500 --window 1600x1000 --with-ui --screenshot $OUT/ch3d.png > $OUT/ch3d.txt 2>&1; echo "3d rc $?"
grep -E "coarsening|mass drift|t = " $OUT/droplets.txt $OUT/ch3d.txt | tail -6
