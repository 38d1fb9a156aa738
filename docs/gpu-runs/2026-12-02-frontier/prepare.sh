#!/bin/bash
# For run115.sh (run114.sh holds the same steps inline): the working tree copied to /tmp/x, its
# frontier threshold read from WS_FRONTIER_COST (this copy alone), built into /tmp/e with
# streams.cu beside it; a machine still warm from an earlier call reuses the build.
cd "$(dirname "$0")"/../../..
if [ ! -x /tmp/e/warpscope ] || [ ! -x /tmp/streams ]; then
  rm -rf /tmp/x && mkdir /tmp/x
  tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
  f=/tmp/x/compute/graph/centrality_cuda.cu
  sed -i 's/^constexpr double kFrontierArcCost = \([0-9]*\);/const double kFrontierArcCost = std::getenv("WS_FRONTIER_COST") ? std::atof(std::getenv("WS_FRONTIER_COST")) : \1;/; s/^#include <algorithm>/#include <algorithm>\n#include <cstdlib>/' $f
  grep -q WS_FRONTIER_COST $f || { echo "the threshold's switch did not apply"; exit 1; }
  start=$(date +%s)
  cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
  (nvcc -O3 -arch=sm_90 -std=c++17 /tmp/x/docs/gpu-runs/2026-12-02-frontier/streams.cu -o /tmp/streams > /tmp/streams-build.log 2>&1) &
  ninja -C /tmp/e warpscope graph_cuda_test graph_module_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
  wait
  echo "built in $(($(date +%s) - start)) s"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
