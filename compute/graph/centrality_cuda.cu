#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>
#include <numeric>
#include <random>
#include <utility>

#include "compute/core/cuda_check.h"
#include "compute/core/hd.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/graph/centrality_cuda.h"

namespace ws::graph {

namespace {

constexpr unsigned kBlock = 256;
// Forward levels launched between looks at how deep the batch got: a look costs a wait for the
// GPU; a level launched past the deepest one returns at once.
constexpr int kLevelsPerLook = 4;

// A vertex's state from one source, in one 32-byte sector: a thread that looks at a neighbour
// far away in memory (most arcs lead to one) fetches one sector for all of it, not one per array.
struct alignas(32) Record {
  double paths, dependency, suffixes;
  std::int32_t distance;
};
// The record and, for the level scans that read only distances (coalesced), a copy of those.
static_assert(CudaCentrality::kBytesPerSourceAndVertex == sizeof(Record) + 4);

// The arrays a batch's sweeps read and write. Source blockIdx.y of the batch owns the n entries
// from slot() on of the per-source arrays.
struct Sweep {
  const std::uint32_t *offset, *arcFrom, *arcTo, *arcEdge;
  const std::uint8_t* removed;  // per edge, or null
  const std::uint32_t* sources;
  std::uint32_t n;
  std::int32_t* distance;
  Record* record;
  double* edgeBetweenness;
  // The frontier mapping's: each arc's shares summed where the arc is (a warp's neighbouring arcs
  // share a sector or a few), folded into edgeBetweenness once a run (foldArcsKernel); else null.
  // Against an atomic at a random edge an arc, 7-9% faster on the 10^6-vertex scale-free graph and
  // 2.5% on the grid; the edge mapping 1-3% slower with it (H200, run 120, docs/performance.md).
  double* arcBetweenness;
  std::int32_t* levelReached;  // per level: some source of the batch reached a vertex there
  bool stress;                 // sum the suffixes (paths below each vertex) too

  __device__ std::size_t slot() const { return std::size_t(blockIdx.y) * n; }
};

// Forward, w reached from level d, its distance already read (farDistance): w is on level d + 1
// if it was unreached. Whether it is, and so takes the near end's paths. Several threads may
// reach w at once: they all write the same level.
__device__ bool claimNext(const Sweep& s, std::size_t b, std::uint32_t w, std::int32_t farDistance,
                          std::int32_t d) {
  if (farDistance >= 0) return farDistance == d + 1;
  s.record[b + w].distance = s.distance[b + w] = d + 1;
  // Read before writing: thousands of threads storing to one address queue up at the L2.
  if (!s.levelReached[d + 1]) s.levelReached[d + 1] = 1;
  return true;
}

// Forward, arc a = v -> w with v on level d.
__device__ void forwardArc(const Sweep& s, std::size_t b, std::uint32_t a, std::uint32_t v,
                           std::int32_t d) {
  if (s.removed && s.removed[s.arcEdge[a]]) return;
  const std::uint32_t w = s.arcTo[a];
  Record& far = s.record[b + w];
  if (claimNext(s, b, w, far.distance, d)) atomicAdd(&far.paths, s.record[b + v].paths);
}

// The shares that flow back along arc a from far to a vertex of `nearPaths` paths: of far's
// dependency (added to the arc's sum, the frontier mapping's, or to its edge's) and of its
// suffixes.
__device__ double2 sharesAlong(const Sweep& s, std::uint32_t a, double nearPaths,
                               const Record& far) {
  const double share = nearPaths / far.paths * (1 + far.dependency);
  if (s.arcBetweenness)
    atomicAdd(&s.arcBetweenness[a], share);
  else
    atomicAdd(&s.edgeBetweenness[s.arcEdge[a]], share);
  return {share, 1 + far.suffixes};
}

// Backward, arc a = v -> w with v on level d: w's dependency flows to v and to their edge.
// Returns v's shares (dependency, suffixes) from this arc. Only an arc to level d + 1 reads w's
// record: the others stop at its distance, 4 bytes of an array a source's scan reads over and
// over (4 MB at 10^6 vertices, small beside the L2) rather than a 32-byte record. The scale-free
// pass took 190-191 ms against 198-199 (H100, run 134); the same test forward was 1% slower.
__device__ double2 backwardArc(const Sweep& s, std::size_t b, std::uint32_t a, std::uint32_t v,
                               std::int32_t d) {
  if (s.removed && s.removed[s.arcEdge[a]]) return {0, 0};
  const std::uint32_t w = s.arcTo[a];
  if (s.distance[b + w] != d + 1) return {0, 0};
  const Record far = s.record[b + w];
  return sharesAlong(s, a, s.record[b + v].paths, far);
}

__global__ void startKernel(Sweep s) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= s.n) return;
  const std::size_t b = s.slot();
  const bool source = v == s.sources[blockIdx.y];
  s.distance[b + v] = source ? 0 : -1;
  s.record[b + v] = {source ? 1.0 : 0.0, 0, 0, source ? 0 : -1};
  if (source) s.levelReached[0] = 1;
}

