#!/bin/bash
# Issue 31, Cahn-Hilliard as committed (790cc31): Nsight Compute on the 3-D four-column kernel at
# 256^3 (both passes of an RK2 step) and on the 2-D one at 4096^2, to see what holds 3-D back.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
W=/tmp/b/warpscope
NCU="ncu --clock-control none --launch-skip 6 --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats"
$NCU --kernel-name regex:vectorKernel3d $W bench --module cahn-hilliard --backend cuda --variant shuffle --size 256x256x256 --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-3d.txt 2>&1; echo "ncu rc $?"
$NCU --kernel-name regex:vectorKernel2d $W bench --module cahn-hilliard --backend cuda --variant shuffle --size 4096 --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-2d.txt 2>&1; echo "ncu rc $?"
for f in 3d 2d; do echo "== $f"; grep -E "vectorKernel|DRAM Throughput|Duration|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Issue Slots Busy|Issued Ipc|No Eligible|Eligible Warps|Active Warps Per|Warp Cycles Per Issued|Compute \(SM\) Throughput|Memory Throughput|Executed Instructions  " $OUT/ncu-$f.txt | head -40; done
