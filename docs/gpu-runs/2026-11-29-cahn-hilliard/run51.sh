#!/bin/bash
# Issue 31, Cahn-Hilliard, experiment build as run 50 but with the rows (planes) ahead kept in a
# ring that is loaded again as soon as a slot is used (loads always in flight); the 2-D rows
# ahead picked by WS_CH_AHEAD (4, 8), the 3-D block by WS_CH_SLAB (0: 20 warps, 2 ahead; 1: 20, 4;
# 2: 16, 4; 3: 16, 2), the length of a march by WS_CH_LENGTH.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
echo "== ch_cuda_test"; timeout 200 /tmp/b/tests/ch_cuda_test > $OUT/r/test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " $OUT/r/test.log | head -20
echo "== ch_cuda_test, 2-D 4 ahead, 3-D 16 warps 4 ahead"
WS_CH_AHEAD=4 WS_CH_SLAB=2 timeout 200 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > $OUT/r/test2.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " $OUT/r/test2.log | head -20
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
one() {  # label, size, integrator (environment set by the caller)
  timeout 60 $B --size $2 --set cahn-hilliard.integrator=$3 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 $2 $3 bench failed"; tail -3 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%', '$(grep vectorLength /tmp/x.txt | tail -1)')"
}
{
for ahead in 4 8; do for length in 16 32; do for size in 4096 5792; do
  WS_CH_AHEAD=$ahead WS_CH_LENGTH=$length one "2-D ahead $ahead length $length" $size RK2
done; done; done
WS_CH_AHEAD=4 one "2-D ahead 4 length auto" 4096 RK2
for ahead in 4 8; do WS_CH_AHEAD=$ahead WS_CH_LENGTH=16 one "2-D ahead $ahead length 16" 4096 Euler; done
for pick in 0 1 2 3; do for depth in 16 32; do WS_CH_LENGTH=$depth WS_CH_SLAB=$pick one "3-D pick $pick depth $depth" 256x256x256 RK2; done; done
for pick in 0 2; do WS_CH_LENGTH=32 WS_CH_SLAB=$pick one "3-D pick $pick depth 32" 256x256x256 Euler; done
} 2>&1 | tee $OUT/r/sweep.txt
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 timeout 150 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"; done
