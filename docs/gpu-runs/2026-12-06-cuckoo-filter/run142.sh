#!/bin/bash
# Issue 34, 2026-12-06: the cuckoo table's miss filter (a byte a bucket; CuckooParams::missFilter,
# voxhash.filter) and betweenness's claimNext/sharesAlong (forwardArc's and the staged scans'
# twin tails made one: twin.patch, applied if the tree lacks it). Builds the tree; runs the cuckoo and graph tests, memcheck and
# racecheck on them; the hash lab's bench at 2^25 keys without and with the filter, alternately
# (buckets of 8 with 2 functions, the target's table, twice);
# the scale-free betweenness bench with the twin mended, then without (twin.patch reversed); the
# sanitizers last, so that the figures come back should the run be cut short.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
P=/tmp/x/docs/gpu-runs/2026-12-06-cuckoo-filter/twin.patch
grep -q claimNext /tmp/x/compute/graph/centrality_cuda.cu || patch -d /tmp/x -p1 < $P || exit 1
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
T="warpscope cuckoo_cuda_test cuckoo_cpu_test graph_cuda_test graph_module_test"
ninja -C /tmp/e $T > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -40; exit 1; }
date -u
R=$OUT
for t in cuckoo_cuda_test cuckoo_cpu_test graph_cuda_test graph_module_test; do
  timeout 120 /tmp/e/tests/$t > $R/$t.log 2>&1; echo "$t rc $? $(tail -1 $R/$t.log)"
done
date -u
stages() {  # the bench JSON's stages and probes
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
m = r["metrics"]
print("  probes/hit %.3f probes/miss %.3f lost %d restarts %d;" % (m["probes per hit"],
      m["probes per miss"], m["keys lost"], m["restarts"]),
      "; ".join("%s %.2f x 10^9 keys/s (%.3f ms)" % (s["scope"], s["rate_per_second"] / 1e9,
      s["ms_per_step"]) for s in r["stages"]))
PY
}
H="bench --module voxhash --backend cuda --size 2^25 --samples 7 --steps-per-sample 5"
for t in "8 2 1" "8 2 2"; do for filter in false true; do
  set -- $t
  name=cuckoo-b$1-f$2-filter-$filter-$3
  timeout 90 /tmp/e/warpscope $H --set voxhash.bucket=$1 --set voxhash.functions=$2 \
    --set voxhash.filter=$filter --json /tmp/$name.json > /tmp/$name.log 2>&1
  echo "$name rc $?: $(grep '^cuda' /tmp/$name.log)"; stages /tmp/$name.json
done; done
date -u
B="bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5 --variant frontier"
for which in mended twin; do
  if [ $which = twin ]; then patch -R -d /tmp/x -p1 < $P || exit 1; fi
  ninja -C /tmp/e warpscope > /tmp/build-$which.log 2>&1 || { tail -20 /tmp/build-$which.log; exit 1; }
  echo -n "graph scale-free, $which: "; timeout 100 /tmp/e/warpscope $B $SF > /tmp/sf.log 2>&1
  grep "^cuda" /tmp/sf.log || tail -2 /tmp/sf.log
done
S=/usr/local/cuda/bin/compute-sanitizer
for t in memcheck racecheck; do
  timeout 120 $S --tool $t --error-exitcode 9 /tmp/e/tests/cuckoo_cuda_test \
    --gtest_filter='*MatchTheCpu*' > /tmp/cuckoo-$t.log 2>&1
  echo "cuckoo $t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/cuckoo-$t.log | tr '\n' ' ')"
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  timeout 150 $S --tool $t --error-exitcode 9 /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" \
    > /tmp/graph-$t.log 2>&1
  echo "graph $t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/graph-$t.log | tr '\n' ' ')"
done
tar -czf $R/logs.tgz -C /tmp cuckoo-memcheck.log cuckoo-racecheck.log graph-memcheck.log \
  graph-racecheck.log $(cd /tmp && ls cuckoo-b*.json)
date -u
