#!/bin/bash
# Main as committed (43e11c0): issue 31's 3-D march with the sums before each plane's barrier and
# the slab kernels' table, never run on a GPU as committed: ch_cuda_test, memcheck, racecheck, the
# fast path's bench at the issue's sizes. Then issue 34's hash lab key patterns (770acc7): the
# module's GPU tests under memcheck, and the bench at 2^25 for each pattern and hash family.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test tests/voxhash_module_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; git log --oneline -1 2>/dev/null
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
done; done 2>&1 | tee $OUT/ch-bench.txt
echo "== voxhash_module_test"; timeout 200 /tmp/b/tests/voxhash_module_test > /tmp/vt.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|Which is|Expected|actual" /tmp/vt.log | head -20
WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/voxhash_module_test --gtest_filter='*KeyPattern*OnTheGpu' > /tmp/san.log 2>&1; echo "memcheck rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
echo "== hash lab, 2^25 keys, each key pattern and hash family (insertion look)"
mkdir -p /tmp/v
for fam in multiplicative xor; do for pat in random sequential strided "voxel bricks"; do
  tag="$fam-${pat// /-}"
  timeout 90 $W bench --module voxhash --backend cuda --size 2^25 --samples 7 --steps-per-sample 5 --set voxhash.insertion=look --set voxhash.family=$fam --set "voxhash.key_pattern=$pat" --json /tmp/v/$tag.json > /tmp/v/$tag.txt 2>&1; rc=$?
  echo "-- $tag rc $rc"; grep -E "build|query|slots|fail|rror" /tmp/v/$tag.txt | head -6
done; done 2>&1 | tee $OUT/hash-keys.txt
tar czf $OUT/json.tgz -C /tmp j v
