#!/bin/bash
# Issue 31, Cahn-Hilliard, experiment build: 2-D as committed next (every lane, 16 rows, 8 ahead
# in batches); 3-D four-column blocks picked by WS_CH_SLAB: 0 the planes ahead in registers (20
# warps, 2 ahead), 1-5 copied into shared memory asynchronously (cp.async): 1: 20 warps, 4
# stages; 2: 20, 6; 3: 16, 6; 4: 12, 6; 5: 20, 8. 32 planes a block.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
for pick in 2 0 4; do
  echo "== ch_cuda_test, pick $pick"; WS_CH_SLAB=$pick timeout 200 /tmp/b/tests/ch_cuda_test > $OUT/r/test-$pick.log 2>&1; echo "rc $?"
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " $OUT/r/test-$pick.log | head -20
done
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
one() {  # label, size, integrator (environment set by the caller)
  timeout 60 $B --size $2 --set cahn-hilliard.integrator=$3 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 $2 $3 bench failed"; tail -3 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%')"
}
{
for pick in 0 1 2 3 4 5; do WS_CH_SLAB=$pick one "3-D pick $pick" 256x256x256 RK2; done
for pick in 0 2 4; do WS_CH_SLAB=$pick one "3-D pick $pick" 256x256x256 Euler; done
for size in 4096 5792; do for integ in RK2 Euler; do one "2-D" $size $integ; done; done
} 2>&1 | tee $OUT/r/sweep.txt
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 timeout 150 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"; done
