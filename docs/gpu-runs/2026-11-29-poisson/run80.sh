#!/bin/bash
# Issues 32 and 31, experiment build (run80-experiment.patch): kernels launched as programmatic
# dependent launches. Poisson's colour passes, WS_PDL: 0 plain launches; 1 each pass waits for the
# previous at its start, then lets the next start; 2 lets the next start before waiting; 3 reads
# f and its nodes' own values (not written by the previous pass) before waiting; 4 f only.
# Cahn-Hilliard's fast path, WS_PDL: 0 plain; 1 each pass waits at its start. Alternately.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for m in 2 3 4; do
  echo "== poisson_cuda_test WS_PDL=$m"; WS_PDL=$m timeout 100 /tmp/b/tests/poisson_cuda_test > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED) |Failure" /tmp/t.log | head -6
done
echo "== ch_cuda_test WS_PDL=1"; WS_PDL=1 timeout 100 /tmp/b/tests/ch_cuda_test > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED) |Failure" /tmp/t.log | head -6
for t in "memcheck poisson_cuda_test 2" "memcheck poisson_cuda_test 4" "memcheck ch_cuda_test 1" "racecheck ch_cuda_test 1"; do
  set -- $t
  echo "== $1 $2 (WS_PDL=$3)"; WS_PDL=$3 WS_SANITIZER_RUN=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $1 --error-exitcode 9 /tmp/b/tests/$2 > /tmp/san.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
done
W=${W:-/tmp/b/warpscope}
mkdir -p $OUT/j; n=0
one() {  # label, module, variant, size, settings...
  local label="$1 $3 ${*:5}"
  timeout 40 $W bench --module $2 --backend ${BACKEND:-cuda} --variant $3 --size $4 "${@:5}" --samples 9 --steps-per-sample 20 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$label failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json, sys
d=json.load(open('/tmp/x.json'))
for r in d['results']: print(sys.argv[1], r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))" "$label"
  n=$((n + 1)); cp /tmp/x.json $OUT/j/$n.json
}
po() { WS_PDL=$1 one "pdl $1" poisson $2 $4 --set poisson.precision=$3; }
{
for round in 1 2; do for m in 0 1 2 3 4; do po $m red-black float 256^3; done; done
for m in 0 1 2 3; do po $m red-black double 256^3; done
for m in 0 1 2 3 4; do po $m multicolour float 256^3; done
for m in 0 1 3; do po $m multicolour double 256^3; done
for m in 0 1 2 3; do po $m red-black float 4096^2; done
for m in 0 1 3; do po $m red-black double 4096^2; done
for m in 0 1 3; do po $m multicolour float 4096^2; done
for m in 0 1 3; do po $m multigrid double 256^3; done
} 2>&1 | tee $OUT/poisson.txt
{
for round in 1 2; do for size in 4096 5792 256x256x256; do for integ in RK2 Euler; do for m in 0 1; do
  WS_PDL=$m one "pdl $m" cahn-hilliard shuffle $size --set cahn-hilliard.integrator=$integ
done; done; done; done
} 2>&1 | tee $OUT/ch.txt
