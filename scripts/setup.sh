#!/usr/bin/env bash
# One-step set-up for a fresh Debian 12 or Ubuntu 24.04 machine, with or without the CUDA toolkit
# (without it, the CPU backend alone is built): installs the missing packages (apt-get; sudo when
# not root), builds into build/, then
#   scripts/setup.sh gui  [warpscope options]   launches the GUI (Game of Life by default)
#   scripts/setup.sh test                       runs every test (GPU tests skip without a GPU)
#   scripts/setup.sh sanitize                   builds with ASan + UBSan into build-sanitize/ and
#                                               runs the CPU, GUI and monkey tests under them
#   scripts/setup.sh package                    builds a .deb into build-package/ and checks it
# WARPSCOPE_CUDA=OFF builds without CUDA where the toolkit is installed (see below).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-gui}
shift || true

packages=(build-essential cmake ninja-build pkg-config
          libglfw3-dev libepoxy-dev libimgui-dev libglm-dev libstb-dev nlohmann-json3-dev
          libcli11-dev libgtest-dev googletest libegl-dev libgl-dev
          libegl-mesa0 libgl1-mesa-dri xvfb xdotool ffmpeg fonts-dejavu-core
          libopenmpi-dev openmpi-bin)
# The .deb's dependencies are read from the program's libraries by dpkg-shlibdeps (dpkg-dev, with
# build-essential), through CPack, which needs `file` to find them.
if [ "$mode" = package ]; then packages+=(file); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "warpscope: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The CUDA toolkit (nvcc, CUB/Thrust) comes from NVIDIA's packages or the distribution's. Without
# it the CPU backend alone is built. WARPSCOPE_CUDA=OFF builds without it even where it is installed
# (AUTO, the default: where nvcc is found; ON: required).
cuda=${WARPSCOPE_CUDA:-AUTO}
if [ "$cuda" != OFF ]; then
  if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
  if ! command -v nvcc >/dev/null; then
    echo "warpscope: no CUDA toolkit (nvcc) here: building the CPU backend only. For the GPU" \
         "backend install NVIDIA's cuda-toolkit (or Debian's nvidia-cuda-toolkit, in non-free) and" \
         "run this again."
  fi
fi

# The sanitizer stage: host code built with AddressSanitizer and UndefinedBehaviorSanitizer, and
# every test that runs without a GPU under them (the CUDA tests skip; compute-sanitizer checks
# the kernels on a GPU machine). Any report fails the test that made it. The walk of every widget
# runs for one module here and the monkey makes 100 events a seed instead of 200 (the Release stage
# runs them all), to keep CI within its time. The flows checked against published results over
# thousands of steps run in the Release stage only: the DFG benchmark's convergence (LbmDfg.*,
# 50,000 steps of two lattices: past 15 minutes under the sanitizers on CI's two cores), the
# cavity against Ghia, the cylinder's wake and its shedding period (2 to 5 minutes each). What they
# run (curved walls, moving walls, inlets and outlets, forces, probes, wake metrics) is run here by
# the smaller LbmVariants, LbmBoundaries, LbmCurvedWalls, LbmForces and GuiPanels tests.
sanitize() {
  cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DWARPSCOPE_SANITIZE=address,undefined -DWARPSCOPE_CUDA="$cuda"
  cmake --build build-sanitize
  cd build-sanitize
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  local asan="protect_shadow_gap=0:abort_on_error=1:detect_stack_use_after_return=0"
  local gui='^Gui'
  local skip="$gui|^LbmDfg\\.|^LbmPhysics\\.(LidDrivenCavity|CylinderWake)|^LbmForces\\.TheLiftAndAWakeProbe"
  # Leaks counted, except that Mesa's software driver is kept loaded: it is unloaded at exit with
  # allocations of its own still held, which LeakSanitizer could no longer place.
  local mesa=/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so
  if [ -e "$mesa" ]; then
    LD_PRELOAD="$(gcc -print-file-name=libasan.so):$mesa" ASAN_OPTIONS="$asan:detect_leaks=1" \
      ctest --output-on-failure -j"$(nproc)" --timeout 2400 -E "$skip"
  else
    ASAN_OPTIONS="$asan:detect_leaks=1" ctest --output-on-failure -j"$(nproc)" --timeout 2400 -E "$skip"
  fi
  # The window under Xvfb: memory errors and undefined behaviour abort it, but leaks are not
  # counted. Mesa's GLX libraries leave allocations behind at exit from code unloaded by then,
  # with no frame LeakSanitizer can name or suppress.
  ASAN_OPTIONS="$asan:detect_leaks=0" WARPSCOPE_MONKEY_EVENTS=100 ctest --output-on-failure -j"$(nproc)" --timeout 2400 \
    -R "$gui" -E 'EveryWidget.*/(lbm|voxhash|mesh|graph|reduce) '
  ASAN_OPTIONS="$asan:detect_leaks=1" fuzz
}

