#!/bin/bash
# Issue 31, Cahn-Hilliard: as run 44, rows 8 and 16, loaded 8 and 16 ahead.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2; do
  for rows in 8 16; do for ahead in 8 16; do
    for size in 4096 5792; do for integ in RK2 Euler; do
      WS_CH_ROWS=$rows WS_CH_AHEAD=$ahead $B --size $size --set cahn-hilliard.integrator=$integ --json /tmp/x.json > /dev/null 2>&1 || echo "bench failed"
      python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('round $round rows $rows ahead $ahead $integ', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%')"
    done; done
  done; done
done | tee $OUT/r/sweep.txt
