#!/bin/bash
# Issues 34 and 31, 2026-12-06: main's figures against the targets on an H100 (the targets were
# set on one; most earlier figures are an H200's): Life, LBM D3Q19, the bucketed cuckoo tables,
# mesh, Cahn-Hilliard's fast path in 3-D and 2-D. Benches only, as main stands (ebb3981).
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
rm -rf /tmp/x /tmp/e && mkdir /tmp/x
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
ninja -C /tmp/e warpscope > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -40; exit 1; }
mkdir -p $OUT/r; R=$OUT/r; W=/tmp/e/warpscope
b() {  # name, then bench arguments
  local name=$1; shift
  echo "== $name"; timeout 90 $W bench "$@" --json $R/$name.json > $R/$name.log 2>&1
  echo "rc $?"; grep -E "^cuda|bandwidth" $R/$name.log
}
b life --module life --backend cuda --variant temporal --size 32768 --samples 9
PLAIN="--set lbm.lattice=d3q19 --set lbm.tracers=0 --set lbm.curved_walls=bounce-back --set lbm.forces=none"
b lbm --module lbm --backend cuda --size 256x256x256 $PLAIN --variant ab-soa-fp32 ab-soa-fp16 --samples 9 --steps-per-sample 20
for t in "4 3" "8 2"; do set -- $t
  b cuckoo-$1-$2 --module voxhash --backend cuda --size 2^25 --samples 7 --steps-per-sample 5 \
    --set voxhash.bucket=$1 --set voxhash.functions=$2
done
b mesh --module mesh --backend cuda --size 3600000 --set mesh.mesh=torus --variant nelder-mead --samples 9 --steps-per-sample 2
C="--module cahn-hilliard --backend cuda --variant shuffle --samples 9 --steps-per-sample 20"
for s in 256^3 384^3 4096; do for i in RK2 Euler; do
  b ch-${s/^/-}-$i $C --size $s --set cahn-hilliard.integrator=$i
done; done
tar -czf $OUT/run.tgz -C $OUT r && rm -rf $R
