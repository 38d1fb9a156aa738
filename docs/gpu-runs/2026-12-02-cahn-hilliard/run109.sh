#!/bin/bash
# Issue 31, run 109: the 3-D fast path with three rows a warp as it is to be committed (12 warps,
# the working tree: ch_cuda_test, the contract's Cahn-Hilliard cases, memcheck and racecheck), and
# beside it other slabs (run109-experiment.patch on that tree: WS_CH_EXP=r1 20 warps of 1 row, r2w10
# 10 of 2, r3w8 8 of 3, r4w5 5 of 4), alternately at 256^3 and 384^3.
cd "$(dirname "$0")"/../../..
root=$(pwd) && rm -rf /tmp/x && mkdir /tmp/x && tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < $root/docs/gpu-runs/2026-12-02-cahn-hilliard/run109-experiment.patch) || exit 1
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
start=$(date +%s)
ninja -C /tmp/e warpscope > /tmp/build-e.log 2>&1 &
ninja -C /tmp/b warpscope ch_cuda_test contract_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
wait $! || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "ch_cuda_test: $(timeout 150 /tmp/b/tests/ch_cuda_test 2>&1 | tail -1)"
echo "contract: $(timeout 150 /tmp/b/tests/contract_test --gtest_filter='*ahn*' 2>&1 | tail -1)"
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/ch_cuda_test > $OUT/sanitizer-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$t.log | tr '\n' ' ')"
done
A="bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
one() {  # build, experiment, size, integrator
  echo -n "$3 $4 $1/$2: "
  WS_CH_EXP=$2 timeout 60 /tmp/$1/warpscope $A --size $3 --set cahn-hilliard.integrator=$4 --json /tmp/j.json 2>&1 \
    | grep "^cuda" | awk '{print $4, $5, $NF}'
}
for round in 1 2; do for integ in RK2 Euler; do
  for c in "b r3" "e r1" "e r2w10" "e r3w8" "e r4w5"; do one $c 256x256x256 $integ; done
done; done
for integ in RK2 Euler; do
  for c in "b r3" "e r1" "e r2w10" "e r3w8"; do one $c 384x384x384 $integ; done
done
for size in 4096 5792 512x512x512; do for integ in RK2 Euler; do one b r3 $size $integ; done; done
/tmp/b/warpscope $A --size 256x256x256 --json $OUT/bench-256-rk2.json 2>&1 | grep -iE "^cuda|bandwidth|blocks of"
/tmp/b/warpscope $A --size 384x384x384 --json $OUT/bench-384-rk2.json 2>&1 | grep -iE "^cuda|bandwidth|blocks of"
