#!/bin/bash
# 2026-12-06: the window's graph module on the GPU after b369027 (each source's closeness sums at
# its place in the run's list): headless frames with the panels, nodes sized and coloured by
# closeness, from every vertex (2000 vertices) and from 256 sampled sources (30,000 vertices),
# the frontier and edge mappings.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -40; exit 1; }
S="--set graph.graph=barabasi-albert --set graph.step=centrality --set graph.size_by=closeness --set graph.colour_by=centrality"
for v in frontier edge; do for n in 2000 30000; do
  timeout 60 /tmp/e/warpscope --headless --module graph --backend cuda --variant $v --with-ui \
    --window 1600x1000 --size $n $S --steps 3 --screenshot $OUT/closeness-$v-$n.png > $OUT/closeness-$v-$n.log 2>&1
  echo "$v $n rc $?"; tail -3 $OUT/closeness-$v-$n.log
done; done
