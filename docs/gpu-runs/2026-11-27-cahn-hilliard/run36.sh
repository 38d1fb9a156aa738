#!/bin/bash
# Issue 31, Cahn-Hilliard: the tests again (with the 3-D interfaces), the benchmark at the issue's
# sizes (CUDA kernels A-D and the fast path; the CPU on all cores and on one), and pictures.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test tests/contract_test tests/lbm_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
export OMP_NUM_THREADS=16
mkdir -p $OUT/r
echo "== ch_cuda_test"; /tmp/b/tests/ch_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " | head -40
echo "== contract"; /tmp/b/tests/contract_test --gtest_filter='*cahn*:*lbm*' 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
echo "== lbm surfaces"; /tmp/b/tests/lbm_cuda_test --gtest_filter='*Surface*:*Isosurface*' 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure" | head
S=/usr/local/cuda/bin/compute-sanitizer
echo "== memcheck"; WS_SANITIZER_RUN=1 $S --tool memcheck --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*Surface*' > $OUT/r/san-memcheck.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/r/san-memcheck.log | tr '\n' ' ')"
echo "== bench CUDA"
W=/tmp/b/warpscope
for size in 4096 5792 256^3 322^3; do
  tag=${size/^/c}
  $W bench --module cahn-hilliard --backend cuda --size $size --samples 9 --steps-per-sample 20 --json $OUT/r/bench-cuda-$tag.json > $OUT/r/bench-cuda-$tag.txt 2>&1; echo "$size rc $?"
done
$W bench --module cahn-hilliard --backend cuda --variant global texture --size 4096 --set cahn-hilliard.thread_shape=strips --samples 9 --json $OUT/r/bench-strips-4096.json > $OUT/r/bench-strips.txt 2>&1; echo "strips rc $?"
$W bench --module cahn-hilliard --backend cuda --size 4096 --set cahn-hilliard.constant_memory=true --samples 9 --json $OUT/r/bench-constant-4096.json > $OUT/r/bench-constant.txt 2>&1; echo "constant rc $?"
$W bench --module cahn-hilliard --backend cuda --size 4096 --set cahn-hilliard.integrator=Euler --samples 9 --json $OUT/r/bench-euler-4096.json > $OUT/r/bench-euler.txt 2>&1; echo "euler rc $?"
for f in $OUT/r/bench-*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f)', r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', round(r['rate_per_second']/1e9,3), 'Gcell/s', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%')
print('   copy bandwidth', d['copy_bandwidth_gb_per_second'])"; done
echo "== pictures"
$W --headless --preset assets/presets/cahn-hilliard-spinodal.json --steps 500000 --steps-per-frame 1000 --window 1600x1000 --with-ui --frames $OUT/r/spinodal --frame-every 100 --report $OUT/r/spinodal.json > $OUT/r/spinodal.txt 2>&1; echo "spinodal rc $?"
grep -E "coarsening|mass drift" $OUT/r/spinodal.txt | tail -3
$W --headless --preset assets/presets/cahn-hilliard-droplets.json --steps 200000 --steps-per-frame 1000 --window 1600x1000 --with-ui --screenshot $OUT/r/droplets.png > $OUT/r/droplets.txt 2>&1; echo "droplets rc $?"
$W --headless --preset assets/presets/cahn-hilliard-3d.json --steps 20000 --steps-per-frame 500 --window 1600x1000 --with-ui --screenshot $OUT/r/ch3d-slice.png > $OUT/r/ch3d.txt 2>&1; echo "3d rc $?"
$W --headless --preset assets/presets/cahn-hilliard-3d.json --set cahn-hilliard.display=isosurface --steps 20000 --steps-per-frame 500 --window 1600x1000 --with-ui --screenshot $OUT/r/ch3d-iso.png --report $OUT/r/ch3d-iso.json > $OUT/r/ch3d-iso.txt 2>&1; echo "3d iso rc $?"
$W --headless --preset assets/presets/cahn-hilliard-3d.json --set cahn-hilliard.display=isosurface --size 256^3 --steps 40000 --steps-per-frame 1000 --window 1600x1000 --with-ui --screenshot $OUT/r/ch3d-256-iso.png --report $OUT/r/ch3d-256-iso.json > $OUT/r/ch3d-256.txt 2>&1; echo "3d 256 rc $?"
grep -E "coarsening|mass drift|isosurface" $OUT/r/droplets.txt $OUT/r/ch3d*.txt | tail -12
cd $OUT && tar -czf r.tgz r && rm -rf r
