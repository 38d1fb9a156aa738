#pragma once
// The Cahn-Hilliard kernels: one pass of ch_stencil.h's arithmetic over the grid, out = base +
// h f(in), with the stencil's values read in the source's four ways (A-D) and the fast path's.
// Each is compiled for 2-D and 3-D (D), and with the coefficients from the kernel's arguments or
// from __constant__ memory (kConst).
#include <cuda_runtime.h>

#include "compute/cahn-hilliard/ch_stencil.h"

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

// ---- The 2-D fast path with four columns a lane ----------------------------------------------

// As above, but each lane holds four neighbouring columns as a float4, so a warp covers 128
// columns: one 16-byte load and store a lane a row, and a shuffle each way brings the neighbour of
// the first and the last of the four, where the one-column kernel spends a load, a store and four
// shuffles on every cell. Lanes 1 to 30 update (120 columns, whose stores fill whole 32-byte
// sectors); lane 0 holds the two columns before them and lane 31 the two after, plus two more
// that nobody needs. For grids whose width is a multiple of four (a row starts on 16 bytes).
// Sixteen rows a warp (against 64) and loads eight rows ahead (against four) made 4096^2 9% faster
// on an H200 (docs/performance.md): more, shorter marches keep more loads in flight.
constexpr int kVectorLanes = 30, kVectorRows = 16, kVectorWarps = 4, kVectorAhead = 8;
static_assert(kVectorRows % kVectorAhead == 0, "a march away from the edges loads whole batches");

// The four values of v changed by f, one at a time.
template <typename F>
__device__ __forceinline__ float4 eachOf(const float4& v, F f) {
  return make_float4(f(0, v.x), f(1, v.y), f(2, v.z), f(3, v.w));
}
__device__ __forceinline__ float part(const float4& v, int i) {
  return i == 0 ? v.x : (i == 1 ? v.y : (i == 2 ? v.z : v.w));
}

// The sum of the 2-D neighbours of each of a lane's four cells: `up` and `down` the rows either
// side, the left and right neighbours along the row from the next lanes.
__device__ __forceinline__ float4 neighbourSums(const float4& up, const float4& centre,
                                                const float4& down) {
  const float west = __shfl_up_sync(0xffffffffu, centre.w, 1);
  const float east = __shfl_down_sync(0xffffffffu, centre.x, 1);
  return eachOf(centre, [&](int i, float) {
    const float left = i == 0 ? west : part(centre, i - 1);
    const float right = i == 3 ? east : part(centre, i + 1);
    return neighbourSum(left, right, part(up, i), part(down, i));
  });
}

template <bool kSameBase, bool kEdge>
__device__ __forceinline__ void marchVector2d(const float4* in, const float4* base, float4* out,
                                              int rowQuads, int ny, float h, const Coefficients& k,
                                              int quad, int column, bool writes, int y0, int end) {
  int loadRow = tileWrap(y0 - 2, ny);
  std::size_t loadAt = std::size_t(loadRow) * rowQuads + column;
  const auto load = [&] {  // the next row's four values in this lane's columns
    const float4 v = in[loadAt];
    if (kEdge && ++loadRow == ny)
      loadRow = 0, loadAt = column;
    else
      loadAt += rowQuads;
    return v;
  };
  const auto potentials = [&](const float4& up, const float4& centre, const float4& down) {
    const float4 sums = neighbourSums(up, centre, down);
    return eachOf(centre,
                  [&](int i, float c) { return chemicalPotential<2>(c, part(sums, i), k); });
  };
  float4 phiUp = load(), phi = load(), phiDown = load();
  float4 muUp = potentials(phiUp, phi, phiDown);  // mu at y0 - 1
  phiUp = phi, phi = phiDown, phiDown = load();
  float4 mu = potentials(phiUp, phi, phiDown);  // mu at y0
  std::size_t at = std::size_t(y0) * rowQuads + quad;
  for (int first = y0; first < end; first += kVectorAhead) {
    float4 next[kVectorAhead], bases[kVectorAhead];
    WS_UNROLL
    for (int i = 0; i < kVectorAhead; ++i) next[i] = load();
    if constexpr (!kSameBase) {
      WS_UNROLL
      for (int i = 0; i < kVectorAhead; ++i)
        bases[i] = writes && (!kEdge || first + i < end) ? base[at + std::size_t(i) * rowQuads]
                                                         : make_float4(0, 0, 0, 0);
    }
    WS_UNROLL
    for (int i = 0; i < kVectorAhead; ++i) {
      if (kEdge && first + i >= end) break;  // the same for the whole warp
      const float4 phiHere = phi;
      phiUp = phi, phi = phiDown, phiDown = next[i];
      const float4 muDown = potentials(phiUp, phi, phiDown);  // mu at y + 1
      const float4 sums = neighbourSums(muUp, mu, muDown);
      const float4 from = kSameBase ? phiHere : bases[i];
      if (writes)
        out[at] = eachOf(mu, [&](int j, float centre) {
          return part(from, j) + h * rateFromPotentials<2>(centre, part(sums, j), k);
        });
      at += rowQuads;
      muUp = mu, mu = muDown;
    }
  }
}

template <bool kConst, bool kSameBase>
__global__ void __launch_bounds__(32 * kVectorWarps)
    vectorKernel2d(const float4* in, const float4* base, float4* out, Shape s, float h,
                   Coefficients argument) {
  const int lane = int(threadIdx.x) & 31;
  const int strip = int(blockIdx.x) * kVectorWarps + int(threadIdx.x) / 32;
  const int rowQuads = s.nx / 4;
  const int quad = strip * kVectorLanes + lane - 1;  // this lane's columns, 4 quad to 4 quad + 3
  // Wrapped; past the ring after the last column (lanes nobody reads) any quad of the row.
  const int column =
      quad < 0 ? quad + rowQuads : min(quad >= rowQuads ? quad - rowQuads : quad, rowQuads - 1);
  const bool writes = lane >= 1 && lane <= kVectorLanes && quad < rowQuads;
  const int y0 = int(blockIdx.y) * kVectorRows;
  const int end = min(y0 + kVectorRows, s.ny);
  const Coefficients k = coefficientsOf<kConst>(argument);
  if (y0 >= 2 && y0 + kVectorRows + 2 <= s.ny)
    marchVector2d<kSameBase, false>(in, base, out, rowQuads, s.ny, h, k, quad, column, writes, y0,
                                    end);
  else
    marchVector2d<kSameBase, true>(in, base, out, rowQuads, s.ny, h, k, quad, column, writes, y0,
                                   end);
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
