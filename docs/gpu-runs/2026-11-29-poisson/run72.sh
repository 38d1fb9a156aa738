#!/bin/bash
# Issue 34: the stand-alone bucketed cuckoo experiment (docs/gpu-runs/2026-11-29-bcht), first run.
# Issue 32, experiment build (WS_PO_CBLOCK, not on main): the 3-D colour passes a thread a node in
# blocks with a z extent (XxYxZ), so that a block's z neighbours are rows its own threads read,
# against the committed 64x4x1, alternately, two rounds; red-black and multicolour, float and double.
cd "$(dirname "$0")"/../../..
R=$PWD
( cd /tmp && /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 $R/docs/gpu-runs/2026-11-29-bcht/bcht.cu -o /tmp/bcht ) > /tmp/bcht-build.log 2>&1 &
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== bcht"; cat /tmp/bcht-build.log; timeout 150 /tmp/bcht 25 2>&1 | tee $OUT/bcht-h200.txt
for b in 32x2x4 16x4x4; do
  echo "== poisson_cuda_test (colour blocks $b)"; WS_PO_CBLOCK=$b timeout 200 /tmp/b/tests/poisson_cuda_test 2>&1 | grep -E "^\[ +(FAILED|PASSED) |Failure" | head
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
  for b in 64x4x1 64x2x2 32x4x2 32x2x4 64x1x4 16x4x4 128x1x2 32x8x1; do
    WS_PO_CBLOCK=$b one "$b" red-black float
  done
done
for b in 64x4x1 32x2x4 64x2x2 64x4x1 32x2x4 64x2x2; do
  WS_PO_CBLOCK=$b one "$b" red-black double
  WS_PO_CBLOCK=$b one "$b" multicolour float
done
} 2>&1 | tee $OUT/poisson.txt
