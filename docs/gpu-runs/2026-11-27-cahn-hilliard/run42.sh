#!/bin/bash
# Issue 31, Cahn-Hilliard, as committed: tests, sanitizers, the benchmark at the issue's sizes for
# every kernel, the LBM isosurface test (the extractor moved to compute/geometry), pictures.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test tests/contract_test tests/lbm_cuda_test tests/launch_readout_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
export OMP_NUM_THREADS=16
mkdir -p $OUT/r
echo "== ch_cuda_test"; /tmp/b/tests/ch_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " | head -40
echo "== contract"; /tmp/b/tests/contract_test --gtest_filter='*cahn*:*lbm*' 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
echo "== lbm isosurface"; /tmp/b/tests/lbm_cuda_test --gtest_filter='*Isosurface*' 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
echo "== launch readout"; /tmp/b/tests/launch_readout_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*:*Totals*:*Surface*' > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"; done
W=/tmp/b/warpscope
for size in 4096 5792 256^3 322^3; do
  tag=${size/^/c}
  $W bench --module cahn-hilliard --backend cuda --size $size --samples 9 --steps-per-sample 20 --json $OUT/r/bench-cuda-$tag.json > $OUT/r/bench-cuda-$tag.txt 2>&1; echo "$size rc $?"
done
$W bench --module cahn-hilliard --backend cuda --variant global texture --size 4096 --set cahn-hilliard.thread_shape=strips --samples 9 --json $OUT/r/bench-strips-4096.json > /dev/null 2>&1; echo "strips rc $?"
$W bench --module cahn-hilliard --backend cuda --size 4096 --set cahn-hilliard.constant_memory=true --samples 9 --json $OUT/r/bench-constant-4096.json > /dev/null 2>&1; echo "constant rc $?"
$W bench --module cahn-hilliard --backend cuda --variant shuffle --size 4096 --set cahn-hilliard.integrator=Euler --samples 9 --json $OUT/r/bench-euler-4096.json > /dev/null 2>&1; echo "euler rc $?"
$W bench --module cahn-hilliard --backend cuda --variant shuffle --size 256^3 --set cahn-hilliard.integrator=Euler --samples 9 --json $OUT/r/bench-euler-256c3.json > /dev/null 2>&1; echo "euler rc $?"
for f in $OUT/r/bench-*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f)', r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', round(r['rate_per_second']/1e9,3), 'Gcell/s', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%')
print('   copy bandwidth', d['copy_bandwidth_gb_per_second'])"; done
grep -h "launch shuffle" $OUT/r/bench-cuda-4096.txt $OUT/r/bench-cuda-256c3.txt | head -4
$W --headless --preset assets/presets/cahn-hilliard-droplets.json --steps 200000 --steps-per-frame 1000 --window 1600x1000 --with-ui --screenshot $OUT/r/droplets.png > $OUT/r/droplets.txt 2>&1; echo "droplets rc $?"
$W --headless --preset assets/presets/cahn-hilliard-3d.json --set cahn-hilliard.display=isosurface --steps 30000 --steps-per-frame 1000 --window 1600x1000 --with-ui --screenshot $OUT/r/ch3d-iso.png > $OUT/r/ch3d-iso.txt 2>&1; echo "3d iso rc $?"
grep -E "coarsening|mass drift|interfaces|frame time|step \(CUDA\)|isosurface \(CUDA\)" $OUT/r/droplets.txt $OUT/r/ch3d-iso.txt | tail -12
cd $OUT && tar -czf r.tgz r && rm -rf r
