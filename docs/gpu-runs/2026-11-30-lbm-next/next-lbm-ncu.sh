#!/bin/bash
# Issue 34, not yet run: where LBM's D3Q19 stream-collide stands against the targets (FP32 97%,
# FP16 95% of the floor at 256^3). The bench at 256^3 in the scene of 2026-11-22 (the cylinder,
# plain bounce-back, no forces measured) and as the module now runs by default, then Nsight
# Compute's sections on one step of each SoA variant in the first.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
W=/tmp/b/warpscope
PLAIN="--set lbm.lattice=d3q19 --set lbm.tracers=0 --set lbm.curved_walls=bounce-back --set lbm.forces=none"
V="--variant ab-soa-fp32 --variant aa-soa-fp32 --variant ab-soa-fp16 --variant aa-soa-fp16"
echo "== the scene of 2026-11-22"; timeout 150 $W bench --module lbm --size 256x256x256 $PLAIN $V --samples 9 --json $OUT/plain.json 2>&1 | grep -E "^cuda|bandwidth"
echo "== as the module runs by default"; timeout 150 $W bench --module lbm --size 256x256x256 --set lbm.lattice=d3q19 --set lbm.tracers=0 $V --samples 9 --json $OUT/default.json 2>&1 | grep -E "^cuda|bandwidth"
for v in ab-soa-fp32 ab-soa-fp16; do
  timeout 200 /usr/local/cuda/bin/ncu --kernel-name regex:"[Ss]tream|[Cc]ollide" --launch-skip 40 --launch-count 2 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --section LaunchStats --section InstructionStats \
    $W bench --module lbm --size 256x256x256 $PLAIN --variant $v --samples 3 --steps-per-sample 20 \
    --json /tmp/x.json > $OUT/ncu-$v.txt 2>&1
  echo "== ncu $v rc $?"; grep -E "^  [a-zA-Z].*\(|Duration|DRAM Throughput|Memory Throughput|Issue Slots Busy|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|Executed Ipc" $OUT/ncu-$v.txt | head -24
done
