#!/bin/bash
# Prepared 2026-12-07 when no GPU machine could be started; its patches rebased onto 67210e2. Main
# lacks run145-pairs.patch, which this script applies first.
# Run 145, issue 31: the 3-D slab for rows of an odd number of float2s (nx 2 mod 4, 322^3 among
# them: a lane's four columns as two float2s, the row's last quad a half), and how far the slab
# goes on rows that fill its warps of 128 columns only in part (322 and 320: three warps a row,
# 84% and 83% full), which fourColumnsALane() gives the one-column kernel (run 144: 322^3 at
# 58-65%).
# run145-fill.patch lets WS_CH_FILL=1 skip its rule of seven eighths full. ch_cuda_test as is
# (118 and 246 wide 3-D grids take the pairs) and with WS_CH_FILL=1 (36, 40, 118, 246 and 256
# wide 3-D grids take the slab); 256^3 again (the four-column kernels' registers moved by one or
# two); the window at 322^3; memcheck and racecheck last.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
P=docs/gpu-runs/2026-12-07-ch-resident
(cd /tmp/x && patch -p1 -s < $P/run145-pairs.patch && patch -p1 -s < $P/run145-fill.patch) || exit 1
s=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope ch_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - s)) s"
R=$OUT
mkdir -p /tmp/j
C="/tmp/e/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
bench() {  # size integrator name [env] [sync]
  echo -n "$1 $2 $3: "
  env $4 timeout 60 $C --size $1 --set cahn-hilliard.integrator=$2 --set "cahn-hilliard.pass_sync=${5:-neighbours}" \
    --json /tmp/j/${1/^/-}-$2-$3.json > /tmp/j/${1/^/-}-$2-$3.log 2>&1
  grep "^cuda" /tmp/j/${1/^/-}-$2-$3.log || tail -2 /tmp/j/${1/^/-}-$2-$3.log
}
# First the slab at 322^3 and 320^3, then the tests, then the rest.
for i in RK2 Euler; do bench 322^3 $i pairs WS_CH_FILL=1; bench 320^3 $i slab WS_CH_FILL=1; done
tar -czf $R/run145.tgz -C /tmp j
for fill in 1 ""; do
  s=$(date +%s); WS_CH_FILL=$fill timeout 240 /tmp/e/tests/ch_cuda_test > $R/ch_cuda_test$fill.log 2>&1
  echo "ch_cuda_test fill=$fill rc $?: $(tail -1 $R/ch_cuda_test$fill.log) ($(($(date +%s) - s)) s)"
  grep -h "FAILED\|Failure" -A6 $R/ch_cuda_test$fill.log | head -30
done
for i in RK2 Euler; do
  bench 322^3 $i one-column; bench 322^3 $i pairs-launches WS_CH_FILL=1 "kernel launch"
  bench 320^3 $i one-column; bench 256^3 $i resident
done
tar -czf $R/run145.tgz -C /tmp j
# The window at 322^3 with the slab's pairs (headless, with the panels): its Notes and launch readout.
WS_CH_FILL=1 timeout 60 /tmp/e/warpscope --headless --module cahn-hilliard --backend cuda --variant shuffle \
  --with-ui --window 1600x1000 --size 322^3 --steps 2 --screenshot $R/window-322.png > /tmp/j/window-322.log 2>&1
echo "window 322^3 rc $?"; grep -i "launch" /tmp/j/window-322.log | head -3
date -u
S=/usr/local/cuda/bin/compute-sanitizer
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 150 $S --tool $t --error-exitcode 9 /tmp/e/tests/ch_cuda_test \
    --gtest_filter="$([ $t = memcheck ] && echo '*Resident*:*EveryKernel*' || echo '*Resident*')" \
    > /tmp/j/ch-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/j/ch-$t.log | tr '\n' ' ')"
done
tar -czf $R/run145.tgz -C /tmp j
date -u
