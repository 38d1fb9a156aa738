#!/bin/bash
# Issue 32, the Poisson module, as committed (606a9e7 on): its CUDA tests, the sanitizers, the
# contract and launch readouts, the presets on the GPU, the benchmark at the issue's sizes for every
# solver in float and double, a picture.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test tests/poisson_test tests/contract_test tests/launch_readout_test tests/presets_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
export OMP_NUM_THREADS=16
mkdir -p $OUT/r
echo "== poisson_cuda_test"; /tmp/b/tests/poisson_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " | head -40
echo "== poisson_test"; /tmp/b/tests/poisson_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
echo "== contract"; /tmp/b/tests/contract_test --gtest_filter='*poisson*' 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
echo "== launch readout"; /tmp/b/tests/launch_readout_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
echo "== presets"; /tmp/b/tests/presets_test --gtest_filter='*Gpu*' 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure|poisson" | head
S=/usr/local/cuda/bin/compute-sanitizer
echo "== memcheck"; WS_SANITIZER_RUN=1 $S --tool memcheck --error-exitcode 9 /tmp/b/tests/poisson_cuda_test > $OUT/r/san-memcheck.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/r/san-memcheck.log | tr '\n' ' ')"
# racecheck: the unordered sweep races on purpose (global memory, which racecheck does not watch);
# the others use no shared memory but the norms' block reduction.
echo "== racecheck"; WS_SANITIZER_RUN=1 $S --tool racecheck --error-exitcode 9 /tmp/b/tests/poisson_cuda_test > $OUT/r/san-racecheck.log 2>&1; echo "rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-racecheck.log | tr '\n' ' ')"
W=/tmp/b/warpscope
for precision in float double; do
  for size in 4096 256^3; do
    tag=${size/^/c}-$precision
    $W bench --module poisson --backend cuda --size $size --set poisson.precision=$precision --samples 9 --steps-per-sample 20 --json $OUT/r/bench-$tag.json > $OUT/r/bench-$tag.txt 2>&1; echo "$tag rc $?"
  done
done
for f in $OUT/r/bench-*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f)', r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', round(r['rate_per_second']/1e9,3), 'G/s', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%')
print('   copy bandwidth', d['copy_bandwidth_gb_per_second'])"; done
# The CPU beside them (the source's speed-ups are against one Opteron core): one core and all 16.
for threads in 1 16; do
  OMP_NUM_THREADS=$threads $W bench --module poisson --backend cpu --variant red-black multicolour --size 256^3 --set poisson.stencil=finite-element --samples 3 --steps-per-sample 2 --json $OUT/r/cpu-$threads.json > /dev/null 2>&1; echo "cpu $threads rc $?"
done
$W bench --module poisson --backend cuda --variant red-black multicolour --size 256^3 --set poisson.stencil=finite-element --samples 9 --json $OUT/r/bench-fe-256c3.json > /dev/null 2>&1; echo "fe rc $?"
for f in $OUT/r/cpu-*.json $OUT/r/bench-fe-*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f)', r['variant'], r['size'], round(r['ms_per_step'],3), 'ms')"; done
grep -h "residual down" $OUT/r/bench-*.txt | head -20
$W --headless --preset assets/presets/poisson-multigrid-3d.json --set poisson.precision=double --steps 12 --window 1600x1000 --with-ui --screenshot $OUT/r/mg3d.png > $OUT/r/mg3d.txt 2>&1; echo "mg3d rc $?"
grep -E "residual down|floor|sweep \(CUDA\)" $OUT/r/mg3d.txt | tail -6
cd $OUT && tar -czf r.tgz r && rm -rf r
