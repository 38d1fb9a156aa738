#!/bin/bash
# Issue 34, 2026-12-06: what the dense scans do since b69709d: Nsight Compute's metrics for the
# first 24 launches of backwardArcs and of forwardArcs in the scale-free bench (frontier mapping;
# the first launches are the bench's set-up graph's, grid 39000; the bench's own, grid 1133030,
# follow). Run on the machine warm from run 135, with its build in /tmp/e (a first try with
# Nsight Compute's sections failed: the bench asks 3 samples at least).
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 3 --variant frontier"
M=gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_atom.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__issue_active.avg.pct_of_peak_sustained_active
for k in backwardArcs forwardArcs; do
  timeout 200 ncu --kernel-name regex:$k --launch-count 24 --metrics $M --csv --print-units base $B $SF > $OUT/ncu-$k.csv 2>&1
  echo "$k rc $?"
done
