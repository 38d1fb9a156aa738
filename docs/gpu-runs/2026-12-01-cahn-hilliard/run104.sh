#!/bin/bash
# Issue 31, run 104: mu carried in units of K (ch_stencil.h's PassCoefficients: a multiply fewer in
# each mu and in each update) against main (456782d, built from .old/), alternately; ch_cuda_test,
# the contract's Cahn-Hilliard cases, memcheck and racecheck on the change; the fast path at the
# issue's sizes; instructions a pass (Nsight Compute) and the 3-D kernel's SASS. Then the LBM
# D3Q19 bench of docs/gpu-runs/2026-11-30-lbm-next (issue 34), its bench part.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
cmake -S .old -B /tmp/o -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-old.log 2>&1
start=$(date +%s)
ninja -C /tmp/o warpscope > /tmp/build-old.log 2>&1 &
ninja -C /tmp/b warpscope ch_cuda_test contract_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
wait $! || { grep -B2 -A20 error /tmp/build-old.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "ch_cuda_test: $(/tmp/b/tests/ch_cuda_test 2>&1 | tail -1)"
echo "contract: $(/tmp/b/tests/contract_test --gtest_filter='*cahn*' 2>&1 | tail -1)"
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/ch_cuda_test > $OUT/sanitizer-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$t.log | tr '\n' ' ')"
done
A="bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for round in 1 2; do for size in 256x256x256 384x384x384 4096 5792; do for integ in RK2 Euler; do for w in o b; do
  echo -n "round $round $size $integ $([ $w = o ] && echo main || echo muK): "
  timeout 60 /tmp/$w/warpscope $A --size $size --set cahn-hilliard.integrator=$integ --json /tmp/j.json 2>&1 \
    | grep "^cuda" | awk '{print $4, $5, $NF}'
done; done; done; done
for w in o b; do
  timeout 120 /usr/local/cuda/bin/ncu --clock-control none --kernel-name regex:vectorKernel3d --launch-skip 20 --launch-count 2 \
    --metrics smsp__inst_executed.sum,gpu__time_duration.sum /tmp/$w/warpscope $A --size 256x256x256 --samples 3 \
    --json /tmp/x.json > $OUT/ncu-inst-$w.txt 2>&1
  echo "ncu $w rc $? $(grep -E 'inst_executed|duration' $OUT/ncu-inst-$w.txt | awk '{print $1, $NF}' | tr '\n' ' ')"
done
cuobjdump --dump-sass --function '_ZN2ws2ch14vectorKernel3dILb0ELb1EEEvPK6float4S4_PS2_NS0_5ShapeEfNS0_12CoefficientsE' \
  /tmp/b/warpscope > /tmp/sass-new.txt 2>&1
cuobjdump --dump-sass --function '_ZN2ws2ch14vectorKernel3dILb0ELb1EEEvPK6float4S4_PS2_NS0_5ShapeEfNS0_12CoefficientsE' \
  /tmp/o/warpscope > /tmp/sass-old.txt 2>&1
for v in old new; do
  echo "sass $v: $(grep -cE '^ +/\*[0-9a-f]{4}\*/' /tmp/sass-$v.txt) instructions; $(grep -oE '^ +/\*[0-9a-f]{4}\*/ +[A-Z0-9.]+' /tmp/sass-$v.txt | awk '{print $2}' | cut -d. -f1 | sort | uniq -c | sort -rn | head -14 | awk '{printf "%s %s, ", $2, $1}')"
done
gzip -c /tmp/sass-new.txt > $OUT/sass-3d-new.txt.gz
W=/tmp/b/warpscope
PLAIN="--set lbm.lattice=d3q19 --set lbm.tracers=0 --set lbm.curved_walls=bounce-back --set lbm.forces=none"
V="--variant ab-soa-fp32 --variant aa-soa-fp32 --variant ab-soa-fp16 --variant aa-soa-fp16"
echo "== LBM, the scene of 2026-11-22"; timeout 150 $W bench --module lbm --size 256x256x256 $PLAIN $V --samples 9 --json $OUT/lbm-plain.json 2>&1 | grep -E "^cuda|bandwidth"
