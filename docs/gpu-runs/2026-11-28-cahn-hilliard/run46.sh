#!/bin/bash
# Issue 31, Cahn-Hilliard: the 3-D shuffle kernel's rows a warp and planes a block (an experiment
# build reading them from WS_CH_MROWS and WS_CH_DEPTH), one round.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r
W=/tmp/b/warpscope
B="$W bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for rows in 2 4 8; do for depth in 8 16 32 64; do
  for run in "256^3 RK2" "256^3 Euler" "322^3 RK2"; do set -- $run
    WS_CH_MROWS=$rows WS_CH_DEPTH=$depth $B --size $1 --set cahn-hilliard.integrator=$2 --json /tmp/x.json > /dev/null 2>&1 || { echo "bench failed"; continue; }
    python3 -c "
import json
d=json.load(open('/tmp/x.json'))
for r in d['results']: print('rows $rows depth $depth $2', r['size'], round(r['ms_per_step'],4), 'ms', round(r['percent_of_bandwidth'],1), '%')"
  done
done; done | tee $OUT/r/sweep.txt
