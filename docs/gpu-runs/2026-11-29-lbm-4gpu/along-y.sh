#!/bin/bash
# Issue 35 on 4 H200s: the cylinder split along y (its radius capped since 1ebe9f0), weak
# 512x512x128 a GPU on 1, 2 and 4 GPUs for the four SoA variants (VARIANTS picks fewer); strong
# 512^3 along y.
cd "$(dirname "$0")"/../../..
. docs/gpu-runs/2026-11-29-lbm-4gpu/common.sh
nvidia-smi -L; date -u; git log --oneline -1 2>/dev/null
build warpscope
nvidia-smi topo -m > $OUT/topology.txt 2>&1
{
  for v in ${VARIANTS:-aa-soa-fp32 aa-soa-fp16 ab-soa-fp32 ab-soa-fp16}; do
    bench weak-1-$v 1 -- --size 512x512x128 --variant $v
    bench weak-2-y-$v 2 -- --size 512x1024x128 --variant $v --set lbm.split_axis=y
    bench weak-4-y-$v 4 -- --size 512x2048x128 --variant $v --set lbm.split_axis=y
  done
  bench strong-1 1 -- --size 512x512x512 --variant ab-soa-fp32
  for n in 2 4; do
    for overlap in true false; do
      bench strong-$n-y-$overlap $n -- --size 512x512x512 --variant ab-soa-fp32 --set lbm.split_axis=y \
        --set lbm.split_overlap=$overlap
    done
  done
} 2>&1 | tee $OUT/bench.txt
tar czf $OUT/json.tgz -C /tmp/j .
