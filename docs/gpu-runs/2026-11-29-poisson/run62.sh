#!/bin/bash
# Issue 32, experiment build (WS_PO_BLOCK, not on main): the register-column kernel for 3-D
# red-black in float at 256^3 with the block shapes that made a thread a node 6% faster (64x4,
# 128x2; it runs in 32x8), and z-blocking 4, 8, 16, against a thread a node. Then issue 33's
# leftover: the LBM bench at 8192^2 for every variant (docs/performance.md, 2026-11-28).
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== poisson_cuda_test (columns 64x4)"; WS_PO_BLOCK=64x4 timeout 200 /tmp/b/tests/poisson_cuda_test 2>&1 | grep -E "^\[ +(FAILED|PASSED) |Failure" | head
W=/tmp/b/warpscope
one() {  # label, extra options
  $W bench --module poisson --backend cuda --variant red-black --size 256^3 --set poisson.precision=float --samples 9 --steps-per-sample 20 "${@:2}" --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
{
one node
for b in 32x8 64x4 128x2 64x2 32x4; do for zb in 4 8 16; do
  WS_PO_BLOCK=$b one "columns $b z$zb" --set "poisson.kernel=register columns" --set poisson.z_block=$zb
done; done
one node
WS_PO_BLOCK=64x4 one "columns 64x4 z8" --set "poisson.kernel=register columns" --set poisson.z_block=8
WS_PO_BLOCK=128x2 one "columns 128x2 z8" --set "poisson.kernel=register columns" --set poisson.z_block=8
} 2>&1 | tee $OUT/poisson.txt
echo "== LBM 8192^2, every variant"
timeout 200 $W bench --module lbm --size 8192x8192 --steps-per-sample 20 --json $OUT/bench-lbm-d2q9-8192.json 2>&1 | tee $OUT/lbm-8192.txt
