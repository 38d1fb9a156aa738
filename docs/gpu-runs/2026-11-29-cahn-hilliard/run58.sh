#!/bin/bash
# Issue 31, Cahn-Hilliard, experiment build: the 3-D four-column march unrolled by its stage count
# (each plane's stage and exchange buffer known when compiling, the copies' address stepped a
# plane at a time), against the committed one (WS_CH_EXP=old3d); and a 2-D march with the rows
# ahead copied into shared memory by cp.async, kRows rows a warp and kStages slots
# (WS_CH_EXP=aRxS), against the committed batches in registers.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for pick in new a32x8 a16x8; do
  echo "== ch_cuda_test, pick $pick"; WS_CH_EXP=$pick timeout 200 /tmp/b/tests/ch_cuda_test > /tmp/test-$pick.log 2>&1; echo "rc $?"
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " /tmp/test-$pick.log | head -20
done
B="/tmp/b/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
one() {  # pick, size, integrator
  WS_CH_EXP=$1 timeout 60 $B --size $2 --set cahn-hilliard.integrator=$3 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 $2 $3 bench failed"; tail -3 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
{
for round in 1 2; do for pick in new old3d; do for integ in RK2 Euler; do one $pick 256x256x256 $integ; done; done; done
for pick in new a16x8 a32x8 a64x8 a32x12 a32x6; do for size in 4096 5792; do for integ in RK2 Euler; do one $pick $size $integ; done; done; done
} 2>&1 | tee $OUT/sweep.txt
echo "== memcheck, racecheck (new 3-D, a32x8)"
for pick in new a32x8; do for tool in memcheck racecheck; do
  WS_CH_EXP=$pick WS_SANITIZER_RUN=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > /tmp/san.log 2>&1; echo "$pick $tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
done; done
NCU="ncu --clock-control none --launch-skip 6 --launch-count 2 --section SpeedOfLight --section WarpStateStats --section Occupancy --section SchedulerStats --section InstructionStats"
WS_CH_EXP=new $NCU --kernel-name regex:vectorKernel3d /tmp/b/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --size 256x256x256 --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-3d.txt 2>&1; echo "ncu rc $?"
WS_CH_EXP=a32x8 $NCU --kernel-name regex:asyncKernel2d /tmp/b/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --size 4096 --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-2d.txt 2>&1; echo "ncu rc $?"
for f in 3d 2d; do echo "== $f"; grep -E "Kernel2d|Kernel3d|DRAM Throughput|Duration|Achieved Occupancy|Registers Per|Issue Slots Busy|No Eligible|Eligible Warps|Warp Cycles Per Issued|Executed Instructions  " $OUT/ncu-$f.txt | head -30; done
/usr/local/cuda/bin/cuobjdump -sass -arch sm_90 /tmp/b/compute/cahn-hilliard/CMakeFiles/ws_cahn-hilliard.dir/ch_cuda.cu.o > /tmp/sass.txt 2>&1
python3 - <<'PY' > $OUT/sass-3d.txt
import re
t=open('/tmp/sass.txt').read()
for part in t.split('Function : ')[1:]:
    name=part.split('\n')[0]
    if 'vectorKernel3d' in name and 'ILb0ELb1E' in name:
        print('Function :', part[:200000])
PY
wc -l $OUT/sass-3d.txt
