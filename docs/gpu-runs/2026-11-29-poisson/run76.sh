#!/bin/bash
# Issue 32, the experiment build of run 75 (run75-experiment.patch): which comparison failed with
# two planes a thread in 64x2x2 blocks, the test with 64x4x2 (run 75's fastest), and the bench of
# the shapes around it, alternately with main's one plane in 64x2x2.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for b in 64x2x2 64x4x2; do
  echo "== poisson_cuda_test, two planes, $b"; WS_PO_PLANES=2 WS_PO_CBLOCK=$b timeout 200 /tmp/b/tests/poisson_cuda_test > /tmp/t-$b.log 2>&1; echo "rc $?"
  grep -E "^\[ +(FAILED|PASSED) " /tmp/t-$b.log | head -4; grep -B1 -A7 "Failure" /tmp/t-$b.log | head -60
  cp /tmp/t-$b.log $OUT/
done
W=/tmp/b/warpscope
one() {  # label, variant, precision
  $W bench --module poisson --backend cuda --variant $2 --size 256^3 --set poisson.precision=$3 --samples 9 --steps-per-sample 20 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $2 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
{
for round in 1 2; do
  for p in float double; do
    one "1 plane 64x2x2" red-black $p
    WS_PO_PLANES=2 WS_PO_CBLOCK=64x4x2 one "2 planes 64x4x2" red-black $p
    WS_PO_PLANES=2 WS_PO_CBLOCK=32x4x2 one "2 planes 32x4x2" red-black $p
    WS_PO_PLANES=2 WS_PO_CBLOCK=64x8x2 one "2 planes 64x8x2" red-black $p
    WS_PO_PLANES=2 WS_PO_CBLOCK=128x2x2 one "2 planes 128x2x2" red-black $p
    WS_PO_PLANES=2 WS_PO_CBLOCK=64x4x4 one "2 planes 64x4x4" red-black $p
  done
done
} 2>&1 | tee $OUT/poisson.txt
