#!/bin/bash
# Issue 32, run 90: the coloured passes back and forth (every other pass's blocks from the grid's
# end, where the pass before ended, so that its first reads hit in the L2) against one way. Build,
# the tests against the CPU, memcheck, racecheck, then the benchmark alternately, and the DRAM
# bytes of a red and a black pass each way.
cd "$(dirname "$0")"/../../..
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 ||
  { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== poisson_cuda_test"
timeout 200 /tmp/b/tests/poisson_cuda_test > $OUT/poisson_cuda_test.log 2>&1; echo "rc $?"
grep -E "^\[ +(FAILED|PASSED) |Failure" $OUT/poisson_cuda_test.log | head -8
for t in memcheck racecheck; do
  echo "== $t poisson_cuda_test"
  WS_SANITIZER_RUN=1 timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/poisson_cuda_test --gtest_filter='*EverySolverFollows*' > $OUT/sanitizer-$t.log 2>&1
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
{
for round in 1 2; do
  for order in "one way" "back and forth"; do
    for p in float double; do
      one "$order" red-black 256^3 --set poisson.precision=$p --set "poisson.pass_order=$order"
      one "$order" red-black 4096 --set poisson.precision=$p --set "poisson.pass_order=$order"
    done
    one "$order" red-black 512^3 --set poisson.precision=float --set "poisson.pass_order=$order"
    one "$order" multicolour 256^3 --set poisson.precision=float --set "poisson.pass_order=$order"
    one "$order" multigrid 256^3 --set poisson.precision=double --set "poisson.pass_order=$order"
  done
done
} 2>&1 | tee $OUT/poisson.txt
tar czf $OUT/json.tgz -C /tmp j
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
for order in "one way" "back and forth"; do
  echo "== ncu, $order"
  ncu --clock-control none --launch-skip 20 --launch-count 2 --metrics $M --kernel-name regex:colourKernel $W bench --module poisson --backend cuda --variant red-black --size 256^3 --set "poisson.pass_order=$order" --samples 3 --steps-per-sample 8 --json /tmp/x.json > "$OUT/ncu-$order.txt" 2>&1
  grep -E "duration|dram__|hit_rate" "$OUT/ncu-$order.txt" | awk '{$1=$1; print}'
done
