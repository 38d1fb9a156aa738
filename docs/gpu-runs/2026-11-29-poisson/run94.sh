#!/bin/bash
# Issue 32, run 94: every solver at the issue's sizes as main now runs them (passes back and
# forth), float and double: the benchmark's table and its time to a fall of 10^6.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p /tmp/j
for size in 4096 256^3; do for p in float double; do
  timeout 90 /tmp/b/warpscope bench --module poisson --backend cuda --size $size --set poisson.precision=$p \
    --json /tmp/j/bench-${size/^/p}-$p.json > /tmp/j/bench-${size/^/p}-$p.txt 2>&1 || echo "$size $p failed"
  echo "== $size $p"; cat /tmp/j/bench-${size/^/p}-$p.txt
done; done
tar czf $OUT/json.tgz -C /tmp j
