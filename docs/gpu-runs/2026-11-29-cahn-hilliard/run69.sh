#!/bin/bash
# Issue 31, as committed: the 3-D fast path's planes split into parts that fill whole waves.
# ch_cuda_test, memcheck, racecheck, the fast path at the issue's sizes and at 384^3, 128^3 and
# 200^3 (other splits).
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== ch_cuda_test"; timeout 200 /tmp/b/tests/ch_cuda_test > /tmp/test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " /tmp/test.log | head -20
for tool in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > /tmp/san.log 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
mkdir -p /tmp/j
for size in 4096 5792 256x256x256 322x322x322 384x384x384 128x128x128 200x200x200; do for integ in RK2 Euler; do
  timeout 60 $B --size $size --set cahn-hilliard.integrator=$integ --json /tmp/j/bench-$size-$integ.json > /tmp/x.txt 2>&1 || { echo "bench failed"; tail -3 /tmp/x.txt; continue; }
  python3 -c "
import json
d=json.load(open('/tmp/j/bench-$size-$integ.json'))
for r in d['results']: print('$integ', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
done; done 2>&1 | tee $OUT/bench.txt
tar czf $OUT/json.tgz -C /tmp j