__global__ void forwardNodes(Sweep s, std::int32_t d) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (!s.levelReached[d] || v >= s.n) return;
  const std::size_t b = s.slot();
  if (s.distance[b + v] != d) return;
  for (std::uint32_t a = s.offset[v]; a < s.offset[v + 1]; ++a) forwardArc(s, b, a, v, d);
}

__global__ void forwardArcs(Sweep s, std::size_t arcs, std::int32_t d) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (!s.levelReached[d] || a >= arcs) return;
  const std::size_t b = s.slot();
  const std::uint32_t v = s.arcFrom[a];
  if (s.distance[b + v] == d) forwardArc(s, b, std::uint32_t(a), v, d);
}

__global__ void backwardNodes(Sweep s, std::int32_t d) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= s.n) return;
  const std::size_t b = s.slot();
  if (s.distance[b + v] != d) return;
  double2 sum = {0, 0};
  for (std::uint32_t a = s.offset[v]; a < s.offset[v + 1]; ++a) {
    const double2 share = backwardArc(s, b, a, v, d);
    sum.x += share.x;
    sum.y += share.y;
  }
  s.record[b + v].dependency = sum.x;
  s.record[b + v].suffixes = sum.y;
}

// The shares of a warp's lanes summed over each run of equal keys (runs contiguous), by shuffles:
// whether this lane is its run's first, which then holds the run's sum. Every lane calls it.
template <typename Key>
__device__ bool sumRuns(double2& share, Key key) {
  constexpr unsigned kWarp = 0xffffffffu;
  const unsigned lane = threadIdx.x % 32;
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const double x = __shfl_down_sync(kWarp, share.x, offset);
    const double y = __shfl_down_sync(kWarp, share.y, offset);
    const Key other = __shfl_down_sync(kWarp, key, offset);
    if (lane + offset < 32 && other == key) share.x += x, share.y += y;
  }
  const Key before = __shfl_up_sync(kWarp, key, 1);
  return lane == 0 || before != key;
}

// Arcs in CSR order (`sorted`) sit next to the other arcs of their tail, so a warp first sums the
// shares of its arcs from one vertex (a segmented reduction by shuffles, keys contiguous) and
// the first of them adds the sum: one atomic per vertex and warp instead of one per arc. In the
// permuted order equal tails are not contiguous: one atomic per arc.
template <bool sorted>
__global__ void backwardArcs(Sweep s, std::size_t arcs, std::int32_t d) {
  constexpr unsigned kWarp = 0xffffffffu;
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t b = s.slot();
  const std::uint32_t v = a < arcs ? s.arcFrom[a] : UINT32_MAX;
  const bool onLevel = a < arcs && s.distance[b + v] == d;
  if (!__any_sync(kWarp, onLevel)) return;  // the whole warp: no shuffles are waiting
  double2 share = onLevel ? backwardArc(s, b, std::uint32_t(a), v, d) : double2{0, 0};
  bool first = true;
  if (sorted)
    first = sumRuns(share, v);  // every lane shuffles
  else if (!onLevel)
    return;
  if (!onLevel || !first || share.y == 0) return;  // not an arc to the next level
  atomicAdd(&s.record[b + v].dependency, share.x);
  if (s.stress) atomicAdd(&s.record[b + v].suffixes, share.y);
}

// ---- Beyond the chapter: each level's frontier, its arcs only -----------------------------------
// A level's frontier (the batch's vertices on it, every source's together) is a list of entries
// (source << 32 | vertex). The exclusive sums of their degrees give each arc of the level a
// thread, which finds its entry by a binary search within the range its block spans; a vertex
// reached for the first time (a compare-and-swap of its distance) is appended to the next level's
// list. Every level's list stays, one after another, for the backward sweep. So each arc is looked
// at once each way, where the edge-parallel kernel looks at every arc at every level: on a grid
// (thousands of levels, each a thin ring) many times less work. A level whose frontier holds most
// of the arcs (the middle levels of a scale-free graph) costs less as the edge-parallel kernel's
// scan, whose threads do less each (no search, no compare-and-swap): such a level runs that kernel
// and lists what it reached afterwards.
struct Frontier {
  std::uint64_t* entries;        // every level's, in order
  unsigned long long* arcStart;  // per entry: its first arc among its level's
  unsigned long long* tail;      // entries appended so far
};

__device__ std::uint64_t entryOf(std::uint32_t source, std::uint32_t v) {
  return (std::uint64_t(source) << 32) | v;
}

// Appends `entry` where `wanted`, a warp's appends by one atomic. Every lane of the warp calls it.
__device__ void append(const Frontier& f, bool wanted, std::uint64_t entry) {
  constexpr unsigned kWarp = 0xffffffffu;
  const unsigned appending = __ballot_sync(kWarp, wanted);
  if (!appending) return;
  const unsigned lane = threadIdx.x % 32, leader = __ffs(appending) - 1;
  unsigned long long first = 0;
  if (lane == leader) first = atomicAdd(f.tail, (unsigned long long)__popc(appending));
  first = __shfl_sync(kWarp, first, leader);
  if (wanted) f.entries[first + __popc(appending & ((1u << lane) - 1))] = entry;
}

