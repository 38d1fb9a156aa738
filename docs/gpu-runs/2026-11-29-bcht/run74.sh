#!/bin/bash
# Issue 34: the bucketed cuckoo table in the hash lab and the voxel module (voxhash.bucket), as
# committed: tests and memcheck, then the lab at 2^25 keys in buckets of 1 to 16 slots, 2 to 4
# functions, 80% and 90% full, the key patterns with buckets of 4, and the intersection frame.
# Issue 32: main's 3-D colour passes in 64x2x2 blocks as committed (tests, memcheck, bench).
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/cuckoo_cuda_test tests/voxhash_cuda_test tests/voxhash_module_test tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; git log --oneline -1
for t in cuckoo_cuda_test voxhash_cuda_test voxhash_module_test poisson_cuda_test; do
  echo "== $t"; timeout 200 /tmp/b/tests/$t > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED|SKIPPED) |Failure|seed" /tmp/t.log | head -8
done
for t in cuckoo_cuda_test poisson_cuda_test; do
  echo "== memcheck $t"; WS_SANITIZER_RUN=1 timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/$t > /tmp/san.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
mkdir -p $OUT/j
lab() {  # tag, settings...
  timeout 90 $W bench --module voxhash --backend cuda --size 2^25 --samples 7 --steps-per-sample 5 "${@:2}" --json $OUT/j/$1.json > /tmp/x.txt 2>&1; rc=$?
  echo "-- $1 rc $rc"; grep -E "build|query|slots|fail|rror" /tmp/x.txt | head -6
  python3 -c "
import json; d=json.load(open('$OUT/j/$1.json'))
for r in d['results']:
  m=r.get('metrics',{}); print('   probes a hit', m.get('probes per hit'), 'a miss', m.get('probes per miss'), 'restarts', m.get('restarts'))" 2>/dev/null
}
{
lab b1-f4-look --set voxhash.insertion=look
lab b1-f4-exchange
for f in 2 3; do for b in 4 8 16; do
  lab b$b-f$f-s1.25 --set voxhash.bucket=$b --set voxhash.functions=$f
  lab b$b-f$f-s1.12 --set voxhash.bucket=$b --set voxhash.functions=$f --set voxhash.size_factor=1.12
done; done
lab b2-f3 --set voxhash.bucket=2 --set voxhash.functions=3
lab b4-f2-again --set voxhash.bucket=4 --set voxhash.functions=2
lab b1-f4-look-again --set voxhash.insertion=look
for pat in sequential strided "voxel bricks"; do
  lab "b4-f2-${pat// /-}" --set voxhash.bucket=4 --set voxhash.functions=2 --set "voxhash.key_pattern=$pat"
done
lab b4-f2-xor --set voxhash.bucket=4 --set voxhash.functions=2 --set voxhash.family=xor
echo "-- intersection 1024^3, bucket 1 and 4"
for b in 1 4 1 4; do timeout 90 $W bench --module voxhash --backend cuda --size 1024^3 --samples 9 --steps-per-sample 10 --set voxhash.workload=intersection --set voxhash.bucket=$b > /tmp/x.txt 2>&1; echo "bucket $b"; grep -E "cuckoo|build|query" /tmp/x.txt | head -4; done
} 2>&1 | tee $OUT/lab.txt
one() {  # label, variant, precision, size
  $W bench --module poisson --backend cuda --variant $2 --size $4 --set poisson.precision=$3 --samples 9 --steps-per-sample 20 --json /tmp/x.json > /tmp/x.txt 2>&1 || { echo "$1 failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('$1 $2 $3', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
{ for p in float double; do one main red-black $p 256^3; one main multicolour $p 256^3; one main red-black $p 4096^2; done; } 2>&1 | tee $OUT/poisson.txt
