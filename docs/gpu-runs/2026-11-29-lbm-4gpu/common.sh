# Set-up shared by this folder's runs: the grid runs' (multicast off, OpenMPI as root), a build of
# the named targets into /tmp/b, and bench NAME RANKS [mpirun-options] -- warpscope-options.
. docs/gpu-runs/2026-11-29-lbm-grid/common.sh
build() {
  cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
  local start=$(date +%s)
  ninja -C /tmp/b "$@" > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
  echo "built $* in $(($(date +%s) - start)) s"
}
mkdir -p /tmp/j
bench() {
  local name=$1 n=$2
  shift 2
  local launcher=()
  while [ "$1" != "--" ]; do launcher+=("$1"); shift; done
  shift
  [ $n -gt 1 ] && launcher=(mpirun --oversubscribe -np $n "${launcher[@]}")
  timeout 150 "${launcher[@]}" $W bench --module lbm --backend cuda --set lbm.lattice=d3q19 --set lbm.tracers=0 \
    --samples 7 --steps-per-sample 20 "$@" --json /tmp/j/$name.json > /tmp/j/$name.log 2>&1 ||
    { echo "$name failed"; tail -3 /tmp/j/$name.log; return; }
  python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
print(sys.argv[2], r['size'], r['variant'], round(r['ms_per_step'], 3), 'ms', round(r['rate_per_second'] / 1e6), 'MLUPS')
for line in r['notes'].splitlines():
    if 'rank' in line or 'eq. 15.1' in line: print('   ', line)" /tmp/j/$name.json "$name"
}