__global__ void frontierSourcesKernel(Sweep s, Frontier f, std::uint32_t count) {
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) f.entries[k] = entryOf(k, s.sources[k]);
  if (k == 0) *f.tail = count;
}

// The degrees of the level's entries [begin, end) into arcStart, and 0 at `end`: summed in place
// (exclusive), they leave each entry's first arc, and the level's arcs at `end`.
__global__ void degreesKernel(Sweep s, Frontier f, std::uint64_t begin, std::uint64_t end) {
  const std::uint64_t i = begin + std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i > end) return;
  const std::uint32_t v = i < end ? std::uint32_t(f.entries[i]) : 0;
  f.arcStart[i] = i < end ? s.offset[v + 1] - s.offset[v] : 0;
}

// The entry (of [begin, end)) whose arcs hold the level's arc t, for the threads of a block whose
// arcs are [t0, t0 + blockDim.x): the first and the last thread bound the range, the others search
// within it. Every thread of the block calls it.
__device__ std::uint64_t entryOfArc(const Frontier& f, std::uint64_t begin, std::uint64_t end,
                                    unsigned long long t, unsigned long long t0,
                                    unsigned long long arcs) {
  __shared__ std::uint64_t range[2];
  const auto search = [&](std::uint64_t lo, std::uint64_t hi, unsigned long long x) {
    while (hi - lo > 1) {  // the last entry in [lo, hi) whose first arc is at most x
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (f.arcStart[mid] <= x)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  };
  if (threadIdx.x == 0) range[0] = search(begin, end, t0);
  if (threadIdx.x == blockDim.x - 1)
    range[1] = search(begin, end, min(t0 + blockDim.x - 1, arcs - 1)) + 1;
  __syncthreads();
  return search(range[0], range[1], min(t, arcs - 1));
}

// Forward over level d's `arcs` (its entries [begin, end)): as forwardArc, w claimed by a
// compare-and-swap so that one thread appends it.
__global__ void frontierForward(Sweep s, Frontier f, std::uint64_t begin, std::uint64_t end,
                                unsigned long long arcs, std::int32_t d) {
  const unsigned long long t0 = std::uint64_t(blockIdx.x) * blockDim.x, t = t0 + threadIdx.x;
  const std::uint64_t i = entryOfArc(f, begin, end, t, t0, arcs);
  const std::uint64_t entry = f.entries[i];
  const std::uint32_t v = std::uint32_t(entry), source = std::uint32_t(entry >> 32);
  const std::size_t b = std::size_t(source) * s.n;
  const std::uint32_t a = s.offset[v] + std::uint32_t(t - f.arcStart[i]);
  bool fresh = false;
  std::uint32_t w = 0;
  if (t < arcs && !(s.removed && s.removed[s.arcEdge[a]])) {
    w = s.arcTo[a];
    Record& far = s.record[b + w];
    const std::int32_t was = atomicCAS(&far.distance, -1, d + 1);
    if (was == -1) {
      s.distance[b + w] = d + 1;
      fresh = true;
      if (!s.levelReached[d + 1]) s.levelReached[d + 1] = 1;  // for the edge kernels' levels
    }
    if (was == -1 || was == d + 1) atomicAdd(&far.paths, s.record[b + v].paths);
  }
  append(f, fresh, entryOf(source, w));
}

// The frontier mapping's scans of every arc at a dense level, kArcsAThread arcs a thread (a
// block's arcs kArcsAThread runs of blockDim.x, each run coalesced). An arc's loads depend on one
// another (the arc's tail, its distance, the far end, its distance or record); the scans of one
// arc a thread spent most of their time waiting on them (run 136: 72-92% of the warps' cycles,
// at half the DRAM's rate or less), so each step of the chain is issued for all of a thread's
// arcs before any is waited on. On an H100 (runs 138-139 of 2026-12-06, docs/performance.md) the
// scale-free pass took 171.4-172.1 ms at 2 arcs a thread against 178.8-179.4 at one (alternately),
// 173-175 at 4 and 221 at 8; the grid 116.5 against 117.5.
constexpr int kArcsAThread = 2;

__device__ std::size_t stagedArc(int k) {
  return (std::size_t(blockIdx.x) * kArcsAThread + k) * blockDim.x + threadIdx.x;
}

// As forwardArcs, kArcsAThread arcs a thread.
__global__ void forwardArcsStaged(Sweep s, std::size_t arcs, std::int32_t d) {
  constexpr int K = kArcsAThread;
  if (!s.levelReached[d]) return;
  const std::size_t b = s.slot();
  std::uint32_t v[K], w[K];
  bool on[K];
  std::int32_t far[K];
  double paths[K];
  WS_UNROLL
  for (int k = 0; k < K; ++k) v[k] = stagedArc(k) < arcs ? s.arcFrom[stagedArc(k)] : 0;
  WS_UNROLL
  for (int k = 0; k < K; ++k) on[k] = stagedArc(k) < arcs && s.distance[b + v[k]] == d;
  WS_UNROLL
  for (int k = 0; k < K; ++k) {
    if (on[k] && s.removed && s.removed[s.arcEdge[stagedArc(k)]]) on[k] = false;
    w[k] = on[k] ? s.arcTo[stagedArc(k)] : 0;
  }
  WS_UNROLL
  for (int k = 0; k < K; ++k) {
    far[k] = on[k] ? s.record[b + w[k]].distance : 0;
    paths[k] = on[k] ? s.record[b + v[k]].paths : 0;
  }
  WS_UNROLL
  for (int k = 0; k < K; ++k) {
    if (on[k] && claimNext(s, b, w[k], far[k], d)) atomicAdd(&s.record[b + w[k]].paths, paths[k]);
  }
}

// As backwardArcs<true>, kArcsAThread arcs a thread: each of its runs of arcs summed by shuffles.
__global__ void backwardArcsStaged(Sweep s, std::size_t arcs, std::int32_t d) {
  constexpr int K = kArcsAThread;
  constexpr unsigned kWarp = 0xffffffffu;
  const std::size_t b = s.slot();
  std::uint32_t v[K], w[K];
  bool onLevel[K], next[K];
  Record far[K];
  double nearPaths[K];
  WS_UNROLL
  for (int k = 0; k < K; ++k) v[k] = stagedArc(k) < arcs ? s.arcFrom[stagedArc(k)] : UINT32_MAX;
  bool any = false;
  WS_UNROLL
  for (int k = 0; k < K; ++k) {
    onLevel[k] = stagedArc(k) < arcs && s.distance[b + v[k]] == d;
    any = any || onLevel[k];
  }
  if (!__any_sync(kWarp, any)) return;  // the whole warp: no shuffles are waiting
  // A removed arc adds nothing, but its lane may still be the first of its run: onLevel stays.
  WS_UNROLL
  for (int k = 0; k < K; ++k) {
    const bool kept = onLevel[k] && !(s.removed && s.removed[s.arcEdge[stagedArc(k)]]);
    w[k] = kept ? s.arcTo[stagedArc(k)] : 0;
    next[k] = kept;
  }
  WS_UNROLL
  for (int k = 0; k < K; ++k) next[k] = next[k] && s.distance[b + w[k]] == d + 1;  // backwardArc's
  WS_UNROLL
  for (int k = 0; k < K; ++k) {
    if (next[k]) far[k] = s.record[b + w[k]], nearPaths[k] = s.record[b + v[k]].paths;
  }
  WS_UNROLL
  for (int k = 0; k < K; ++k) {
    double2 share{0, 0};
    if (next[k]) share = sharesAlong(s, std::uint32_t(stagedArc(k)), nearPaths[k], far[k]);
    const bool first = sumRuns(share, v[k]);  // every lane shuffles
    if (!onLevel[k] || !first || share.y == 0) continue;
    atomicAdd(&s.record[b + v[k]].dependency, share.x);
    if (s.stress) atomicAdd(&s.record[b + v[k]].suffixes, share.y);
  }
}

// After a level run by forwardArcsStaged: the vertices it reached, the next level's list.
__global__ void listKernel(Sweep s, Frontier f, std::int32_t d) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  append(f, v < s.n && s.distance[s.slot() + v] == d + 1, entryOf(blockIdx.y, v));
}

