#!/bin/bash
# Issue 31, run 91: the fast path back and forth (every other pass from the grid's end; in 3-D
# marching down the planes) against one way. ch_cuda_test (with back and forth against one way,
# bit for bit), memcheck and racecheck on both comparisons, then the fast path alternately at
# the issue's sizes and 384^3.
cd "$(dirname "$0")"/../../..
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== ch_cuda_test"; timeout 200 /tmp/b/tests/ch_cuda_test > $OUT/ch_cuda_test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " $OUT/ch_cuda_test.log | head -20
for tool in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*:*BackAndForth*' > $OUT/sanitizer-$tool.log 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$tool.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
mkdir -p /tmp/j
{
for round in 1 2; do for order in "one way" "back and forth"; do
for size in 4096 5792 256x256x256 384x384x384; do for integ in RK2 Euler; do
  json=/tmp/j/bench-$size-$integ-${order// /-}-$round.json
  timeout 60 $B --size $size --set cahn-hilliard.integrator=$integ --set "cahn-hilliard.pass_order=$order" --json $json > /tmp/x.txt 2>&1 || { echo "bench failed"; tail -3 /tmp/x.txt; continue; }
  python3 -c "
import json, sys
d=json.load(open(sys.argv[1]))
for r in d['results']: print(sys.argv[2], '$integ', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))" $json "$order"
done; done; done; done
} 2>&1 | tee $OUT/bench.txt
tar czf $OUT/json.tgz -C /tmp j
