#!/bin/bash
# Issue 34, 2026-12-06: what the dense scans do at two arcs a thread (92dafd5): Nsight Compute's
# metrics for the first 24 launches of backwardArcsStaged and of forwardArcsStaged in the
# scale-free bench (frontier mapping), as run 136 measured the one-arc scans.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 3 --variant frontier"
M=gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_atom.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__issue_active.avg.pct_of_peak_sustained_active
for k in backwardArcsStaged forwardArcsStaged; do
  timeout 120 ncu --kernel-name regex:$k --launch-count 24 --metrics $M --csv --print-units base $B $SF > $OUT/ncu-$k.csv 2>&1
  echo "$k rc $?"; gzip -9 $OUT/ncu-$k.csv
done
