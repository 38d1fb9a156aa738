#!/usr/bin/env bash
# One-off (ignored by git): the CUDA build after the CPU-only split: every test but the GUI's, the
# installed program, compute-sanitizer on the paths the split touched, and the CUDA .deb.
set -uo pipefail
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > "$OUT/configure.log" 2>&1 && ninja -C /tmp/b > /tmp/build.log 2>&1 || { grep -E "error|FAILED" /tmp/build.log | head; exit 1; }
grep "warpscope:" "$OUT/configure.log"
echo "built $(( $(date +%s) - start )) s"
(cd /tmp/b && OMP_NUM_THREADS=2 ctest -j8 -E "^Gui" --output-on-failure > "$OUT/ctest.log" 2>&1; grep -E "tests passed|\(Failed\)" "$OUT/ctest.log")
echo "ctest $(( $(date +%s) - start )) s"
san() { t=$1; filter=$2; tool=$3
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/tests/$t --gtest_filter="$filter" > /tmp/san.log 2>&1
  echo "sanitizer $t $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED  \]|FAILED  \]' /tmp/san.log | tr '\n' ' ')"
  cat /tmp/san.log >> "$OUT/sanitizer.log"; }
san lbm_cuda_test 'LbmCuda.EveryVariantMatchesTheCpuOnRandomLattices' memcheck
san graph_module_test 'GraphModuleCuda.*' memcheck
san reduce_test 'ReduceModuleTest.*:ReduceCuda.*' memcheck
san undo_test 'UndoCuda.*' memcheck
(cd /tmp/b && cpack -G DEB > "$OUT/cpack.log" 2>&1; echo "cpack: exit $?"; ls /tmp/b/*.deb && dpkg-deb --info /tmp/b/warpscope_*.deb > "$OUT/deb-info.txt" 2>&1; grep -E "Depends|Installed-Size" "$OUT/deb-info.txt")
/tmp/b/warpscope --headless --module lbm --variant ab-soa-fp16 --steps 200 > "$OUT/lbm-fp16.txt" 2>&1; echo "headless lbm fp16: exit $?"; tail -3 "$OUT/lbm-fp16.txt"
echo "done $(( $(date +%s) - start )) s"
