#!/bin/bash
# Issue 33: the LBM view drawn from only the cells its picture reads (PlaneWindow, 3609c49) on GPU
# ranks, tracers off so the view takes that path: 2 ranks sharing the H200 against 1, 720x420 D2Q9
# cylinder in a 320x200 frame (zoomed out), vorticity and speed, and a 2048x1024 lattice.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for program in mpirun mpiexec; do [ -x /usr/bin/$program.openmpi ] && ! command -v $program > /dev/null && ln -s /usr/bin/$program.openmpi /usr/bin/$program; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_preg=native
mkdir -p $OUT/f
for c in "720x420 vorticity 320x200" "720x420 speed 320x200" "2048x1024 speed 1280x720"; do set -- $c
  for n in 1 2; do
    timeout 90 mpirun --oversubscribe -np $n /tmp/b/warpscope --headless --backend cuda --module lbm --size $1 --steps 60 --steps-per-frame 20 --set lbm.view=$2 --set lbm.tracers=0 --window $3 --screenshot $OUT/f/$1-$2-$n.png > /tmp/log-$n.txt 2>&1
    echo "$1 $2 $n rank(s): exit $? $(grep -m1 -o 'split over [0-9] ranks along [xyz]' /tmp/log-$n.txt)"
  done
  python3 "$(dirname "$0")"/pngrows.py $OUT/f/$1-$2-1.png $OUT/f/$1-$2-2.png
done
