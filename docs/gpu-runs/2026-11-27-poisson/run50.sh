#!/bin/bash
# Issue 32, run 50: the colour passes in blocks of 64x4 (from run 49) as built: the CUDA tests, the
# launch readouts, memcheck on the comparisons, and the table's red-black and multicolour rows.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test tests/launch_readout_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
echo "== poisson_cuda_test"; /tmp/b/tests/poisson_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: |Google Test trace" | head -30
echo "== launch readout"; /tmp/b/tests/launch_readout_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
echo "== memcheck"; WS_SANITIZER_RUN=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/poisson_cuda_test --gtest_filter=*EverySolver* > $OUT/r/san-memcheck.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/r/san-memcheck.log | tr '\n' ' ')"
for p in float double; do
  for size in 4096 256^3; do
    /tmp/b/warpscope bench --module poisson --backend cuda --variant red-black multicolour sor --size $size --set poisson.precision=$p --samples 9 --steps-per-sample 20 --json $OUT/r/bench-${size/^/c}-$p.json > /dev/null 2>&1; echo "$size $p rc $?"
  done
done
for f in $OUT/r/*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f .json)', r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%', 'bw', round(d['copy_bandwidth_gb_per_second']))"; done
cd $OUT && tar -czf r.tgz r && rm -rf r
