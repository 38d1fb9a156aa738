#!/usr/bin/env bash
# On the GPU machine: build, run every test (CUDA ones included), the CUDA tests under
# compute-sanitizer (memcheck, racecheck), the benchmark and headless frame timings. Results go to
# $OUT (logs, JSON, PNG). Usage: scripts/gpu_check.sh [build] [test] [sanitize] [bench] [frames]
# [lbm-bench] [lbm-frames] [voxhash] [mesh] (bench and frames are Life's; voxhash: its CUDA tests
# under compute-sanitizer, the hash lab's benchmarks for both insertions and the intersection's,
# headless frames of the voxels and of a table; mesh: likewise for the mesh module, at the issue's
# 1 and 3.6 million vertices; mesh-profile: Nsight Compute on its Nelder-Mead kernel; graph: the
# graph module's CUDA tests under compute-sanitizer, its benchmarks (TEPS of the three mappings,
# Girvan-Newman removals, Louvain) and headless frames; sessions-sanitize: the session tests under
# compute-sanitizer; sessions: 1920x1080 frame times with and without video recording, and the speed of
# a headless replay into a video); teaching: the reduction lab's and launch readouts' tests, under
# compute-sanitizer too, the lab's benchmarks, the race demonstration, and frames of its views and
# readouts; compare: the Compare section's tests (compare-sanitize: under compute-sanitizer too),
# A/B runs of CUDA against the CPU, rooflines at sizes past the L2, scaling sweeps, and frames;
# toggles: Life's concept toggles (thread mapping, the race, register pressure) and interop
# against read-back, with their tests (toggles-sanitize: under compute-sanitizer too); models: the
# graph's, mesh's and voxel module's roofline points, scaling sweeps and the FP64 peak, and
# Nelder-Mead's divergence toggle, with their tests (models-sanitize: under compute-sanitizer too);
# mpi: the LBM lattice split over ranks on the GPU (issue 33): its tests, under compute-sanitizer
# too, mpirun with 2 ranks sharing the GPU against 1 byte for byte (and under memcheck); mpi-bench:
# the benchmark of 1 rank against 2 with the halo overlapped and not; mpi-scale (several GPUs,
# issue 35): weak and strong scaling, a rank a GPU. OpenMPI comes from .devdeps,
# staged with ../shared/gpu/stage-debs.sh and the packages the README (Several processes) lists).
set -uo pipefail
OUT=${OUT:-/tmp/warpscope-gpu}
BUILD=${BUILD:-/tmp/ws-build}
mkdir -p "$OUT"
stages=${*:-build test sanitize bench frames lbm-bench lbm-frames}
has() { [[ " $stages " == *" $1 "* ]]; }
status=0
# glvnd finds the NVIDIA EGL driver through its vendor file; unpacked libraries may not know where.
for vendor in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json; do
  [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
done

# Each named test under compute-sanitizer's memcheck and racecheck, a log per run and a summary line.
sanitize() {
  for test in "$@"; do
    for tool in memcheck racecheck; do
      WS_SANITIZER_RUN=1 timeout ${SANITIZE_TIMEOUT:-1800} compute-sanitizer --tool $tool --error-exitcode 99 \
        "$BUILD/tests/$test" > "$OUT/sanitizer-$test-$tool.log" 2>&1
      echo "compute-sanitizer $tool $test: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$OUT/sanitizer-$test-$tool.log" | tr '\n' ' ')"
    done
  done
}

# Debian's OpenMPI unpacked with dpkg -x has no alternatives links: name its programs plainly.
for program in mpirun mpiexec mpicc mpicxx; do
  if [ -x "/usr/bin/$program.openmpi" ] && ! command -v "$program" > /dev/null; then
    ln -s "/usr/bin/$program.openmpi" "/usr/bin/$program"
  fi
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Where the machine has a newer libpmix of its own, ldconfig links Debian's OpenMPI to it, and
# mpirun crashes in PMIx's default process-map encoding (pmix_preg_base_generate_ppn): use the
# plain one.
export PMIX_MCA_preg=${PMIX_MCA_preg:-native}

if has build; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$OUT/gpu.txt"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
  grep "CUDA architectures" "$OUT/configure.log"
  # TARGETS (optional): build only these, to save the machine's minutes.
  ninja -C "$BUILD" ${TARGETS:-} > "$OUT/build.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
  echo "build ok"
fi
if has test; then
  # 8 tests at once, 2 OpenMP threads each: more threads than cores makes OpenMP spin for minutes.
  (cd "$BUILD" && OMP_NUM_THREADS=2 ctest -j8 --output-on-failure > "$OUT/ctest.log" 2>&1) || status=1
  grep -E "tests passed|Failed|\*\*\*|Skipped" "$OUT/ctest.log" | head -20
fi
if has sanitize; then
  sanitize life_cuda_test lbm_cuda_test
  compute-sanitizer --tool memcheck --error-exitcode 99 "$BUILD/tests/render_test" > "$OUT/sanitizer-render.log" 2>&1
  echo "compute-sanitizer memcheck render_test: exit $?"
