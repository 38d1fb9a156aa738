#!/bin/bash
# Issue 34, run 115: the frontier mapping's dense-level threshold (kFrontierArcCost) at 16, 24,
# 32, 48 and 64 on the 1M-vertex scale-free graph, alternately with the edge mapping, and the
# frontier against the edge mapping on a small world and a planted partition of 10^6 vertices (is
# it at least as fast everywhere?); streams.cu's k = 19 in other shapes; the window headless on
# the frontier variant. Everything under $OUT in one archive (the device tool fetches few files).
source "$(dirname "$0")"/prepare.sh || exit 1
mkdir -p $OUT/r; R=$OUT/r
timeout 60 /tmp/streams > $R/streams.log 2>&1; cat $R/streams.log
B="/tmp/e/warpscope bench --module graph --set graph.step=centrality --set graph.layout=false --steps-per-sample 1"
SF="--size 1000000 --set graph.graph=barabasi-albert --set graph.degree=20 --set graph.sources=256 --samples 5"
for round in 1 2; do for v in edge frontier:16 frontier:24 frontier:32 frontier:48 frontier:64; do
  c=${v#*:}; name=${v%%:*}
  echo -n "round $round scale-free $v: "
  WS_FRONTIER_COST=$c timeout 100 $B $SF --variant $name --json $R/bench-sf-${v/:/-}-$round.json 2>&1 | grep "^cuda"
done; done
for g in "watts-strogatz --set graph.degree=10" "planted --set graph.groups=100"; do for v in edge frontier:16 frontier:32; do
  c=${v#*:}; name=${v%%:*}
  echo -n "${g%% *} $v: "
  WS_FRONTIER_COST=$c timeout 100 $B --size 1000000 --set graph.graph=$g --set graph.sources=64 --samples 3 \
    --variant $name --json $R/bench-${g%% *}-${v/:/-}.json 2>&1 | grep "^cuda"
done; done
timeout 60 /tmp/e/warpscope --headless --module graph --backend cuda --variant frontier --with-ui \
  --size 2000 --set graph.graph=barabasi-albert --set graph.step=centrality --steps 3 --screenshot $R/graph-frontier.png > $R/headless.log 2>&1
echo "headless rc $?: $(tail -2 $R/headless.log | tr '\n' ' ')"
tar -czf $OUT/run115.tgz -C $OUT r && rm -rf $R
