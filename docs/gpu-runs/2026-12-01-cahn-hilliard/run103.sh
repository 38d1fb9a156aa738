#!/bin/bash
# Issue 31, run 103: the 3-D kernel's warps waiting for their two neighbouring warps only (mbarriers;
# every lane arriving, WS_CH_EXP=local, or lane 0 after __syncwarp, local1) instead of the block's
# barrier each plane, and every other pass marching down the planes (back), against main,
# alternately; ch_cuda_test on each, racecheck and synccheck on local1; Nsight Compute's stall
# reasons on local1. An experiment build: run103-experiment.patch on 456782d.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for e in main local local1 back local1,back; do
  echo "ch_cuda_test $e: $(WS_CH_EXP=$e timeout 120 /tmp/b/tests/ch_cuda_test 2>&1 | tail -1)"
done
for t in racecheck synccheck; do
  WS_CH_EXP=local1,back WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/ch_cuda_test > $OUT/$t-local1.log 2>&1
  echo "$t local1,back rc $? $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/$t-local1.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2; do for integ in RK2 Euler; do for e in main local local1 back local1,back; do
  echo -n "round $round 256^3 $integ $e: "
  env WS_CH_EXP=$e timeout 60 $B --size 256x256x256 --set cahn-hilliard.integrator=$integ --json /tmp/j.json 2>&1 \
    | grep "^cuda" | awk '{print $4, $NF}'
done; done; done
for integ in RK2 Euler; do for e in main local1 local1,back; do
  echo -n "384^3 $integ $e: "
  env WS_CH_EXP=$e timeout 60 $B --size 384x384x384 --set cahn-hilliard.integrator=$integ --json /tmp/j.json 2>&1 | grep "^cuda" | awk '{print $4, $NF}'
done; done
M=smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
for r in branch_resolving dispatch_stall long_scoreboard math_pipe_throttle mio_throttle no_instruction not_selected selected short_scoreboard wait lg_throttle; do
  M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
done
M=$M,smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
WS_CH_EXP=local1 timeout 120 /usr/local/cuda/bin/ncu --clock-control none --kernel-name regex:vectorKernel3d --launch-skip 20 --launch-count 2 \
  --metrics $M $B --size 256x256x256 --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-stalls-local1.txt 2>&1
echo "ncu rc $?"; grep -E "vectorKernel3d|stalled|inst_executed|duration|dram" $OUT/ncu-stalls-local1.txt | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $NF}'
