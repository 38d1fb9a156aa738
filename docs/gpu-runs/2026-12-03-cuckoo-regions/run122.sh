#!/bin/bash
# Issue 34, run 122: the cuckoo build with the keys sorted by the region of their first bucket
# (BuildOrder::ByRegion, `--set voxhash.order="by region"`), as it stands in the working tree:
# the CUDA tests, memcheck, then 2^25 keys as given against by region, alternately, two rounds;
# and the voxel module's intersection frame both ways.
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope cuckoo_cuda_test voxhash_cuda_test voxhash_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
for t in cuckoo_cuda_test voxhash_cuda_test voxhash_module_test; do
  s=$(date +%s); timeout 120 /tmp/e/tests/$t > $R/$t.log 2>&1
  echo "$t rc $?: $(tail -1 $R/$t.log) ($(($(date +%s) - s)) s)"; grep -h "FAILED\|Failure" -A5 $R/$t.log | head -20
done
WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 \
  /tmp/e/tests/cuckoo_cuda_test --gtest_filter='*BuildsAndLookups*' > $R/memcheck.log 2>&1
echo "memcheck rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.log | tr '\n' ' ')"
W=/tmp/e/warpscope
for round in 1 2; do
  for cfg in "4 3 1.25" "8 2 1.25" "4 2 1.25" "8 2 1.12" "1 4 1.25"; do
    set -- $cfg
    for order in "as given" "by region"; do
      echo "== round $round bucket $1 functions $2 size_factor $3 $order"
      timeout 60 $W bench --module voxhash --backend cuda --size 2^25 --samples 7 --steps-per-sample 5 \
        --set voxhash.bucket=$1 --set voxhash.functions=$2 --set voxhash.size_factor=$3 \
        --set voxhash.insertion=look --set "voxhash.order=$order" \
        --json $R/bench-$round-$1-$2-$3-${order// /-}.json 2>&1 | grep -E "build|query|rror" | head -3
    done
  done
done
for order in "as given" "by region" "as given" "by region"; do
  echo "== intersection 1024^3, bucket 4, $order"
  timeout 60 $W bench --module voxhash --backend cuda --size 1024^3 --samples 7 --steps-per-sample 10 \
    --set voxhash.bucket=4 --set "voxhash.order=$order" --json $R/bench-frame-${order// /-}-$(date +%s%N).json 2>&1 | grep -E "^cuda|frame|build" | head -3
done
tar -czf $OUT/run122.tgz -C $OUT r && rm -rf $R
