#!/bin/bash
# Runs 90-91's changes as committed (e70faac, d74a8c6): the module contract's GPU cases for Poisson
# and Cahn-Hilliard (their new `pass_order` parameter among the rest), and the window headless with
# its panels on the GPU, where the parameter shows.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope tests/contract_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== contract_test, Poisson and Cahn-Hilliard on CUDA"
timeout 200 /tmp/b/tests/contract_test --gtest_filter='*poisson_cuda*:*cahn_hilliard_cuda*' > $OUT/contract_test.log 2>&1; echo "rc $?"
grep -E "^\[ +(FAILED|PASSED|SKIPPED) |Failure" $OUT/contract_test.log | head -10
W=/tmp/b/warpscope
timeout 60 $W --headless --with-ui --window 1600x1000 --module poisson --backend cuda --size 128^3 --steps 40 \
  --screenshot $OUT/poisson-pass-order.png 2>&1 | tail -2
timeout 60 $W --headless --with-ui --window 1600x1000 --module cahn-hilliard --backend cuda --size 1024 \
  --set cahn-hilliard.pass_order=one\ way --steps 400 --screenshot $OUT/ch-pass-order.png 2>&1 | tail -2
