#pragma once
// The Cahn-Hilliard kernels: one pass of ch_stencil.h's arithmetic over the grid, out = base +
// h f(in), with the stencil's values read in the source's four ways (A-D) and the fast path's.
// Each is compiled for 2-D and 3-D (D), and with the coefficients from the kernel's arguments or
// from __constant__ memory (kConst).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <type_traits>

#include "compute/cahn-hilliard/ch_parts.h"
#include "compute/cahn-hilliard/ch_stencil.h"
#include "compute/core/launch.cuh"

namespace ws::ch {

// The coefficients in constant memory, set before a step when kConst kernels run.
__constant__ Coefficients cCoefficients;

template <bool kConst>
__device__ __forceinline__ Coefficients coefficientsOf(const Coefficients& argument) {
  if constexpr (kConst)
    return cCoefficients;
  else
    return argument;
}

// The cell a thread of a one-cell-per-thread kernel updates (A, C): x along blockIdx.x, y along
// blockIdx.y, the plane along blockIdx.z.
struct ThreadCell {
  int x, y, z;
  __device__ ThreadCell()
      : x(blockIdx.x * blockDim.x + threadIdx.x),
        y(blockIdx.y * blockDim.y + threadIdx.y),
        z(blockIdx.z) {}
  __device__ bool inside(const Shape& s) const { return x < s.nx && y < s.ny && z < s.nz; }
};

// ---- A: global memory --------------------------------------------------------------------------

// The values around a cell, each loaded from global memory with the periodic wrap in code.
struct GlobalAt {
  const float* f;
  Shape s;
  int x, y, z;
  __device__ float operator()(int dx, int dy, int dz) const {
    return f[s.index(wrapIndex(x + dx, s.nx), wrapIndex(y + dy, s.ny), wrapIndex(z + dz, s.nz))];
  }
};

template <int D, bool kConst>
__global__ void globalKernel(const float* in, const float* base, float* out, Shape s, float h,
                             Coefficients argument) {
  const ThreadCell t;
  if (!t.inside(s)) return;
  const Coefficients k = coefficientsOf<kConst>(argument);
  const std::size_t n = s.index(t.x, t.y, t.z);
  out[n] = base[n] + h * rateAt<D>(GlobalAt{in, s, t.x, t.y, t.z}, k);
}

// ---- B and D: a block's values in shared memory -------------------------------------------------

// B's and D's blocks: 16x16 threads in 2-D, of which the inner 12x12 update a cell and a ring two
// threads wide only loads; in 3-D, 16x8x8 threads around 12x4x4.
template <int D>
struct HaloBlock {
  static constexpr int kX = 16, kY = D == 2 ? 16 : 8, kZ = D == 2 ? 1 : 8;
  static constexpr int kThreads = kX * kY * kZ;
  static constexpr int kInnerX = kX - 4, kInnerY = kY - 4, kInnerZ = D == 2 ? 1 : kZ - 4;
};

// The values around thread (tx, ty, tz)'s cell in the block's shared copy.
template <int D>
struct SharedAt {
  const float* tile;
  int tx, ty, tz;
  __device__ float operator()(int dx, int dy, int dz) const {
    using B = HaloBlock<D>;
    return tile[((tz + dz) * B::kY + (ty + dy)) * B::kX + (tx + dx)];
  }
};

// The cell thread (threadIdx) of a halo block loads: the block's inner box starts at
// blockIdx * inner, the ring two cells before it (wrapped by the caller).
template <int D>
struct HaloCell {
  int x, y, z;  // unwrapped
  bool updates;
  __device__ HaloCell() {
    using B = HaloBlock<D>;
    x = int(blockIdx.x) * B::kInnerX + int(threadIdx.x) - 2;
    y = int(blockIdx.y) * B::kInnerY + int(threadIdx.y) - 2;
    z = D == 2 ? 0 : int(blockIdx.z) * B::kInnerZ + int(threadIdx.z) - 2;
    const int tx = int(threadIdx.x), ty = int(threadIdx.y), tz = int(threadIdx.z);
    updates = tx >= 2 && tx < B::kX - 2 && ty >= 2 && ty < B::kY - 2 &&
              (D == 2 || (tz >= 2 && tz < B::kZ - 2));
  }
  // The cell held to the grid (the ring of the grid's first and last blocks wraps; a partial last
  // block's threads past the far edge load any cell, which no updating thread reads).
  __device__ int wrapped(int i, int n) const { return i < 0 ? i + n : (i >= n ? i % n : i); }
};

template <int D, bool kConst>
__global__ void __launch_bounds__(HaloBlock<D>::kThreads)
    sharedKernel(const float* in, const float* base, float* out, Shape s, float h,
                 Coefficients argument) {
  using B = HaloBlock<D>;
  __shared__ float tile[B::kThreads];
  const HaloCell<D> c;
  const int x = c.wrapped(c.x, s.nx), y = c.wrapped(c.y, s.ny), z = c.wrapped(c.z, s.nz);
  const int t = (int(threadIdx.z) * B::kY + int(threadIdx.y)) * B::kX + int(threadIdx.x);
  tile[t] = in[s.index(x, y, z)];
  __syncthreads();
  if (!c.updates || c.x >= s.nx || c.y >= s.ny || c.z >= s.nz) return;
  const Coefficients k = coefficientsOf<kConst>(argument);
  const std::size_t n = s.index(c.x, c.y, c.z);
  out[n] =
      base[n] +
      h * rateAt<D>(SharedAt<D>{tile, int(threadIdx.x), int(threadIdx.y), int(threadIdx.z)}, k);
}

// ---- C and D: the texture path ------------------------------------------------------------------

// Texture coordinates of a cell's centre: normalized, so that the hardware's wrap mode does the
// periodic boundary (the source's 8800 GTS got it wrong for sizes that are not powers of two).
struct TextureGrid {
  float sx, sy, sz;  // 1 / size along each axis
  __device__ float u(int x) const { return (float(x) + 0.5f) * sx; }
  __device__ float v(int y) const { return (float(y) + 0.5f) * sy; }
  __device__ float w(int z) const { return (float(z) + 0.5f) * sz; }
};

template <int D>
__device__ __forceinline__ float fetch(cudaTextureObject_t t, const TextureGrid& g, int x, int y,
                                       int z) {
  if constexpr (D == 2)
    return tex2D<float>(t, g.u(x), g.v(y));
  else
    return tex3D<float>(t, g.u(x), g.v(y), g.w(z));
}

template <int D>
__device__ __forceinline__ void store(cudaSurfaceObject_t s, float value, int x, int y, int z) {
  if constexpr (D == 2)
    surf2Dwrite(value, s, x * int(sizeof(float)), y);
  else
    surf3Dwrite(value, s, x * int(sizeof(float)), y, z);
}

template <int D>
struct TextureAt {
  cudaTextureObject_t t;
  TextureGrid g;
  int x, y, z;
  __device__ float operator()(int dx, int dy, int dz) const {
    return fetch<D>(t, g, x + dx, y + dy, z + dz);
  }
};

template <int D, bool kConst>
__global__ void textureKernel(cudaTextureObject_t in, cudaTextureObject_t base,
                              cudaSurfaceObject_t out, Shape s, TextureGrid g, float h,
                              Coefficients argument) {
  const ThreadCell t;
  if (!t.inside(s)) return;
  const Coefficients k = coefficientsOf<kConst>(argument);
  const float rate = rateAt<D>(TextureAt<D>{in, g, t.x, t.y, t.z}, k);
  store<D>(out, fetch<D>(base, g, t.x, t.y, t.z) + h * rate, t.x, t.y, t.z);
}

template <int D, bool kConst>
__global__ void __launch_bounds__(HaloBlock<D>::kThreads)
    textureSharedKernel(cudaTextureObject_t in, cudaTextureObject_t base, cudaSurfaceObject_t out,
                        Shape s, TextureGrid g, float h, Coefficients argument) {
  using B = HaloBlock<D>;
  __shared__ float tile[B::kThreads];
  const HaloCell<D> c;
  const int t = (int(threadIdx.z) * B::kY + int(threadIdx.y)) * B::kX + int(threadIdx.x);
  tile[t] = fetch<D>(in, g, c.x, c.y, c.z);  // the wrap is the texture's
  __syncthreads();
  if (!c.updates || c.x >= s.nx || c.y >= s.ny || c.z >= s.nz) return;
  const Coefficients k = coefficientsOf<kConst>(argument);
  const float rate =
      rateAt<D>(SharedAt<D>{tile, int(threadIdx.x), int(threadIdx.y), int(threadIdx.z)}, k);
  store<D>(out, fetch<D>(base, g, c.x, c.y, c.z) + h * rate, c.x, c.y, c.z);
}

// ---- The fast path: tiles loaded by all threads, mu once per cell ------------------------------

// A block of 256 threads updates a tile of TX x TY x TZ cells (several per thread). It loads the
// tile and a 2-cell halo into shared memory with every thread (no idle ring), computes mu once at
// every cell of the tile and a 1-cell halo (where A-D compute it five or seven times per cell),
// then each cell's rate from the mus.
template <int D>
struct Tile {
  static constexpr int kX = 32, kY = D == 2 ? 32 : 8, kZ = D == 2 ? 1 : 4;
  static constexpr int kThreads = 256;
  static constexpr int kPhiX = kX + 4, kPhiY = kY + 4, kPhiZ = D == 2 ? 1 : kZ + 4;
  static constexpr int kMuX = kX + 2, kMuY = kY + 2, kMuZ = D == 2 ? 1 : kZ + 2;
};

// i (from -2 to n + a tile) on the torus; past the far ring any cell (read by no one who counts).
__device__ __forceinline__ int tileWrap(int i, int n) {
  if (i < 0) return i + n;
  if (i >= n) i -= n;
  return i < n ? i : n - 1;
}

template <int D, bool kConst>
__global__ void __launch_bounds__(256) tiledKernel(const float* in, const float* base, float* out,
                                                   Shape s, float h, Coefficients argument) {
  using T = Tile<D>;
  __shared__ float phi[T::kPhiZ * T::kPhiY * T::kPhiX];
  __shared__ float mu[T::kMuZ * T::kMuY * T::kMuX];
  const int x0 = int(blockIdx.x) * T::kX, y0 = int(blockIdx.y) * T::kY,
            z0 = int(blockIdx.z) * T::kZ;
  const int thread = int(threadIdx.y) * blockDim.x + int(threadIdx.x);
  const int zRing = D == 2 ? 0 : 2;
  for (int i = thread; i < T::kPhiZ * T::kPhiY * T::kPhiX; i += T::kThreads) {
    const int lx = i % T::kPhiX, ly = i / T::kPhiX % T::kPhiY, lz = i / (T::kPhiX * T::kPhiY);
    const int x = tileWrap(x0 + lx - 2, s.nx), y = tileWrap(y0 + ly - 2, s.ny),
              z = D == 2 ? 0 : tileWrap(z0 + lz - zRing, s.nz);
    phi[i] = in[s.index(x, y, z)];
  }
  __syncthreads();
  const Coefficients k = coefficientsOf<kConst>(argument);
  const auto at = [&](int lx, int ly, int lz) { return phi[(lz * T::kPhiY + ly) * T::kPhiX + lx]; };
  for (int i = thread; i < T::kMuZ * T::kMuY * T::kMuX; i += T::kThreads) {
    const int mx = i % T::kMuX, my = i / T::kMuX % T::kMuY, mz = i / (T::kMuX * T::kMuY);
    const int lx = mx + 1, ly = my + 1, lz = D == 2 ? 0 : mz + 1;
    if constexpr (D == 2)
      mu[i] = chemicalPotential<2>(
          at(lx, ly, 0),
          neighbourSum(at(lx - 1, ly, 0), at(lx + 1, ly, 0), at(lx, ly - 1, 0), at(lx, ly + 1, 0)),
          k);
    else
      mu[i] = chemicalPotential<3>(
          at(lx, ly, lz),
          neighbourSum(at(lx - 1, ly, lz), at(lx + 1, ly, lz), at(lx, ly - 1, lz),
                       at(lx, ly + 1, lz), at(lx, ly, lz - 1), at(lx, ly, lz + 1)),
          k);
  }
  __syncthreads();
  const auto m = [&](int mx, int my, int mz) { return mu[(mz * T::kMuY + my) * T::kMuX + mx]; };
  for (int i = thread; i < T::kZ * T::kY * T::kX; i += T::kThreads) {
    const int ox = i % T::kX, oy = i / T::kX % T::kY, oz = i / (T::kX * T::kY);
    const int x = x0 + ox, y = y0 + oy, z = z0 + oz;
    if (x >= s.nx || y >= s.ny || z >= s.nz) continue;
    const int mx = ox + 1, my = oy + 1, mz = D == 2 ? 0 : oz + 1;
    float rate;
    if constexpr (D == 2)
      rate = rateFromPotentials<2>(
          m(mx, my, 0),
          neighbourSum(m(mx - 1, my, 0), m(mx + 1, my, 0), m(mx, my - 1, 0), m(mx, my + 1, 0)), k);
    else
      rate = rateFromPotentials<3>(
          m(mx, my, mz),
          neighbourSum(m(mx - 1, my, mz), m(mx + 1, my, mz), m(mx, my - 1, mz), m(mx, my + 1, mz),
                       m(mx, my, mz - 1), m(mx, my, mz + 1)),
          k);
    const std::size_t n = s.index(x, y, z);
    out[n] = base[n] + h * rate;
  }
}

// ---- The 2-D fast path: warps marching down columns, neighbours by shuffles -------------------

// A warp's 32 lanes hold 32 neighbouring columns and march down kShuffleRows rows of them, keeping
// the rows above and below in registers: each value is loaded from global memory once (and 14%
// more for the two-column halo on either side, which neighbouring warps load too, from the
// cache); a neighbour along the row comes from the next lane by a shuffle; mu is computed once a
// cell. Lanes 2 to 29 update (mu needs lanes 1 to 30, which need 0 to 31). No shared memory, no
// barrier. The rows are loaded kShuffleAhead at a time, before they are needed: a warp marching
// one load at a time would leave too few bytes in flight to cover the memory's latency (Little's
// law), and run at a third of the bandwidth.
constexpr int kShuffleColumns = 28, kShuffleRows = 64, kShuffleWarps = 4, kShuffleAhead = 8;

// A warp's march down its column from row y0 to end. Where its rows reach past the grid's top or
// bottom (kEdge) each row's offset wraps; elsewhere it steps by a row, and every batch is whole.
template <bool kConst, bool kSameBase, bool kEdge>
__device__ __forceinline__ void march2d(const float* in, const float* base, float* out,
                                        const Shape& s, float h, const Coefficients& k, int x,
                                        int column, bool writes, int y0, int end) {
  int loadRow = tileWrap(y0 - 2, s.ny);
  std::size_t loadAt = std::size_t(loadRow) * s.nx + column;
  const auto load = [&] {  // the next row's value in this column
    const float v = in[loadAt];
    if (kEdge && ++loadRow == s.ny)
      loadRow = 0, loadAt = column;
    else
      loadAt += s.nx;
    return v;
  };
  const auto potential = [&](float above, float centre, float below) {
    const float west = __shfl_up_sync(0xffffffffu, centre, 1);
    const float east = __shfl_down_sync(0xffffffffu, centre, 1);
    return chemicalPotential<2>(centre, neighbourSum(west, east, above, below), k);
  };
  // phi at rows y - 1, y, y + 1 (to make mu at y) and mu at y - 1, y, y + 1 (the rate at y).
  float phiUp = load(), phi = load(), phiDown = load();
  float muUp = potential(phiUp, phi, phiDown);  // mu at y0 - 1
  phiUp = phi, phi = phiDown, phiDown = load();
  float mu = potential(phiUp, phi, phiDown);    // mu at y0
  std::size_t at = std::size_t(y0) * s.nx + x;  // where row y's result goes
  for (int first = y0; first < end; first += kShuffleAhead) {
    float next[kShuffleAhead], bases[kShuffleAhead];
    WS_UNROLL
    for (int i = 0; i < kShuffleAhead; ++i) next[i] = load();
    if constexpr (!kSameBase) {
      WS_UNROLL
      for (int i = 0; i < kShuffleAhead; ++i)
        bases[i] = writes && (!kEdge || first + i < end) ? base[at + std::size_t(i) * s.nx] : 0.0f;
    }
    WS_UNROLL
    for (int i = 0; i < kShuffleAhead; ++i) {
      if (kEdge && first + i >= end) break;  // the same for the whole warp
      const float phiHere = phi;
      phiUp = phi, phi = phiDown, phiDown = next[i];
      const float muDown = potential(phiUp, phi, phiDown);  // mu at y + 1
      const float west = __shfl_up_sync(0xffffffffu, mu, 1);
      const float east = __shfl_down_sync(0xffffffffu, mu, 1);
      const float rate = rateFromPotentials<2>(mu, neighbourSum(west, east, muUp, muDown), k);
      if (writes) out[at] = (kSameBase ? phiHere : bases[i]) + h * rate;
      at += s.nx;
      muUp = mu, mu = muDown;
    }
  }
}

template <bool kConst, bool kSameBase>
__global__ void __launch_bounds__(32 * kShuffleWarps)
    shuffleKernel2d(const float* in, const float* base, float* out, Shape s, float h,
                    Coefficients argument) {
  const int lane = int(threadIdx.x) & 31;
  const int strip = int(blockIdx.x) * kShuffleWarps + int(threadIdx.x) / 32;
  const int x = strip * kShuffleColumns + lane - 2;
  const int column = tileWrap(x, s.nx);
  const bool writes = lane >= 2 && lane < 30 && x < s.nx;
  const int y0 = int(blockIdx.y) * kShuffleRows;
  const int end = min(y0 + kShuffleRows, s.ny);
  const Coefficients k = coefficientsOf<kConst>(argument);
  if (y0 >= 2 && y0 + kShuffleRows + 2 <= s.ny)  // whole, and away from the top and bottom
    march2d<kConst, kSameBase, false>(in, base, out, s, h, k, x, column, writes, y0, end);
  else
    march2d<kConst, kSameBase, true>(in, base, out, s, h, k, x, column, writes, y0, end);
}

// ---- The fast path with four columns a lane ----------------------------------------------------

// Where a row is a whole number of float4s, a lane holds four neighbouring columns as a float4 and
// a warp 128: one 16-byte load and store a lane a row, and a shuffle each way brings the neighbour
// of the first and the last of the four, where the one-column kernels spend a load, a store and
// four shuffles on every cell. Every lane updates: lanes 0 and 31 also hold the two columns beyond
// the warp's on their side (their `edge`, a float2 in memory order), from which they make mu just
// outside the warp, so no lane only loads and no warp straddles the row's end needlessly.

// The four values of v changed by f, one at a time.
template <typename F>
__device__ __forceinline__ float4 eachOf(const float4& v, F f) {
  return make_float4(f(0, v.x), f(1, v.y), f(2, v.z), f(3, v.w));
}
__device__ __forceinline__ float part(const float4& v, int i) {
  return i == 0 ? v.x : (i == 1 ? v.y : (i == 2 ? v.z : v.w));
}

// A cell's neighbours along the row.
struct AlongRow {
  float west, east;
};

// The columns a lane holds, of a warp whose first column is x0 on a row of nx (even). Where nx is
// 2 mod 4 (the 3-D kernel's pairs, below) the row's last quad is half on the row: its last two
// columns are the row's first two again (the torus), which make mu there for the half's update.
struct QuadLane {
  // Its columns are 4 quad to 4 quad + 3: past the row's end for some lanes of the row's last warp.
  int quad;
  int column;    // the quad it loads: quad on the torus (lanes past the row's end hold its start)
  int edgePair;  // lanes 0 and 31: the float2 holding the edge's two columns, on the torus
  bool first, last;  // lane 0, lane 31
  bool inRow;        // quad < the row's quads: the lane's cells are the grid's
  bool half;         // the row's last quad, of which only the first two columns are the lane's

