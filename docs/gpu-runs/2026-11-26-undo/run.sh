#!/usr/bin/env bash
# One-off (ignored by git): undo on the GPU: every test but the GUI's, and compute-sanitizer on
# the CUDA paths touched (Life's edit kernels that report what cells held, undo and session replay).
set -uo pipefail
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/cfg.log 2>&1 && ninja -C /tmp/b > /tmp/build.log 2>&1 || { grep -E "error|FAILED" /tmp/build.log | head; exit 1; }
echo "built $(( $(date +%s) - start )) s"
(cd /tmp/b && OMP_NUM_THREADS=2 ctest -j8 -E "^Gui" --output-on-failure > "$OUT/ctest.log" 2>&1; grep -E "tests passed|\(Failed\)" "$OUT/ctest.log")
/tmp/b/tests/undo_test --gtest_filter='UndoCuda.*' 2>&1 | grep -E "OK \]|FAILED|Skipped" 
echo "ctest $(( $(date +%s) - start )) s"
san() { t=$1; filter=$2; tool=$3
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/tests/$t --gtest_filter="$filter" > /tmp/san.log 2>&1
  echo "sanitizer $t $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED  \]|FAILED  \]' /tmp/san.log | tr '\n' ' ')"
  cat /tmp/san.log >> "$OUT/sanitizer.log"; }
san undo_test 'UndoCuda.*' memcheck
san undo_test 'UndoCuda.*' racecheck
san life_cuda_test 'LifeCuda.SoupsAndEditsMatchTheCpu' memcheck
san session_test 'Session.EveryModuleReplaysOnCuda' memcheck
echo "done $(( $(date +%s) - start )) s"
