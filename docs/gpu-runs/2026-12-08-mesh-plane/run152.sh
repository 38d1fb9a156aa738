#!/bin/bash
# PREPARED, NOT RUN (2026-12-08: the session had 175 s of device time left, too little to start a
# machine). Issue 34, mesh, run 152: four trees built at once and benched alternately on the 3.6M
# torus (ptxas, CUDA 13.0 sm_90, the float class kernel at its 64 registers):
#   q  main (92 bytes spilled, stack 448);
#   s  run152-plane-lean.patch: the fan turned into the tangent plane's frame once a search, so a
#      place is (u, w, 0): no 3-D place an evaluation (6 multiply-adds), two of each side's three
#      differences a triangle; main's 24-byte cached triangle (76 spilled, 448);
#   l  run152-lean-sine.patch: s, and sin^2 of the smallest angle as the squared area times the
#      shortest side over the product of the three (no branch on which side is shortest, no
#      third dot product: the same value); (76, 448);
#   f  run152-full-sine.patch: l with a 48-byte cached triangle that keeps cross(a, b) and
#      |b - a|^2 (three 16-byte loads), the area's normal at p as four multiply-adds and the fold
#      guard a dot; (56, 832). Its risk: its cache, some 288 bytes a thread at 6 triangles, 295 KB
#      an SM at 32 warps, past the L1 (main's 147 KB fit), where a third of main's stalls were.
# (Colouring: first fit, main's default since 2026-12-08.) Then the fastest (by round 2) beside
# main: Jones-Plassmann colouring (the default before), the 1M torus, double precision;
# mesh_opt_cuda_test, mesh_module_test, memcheck and racecheck on it.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
D=docs/gpu-runs/2026-12-08-mesh-plane
rm -rf /tmp/q /tmp/s /tmp/l /tmp/f /tmp/bq /tmp/bs /tmp/bl /tmp/bf && mkdir /tmp/q /tmp/s /tmp/l /tmp/f
for t in q s l f; do
  tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/$t
done
(cd /tmp/s && patch -p1 -s < $D/run152-plane-lean.patch) || exit 1
(cd /tmp/l && patch -p1 -s < $D/run152-lean-sine.patch) || exit 1
(cd /tmp/f && patch -p1 -s < $D/run152-full-sine.patch) || exit 1
started=$(date +%s)
for t in q s l f; do
  (cmake -S /tmp/$t -B /tmp/b$t -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-$t.log 2>&1 &&
   ninja -j4 -C /tmp/b$t warpscope mesh_opt_cuda_test mesh_module_test > /tmp/build-$t.log 2>&1) &
done
wait
for t in q s l f; do
  [ -x /tmp/b$t/tests/mesh_opt_cuda_test ] || { grep -B2 -A20 error /tmp/build-$t.log | head -40; exit 1; }
done
echo "built in $(($(date +%s) - started)) s"
mkdir -p /tmp/k
bench() {  # build size name [settings]
  echo -n "$2 $3: "
  timeout 90 /tmp/b$1/warpscope bench --module mesh --backend cuda --variant nelder-mead \
    --set mesh.mesh=torus --steps-per-sample 2 --samples 7 --size $2 $4 \
    --json /tmp/k/$2-$3.json > /tmp/k/$2-$3.log 2>&1
  grep "^cuda" /tmp/k/$2-$3.log || tail -2 /tmp/k/$2-$3.log
}
for round in 1 2; do for t in f l s q; do bench $t 3600000 $t$round; done; done
tar -czf $OUT/run152.tgz -C /tmp k
# The fastest by round 2 (ms a sweep, the fifth column), beside main.
w=$(for t in f l s; do echo "$(grep -h "^cuda" /tmp/k/3600000-${t}2.log | awk '{print $5}') $t"; done |
  awk "NF == 2" | sort -g | head -1 | cut -d" " -f2)
echo "on with ${w:=l}"
bench $w 3600000 $w-jones-plassmann "--set mesh.colouring=jones-plassmann"
bench q 3600000 q-jones-plassmann "--set mesh.colouring=jones-plassmann"
bench $w 1000000 $w; bench q 1000000 q
bench $w 3600000 $w-double "--set mesh.precision=fp64"
bench q 3600000 q-double "--set mesh.precision=fp64"
tar -czf $OUT/run152.tgz -C /tmp k
echo "mesh_opt_cuda_test: $(timeout 90 /tmp/b$w/tests/mesh_opt_cuda_test 2>&1 | tail -1)"
echo "mesh_module_test: $(timeout 120 /tmp/b$w/tests/mesh_module_test 2>&1 | tail -1)"
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b$w/tests/mesh_opt_cuda_test > /tmp/k/sanitizer-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/k/sanitizer-$t.log | tr '\n' ' ')"
done
tar -czf $OUT/run152.tgz -C /tmp k
date -u