fi
if has bench; then
  "$BUILD/warpscope" bench --size 32768 --steps-per-sample 24 --json "$OUT/bench-life-32768.json" | tee "$OUT/bench.txt"
  for rows in 4 16; do
    "$BUILD/warpscope" bench --size 32768 --steps-per-sample 24 --variant bitpacked \
      --set life.rows_per_thread=$rows --json "$OUT/bench-rows-$rows.json" | grep -E "^cuda"
  done
  for gens in 2 8; do
    "$BUILD/warpscope" bench --size 32768 --steps-per-sample 24 --variant temporal \
      --set life.generations_per_pass=$gens --json "$OUT/bench-gens-$gens.json" | grep -E "^cuda"
  done
  for block in 32x8 16x16 128x2; do
    "$BUILD/warpscope" bench --size 32768 --steps-per-sample 24 --variant flat multicell \
      --set life.block=$block --json "$OUT/bench-block-$block.json" | grep -E "^cuda"
  done
  "$BUILD/warpscope" bench --backend cpu --size 8192 --samples 5 --steps-per-sample 4 --json "$OUT/bench-cpu-8192.json" | grep -E "^cpu"
  "$BUILD/warpscope" bench --size 65536 --steps-per-sample 24 --variant bitpacked temporal --json "$OUT/bench-life-65536.json" | grep -E "^cuda"
fi
if has voxhash; then
  sanitize cuckoo_cuda_test voxhash_cuda_test voxhash_module_test
  for size in 2^25 2^20; do
    for insertion in exchange look; do
      "$BUILD/warpscope" bench --module voxhash --size $size --steps-per-sample 5 \
        --set voxhash.insertion=$insertion --json "$OUT/bench-voxhash-${size/^/p}-$insertion.json" |
        tee "$OUT/bench-voxhash-${size/^/p}-$insertion.txt"
    done
  done
  for size in 256 512 1024; do
    "$BUILD/warpscope" bench --module voxhash --size $size^3 --steps-per-sample 5 --samples 9 \
      --json "$OUT/bench-intersection-$size.json" | tee "$OUT/bench-intersection-$size.txt"
  done
  # The issue's frame: two models of about a million voxels each (spheres of radius 1 at 1024^3).
  "$BUILD/warpscope" bench --module voxhash --size 1024^3 --set voxhash.model_b=sphere \
    --set voxhash.size_b=1 --steps-per-sample 5 --samples 9 \
    --json "$OUT/bench-intersection-1m.json" | tee "$OUT/bench-intersection-1m.txt"
  # Shipped meshes: the gear through the spring.
  "$BUILD/warpscope" bench --module voxhash --size 512^3 --variant cuckoo --set voxhash.model_a=gear \
    --set voxhash.model_b=spring --set voxhash.size_b=0.8 --steps-per-sample 5 --samples 9 \
    --json "$OUT/bench-intersection-mesh.json" | tee "$OUT/bench-intersection-mesh.txt"
  "$BUILD/warpscope" --headless --module voxhash --size 256^3 --steps 120 --window 1280x720 \
    --frames "$OUT/voxhash-frames" --frame-every 60 --with-ui | tail -3
  "$BUILD/warpscope" --headless --module voxhash --size 1024^3 --set voxhash.view=table-a \
    --steps 30 --window 1280x720 --with-ui --screenshot "$OUT/voxhash-table.png" | tail -3
  "$BUILD/warpscope" --headless --module voxhash --size 512^3 --set voxhash.model_a=gear \
    --set voxhash.model_b=spring --set voxhash.size_b=0.8 --set voxhash.path=pass-through \
    --steps 200 --window 1600x1000 --with-ui --screenshot "$OUT/voxhash-mesh.png" | tail -3
