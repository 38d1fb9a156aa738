#!/bin/bash
# Issue 34, 2026-12-06: run 137's staged scans with its bug fixed (a removed arc's lane lost its
# run's sum when it was the run's first: staged-fixed.patch, against d73f125). One experiment
# build, its two calibrations read from the environment (WS_FAC: kFrontierArcCost, WS_FBC:
# kFromBelowArcCost): graph tests, memcheck and racecheck; the scale-free pass at several of each;
# then kArcsAThread 8 and 2; then main's scans (the patch taken back), and the staged build again.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
C=/tmp/x/compute/graph/centrality_cuda.cu
sed -i -e 's/^constexpr double kFrontierArcCost = 24;/static const double kFrontierArcCost = std::getenv("WS_FAC") ? std::atof(std::getenv("WS_FAC")) : 24;/' \
  -e 's/^constexpr double kFromBelowArcCost = 4;/static const double kFromBelowArcCost = std::getenv("WS_FBC") ? std::atof(std::getenv("WS_FBC")) : 4;/' \
  -e 's/^#include <algorithm>/#include <algorithm>\n#include <cstdlib>/' $C
grep -c getenv $C
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
R=$OUT
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
B="bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5 --variant frontier"
GRID="--size 1000000 --set graph.graph=grid --set graph.sources=16 --samples 5 --variant frontier"
bench() {  # name binary graph [env...]
  local name=$1 bin=$2 graph=$3; shift 3
  echo -n "$name: "; env "$@" timeout 100 $bin $B $graph --json $R/$name.json > /tmp/$name.log 2>&1
  grep "^cuda" /tmp/$name.log || tail -2 /tmp/$name.log
}
cp /tmp/e/warpscope /tmp/staged4
bench sf-staged-fac24 /tmp/staged4 "$SF"
for fac in 12 16 32 48; do bench sf-staged-fac$fac /tmp/staged4 "$SF" WS_FAC=$fac; done
for fbc in 2 8; do bench sf-staged-fbc$fbc /tmp/staged4 "$SF" WS_FBC=$fbc; done
bench grid-staged /tmp/staged4 "$GRID"
for k in 8 2; do
  sed -i "s/^constexpr int kArcsAThread = .*;/constexpr int kArcsAThread = $k;/" $C
  ninja -C /tmp/e warpscope > /tmp/build-k$k.log 2>&1 || { tail -20 /tmp/build-k$k.log; exit 1; }
  bench sf-staged-k$k /tmp/e/warpscope "$SF"
done
sed -i "s/^constexpr int kArcsAThread = .*;/constexpr int kArcsAThread = 4;/" $C
patch -R -d /tmp/x -p1 < /tmp/x/docs/gpu-runs/2026-12-06-graph-staged/staged-fixed.patch || exit 1
ninja -C /tmp/e warpscope > /tmp/build-base.log 2>&1 || { tail -20 /tmp/build-base.log; exit 1; }
bench sf-base /tmp/e/warpscope "$SF"
bench grid-base /tmp/e/warpscope "$GRID"
bench sf-staged-again /tmp/staged4 "$SF"
