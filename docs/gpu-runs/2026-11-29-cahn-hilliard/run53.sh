#!/bin/bash
# Issue 31, Cahn-Hilliard as committed: every lane of the four-column kernels updates, in 2-D
# (16 rows a warp) and in 3-D (blocks of 20 warps, planes copied ahead with cp.async). Tests,
# memcheck, racecheck, the fast path's bench, a headless 3-D frame with the panels. Then issue 33's
# GPU test of LBM over MPI (the view drawn from the cells the picture reads, on GPU ranks).
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/ch_cuda_test tests/lbm_mpi_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
echo "== ch_cuda_test"; timeout 200 /tmp/b/tests/ch_cuda_test > $OUT/r/test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|Which is|Expected|actual|:[0-9]+: " $OUT/r/test.log | head -20
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 timeout 150 $S --tool $tool --error-exitcode 9 /tmp/b/tests/ch_cuda_test --gtest_filter='*EveryKernel*' > $OUT/r/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/r/san-$tool.log | tr '\n' ' ')"; done
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for size in 4096 5792 256x256x256 320x320x320 322x322x322; do for integ in RK2 Euler; do
  n=bench-${size%%x*}$([ "${size#*x}" != "$size" ] && echo -3d)-$integ
  timeout 60 $B --size $size --set cahn-hilliard.integrator=$integ --json $OUT/r/$n.json > $OUT/r/$n.txt 2>&1 || { echo "$n bench failed"; continue; }
  python3 -c "
import json
d=json.load(open('$OUT/r/$n.json'))
for r in d['results']: print('$integ', r['size'], round(r['ms_per_step'],4), 'ms', round(r['rate_per_second']/1e9,1), 'Gcell/s', round(r['gb_per_second'],1), 'GB/s', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
done; done
grep -h "launch vector\|launch shuffle" $OUT/r/bench-256-3d-RK2.txt $OUT/r/bench-322-3d-RK2.txt | head -4
echo "== headless 3-D frame"
timeout 60 $W --headless --backend cuda --module cahn-hilliard --size 256x256x256 --steps 400 --steps-per-frame 20 --with-ui --screenshot $OUT/r/ch3d-256.png > $OUT/r/headless.txt 2>&1; echo "rc $?"; tail -2 $OUT/r/headless.txt
echo "== LBM over MPI on the GPU"
for program in mpirun mpiexec; do [ -x /usr/bin/$program.openmpi ] && ! command -v $program > /dev/null && ln -s /usr/bin/$program.openmpi /usr/bin/$program; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_preg=native
timeout 240 /tmp/b/tests/lbm_mpi_test --gtest_filter='*OnTheGpu*:*LargerThanTheWindow*' > $OUT/r/lbm-mpi.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|Expected|:[0-9]+: " $OUT/r/lbm-mpi.log | head -20
