#!/bin/bash
# Issue 32, run 49: the block shape of the thread-a-node kernels, 32x8 (as committed) against
# 128x2 (a block a whole row of a 256^3 grid's colour) and 64x4, alternately, two rounds.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
cp /tmp/b/warpscope /tmp/w32x8
for shape in "128, 2" "64, 4"; do
  sed -i "s/const dim3 kBlock([0-9]*, [0-9]*, 1);/const dim3 kBlock($shape, 1);/" compute/poisson/poisson_cuda.cu
  ninja -C /tmp/b warpscope > /tmp/build2.log 2>&1 || { tail -20 /tmp/build2.log; exit 1; }
  cp /tmp/b/warpscope /tmp/w${shape/, /x}
done
ls /tmp/w*
for round in 1 2; do
  for w in 32x8 128x2 64x4; do
    for p in float double; do
      /tmp/w$w bench --module poisson --backend cuda --variant red-black multicolour jacobi --size 256^3 --set poisson.precision=$p --samples 9 --steps-per-sample 20 --json $OUT/r/b$w-$p-$round.json > /dev/null 2>&1; echo "$w $p $round rc $?"
    done
    /tmp/w$w bench --module poisson --backend cuda --variant red-black --size 4096 --samples 9 --steps-per-sample 20 --json $OUT/r/b$w-2d-$round.json > /dev/null 2>&1; echo "$w 2d $round rc $?"
  done
done
for f in $OUT/r/*.json; do python3 -c "
import json
d=json.load(open('$f'))
for r in d['results']: print('$(basename $f .json)', r['variant'], r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%', 'bw', round(d['copy_bandwidth_gb_per_second']))"; done
cd $OUT && tar -czf r.tgz r && rm -rf r
