#!/bin/bash
# Issue 32, as committed (839faca): where the 3-D red-black colour pass (float, 256^3, a thread a
# node, 64x4 blocks) spends its time, for the next attempt at 85%: Nsight Compute's stall reasons,
# DRAM and L2 traffic against the bytes the floor counts, sectors a request, occupancy; and the
# 2-D pass at 4096^2 (88.6%) beside it.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
M=""
for r in barrier long_scoreboard short_scoreboard wait math_pipe_throttle mio_throttle lg_throttle not_selected selected dispatch_stall no_instruction drain imc_miss tex_throttle; do
  M="$M${M:+,}smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
M="$M,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,smsp__warps_active.avg.per_cycle_active,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread"
W=/tmp/b/warpscope
for size in 256x256x256 4096; do
  ncu --clock-control none --launch-skip 10 --launch-count 2 --metrics $M --kernel-name regex:colourKernel $W bench --module poisson --backend cuda --variant red-black --size $size --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-$size.txt 2>&1; echo "ncu $size rc $?"
  grep -E "colourKernel|stalled|inst_executed|dram__|duration|warps_active|lts__|l1tex__|issue_active|registers" $OUT/ncu-$size.txt | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{$1=$1; print}' | head -70
done