fi
if has mesh; then
  sanitize mesh_opt_cuda_test mesh_module_test
  # The issue's sizes: tori of about 1 and 3.6 million vertices (the chapter's Dragon: 3,609,600).
  for size in 1000000 3600000; do
    "$BUILD/warpscope" bench --module mesh --size $size --set mesh.mesh=torus --steps-per-sample 2 \
      --samples 9 --json "$OUT/bench-mesh-$size.json" | tee "$OUT/bench-mesh-$size.txt"
    "$BUILD/warpscope" bench --module mesh --size $size --set mesh.mesh=torus --variant nelder-mead \
      --set mesh.colouring=first-fit --steps-per-sample 2 --samples 5 \
      --json "$OUT/bench-mesh-$size-first-fit.json" | grep -E "^cuda|colouring"
  done
  for block in 32 128 256; do
    "$BUILD/warpscope" bench --module mesh --size 3600000 --set mesh.mesh=torus --variant nelder-mead \
      --set mesh.block=$block --steps-per-sample 2 --samples 5 \
      --json "$OUT/bench-mesh-block-$block.json" | grep -E "^cuda"
  done
  "$BUILD/warpscope" bench --module mesh --size 1000000 --set mesh.mesh=torus --variant nelder-mead \
    --set mesh.precision=fp64 --steps-per-sample 2 --samples 5 \
    --json "$OUT/bench-mesh-1000000-fp64.json" | grep -E "^cuda"
  # Every search made to its 40 iterations (the issue's target counts 40 each).
  "$BUILD/warpscope" bench --module mesh --size 1000000 --set mesh.mesh=torus --variant nelder-mead \
    --set mesh.tolerance=1e-9 --steps-per-sample 2 --samples 5 \
    --json "$OUT/bench-mesh-1000000-40-iterations.json" | grep -E "^cuda"
  # Without projection onto the input surface (what it costs).
  "$BUILD/warpscope" bench --module mesh --size 1000000 --set mesh.mesh=torus --variant nelder-mead \
    --set mesh.project=false --steps-per-sample 2 --samples 5 \
    --json "$OUT/bench-mesh-1000000-no-projection.json" | grep -E "^cuda"
  "$BUILD/warpscope" bench --module mesh --backend cpu --size 1000000 --set mesh.mesh=torus \
    --variant nelder-mead --samples 3 --steps-per-sample 1 --json "$OUT/bench-mesh-cpu.json" | tee "$OUT/bench-mesh-cpu.txt"
  # The first sweeps of a fresh 3.6M mesh, one per frame, drawn at full HD through interop.
  "$BUILD/warpscope" --headless --module mesh --size 3600000 --set mesh.mesh=torus --steps 12 \
    --window 1920x1080 --with-ui --report "$OUT/frame-mesh-3.6m.json" --screenshot "$OUT/mesh-3.6m.png" | tail -12
  "$BUILD/warpscope" --headless --module mesh --steps 30 --window 1600x1000 --with-ui \
    --screenshot "$OUT/mesh-sphere.png" | tail -3
  "$BUILD/warpscope" --headless --module mesh --set mesh.mesh=part --size 20000 \
    --set mesh.colour_by="colour class" --steps 20 --window 1600x1000 --with-ui \
    --screenshot "$OUT/mesh-part-classes.png" | tail -3
fi
if has models; then
  for t in compare_test mesh_opt_cuda_test; do
    GTEST_FILTER='Roofline.*:*PerBranch*' "$BUILD/tests/$t" > "$OUT/models-$t.log" 2>&1
    echo "$t: exit $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)|flop/s' "$OUT/models-$t.log" | tr '\n' ' ')"
  done
  has models-sanitize && GTEST_FILTER='Roofline.*:*PerBranch*' SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-240} \
    sanitize mesh_opt_cuda_test compare_test
  echo "-- divergence: Nelder-Mead's textbook branches against one evaluation, 1M-vertex torus"
  for precision in fp32 fp64; do
    for branch in false true; do
      "$BUILD/warpscope" bench --module mesh --size 1000000 --set mesh.mesh=torus --variant nelder-mead \
        --set mesh.precision=$precision --set mesh.per_branch=$branch --steps-per-sample 2 --samples 5 \
        --json "$OUT/bench-mesh-branch-$precision-$branch.json" | grep -E "^cuda"
    done
  done
  for branch in false true; do
    "$BUILD/warpscope" bench --module mesh --backend cpu --size 100000 --set mesh.mesh=torus \
      --variant nelder-mead --set mesh.per_branch=$branch --samples 3 --steps-per-sample 1 \
      --json "$OUT/bench-mesh-branch-cpu-$branch.json" | grep -E "^cpu"
  done
  echo "-- rooflines of the graph, mesh and voxel modules"
  "$BUILD/warpscope" --headless --module mesh --size 1000000 --set mesh.mesh=torus --roofline --steps 4 \
    --window 1600x900 --screenshot "$OUT/roofline-mesh.png" | grep -E "roofline on|of its roof"
  "$BUILD/warpscope" --headless --module mesh --size 1000000 --set mesh.mesh=torus --set mesh.precision=fp64 \
    --roofline --steps 4 --window 1600x900 | grep -E "of its roof"
  "$BUILD/warpscope" --headless --module graph --size 1000000 --set graph.graph=barabasi-albert \
    --set graph.degree=20 --set graph.step=centrality --set graph.sources=64 --set graph.layout=false \
    --roofline --steps 2 --window 1600x900 --screenshot "$OUT/roofline-graph.png" | grep -E "of its roof"
  "$BUILD/warpscope" --headless --module voxhash --set voxhash.workload="random keys" --size 2^25 \
    --roofline --steps 4 --window 1600x900 --screenshot "$OUT/roofline-voxhash.png" | grep -E "of its roof"
  echo "-- scaling sweeps of the graph, mesh and voxel modules"
  "$BUILD/warpscope" --headless --module mesh --sweep --steps 2 --window 1600x900 | grep -E "^sweep"
  "$BUILD/warpscope" --headless --module graph --set graph.step=centrality --set graph.sources=16 \
    --set graph.layout=false --set graph.graph=barabasi-albert --sweep --steps 2 --window 1600x900 | grep -E "^sweep"
  "$BUILD/warpscope" --headless --module voxhash --set voxhash.workload="random keys" --sweep --steps 2 \
    --window 1600x900 --screenshot "$OUT/sweep-voxhash.png" | grep -E "^sweep"
