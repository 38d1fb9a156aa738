#!/bin/bash
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b tests/lbm_cuda_test > /tmp/build.log 2>&1 || { grep -A20 error /tmp/build.log | head -40; exit 1; }
OMP_NUM_THREADS=4 /tmp/b/tests/lbm_cuda_test --gtest_filter=-LbmCuda.Dfg* 2>&1 | grep -E "OK|FAILED|Failure|Which|evaluates|seed" | head -30
WS_SANITIZER_RUN=1 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/lbm_cuda_test \
  --gtest_filter='LbmCuda.EveryVariantStartsAtTheCpusEquilibrium' 2>&1 | tail -2
echo "memcheck rc ${PIPESTATUS[0]}"
