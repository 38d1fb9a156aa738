#!/bin/bash
# Issue 31, as committed: the parts of the planes moved to ch_parts.h (the same split). What the
# session's last 267 s of GPU time allow: ch_cuda_test, racecheck, 256^3 RK2 and Euler.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== ch_cuda_test"; timeout 60 /tmp/b/tests/ch_cuda_test > /tmp/test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " /tmp/test.log | head -20
B="/tmp/b/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for integ in RK2 Euler; do timeout 30 $B --size 256x256x256 --set cahn-hilliard.integrator=$integ | grep -E "^cuda"; done
WS_SANITIZER_RUN=1 timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > /tmp/san.log 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
