#!/bin/bash
# Shared by run112.sh and run113.sh: the working tree copied to /tmp/x with experiments.patch
# applied (the mesh float class kernel held to 64 registers; WS_GRAPH_EXP=relabel and
# WS_GRAPH_EXP=frontier, the two betweenness experiments of docs/gpu-runs/next-graph-*, merged into
# one patch) and built into /tmp/e. A second call on a machine still warm reuses both.
cd "$(dirname "$0")"/../../..
root=$(pwd)
if [ ! -f /tmp/x/.patched ]; then
  rm -rf /tmp/x && mkdir /tmp/x
  tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
  (cd /tmp/x && patch -p1 -s < $root/docs/gpu-runs/2026-12-02-run112/experiments.patch) || exit 1
  touch /tmp/x/.patched
  cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
fi
start=$(date +%s)
ninja -C /tmp/e warpscope mesh_opt_cuda_test mesh_module_test graph_cuda_test lbm_cuda_test \
  > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