fi
if has mesh-profile; then
  # Nsight Compute on one sweep of the Nelder-Mead kernel at 1M vertices (after the warm-up's 6
  # sweeps of 7 classes each), a launch per colour class.
  ncu --kernel-name regex:optimizeClassKernel --launch-skip 42 --launch-count 7 \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis \
    "$BUILD/warpscope" bench --module mesh --size 1000000 --set mesh.mesh=torus --variant nelder-mead \
    --steps-per-sample 1 --samples 3 --json /tmp/ncu-bench.json > "$OUT/ncu-mesh.txt" 2>&1
  echo "ncu: exit $?"
  grep -E "^  void|Duration|Grid Size|Achieved Occupancy|Active Threads Per Warp|Executed Instructions  " "$OUT/ncu-mesh.txt"
fi
if has frames; then
  # The interactive budget: a 4096^2 grid, one generation per frame, full HD, with and without panels.
  "$BUILD/warpscope" --headless --size 4096 --steps 600 --window 1920x1080 --report "$OUT/frame-4096.json" | tee "$OUT/frame-4096.txt"
  "$BUILD/warpscope" --headless --size 4096 --steps 600 --window 1920x1080 --with-ui --report "$OUT/frame-4096-ui.json" | tee "$OUT/frame-4096-ui.txt"
  "$BUILD/warpscope" --headless --size 4096 --steps 600 --window 1920x1080 --variant multicell --report "$OUT/frame-4096-multicell.json" | tail -2
  # Pictures to look at: the README's screenshot, and a glider gun zoomed in.
  "$BUILD/warpscope" --headless --preset assets/presets/life-big-soup.json --variant temporal --steps 240 \
    --steps-per-frame 24 --window 1600x1000 --with-ui --screenshot "$OUT/screenshot.png" | tail -4
  "$BUILD/warpscope" --headless --preset assets/presets/life-gosper-gun.json --steps 300 --steps-per-frame 5 \
    --window 800x500 --frames "$OUT/gun" --frame-every 20 | tail -2
