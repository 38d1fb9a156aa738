#!/bin/bash
# Issue 34: bcht.cu again, its counters' atomics out of the timed rounds (run 72 timed them), and a
# thread-a-key lookup of the 4-slot buckets. Issue 32, experiment build (WS_PO_CBLOCK): more 3-D
# colour-pass block shapes around run 72's best, 64x2x2, alternately, two rounds.
cd "$(dirname "$0")"/../../..
R=$PWD
( cd /tmp && /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 $R/docs/gpu-runs/2026-11-29-bcht/bcht.cu -o /tmp/bcht ) > /tmp/bcht-build.log 2>&1 &
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== bcht"; cat /tmp/bcht-build.log; timeout 150 /tmp/bcht 25 2>&1 | tee $OUT/bcht-h200.txt
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
  for b in 64x2x2 64x4x1 128x2x2 64x2x4 32x2x2 64x1x2 128x1x4 64x4x2 256x1x2 128x2x1; do
    WS_PO_CBLOCK=$b one "$b" red-black float
  done
done
} 2>&1 | tee $OUT/poisson.txt
