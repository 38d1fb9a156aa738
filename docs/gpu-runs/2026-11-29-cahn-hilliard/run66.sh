#!/bin/bash
# Issue 31, experiment build as run 65 with two more bits: 8 only mu factored (4 factors the update too);
# 5 and 6 the factoring with the halo warps skipping, or the planes peeled; three rounds.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for e in 5 6 8; do
  WS_CH_EXP=$e timeout 60 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > /tmp/test.log 2>&1; echo "exp $e ch_cuda_test rc $?"
  grep -E "Failure|Which is|Expected|actual|:[0-9]+: " /tmp/test.log | head -6
done
B="/tmp/b/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
one() {  # pick, size, integrator
  WS_CH_EXP=$1 timeout 60 $B --size $2 --set cahn-hilliard.integrator=$3 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 $2 $3 bench failed"; tail -3 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
for round in 1 2 3; do for pick in c 0 4 8 5 6; do for integ in RK2 Euler; do one $pick 256x256x256 $integ; done; done; done 2>&1 | tee $OUT/sweep.txt
echo "== racecheck, exp 4"; WS_CH_EXP=4 WS_SANITIZER_RUN=1 timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > /tmp/san.log 2>&1; echo "rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
