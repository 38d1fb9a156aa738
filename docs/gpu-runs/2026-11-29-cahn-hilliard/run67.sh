#!/bin/bash
# Issue 31, as committed: the 3-D march's turn written once, mu with the Laplacian's centre in the
# bulk term (every kernel). ch_cuda_test, memcheck, racecheck, the fast path at the issue's sizes,
# then every kernel at 4096^2 and 256^3 (the bench's default sweep of variants).
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
for size in 4096 5792 256x256x256 322x322x322; do for integ in RK2 Euler; do
  timeout 60 $B --size $size --set cahn-hilliard.integrator=$integ --json /tmp/j/bench-$size-$integ.json > /tmp/x.txt 2>&1 || { echo "bench failed"; tail -3 /tmp/x.txt; continue; }
  python3 -c "
import json
d=json.load(open('/tmp/j/bench-$size-$integ.json'))
for r in d['results']: print('$integ', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
done; done 2>&1 | tee $OUT/bench.txt
echo "== every kernel"
for size in 4096 256x256x256; do
  timeout 150 $W bench --module cahn-hilliard --backend cuda --samples 7 --steps-per-sample 10 --size $size --json /tmp/j/every-$size.json > /tmp/j/every-$size.txt 2>&1; echo "rc $?"; grep -E "^cuda|^cpu" /tmp/j/every-$size.txt
done
tar czf $OUT/json.tgz -C /tmp j
