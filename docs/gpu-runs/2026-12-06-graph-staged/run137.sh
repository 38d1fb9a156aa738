#!/bin/bash
# Issue 34, prepared 2026-12-06, run as run 137 at 16:35 UTC the same day: the frontier mapping's
# dense scans four arcs a thread, each step of an arc's chain of loads issued for all four before
# any is waited on (forwardArcsStaged, backwardArcsStaged: staged.patch, against 87d862a): graph
# tests; the scale-free bench with the patch and without it (the patch taken back, rebuilt); then
# memcheck and racecheck of the patched test binary. A second staged bench after the base one
# was added before it ran.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
patch -d /tmp/x -p1 < /tmp/x/docs/gpu-runs/2026-12-06-graph-staged/staged.patch || exit 1
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
R=$OUT
for t in graph_cuda_test graph_module_test; do
  timeout 150 /tmp/e/tests/$t > $R/$t.log 2>&1
  echo "$t rc $?: $(tail -1 $R/$t.log)"; grep -h "Failure" -A5 $R/$t.log | head -20
done
B="bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5 --variant frontier"
cp /tmp/e/warpscope /tmp/staged
echo -n "scale-free staged: "; timeout 100 /tmp/staged $B $SF --json $R/sf-staged.json > $R/sf-staged.log 2>&1
grep "^cuda" $R/sf-staged.log || tail -2 $R/sf-staged.log
patch -R -d /tmp/x -p1 < /tmp/x/docs/gpu-runs/2026-12-06-graph-staged/staged.patch || exit 1
ninja -C /tmp/e warpscope > /tmp/build-base.log 2>&1 || { tail -20 /tmp/build-base.log; exit 1; }
echo -n "scale-free base: "; timeout 100 /tmp/e/warpscope $B $SF --json $R/sf-base.json > $R/sf-base.log 2>&1
grep "^cuda" $R/sf-base.log || tail -2 $R/sf-base.log
echo -n "scale-free staged again: "; timeout 100 /tmp/staged $B $SF --json $R/sf-staged2.json > $R/sf-staged2.log 2>&1
grep "^cuda" $R/sf-staged2.log || tail -2 $R/sf-staged2.log
for t in memcheck racecheck; do
  [ $t = memcheck ] && filter='*Centrality*' || filter='*TheFrontierMapping*'
  timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/e/tests/graph_cuda_test --gtest_filter="$filter" > $R/graph-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/graph-$t.log | tr '\n' ' ')"
done