// Forward over level d from below (Beamer's direction-optimizing search): each vertex the batch's
// source has not reached looks among its own arcs for parents on level d and takes the sum of
// their paths; if it found one, it is on level d + 1 and lists itself. Its thread alone writes
// it (no atomics), and only the unreached vertices' arcs are read, so a late level of a
// scale-free graph, where few vertices are left, costs a fraction of the scan of every arc.
__global__ void forwardFromBelow(Sweep s, Frontier f, std::int32_t d) {
  const std::uint32_t w = blockIdx.x * blockDim.x + threadIdx.x;
  const std::size_t b = s.slot();
  bool reached = false;
  if (w < s.n && s.distance[b + w] < 0) {
    double paths = 0;
    for (std::uint32_t a = s.offset[w]; a < s.offset[w + 1]; ++a) {
      if (s.removed && s.removed[s.arcEdge[a]]) continue;
      const std::uint32_t u = s.arcTo[a];
      if (s.distance[b + u] != d) continue;  // a vertex reached at d + 1 meanwhile reads d + 1
      paths += s.record[b + u].paths;
      reached = true;
    }
    if (reached) {
      Record& r = s.record[b + w];
      r.paths = paths;
      r.distance = s.distance[b + w] = d + 1;
      if (!s.levelReached[d + 1]) s.levelReached[d + 1] = 1;
    }
  }
  append(f, reached, entryOf(blockIdx.y, w));
}

