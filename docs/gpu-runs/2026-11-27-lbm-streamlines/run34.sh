#!/bin/bash
# Streamlines: e5636e9 against e2225fc (streamCell) on one warm machine, alternately.
cd "$(dirname "$0")"
mkdir -p /tmp/e5 && tar -xf .old-src.tar -C /tmp/e5
cmake -S /tmp/e5 -B /tmp/b-e5 -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e5.log 2>&1
ninja -C /tmp/b-e5 warpscope > /tmp/build-e5.log 2>&1 || { grep -B2 -A20 error /tmp/build-e5.log | head; exit 1; }
C="--set lbm.lattice=d3q19 --set lbm.scene=cavity --size 256x256x256 --set lbm.reynolds=1000 --steps-per-frame 1 --steps 300 --set lbm.display=isosurface"
for round in 1 2; do for b in b-e5 b; do
  echo "$b: $(/tmp/$b/warpscope --headless --module lbm --window 1600x1000 --with-ui $C 2>&1 | grep -E 'streamlines \(CUDA\)|median' | tr '\n' ' ')"
done; done
