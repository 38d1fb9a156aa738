#!/bin/bash
# Issues 32 and 31, experiment build (run82-experiment.patch): run 81's modes and two more. Poisson
# WS_PDL=5: the pass lets the next start, reads f (which no pass writes), then waits. Cahn-Hilliard
# WS_PDL=2: the 2-D pass lets the next start before waiting (3-D as 1). Tests for the new modes.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== poisson_cuda_test WS_PDL=5"; WS_PDL=5 timeout 100 /tmp/b/tests/poisson_cuda_test > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED) |Failure" /tmp/t.log | head -6
echo "== ch_cuda_test WS_PDL=2"; WS_PDL=2 timeout 100 /tmp/b/tests/ch_cuda_test > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED) |Failure" /tmp/t.log | head -6
echo "== memcheck poisson_cuda_test WS_PDL=5"; WS_PDL=5 WS_SANITIZER_RUN=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/poisson_cuda_test > /tmp/san.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
W=${W:-/tmp/b/warpscope}
mkdir -p /tmp/j; n=0
one() {  # label, module, variant, size, settings...
  local label="$1 $3 ${*:5}"
  timeout 40 $W bench --module $2 --backend ${BACKEND:-cuda} --variant $3 --size $4 "${@:5}" --samples 9 --steps-per-sample 20 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$label failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json, sys
d=json.load(open('/tmp/x.json'))
for r in d['results']: print(sys.argv[1], r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))" "$label"
  n=$((n + 1)); cp /tmp/x.json /tmp/j/$n.json
}
po() { WS_PDL=$1 one "pdl $1" poisson $2 $4 --set poisson.precision=$3; }
{
for round in 1 2 3; do for m in 0 2 4 5; do po $m red-black float 256^3; done; done
for m in 0 4 5; do po $m red-black double 256^3; done
for m in 0 3 5; do po $m multicolour float 256^3; done
for m in 0 3 5; do po $m red-black float 4096^2; done
} 2>&1 | tee $OUT/poisson.txt
{
for round in 1 2; do for size in 4096 5792; do for integ in Euler RK2; do for m in 0 1 2; do
  WS_PDL=$m one "pdl $m" cahn-hilliard shuffle $size --set cahn-hilliard.integrator=$integ
done; done; done; done
} 2>&1 | tee $OUT/ch.txt
tar czf $OUT/json.tgz -C /tmp j
