#!/bin/bash
# Issue 31, run 108: the 3-D fast path with two, three or four rows a warp (WS_CH_EXP=r2: 18 warps
# of 2, r3: 12 of 3, r4: 9 of 4; unset: the same code with one row a warp, 20 warps) against main
# (ac78482), alternately; ch_cuda_test on each, racecheck and memcheck on r2 and r3. An experiment
# build: run108-experiment.patch on ac78482, applied to a copy in /tmp/x.
cd "$(dirname "$0")"/../../..
root=$(pwd) && rm -rf /tmp/x && mkdir /tmp/x && tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && { patch -p1 -s < $root/docs/gpu-runs/2026-12-02-cahn-hilliard/run108-experiment.patch ||
  git apply $root/docs/gpu-runs/2026-12-02-cahn-hilliard/run108-experiment.patch; }) || exit 1
cmake -S . -B /tmp/o -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-old.log 2>&1
cmake -S /tmp/x -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/o warpscope > /tmp/build-old.log 2>&1 &
ninja -C /tmp/b warpscope ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
wait $! || { grep -B2 -A20 error /tmp/build-old.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for e in r1 r2 r3 r4; do
  echo "ch_cuda_test $e: $(WS_CH_EXP=$e timeout 120 /tmp/b/tests/ch_cuda_test 2>&1 | tail -1)"
done
for e in r2 r3; do for t in memcheck racecheck; do
  WS_CH_EXP=$e WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/ch_cuda_test --gtest_filter='*FreshRandom*' > $OUT/$t-$e.log 2>&1
  echo "$t $e rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/$t-$e.log | tr '\n' ' ')"
done; done
A="bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
one() {  # build, experiment, size, integrator
  echo -n "$3 $4 $1/$2: "
  WS_CH_EXP=$2 timeout 60 /tmp/$1/warpscope $A --size $3 --set cahn-hilliard.integrator=$4 --json /tmp/j.json 2>&1 \
    | grep "^cuda" | awk '{print $4, $5, $NF}'
}
for round in 1 2; do for integ in RK2 Euler; do
  for c in "o main" "b r1" "b r2" "b r3" "b r4"; do one $c 256x256x256 $integ; done
done; done
for integ in RK2 Euler; do
  for c in "o main" "b r2" "b r3"; do one $c 384x384x384 $integ; done
done
for c in "o main" "b r2" "b r3"; do one $c 322x322x322 RK2; done
WS_CH_EXP=r3 /tmp/b/warpscope $A --size 256x256x256 --json /tmp/j.json 2>&1 | grep -i "blocks of" | head -2
