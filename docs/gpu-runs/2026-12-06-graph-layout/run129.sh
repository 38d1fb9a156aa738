#!/bin/bash
# Issue 34, prepared 2026-12-03, not yet run: (1) layout.cu (see its head), the dense scan with a
# vertex's sources side by side against the module's layout; (2) Nsight Compute's kernel times of
# the frontier mapping's pass as of runs 127-128 (from below and from above), as run 124 did.
cd "$(dirname "$0")"/../../..
nvcc -O3 -arch=sm_90 -std=c++17 docs/gpu-runs/next-graph-layout/layout.cu -o /tmp/layout || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 240 /tmp/layout 2>&1 | tee $OUT/layout.log
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 3"
s=$(date +%s)
timeout 240 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $B $SF --variant frontier > $OUT/ncu-frontier.csv 2>&1
echo "ncu rc $? ($(($(date +%s) - s)) s), $(grep -c gpu__time_duration $OUT/ncu-frontier.csv) kernels"
python3 - $OUT/ncu-frontier.csv <<'P' || true
import csv, re, sys, collections
total = collections.defaultdict(lambda: [0, 0.0])
for r in csv.reader(open(sys.argv[1], errors='replace')):
    if len(r) > 14 and r[12] == 'gpu__time_duration.sum':
        name = re.sub(r'\(.*', '', r[4]).replace('void ', '')
        total[name][0] += 1
        total[name][1] += float(r[14].replace(',', '')) / 1e6
for name, (count, ms) in sorted(total.items(), key=lambda kv: -kv[1][1])[:25]:
    print(f"{ms:10.2f} ms  {count:6d} launches  {name[:90]}")
print(f"{sum(v[1] for v in total.values()):10.2f} ms in all kernels")
P
gzip -f $OUT/ncu-frontier.csv
