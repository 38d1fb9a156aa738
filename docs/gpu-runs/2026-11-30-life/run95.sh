#!/bin/bash
# Issue 34, run 95: Life's temporal kernel with Conway's rule in ten logic operations a word and
# the tile's rows trimmed a row a generation, against the kernel as it was, at 32768^2 on a torus
# (an experiment build, run95-experiment.patch: WS_LIFE_EXP picks old / trim / notrim,
# WS_LIFE_OUT the output rows a warp, WS_LIFE_GENS 16 generations a pass). Then the SASS of both
# kernels and Nsight Compute's instruction counts.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope life_cuda_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
/tmp/b/tests/life_cuda_test 2>&1 | tail -4
W=/tmp/b/warpscope
b() {  # label, generations, then env assignments
  local label=$1 gens=$2; shift 2
  echo -n "$label g$gens: "
  env "$@" timeout 60 $W bench --module life --backend cuda --variant temporal --size 32768 \
    --set life.generations_per_pass=$([ "$gens" = 16 ] && echo 8 || echo $gens) --samples 9 \
    --json /tmp/j.json 2>&1 | grep "^cuda" | awk '{print $4, $5}'
}
for round in 1 2; do
  echo "== round $round (ms/gen, M cell updates/s)"
  b main 4
  b old 4 WS_LIFE_EXP=old
  b old 8 WS_LIFE_EXP=old
  b trim32 4 WS_LIFE_EXP=trim WS_LIFE_OUT=32
  b trim32 8 WS_LIFE_EXP=trim WS_LIFE_OUT=32
  b trim64 4 WS_LIFE_EXP=trim WS_LIFE_OUT=64
  b trim64 8 WS_LIFE_EXP=trim WS_LIFE_OUT=64
  b notrim32 4 WS_LIFE_EXP=notrim WS_LIFE_OUT=32
  b notrim32 8 WS_LIFE_EXP=notrim WS_LIFE_OUT=32
  b notrim32 16 WS_LIFE_EXP=notrim WS_LIFE_OUT=32 WS_LIFE_GENS=16
  b notrim64 16 WS_LIFE_EXP=notrim WS_LIFE_OUT=64 WS_LIFE_GENS=16
done
echo "== 65536^2"
for e in old trim; do echo -n "$e g4: "; WS_LIFE_EXP=$e timeout 90 $W bench --module life --backend cuda --variant temporal --size 65536 --samples 5 --json /tmp/j.json 2>&1 | grep "^cuda" | awk '{print $4, $5}'; done
# SASS: each kernel's instructions by opcode
/usr/local/cuda/bin/cuobjdump -sass -fun '_ZN2ws4life17oldTemporalKernelILi4EEEvPKmPmNS0_11BitGeometryEi' $W > $OUT/sass-old-g4.txt 2>&1
/usr/local/cuda/bin/cuobjdump -sass -fun '_ZN2ws4life21lifeBitTemporalKernelILb1ELb1ELi4ELi32ELb1EEEvPKmPmNS0_11BitGeometryEijj' $W > $OUT/sass-new-g4.txt 2>&1
for f in $OUT/sass-old-g4.txt $OUT/sass-new-g4.txt; do
  echo "== $(basename $f): $(grep -c '/\*[0-9a-f]*\*/' $f) instructions"
  grep -o '/\*[0-9a-f]*\*/ *[A-Z0-9.]*' $f | awk '{split($2,a,"."); print a[1]}' | sort | uniq -c | sort -rn | head -12
done
# Nsight Compute: one pass of each at 32768^2
for e in old trim; do
  WS_LIFE_EXP=$e timeout 200 /usr/local/cuda/bin/ncu --kernel-name regex:Temporal --launch-skip 2 --launch-count 1 \
    --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,launch__registers_per_thread \
    $W bench --module life --backend cuda --variant temporal --size 32768 --samples 3 --steps-per-sample 4 --json /tmp/j.json > $OUT/ncu-$e.txt 2>&1
  echo "== ncu $e"; grep -E "inst_executed|issue_active|pipe_alu|warps_active|duration|registers" $OUT/ncu-$e.txt
done
