#!/bin/bash
# Issue 31, Cahn-Hilliard as committed: run 53's code, the 3-D four-column kernel now only where
# the rows fill its warps of 128 columns (not at 320^3). Tests, memcheck, racecheck, 320^3 again.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== ch_cuda_test"; timeout 200 /tmp/b/tests/ch_cuda_test > /tmp/test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " /tmp/test.log | head -20
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 timeout 150 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > /tmp/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san-$tool.log | tr '\n' ' ')"; done
B="/tmp/b/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for size in 320x320x320 256x256x256; do for integ in RK2 Euler; do
  timeout 60 $B --size $size --set cahn-hilliard.integrator=$integ --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "bench failed"; continue; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$integ', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
  grep -m1 "launch" /tmp/x.txt
done; done
