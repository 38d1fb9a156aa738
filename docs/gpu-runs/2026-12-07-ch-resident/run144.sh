#!/bin/bash
# Run 144, issue 31: the 3-D fast path's resident blocks (pass_sync "neighbours": one cooperative
# launch for a call's steps, each block starting a pass as the 26 around it finish the one before,
# marching the other way) against a launch a pass ("kernel launch", main's way). Builds the tree;
# ch_cuda_test whole; the bench alternately with each, 256^3 twice, 384^3 and 512^3 once, both
# integrators; 322^3 (the one-column kernel, unchanged) for the record; then memcheck and
# racecheck on the resident kernel's tests (last, so the figures come back if the run is cut).
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
s=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope ch_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - s)) s"
R=$OUT
# The resident kernel alone first: should its blocks wait for ever, stop here.
timeout 60 /tmp/e/tests/ch_cuda_test --gtest_filter='*Resident*' > $R/ch_resident.log 2>&1
rc=$?; echo "ch_cuda_test resident rc $rc: $(tail -1 $R/ch_resident.log)"
if [ $rc != 0 ]; then grep -h "FAILED\|Failure" -A8 $R/ch_resident.log | head -40; exit 1; fi
s=$(date +%s); timeout 240 /tmp/e/tests/ch_cuda_test > $R/ch_cuda_test.log 2>&1
echo "ch_cuda_test rc $?: $(tail -1 $R/ch_cuda_test.log) ($(($(date +%s) - s)) s)"
grep -h "FAILED\|Failure" -A6 $R/ch_cuda_test.log | head -30
C="/tmp/e/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
mkdir -p /tmp/j
for round in 1 2; do for size in 256^3 384^3 512^3; do for i in RK2 Euler; do for sync in neighbours "kernel launch"; do
  [ $round = 2 ] && [ $size != 256^3 ] && continue
  tag=${size/^/-}-$i-${sync// /-}-$round
  echo -n "$size $i $sync: "
  timeout 60 $C --size $size --set cahn-hilliard.integrator=$i --set "cahn-hilliard.pass_sync=$sync" \
    --json /tmp/j/$tag.json 2>&1 | grep "^cuda" || echo "rc $?"
done; done; done; done
for i in RK2 Euler; do
  echo -n "322^3 $i: "; timeout 60 $C --size 322^3 --set cahn-hilliard.integrator=$i --json /tmp/j/322-$i.json 2>&1 | grep "^cuda"
done
# The window as a user sees it (headless, with the panels): 256^3, the slice, two frames.
for sync in neighbours "kernel launch"; do
  timeout 60 /tmp/e/warpscope --headless --module cahn-hilliard --backend cuda --variant shuffle \
    --with-ui --window 1600x1000 --size 256^3 --set "cahn-hilliard.pass_sync=$sync" --steps 2 \
    --screenshot $R/window-${sync// /-}.png > /tmp/j/window-${sync// /-}.log 2>&1
  echo "window $sync rc $?"; tail -2 /tmp/j/window-${sync// /-}.log
done
date -u
S=/usr/local/cuda/bin/compute-sanitizer
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 150 $S --tool $t --error-exitcode 9 /tmp/e/tests/ch_cuda_test \
    --gtest_filter="$([ $t = memcheck ] && echo '*Resident*:*EveryKernel*' || echo '*Resident*')" \
    > /tmp/j/ch-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/j/ch-$t.log | tr '\n' ' ')"
done
tar -czf $R/run144.tgz -C /tmp j
date -u
