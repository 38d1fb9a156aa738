#!/bin/bash
# Issue 32, as committed (d8a4e69): where the one-pass red-black kernel (float, 256^3, z-block 32)
# spends its time: Nsight Compute's stall reasons, instructions, shared-memory bank conflicts,
# occupancy, DRAM and L2 traffic.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
M=""
for r in barrier long_scoreboard short_scoreboard wait math_pipe_throttle mio_throttle lg_throttle not_selected selected dispatch_stall no_instruction drain imc_miss; do
  M="$M${M:+,}smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
M="$M,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_global_ld.sum"
W=/tmp/b/warpscope
ncu --clock-control none --launch-skip 6 --launch-count 2 --metrics $M --kernel-name regex:fusedRedBlack $W bench --module poisson --backend cuda --variant red-black --size 256^3 --set "poisson.kernel=both colours in one pass" --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-fused.txt 2>&1; echo "ncu rc $?"
grep -E "fusedRed|stalled|inst_executed|dram__|duration|warps_active|lts__|l1tex__|issue_active|registers|occupancy" $OUT/ncu-fused.txt | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{$1=$1; print}' | head -60
