#!/bin/bash
# Issue 31, Cahn-Hilliard: Nsight Compute on the shuffle kernels (2-D 4096^2, 3-D 256^3).
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
W=/tmp/b/warpscope
NCU="ncu --clock-control none --launch-skip 6 --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
$NCU --kernel-name regex:shuffleKernel2d $W bench --module cahn-hilliard --backend cuda --variant shuffle --size 4096 --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/r/ncu-2d.txt 2>&1; echo "2d rc $?"
$NCU --kernel-name regex:shuffleKernel3d $W bench --module cahn-hilliard --backend cuda --variant shuffle --size 256^3 --samples 3 --steps-per-sample 4 --json /tmp/y.json > $OUT/r/ncu-3d.txt 2>&1; echo "3d rc $?"
grep -E "shuffleKernel|DRAM Throughput|Memory Throughput|Duration|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Issue Slots|No Eligible|Warp Cycles Per Issued|Stall|One or More Eligible|Eligible Warps|Waves Per SM|Compute \(SM\) Throughput|Mem Busy|Max Bandwidth" $OUT/r/ncu-2d.txt $OUT/r/ncu-3d.txt | head -80
cd $OUT && tar -czf r.tgz r && rm -rf r
