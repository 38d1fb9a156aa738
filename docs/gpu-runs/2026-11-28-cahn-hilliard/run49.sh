#!/bin/bash
# Issue 31, Cahn-Hilliard as committed (f95a6e5: four columns a lane in 2-D, 16 rows a warp, 8
# ahead): tests, memcheck and racecheck, the fast path's bench in 2-D.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
echo "== ch_cuda_test"; /tmp/b/tests/ch_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " | head -40
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for size in 4096 5792; do for integ in RK2 Euler; do
  $B --size $size --set cahn-hilliard.integrator=$integ --json $OUT/r/bench-$size-$integ.json > $OUT/r/bench-$size-$integ.txt 2>&1 || echo "bench failed"
  python3 -c "
import json
d=json.load(open('$OUT/r/bench-$size-$integ.json'))
for r in d['results']: print('$integ', r['size'], round(r['ms_per_step'],4), 'ms', round(r['rate_per_second']/1e9,1), 'Gcell/s', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
done; done
grep -h "launch vector" $OUT/r/bench-4096-RK2.txt | head -2
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"; done
