#!/bin/bash
# Issue 32, experiment build (run75-experiment.patch, not on main): the 3-D red-black pass two
# planes a thread (z and z + the block's depth, every load before any store) in several block
# shapes, against one plane in 64x2x2 (main), alternately, two rounds. Issue 34: Nsight Compute on
# the bucketed table's build and lookups at 2^25 keys (buckets of 4, 2 functions): where the build
# (11.8 x 10^9 keys/s) waits.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for b in 64x2x2 64x2x1; do
  echo "== poisson_cuda_test, two planes, $b"; WS_PO_PLANES=2 WS_PO_CBLOCK=$b timeout 200 /tmp/b/tests/poisson_cuda_test 2>&1 | grep -E "^\[ +(FAILED|PASSED) |Failure" | head
done
W=/tmp/b/warpscope
one() {  # label, variant, precision
  $W bench --module poisson --backend cuda --variant $2 --size 256^3 --set poisson.precision=$3 --samples 9 --steps-per-sample 20 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $2 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
{
for round in 1 2; do
  one "1 plane 64x2x2" red-black float
  for b in 64x2x2 64x2x1 64x4x1 64x1x2 128x1x2 128x2x1 64x4x2; do
    WS_PO_PLANES=2 WS_PO_CBLOCK=$b one "2 planes $b" red-black float
  done
done
one "1 plane 64x2x2" red-black double
WS_PO_PLANES=2 WS_PO_CBLOCK=64x2x2 one "2 planes 64x2x2" red-black double
WS_PO_PLANES=2 WS_PO_CBLOCK=64x2x1 one "2 planes 64x2x1" red-black double
} 2>&1 | tee $OUT/poisson.txt
M=""
for r in long_scoreboard lg_throttle membar wait not_selected selected drain no_instruction barrier short_scoreboard; do
  M="$M${M:+,}smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
M="$M,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_requests_srcunit_tex_op_atom.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,sm__maximum_warps_per_active_cycle_pct"
ncu --clock-control none --launch-skip 6 --launch-count 4 --metrics $M --kernel-name regex:"insert|queryKernel" $W bench --module voxhash --backend cuda --size 2^25 --samples 3 --steps-per-sample 1 --set voxhash.bucket=4 --set voxhash.functions=2 --json /tmp/x.json > $OUT/ncu-bucket4.txt 2>&1; echo "ncu rc $?"
grep -E "insert|queryKernel|stalled|inst_executed|dram__|duration|warps_active|lts__|issue_active|registers|occupancy|maximum_warps" $OUT/ncu-bucket4.txt | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{$1=$1; print}' | head -90