# Every reader of a user's file fuzzed for a fixed time, from its corpus in tests/fuzz/ and a new
# seed (printed: the same seed mutates the same way), a target a core at a time. An input that
# crashes, trips a sanitizer, runs past 60 s or takes over 2 GB fails the stage; it is saved in
# build-sanitize/fuzz-findings/ and quoted in the log (tests/fuzz/README.md).
fuzz() {
  local seconds=${WARPSCOPE_FUZZ_SECONDS:-45} seed=${WARPSCOPE_FUZZ_SEED:-$(date +%s)}
  local corpus=../tests/fuzz
  echo "warpscope: fuzzing each reader for ${seconds} s, seed $seed"
  mkdir -p fuzz-findings
  export seconds seed corpus
  printf '%s\n' rle obj ply off edgelist mtx preset session checkpoint settings |
    xargs -P "$(nproc)" -I{} sh -c 'tests/fuzz/ws_fuzz --target={} -max_total_time=$seconds \
      -seed=$seed -timeout=60 -rss_limit_mb=2048 -dict=$corpus/dict/{}.dict \
      -artifact_prefix=fuzz-findings/{}- $corpus/corpus/{} > fuzz-findings/{}.log 2>&1;
      rc=$?; echo "{}: $(tail -n 1 fuzz-findings/{}.log)"; exit $((rc != 0))' || {
    echo "warpscope: fuzzing found a problem; the inputs are in build-sanitize/fuzz-findings/" >&2
    grep -h "ws_fuzz" fuzz-findings/*.log | head -n 40 >&2
    return 1
  }
}

# The .deb (cmake/Packaging.cmake): built from a Release build of its own, then checked: the files
# it installs, the dependencies it declares, and that apt can install it here (simulated).
package() {
  local started
  started=$(date +%s)
  cmake -S . -B build-package -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
        -DWARPSCOPE_CUDA="$cuda"
  cmake --build build-package
  echo "warpscope: configured and built build-package/ in $(($(date +%s) - started)) s on $(nproc) cores"
  (cd build-package && cpack -G DEB)
  local deb
  deb=$(ls build-package/warpscope_*.deb)
  dpkg-deb --info "$deb"
  local files
  files=$(dpkg-deb --contents "$deb")
  for f in ./usr/bin/warpscope ./usr/share/warpscope/assets/presets/lbm-cylinder.json \
           ./usr/share/applications/warpscope.desktop \
           ./usr/share/icons/hicolor/scalable/apps/warpscope.svg ./usr/share/doc/warpscope/README.md; do
    grep -q " $f\$" <<< "$files" || { echo "warpscope: $deb lacks $f" >&2; return 1; }
  done
  local depends
  depends=$(dpkg-deb --field "$deb" Depends)
  for d in libglfw3 libepoxy0 libegl1 libgomp1 fonts-dejavu-core; do
    grep -q "$d" <<< "$depends" || { echo "warpscope: $deb does not depend on $d" >&2; return 1; }
  done
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get install --simulate --no-install-recommends "./$deb" > build-package/apt-simulate.log
  echo "warpscope: $deb: $(wc -l <<< "$files") files, Depends: $depends"
}

if [ "$mode" = sanitize ]; then sanitize; exit; fi
if [ "$mode" = package ]; then package; exit; fi

started=$(date +%s)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPSCOPE_CUDA="$cuda"
cmake --build build
echo "warpscope: configured and built build/ in $(($(date +%s) - started)) s on $(nproc) cores"

case "$mode" in
  gui) exec ./build/warpscope "$@" ;;
  test)
    if ! nvidia-smi -L >/dev/null 2>&1; then
      echo "warpscope: no NVIDIA GPU or driver here: the CUDA tests will report 'Skipped' (each gives"
      echo "its reason with ctest -V); CPU, OpenGL (llvmpipe) and GUI (Xvfb) tests run."
    fi
    cd build && exec ctest --output-on-failure -j"$(nproc)" --timeout 1200 ;;
  *) echo "usage: scripts/setup.sh gui|test|sanitize|package" >&2; exit 2 ;;
esac