// Backward over level d's `arcs`: a warp's arcs of one entry are contiguous, so their shares are
// summed by shuffles and the first adds them, as backwardArcs<true> does.
__global__ void frontierBackward(Sweep s, Frontier f, std::uint64_t begin, std::uint64_t end,
                                 unsigned long long arcs, std::int32_t d) {
  const unsigned long long t0 = std::uint64_t(blockIdx.x) * blockDim.x, t = t0 + threadIdx.x;
  const std::uint64_t i = entryOfArc(f, begin, end, t, t0, arcs);
  const std::uint64_t entry = t < arcs ? f.entries[i] : ~std::uint64_t(0);
  const std::uint32_t v = std::uint32_t(entry);
  const std::size_t b = std::size_t(entry >> 32) * s.n;
  double2 share{0, 0};
  if (t < arcs) share = backwardArc(s, b, s.offset[v] + std::uint32_t(t - f.arcStart[i]), v, d);
  const bool first = sumRuns(share, entry);
  if (t >= arcs || !first || share.y == 0) return;
  atomicAdd(&s.record[b + v].dependency, share.x);
  if (s.stress) atomicAdd(&s.record[b + v].suffixes, share.y);
}

// Backward over level d from above: the arcs of level d + 1's entries [begin, end) (`arcs` of
// them, few after a level forward from below), each w -> v with v on level d sending v its share
// of w's dependency. The threads of one w's arcs read the same record; each arc to level d adds
// by atomics (one w's arcs lead to different vertices), to its own sum of edge betweenness too:
// the folding adds both arcs of an edge into it.
__global__ void backwardFromAbove(Sweep s, Frontier f, std::uint64_t begin, std::uint64_t end,
                                  unsigned long long arcs, std::int32_t d) {
  const unsigned long long t0 = std::uint64_t(blockIdx.x) * blockDim.x, t = t0 + threadIdx.x;
  const std::uint64_t i = entryOfArc(f, begin, end, t, t0, arcs);
  if (t >= arcs) return;
  const std::uint64_t entry = f.entries[i];
  const std::uint32_t w = std::uint32_t(entry);
  const std::size_t b = std::size_t(entry >> 32) * s.n;
  const std::uint32_t a = s.offset[w] + std::uint32_t(t - f.arcStart[i]);
  if (s.removed && s.removed[s.arcEdge[a]]) return;
  const std::uint32_t v = s.arcTo[a];
  if (s.distance[b + v] != d) return;
  const Record far = s.record[b + w];
  Record& near = s.record[b + v];
  const double2 share = sharesAlong(s, a, near.paths, far);
  atomicAdd(&near.dependency, share.x);
  if (s.stress) atomicAdd(&near.suffixes, share.y);
}

// The pair sums scaled where they are: the same product as the CPU's scalePairSums, which with
// the closeness arrays took 13-26 ms of the host for the 1.2 x 10^7 sums of the 10^7-edge graph
// (H200's host, run 126).
__global__ void scaleKernel(double* sums, std::size_t n, double factor) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) sums[i] *= factor;
}

// The frontier mapping's sums per arc into their edges', once a run.
__global__ void foldArcsKernel(const std::uint32_t* arcEdge, const double* arcBetweenness,
                               std::size_t arcs, double* edgeBetweenness) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (a < arcs && arcBetweenness[a] != 0)
    atomicAdd(&edgeBetweenness[arcEdge[a]], arcBetweenness[a]);
}

// The batch's sweeps into the sums: betweenness and stress of every vertex from every source but
// itself, added in the batch's order (no atomics: the same sums every run).
__global__ void accumulateKernel(Sweep s, std::uint32_t count, double* betweenness,
                                 double* stress) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= s.n) return;
  double b = 0, st = 0;
  for (std::uint32_t k = 0; k < count; ++k) {
    const Record r = s.record[std::size_t(k) * s.n + v];
    if (r.distance <= 0) continue;  // unreached, or the source
    b += r.dependency;
    if (s.stress) st += r.paths * r.suffixes;
  }
  betweenness[v] += b;
  stress[v] += st;
}

// Per source of the batch (a block each): the sum of its distances and the largest, for closeness
// and graph centrality, at the source's place in the run's list (the batch's first at `first`).
__global__ void sourceKernel(Sweep s, std::size_t first, unsigned long long* distanceSum,
                             std::int32_t* eccentricity) {
  using Sum = cub::BlockReduce<unsigned long long, kBlock>;
  using Max = cub::BlockReduce<std::int32_t, kBlock>;
  __shared__ typename Sum::TempStorage sumStorage;
  __shared__ typename Max::TempStorage maxStorage;
  const std::size_t b = s.slot();
  unsigned long long sum = 0;
  std::int32_t deepest = 0;
  for (std::uint32_t v = threadIdx.x; v < s.n; v += kBlock) {
    const std::int32_t d = s.distance[b + v];
    if (d > 0) sum += unsigned(d);
    deepest = max(deepest, d);
  }
  sum = Sum(sumStorage).Sum(sum);
  deepest = Max(maxStorage).Reduce(deepest, cuda::maximum<>{});
  if (threadIdx.x == 0) {
    distanceSum[first + blockIdx.y] = sum;
    eccentricity[first + blockIdx.y] = deepest;
  }
}

