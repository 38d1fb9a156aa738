#!/bin/bash
# Issue 31, prepared on 2026-12-02 and not yet run: where a 3-D fast-path pass's time goes, block by
# block. run-experiment.patch stamps every vectorKernel3d launch's blocks at five points (entry,
# past the wait for the pass before, plane z0's turn, the last turn's end, exit: global timer and
# SM clock) and prints pass WS_CH_TIMELINE's phases (min / median / max over the blocks) to stderr.
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < docs/gpu-runs/next-ch-timeline/run-experiment.patch) || exit 1
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
C="/tmp/e/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 5 --steps-per-sample 20"
# Pass 60: Euler's 60th step; RK2's 30th step's final pass (59: its half step).
for run in "256^3 Euler 60" "256^3 RK2 59" "256^3 RK2 60" "256x256x1024 Euler 60" "384^3 Euler 60" "256^3 Euler 61"; do
  set -- $run
  echo "== $1 $2, pass $3"
  WS_CH_TIMELINE=$3 timeout 60 $C --size $1 --set cahn-hilliard.integrator=$2 2>&1 | grep -E "^cuda|timeline|  [a-z]"
done
