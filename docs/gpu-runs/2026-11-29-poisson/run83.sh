#!/bin/bash
# Issues 32 and 31 as about to be committed: the colour passes (Poisson) and the four-column
# Cahn-Hilliard passes as programmatic dependent launches. Tests, memcheck, racecheck, benchmarks.
# Issue 34, an experiment in the same build (not committed, run83-experiment.patch): LBM's
# stream-collide kernels overlapping the kernel before them (WS_PDL=1), against plain launches.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test tests/ch_cuda_test tests/lbm_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for t in poisson_cuda_test ch_cuda_test; do
  echo "== $t"; timeout 100 /tmp/b/tests/$t > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED) |Failure" /tmp/t.log | head -6
done
echo "== lbm_cuda_test WS_PDL=1"; WS_PDL=1 timeout 150 /tmp/b/tests/lbm_cuda_test > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED) |Failure" /tmp/t.log | head -6
for t in "memcheck poisson_cuda_test" "memcheck ch_cuda_test" "racecheck ch_cuda_test"; do
  set -- $t
  echo "== $1 $2"; WS_SANITIZER_RUN=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $1 --error-exitcode 9 /tmp/b/tests/$2 > /tmp/san.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
mkdir -p /tmp/j; n=0
one() {  # label, module, variant, size, settings...
  local label="$1 $3 ${*:5}"
  timeout 40 $W bench --module $2 --backend cuda --variant $3 --size $4 "${@:5}" --samples 9 --steps-per-sample 20 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$label failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json, sys
d=json.load(open('/tmp/x.json'))
for r in d['results']: print(sys.argv[1], r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))" "$label"
  n=$((n + 1)); cp /tmp/x.json /tmp/j/$n.json
}
{
for p in float double; do for v in red-black sor multicolour; do one main poisson $v 256^3 --set poisson.precision=$p; done; done
one main poisson red-black 256^3 --set poisson.precision=float
for p in float double; do for v in red-black multicolour; do one main poisson $v 4096^2 --set poisson.precision=$p; done; done
one main poisson multigrid 256^3 --set poisson.precision=double
} 2>&1 | tee $OUT/poisson.txt
{
for size in 4096 5792 256x256x256 322x322x322; do for integ in RK2 Euler; do
  one main cahn-hilliard shuffle $size --set cahn-hilliard.integrator=$integ
done; done
} 2>&1 | tee $OUT/ch.txt
{
for round in 1 2; do for m in 0 1; do
  echo "-- WS_PDL=$m"
  WS_PDL=$m timeout 120 $W bench --module lbm --backend cuda --variant ab-soa-fp32 aa-soa-fp32 ab-soa-fp16 aa-soa-fp16 --size 256x256x256 --set lbm.lattice=d3q19 --steps-per-sample 20 --json /tmp/j/lbm-3d-$m-$round.json 2>&1 | grep -E "soa|rror"
done; done
for m in 0 1; do
  echo "-- D2Q9 WS_PDL=$m"
  WS_PDL=$m timeout 120 $W bench --module lbm --backend cuda --variant ab-soa-fp32 ab-soa-fp16 aa-soa-fp16 --size 8192x8192 --steps-per-sample 20 --json /tmp/j/lbm-2d-$m.json 2>&1 | grep -E "soa|rror"
done
} 2>&1 | tee $OUT/lbm.txt
tar czf $OUT/json.tgz -C /tmp j
