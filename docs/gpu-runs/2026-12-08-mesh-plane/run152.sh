#!/bin/bash
# PREPARED, NOT RUN (2026-12-08: the session had 175 s of device time left, too little to start a
# machine). Issue 34, mesh, run 152 (takes in run151.sh of 2026-12-07-mesh-search): four trees
# built at once and benched alternately on the 3.6M torus:
#   /tmp/q main;
#   /tmp/p run151-fan-vectors.patch: the cached triangle in two 16-byte loads, |b - a|^2 stored;
#   /tmp/r run152-plane-frame.patch: the fan turned into the tangent plane's frame once a search,
#          a place (u, w, 0); each cached triangle keeps its normal cross(a, b) and |b - a|^2 (three
#          16-byte loads), so the doubled area's normal at p is four multiply-adds and the fold
#          guard a dot. About 46 of main's some 62 instructions a triangle an evaluation, and
#          the place in 3-D (6 a evaluation) gone. ptxas (here, sm_90): the float class kernel at 64
#          registers, 64 bytes spilled against main's 92, stack 832 bytes against 448. But its
#          cache is twice main's: some 288 bytes a thread at 6 triangles, 295 KB an SM at 32
#          warps, past the L1 (main 147 KB), where a third of main's stalls were (local loads).
#   /tmp/s run152-plane-lean.patch: the same frame with main's 24-byte triangle (a, b), the cross
#          products and the side computed at each evaluation as in main: 2 differences a triangle
#          and the 3-D place fewer. ptxas: 64 registers, 76 bytes spilled, stack 448.
# Then the mesh tests on the faster plane build (r, or s where it won), memcheck and racecheck.
cd "$(dirname "$0")"/../../..
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
D=docs/gpu-runs
rm -rf /tmp/p /tmp/q /tmp/r /tmp/s /tmp/bp /tmp/bq /tmp/br /tmp/bs && mkdir /tmp/p /tmp/q /tmp/r /tmp/s
for t in p q r s; do
  tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/$t
done
(cd /tmp/p && patch -p1 -s < $D/2026-12-07-mesh-search/run151-fan-vectors.patch) || exit 1
(cd /tmp/r && patch -p1 -s < $D/2026-12-08-mesh-plane/run152-plane-frame.patch) || exit 1
(cd /tmp/s && patch -p1 -s < $D/2026-12-08-mesh-plane/run152-plane-lean.patch) || exit 1
started=$(date +%s)
for t in p q r s; do
  (cmake -S /tmp/$t -B /tmp/b$t -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-$t.log 2>&1 &&
   ninja -j4 -C /tmp/b$t warpscope mesh_opt_cuda_test mesh_module_test > /tmp/build-$t.log 2>&1) &
done
wait
for t in p q r s; do
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
ms() { grep -h "^cuda" /tmp/k/3600000-$1.log | awk '{print $5}'; }  # ms a sweep
for round in 1 2; do
  bench r 3600000 plane$round; bench s 3600000 lean$round; bench p 3600000 vectors$round
  bench q 3600000 main$round
done
tar -czf $OUT/run152.tgz -C /tmp k
# The faster plane form (by round 2's figures) on, beside main.
w=r; name=plane
if awk -v a="$(ms lean2)" -v b="$(ms plane2)" 'BEGIN { exit !(a + 0 < b + 0) }'; then w=s; name=lean; fi
echo "on with $name (/tmp/b$w)"
bench $w 3600000 $name-first-fit "--set mesh.colouring=first-fit"
bench q 3600000 main-first-fit "--set mesh.colouring=first-fit"
bench $w 1000000 $name; bench q 1000000 main
bench $w 3600000 $name-double "--set mesh.precision=fp64"
bench q 3600000 main-double "--set mesh.precision=fp64"
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