// A frontier's arc against a scanned arc: what a thread of frontierForward or frontierBackward
// costs against an arc of forwardArcsStaged or backwardArcsStaged whose tail is off the level.
// A level whose frontier has more arcs than 1 / kFrontierArcCost of the scan's runs the scan.
// Calibrated against the scans of one arc a thread: on an H200
// (runs 114-115 of 2026-12-02, docs/performance.md), the 10^6-vertex scale-free graph took 413,
// 366, 330-350, 325, 327-360, 343-347 and 335 ms from 256 sources at 4, 8, 16, 24, 32, 48 and 64
// (the edge mapping 439-468); a small world and a planted partition within 6% at 16 and 32.
// With the scans of 4 arcs a thread (H100, run 138): 172.7-173.7 ms at 12, 16, 24, 32 and 48.
constexpr double kFrontierArcCost = 24;
// An unreached vertex's arc looked at from below (forwardFromBelow: its far end's distance read
// at random) against a scanned arc: a dense level forward goes from below when the arcs of the
// vertices still unreached, times this, are fewer than the scan's. On the H200 (run 127), the
// scale-free graph took 194-198 and 199 ms a pass at 4 and 2, 221 and 233 at 8 and 16, 259-263
// never from below; with the scans of 4 arcs a thread (H100, run 138) 173.3 and 173.7 at 2 and
// 4, 197.9 at 8.
constexpr double kFromBelowArcCost = 4;

struct FrontierSweep {
  std::uint64_t levels = 0, dense = 0;  // levels launched, of them scans of every arc
  std::uint64_t fromBelow = 0;          // dense levels forward that went from below instead
  std::uint64_t fromAbove = 0;          // dense levels backward from the next level's arcs
};

// A batch's forward and backward sweeps, a level at a time over its frontier or every arc.
FrontierSweep sweepByFrontier(const Sweep& s, const Frontier& f,
                              DeviceBuffer<std::uint8_t>& scratch, std::uint32_t count,
                              std::size_t arcs) {
  const auto read = [](const unsigned long long* at) {
    unsigned long long x = 0;
    WS_CUDA_CHECK(cudaMemcpy(&x, at, sizeof x, cudaMemcpyDeviceToHost));
    return x;
  };
  const dim3 everyArcStaged(blocksFor(arcs, kBlock * kArcsAThread), count),
      everyVertex(blocksFor(s.n, kBlock), count);
  const double scanned = double(arcs) * count;  // a scan's arcs, every source's
  const auto dense = [&](unsigned long long frontierArcs) {
    return double(frontierArcs) * kFrontierArcCost > scanned;
  };
  double reachedArcs = 0;  // the arcs of the vertices on the levels so far
  FrontierSweep done;
  recordedLaunch("frontierSourcesKernel", frontierSourcesKernel, blocksFor(count, kBlock), kBlock)(
      s, f, count);
  // Level d's entries are [bounds[d], bounds[d + 1]), its frontier's arcs levelArcs[d].
  std::vector<unsigned long long> bounds = {0, count}, levelArcs;
  for (std::int32_t d = 0; bounds[d + 1] > bounds[d]; ++d, ++done.levels) {
    const std::uint64_t begin = bounds[d], end = bounds[d + 1];
    recordedLaunch("degreesKernel", degreesKernel, blocksFor(end - begin + 1, kBlock), kBlock)(
        s, f, begin, end);
    std::size_t bytes = scratch.size();
    WS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, f.arcStart + begin,
                                                f.arcStart + begin, end - begin + 1));
    levelArcs.push_back(read(f.arcStart + end));
    reachedArcs += double(levelArcs.back());
    if (dense(levelArcs.back()) && (scanned - reachedArcs) * kFromBelowArcCost < scanned) {
      recordedLaunch("forwardFromBelow", forwardFromBelow, everyVertex, kBlock)(s, f, d);
      ++done.fromBelow;
    } else if (dense(levelArcs.back())) {
      recordedLaunch("forwardArcsStaged", forwardArcsStaged, everyArcStaged, kBlock)(s, arcs, d);
      recordedLaunch("listKernel", listKernel, everyVertex, kBlock)(s, f, d);
      ++done.dense;
    } else if (levelArcs.back()) {
      recordedLaunch("frontierForward", frontierForward, blocksFor(levelArcs.back(), kBlock),
                     kBlock)(s, f, begin, end, levelArcs.back(), d);
    }
    bounds.push_back(read(f.tail));
  }
  // Backward from the level before the deepest; a dense level whose next is thin goes from
  // above (the next level's arcs back to it: 11-12% off the scale-free pass, run 128).
  for (std::int32_t d = std::int32_t(levelArcs.size()) - 2; d >= 0; --d, ++done.levels) {
    if (dense(levelArcs[d]) && !dense(levelArcs[d + 1])) {
      recordedLaunch("backwardFromAbove", backwardFromAbove,
                     blocksFor(levelArcs[d + 1], kBlock), kBlock)(
          s, f, bounds[d + 1], bounds[d + 2], levelArcs[d + 1], d);
      ++done.fromAbove;
    } else if (dense(levelArcs[d])) {
      recordedLaunch("backwardArcsStaged", backwardArcsStaged, everyArcStaged, kBlock)(s, arcs, d);
      ++done.dense;
    } else if (levelArcs[d]) {
      recordedLaunch("frontierBackward", frontierBackward, blocksFor(levelArcs[d], kBlock), kBlock)(
          s, f, bounds[d], bounds[d + 1], levelArcs[d], d);
    }
  }
  return done;
}

}  // namespace

