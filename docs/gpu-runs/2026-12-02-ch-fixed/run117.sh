#!/bin/bash
# Issue 31, run 117: where the 3-D fast path's fixed cost a pass goes (runs 113's sweep of
# 256 x 256 x D put it at some 4.4 us a pass for RK2 and 7.7 for Euler). A step's time with 2, 20
# and 200 steps a sample (a cost a sample, such as the first pass's launch, would shrink with
# more steps), and Nsight Compute's duration of the kernel alone (launched serialized, no
# overlap, real clocks) at 256^3 and 256 x 256 x 1024: what the march costs inside the kernel,
# against what the bench's step adds between kernels.
cd "$(dirname "$0")"/../../..
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
start=$(date +%s)
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
C="/tmp/e/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 9"
for i in Euler RK2; do for n in 2 20 200; do
  [ $i = RK2 ] && [ $n = 2 ] && continue
  echo -n "$i 256^3, $n steps a sample: "
  timeout 60 $C --size 256^3 --steps-per-sample $n --set cahn-hilliard.integrator=$i --json $R/bench-$i-$n.json 2>&1 | grep "^cuda"
done; done
for i in Euler RK2; do for s in 256^3 256x256x1024; do
  timeout 90 $NCU --clock-control none --metrics gpu__time_duration.sum -k regex:vectorKernel3d -s 4 -c 8 \
    /tmp/e/warpscope bench --module cahn-hilliard --backend cuda --variant shuffle --samples 3 --steps-per-sample 2 \
    --size $s --set cahn-hilliard.integrator=$i > $R/ncu-$i-$s.log 2>&1
  echo "ncu $i $s rc $?: $(grep -E 'vectorKernel3d|gpu__time_duration' $R/ncu-$i-$s.log | sed 's/  */ /g' | tr '\n' ' ' | cut -c1-900)"
done; done
tar -czf $OUT/run117.tgz -C $OUT r && rm -rf $R
