#!/bin/bash
# Issue 30: DFG 2D-1 at 80 cells across with the lift averaged over the channel's longest sound
# period ("Cl mean"), against the last step's lift that docs/modules/lbm.md recorded as 16% off.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b tests/lbm_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
WS_DFG_DIAMETERS=80 timeout 300 /tmp/b/tests/lbm_cuda_test --gtest_filter='LbmCuda.Dfg*' > $OUT/dfg.txt 2>&1
echo "dfg rc $?"; grep -E "DFG|OK|FAILED|Failure" $OUT/dfg.txt
