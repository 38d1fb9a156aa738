#!/bin/bash
# Issue 31, Cahn-Hilliard, experiment build: every lane of the four-column kernels updates (2-D
# and, new, 3-D), their march length chosen to fill whole waves (WS_CH_LENGTH overrides it), the
# 3-D block's warps and planes ahead picked by WS_CH_SLAB (0: 20 warps, 2 ahead; 1: 20, 4;
# 2: 32, 2; 3: 32, 4). Tests, memcheck, racecheck, then the sweep.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
echo "== ch_cuda_test"; timeout 200 /tmp/b/tests/ch_cuda_test > $OUT/r/test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " $OUT/r/test.log | head -40
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
one() {  # label, size, integrator (environment set by the caller)
  timeout 60 $B --size $2 --set cahn-hilliard.integrator=$3 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 $2 $3 bench failed"; tail -3 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%', '$(grep -m1 vectorLength /tmp/x.txt)')"
}
{
for length in auto 16 32 64; do for size in 4096 5792; do
  if [ $length = auto ]; then one "2-D length $length" $size RK2; else WS_CH_LENGTH=$length one "2-D length $length" $size RK2; fi
done; done
one "2-D length auto" 4096 Euler
for pick in 0 1 2 3; do WS_CH_SLAB=$pick one "3-D pick $pick depth auto" 256x256x256 RK2; done
for depth in 16 32; do WS_CH_LENGTH=$depth WS_CH_SLAB=0 one "3-D pick 0 depth $depth" 256x256x256 RK2; done
WS_CH_SLAB=0 one "3-D pick 0 depth auto" 256x256x256 Euler
one "3-D one column" 258x256x256 RK2
} 2>&1 | tee $OUT/r/sweep.txt
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 timeout 150 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"; done
