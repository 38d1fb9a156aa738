#!/bin/bash
# Issue 31, Cahn-Hilliard as committed: the 3-D four-column march unrolled by its stage count.
# ch_cuda_test, memcheck and racecheck, the fast path's bench at the issue's sizes, a headless
# 3-D frame with the panels. Then issue 33's mpi-bench stage (D3Q19 256^3 and D2Q9 8192x4096,
# FP32 and FP16 A-A, 1 rank against 2 sharing the GPU, the halo overlapped and not).
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
grep -i "mpi" /tmp/configure.log | head -3
ninja -C /tmp/b warpscope tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== ch_cuda_test"; timeout 200 /tmp/b/tests/ch_cuda_test > /tmp/test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " /tmp/test.log | head -20
for tool in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > /tmp/san.log 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
mkdir -p /tmp/j
for size in 4096 5792 256x256x256 322x322x322; do for integ in RK2 Euler; do
  timeout 60 $B --size $size --set cahn-hilliard.integrator=$integ --json /tmp/j/bench-$size-$integ.json > /tmp/x.txt 2>&1 || { echo "bench failed"; tail -3 /tmp/x.txt; continue; }
  python3 -c "
import json
d=json.load(open('/tmp/j/bench-$size-$integ.json'))
for r in d['results']: print('$integ', r['size'], round(r['ms_per_step'],4), 'ms', round(r['cells_per_second']/1e9,1) if 'cells_per_second' in r else '', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
done; done 2>&1 | tee $OUT/bench.txt
cp /tmp/j/bench-256x256x256-RK2.json /tmp/j/bench-256x256x256-Euler.json $OUT/
echo "== headless 3-D frame"
timeout 60 $W --headless --backend cuda --module cahn-hilliard --size 256x256x256 --steps 400 --steps-per-frame 20 --with-ui --screenshot $OUT/ch3d-256.png > /tmp/headless.txt 2>&1; echo "rc $?"; tail -2 /tmp/headless.txt
echo "== issue 33: mpi-bench"
OUT=/tmp/mpi BUILD=/tmp/b MPI_LATTICES="d3q19 d2q9" MPI_VARIANTS="aa-soa-fp32 aa-soa-fp16" bash scripts/gpu_check.sh mpi-bench 2>&1 | tee $OUT/mpi-bench.txt
tar czf $OUT/mpi-bench-json.tgz -C /tmp/mpi .