CudaCentrality::CudaCentrality(const Graph& g, std::uint64_t permutationSeed, double batchBytes)
    : CudaCentrality(g, std::make_unique<DeviceGraph>(g), nullptr, permutationSeed, batchBytes) {}

CudaCentrality::CudaCentrality(const Graph& g, const DeviceGraph& device,
                               std::uint64_t permutationSeed, double batchBytes)
    : CudaCentrality(g, nullptr, &device, permutationSeed, batchBytes) {}

CudaCentrality::CudaCentrality(const Graph& g, std::unique_ptr<DeviceGraph> owned,
                               const DeviceGraph* device, std::uint64_t permutationSeed,
                               double batchBytes)
    : owned_(std::move(owned)),
      graph_(device ? *device : *owned_),
      batch_(
          std::uint32_t(std::clamp(batchBytes / (CudaCentrality::kBytesPerSourceAndVertex *
                                                 std::max<std::uint32_t>(g.vertices, 1)),
                                   1.0, double(std::clamp<std::uint32_t>(g.vertices, 1, 65535))))),
      removed_(std::max<std::size_t>(g.edges(), 1)),
      batchSources_(batch_),
      distance_(std::size_t(batch_) * std::max<std::uint32_t>(g.vertices, 1)),
      levelReached_(std::size_t(g.vertices) + 2 * kLevelsPerLook + 1),
      records_(distance_.size() * sizeof(Record)),
      betweenness_(std::max<std::uint32_t>(g.vertices, 1)),
      stress_(std::max<std::uint32_t>(g.vertices, 1)),
      edgeBetweenness_(std::max<std::size_t>(g.edges(), 1)),
      distanceSum_(std::max<std::uint32_t>(g.vertices, 1)),
      eccentricity_(std::max<std::uint32_t>(g.vertices, 1)) {
  // The arcs in a random order, for the permuted mapping.
  const std::size_t arcs = g.arcs();
  std::vector<std::uint32_t> order(arcs);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(permutationSeed));
  std::vector<std::uint32_t> from(arcs), to(arcs), edge(arcs);
  for (std::size_t i = 0; i < arcs; ++i) {
    from[i] = g.arcFrom[order[i]];
    to[i] = g.arcTo[order[i]];
    edge[i] = g.arcEdge[order[i]];
  }
  permutedFrom_ = toDevice(from);
  permutedTo_ = toDevice(to);
  permutedEdge_ = toDevice(edge);
}

