#!/bin/bash
# Issue 32, run 48: register columns for 3-D red-black (a thread marching up its pair of columns,
# three planes in registers) against a thread a node, alternately; the CUDA tests and memcheck.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
echo "== poisson_cuda_test"; /tmp/b/tests/poisson_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: |Google Test trace" | head -40
echo "== memcheck"; WS_SANITIZER_RUN=1 timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/poisson_cuda_test --gtest_filter=*EverySolver*:*Stored* > $OUT/r/san-memcheck.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/r/san-memcheck.log | tr '\n' ' ')"
W=/tmp/b/warpscope
for round in 1 2; do
  for p in float double; do
    $W bench --module poisson --backend cuda --variant red-black --size 256^3 --set poisson.precision=$p --samples 9 --steps-per-sample 20 --json $OUT/r/node-$p-$round.json > /dev/null 2>&1; echo "node $p $round rc $?"
    for zb in 8 16 32 64; do
      $W bench --module poisson --backend cuda --variant red-black --size 256^3 --set poisson.precision=$p --set "poisson.kernel=register columns" --set poisson.z_block=$zb --samples 9 --steps-per-sample 20 --json $OUT/r/col$zb-$p-$round.json > /dev/null 2>&1; echo "col $zb $p $round rc $?"
    done
  done
done
$W bench --module poisson --backend cuda --variant red-black sor multigrid --size 512^3 --set "poisson.kernel=register columns" --samples 5 --steps-per-sample 4 --json $OUT/r/col-512.json > /dev/null 2>&1; echo "512 rc $?"
$W bench --module poisson --backend cuda --variant red-black sor multigrid --size 512^3 --samples 5 --steps-per-sample 4 --json $OUT/r/node-512.json > /dev/null 2>&1; echo "512n rc $?"
$W bench --module poisson --backend cuda --variant red-black multigrid --size 256^3 --set "poisson.kernel=register columns" --set "poisson.stencils=stored at every node" --samples 9 --steps-per-sample 4 --json $OUT/r/col-stored.json > /dev/null 2>&1; echo "stored rc $?"
for f in $OUT/r/*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f .json)', r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', round(r['bytes_per_unit'],1), 'B', round(r['percent_of_bandwidth'],1), '%', 'bw', round(d['copy_bandwidth_gb_per_second']))"; done
cd $OUT && tar -czf r.tgz r && rm -rf r
