#!/bin/bash
# Issue 31, run 99: Cahn-Hilliard as committed (the 3-D kernel's copies ahead by a 32-bit offset,
# issued past the march's end): ch_cuda_test, memcheck and racecheck, the module contract's
# Cahn-Hilliard cases, the fast path at the issue's sizes.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope ch_cuda_test contract_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "ch_cuda_test: $(/tmp/b/tests/ch_cuda_test 2>&1 | tail -1)"
echo "contract: $(/tmp/b/tests/contract_test --gtest_filter='*cahn*' 2>&1 | tail -1)"
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/ch_cuda_test > $OUT/sanitizer-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$t.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
mkdir -p /tmp/j
for size in 4096 5792 256x256x256 384x384x384; do for integ in RK2 Euler; do
  echo -n "$size $integ: "
  timeout 60 $B --size $size --set cahn-hilliard.integrator=$integ --json /tmp/j/bench-$size-$integ.json 2>&1 \
    | grep "^cuda" | awk '{print $4, $5, $NF}'
done; done
tar czf $OUT/json.tgz -C /tmp j