void CudaCentrality::run(Centrality& into, const std::vector<std::uint32_t>& sourceList,
                         Parallelism parallelism, const std::vector<std::uint8_t>& removed,
                         bool extrapolate, bool stress) {
  const std::uint32_t n = graph_.vertices;
  const std::size_t arcs = graph_.arcs;
  std::vector<std::uint32_t> sources = sourceList;
  if (sources.empty()) {
    sources.resize(n);
    std::iota(sources.begin(), sources.end(), 0u);
  }
  if (!removed.empty())
    WS_CUDA_CHECK(
        cudaMemcpy(removed_.data(), removed.data(), graph_.edges, cudaMemcpyHostToDevice));
  betweenness_.zero();
  stress_.zero();
  edgeBetweenness_.zero();
  if (distanceSum_.size() < sources.size()) {  // a list longer than the graph (sources repeated)
    distanceSum_.allocate(sources.size());
    eccentricity_.allocate(sources.size());
  }
  const bool permuted = parallelism == Parallelism::PermutedEdge;
  const bool byFrontier = parallelism == Parallelism::Frontier;
  const bool perArc = byFrontier && arcs;  // sums per arc, folded into the edges' at the end
  if (perArc) {
    if (arcBetweenness_.size() < arcs) arcBetweenness_.allocate(arcs);
    arcBetweenness_.zero();
  }
  const Sweep s = {graph_.offset.data(),
                   permuted ? permutedFrom_.data() : graph_.arcFrom.data(),
                   permuted ? permutedTo_.data() : graph_.arcTo.data(),
                   permuted ? permutedEdge_.data() : graph_.arcEdge.data(),
                   removed.empty() ? nullptr : removed_.data(),
                   batchSources_.data(),
                   n,
                   distance_.data(),
                   reinterpret_cast<Record*>(records_.data()),
                   edgeBetweenness_.data(),
                   perArc ? arcBetweenness_.data() : nullptr,
                   levelReached_.data(),
                   stress};
  const bool byNode = parallelism == Parallelism::Node;
  if (byFrontier) {
    const std::size_t capacity = std::size_t(batch_) * n + 1;  // every vertex once, and `end`
    if (frontierEntries_.size() < capacity) {
      frontierEntries_.allocate(capacity);
      frontierArcStart_.allocate(capacity);
      frontierTail_.allocate(1);
      std::size_t bytes = 0;
      WS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, frontierArcStart_.data(),
                                                  frontierArcStart_.data(), capacity));
      scanScratch_.allocate(std::max<std::size_t>(bytes, 1));
    }
  }
  const Frontier frontier{frontierEntries_.data(), frontierArcStart_.data(), frontierTail_.data()};
  const unsigned vertexBlocks = blocksFor(n, kBlock), arcBlocks = blocksFor(arcs, kBlock);
  levelLaunches_ = 0;
  denseLevels_ = 0;
  levelsFromBelow_ = 0;
  levelsFromAbove_ = 0;
  for (std::size_t first = 0; first < sources.size() && n > 0; first += batch_) {
    const auto count = std::uint32_t(std::min<std::size_t>(batch_, sources.size() - first));
    WS_CUDA_CHECK(cudaMemcpy(batchSources_.data(), sources.data() + first,
                             count * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    levelReached_.zero();
    recordedLaunch("startKernel", startKernel, dim3(vertexBlocks, count), kBlock)(s);
    if (byFrontier) {
      const FrontierSweep done = sweepByFrontier(s, frontier, scanScratch_, count, arcs);
      levelLaunches_ += done.levels;
      denseLevels_ += done.dense;
      levelsFromBelow_ += done.fromBelow;
      levelsFromAbove_ += done.fromAbove;
    } else {
      // Forward, a level a launch; every few levels, a look at how deep the sweeps got.
      std::int32_t deepest = 0;
      for (std::int32_t d = 0;; d += kLevelsPerLook) {
        for (std::int32_t level = d; level < d + kLevelsPerLook; ++level) {
          if (byNode)
            recordedLaunch("forwardNodes", forwardNodes, dim3(vertexBlocks, count), kBlock)(s,
                                                                                            level);
          else if (arcs)
            recordedLaunch("forwardArcs", forwardArcs, dim3(arcBlocks, count), kBlock)(s, arcs,
                                                                                       level);
        }
        levelLaunches_ += kLevelsPerLook;
        WS_CUDA_CHECK(cudaGetLastError());
        std::int32_t reached[kLevelsPerLook];  // levels d + 1 .. d + kLevelsPerLook
        WS_CUDA_CHECK(cudaMemcpy(reached, levelReached_.data() + d + 1, sizeof reached,
                                 cudaMemcpyDeviceToHost));
        deepest = d;
        for (int k = 0; k < kLevelsPerLook; ++k)
          if (reached[k]) deepest = d + 1 + k;
        if (deepest < d + kLevelsPerLook) break;
      }
      // Backward from the level before the deepest.
      for (std::int32_t d = deepest - 1; d >= 0; --d) {
        if (byNode)
          recordedLaunch("backwardNodes", backwardNodes, dim3(vertexBlocks, count), kBlock)(s, d);
        else if (arcs && permuted)
          recordedLaunch("backwardArcs<false>", backwardArcs<false>, dim3(arcBlocks, count),
                         kBlock)(s, arcs, d);
        else if (arcs)
          recordedLaunch("backwardArcs<true>", backwardArcs<true>, dim3(arcBlocks, count), kBlock)(
              s, arcs, d);
      }
      levelLaunches_ += std::uint64_t(std::max(deepest, 0));
    }
    recordedLaunch("accumulateKernel", accumulateKernel, vertexBlocks, kBlock)(
        s, count, betweenness_.data(), stress_.data());
    recordedLaunch("sourceKernel", sourceKernel, dim3(1, count), kBlock)(
        s, first, distanceSum_.data(), eccentricity_.data());
    WS_CUDA_CHECK(cudaGetLastError());
  }
  if (s.arcBetweenness)
    recordedLaunch("foldArcsKernel", foldArcsKernel, arcBlocks, kBlock)(
        s.arcEdge, s.arcBetweenness, arcs, edgeBetweenness_.data());
  const double scale = pairScale(n, sources.size(), extrapolate);
  const std::pair<DeviceBuffer<double>*, std::size_t> pairSums[] = {
      {&betweenness_, n}, {&stress_, n}, {&edgeBetweenness_, graph_.edges}};
  for (const auto& [sums, count] : pairSums)
    if (count)
      recordedLaunch("scaleKernel", scaleKernel, blocksFor(count, kBlock), kBlock)(sums->data(),
                                                                                 count, scale);
  copyToHost(distanceSum_.data(), sources.size(), hostDistanceSum_);  // each source's, in order
  copyToHost(eccentricity_.data(), sources.size(), hostEccentricity_);
  copyToHost(betweenness_.data(), n, into.betweenness);
  copyToHost(stress_.data(), n, into.stress);
  copyToHost(edgeBetweenness_.data(), graph_.edges, into.edgeBetweenness);
  into.closeness.assign(n, 0);
  into.graph.assign(n, 0);
  for (std::size_t k = 0; k < sources.size(); ++k) {
    const unsigned long long sum = hostDistanceSum_[k];
    const std::int32_t eccentricity = hostEccentricity_[k];
    into.closeness[sources[k]] = sum ? 1.0 / double(sum) : 0;
    into.graph[sources[k]] = eccentricity > 0 ? 1.0 / eccentricity : 0;
  }
  into.arcsTraversed = 0;  // counted on the CPU only
}

}  // namespace ws::graph
