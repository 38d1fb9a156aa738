#!/bin/bash
# PREPARED, NOT RUN (2026-12-07: the session's device time was spent on runs 144-149).
# Issue 31, run 150: why a Cahn-Hilliard grid 322 wide runs at 70-72% of the floor on the slab
# where one 320 wide runs at 85-87% (runs 145-149, whatever the other sizes and whether the rows
# are float2 pairs or padded float4s). Main as it is. First the widths around it, whole float4s
# (324 = 81 quads, 328, 332, 336) and 2 mod 4 (326, 330), at 320 rows and planes: does 81 quads cost
# as 322 does (then it is the third warp's lanes or the grid), or only the half quad (then it is
# the half's code). Then Nsight Compute on the launched passes (pass_sync "kernel launch", the
# same kernel a pass) at 320 and 322 wide: instructions, sectors and stalls a pass; SourceCounters
# for its rules on uncoalesced and excessive sectors. (2026-12-08: 318 replaced by 330 and 332, since
# 318 fills its three warps less than five sixths and takes the one-column kernel; 382 and 384 added,
# 2 mod 4 and whole float4s with the third warp nearly full.)
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
s=$(date +%s)
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - s)) s"
mkdir -p /tmp/j
W=/tmp/b/warpscope
bench() {  # size integrator [sync]
  echo -n "$1 $2 ${3:-neighbours}: "
  timeout 60 $W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 \
    --steps-per-sample 20 --size $1 --set cahn-hilliard.integrator=$2 \
    --set "cahn-hilliard.pass_sync=${3:-neighbours}" --json /tmp/j/$1-$2-${3// /-}.json \
    > /tmp/j/$1-$2.log 2>&1
  if grep -q "^cuda" /tmp/j/$1-$2.log; then grep "^cuda" /tmp/j/$1-$2.log | awk '{print $4, $NF "%"}'
  else tail -2 /tmp/j/$1-$2.log; fi
}
for w in 320 322 324 326 328 330 332 336 382 384; do for i in RK2 Euler; do bench ${w}x320x320 $i; done; done
tar -czf $OUT/run150.tgz -C /tmp j
NCU="$(command -v ncu || echo /usr/local/cuda/bin/ncu) --clock-control none --launch-skip 6 --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section InstructionStats --section LaunchStats --section SchedulerStats --section SourceCounters"
for w in 320 322; do
  timeout 150 $NCU --kernel-name regex:vectorKernel3d $W bench --module cahn-hilliard --backend cuda \
    --variant shuffle --size ${w}x320x320 --set cahn-hilliard.integrator=Euler \
    --set "cahn-hilliard.pass_sync=kernel launch" --samples 3 --steps-per-sample 4 \
    --json /tmp/j/ncu.json > $OUT/ncu-$w.txt 2>&1
  echo "ncu $w rc $?"
done
grep -E "vectorKernel3d|Duration|DRAM Throughput|Executed Ipc|Issue Slots|Warp Cycles Per Issued|No Eligible|Executed Instructions  |L2 Hit|Mem Busy|excessive|uncoalesced" $OUT/ncu-320.txt $OUT/ncu-322.txt | head -60
date -u
