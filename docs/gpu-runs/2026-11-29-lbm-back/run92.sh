#!/bin/bash
# Issue 34, run 92: an experiment build (run92-experiment.patch, WS_LBM_BACK=1: every odd step's
# stream-collide blocks from the lattice's end, where the step before ended) against main's one
# way, alternately; with main's committed Cahn-Hilliard change (ch_cuda_test) in the same build.
cd "$(dirname "$0")"/../../..
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope tests/ch_cuda_test tests/lbm_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== ch_cuda_test"; timeout 100 /tmp/b/tests/ch_cuda_test > $OUT/ch_cuda_test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" $OUT/ch_cuda_test.log | head -10
echo "== lbm_cuda_test, WS_LBM_BACK=1"
WS_LBM_BACK=1 timeout 150 /tmp/b/tests/lbm_cuda_test --gtest_filter='*EveryVariant*' > $OUT/lbm_cuda_test.log 2>&1; echo "rc $?"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" $OUT/lbm_cuda_test.log | head -10
W=/tmp/b/warpscope
mkdir -p /tmp/j
{
for round in 1 2; do for back in 0 1; do
  WS_LBM_BACK=$back timeout 120 $W bench --module lbm --backend cuda --size 256x256x256 --set lbm.lattice=d3q19 --set lbm.tracers=0 \
    --variant aa-soa-fp32 aa-soa-fp16 ab-soa-fp32 ab-soa-fp16 --samples 9 --steps-per-sample 20 --json /tmp/j/d3q19-$back-$round.json > /tmp/x.txt 2>&1 || { echo failed; tail -3 /tmp/x.txt; }
  grep -E "^cuda" /tmp/x.txt | sed "s/^/back $back: /"
  WS_LBM_BACK=$back timeout 120 $W bench --module lbm --backend cuda --size 8192x8192 \
    --variant aa-soa-fp32 aa-soa-fp16 --samples 9 --steps-per-sample 20 --json /tmp/j/d2q9-$back-$round.json > /tmp/x.txt 2>&1 || { echo failed; tail -3 /tmp/x.txt; }
  grep -E "^cuda" /tmp/x.txt | sed "s/^/back $back: /"
done; done
} 2>&1 | tee $OUT/bench.txt
tar czf $OUT/json.tgz -C /tmp j
