#!/bin/bash
# Issue 31, Cahn-Hilliard: the 2-D fast path with four columns a lane (float4), against the one
# column a lane kernel (a width of 4094 is not a multiple of four, so it runs there), tests,
# sanitizers, Nsight Compute.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
echo "== ch_cuda_test"; /tmp/b/tests/ch_cuda_test 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " | head -40
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2; do
  for size in 4096 4094x4096 5792 5788x5792; do
    for integ in RK2 Euler; do
      $B --size $size --set cahn-hilliard.integrator=$integ --json $OUT/r/b-$round-$size-$integ.json > $OUT/r/b-$round-$size-$integ.txt 2>&1 || echo "bench $size $integ failed"
    done
  done
done
for f in $OUT/r/b-*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f .json)', r['size'], round(r['ms_per_step'],4), 'ms', round(r['rate_per_second']/1e9,1), 'Gcell/s', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"; done
grep -h "launch vector\|launch shuffle" $OUT/r/b-1-4096-RK2.txt $OUT/r/b-1-4094x4096-RK2.txt | head -4
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"; done
NCU="ncu --clock-control none --launch-skip 6 --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
$NCU --kernel-name regex:vectorKernel2d $W bench --module cahn-hilliard --backend cuda --variant shuffle --size 4096 --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/r/ncu-2d.txt 2>&1; echo "ncu rc $?"
grep -E "vectorKernel|DRAM Throughput|Duration|L2 Hit|Achieved Occupancy|Registers Per|Issue Slots|No Eligible|Eligible Warps|Waves Per SM|Compute \(SM\) Throughput" $OUT/r/ncu-2d.txt | head -40
