#!/bin/bash
# Issue 30: DFG 2D-1 at 10 to 80 cells across (both walls, FP32 and FP16), DFG 2D-2 from its preset.
set -x
export OMP_NUM_THREADS=4
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1 || { tail -30 /tmp/configure.log; exit 1; }
ninja -C /tmp/b warpscope tests/lbm_cuda_test > /tmp/build.log 2>&1 || { grep -B5 -A20 "error" /tmp/build.log | head -80; exit 1; }
mkdir -p $OUT/run; cd /tmp/b
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/run/gpu.txt
# 2D-2 as a user runs its preset: until it sheds, the series as CSV, a frame with the panels.
mkdir -p /tmp/dfg2d2
./warpscope --headless --backend cuda --preset lbm-dfg-2d2 --steps 500000 --steps-per-frame 5000 \
  --with-ui --frames /tmp/dfg2d2 --frame-every 100 --window 1600x900 \
  --action "export series CSV" --output-dir /tmp/dfg2d2 > $OUT/run/preset-2d2.txt 2>&1
echo "2d2 rc $?"; grep -E "Cd|Cl|St|note" $OUT/run/preset-2d2.txt
csv=$(ls /tmp/dfg2d2/*series.csv | head -1)
# Cd and Cl extremes over the last 100,000 steps (about 19 periods), and the rows they are from.
awk -F, '/^[0-9]/ { if ($1 > 400000) { if ($5 > cdmax) cdmax = $5; if ($6 > clmax) clmax = $6; if (clmin == "" || $6 < clmin) clmin = $6; n++ } }
  END { printf "rows %d, Cd max %.5f, Cl max %.5f, Cl min %.5f\n", n, cdmax, clmax, clmin }' "$csv" | tee $OUT/run/preset-2d2-extremes.txt
head -4 "$csv" > $OUT/run/preset-2d2-series-head.csv
cp $(ls /tmp/dfg2d2/*.png | tail -1) $OUT/run/preset-2d2-frame.png
WS_DFG_DIAMETERS=10,20,40,80 timeout 420 ./tests/lbm_cuda_test --gtest_filter='LbmCuda.Dfg*' > $OUT/run/dfg.txt 2>&1
echo "dfg rc $?"; grep -E "DFG|OK|FAILED|Failure" $OUT/run/dfg.txt