  __device__ QuadLane(int lane, int x0, int nx)
      : quad(x0 / 4 + lane), first(lane == 0), last(lane == 31) {
    const int rowQuads = (nx + 3) / 4;
    // Only quad rowQuads, past the row, is read (as a neighbour): it wraps to quad 0.
    column = quad < rowQuads ? quad : min(quad - rowQuads, rowQuads - 1);
    edgePair = (first ? (x0 >= 2 ? x0 - 2 : x0 - 2 + nx) : tileWrap(x0 + 128, nx)) / 2;
    inRow = quad < rowQuads;
    half = nx % 4 != 0 && quad == rowQuads - 1;
  }
  // The edge's column next to the warp's, and the one beyond it.
  __device__ float near(float2 edge) const { return first ? edge.y : edge.x; }
  __device__ float far(float2 edge) const { return first ? edge.x : edge.y; }
  // The neighbours along the row of the edge's near column: the far one and the lane's own next to
  // it.
  __device__ AlongRow besideEdge(float2 edge, const float4& v) const {
    return first ? AlongRow{edge.x, v.x} : AlongRow{v.w, edge.y};
  }
  // Where the edge lies on a row that starts at `row` (lanes 0 and 31), a float4 or a float2.
  template <typename Unit>
  __device__ const float2* edgeOf(const Unit* row) const {
    return reinterpret_cast<const float2*>(row) + edgePair;
  }
  // The edge at a row starting at unit `row` (zeros for lanes 1 to 30).
  template <typename Unit>
  __device__ float2 loadEdge(const Unit* field, std::size_t row) const {
    return first || last ? *edgeOf(field + row) : make_float2(0, 0);
  }
};

// f(j, value, left, right) for each of a lane's four values v, with its neighbours along the row:
// the next lanes' by shuffles (every lane shuffles: a full-mask shuffle that lane 0 or 31 skipped
// would hang the warp), for lanes 0 and 31 on their outer side `beyond`, the value just outside.
template <typename F>
__device__ __forceinline__ float4 eachAlongRow(const float4& v, float beyond, const QuadLane& l,
                                               F f) {
  const float fromWest = __shfl_up_sync(0xffffffffu, v.w, 1);
  const float fromEast = __shfl_down_sync(0xffffffffu, v.x, 1);
  const float west = l.first ? beyond : fromWest, east = l.last ? beyond : fromEast;
  return eachOf(v, [&](int j, float c) {
    return f(j, c, j == 0 ? west : part(v, j - 1), j == 3 ? east : part(v, j + 1));
  });
}

// The sums of each of a lane's four values' neighbours along the row (left + right).
__device__ __forceinline__ float4 sumsAlongRow(const float4& v, float beyond, const QuadLane& l) {
  return eachAlongRow(v, beyond, l,
                      [](int, float, float left, float right) { return left + right; });
}

// A row (or a plane's row) of a lane: its four values and its edge's.
struct QuadRow {
  float4 cells;
  float2 edge;
};

// mu at a lane's four cells and at its edge's near column.
struct QuadPotentials {
  float4 cells;
  float edge;
};

// ---- The 2-D fast path with four columns a lane ----------------------------------------------

// Warps march down kVectorRows rows, keeping the rows above and below in registers as the
// one-column 2-D kernel does, and load kVectorAhead rows at a time, ahead of need. Sixteen rows a
// warp (against 64) and eight rows ahead (against four) made 4096^2 9% faster on an H200 with
// lanes 1 to 30 updating (docs/performance.md), and were best again with every lane updating
// (32 and 64 rows 2-10% slower): more, shorter marches keep more loads in flight. Loading the rows
// ahead in a ring, each slot again as soon as it is used, was 12-30% slower.
constexpr int kVectorRows = 16, kVectorWarps = 4, kVectorAhead = 8;
static_assert(kVectorRows % kVectorAhead == 0, "a march is a whole number of batches");

template <bool kSameBase, bool kEdge>
__device__ __forceinline__ void marchVector2d(const float4* in, const float4* base, float4* out,
                                              int rowQuads, int ny, float h, const Coefficients& k,
                                              const QuadLane& l, int y0, int end) {
  int loadRow = tileWrap(y0 - 2, ny);
  std::size_t loadStart = std::size_t(loadRow) * rowQuads;
  const auto load = [&] {  // the next row's values in this lane's columns and its edge
    const QuadRow r{in[loadStart + l.column], l.loadEdge(in, loadStart)};
    if (kEdge && ++loadRow == ny)
      loadRow = 0, loadStart = 0;
    else
      loadStart += rowQuads;
    return r;
  };
  const auto potentials = [&](const QuadRow& up, const QuadRow& row, const QuadRow& down) {
    const float4 cells =
        eachAlongRow(row.cells, l.near(row.edge), l, [&](int j, float c, float left, float right) {
          return chemicalPotential<2>(
              c, neighbourSum(left, right, part(up.cells, j), part(down.cells, j)), k);
        });
    const AlongRow e = l.besideEdge(row.edge, row.cells);
    return QuadPotentials{
        cells,
        chemicalPotential<2>(l.near(row.edge),
                             neighbourSum(e.west, e.east, l.near(up.edge), l.near(down.edge)), k)};
  };
  QuadRow phiUp = load(), phi = load(), phiDown = load();
  QuadPotentials muUp = potentials(phiUp, phi, phiDown);  // mu at y0 - 1
  phiUp = phi, phi = phiDown, phiDown = load();
  QuadPotentials mu = potentials(phiUp, phi, phiDown);  // mu at y0
  std::size_t at = std::size_t(y0) * rowQuads + l.quad;
  for (int first = y0; first < end; first += kVectorAhead) {
    QuadRow next[kVectorAhead];
    float4 bases[kVectorAhead];
    WS_UNROLL
    for (int i = 0; i < kVectorAhead; ++i) next[i] = load();
    if constexpr (!kSameBase) {
      WS_UNROLL
      for (int i = 0; i < kVectorAhead; ++i)
        bases[i] = l.inRow && (!kEdge || first + i < end) ? base[at + std::size_t(i) * rowQuads]
                                                          : make_float4(0, 0, 0, 0);
    }
    WS_UNROLL
    for (int i = 0; i < kVectorAhead; ++i) {
      if (kEdge && first + i >= end) break;  // the same for the whole warp
      const float4 phiHere = phi.cells;
      phiUp = phi, phi = phiDown, phiDown = next[i];
      const QuadPotentials muDown = potentials(phiUp, phi, phiDown);  // mu at y + 1
      const float4 from = kSameBase ? phiHere : bases[i];
      const float4 updated =
          eachAlongRow(mu.cells, mu.edge, l, [&](int j, float c, float left, float right) {
            return part(from, j) +
                   h * rateFromPotentials<2>(
                           c, neighbourSum(left, right, part(muUp.cells, j), part(muDown.cells, j)),
                           k);
          });
      if (l.inRow) out[at] = updated;
      at += rowQuads;
      muUp = mu, mu = muDown;
    }
  }
}

// Warp w of the grid updates columns 128 w to 128 w + 127 (those on the row) of kVectorRows rows;
// `backwards`, the blocks take the grid from its end (blockFrom, launch.cuh).
template <bool kConst, bool kSameBase>
__global__ void __launch_bounds__(32 * kVectorWarps)
    vectorKernel2d(const float4* in, const float4* base, float4* out, Shape s, float h,
                   Coefficients argument, bool backwards) {
  waitForPreviousGrid();  // launched to overlap the previous pass: see shufflePass
  letNextGridStart();
  constexpr int rows = kVectorRows;
  const int x0 =
      (blockFrom(blockIdx.x, gridDim.x, backwards) * kVectorWarps + int(threadIdx.x) / 32) * 128;
  if (x0 >= s.nx) return;  // a whole warp past the row (no barrier waits for it)
  const QuadLane l(int(threadIdx.x) & 31, x0, s.nx);
  const int y0 = blockFrom(blockIdx.y, gridDim.y, backwards) * rows;
  const int end = min(y0 + rows, s.ny);
  const Coefficients k = coefficientsOf<kConst>(argument);
  if (y0 >= 2 && y0 + rows + 2 <= s.ny)
    marchVector2d<kSameBase, false>(in, base, out, s.nx / 4, s.ny, h, k, l, y0, end);
  else
    marchVector2d<kSameBase, true>(in, base, out, s.nx / 4, s.ny, h, k, l, y0, end);
}

// ---- The 3-D fast path with four columns a lane ----------------------------------------------

// A block of warps, each holding three rows of 128 columns, marches through a part of the planes.
// Along z each lane keeps three planes of phi and of mu of its rows in registers; the planes ahead
// (and the base's values, in RK2's final step) are copied into shared memory asynchronously
// (cp.async), kStages planes in flight, so loads wait in no register and the next planes are on
// their way while this one is worked. Along y a warp's middle row has its neighbours in the same
// lanes' registers; its first and last rows' neighbours are the neighbouring warps', exchanged
// through shared memory once a plane (phi at the plane ahead, mu at the plane being updated; two
// buffers by the plane's parity, so one barrier a plane is enough). The block's first two rows and
// its last two are its halo: the inner of them make mu there, the outer only load.
//
// Twelve warps of three rows (32 rows updating of 36) against twenty of one (16 of 20), the
// kernel before 2026-12-02: a ninth of the rows halo rather than a fifth, and a third of the rows
// needing no exchange. On an H200 (runs 108-109, docs/performance.md) three rows a warp made 384^3
// RK2 8% faster (86% of the floor) and Euler 12-18% faster at 256^3 and 384^3; 256^3 RK2 the same
// (81%): its 16 blocks a part fill the GPU's wave in eight parts of 32 planes, where the march's
// start (ch_parts.h) weighs twice what it does in four parts of 64. Two rows in 18 warps (held to
// 96 registers, spilling) were 22-44% slower, in 10 warps 2-4%; three rows in 8 warps 6-8%; four
// rows in 9 or 5 warps 29-90%. Three rows fit in 159 registers with 12 warps a block.
//
// Of the one-row kernel, on an H200 at 256^3: loading the planes ahead into registers was 9%
// slower, 6 or 8 in flight no faster than 4; unrolling the march by the stage count cut a fifth to
// a quarter of its instructions and made it 17-23% faster; summing along the row and along z
// before each plane's barrier rather than after made RK2 4% faster, Euler 1.5%; a plane's turn
// written once, called with its stage as a type, 2-3% more. Tried and not kept: the halo warps
// skipping the sums they do not use, the march's first two planes peeled, the update factored to
// one multiply-add fewer (none faster); marching down the planes every other pass, to begin on
// planes still in the L2 cache (RK2 1-2% slower, Euler the same: runs 91 and 103); mu carried in
// units of K, 6% fewer instructions, within 1% (run 104); each warp waiting on mbarriers for its
// two neighbours instead of the block's barrier, 5-7% slower (run 103); every read of the
// neighbouring rows and the next plane's stage made right after the barrier, the same or 10-17%
// slower (run 105).
//
// A slab's block: W warps of R rows each, kStages planes copied ahead.
template <int W, int R>
struct Slab {
  static constexpr int kWarps = W, kRowsAWarp = R, kRows = W * R, kStages = 4;
  static constexpr int kThreads = 32 * W, kRowThreads = 32 * kRows;
  static constexpr int kUpdatingRows = kRows - 4;
  // Two exchange buffers of phi and mu a lane's row (indexed as the rows are: a warp's middle rows'
  // places go unused), and of the near edge value of lanes 0 and 31 a row; the stages, each phi and
  // the base a lane's row and the edges of lanes 0 and 31.
  static constexpr std::size_t kSharedBytes =
      2 * (kRowThreads * 2 * sizeof(float4) + kRows * 2 * sizeof(float)) +
      kStages * (kRowThreads * 2 * sizeof(float4) + kRows * 2 * sizeof(float2));
};
using FastSlab = Slab<12, 3>;

// The planes a block marches through, z0 to end - 1 in the order it takes them, counted from the
// grid's first plane, or (`down`) from its last: march plane z is the grid's plane nz - 1 - z.
// The stencil is the same either way, so a march down computes what a march up does.
struct SlabMarch {
  int z0, end;
  bool down;
  // The grid's plane at march plane z, which may lie up to two planes off the grid (it wraps).
  __device__ int plane(int z, int nz) const { return onGrid(tileWrap(z, nz), nz); }
  // The same for a march plane on the grid.
  __device__ int onGrid(int z, int nz) const { return down ? nz - 1 - z : z; }
};

// How a slab's lanes reach the field: a lane's four columns as one float4 where a row is a whole
// number of them, or (kPairs: a row of an odd number of float2s, nx 2 mod 4, whose odd rows do not
// start on 16 bytes) as two float2s, in float2 units. The row's last quad is then a half
// (QuadLane::half): its second pair is the row's first, and only its first is stored.
template <bool kPairs>
struct SlabUnits {
  using Unit = std::conditional_t<kPairs, float2, float4>;
  static constexpr int kAQuad = kPairs ? 2 : 1;  // units a quad
  // A row's units, and where quad q's second pair lies on a row of `rowUnits` (pairs only).
  static __device__ int row(int nx) { return kPairs ? nx / 2 : nx / 4; }
  static __device__ int secondPair(int q, int rowUnits) {
    return 2 * q + 1 < rowUnits ? 2 * q + 1 : 0;
  }
  // The four columns of quad q (on the torus) on the row starting at unit `row`.
  static __device__ float4 load(const Unit* field, std::size_t row, int q, int rowUnits) {
    if constexpr (kPairs) {
      const float2 a = field[row + 2 * q], b = field[row + secondPair(q, rowUnits)];
      return make_float4(a.x, a.y, b.x, b.y);
    } else {
      return field[row + q];
    }
  }
  // Copies quad q of the row at unit `row` into `to` asynchronously.
  static __device__ void copy(float4* to, const Unit* field, std::size_t row, int q, int rowUnits) {
    if constexpr (kPairs) {
      float2* const halves = reinterpret_cast<float2*>(to);
      __pipeline_memcpy_async(halves, field + row + 2 * q, sizeof(float2));
      __pipeline_memcpy_async(halves + 1, field + row + secondPair(q, rowUnits), sizeof(float2));
    } else {
      __pipeline_memcpy_async(to, field + row + q, sizeof(float4));
    }
  }
  // Copies a lane's own quad at unit `at` (its first) into `to` asynchronously: the half quad's
  // first pair only (its second is never used).
  static __device__ void copyOwn(float4* to, const Unit* at, bool half) {
    if constexpr (kPairs) {
      float2* const halves = reinterpret_cast<float2*>(to);
      __pipeline_memcpy_async(halves, at, sizeof(float2));
      if (!half) __pipeline_memcpy_async(halves + 1, at + 1, sizeof(float2));
    } else {
      __pipeline_memcpy_async(to, at, sizeof(float4));
    }
  }
  // Stores a lane's four cells at unit `at` (its quad's first), the half quad's first two only.
  static __device__ void store(Unit* field, std::size_t at, const float4& v, bool half) {
    if constexpr (kPairs) {
      field[at] = make_float2(v.x, v.y);
      if (!half) field[at + 1] = make_float2(v.z, v.w);
    } else {
      field[at] = v;
    }
  }
};

// One pass of the block's march: out = base + h f(in) over its rows and planes.
template <typename S, bool kConst, bool kSameBase, bool kPairs>
__device__ __forceinline__ void marchSlab(const float* inField, const float* baseField,
                                          float* outField, const Shape& s, float h,
                                          const Coefficients& k, const SlabMarch& march) {
  using Units = SlabUnits<kPairs>;
  using Unit = typename Units::Unit;
  const Unit* const in = reinterpret_cast<const Unit*>(inField);
  const Unit* const base = reinterpret_cast<const Unit*>(baseField);
  Unit* const out = reinterpret_cast<Unit*>(outField);
  constexpr int TR = S::kRowThreads, kRows = S::kRows, kStages = S::kStages, R = S::kRowsAWarp;
  // The march is unrolled by the stage count, so that each plane's stage and exchange buffer (by
  // the parity of its turn) are known when compiling.
  static_assert(kStages % 2 == 0, "a plane's parity is its step's");
  extern __shared__ float4 slab[];
  float4* const phiRows = slab;                          // [2][TR]
  float4* const muRows = slab + 2 * TR;                  // [2][TR]
  float4* const phiStages = slab + 4 * TR;               // [kStages][TR]
  float4* const baseStages = slab + (4 + kStages) * TR;  // [kStages][TR]
  float2* const edgeStages = reinterpret_cast<float2*>(slab + (4 + 2 * kStages) * TR);
  float* const nearRows =
      reinterpret_cast<float*>(edgeStages + kStages * kRows * 2);  // [2][kRows][2]
  const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) / 32;
  const QuadLane l(lane, int(blockIdx.x) * 128, s.nx);
  // Offsets count units (float4s, or float2s for kPairs): a row's, a plane's.
  const int rowUnits = Units::row(s.nx);
  const int firstRow = warp * R;                                     // of the block's rows
  const int y0 = int(blockIdx.y) * S::kUpdatingRows + firstRow - 2;  // row 0's, unwrapped
  const bool hasEdge = l.first || l.last;
  const std::size_t planeUnits = std::size_t(rowUnits) * s.ny;
  const std::size_t storeRow =  // row r's: + r rows
      std::size_t(y0) * rowUnits + std::size_t(l.quad) * Units::kAQuad;
  bool makesMu[R], updates[R], writes[R];
  int slot[R], edgeSlot[R];  // row r's place in a [TR] buffer, its edge's in a [kRows * 2] one
  std::size_t loadRow[R];
  WS_UNROLL
  for (int r = 0; r < R; ++r) {
    const int i = firstRow + r;
    makesMu[r] = i >= 1 && i < kRows - 1;
    updates[r] = i >= 2 && i < kRows - 2 && y0 + r < s.ny;
    writes[r] = updates[r] && l.inRow;
    slot[r] = i * 32 + lane;
    edgeSlot[r] = i * 2 + (l.last ? 1 : 0);
    loadRow[r] = std::size_t(tileWrap(y0 + r, s.ny)) * rowUnits;
  }
  const auto load = [&](int r, int z) {
    const std::size_t row = std::size_t(march.plane(z, s.nz)) * planeUnits + loadRow[r];
    return QuadRow{Units::load(in, row, l.column, rowUnits), l.loadEdge(in, row)};
  };
  const int z0 = march.z0, end = march.end;
  // Plane q's stage is (q - z0) % kStages. A thread reads only the stages it copied itself, so
  // waiting for its own copies is enough; a stage is copied into again a plane after it was read,
  // past a barrier. The copies run ahead of the march from `ahead`, the offset of each of this
  // thread's rows in plane q, stepped a plane at a time (back, marching down) and wrapped past the
  // grid's last plane (32 bits: the launcher sends no field of 2^32 units or more).
  const unsigned fieldUnits = unsigned(planeUnits) * unsigned(s.nz);
  const unsigned step = march.down ? fieldUnits - unsigned(planeUnits) : unsigned(planeUnits);
  unsigned ahead[R];
  WS_UNROLL
  for (int r = 0; r < R; ++r)
    ahead[r] = unsigned(march.onGrid(z0, s.nz)) * unsigned(planeUnits) + unsigned(loadRow[r]);
  // The copies of plane q (phi and the edge) and of the base at q - 2 into `stage`, as one group.
  // Past the last plane the march needs (end + 1) they go on, into stages never read: cheaper than
  // checking every plane (Euler up to 3% faster at 256^3, RK2 the same: runs 98-99 of 2026-11-30).
  const auto issue = [&](int q, int stage) {
    WS_UNROLL
    for (int r = 0; r < R; ++r) {
      Units::copy(&phiStages[stage * TR + slot[r]], in, ahead[r], l.column, rowUnits);
      if (hasEdge)
        __pipeline_memcpy_async(&edgeStages[stage * kRows * 2 + edgeSlot[r]],
                                l.edgeOf(in + ahead[r]), sizeof(float2));
      if (!kSameBase && writes[r] && q - 2 >= z0 && q - 2 < end)
        Units::copyOwn(&baseStages[stage * TR + slot[r]],
                       base + std::size_t(march.onGrid(q - 2, s.nz)) * planeUnits + storeRow +
                           std::size_t(r) * rowUnits,
                       l.half);
      ahead[r] = ahead[r] >= fieldUnits - step ? ahead[r] - (fieldUnits - step) : ahead[r] + step;
    }
    __pipeline_commit();
  };
  // Before plane z's turn: phi at z and z + 1, mu at z - 1 and z (and at the edge at z), planes
  // z + 2 on in flight. The march starts two planes early to make mu at z0 - 1 and z0.
  QuadRow phi[R], phiFront[R], phiBack[R];
  QuadPotentials mu[R], muBack[R];
  WS_UNROLL
  for (int r = 0; r < R; ++r) {
    phi[r] = load(r, z0 - 2), phiFront[r] = load(r, z0 - 1);
    mu[r] = QuadPotentials{make_float4(0, 0, 0, 0), 0}, muBack[r] = mu[r];
  }
  WS_UNROLL
  for (int q = 0; q < kStages - 1; ++q) issue(z0 + q, q);
  // Row 0's result at plane z, a plane on (back, marching down) a turn.
  std::size_t at = std::size_t(march.onGrid(z0, s.nz)) * planeUnits + storeRow;
  const std::size_t atStep = march.down ? std::size_t(0) - planeUnits : planeUnits;
  // Plane z's turn: mu at z + 1, and plane z updated where it has `started` and a row updates.
  // Plane z + 2 lands in `stage` (a std::integral_constant: the stage's and the exchange buffer's
  // offsets are constants).
  const auto turn = [&](auto stage, int z, bool started) {
    constexpr int j = decltype(stage)::value;
    issue(z + 1 + kStages, (j + kStages - 1) % kStages);
    __pipeline_wait_prior(kStages - 1);  // plane z + 2's group, the oldest, has landed
    constexpr int parity = j & 1;        // z's
    float4 from[R], phiAlong[R], phiAlongZ[R], muAlong[R];
    float edgeAlong[R], edgeAlongZ[R];
    WS_UNROLL
    for (int r = 0; r < R; ++r) {
      const float4 phiHere = phi[r].cells;
      phiBack[r] = phi[r], phi[r] = phiFront[r];
      phiFront[r] = QuadRow{phiStages[j * TR + slot[r]],
                            hasEdge ? edgeStages[j * kRows * 2 + edgeSlot[r]] : make_float2(0, 0)};
      from[r] = kSameBase ? phiHere : baseStages[j * TR + slot[r]];
      // Only a warp's first and last rows are read by other warps.
      if (r == 0 || r == R - 1) {
        phiRows[parity * TR + slot[r]] = phi[r].cells;
        muRows[parity * TR + slot[r]] = mu[r].cells;
        if (hasEdge) nearRows[parity * kRows * 2 + edgeSlot[r]] = l.near(phi[r].edge);
      }
      // What needs no neighbouring row comes before the barrier: the sums along the row (by
      // shuffles) and along z, of phi for mu at z + 1 and of mu for the update at z.
      phiAlong[r] = sumsAlongRow(phi[r].cells, l.near(phi[r].edge), l);
      phiAlongZ[r] = eachOf(phiBack[r].cells,
                            [&](int i, float back) { return back + part(phiFront[r].cells, i); });
      const AlongRow e = l.besideEdge(phi[r].edge, phi[r].cells);
      edgeAlong[r] = e.west + e.east;
      edgeAlongZ[r] = l.near(phiBack[r].edge) + l.near(phiFront[r].edge);
      muAlong[r] = sumsAlongRow(mu[r].cells, mu[r].edge, l);
    }
    __syncthreads();
    // The neighbouring rows: within the warp from registers, past it from the exchange.
    const auto southPhi = [&](int r) {
      return r > 0 ? phi[r - 1].cells : phiRows[parity * TR + slot[r] - 32];
    };
    const auto northPhi = [&](int r) {
      return r < R - 1 ? phi[r + 1].cells : phiRows[parity * TR + slot[r] + 32];
    };
    const auto southNear = [&](int r) {
      return r > 0 ? l.near(phi[r - 1].edge) : nearRows[parity * kRows * 2 + edgeSlot[r] - 2];
    };
    const auto northNear = [&](int r) {
      return r < R - 1 ? l.near(phi[r + 1].edge) : nearRows[parity * kRows * 2 + edgeSlot[r] + 2];
    };
    QuadPotentials muFront[R];  // mu at z + 1
    WS_UNROLL
    for (int r = 0; r < R; ++r) {
      muFront[r] = QuadPotentials{make_float4(0, 0, 0, 0), 0};
      if (makesMu[r]) {
        const float4 south = southPhi(r), north = northPhi(r);
        muFront[r].cells = eachOf(phi[r].cells, [&](int i, float c) {
          return chemicalPotential<3>(c,
                                      neighbourSumOfPairs(part(phiAlong[r], i), part(south, i),
                                                          part(north, i), part(phiAlongZ[r], i)),
                                      k);
        });
        muFront[r].edge = chemicalPotential<3>(
            l.near(phi[r].edge),
            neighbourSumOfPairs(edgeAlong[r], southNear(r), northNear(r), edgeAlongZ[r]), k);
      }
    }
    WS_UNROLL
    for (int r = 0; r < R; ++r) {
      if (started && updates[r]) {
        const float4 south = r > 0 ? mu[r - 1].cells : muRows[parity * TR + slot[r] - 32];
        const float4 north = r < R - 1 ? mu[r + 1].cells : muRows[parity * TR + slot[r] + 32];
        const float4 updated = eachOf(mu[r].cells, [&](int i, float c) {
          return part(from[r], i) +
                 h * rateFromPotentials<3>(
                         c,
                         neighbourSumOfPairs(part(muAlong[r], i), part(south, i), part(north, i),
                                             part(muBack[r].cells, i) + part(muFront[r].cells, i)),
                         k);
        });
        if (l.inRow) Units::store(out, at + std::size_t(r) * rowUnits, updated, l.half);
      }
    }
    if (started) at += atStep;
    WS_UNROLL
    for (int r = 0; r < R; ++r) muBack[r] = mu[r], mu[r] = muFront[r];
  };
  // The turns of planes z0 - 2 to end - 1, kStages at a time (the checks the same for the whole
  // block); the first two make mu only.
  static_assert(kStages == 4, "a round names the four stages");
  for (int z = z0 - 2; z < end; z += kStages) {
    turn(std::integral_constant<int, 0>{}, z, z >= z0);
    if (z + 1 >= end) break;
    turn(std::integral_constant<int, 1>{}, z + 1, z + 1 >= z0);
    if (z + 2 >= end) break;
    turn(std::integral_constant<int, 2>{}, z + 2, z + 2 >= z0);
    if (z + 3 >= end) break;
    turn(std::integral_constant<int, 3>{}, z + 3, z + 3 >= z0);
  }
  __pipeline_wait_prior(0);  // the copies past the march land before the block's memory goes
}

