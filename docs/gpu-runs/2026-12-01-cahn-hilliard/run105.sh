#!/bin/bash
# Issue 31, run 105: the 3-D kernel reading, after each plane's barrier, the neighbouring rows and
# the next plane's stage before any arithmetic (WS_CH_EXP=early; early2: mu's neighbours where they
# are used, as before, so that the final pass keeps to 96 registers without spilling), against the
# kernel as it stands (mu in units of K, run 104), alternately; ch_cuda_test on each, racecheck on
# both. An experiment build: run105-experiment.patch on the working tree of run 104.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for e in main early early2; do
  echo "ch_cuda_test $e: $(WS_CH_EXP=$e timeout 120 /tmp/b/tests/ch_cuda_test 2>&1 | tail -1)"
done
for e in early early2; do
  WS_CH_EXP=$e WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 \
    /tmp/b/tests/ch_cuda_test > $OUT/racecheck-$e.log 2>&1
  echo "racecheck $e rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/racecheck-$e.log | tr '\n' ' ')"
done
A="/tmp/b/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2; do for size in 256x256x256 384x384x384; do for integ in RK2 Euler; do for e in main early early2; do
  echo -n "round $round $size $integ $e: "
  WS_CH_EXP=$e timeout 60 $A --size $size --set cahn-hilliard.integrator=$integ --json /tmp/j.json 2>&1 \
    | grep "^cuda" | awk '{print $4, $5, $NF}'
done; done; done; done