fi
if has mpi; then
  "$BUILD/warpscope" --version > /dev/null 2>&1
  grep -E "MPI" "$OUT/configure.log" | head -3
  mpirun --oversubscribe -np 2 hostname > "$OUT/mpi-start.log" 2>&1
  echo "mpirun starts: exit $?"
  (cd "$BUILD" && ctest -R "LbmSplit|LbmMpi|LbmCuda" --output-on-failure > "$OUT/ctest-mpi.log" 2>&1) || status=1
  grep -E "tests passed|Failed|Skipped" "$OUT/ctest-mpi.log" | head -10
  WS_SANITIZER_RUN=1 compute-sanitizer --tool memcheck --error-exitcode 99 "$BUILD/tests/lbm_split_test" \
    --gtest_filter='*OnTheGpu*' > "$OUT/sanitizer-lbm_split_test-memcheck.log" 2>&1
  echo "compute-sanitizer memcheck lbm_split_test (GPU): exit $?"
  # The flow of 2 ranks sharing the GPU against 1, byte for byte, in 2-D and 3-D, the halo from GPU
  # to GPU (CUDA IPC, the default) and through the host.
  split_run() {  # name ranks sanitizer options...
    local name=$1 ranks=$2 tool=$3
    shift 3
    local dir="$OUT/mpi-$name-$ranks$tool"
    mkdir -p "$dir"
    local wrap=""
    [ -n "$tool" ] && wrap="compute-sanitizer --tool $tool --error-exitcode 99"
    timeout ${MPI_TIMEOUT:-120} mpirun --oversubscribe -np "$ranks" $wrap "$BUILD/warpscope" --headless --backend cuda --module lbm \
      --window 320x200 "$@" --action "export VTI" --output-dir "$dir" > "$dir.log" 2>&1
    echo "$name over $ranks ranks${tool:+ under $tool}: exit $?, $(grep -o 'split over [0-9]* ranks along [xyz]' "$dir.log" | head -1)"
  }
  # (LbmMpi.OnTheGpu* runs three more: the cylinder split along y and x, the cavity along z.)
  for case in "cylinder --size 512x256 --steps 101" \
              "channel3d-y --preset lbm-obstacle-3d --size 96x48x48 --steps 30 --variant ab-soa-fp16 --set lbm.split_axis=y"; do
    set -- $case
    name=$1
    shift
    split_run "$name" 1 "" "$@"
    split_run "$name" 2 "" "$@"
    split_run "$name-host" 2 "" "$@" --set lbm.split_peer=false
    for two in "$name-2" "$name-host-2"; do
      if cmp -s "$OUT/mpi-$name-1"/*.vti "$OUT/mpi-$two"/*.vti; then echo "  $two: 2 ranks write 1 rank's VTI byte for byte"; else echo "  $two: VTI DIFFERS"; status=1; fi
    done
  done
  split_run cylinder 2 memcheck --size 256x128 --steps 21
  split_run cylinder-host 2 memcheck --size 256x128 --steps 21 --set lbm.split_peer=false
  split_run cavity3d 2 memcheck --preset lbm-cavity-3d --size 32 --steps 9
fi
if has mpi-bench; then
  # The overhead of splitting: 1 rank against 2 sharing the GPU, the halo overlapped and not.
  # No tracers: each sample would gather the whole plane shown for them, which is not the step.
  for lattice in ${MPI_LATTICES:-d2q9 d3q19}; do
    size=$([ $lattice = d2q9 ] && echo 8192x4096 || echo 256x256x256)
    for variant in ${MPI_VARIANTS:-aa-soa-fp32 aa-soa-fp16}; do
      common="--module lbm --size $size --set lbm.lattice=$lattice --set lbm.tracers=0 --variant $variant --steps-per-sample 20"
      "$BUILD/warpscope" bench $common --json "$OUT/bench-mpi-1-$lattice-$variant.json" | grep -E "^cuda"
      for overlap in true false; do
        timeout ${MPI_TIMEOUT:-120} mpirun --oversubscribe -np 2 "$BUILD/warpscope" bench $common --set lbm.split_overlap=$overlap \
          --json "$OUT/bench-mpi-2-$lattice-$variant-$overlap.json" | grep -E "^cuda" | sed "s/^/2 ranks, overlap $overlap: /"
      done
    done
  done
fi
if has mpi-scale; then
  # Issue 35, on a machine of several GPUs, one rank a GPU (each takes the GPU of its rank on the
  # host): weak scaling, a 512x512x128 (SCALE_WEAK_CELLS) D3Q19 lattice a GPU, the lattice growing
  # along the axis it is split on; strong scaling, 512^3 (SCALE_STRONG_SIZE) over more and more
  # GPUs, the halo exchange hidden and not. SCALE_COUNTS, SCALE_AXES, SCALE_VARIANTS pick what runs;
  # one rank runs once whatever the axis; SCALE_MPIRUN adds options to mpirun (--bind-to none);
  # SCALE_STRONG_SIZE=none skips strong scaling, SCALE_STRONG_VARIANT picks its variant;
  # SCALE_OPTIONS adds options to warpscope (--set lbm.split_peer=false: halos through the host).
  gpus=$(nvidia-smi -L | grep -c "^GPU")
  counts=${SCALE_COUNTS:-$(for n in 1 2 4 8; do [ $n -le $gpus ] && echo -n "$n "; done)}
  weak=${SCALE_WEAK_CELLS:-512x512x128}
  IFS=x read -r wx wy wz <<< "$weak"
  scale_run() {  # json label ranks warpscope-options...
    local json=$1 label=$2 n=$3
    shift 3
    timeout ${MPI_TIMEOUT:-120} mpirun ${SCALE_MPIRUN:-} -np $n "$BUILD/warpscope" bench --module lbm \
      --set lbm.lattice=d3q19 --set lbm.tracers=0 --samples ${SCALE_SAMPLES:-7} --steps-per-sample 20 \
      "$@" ${SCALE_OPTIONS:-} --json "$OUT/$json.json" > "$OUT/$json.log" 2>&1
    grep -E "^cuda|set-up|error|warpscope:" "$OUT/$json.log" | sed "s/^/$label: /"
  }
  for n in $counts; do
    for axis in ${SCALE_AXES:-z y}; do
      case $axis in
        x) size=$((wx * n))x${wy}x$wz ;;
        y) size=${wx}x$((wy * n))x$wz ;;
        z) size=${wx}x${wy}x$((wz * n)) ;;
      esac
      for variant in ${SCALE_VARIANTS:-aa-soa-fp32 aa-soa-fp16 ab-soa-fp32}; do
        scale_run scale-weak-$weak-$n-$axis-$variant "weak $weak, $n GPUs, $size split along $axis" $n \
          --size $size --set lbm.split_axis=$axis --variant $variant
      done
      [ $n = 1 ] && break
    done
  done
  strong=${SCALE_STRONG_SIZE:-512x512x512}
  [ "$strong" = none ] && counts=""
  for n in $counts; do
    for overlap in true false; do
      scale_run scale-strong-$strong-$n-$overlap "strong $strong, $n GPUs, overlap $overlap" $n \
        --size $strong --set lbm.split_axis=z --set lbm.split_overlap=$overlap --variant ${SCALE_STRONG_VARIANT:-aa-soa-fp32}
      [ $n = 1 ] && break
    done
  done
  nvidia-smi topo -m > "$OUT/topology.txt" 2>&1
fi
if has lbm-bench; then
  # Every storage variant on both lattices at the issue's sizes, then block sizes of the fast one.
  "$BUILD/warpscope" bench --module lbm --size 8192x8192 --steps-per-sample 20 \
    --json "$OUT/bench-lbm-d2q9-8192.json" | tee "$OUT/bench-lbm-d2q9.txt"
  "$BUILD/warpscope" bench --module lbm --size 256x256x256 --set lbm.lattice=d3q19 --steps-per-sample 20 \
    --json "$OUT/bench-lbm-d3q19-256.json" | tee "$OUT/bench-lbm-d3q19.txt"
  for block in 64 128 512 1024; do
    "$BUILD/warpscope" bench --module lbm --size 8192x8192 --steps-per-sample 20 --variant aa-soa-fp32 aa-soa-fp16 \
      --set lbm.block=$block --json "$OUT/bench-lbm-d2q9-block-$block.json" | grep -E "^cuda"
    "$BUILD/warpscope" bench --module lbm --size 256x256x256 --steps-per-sample 20 \
      --variant aa-soa-fp32 aa-soa-fp16 --set lbm.lattice=d3q19 lbm.block=$block --json "$OUT/bench-lbm-d3q19-block-$block.json" | grep -E "^cuda"
  done
  "$BUILD/warpscope" bench --module lbm --backend cpu --size 1024x1024 --samples 5 --steps-per-sample 4 \
    --json "$OUT/bench-lbm-cpu.json" | grep -E "^cpu"
fi
if has lbm-frames; then
  # The interactive budget: 2048 x 1024 D2Q9, 20 steps per frame, full HD with the panels.
  "$BUILD/warpscope" --headless --module lbm --preset assets/presets/lbm-cylinder.json --steps 6000 \
    --steps-per-frame 20 --window 1920x1080 --with-ui --report "$OUT/frame-lbm-2048.json" | tee "$OUT/frame-lbm-2048.txt"
  # Pictures: the vortex street once shedding has started, and the 3-D cavity's middle slice.
  "$BUILD/warpscope" --headless --module lbm --preset assets/presets/lbm-cylinder.json --steps 40000 \
    --steps-per-frame 200 --window 1600x900 --with-ui --screenshot "$OUT/lbm-cylinder.png" | tail -4
  "$BUILD/warpscope" --headless --module lbm --preset assets/presets/lbm-cavity-3d.json --steps 6000 \
    --steps-per-frame 100 --window 1200x900 --with-ui --screenshot "$OUT/lbm-cavity-3d.png" | tail -4
fi
if has graph; then
  # TEPS: Barabasi-Albert, 1 million vertices, 10 edges a new vertex (about 10 million edges),
  # 256 sampled sources; then the 1000 x 1000 grid from 16 sources.
  "$BUILD/warpscope" bench --module graph --size 1000000 --set graph.graph=barabasi-albert \
    --set graph.degree=20 --set graph.step=centrality --set graph.sources=256 --set graph.layout=false \
    --samples 5 --steps-per-sample 1 --json "$OUT/bench-graph-ba.json" | tee "$OUT/bench-graph-ba.txt"
  "$BUILD/warpscope" bench --module graph --size 1000000 --set graph.graph=grid \
    --set graph.step=centrality --set graph.sources=16 --set graph.layout=false \
    --samples 3 --steps-per-sample 1 --json "$OUT/bench-graph-grid.json" | tee "$OUT/bench-graph-grid.txt"
  # Girvan-Newman: a planted partition of 1,000 vertices and about 5,000 edges, one removal and a
  # recomputation a step, layout on (as it animates).
  "$BUILD/warpscope" bench --module graph --size 1000 --set graph.degree=10 --samples 9 \
    --steps-per-sample 10 --json "$OUT/bench-graph-gn.json" | tee "$OUT/bench-graph-gn.txt"
  "$BUILD/warpscope" bench --module graph --backend cpu --size 1000 --set graph.degree=10 --samples 5 \
    --steps-per-sample 10 --json "$OUT/bench-graph-gn-cpu.json" | grep -E "^cpu"
  # Louvain on the 10-million-edge graph.
  "$BUILD/warpscope" bench --module graph --size 1000000 --set graph.graph=barabasi-albert \
    --set graph.degree=20 --set graph.step=louvain --set graph.layout=false --variant edge \
    --samples 5 --steps-per-sample 1 --json "$OUT/bench-graph-louvain.json" | tee "$OUT/bench-graph-louvain.txt"
  "$BUILD/warpscope" bench --module graph --size 1000000 --set graph.graph=barabasi-albert \
    --set graph.degree=20 --set graph.step=layout --variant edge --samples 5 --steps-per-sample 1 \
    --json "$OUT/bench-graph-layout.json" | grep -E "^cuda"
  # Frames: the karate club and a planted partition as they split, and a 100,000-vertex graph.
  "$BUILD/warpscope" --headless --module graph --set graph.graph=karate --steps 60 \
    --set graph.layout_steps=10 --window 1280x800 --with-ui --screenshot "$OUT/graph-karate.png" | tail -4
  "$BUILD/warpscope" --headless --module graph --size 1000 --steps 600 --window 1600x1000 --with-ui \
    --report "$OUT/frame-graph-gn.json" --screenshot "$OUT/graph-planted.png" | tail -6
  "$BUILD/warpscope" --headless --module graph --size 100000 --set graph.graph=planted \
    --set graph.groups=50 --set graph.method=louvain --steps 400 --window 1920x1080 --with-ui \
    --report "$OUT/frame-graph-100k.json" --screenshot "$OUT/graph-100k.png" | tail -6
  SANITIZE_TIMEOUT=200 sanitize graph_module_test
  # racecheck is slow on the many-source tests; the kernels with shared memory (CUB's block
  # reductions, sorts and scans) run in these.
  compute-sanitizer --tool memcheck --error-exitcode 99 "$BUILD/tests/graph_cuda_test" > "$OUT/sanitizer-graph_cuda_test-memcheck.log" 2>&1
  echo "compute-sanitizer memcheck graph_cuda_test: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer-graph_cuda_test-memcheck.log")"
  timeout 300 compute-sanitizer --tool racecheck --error-exitcode 99 "$BUILD/tests/graph_cuda_test" \
    --gtest_filter='*LargeGrids*:*Components*:*Layout*:*Louvain*' > "$OUT/sanitizer-graph_cuda_test-racecheck.log" 2>&1
  echo "compute-sanitizer racecheck graph_cuda_test (LargeGrids, Components, Layout, Louvain): exit $? $(grep -E 'RACECHECK SUMMARY' "$OUT/sanitizer-graph_cuda_test-racecheck.log")"
fi
if has sessions-sanitize; then
  SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-600} sanitize session_test
fi
if has sessions; then
  echo "ffmpeg: $(command -v ffmpeg || echo none)"
  # Without ffmpeg here, a stand-in that swallows the frames measures everything up to the
  # encoder (read-back, queue, pipe); the PNG fallback is measured too.
  ffmpeg=$(command -v ffmpeg || { printf '#!/bin/sh\nexec cat > /dev/null\n' > /tmp/ffmpeg-sink; chmod +x /tmp/ffmpeg-sink; echo /tmp/ffmpeg-sink; })
  for run in "life --size 8192" "lbm --size 2048x1024" "graph --size 1000"; do
    name=${run%% *}
    common="--headless --module $run --window 1920x1080 --with-ui"
    # Unpaced (as fast as frames go), then paced at 60 frames per second as a display would.
    for pace in fast realtime; do
      flag=$([ $pace = realtime ] && echo --realtime)
      "$BUILD/warpscope" $common --steps 900 $flag --report "$OUT/rec-$name-$pace-off.json" | grep -E "frame time"
      WARPSCOPE_FFMPEG=$ffmpeg "$BUILD/warpscope" $common --steps 900 $flag --video "$OUT/rec-$name.mp4" \
        --report "$OUT/rec-$name-$pace-video.json" | grep -E "frame time|warning|read-back"
    done
    WARPSCOPE_FFMPEG= "$BUILD/warpscope" $common --steps 300 --realtime --video /tmp/rec-$name-png.mp4 \
      --report "$OUT/rec-$name-png.json" | grep -E "frame time|warning" | cut -c1-160
    "$BUILD/warpscope" $common --steps 900 --record-session "/tmp/session-$name.json" > /dev/null
    start=$(date +%s%N)
    WARPSCOPE_FFMPEG=$ffmpeg "$BUILD/warpscope" replay "/tmp/session-$name.json" --with-ui \
      --size 1920x1080 --video /tmp/replay-$name.mp4 --report "$OUT/replay-$name.json" | grep -E "frame time|replay of"
    echo "replay $name: 900 frames in $(( ($(date +%s%N) - start) / 1000000 )) ms (with start-up)"
  done
  rm -f "$OUT"/session-*.start.wsckpt "$OUT"/*.mp4
fi
if has teaching; then
  for t in reduce_test launch_readout_test; do
    "$BUILD/tests/$t" > "$OUT/$t.log" 2>&1; echo "$t: exit $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$OUT/$t.log" | tr '\n' ' ')"
  done
  has teaching-sanitize && SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-600} sanitize reduce_test
  for size in 22 28; do
    for op in reduce "inclusive scan"; do
      tag=$([ "$op" = reduce ] && echo reduce || echo scan)
      "$BUILD/warpscope" bench --module reduce --size $((1 << size)) --samples 30 --steps-per-sample 10 \
        --set "reduce.operation=$op" --json "$OUT/bench-reduce-$tag-$size.json" | grep -E "^(cuda|measured)"
    done
  done
  for extra in "reduce.block=1024" "reduce.operation=exclusive scan" "reduce.max_value=1"; do
    echo "-- $extra"
    "$BUILD/warpscope" bench --module reduce --size $((1 << 22)) --samples 30 --steps-per-sample 10 --set "$extra" \
      --variant $([ "$extra" = "reduce.max_value=1" ] && echo ballot cub || echo all) | grep -E "^cuda"
  done
  "$BUILD/warpscope" bench --module reduce --size $((1 << 22)) --samples 30 --steps-per-sample 10 --variant blelloch \
    --set "reduce.operation=exclusive scan" --set reduce.padding=true --set reduce.block=256 | grep -E "^cuda"
  "$BUILD/warpscope" bench --module reduce --size $((1 << 22)) --samples 30 --steps-per-sample 10 --variant blelloch \
    --set "reduce.operation=exclusive scan" --set reduce.block=256 | grep -E "^cuda"
  echo "-- race demonstration (no barrier), 5 runs of 2^22 at blocks of 1024:"
  "$BUILD/warpscope" --headless --module reduce --variant sequential --set reduce.block=1024 \
    --set reduce.remove_barrier=true --steps 5 --window 640x360 | grep -E "mismatches|result|expected"
  for view in threads banks; do
    "$BUILD/warpscope" --headless --module reduce --variant strided --set reduce.view=$view \
      --steps 20 --window 1600x900 --with-ui --screenshot "$OUT/reduce-$view.png" | tail -1
  done
fi
if has compare; then
  "$BUILD/tests/compare_test" > "$OUT/compare_test.log" 2>&1
  echo "compare_test: exit $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)|flop/s' "$OUT/compare_test.log" | tr '\n' ' ')"
  has compare-sanitize && SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-300} sanitize compare_test
  echo "-- A/B"
  "$BUILD/warpscope" --headless --module life --variant temporal --compare cpu:bitpacked --size 2048 \
    --steps 64 --steps-per-frame 8 --window 1600x900 --with-ui --screenshot "$OUT/ab-life.png" | grep -E "A/B|step \(|B step"
  "$BUILD/warpscope" --headless --module lbm --compare cpu --size 512x256 --steps 200 --steps-per-frame 20 \
    --window 1600x900 | grep -E "A/B|stream-collide"
  "$BUILD/warpscope" --headless --module lbm --variant ab-soa-fp32 --compare ab-soa-fp16 --size 512x256 --steps 200 \
    --steps-per-frame 20 --window 1600x900 | grep -E "A/B"
  echo "-- rooflines (past the L2)"
  "$BUILD/warpscope" --headless --module life --size 16384 --roofline --steps 24 --steps-per-frame 8 \
    --window 1600x900 --screenshot "$OUT/roofline-life.png" | grep -E "roofline|of its roof"
  "$BUILD/warpscope" --headless --module lbm --size 4096x2048 --roofline --steps 20 --window 1600x900 | grep -E "of its roof|roofline on"
  "$BUILD/warpscope" --headless --module lbm --set lbm.lattice=d3q19 --size 256x256x128 --roofline --steps 10 \
    --window 1600x900 | grep -E "of its roof"
  "$BUILD/warpscope" --headless --module reduce --size $((1 << 28)) --roofline --steps 10 --window 1600x900 | grep -E "of its roof"
  echo "-- scaling sweeps"
  "$BUILD/warpscope" --headless --module life --variant bitpacked --sweep --steps 4 --window 1600x900 \
    --screenshot "$OUT/sweep-life.png" | grep -E "^sweep"
  "$BUILD/warpscope" --headless --module lbm --sweep --steps 4 --window 1600x900 | grep -E "^sweep"
  "$BUILD/warpscope" --headless --module reduce --variant shuffle --sweep --steps 4 --window 1600x900 | grep -E "^sweep"
fi
if has toggles; then
  for t in life_cuda_test launch_readout_test compare_test; do
    "$BUILD/tests/$t" > "$OUT/$t.log" 2>&1; echo "$t: exit $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$OUT/$t.log" | tr '\n' ' ')"
  done
  has toggles-sanitize && SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-240} sanitize launch_readout_test life_cuda_test
  echo "-- coalescing: (1) with threads along rows, then down columns, 16384^2"
  for mapping in row-major column-major; do
    "$BUILD/warpscope" bench --size 16384 --variant global --samples 10 --steps-per-sample 10 \
      --set life.mapping=$mapping --json "$OUT/bench-mapping-$mapping.json" | grep -E "^cuda"
  done
  echo "-- the race: (2) without its barrier beside the CPU, 2048^2"
  "$BUILD/warpscope" --headless --module life --variant shared --set life.remove_barrier=true --compare cpu \
    --size 2048 --steps 10 --window 1600x900 --with-ui --screenshot "$OUT/ab-race.png" | grep -E "A/B|launch"
  echo "-- register pressure: (7) at 4 and 8 generations per pass, B36/S23 (the rule-table path), 16384^2"
  for gens in 4 8; do
    "$BUILD/warpscope" bench --size 16384 --variant temporal --samples 10 --steps-per-sample 24 --set life.rule=B36/S23 \
      --set life.generations_per_pass=$gens --json "$OUT/bench-temporal-$gens.json" | grep -E "^cuda"
    "$BUILD/warpscope" --headless --module life --variant temporal --set life.rule=B36/S23 \
      --set life.generations_per_pass=$gens --size 4096 --steps 16 --steps-per-frame 8 --window 640x360 | grep launch
  done
  echo "-- launch readouts of every Life kernel, 4096^2"
  for v in global shared aligned flat multicell bitpacked temporal; do
    "$BUILD/warpscope" --headless --module life --variant $v --size 4096 --steps 8 --steps-per-frame 8 --window 640x360 | grep launch
  done
  echo "-- host-device traffic: interop against read-back and upload, 1920x1080 frames"
  for flag in "" --no-interop; do
    "$BUILD/warpscope" --headless --module life --size 8192 --steps 120 --window 1920x1080 $flag | grep -E "frame time|field via"
    "$BUILD/warpscope" --headless --module lbm --size 2048x1024 --steps 1200 --steps-per-frame 10 --window 1920x1080 $flag | grep -E "frame time|field via"
  done
fi
exit $status