// A pass of the march, launched once a pass: block (x, y, z) marches up through part z of the
// planes (ch_parts.h).
template <typename S, bool kConst, bool kSameBase, bool kPairs>
__global__ void __launch_bounds__(S::kThreads)
    vectorKernel3d(const float* in, const float* base, float* out, Shape s, float h,
                   Coefficients argument) {
  waitForPreviousGrid();  // launched to overlap the previous pass: see shufflePass
  letNextGridStart();
  const int parts = int(gridDim.z), zPart = int(blockIdx.z);
  const SlabMarch march{partStart(zPart, parts, s.nz), partStart(zPart + 1, parts, s.nz), false};
  marchSlab<S, kConst, kSameBase, kPairs>(in, base, out, s, h, coefficientsOf<kConst>(argument),
                                          march);
}

// ---- The 3-D march with resident blocks ------------------------------------------------------

// The source synchronizes the grid by ending a kernel: a pass is a launch, and every block of the
// next one starts only when the last block of this one has finished. Its blocks then all start
// their marches at once, each reading its first planes and making two planes of mu before it
// writes anything (at 256^3 some 4.5 us of a 37 us pass on an H200, in which the memory is
// underused), and the pass lasts as long as its slowest block. Resident blocks stay on the GPU for
// the passes of many steps (one cooperative launch, which the GPU refuses unless every block fits
// at once): a block starts a pass as soon as the blocks around it have finished the pass before,
// the only ones whose values it reads and whose readers it overwrites, and no launch or grid-wide
// wait stands between passes. Each pass marches the other way from the one before, and
// neighbouring parts the opposite ways, so that a block starts where it and its neighbours have
// just ended: the planes its start reads are the ones just written, still in the L2 cache. On an
// H100 at 256^3 (docs/performance.md, 2026-12-07) an RK2 step took 12% less time than a launch a
// pass, an Euler step 11%.

