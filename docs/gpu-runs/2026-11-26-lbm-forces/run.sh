#!/usr/bin/env bash
# One-off (ignored by git): LBM forces and probes (issue 30, part 1) on the GPU: the LBM tests,
# compute-sanitizer on the monitor kernel, headless runs that measure, and the step's cost with
# and without the monitor.
set -uo pipefail
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > "$OUT/configure.log" 2>&1 && ninja -C /tmp/b > /tmp/build.log 2>&1 || { grep -E "error|FAILED" /tmp/build.log | head -30; exit 1; }
echo "built $(( $(date +%s) - start )) s"
(cd /tmp/b && OMP_NUM_THREADS=4 ctest -j8 -R "Lbm|Contract|Writing|Presets" --output-on-failure > "$OUT/ctest.log" 2>&1; grep -E "tests passed|\(Failed\)|\*\*\*Failed" "$OUT/ctest.log")
echo "ctest $(( $(date +%s) - start )) s"
san() { t=$1; filter=$2; tool=$3
  WS_SANITIZER_RUN=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/tests/$t --gtest_filter="$filter" > /tmp/san.log 2>&1
  echo "sanitizer $t $filter $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED  \]|FAILED  \]' /tmp/san.log | tr '\n' ' ')"
  cat /tmp/san.log >> "$OUT/sanitizer.log"; }
san lbm_cuda_test 'LbmCuda.EveryVariantMeasuresTheForcesAndProbesOfTheCpu' memcheck
san lbm_cuda_test 'LbmCuda.EveryVariantMeasuresTheForcesAndProbesOfTheCpu' racecheck
echo "sanitizer $(( $(date +%s) - start )) s"
# A measuring run: the default cylinder on the GPU with a probe, then its series.
(cd "$OUT" && /tmp/b/warpscope --headless --module lbm --set lbm.probes=900,520 --steps 40000 --steps-per-frame 200 --action "export series CSV" > "$OUT/headless-cylinder.txt" 2>&1; echo "headless: exit $?"; grep -E "note|Cd|Cl|St|wrote" "$OUT/headless-cylinder.txt" | head -12)
# The step with and without the monitor: bench's figures.
for size in 8192x8192 256x256x256; do
  lat=d2q9; [ "$size" = 256x256x256 ] && lat=d3q19
  for forces in none bodies all; do
    /tmp/b/warpscope bench --module lbm --backend cuda --size $size --set lbm.lattice=$lat lbm.forces=$forces --variant aa-soa-fp32 --samples 15 --steps-per-sample 20 --json "$OUT/bench-$lat-$forces.json" > "$OUT/bench-$lat-$forces.txt" 2>&1
    echo "bench $size $forces: $(grep -E 'aa-soa' "$OUT/bench-$lat-$forces.txt" | head -2 | tr -s ' ' | tr '\n' ' ')"
  done
done
echo "done $(( $(date +%s) - start )) s"
