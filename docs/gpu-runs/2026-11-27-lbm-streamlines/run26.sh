#!/bin/bash
# Issue 30, streamlines in the 3-D view: tests, sanitizers, frame times at 256^3, pictures.
cd "$(dirname "$0")"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
ninja -C /tmp/b warpscope tests/lbm_cuda_test tests/lbm_streamlines_test tests/lbm_surface_test tests/contract_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; git log --oneline -1
export OMP_NUM_THREADS=8
echo "== lbm_streamlines_test"; /tmp/b/tests/lbm_streamlines_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head -8
echo "== lbm_surface_test"; /tmp/b/tests/lbm_surface_test 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head -8
echo "== lbm_cuda_test"; /tmp/b/tests/lbm_cuda_test --gtest_filter=-*Dfg*:*Converges* 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|seed|apart" | head -40
echo "== contract"; /tmp/b/tests/contract_test --gtest_filter='*lbm*' 2>&1 | grep -E "^\[  (PASSED|FAILED) |Failure" | head
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do echo "== $tool"; WS_SANITIZER_RUN=1 $S --tool $tool --error-exitcode 9 /tmp/b/tests/lbm_cuda_test --gtest_filter='LbmCuda.Streamlines*' > /tmp/san-$tool.log 2>&1; echo "rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san-$tool.log | tr '\n' ' ')"; done
W=/tmp/b/warpscope
frames() {  # name, then options
  local name=$1; shift
  $W --headless --module lbm --window 1600x1000 --with-ui --report $OUT/$name.json "$@" > /tmp/$name.log 2>&1
  echo "$name: rc $? $(python3 -c "import json;r=json.load(open('$OUT/$name.json'));print(r['world'],r['frames'],'frames, median',round(r['frame_ms_median'],2),'ms, p95',round(r['frame_ms_p95'],2),'ms,',r['field_transfer'])" 2>&1)"
  grep -E "isosurface|streamlines|stream-collide|warning" /tmp/$name.log | head -5
}
C="--set lbm.lattice=d3q19 --set lbm.scene=cavity --size 256x256x256 --set lbm.reynolds=1000 --steps-per-frame 1 --steps 300"
echo "== frames"
frames cavity256-speed-none $C --set lbm.display=isosurface --set lbm.streamlines=0
frames cavity256-speed-256 $C --set lbm.display=isosurface
frames cavity256-speed-1024 $C --set lbm.display=isosurface --set lbm.streamlines=1024 --set lbm.stream_length=2
frames cavity256-only-4096 $C --set lbm.display=isosurface --set lbm.iso_quantity=none --set lbm.streamlines=4096
echo "== pictures"
$W --headless --module lbm --window 1600x1000 --with-ui --set lbm.lattice=d3q19 --set lbm.scene=cavity --size 256x256x256 \
  --set lbm.reynolds=1000 --set lbm.display=isosurface --set lbm.iso_quantity=none --set lbm.streamlines=400 --set lbm.stream_length=3 \
  --steps 6000 --steps-per-frame 100 --screenshot $OUT/lbm-cavity-256-streamlines.png 2>&1 | grep -E "streamlines|warning" | head -3
$W --headless --preset assets/presets/lbm-obstacle-3d.json --window 1600x1000 --with-ui --set lbm.stream_seeds=inlet \
  --steps 9000 --steps-per-frame 150 --screenshot $OUT/lbm-obstacle-3d-streamlines.png --report $OUT/obstacle.json 2>&1 | grep -E "streamlines|isosurface|warning" | head -4