// The passes of one resident launch (residentKernel3d).
struct ResidentPasses {
  float* phi;    // the field as the launch starts (RK2: the field throughout)
  float* other;  // Euler: the next field (the passes swap them); RK2: the stage
  int count;     // passes: Euler steps, or twice the RK2 steps (the half step, then the final)
  bool rk2;
  bool oddBefore;  // the launches before made an odd number of passes: each part turns round
  unsigned* done;  // a counter a block, zero at the launch: the passes it has finished
};

// Block b of the grid, x fastest.
__device__ __forceinline__ unsigned blockNumber(unsigned x, unsigned y, unsigned z) {
  return (z * gridDim.y + y) * gridDim.x + x;
}

// Waits until this block and the 26 around it (on the torus of blocks) have finished `passes`
// passes: thread t < 27 watches one of them, and the block's barrier lets every thread read what
// they wrote (the acquire, as the release in finishPass, is at the GPU's scope, and takes this
// SM's L1 cache out of the way of stale lines). A block more than one away reads nothing this
// block writes, nor writes anything it reads: every part is at least five planes deep and every
// block of rows at least two rows (residentGrid, ch_cuda.cu).
__device__ __forceinline__ void waitForNeighbours(const unsigned* done, unsigned passes) {
  const int t = int(threadIdx.x);
  if (t < 27) {
    const auto around = [](int offset, unsigned at, unsigned count) {
      return (at + count + unsigned(offset)) % count;
    };
    const unsigned x = around(t % 3 - 1, blockIdx.x, gridDim.x),
                   y = around(t / 3 % 3 - 1, blockIdx.y, gridDim.y),
                   z = around(t / 9 - 1, blockIdx.z, gridDim.z);
    cuda::atomic_ref<const unsigned, cuda::thread_scope_device> flag(done[blockNumber(x, y, z)]);
    while (flag.load(cuda::memory_order_acquire) < passes) __nanosleep(32);
  }
  __syncthreads();
}

