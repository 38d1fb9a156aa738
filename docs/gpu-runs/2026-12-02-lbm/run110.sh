#!/bin/bash
# Issue 34, run 110: LBM D3Q19 FP32 SoA with the stream-collide kernel held to fewer registers
# (run110-experiment.patch on 3f21959: WS_LBM_EXP=56, 48 or 40 registers by __maxnreg__, against
# the kernel as it is, 63 registers under __launch_bounds__(1024)), so that more blocks of 128
# threads fit an SM: 8 at 63 registers, 9 at 56, 10 at 48, 12 at 40. Alternately, two rounds, the
# scene of 2026-11-22 at 256^3; lbm_cuda_test's random-lattice test on each cap.
cd "$(dirname "$0")"/../../..
root=$(pwd) && rm -rf /tmp/x && mkdir /tmp/x && tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
(cd /tmp/x && patch -p1 -s < $root/docs/gpu-runs/2026-12-02-lbm/run110-experiment.patch) || exit 1
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
start=$(date +%s)
ninja -C /tmp/e warpscope lbm_cuda_test > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for c in 0 56 48 40; do
  echo "lbm_cuda_test cap $c: $(WS_LBM_EXP=$c timeout 120 /tmp/e/tests/lbm_cuda_test --gtest_filter='*RandomLattices*' 2>&1 | tail -1)"
done
PLAIN="--set lbm.lattice=d3q19 --set lbm.tracers=0 --set lbm.curved_walls=bounce-back --set lbm.forces=none"
for round in 1 2; do for v in ab-soa-fp32 aa-soa-fp32; do for c in 0 56 48 40; do
  echo -n "round $round $v cap $c: "
  WS_LBM_EXP=$c timeout 90 /tmp/e/warpscope bench --module lbm --size 256x256x256 $PLAIN --variant $v --samples 9 \
    --json /tmp/j.json 2>&1 | grep "^cuda"
done; done; done
for c in 48 40; do for b in 256; do
  echo -n "ab-soa-fp32 cap $c block $b: "
  WS_LBM_EXP=$c timeout 90 /tmp/e/warpscope bench --module lbm --size 256x256x256 $PLAIN --set lbm.block=$b --variant ab-soa-fp32 \
    --samples 9 --json /tmp/j.json 2>&1 | grep "^cuda"
done; done
WS_LBM_EXP=0 /tmp/e/warpscope bench --module lbm --size 256x256x256 $PLAIN --variant ab-soa-fp32 --samples 3 --json /tmp/j.json 2>&1 | grep -E "bandwidth|^cuda"
