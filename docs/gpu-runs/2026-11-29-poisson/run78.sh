#!/bin/bash
# Issue 32, experiment build (run78-experiment.patch, not on main): more planes a thread for the
# 3-D colour passes (WS_PO_PLANES, WS_PO_CBLOCK), against main's two planes in 64x4x2, alternately.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== poisson_cuda_test, 4 planes 64x4x2"; WS_PO_PLANES=4 WS_PO_CBLOCK=64x4x2 timeout 100 /tmp/b/tests/poisson_cuda_test --gtest_filter='*EverySolver*' > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED) " /tmp/t.log | head -3; grep -B1 -A6 Failure /tmp/t.log | head -20
W=/tmp/b/warpscope
one() {  # label, variant, precision
  timeout 30 $W bench --module poisson --backend cuda --variant $2 --size 256^3 --set poisson.precision=$3 --samples 9 --steps-per-sample 20 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $2 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
{
for round in 1 2; do
  one "main 2 planes 64x4x2" red-black float
  for c in 3:64x4x2 4:64x4x2 4:64x4x1 3:64x4x1 4:64x2x2 2:64x8x1 4:64x2x1; do
    WS_PO_PLANES=${c%%:*} WS_PO_CBLOCK=${c#*:} one "${c%%:*} planes ${c#*:}" red-black float
  done
done
one "main 2 planes 64x4x2" red-black double
WS_PO_PLANES=3 WS_PO_CBLOCK=64x4x2 one "3 planes 64x4x2" red-black double
WS_PO_PLANES=4 WS_PO_CBLOCK=64x4x1 one "4 planes 64x4x1" red-black double
one "main 1 plane 64x2x2" multicolour float
WS_PO_PLANES=2 WS_PO_CBLOCK=64x2x2 one "2 planes 64x2x2" multicolour float
WS_PO_PLANES=2 WS_PO_CBLOCK=64x4x2 one "2 planes 64x4x2" multicolour float
WS_PO_PLANES=2 WS_PO_CBLOCK=64x4x2 one "2 planes 64x4x2" multicolour double
one "main 1 plane 64x2x2" multicolour double
} 2>&1 | tee $OUT/poisson.txt
