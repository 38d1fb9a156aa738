#!/bin/bash
# Issue 31, Cahn-Hilliard: the 2-D four-column kernel's same-base pass (Euler, RK2's half step)
# held to 96 registers (__launch_bounds__ with 5 blocks a multiprocessor: 20 warps, against 16):
# run 55's Nsight Compute had that pass at 60% DRAM with 0.92 eligible warps a scheduler.
# ch_cuda_test, memcheck, the 2-D bench, two rounds.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== ch_cuda_test"; timeout 200 /tmp/b/tests/ch_cuda_test > /tmp/test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " /tmp/test.log | head -20
echo "== memcheck"; WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > /tmp/san.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
B="/tmp/b/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2; do for size in 4096 5792; do for integ in RK2 Euler; do
  timeout 60 $B --size $size --set cahn-hilliard.integrator=$integ --json $OUT/bench-$size-$integ.json > /tmp/x.txt 2>&1 || { echo "bench failed"; continue; }
  python3 -c "
import json
d=json.load(open('$OUT/bench-$size-$integ.json'))
for r in d['results']: print('round $round $integ', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
done; done; done
