#!/bin/bash
# Issue 34, run 100: the cuckoo build's look reading a key's bucket whole (its loads in flight
# together) against slot by slot as it was (an experiment build, run100-experiment.patch:
# WS_HASH_EXP set), 2^25 keys, load 0.8, buckets of 4 and 8, alternately.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope cuckoo_cuda_test voxhash_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "cuckoo_cuda_test: $(/tmp/b/tests/cuckoo_cuda_test 2>&1 | tail -1)"
echo "voxhash_cuda_test: $(/tmp/b/tests/voxhash_cuda_test 2>&1 | tail -1)"
for t in memcheck; do
  WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/cuckoo_cuda_test > $OUT/sanitizer-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$t.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
for round in 1 2; do
  for cfg in "4 2 1.25" "4 3 1.25" "8 2 1.25"; do
    set -- $cfg
    for e in main perslot; do
      echo "== round $round bucket $1 functions $2 size_factor $3 $e"
      if [ $e = perslot ]; then export WS_HASH_EXP=1; else unset WS_HASH_EXP; fi
      timeout 60 $W bench --module voxhash --backend cuda --size 2^25 --samples 7 --steps-per-sample 5 \
        --set voxhash.bucket=$1 --set voxhash.functions=$2 --set voxhash.size_factor=$3 \
        --json /tmp/j.json 2>&1 | grep -E "build|query" | head -3
    done
  done
done
unset WS_HASH_EXP
