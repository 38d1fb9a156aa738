#!/bin/bash
# Issue 31, Cahn-Hilliard as committed (446ecb5): where the four-column kernels' warps wait.
# Nsight Compute's stall reasons (warps stalled a cycle for each reason, per issued instruction)
# for both passes of an RK2 step, 3-D at 256^3 and 2-D at 4096^2.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
M=""
for r in barrier long_scoreboard short_scoreboard wait math_pipe_throttle mio_throttle lg_throttle not_selected selected dispatch_stall no_instruction membar branch_resolving drain imc_miss tex_throttle sleeping misc; do
  M="$M${M:+,}smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
M="$M,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,smsp__warps_active.avg.per_cycle_active"
W=/tmp/b/warpscope
ncu --clock-control none --launch-skip 6 --launch-count 2 --metrics $M --kernel-name regex:vectorKernel3d $W bench --module cahn-hilliard --backend cuda --variant shuffle --size 256x256x256 --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-stalls-3d.txt 2>&1; echo "ncu rc $?"
ncu --clock-control none --launch-skip 6 --launch-count 2 --metrics $M --kernel-name regex:vectorKernel2d $W bench --module cahn-hilliard --backend cuda --variant shuffle --size 4096 --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-stalls-2d.txt 2>&1; echo "ncu rc $?"
for f in 3d 2d; do echo "== $f"; grep -E "Kernel|stalled|inst_executed|dram__|duration|warps_active" $OUT/ncu-stalls-$f.txt | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{$1=$1; print}' | head -60; done