// Tells the blocks around that this one has finished `passes` passes: every thread's stores are
// behind the barrier, and the fence orders them before the counter's release.
__device__ __forceinline__ void finishPass(unsigned* done, unsigned passes) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(
        done[blockNumber(blockIdx.x, blockIdx.y, blockIdx.z)]);
    flag.store(passes, cuda::memory_order_release);
  }
}

// All of a launch's passes, each block staying on its part of the planes (ch_parts.h) throughout.
template <typename S, bool kConst, bool kPairs>
__global__ void __launch_bounds__(S::kThreads, 1)
    residentKernel3d(ResidentPasses p, Shape s, Coefficients argument) {
  const Coefficients k = coefficientsOf<kConst>(argument);
  const int parts = int(gridDim.z), part = int(blockIdx.z);
  const int first = partStart(part, parts, s.nz), last = partStart(part + 1, parts, s.nz);
  for (int pass = 0; pass < p.count; ++pass) {
    if (pass > 0) waitForNeighbours(p.done, unsigned(pass));
    const bool down = ((part + pass) & 1) != int(p.oddBefore);
    const SlabMarch march =
        down ? SlabMarch{s.nz - last, s.nz - first, true} : SlabMarch{first, last, false};
    if (p.rk2 && (pass & 1)) {
      marchSlab<S, kConst, false, kPairs>(p.other, p.phi, p.phi, s, passStep(Pass::Final, k), k,
                                          march);
    } else {
      // Euler's pass from the field into the next, or back; RK2's half step into the stage.
      const bool back = !p.rk2 && (pass & 1);
      const float* in = back ? p.other : p.phi;
      marchSlab<S, kConst, true, kPairs>(in, in, back ? p.phi : p.other, s,
                                         passStep(p.rk2 ? Pass::Half : Pass::Euler, k), k, march);
    }
    finishPass(p.done, unsigned(pass + 1));
  }
}

