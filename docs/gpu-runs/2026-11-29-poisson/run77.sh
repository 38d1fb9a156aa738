#!/bin/bash
# Issue 32, as committed: 3-D red-black two planes a thread in 64x4x2 blocks, the test's tolerance
# relative to |u|: poisson_cuda_test twice (fresh seeds), memcheck, and the bench at 256^3 and
# 4096^2 in float and double, red-black and multicolour.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/poisson_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for i in 1 2; do echo "== poisson_cuda_test $i"; timeout 200 /tmp/b/tests/poisson_cuda_test > /tmp/t.log 2>&1; echo "rc $?"; grep -E "^\[ +(FAILED|PASSED) |seed" /tmp/t.log | head -6; grep -B1 -A7 Failure /tmp/t.log | head -30; done
echo "== memcheck"; WS_SANITIZER_RUN=1 timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/tests/poisson_cuda_test > /tmp/san.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' /tmp/san.log | tr '\n' ' ')"
W=/tmp/b/warpscope
one() {  # variant, precision, size
  $W bench --module poisson --backend cuda --variant $1 --size $3 --set poisson.precision=$2 --samples 9 --steps-per-sample 20 --json $OUT/bench-$1-$2-$3.json > /tmp/x.txt 2>&1 || { echo "$1 failed"; tail -2 /tmp/x.txt; return; }
  python3 -c "
import json
d=json.load(open('$OUT/bench-$1-$2-$3.json'))
for r in d['results']: print('main $1 $2', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%  copy', round(d['copy_bandwidth_gb_per_second']))"
}
{ for p in float double; do for s in 256^3 4096; do one red-black $p $s; one multicolour $p $s; one sor $p $s; done; done
  one multigrid double 256^3; } 2>&1 | tee $OUT/poisson.txt
