#!/bin/bash
# Issue 31, experiment build (branch exp-warps, not on main): the 3-D four-column kernel with 20,
# 24 or 28 warps a block (WS_CH_WARPS) and the planes split evenly into WS_CH_PARTS parts (from even
# planes), so that the blocks fill whole waves of the 132 multiprocessors: at 256^3 20 warps make
# 32 columns of blocks (8 parts: 256 blocks, 2 waves; 4 parts: 128, one), 24 warps 26 (5 parts:
# 130), 28 warps 22 (6 parts: 132).
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for wp in "20 0" "24 5" "28 3"; do set -- $wp
  WS_CH_WARPS=$1 WS_CH_PARTS=$2 timeout 60 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*:*Maximum*' > /tmp/test.log 2>&1; echo "warps $1 parts $2 ch_cuda_test rc $?"
  grep -E "Failure|Which is|Expected|actual|:[0-9]+: " /tmp/test.log | head -6
done
B="/tmp/b/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
one() {  # warps, parts, size, integrator
  WS_CH_WARPS=$1 WS_CH_PARTS=$2 timeout 60 $B --size $3 --set cahn-hilliard.integrator=$4 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 $2 $3 $4 bench failed"; tail -3 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('warps $1 parts $2 $4', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
for round in 1 2; do for wp in "20 8" "20 4" "24 5" "24 10" "28 6" "28 12"; do for integ in RK2 Euler; do one $wp 256x256x256 $integ; done; done; done 2>&1 | tee $OUT/sweep.txt
for wp in "20 0" "24 0" "28 0"; do for integ in RK2 Euler; do one $wp 384x384x384 $integ; done; done 2>&1 | tee -a $OUT/sweep.txt
echo "== racecheck, 24 warps"; WS_CH_WARPS=24 WS_CH_PARTS=5 WS_SANITIZER_RUN=1 timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > /tmp/san.log 2>&1; echo "rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
