#!/bin/bash
# Issue 34, run 106: Nsight Compute on the D3Q19 256^3 stream-collide of each precision (A-B SoA),
# in the scene of 2026-11-22 (plain bounce-back, no forces measured), main as committed (456782d):
# the ncu part of docs/gpu-runs/2026-11-30-lbm-next/next-lbm-ncu.sh (its bench part ran in run 104).
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
W=/tmp/b/warpscope
PLAIN="--set lbm.lattice=d3q19 --set lbm.tracers=0 --set lbm.curved_walls=bounce-back --set lbm.forces=none"
for v in ab-soa-fp32 ab-soa-fp16; do
  timeout 150 /usr/local/cuda/bin/ncu --clock-control none --kernel-name regex:"streamCollide" --launch-skip 40 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --section LaunchStats --section SchedulerStats \
    $W bench --module lbm --size 256x256x256 $PLAIN --variant $v --samples 3 --steps-per-sample 20 \
    --json /tmp/x.json > $OUT/ncu-$v.txt 2>&1
  echo "== ncu $v rc $?"; grep -E "streamCollide.*\(|Duration|DRAM Throughput|Memory Throughput|Issue Slots Busy|Warp Cycles Per Issued|Achieved Occupancy|Theoretical Occupancy|Registers Per|Eligible Warps|No Eligible|Stall" $OUT/ncu-$v.txt | cut -c1-150 | head -24
done
