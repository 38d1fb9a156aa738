#!/bin/bash
# Issue 31, run 147: 322^3 with the field's rows padded to whole float4s (324 floats a row) on the
# slab, against main (bd00233: the same rows as float2 pairs). The working tree carries the
# change (run147-padded.patch, uncommitted); /tmp/q is the same tree with the patch taken back.
# Both built at once; ch_cuda_test on the change; 322^3 alternately, both integrators; 320^3 and
# 256^3 (the float4 slab's code moved); the window at 322^3; memcheck and racecheck.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
P=docs/gpu-runs/2026-12-07-ch-padded/run147-padded.patch
rm -rf /tmp/p /tmp/q /tmp/bp /tmp/bq && mkdir /tmp/p /tmp/q
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/p
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/q
(cd /tmp/q && patch -R -p1 -s < $P) || exit 1
s=$(date +%s)
for t in p q; do
  (cmake -S /tmp/$t -B /tmp/b$t -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-$t.log 2>&1 &&
   ninja -j8 -C /tmp/b$t warpscope ch_cuda_test > /tmp/build-$t.log 2>&1) &
done
wait
for t in p q; do [ -x /tmp/b$t/tests/ch_cuda_test ] || { grep -B2 -A20 error /tmp/build-$t.log | head -40; exit 1; }; done
echo "built in $(($(date +%s) - s)) s"
mkdir -p /tmp/j
bench() {  # build size integrator name [sync]
  echo -n "$2 $3 $4: "
  timeout 60 /tmp/b$1/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle \
    --samples 9 --steps-per-sample 20 --size $2 --set cahn-hilliard.integrator=$3 \
    --set "cahn-hilliard.pass_sync=${5:-neighbours}" --json /tmp/j/${2/^/-}-$3-$4.json \
    > /tmp/j/${2/^/-}-$3-$4.log 2>&1
  grep "^cuda" /tmp/j/${2/^/-}-$3-$4.log || tail -2 /tmp/j/${2/^/-}-$3-$4.log
}
for round in 1 2; do
  for i in RK2 Euler; do bench p 322^3 $i padded$round; bench q 322^3 $i pairs$round; done
done
tar -czf $OUT/run147.tgz -C /tmp j
s=$(date +%s); timeout 240 /tmp/bp/tests/ch_cuda_test > $OUT/ch_cuda_test.log 2>&1
echo "ch_cuda_test rc $?: $(tail -1 $OUT/ch_cuda_test.log) ($(($(date +%s) - s)) s)"
grep -h "FAILED\|Failure" -A6 $OUT/ch_cuda_test.log | head -30
for i in RK2 Euler; do
  bench p 322^3 $i padded-launches "kernel launch"; bench p 320^3 $i float4; bench q 320^3 $i float4-main
  bench p 256^3 $i float4; bench q 256^3 $i float4-main
done
tar -czf $OUT/run147.tgz -C /tmp j
timeout 60 /tmp/bp/warpscope --headless --module cahn-hilliard --backend cuda --variant shuffle \
  --with-ui --window 1600x1000 --size 322^3 --steps 200 --screenshot $OUT/window-322.png > /tmp/j/window-322.log 2>&1
echo "window 322^3 rc $?"; grep -i "launch" /tmp/j/window-322.log | head -3
S=/usr/local/cuda/bin/compute-sanitizer
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 150 $S --tool $t --error-exitcode 9 /tmp/bp/tests/ch_cuda_test \
    --gtest_filter="$([ $t = memcheck ] && echo '*Resident*:*EveryKernel*:*Totals*' || echo '*Resident*')" \
    > /tmp/j/ch-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/j/ch-$t.log | tr '\n' ' ')"
done
tar -czf $OUT/run147.tgz -C /tmp j
date -u
