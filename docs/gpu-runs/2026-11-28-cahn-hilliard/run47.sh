#!/bin/bash
# Issue 31, Cahn-Hilliard: the 3-D fast path with four columns a lane and the rows shared (an
# experiment build choosing planes loaded ahead and blocks an SM from WS_CH_SLAB: 0 = 4 ahead, 2
# blocks; 1 = 2, 2; 2 = 4, 1; 3 = 2, 1), against the one-column kernel (a width of 258), tests,
# memcheck and racecheck.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
echo "== ch_cuda_test"; /tmp/b/tests/ch_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " | head -40
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"; done
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2; do for pick in 0 1 2 3; do
  for run in "256^3 RK2" "256^3 Euler" "322^3 RK2" "258x256x256 RK2"; do set -- $run
    [ $1 = 258x256x256 ] && [ $pick != 0 ] && continue
    WS_CH_SLAB=$pick $B --size $1 --set cahn-hilliard.integrator=$2 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "bench failed"; tail -3 /tmp/x.txt; continue; }
    python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('round $round pick $pick $2', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%')"
  done
done; done | tee $OUT/r/sweep.txt
