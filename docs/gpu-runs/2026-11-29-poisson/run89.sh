#!/bin/bash
# Issue 32, run 89: the one-pass kernel with its places precomputed (run 88's profile: 8 warp
# instructions an update, issue-bound). Build, the tests that compare the kernels with the CPU,
# memcheck, racecheck, then the benchmark.
cd "$(dirname "$0")"/../../..
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope tests/poisson_cuda_test tests/poisson_test > /tmp/build.log 2>&1 ||
  { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for t in poisson_test poisson_cuda_test; do
  echo "== $t"; timeout 200 /tmp/b/tests/$t --gtest_filter='*FollowTheCpu*:*FollowsTheCpu*:PoissonStencil*' > $OUT/$t.log 2>&1; echo "rc $?"
  grep -E "^\[ +(FAILED|PASSED) |Failure" $OUT/$t.log | head -8
done
for t in memcheck racecheck; do
  echo "== $t poisson_cuda_test"
  WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/poisson_cuda_test --gtest_filter='*FollowTheCpu*:*FollowsTheCpu*' > $OUT/sanitizer-$t.log 2>&1
  echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$t.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
mkdir -p /tmp/j; n=0
one() {  # label, variant, size, settings...
  local label="$1 $2 $3 ${*:4}"
  timeout 60 $W bench --module poisson --backend cuda --variant $2 --size $3 "${@:4}" --samples 9 --steps-per-sample 20 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$label failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json, sys
d=json.load(open('/tmp/x.json'))
for r in d['results']: print(sys.argv[1], '|', round(r['ms_per_step'],4), 'ms', round(r['bytes_per_unit']), 'B', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))" "$label"
  n=$((n + 1)); cp /tmp/x.json /tmp/j/$n.json
}
F="poisson.kernel=both colours in one pass"
{
one node red-black 256^3 --set poisson.precision=float
for zb in 16 32 64; do one fused red-black 256^3 --set poisson.precision=float --set "$F" --set poisson.z_block=$zb; done
one node red-black 256^3 --set poisson.precision=double
for zb in 16 32; do one fused red-black 256^3 --set poisson.precision=double --set "$F" --set poisson.z_block=$zb; done
one node red-black 512^3 --set poisson.precision=float
one fused red-black 512^3 --set poisson.precision=float --set "$F" --set poisson.z_block=32
one fused red-black 512^3 --set poisson.precision=float --set "$F" --set poisson.z_block=64
} 2>&1 | tee $OUT/poisson.txt
tar czf $OUT/json.tgz -C /tmp j
M=smsp__inst_executed.sum,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
ncu --clock-control none --launch-skip 6 --launch-count 1 --metrics $M --kernel-name regex:fusedRedBlack $W bench --module poisson --backend cuda --variant red-black --size 256^3 --set "$F" --samples 3 --steps-per-sample 4 --json /tmp/x.json > $OUT/ncu-fused.txt 2>&1
grep -E "inst_executed|duration|dram__|issue_active|registers" $OUT/ncu-fused.txt | awk '{$1=$1; print}'
