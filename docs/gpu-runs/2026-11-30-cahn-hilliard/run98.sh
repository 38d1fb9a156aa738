#!/bin/bash
# Issue 31, run 98: the 3-D four-column kernel with its copies ahead addressed by a 32-bit offset
# wrapped by a subtraction and issued past the march's end too (no check a plane), against the
# committed kernel, alternately (an experiment build, run98-experiment.patch: WS_CH_EXP=lean).
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "ch_cuda_test, lean: $(WS_CH_EXP=lean /tmp/b/tests/ch_cuda_test 2>&1 | tail -1)"
WS_CH_EXP=lean WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 \
  /tmp/b/tests/ch_cuda_test > $OUT/racecheck-lean.log 2>&1
echo "racecheck lean rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/racecheck-lean.log | tr '\n' ' ')"
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2 3; do
  for size in 256^3; do for integ in RK2 Euler; do for e in main lean; do
    echo -n "round $round $size $integ $e: "
    env WS_CH_EXP=$e timeout 60 $B --size $size --set cahn-hilliard.integrator=$integ --json /tmp/j.json 2>&1 \
      | grep "^cuda" | awk '{print $4, $NF}'
  done; done; done
done
for integ in RK2 Euler; do for e in main lean; do
  echo -n "384^3 $integ $e: "
  env WS_CH_EXP=$e timeout 60 $B --size 384^3 --set cahn-hilliard.integrator=$integ --json /tmp/j.json 2>&1 | grep "^cuda" | awk '{print $4, $NF}'
done; done
