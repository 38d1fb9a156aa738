#!/bin/bash
# Issue 31, not yet run: the 3-D kernel's warps waiting for their two neighbouring warps only
# (mbarriers in shared memory, two a side used by the plane's parity) instead of the whole
# block's barrier each plane, against main, alternately. Apply next-neighbour-barriers.patch to
# the commit it was written on (1142565) first: `git apply` it in the repository root.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "ch_cuda_test, local: $(WS_CH_EXP=local timeout 120 /tmp/b/tests/ch_cuda_test 2>&1 | tail -1)"
for t in racecheck synccheck memcheck; do
  WS_CH_EXP=local WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/ch_cuda_test > $OUT/$t-local.log 2>&1
  echo "$t local rc $? $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/$t-local.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2 3; do for integ in RK2 Euler; do for e in main local; do
  echo -n "round $round 256^3 $integ $e: "
  env WS_CH_EXP=$e timeout 60 $B --size 256x256x256 --set cahn-hilliard.integrator=$integ --json /tmp/j.json 2>&1 \
    | grep "^cuda" | awk '{print $4, $NF}'
done; done; done
for integ in RK2 Euler; do for e in main local; do
  echo -n "384^3 $integ $e: "
  env WS_CH_EXP=$e timeout 60 $B --size 384x384x384 --set cahn-hilliard.integrator=$integ --json /tmp/j.json 2>&1 | grep "^cuda" | awk '{print $4, $NF}'
done; done