// ---- The 3-D fast path: the same warps, several rows each, marching through the planes --------

// A warp's lanes hold 32 neighbouring columns (x, by shuffles as in 2-D) of kMarchRows rows and the
// two rows either side (y, in registers), and march through the planes (z), keeping three planes
// of phi and of mu in registers: each value is loaded about twice (the rows either side, which
// the warps above and below load too, from the cache), mu is computed 1.5 times a cell. The four
// warps of a block are neighbours in y, so their shared rows meet in the block's L1.
constexpr int kMarchRows = 4, kMarchDepth = 32, kMarchWarps = 4;

template <bool kConst, bool kSameBase>
__global__ void __launch_bounds__(32 * kMarchWarps)
    shuffleKernel3d(const float* in, const float* base, float* out, Shape s, float h,
                    Coefficients argument) {
  constexpr int R = kMarchRows;
  const int lane = int(threadIdx.x) & 31;
  const int x = int(blockIdx.x) * kShuffleColumns + lane - 2;
  const int column = tileWrap(x, s.nx);
  const bool writes = lane >= 2 && lane < 30 && x < s.nx;
  const int y0 = (int(blockIdx.y) * kMarchWarps + int(threadIdx.x) / 32) * R;
  const int z0 = int(blockIdx.z) * kMarchDepth;
  const Coefficients k = coefficientsOf<kConst>(argument);
  std::size_t rowStart[R + 4];  // of rows y0 - 2 ... y0 + R + 1 in a plane
  WS_UNROLL
  for (int r = 0; r < R + 4; ++r) rowStart[r] = std::size_t(tileWrap(y0 - 2 + r, s.ny)) * s.nx;
  const std::size_t plane = std::size_t(s.nx) * s.ny;
  const auto load = [&](int r, int z) {
    return in[std::size_t(tileWrap(z, s.nz)) * plane + rowStart[r] + column];
  };
  float p[R + 4][3];  // phi of rows y0 - 2 + r at three planes
  float m[R + 2][3];  // mu of rows y0 - 1 + q at three planes
  // mu at p's middle plane into m[.][slot].
  const auto potentials = [&](int slot) {
    WS_UNROLL
    for (int q = 0; q < R + 2; ++q) {
      const float centre = p[q + 1][1];
      const float west = __shfl_up_sync(0xffffffffu, centre, 1);
      const float east = __shfl_down_sync(0xffffffffu, centre, 1);
      m[q][slot] = chemicalPotential<3>(
          centre, neighbourSum(west, east, p[q][1], p[q + 2][1], p[q + 1][0], p[q + 1][2]), k);
    }
  };
  // p's planes move on by one, the new last one loaded from plane z.
  const auto shiftLoad = [&](int z) {
    WS_UNROLL
    for (int r = 0; r < R + 4; ++r) p[r][0] = p[r][1], p[r][1] = p[r][2], p[r][2] = load(r, z);
  };
  WS_UNROLL
  for (int r = 0; r < R + 4; ++r) p[r][1] = load(r, z0 - 2), p[r][2] = load(r, z0 - 1);
  shiftLoad(z0);
  potentials(1);  // mu at z0 - 1
  shiftLoad(z0 + 1);
  potentials(2);  // mu at z0
  // The next plane, loaded a step before it is needed (as in 2-D, to keep loads in flight).
  float ahead[R + 4];
  WS_UNROLL
  for (int r = 0; r < R + 4; ++r) ahead[r] = load(r, z0 + 2);
  const int depth = min(kMarchDepth, s.nz - z0);
  for (int z = z0; z < z0 + depth; ++z) {
    float bases[R];
    if constexpr (!kSameBase) {
      WS_UNROLL
      for (int r = 0; r < R; ++r)
        bases[r] =
            writes && y0 + r < s.ny ? base[std::size_t(z) * plane + rowStart[r + 2] + x] : 0.0f;
    }
    WS_UNROLL
    for (int q = 0; q < R + 2; ++q) m[q][0] = m[q][1], m[q][1] = m[q][2];
    WS_UNROLL
    for (int r = 0; r < R + 4; ++r) {  // p: planes z, z + 1, z + 2; ahead: z + 3
      p[r][0] = p[r][1], p[r][1] = p[r][2], p[r][2] = ahead[r];
      ahead[r] = load(r, z + 3);
    }
    potentials(2);  // mu at z + 1
    WS_UNROLL
    for (int r = 0; r < R; ++r) {
      const float centre = m[r + 1][1];
      const float west = __shfl_up_sync(0xffffffffu, centre, 1);
      const float east = __shfl_down_sync(0xffffffffu, centre, 1);
      const float rate = rateFromPotentials<3>(
          centre, neighbourSum(west, east, m[r][1], m[r + 2][1], m[r + 1][0], m[r + 1][2]), k);
      if (writes && y0 + r < s.ny) {
        const std::size_t n = std::size_t(z) * plane + rowStart[r + 2] + x;
        out[n] = (kSameBase ? p[r + 2][0] : bases[r]) + h * rate;
      }
    }
  }
}

}  // namespace ws::ch
