#!/bin/bash
# Issue 34, run 146: the Nelder-Mead search evaluating at one call site (NelderMeadSearch: a place
# at a time, whatever the step, so a warp's lanes evaluate together) against main's form (one
# evaluation for the three second places, a branch for it; WS_MESH_OLD=1 in the experiment build)
# and the kernel held to 80 registers instead of 64 (WS_MESH_REGS=80). One build of the working
# tree with run146-experiment.patch; the 3.6M torus, every guard on, alternately; the tests and
# compute-sanitizer on the committed form (the default path of the same build).
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
rm -rf /tmp/y /tmp/m && mkdir /tmp/y
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/y
(cd /tmp/y && patch -p1 -s < docs/gpu-runs/2026-12-07-mesh-search/run146-experiment.patch) || exit 1
s=$(date +%s)
cmake -S /tmp/y -B /tmp/m -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-m.log 2>&1
ninja -C /tmp/m warpscope mesh_opt_cuda_test mesh_module_test > /tmp/build-m.log 2>&1 || { grep -B2 -A20 error /tmp/build-m.log | head -60; exit 1; }
echo "built in $(($(date +%s) - s)) s"
mkdir -p /tmp/k
B="/tmp/m/warpscope bench --module mesh --backend cuda --variant nelder-mead --set mesh.mesh=torus --steps-per-sample 2"
bench() {  # size name [env] [more settings]
  echo -n "$1 $2: "
  env $3 timeout 90 $B --size $1 --samples 7 $4 --json /tmp/k/$1-$2.json > /tmp/k/$1-$2.log 2>&1
  grep "^cuda" /tmp/k/$1-$2.log || tail -2 /tmp/k/$1-$2.log
}
for round in 1 2; do
  bench 3600000 new$round; bench 3600000 old$round WS_MESH_OLD=1; bench 3600000 regs80-$round WS_MESH_REGS=80
done
tar -czf $OUT/run146.tgz -C /tmp k
echo "mesh_opt_cuda_test: $(timeout 90 /tmp/m/tests/mesh_opt_cuda_test 2>&1 | tail -1)"
echo "mesh_module_test: $(timeout 120 /tmp/m/tests/mesh_module_test 2>&1 | tail -1)"
bench 3600000 new-first-fit "" "--set mesh.colouring=first-fit"
bench 3600000 old-first-fit WS_MESH_OLD=1 "--set mesh.colouring=first-fit"
bench 1000000 new; bench 1000000 old WS_MESH_OLD=1
bench 1000000 new-per-branch "" "--set mesh.per_branch=true"
tar -czf $OUT/run146.tgz -C /tmp k
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/m/tests/mesh_opt_cuda_test > /tmp/k/sanitizer-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/k/sanitizer-$t.log | tr '\n' ' ')"
done
tar -czf $OUT/run146.tgz -C /tmp k
date -u
