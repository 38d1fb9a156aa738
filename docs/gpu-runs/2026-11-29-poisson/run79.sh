#!/bin/bash
# Issue 34: main's 49c530a (the bucket scan shared, the query kernel picked from an array) on a GPU:
# the cuckoo and voxel tests, memcheck and racecheck, the lab at buckets of 8.
# Issue 32, experiment build (run79-experiment.patch): the colour passes as programmatic dependent
# launches (WS_PDL=1: each pass waits at its start; 2: it reads f and its nodes' own values, which
# the previous pass does not write, before waiting), against plain launches, alternately.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/cuckoo_cuda_test tests/voxhash_cuda_test tests/voxhash_module_test tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for t in cuckoo_cuda_test voxhash_cuda_test voxhash_module_test; do
  echo "== $t"; timeout 200 /tmp/b/tests/$t > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED|SKIPPED) |Failure|seed" /tmp/t.log | head -8
done
for m in 0 1 2; do
  echo "== poisson_cuda_test WS_PDL=$m"; WS_PDL=$m timeout 150 /tmp/b/tests/poisson_cuda_test > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED) |Failure" /tmp/t.log | head -6
done
for t in "memcheck cuckoo_cuda_test" "racecheck cuckoo_cuda_test" "memcheck voxhash_module_test" "memcheck poisson_cuda_test"; do
  echo "== $t (WS_PDL=2)"; WS_PDL=2 WS_SANITIZER_RUN=1 timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool ${t% *} --error-exitcode 9 /tmp/b/tests/${t#* } > /tmp/san.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
one() {  # label, variant, precision, size
  timeout 40 $W bench --module poisson --backend cuda --variant $2 --size $4 --set poisson.precision=$3 --samples 9 --steps-per-sample 20 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $2 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
{
for round in 1 2; do
  for m in 0 1 2; do WS_PDL=$m one "pdl $m" red-black float 256^3; done
done
for m in 0 2; do WS_PDL=$m one "pdl $m" red-black double 256^3; done
for m in 0 2; do WS_PDL=$m one "pdl $m" multicolour float 256^3; done
for m in 0 2; do WS_PDL=$m one "pdl $m" red-black float 4096^2; done
for m in 0 2; do WS_PDL=$m one "pdl $m" multigrid double 256^3; done
} 2>&1 | tee $OUT/poisson.txt
for b in 8 4; do
  timeout 60 $W bench --module voxhash --backend cuda --size 2^25 --samples 7 --steps-per-sample 5 --set voxhash.bucket=$b --set voxhash.functions=2 > /tmp/x.txt 2>&1; echo "-- lab bucket $b rc $?"; grep -E "build|query|fail|rror" /tmp/x.txt | head -5
done 2>&1 | tee $OUT/lab.txt
