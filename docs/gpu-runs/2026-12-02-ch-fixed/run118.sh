#!/bin/bash
# Issue 31, run 118: the 3-D fast path's march mirrored in the odd parts (two neighbouring parts
# read the planes they share at the same time, so the second read is the L2's) and its copies
# past the march clamped to plane end + 1 (no DRAM read of planes no one needs), each alone and
# both, against the kernel before, through run118-experiment.patch's WS_CH_EXP (none, mirror,
# clamp; unset: both, the form committed): ch_cuda_test, then 256^3 and 384^3 alternately, then
# memcheck and racecheck. Each line is printed as it comes (the device time left is short).
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
# (As run, the tree held mirror-and-clamp.patch's change uncommitted; on main it is applied here.)
(cd /tmp/x && patch -p1 -s < docs/gpu-runs/2026-12-02-ch-fixed/mirror-and-clamp.patch &&
  patch -p1 -s < docs/gpu-runs/2026-12-02-ch-fixed/run118-experiment.patch) || exit 1
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope ch_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
s=$(date +%s); timeout 60 /tmp/e/tests/ch_cuda_test > $R/ch-test.log 2>&1
echo "ch_cuda_test rc $?: $(tail -1 $R/ch-test.log) ($(($(date +%s) - s)) s)"; grep -h "FAILED\|Failure" -A5 $R/ch-test.log | head -20
C="/tmp/e/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for size in 256^3 256^3 384^3; do for i in RK2 Euler; do for e in none mirror clamp both; do
  echo -n "$size $i $e: "
  WS_CH_EXP=$e timeout 30 $C --size $size --set cahn-hilliard.integrator=$i --json $R/bench-${size/^/-}-$i-$e-$(date +%s%N).json 2>&1 | grep "^cuda"
done; done; done
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 50 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/ch_cuda_test > $R/ch-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/ch-$t.log | tr '\n' ' ')"
done
tar -czf $OUT/run118.tgz -C $OUT r && rm -rf $R
