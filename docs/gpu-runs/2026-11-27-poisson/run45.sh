#!/bin/bash
# Issue 32: two planes a thread in the 3-D coloured passes, against one (the same machine,
# alternately); the CUDA tests and memcheck; the benchmark table of every solver at 4096^2 and
# 256^3 in float and double; multigrid counted a V-cycle at a time.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
echo "== poisson_cuda_test"; /tmp/b/tests/poisson_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: |Google Test trace" | head -40
echo "== memcheck"; WS_SANITIZER_RUN=1 timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/poisson_cuda_test > $OUT/r/san-memcheck.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/r/san-memcheck.log | tr '\n' ' ')"
cp /tmp/b/warpscope /tmp/two
sed -i 's/constexpr int kPlanesAThread = D == 3 ? 2 : 1;/constexpr int kPlanesAThread = 1;/' compute/poisson/poisson_cuda.cu
ninja -C /tmp/b warpscope > /tmp/build1.log 2>&1 || { tail -20 /tmp/build1.log; exit 1; }
cp /tmp/b/warpscope /tmp/one
for round in 1 2; do
  for w in one two; do
    for p in float double; do
      /tmp/$w bench --module poisson --backend cuda --variant red-black multicolour --size 256^3 --set poisson.precision=$p --samples 9 --steps-per-sample 20 --json $OUT/r/ab-$w-$p-$round.json > /dev/null 2>&1; echo "ab $w $p $round rc $?"
    done
  done
done
W=/tmp/two
for p in float double; do
  for size in 4096 256^3; do
    tag=${size/^/c}-$p
    $W bench --module poisson --backend cuda --variant red-black multicolour jacobi sor unordered --size $size --set poisson.precision=$p --samples 9 --steps-per-sample 20 --json $OUT/r/bench-$tag.json > $OUT/r/bench-$tag.txt 2>&1; echo "$tag rc $?"
    $W bench --module poisson --backend cuda --variant multigrid --size $size --set poisson.precision=$p --samples 9 --steps-per-sample 1 --json $OUT/r/bench-mg-$tag.json > $OUT/r/bench-mg-$tag.txt 2>&1; echo "mg $tag rc $?"
  done
done
$W bench --module poisson --backend cuda --variant red-black multicolour --size 256^3 --set poisson.stencil=finite-element --samples 9 --json $OUT/r/bench-fe-256c3.json > /dev/null 2>&1; echo "fe rc $?"
for f in $OUT/r/ab-*.json $OUT/r/bench-*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f .json)', r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', round(r['rate_per_second']/1e9,2), 'G/s', round(r['bytes_per_unit'],1), 'B', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%', 'to 10^6:', round(r['metrics'].get('ms to fall 10^6', -1),2), 'ms', round(r['metrics'].get('sweeps to fall 10^6', -1),1), 'sweeps', 'bw', round(d['copy_bandwidth_gb_per_second']))"; done
cd $OUT && tar -czf r.tgz r && rm -rf r
