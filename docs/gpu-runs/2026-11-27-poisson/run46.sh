#!/bin/bash
# Issue 32: stencils stored at every node and a coefficient k per cell (-div(k grad u)). The CUDA
# tests (the stored and variable stencils against the CPU), memcheck and racecheck; the constant
# path against a0dba67's (the operator became a kernel argument) alternately on this machine;
# the stored stencils' bytes and speed (the roofline point moving).
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r /tmp/base
(tar -xzf .base-a0dba67.tgz -C /tmp/base && cmake -S /tmp/base -B /tmp/bb -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-base.log 2>&1 && ninja -C /tmp/bb warpscope > /tmp/build-base.log 2>&1; echo "base build rc $?" > /tmp/base.rc) &
echo "== poisson_cuda_test"; /tmp/b/tests/poisson_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: |Google Test trace" | head -40
for tool in memcheck racecheck; do
  echo "== $tool"; WS_SANITIZER_RUN=1 timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/tests/poisson_cuda_test --gtest_filter=*Stored* > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"
done
wait; cat /tmp/base.rc
W=/tmp/b/warpscope
for round in 1 2; do
  for w in /tmp/bb/warpscope /tmp/b/warpscope; do
    tag=$([ $w = /tmp/b/warpscope ] && echo after || echo before)
    for p in float double; do
      $w bench --module poisson --backend cuda --variant red-black multicolour jacobi --size 256^3 --set poisson.precision=$p --samples 9 --steps-per-sample 20 --json $OUT/r/ab-$tag-$p-$round.json > /dev/null 2>&1; echo "ab $tag $p $round rc $?"
    done
    $w bench --module poisson --backend cuda --variant red-black --size 4096 --samples 9 --steps-per-sample 20 --json $OUT/r/ab2-$tag-$round.json > /dev/null 2>&1; echo "ab2 $tag $round rc $?"
  done
done
for stencil in finite-difference finite-element; do
  for storage in constant "stored at every node"; do
    tag=${stencil:7:3}-${storage:0:6}; tag=${tag// /}
    $W bench --module poisson --backend cuda --variant red-black multicolour jacobi multigrid --size 256^3 --set poisson.stencil=$stencil --set "poisson.stencils=$storage" --samples 9 --steps-per-sample 4 --json $OUT/r/st-$tag.json > /dev/null 2>&1; echo "st $tag rc $?"
  done
done
$W bench --module poisson --backend cuda --variant multigrid red-black --size 256^3 --set poisson.coefficient=inclusion --set poisson.precision=double --samples 9 --steps-per-sample 1 --json $OUT/r/incl.json > $OUT/r/incl.txt 2>&1; echo "incl rc $?"
for f in $OUT/r/ab*.json $OUT/r/st-*.json $OUT/r/incl.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f .json)', r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', round(r['bytes_per_unit'],1), 'B', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%', 'to 10^6:', round(r['metrics'].get('ms to fall 10^6', -1),2), 'ms', round(r['metrics'].get('sweeps to fall 10^6', -1),1), 'sweeps bw', round(d['copy_bandwidth_gb_per_second']))"; done
$W --headless --preset assets/presets/poisson-inclusion.json --set poisson.view=coefficient --steps 4 --window 1600x1000 --with-ui --screenshot $OUT/r/incl.png > /dev/null 2>&1; echo "shot rc $?"
cd $OUT && tar -czf r.tgz r && rm -rf r
