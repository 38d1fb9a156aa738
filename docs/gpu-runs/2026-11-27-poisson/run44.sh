#!/bin/bash
# Issue 32: the shared-memory slice kernels (2-D tiles, 3-D z-blocking) against the CPU and under
# the sanitizers; the benchmark of both kernels at 4096^2 and 256^3, float and double, z-blocking
# swept; the time to cut the residual by 10^6.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
export OMP_NUM_THREADS=16
mkdir -p $OUT/r
echo "== poisson_cuda_test"; /tmp/b/tests/poisson_cuda_test --gtest_filter=-*EverySolver* 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: |Google Test trace|poisson" | head -40
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  echo "== $tool"; WS_SANITIZER_RUN=1 timeout 240 $S --tool $tool --error-exitcode 9 /tmp/b/tests/poisson_cuda_test > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
for precision in float double; do
  for size in 4096 256^3; do
    for kernel in "a thread a node" "shared-memory slices"; do
      tag=${size/^/c}-$precision-${kernel:0:6}; tag=${tag// /}
      $W bench --module poisson --backend cuda --variant red-black multicolour sor --size $size --set poisson.precision=$precision --set "poisson.kernel=$kernel" --samples 9 --steps-per-sample 20 --json $OUT/r/bench-$tag.json > $OUT/r/bench-$tag.txt 2>&1; echo "$tag rc $?"
    done
  done
done
for precision in float double; do
  for size in 4096 256^3; do
    for kernel in "a thread a node" "shared-memory slices"; do
      tag=mg-${size/^/c}-$precision-${kernel:0:6}; tag=${tag// /}
      $W bench --module poisson --backend cuda --variant multigrid --size $size --set poisson.precision=$precision --set "poisson.kernel=$kernel" --samples 9 --steps-per-sample 1 --json $OUT/r/bench-$tag.json > $OUT/r/bench-$tag.txt 2>&1; echo "$tag rc $?"
    done
  done
done
for zb in 1 4 8 16 64 128; do
  $W bench --module poisson --backend cuda --variant red-black multicolour --size 256^3 --set poisson.kernel="shared-memory slices" --set poisson.z_block=$zb --samples 9 --steps-per-sample 20 --json $OUT/r/zb-$zb.json > $OUT/r/zb-$zb.txt 2>&1; echo "zb $zb rc $?"
done
for f in $OUT/r/bench-*.json $OUT/r/zb-*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f .json)', r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', r['bytes_per_unit'], 'B', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%', 'to 10^6:', round(r['metrics'].get('ms to fall 10^6', -1),2), 'ms', round(r['metrics'].get('sweeps to fall 10^6', -1),1), 'sweeps')
print('   copy bandwidth', round(d['copy_bandwidth_gb_per_second']))"; done
$W --headless --module poisson --backend cuda --size 256^3 --set poisson.kernel="shared-memory slices" --set poisson.precision=double --variant multigrid --steps 12 --window 1600x1000 --with-ui --screenshot $OUT/r/shared.png > $OUT/r/shared.txt 2>&1; echo "shared rc $?"
grep -iE "configuration|kernel|down 10" $OUT/r/shared.txt | head -5
cd $OUT && tar -czf r.tgz r && rm -rf r
