#!/bin/bash
# PREPARED, NOT RUN (2026-12-07: the session's device time was spent on runs 144-149).
# Issue 34, run 151: the fan cache's triangles read in two 16-byte loads (FanTriangle aligned to
# 16 bytes, the side |b - a|^2 stored beside a) where main reads six 4-byte ones and computes the
# side at every evaluation: 7 of some 65 instructions a triangle an evaluation fewer, 32 bytes a
# triangle in the thread's local memory where main has 24. Nsight Compute (2026-11-22) put a third
# of the class kernel's stalls on L1TEX (its local loads). /tmp/p is the tree with
# run151-fan-vectors.patch applied, /tmp/q the tree as it is (main). Both built at once; the 3.6M
# torus alternately, twice; mesh tests; memcheck and racecheck.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
P=docs/gpu-runs/2026-12-07-mesh-search/run151-fan-vectors.patch
rm -rf /tmp/p /tmp/q /tmp/bp /tmp/bq && mkdir /tmp/p /tmp/q
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/p
tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/q
(cd /tmp/p && patch -p1 -s < $P) || exit 1
s=$(date +%s)
for t in p q; do
  (cmake -S /tmp/$t -B /tmp/b$t -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-$t.log 2>&1 &&
   ninja -j8 -C /tmp/b$t warpscope mesh_opt_cuda_test mesh_module_test > /tmp/build-$t.log 2>&1) &
done
wait
for t in p q; do [ -x /tmp/b$t/tests/mesh_opt_cuda_test ] || { grep -B2 -A20 error /tmp/build-$t.log | head -40; exit 1; }; done
echo "built in $(($(date +%s) - s)) s"
mkdir -p /tmp/k
bench() {  # build size name [settings]
  echo -n "$2 $3: "
  timeout 90 /tmp/b$1/warpscope bench --module mesh --backend cuda --variant nelder-mead \
    --set mesh.mesh=torus --steps-per-sample 2 --samples 7 --size $2 $4 \
    --json /tmp/k/$2-$3.json > /tmp/k/$2-$3.log 2>&1
  grep "^cuda" /tmp/k/$2-$3.log || tail -2 /tmp/k/$2-$3.log
}
for round in 1 2; do bench p 3600000 vectors$round; bench q 3600000 main$round; done
bench p 3600000 vectors-first-fit "--set mesh.colouring=first-fit"
bench q 3600000 main-first-fit "--set mesh.colouring=first-fit"
bench p 1000000 vectors; bench q 1000000 main
tar -czf $OUT/run151.tgz -C /tmp k
echo "mesh_opt_cuda_test: $(timeout 90 /tmp/bp/tests/mesh_opt_cuda_test 2>&1 | tail -1)"
echo "mesh_module_test: $(timeout 120 /tmp/bp/tests/mesh_module_test 2>&1 | tail -1)"
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/bp/tests/mesh_opt_cuda_test > /tmp/k/sanitizer-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/k/sanitizer-$t.log | tr '\n' ' ')"
done
tar -czf $OUT/run151.tgz -C /tmp k
date -u
