#!/bin/bash
# Run 80's benchmarks again (its script lost their output: fixed here), the same experiment build
# (run80-experiment.patch); its tests and sanitizers passed in run 80 and are not repeated.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test tests/ch_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
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
