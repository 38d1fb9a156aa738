#!/bin/bash
# Issue 34, 2026-12-06: (1) layout.cu (see its head), the dense scan with a vertex's sources side
# by side against the module's layout; (2) the cleanup of 2026-12-06 (each source's closeness
# sums at its place in the list, Girvan-Newman's recomputations over one result's arrays): graph
# tests, memcheck, racecheck, the scale-free and grid benches; (3) Nsight Compute's kernel times
# of the frontier mapping's pass (from below and from above), as run 124 did.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 docs/gpu-runs/2026-12-06-graph-layout/layout.cu -o /tmp/layout || exit 1
timeout 200 /tmp/layout > $OUT/layout.log 2>&1; echo "layout rc $?"; cat $OUT/layout.log
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
mkdir -p $OUT/r; R=$OUT/r
for t in graph_cuda_test graph_module_test; do
  timeout 150 /tmp/e/tests/$t > $R/$t.log 2>&1
  echo "$t rc $?: $(tail -1 $R/$t.log)"; grep -h "Failure" -A5 $R/$t.log | head -20
done
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $R/graph-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/graph-$t.log | tr '\n' ' ')"
done
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256"
GRID="--size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 5"
for v in frontier edge; do
  echo -n "scale-free $v: "; timeout 100 $B $SF --samples 5 --variant $v --json $R/sf-$v.json > $R/sf-$v.log 2>&1
  grep "^cuda" $R/sf-$v.log
done
echo -n "grid frontier: "; timeout 100 $B $GRID --variant frontier --json $R/grid.json > $R/grid.log 2>&1
grep "^cuda" $R/grid.log
s=$(date +%s)
timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $B $SF --samples 3 --variant frontier > $R/ncu-frontier.csv 2>&1
echo "ncu rc $? ($(($(date +%s) - s)) s), $(grep -c gpu__time_duration $R/ncu-frontier.csv) kernels"
python3 - $R/ncu-frontier.csv <<'P' || true
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
gzip -f $R/ncu-frontier.csv
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
