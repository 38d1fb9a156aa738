#!/bin/bash
# Issue 34, run 111: the mesh's Nelder-Mead class kernel (float) held to 64, 56 or 48 registers
# (run111-experiment.patch on fcfc001: WS_MESH_EXP, __maxnreg__) against the kernel as it is (72
# registers, 432 bytes of stack), on the 3.6M-vertex torus, alternately; mesh_opt_cuda_test on each.
cd "$(dirname "$0")"/../../..
root=$(pwd) && rm -rf /tmp/x && mkdir /tmp/x && tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < $root/docs/gpu-runs/2026-12-02-mesh/run111-experiment.patch) || exit 1
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
start=$(date +%s)
ninja -C /tmp/e warpscope mesh_opt_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for c in 0 64 56 48; do
  echo "mesh_opt_cuda_test cap $c: $(WS_MESH_EXP=$c timeout 100 /tmp/e/tests/mesh_opt_cuda_test 2>&1 | tail -1)"
done
B="/tmp/e/warpscope bench --module mesh --size 3600000 --set mesh.mesh=torus --variant nelder-mead --steps-per-sample 2"
for round in 1 2; do for c in 0 64 56 48; do
  echo -n "round $round jones-plassmann cap $c: "
  WS_MESH_EXP=$c timeout 120 $B --samples 7 --json /tmp/j.json 2>&1 | grep "^cuda"
done; done
for c in 0 64 56; do
  echo -n "first-fit cap $c: "
  WS_MESH_EXP=$c timeout 120 $B --set mesh.colouring=first-fit --samples 5 --json /tmp/j.json 2>&1 | grep "^cuda"
done
