// The CUDA engine for the Poisson solver: a thread a node, the colour of a Gauss-Seidel pass a
// template parameter (as in the source, so that each colour's index arithmetic folds into
// constants), multigrid's transfers as kernels of their own, and the norms summed block by block
// into fixed places, then in order on the host (the same sums every run).
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/cuda_check.h"
#include "compute/core/device_buffer.h"
#include "compute/core/errors.h"
#include "compute/core/gpu_error.h"
#include "compute/core/gpu_timer.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/core/memory.h"
#include "compute/poisson/poisson_cuda.h"

namespace ws::poisson {

namespace {

constexpr int kNormBlock = 256, kNormBlocks = 1024;
const dim3 kBlock(32, 8, 1);
// The thread-a-node colour passes: in 2-D 64 x 4, measured against 32 x 8 and 128 x 2 (H200, run
// 49: 1% faster). In 3-D the blocks are two planes deep, so that the z neighbours of one plane's
// nodes are rows the block's other plane reads (runs 72-73, against 64 x 4 x 1 and 15 other
// shapes: 3-4% faster), and red-black's threads update a node in each of two planes, the block's
// depth apart, for twice the loads in flight (runs 75-76: 64 x 4 x 2 blocks 3.5% faster in float
// and 5% in double than one plane in 64 x 2 x 2, the best of both before).
template <int D, int kColours>
constexpr dim3 kColourBlock = D == 2          ? dim3(64, 4, 1)
                              : kColours == 2 ? dim3(64, 4, 2)
                                              : dim3(64, 2, 2);
template <int D, int kColours>
constexpr int kColourPlanes = D == 3 && kColours == 2 ? 2 : 1;

// Every unknown of a grid, a thread each: (x, y, z) from 1 (z = 0 in 2-D); false past them.
template <int D>
__device__ bool unknownOf(const Grid& g, int& x, int& y, int& z) {
  x = 1 + int(blockIdx.x * blockDim.x + threadIdx.x);
  y = 1 + int(blockIdx.y * blockDim.y + threadIdx.y);
  z = D == 3 ? 1 + int(blockIdx.z) : 0;
  return x < g.n && y < g.n;
}
template <int D>
dim3 unknownBlocks(const Grid& g) {
  return dim3(blocksFor(g.n - 1, kBlock.x), blocksFor(g.n - 1, kBlock.y), D == 3 ? g.n - 1 : 1);
}

// The nodes of colour C of `kColours` (poisson_stencil.h's colourOf), kColourPlanes a thread (here
// its plane p's): along x every other node, the first 1 or 2 by the colour; with 4 and 8 colours
// also every other row (and plane). A block covers kColourPlanes times its depth in planes; a
// thread's planes lie the block's depth apart. `backwards`: the blocks take the grid from its end
// (blockFrom, launch.cuh). False past the grid.
template <int D, int kColours, int C>
__device__ bool colouredNodeOf(const Grid& g, bool backwards, int p, int& x, int& y, int& z) {
  const int tx = blockFrom(blockIdx.x, gridDim.x, backwards) * int(blockDim.x) + int(threadIdx.x);
  const int ty = blockFrom(blockIdx.y, gridDim.y, backwards) * int(blockDim.y) + int(threadIdx.y);
  const int tz = (blockFrom(blockIdx.z, gridDim.z, backwards) * kColourPlanes<D, kColours> + p) *
                     int(blockDim.z) +
                 int(threadIdx.z);
  if constexpr (kColours == 2) {
    y = 1 + ty;
    z = D == 3 ? 1 + tz : 0;
    x = (((C + y + z) & 1) ? 1 : 2) + 2 * tx;
  } else {
    x = ((C & 1) ? 1 : 2) + 2 * tx;
    y = ((C & 2) ? 1 : 2) + 2 * ty;
    z = D == 3 ? ((C & 4) ? 1 : 2) + 2 * tz : 0;
  }
  return x < g.n && y < g.n && (D == 2 || z < g.n);
}
template <int D, int kColours>
dim3 colouredBlocks(const Grid& g) {
  const int half = g.n / 2, all = g.n - 1;  // a colour's nodes along an axis, at most
  const int ys = kColours == 2 ? all : half;
  const int zs = D == 2 ? 1 : kColours == 2 ? all : half;
  constexpr dim3 block = kColourBlock<D, kColours>;
  return dim3(blocksFor(half, block.x), blocksFor(ys, block.y),
              blocksFor(zs, block.z * kColourPlanes<D, kColours>));
}

// Node i's relaxed update from the values in `from`, its own value there `own` and its right-hand
// side `rhs`.
template <int D, Stencil S, bool kStored, typename T>
__device__ T updateAt(const T* from, const Operator<T>& op, const Grid& g, std::size_t i, T own,
                      T rhs, T h2, T omega) {
  const std::ptrdiff_t side = g.side();
  const auto at = [&](int dx, int dy, int dz) {
    return from[std::ptrdiff_t(i) + dx + side * (dy + side * dz)];
  };
  T centre;
  const T neighbours = neighbourSum<D, S, kStored>(at, op, i, centre);
  return relaxed(own, neighbours, h2 * rhs, centre, omega);
}
template <int D, Stencil S, bool kStored, typename T>
__device__ T updateAt(const T* from, const T* f, const Operator<T>& op, const Grid& g,
                      std::size_t i, T h2, T omega) {
  return updateAt<D, S, kStored>(from, op, g, i, from[i], f[i], h2, omega);
}

template <int D, Stencil S, typename T, bool kStored>
__global__ void jacobiKernel(const T* u, const T* f, Operator<T> op, T* next, Grid g, T h2,
                             T omega) {
  int x, y, z;
  if (!unknownOf<D>(g, x, y, z)) return;
  const std::size_t i = g.index(x, y, z);
  next[i] = updateAt<D, S, kStored>(u, f, op, g, i, h2, omega);
}

// One colour's pass, in place: no node it updates reads another it updates. A thread's planes'
// updates are all made before any is stored, so that their loads are in flight together.
// `backwards`: from the grid's end, where a pass that went forwards ended (Sweep::backAndForth).
// Launched to overlap the previous pass's end (dependentLaunch), a thread first reads what that
// pass does not write (it wrote another colour): its nodes' f and, one plane a thread, their own
// values (two planes a thread read them after waiting: 2% faster, H200, run 81 of 2026-11-29).
template <int D, Stencil S, typename T, bool kStored, int kColours, int C>
__global__ void colourKernel(T* u, const T* f, Operator<T> op, Grid g, T h2, T omega,
                             bool backwards) {
  constexpr int kPlanes = kColourPlanes<D, kColours>;
  constexpr bool kOwnFirst = kPlanes == 1;
  bool inside[kPlanes];
  std::size_t node[kPlanes];
  T own[kPlanes], rhs[kPlanes];
  WS_UNROLL
  for (int p = 0; p < kPlanes; ++p) {
    int x, y, z;
    inside[p] = colouredNodeOf<D, kColours, C>(g, backwards, p, x, y, z);
    if (!inside[p]) continue;
    node[p] = g.index(x, y, z);
    rhs[p] = f[node[p]];
    if (kOwnFirst) own[p] = u[node[p]];
  }
  waitForPreviousGrid();
  letNextGridStart();
  T value[kPlanes];
  WS_UNROLL
  for (int p = 0; p < kPlanes; ++p)
    if (inside[p])
      value[p] = updateAt<D, S, kStored>(u, op, g, node[p], kOwnFirst ? own[p] : u[node[p]], rhs[p],
                                         h2, omega);
  WS_UNROLL
  for (int p = 0; p < kPlanes; ++p)
    if (inside[p]) u[node[p]] = value[p];
}

// The source's technique for a colour's pass: a block stages its tile of u, kTileX x kTileY
// unknowns and a node of halo around them, in shared memory and updates the tile's nodes of colour
// C from there, so that each value comes from global memory once a block instead of once a
// neighbour. A thread owns two nodes of a row, one of them of C's parity along x. In 3-D the block
// marches up `zBlock` planes keeping three in a ring (z-blocking, 2.5-D): a plane is loaded once
// and read as the one above, the one updated and the one below. No node of colour C is a stencil
// neighbour of another, so the staged values stay those the pass must read.
constexpr int kTileX = 2 * 32, kTileY = 8;
template <int D, Stencil S, typename T, bool kStored, int kColours, int C>
__global__ void __launch_bounds__(256)
    slicedColourKernel(T* u, const T* f, Operator<T> op, Grid g, T h2, T omega, int zBlock) {
  constexpr int kWide = kTileX + 2, kHigh = kTileY + 2, kPlanes = D == 3 ? 3 : 1;
  __shared__ T tile[kPlanes][kHigh][kWide];
  // Tile column i, row j hold node (x0 + i, y0 + j): the unknowns x0 + 1 ... x0 + kTileX.
  const int x0 = int(blockIdx.x) * kTileX, y0 = int(blockIdx.y) * kTileY;
  const int z0 = D == 3 ? 1 + int(blockIdx.z) * zBlock : 0;
  const int zEnd = D == 3 ? min(g.n, z0 + zBlock) : 1;  // past the block's last plane
  const int thread = int(threadIdx.y * blockDim.x + threadIdx.x);
  const auto stage = [&](int z) {
    T(&slot)[kHigh][kWide] = tile[D == 3 ? z % 3 : 0];
    for (int k = thread; k < kWide * kHigh; k += 256) {
      const int i = k % kWide, j = k / kWide, x = x0 + i, y = y0 + j;
      slot[j][i] = x <= g.n && y <= g.n ? u[g.index(x, y, z)] : T(0);
    }
  };
  if constexpr (D == 3) stage(z0 - 1);
  stage(z0);
  const int j = int(threadIdx.y) + 1, y = y0 + j;
  for (int z = z0; z < zEnd; ++z) {
    if constexpr (D == 3) stage(z + 1);
    __syncthreads();
    // The node of the pair with C's parity along x, where this row (and plane) has any of C.
    const bool here = kColours == 2 ||
                      (((y & 1) == ((C >> 1) & 1)) && (kColours == 4 || (z & 1) == ((C >> 2) & 1)));
    const int parity = kColours == 2 ? (C + y + z) & 1 : C & 1;
    const int i = 2 * int(threadIdx.x) + (parity ? 1 : 2), x = x0 + i;
    if (here && x < g.n && y < g.n) {
      const auto at = [&](int dx, int dy, int dz) {
        return tile[D == 3 ? (z + dz) % 3 : 0][j + dy][i + dx];
      };
      const std::size_t node = g.index(x, y, z);
      T centre;
      const T neighbours = neighbourSum<D, S, kStored>(at, op, node, centre);
      u[node] = relaxed(at(0, 0, 0), neighbours, h2 * f[node], centre, omega);
    }
    __syncthreads();  // before the next plane overwrites the one below this
  }
}
template <int D>
dim3 slicedBlocks(const Grid& g, int zBlock) {
  return dim3(blocksFor(g.n - 1, kTileX), blocksFor(g.n - 1, kTileY),
              D == 3 ? blocksFor(g.n - 1, zBlock) : 1);
}

// 3-D red-black on the 7-point stencil, z-blocking in registers: a thread owns a pair of nodes
// of a row, (x0, x0 + 1), one of each colour in every plane, and marches up `zBlock` planes
// keeping the pair's values of the planes below, at and above: each plane's pair is loaded once
// and serves as the neighbour above, the centre and the neighbour below. The x neighbour outside
// the pair, the y neighbours and f come from memory. The pair's node of colour C changes, and no
// other value it keeps is of colour C.
template <typename T, bool kStored, int C>
__global__ void columnRedBlackKernel(T* u, const T* f, Operator<T> op, Grid g, T h2, T omega,
                                     int zBlock) {
  const int x0 = 1 + 2 * int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = 1 + int(blockIdx.y * blockDim.y + threadIdx.y);
  const int z0 = 1 + int(blockIdx.z) * zBlock, zEnd = min(g.n, z0 + zBlock);
  if (x0 >= g.n || y >= g.n) return;
  const std::ptrdiff_t side = g.side(), plane = side * side;
  const std::size_t first = g.index(x0, y, 0);
  const auto pair = [&](int z, T(&values)[2]) {
    values[0] = u[first + z * plane];
    values[1] = u[first + z * plane + 1];  // x0 + 1 <= n: inside the array
  };
  T below[2], here[2], above[2];
  pair(z0 - 1, below);
  pair(z0, here);
  for (int z = z0; z < zEnd; ++z) {
    pair(z + 1, above);
    const int which = (C + x0 + y + z) & 1, x = x0 + which;
    if (x < g.n) {
      const std::size_t i = first + z * plane + which;
      const T west = which ? here[0] : u[i - 1], east = which ? u[i + 1] : here[1];
      const T south = u[i - side], north = u[i + side];
      const T down = which ? below[1] : below[0], up = which ? above[1] : above[0];
      const auto at = [&](int dx, int dy, int dz) {
        return dx < 0 ? west : dx > 0 ? east : dy < 0 ? south : dy > 0 ? north : dz < 0 ? down : up;
      };
      T centre;
      const T neighbours = neighbourSum<3, Stencil::Compact, kStored>(at, op, i, centre);
      u[i] = relaxed(which ? here[1] : here[0], neighbours, h2 * f[i], centre, omega);
    }
    below[0] = here[0], below[1] = here[1];
    here[0] = above[0], here[1] = above[1];
  }
}
dim3 columnBlocks(const Grid& g, int zBlock) {
  return dim3(blocksFor(g.n / 2, kBlock.x), blocksFor(g.n - 1, kBlock.y),
              blocksFor(g.n - 1, zBlock));
}

// 3-D red-black on the 7-point stencil, a whole sweep in one pass over memory: from u into `next`
// (the values of a sweep of the red nodes, then the black, as the two passes make them, read once
// and written once: 12 bytes an unknown in float against the passes' 24). A block owns a tile of
// kFusedX x kFusedY unknowns and marches up `zBlock` planes of it. For each plane q it stages u's
// plane q + 1 around the tile, two nodes wide, in a ring of four; computes the red nodes of plane q
// on the tile and a node around it from those old values into a ring of three; then the black nodes
// of plane q - 1 on the tile from the red ones, and writes both colours of plane q - 1. The ring
// around the tile is computed by the blocks beside it too (nearly a third more red updates); each
// block writes only its own tile, into the other array, so none reads a value another has written.
// Every load is issued a plane before its value is used (u's plane q + 2, the red nodes' f of plane
// q + 1, the black ones' of plane q), so that a block waits for memory about once a plane rather
// than once a phase, and each thread's places in the planes are worked out once (H200, 256^3
// float: 0.27, 0.19, then 0.13 ms a sweep; the two passes take 0.114, docs/performance.md).
constexpr int kFusedX = 64, kFusedY = 8;  // a thread a pair of nodes along x: 32 x 8 threads
template <typename T, bool kStored>
__global__ void __launch_bounds__(256)
    fusedRedBlackKernel(const T* u, const T* f, Operator<T> op, Grid g, T h2, T omega, int zBlock,
                        T* next) {
  constexpr int kOldX = kFusedX + 4, kOldY = kFusedY + 4;  // two nodes around the tile
  constexpr int kRedX = kFusedX + 2, kRedY = kFusedY + 2;  // one node around it
  constexpr int kOldPlane = kOldX * kOldY, kRedPlane = kRedX * kRedY;
  constexpr int kStaged = (kOldPlane + 255) / 256;          // a thread's share of a plane
  constexpr int kReds = (kRedY * (kRedX / 2) + 255) / 256;  // and of the red nodes around the tile
  __shared__ T old[4][kOldPlane];                           // u's planes q & 3
  __shared__ T red[3][kRedPlane];                           // the red nodes' new values, q % 3
  const int x0 = 1 + int(blockIdx.x) * kFusedX, y0 = 1 + int(blockIdx.y) * kFusedY;
  const int z0 = 1 + int(blockIdx.z) * zBlock, z1 = min(g.n, z0 + zBlock);
  const int thread = int(threadIdx.y * blockDim.x + threadIdx.x), n = g.n, side = g.side();
  const std::size_t plane = std::size_t(side) * side;
  const auto inner = [&](int c) { return c >= 1 && c < n; };  // an unknown's coordinate

  // Where this thread's share of a plane lies around the tile: its place in a ring plane (-1:
  // past the grid or the share) and in a plane of u. Loaded into `ahead`, then stored in the ring.
  int stagedAt[kStaged], stagedFrom[kStaged];
  WS_UNROLL
  for (int s = 0; s < kStaged; ++s) {
    const int k = thread + 256 * s, x = x0 - 2 + k % kOldX, y = y0 - 2 + k / kOldX;
    stagedAt[s] = k < kOldPlane && x >= 0 && x <= n && y >= 0 && y <= n ? k : -1;
    stagedFrom[s] = x + side * y;
  }
  T ahead[kStaged];
  const auto load = [&](int q) {
    const T* from = u + std::size_t(q) * plane;
    WS_UNROLL
    for (int s = 0; s < kStaged; ++s)
      if (stagedAt[s] >= 0) ahead[s] = from[stagedFrom[s]];
  };
  const auto store = [&](int q) {
    WS_UNROLL
    for (int s = 0; s < kStaged; ++s)
      if (stagedAt[s] >= 0) old[q & 3][stagedAt[s]] = ahead[s];
  };

  // The red nodes (x + y + q even) on the tile and a node around it, this thread's share: a
  // slot's node in plane q lies `redShift(s, q)` (0 or 1) past its first place in the row, whose
  // places in a red plane, an old one and u's plane are kept; `redFlags` says where the row starts
  // odd (bit 0) and, for a shift of 0 and 1, whether the node is in the grid (bits 1, 2) and an
  // unknown in x and y (bits 3, 4).
  int redAt[kReds], redOld[kReds], redFrom[kReds], redFlags[kReds];
  WS_UNROLL
  for (int s = 0; s < kReds; ++s) {
    const int k = thread + 256 * s, j = k / (kRedX / 2), i = 2 * (k % (kRedX / 2));
    const int x = x0 - 1 + i, y = y0 - 1 + j;
    redAt[s] = j * kRedX + i;
    redOld[s] = (j + 1) * kOldX + i + 1;
    redFrom[s] = x + side * y;
    const bool row = k < kRedY * (kRedX / 2) && y <= n;
    redFlags[s] = ((x + y) & 1) | (row && x <= n) << 1 | (row && x + 1 <= n) << 2 |
                  (inner(y) && inner(x)) << 3 | (inner(y) && inner(x + 1)) << 4;
  }
  const auto redShift = [&](int s, int q) { return (redFlags[s] + q) & 1; };
  T fRed[kReds];
  const auto loadRedF = [&](int q) {
    if (!inner(q)) return;
    const T* from = f + std::size_t(q) * plane;
    WS_UNROLL
    for (int s = 0; s < kReds; ++s) {
      const int shift = redShift(s, q);
      if (redFlags[s] >> (3 + shift) & 1) fRed[s] = from[redFrom[s] + shift];
    }
  };
  const auto relaxRed = [&](int q) {
    const T* below = old[(q - 1) & 3];
    const T* here = old[q & 3];
    const T* above = old[(q + 1) & 3];
    T* out = red[q % 3];
    WS_UNROLL
    for (int s = 0; s < kReds; ++s) {
      const int shift = redShift(s, q);
      if (!(redFlags[s] >> (1 + shift) & 1)) continue;
      const int at = redOld[s] + shift;
      if (!(inner(q) && redFlags[s] >> (3 + shift) & 1)) {
        out[redAt[s] + shift] = here[at];  // a boundary node keeps its value
        continue;
      }
      const auto from = [&](int dx, int dy, int dz) {
        return (dz < 0 ? below : dz > 0 ? above : here)[at + dx + dy * kOldX];
      };
      T centre;
      const std::size_t node = std::size_t(q) * plane + std::size_t(redFrom[s] + shift);
      const T neighbours = neighbourSum<3, Stencil::Compact, kStored>(from, op, node, centre);
      out[redAt[s] + shift] = relaxed(here[at], neighbours, h2 * fRed[s], centre, omega);
    }
  };

  // This thread's pair of plane q: its black node (x + y + q odd) `blackShift(q)` past its first,
  // relaxed from the red ones around it, and its red node as relaxRed left it; both written to
  // `next` where they are unknowns.
  const int pairX = x0 + 2 * int(threadIdx.x), y = y0 + int(threadIdx.y);
  const int pairAt = (int(threadIdx.y) + 1) * kRedX + 2 * int(threadIdx.x) + 1;
  const int pairOld = (int(threadIdx.y) + 2) * kOldX + 2 * int(threadIdx.x) + 2;
  const int pairFrom = pairX + side * y;
  const int pairUnknown = (inner(y) && inner(pairX)) | (inner(y) && inner(pairX + 1)) << 1;
  const auto blackShift = [&](int q) { return (pairX + y + q + 1) & 1; };
  T fBlack;
  const auto loadBlackF = [&](int q) {
    const int shift = blackShift(q);
    if (pairUnknown >> shift & 1)
      fBlack = f[std::size_t(q) * plane + std::size_t(pairFrom + shift)];
  };
  const auto relaxBlackAndWrite = [&](int q) {  // (z0 <= q < z1: an unknown's plane)
    const int black = blackShift(q), other = 1 - black;
    const std::size_t first = std::size_t(q) * plane + std::size_t(pairFrom);
    const T* below = red[(q - 1) % 3];
    const T* here = red[q % 3];
    const T* above = red[(q + 1) % 3];
    if (pairUnknown >> other & 1) next[first + other] = here[pairAt + other];
    if (!(pairUnknown >> black & 1)) return;
    const int at = pairAt + black;
    const auto from = [&](int dx, int dy, int dz) {
      return (dz < 0 ? below : dz > 0 ? above : here)[at + dx + dy * kRedX];
    };
    T centre;
    const T neighbours =
        neighbourSum<3, Stencil::Compact, kStored>(from, op, first + black, centre);
    next[first + black] =
        relaxed(old[q & 3][pairOld + black], neighbours, h2 * fBlack, centre, omega);
  };

  // Red is needed on planes z0 - 1 ... z1, which read u's planes z0 - 2 ... z1 + 1.
  for (int q = max(z0 - 2, 0); q <= z0 - 1; ++q) {
    load(q);
    store(q);
  }
  load(z0);
  loadRedF(z0 - 1);
  for (int q = z0 - 1; q <= z1; ++q) {
    if (q + 1 <= n) store(q + 1);
    if (q + 2 <= min(n, z1 + 1)) load(q + 2);
    __syncthreads();  // plane q + 1 staged; the black nodes of plane q - 2 done with the rings
    relaxRed(q);
    if (q + 1 <= z1) loadRedF(q + 1);
    __syncthreads();  // plane q's red nodes there for the black ones of q - 1
    if (q - 1 >= z0) relaxBlackAndWrite(q - 1);
    if (q >= z0 && q < z1) loadBlackF(q);
  }
}
dim3 fusedBlocks(const Grid& g, int zBlock) {
  return dim3(blocksFor(g.n - 1, kFusedX), blocksFor(g.n - 1, kFusedY), blocksFor(g.n - 1, zBlock));
}

// Every node in place at once: a race on purpose (the variant's lesson; racecheck reports it).
template <int D, Stencil S, typename T, bool kStored>
__global__ void unorderedKernel(T* u, const T* f, Operator<T> op, Grid g, T h2, T omega) {
  int x, y, z;
  if (!unknownOf<D>(g, x, y, z)) return;
  const std::size_t i = g.index(x, y, z);
  u[i] = updateAt<D, S, kStored>(u, f, op, g, i, h2, omega);
}

// The coarse level's f: the fine residual, full-weighted onto each coarse unknown.
template <int D, Stencil S, typename T>
__global__ void restrictKernel(const T* u, const T* f, Operator<T> op, Grid fine, T* coarseF,
                               Grid coarse) {
  int x, y, z;
  if (!unknownOf<D>(coarse, x, y, z)) return;
  T sum = 0;
  for (int dz = (D == 3 ? -1 : 0); dz <= (D == 3 ? 1 : 0); ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        sum += restrictionWeight<T>(D, dx, dy, dz) *
               nodeQuantity<D, S>(Quantity::Residual, u, f, nullptr, op, fine, 2, 2 * x + dx,
                                  2 * y + dy, 2 * z + dz);
  coarseF[coarse.index(x, y, z)] = sum;
}

// The fine level's u plus the coarse correction, interpolated.
template <int D, typename T>
__global__ void prolongKernel(const T* coarseU, Grid coarse, T* u, Grid fine) {
  int x, y, z;
  if (!unknownOf<D>(fine, x, y, z)) return;
  u[fine.index(x, y, z)] += interpolated(coarseU, coarse, x, y, z);
}

struct Larger {
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

// A block's sums of r^2 and e^2 and its largest |u| over a grid-stride share of the unknowns.
template <int D, Stencil S, typename T>
__global__ void __launch_bounds__(kNormBlock)
    normsKernel(const T* u, const T* f, Operator<T> op, Grid g, double* partials) {
  const std::size_t m = std::size_t(g.n - 1), unknowns = g.unknowns();
  double r2 = 0, e2 = 0, most = 0;
  for (std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < unknowns;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const int x = 1 + int(k % m), y = 1 + int(k / m % m), z = D == 3 ? 1 + int(k / (m * m)) : 0;
    const T value = u[g.index(x, y, z)];
    const T r = nodeQuantity<D, S>(Quantity::Residual, u, f, nullptr, op, g, 2, x, y, z);
    const double e = value - sineSolution(g, x, y, z);
    r2 += double(r) * r;
    e2 += e * e;
    most = fmax(most, fabs(double(value)));
  }
  using Reduce = cub::BlockReduce<double, kNormBlock>;
  __shared__ typename Reduce::TempStorage storage;
  r2 = Reduce(storage).Sum(r2);
  __syncthreads();
  e2 = Reduce(storage).Sum(e2);
  __syncthreads();
  most = Reduce(storage).Reduce(most, Larger{});
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = r2;
    partials[kNormBlocks + blockIdx.x] = e2;
    partials[2 * kNormBlocks + blockIdx.x] = most;
  }
}

template <int D, Stencil S, typename T>
__global__ void renderKernel(Quantity quantity, const T* u, const T* f, const T* k, Operator<T> op,
                             Grid g, int colours, int slice, FieldRequest r, float* pixels) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= r.width || py >= r.height) return;
  pixels[std::size_t(py) * r.width + px] =
      pixelValue<D, S>(quantity, u, f, k, op, g, colours, slice, r, px, py);
}

// A level's stencil at each unknown from its cells' coefficients.
template <int D, Stencil S, typename T>
__global__ void buildStencilsKernel(const T* k, T* stencils, Grid g) {
  int x, y, z;
  if (!unknownOf<D>(g, x, y, z)) return;
  const std::size_t i = g.index(x, y, z);
  buildStencil<D, S>(g, k, x, y, z, stencils + i, g.nodes());
}

// A coarser level's coefficients, each the mean of the finer cells it covers.
template <typename T>
__global__ void coarseCoefficientKernel(const T* fine, Grid fineGrid, T* coarse, Grid g) {
  const int cx = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int cy = int(blockIdx.y * blockDim.y + threadIdx.y), cz = int(blockIdx.z);
  if (cx >= g.n || cy >= g.n) return;
  coarse[g.cell(cx, cy, cz)] = coarseCoefficient(fine, fineGrid, cx, cy, cz);
}

// Sets f at each node and leaves what it held in the edit.
template <typename T>
__global__ void setNodesKernel(T* f, NodeValue* nodes, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const T before = f[nodes[i].node];
  f[nodes[i].node] = T(nodes[i].value);
  nodes[i].value = before;
}

// One grid of the hierarchy, as on the CPU.
template <typename T>
struct DeviceLevel {
  Grid grid;
  DeviceBuffer<T> u, f;
  DeviceBuffer<T> k, stencils;  // with stored stencils: the cells' coefficients, a stencil a node
};

// T: float or double, what u and f are held in.
template <typename T>
class CudaEngine final : public PoissonEngine {
 public:
  explicit CudaEngine(PoissonTimings timings) : timings_(timings) {}

  void reshape(const Grid& grid) override {
    requireDeviceMemory(engineBytes(grid, kPrecision, {}), heldBytes(),
                        "a grid of " + std::to_string(grid.n) + " cells a side");
    levels_.clear();
    next_.release();
    for (const Grid& g : hierarchy(grid)) {
      DeviceLevel<T>& level = levels_.emplace_back();
      level.grid = g;
      level.u.allocate(g.nodes());
      level.f.allocate(g.nodes());
      level.u.zero();
      level.f.zero();
    }
    next_.allocate(grid.nodes());
    next_.zero();
    variable_ = false;
    built_.reset();
  }
  const Grid& grid() const override { return levels_[0].grid; }

  void load(std::span<const double> u, std::span<const double> f) override {
    DeviceLevel<T>& top = levels_[0];
    const std::vector<T> hostU(u.begin(), u.end()), hostF(f.begin(), f.end());
    WS_CUDA_CHECK(cudaMemcpy(top.u.data(), hostU.data(), top.u.bytes(), cudaMemcpyHostToDevice));
    WS_CUDA_CHECK(cudaMemcpy(top.f.data(), hostF.data(), top.f.bytes(), cudaMemcpyHostToDevice));
    WS_CUDA_CHECK(cudaMemcpy(next_.data(), top.u.data(), top.u.bytes(), cudaMemcpyDeviceToDevice));
  }
  std::vector<double> solution() override { return widened(copyOut(levels_[0].u)); }
  std::vector<double> rightHandSide() override { return widened(copyOut(levels_[0].f)); }
  std::vector<NodeValue> setRightHandSide(std::span<const NodeValue> nodes) override {
    return setValues(levels_[0].f, nodes);
  }

  void loadCoefficient(std::span<const double> k, const Sweep& s) override {
    const bool variable = !k.empty();
    if (variable && k.size() != grid().cells())
      throw std::invalid_argument("a coefficient for every cell of the grid");
    if (variable || s.stored) allocateStencils(s);
    variable_ = variable;
    DeviceLevel<T>& top = levels_[0];
    if (top.k) {
      const std::vector<T> host =
          variable ? std::vector<T>(k.begin(), k.end()) : std::vector<T>(top.k.size(), T(1));
      WS_CUDA_CHECK(cudaMemcpy(top.k.data(), host.data(), top.k.bytes(), cudaMemcpyHostToDevice));
    }
    built_.reset();
    prepare(s);
  }
  std::vector<double> coefficient() override {
    if (!variable_) return {};
    return widened(copyOut(levels_[0].k));
  }
  std::vector<NodeValue> setCoefficient(std::span<const NodeValue> cells, const Sweep& s) override {
    if (!variable_) loadCoefficient(std::vector<double>(grid().cells(), 1.0), s);
    std::vector<NodeValue> before = setValues(levels_[0].k, cells);
    built_.reset();
    prepare(s);
    return before;
  }
  void prepare(const Sweep& s) override {
    if (!s.stored || built_ == s.stencil) return;
    allocateStencils(s);
    withStencil(grid().dims, s.stencil, [&]<int D, Stencil S>() {
      for (std::size_t l = 0; l < levels_.size(); ++l) {
        DeviceLevel<T>& level = levels_[l];
        const Grid& g = level.grid;
        if (l > 0) {
          const dim3 blocks(blocksFor(g.n, kBlock.x), blocksFor(g.n, kBlock.y), D == 3 ? g.n : 1);
          coarseCoefficientKernel<T>
              <<<blocks, kBlock>>>(levels_[l - 1].k.data(), levels_[l - 1].grid, level.k.data(), g);
          WS_CUDA_CHECK_LAUNCH();
        }
        buildStencilsKernel<D, S, T>
            <<<unknownBlocks<D>(g), kBlock>>>(level.k.data(), level.stencils.data(), g);
        WS_CUDA_CHECK_LAUNCH();
      }
      return 0;
    });
    built_ = s.stencil;
  }

  void sweep(int count, const Sweep& s) override {
    if (count <= 0) return;
    prepare(s);
    injectGpuFaultIfRequested();
    ring_.start();
    withStencil(grid().dims, s.stencil, [&]<int D, Stencil S>() {
      for (int k = 0; k < count; ++k) {
        if (s.method == Method::Multigrid)
          vcycle<D, S>(0, s);
        else
          sweepLevel<D, S>(levels_[0], s, k > 0);
      }
      return 0;
    });
    const double updates = double(grid().unknowns()) * count;
    ring_.stop(updates, updates * bytesPerUpdate(s, grid().dims, kPrecision));
  }

  Norms norms(const Sweep& s) override {
    prepare(s);
    if (!partials_) partials_.allocate(3 * kNormBlocks);
    const DeviceLevel<T>& top = levels_[0];
    withStencil(top.grid.dims, s.stencil, [&]<int D, Stencil S>() {
      normsKernel<D, S, T><<<kNormBlocks, kNormBlock>>>(
          top.u.data(), top.f.data(), operatorOf(top, s), top.grid, partials_.data());
      return 0;
    });
    WS_CUDA_CHECK_LAUNCH();
    std::vector<double> partials = copyOut(partials_);
    Norms norms;
    for (int b = 0; b < kNormBlocks; ++b) {
      norms.residual += partials[b];
      norms.error += partials[kNormBlocks + b];
      norms.largest = std::max(norms.largest, partials[2 * kNormBlocks + b]);
    }
    const double unknowns = double(top.grid.unknowns());
    norms.residual = std::sqrt(norms.residual / unknowns);
    norms.error = std::sqrt(norms.error / unknowns);
    return norms;
  }

  void render(Quantity quantity, const Sweep& s, int slice, const FieldRequest& r,
              FieldImage& image) override {
    prepare(s);
    const std::size_t pixels = std::size_t(r.width) * r.height;
    viewRing_.start();
    float* target = output_.prepare(image.pixels, pixels, image.onDevice);
    const DeviceLevel<T>& top = levels_[0];
    const dim3 blocks(blocksFor(r.width, kBlock.x), blocksFor(r.height, kBlock.y));
    withStencil(top.grid.dims, s.stencil, [&]<int D, Stencil S>() {
      renderKernel<D, S, T><<<blocks, kBlock>>>(
          quantity, top.u.data(), top.f.data(), variable_ ? top.k.data() : nullptr,
          operatorOf(top, s), top.grid, s.colours, slice, r, target);
      return 0;
    });
    WS_CUDA_CHECK_LAUNCH();
    viewRing_.stop(double(pixels), double(pixels) * sizeof(float));
    output_.deliver();
  }

  void pollTimings() override {
    ring_.collect(*timings_.sweep);
    viewRing_.collect(*timings_.view);
  }
  void drainTimings() override {
    ring_.drain(*timings_.sweep);
    viewRing_.drain(*timings_.view);
  }
  void synchronize() override { WS_CUDA_CHECK(cudaDeviceSynchronize()); }

  std::string configuration(const Sweep& s) const override {
    const bool coloured = s.method == Method::Coloured || s.method == Method::Multigrid;
    const bool three = grid().dims == 3;
    std::string how = !coloured        ? "a thread a node, blocks of 32x8"
                      : !three         ? "a thread a node, blocks of 64x4"
                      : s.colours == 2 ? "a thread a node in each of two planes, blocks of 64x4x2"
                                       : "a thread a node, blocks of 64x2x2";
    if (coloured && overlappingLaunches())
      how += ", each pass overlapping the end of the one before";
    const bool redBlack7 = three && s.colours == 2 && s.stencil == Stencil::Compact;
    if (coloured && s.kernel == Kernel::Columns && redBlack7)
      how = "a thread a column pair, " + std::to_string(s.zBlock) + " planes in registers";
    else if (coloured && s.kernel == Kernel::FusedSweep && redBlack7)
      how = "both colours in one pass, tiles of " + std::to_string(kFusedX) + "x" +
            std::to_string(kFusedY) + " and a halo, " + std::to_string(s.zBlock) +
            " planes a block" + (s.method == Method::Multigrid ? " (the finest level)" : "");
    else if (coloured && s.kernel == Kernel::SharedSlices)
      how = "shared-memory slices of " + std::to_string(kTileX) + "x" + std::to_string(kTileY) +
            " and a halo" +
            (grid().dims == 3 ? ", " + std::to_string(s.zBlock) + " planes a block" : "");
    return how + (coloured ? ", the colour a template parameter, " : ", ") +
           (kPrecision == Precision::Double ? "double" : "float");
  }

 private:
  static constexpr Precision kPrecision =
      sizeof(T) == sizeof(double) ? Precision::Double : Precision::Float;

  static std::vector<double> widened(const std::vector<T>& values) {
    return {values.begin(), values.end()};
  }

  double heldBytes() const {
    double bytes = double(next_.bytes());
    for (const DeviceLevel<T>& level : levels_)
      bytes += double(level.u.bytes() + level.f.bytes() + level.k.bytes() + level.stencils.bytes());
    return bytes;
  }

  // Sets values[node] for each edit and returns what they held.
  std::vector<NodeValue> setValues(DeviceBuffer<T>& values, std::span<const NodeValue> nodes) {
    if (nodes.empty()) return {};
    if (edits_.size() < nodes.size()) edits_.allocate(nodes.size());
    WS_CUDA_CHECK(
        cudaMemcpy(edits_.data(), nodes.data(), nodes.size_bytes(), cudaMemcpyHostToDevice));
    setNodesKernel<T>
        <<<blocksFor(nodes.size(), 256), 256>>>(values.data(), edits_.data(), int(nodes.size()));
    WS_CUDA_CHECK_LAUNCH();
    std::vector<NodeValue> before(nodes.size());
    WS_CUDA_CHECK(
        cudaMemcpy(before.data(), edits_.data(), nodes.size_bytes(), cudaMemcpyDeviceToHost));
    return before;
  }

  // The operator a level's sweeps apply: its stored stencils where the sweep stores them.
  static Operator<T> operatorOf(const DeviceLevel<T>& level, const Sweep& s) {
    if (!s.stored) return {};
    return {level.stencils.data(), level.grid.nodes()};
  }

  // Each level's coefficients (1 where none were loaded) and room for its stencils.
  void allocateStencils(const Sweep& s) {
    const std::size_t slots = std::size_t(storedValues(s.stencil, grid().dims));
    if (levels_[0].k && levels_[0].stencils.size() == slots * grid().nodes()) return;
    Sweep stored = s;
    stored.stored = true;
    double held = 0;
    for (const DeviceLevel<T>& level : levels_) held += double(level.stencils.bytes());
    requireDeviceMemory(
        engineBytes(grid(), kPrecision, stored) - engineBytes(grid(), kPrecision, {}),
        heldBytes() - held,
        "the stencils of a grid of " + std::to_string(grid().n) + " cells a side");
    for (DeviceLevel<T>& level : levels_) {
      if (!level.k) {
        level.k.allocate(level.grid.cells());
        const std::vector<T> ones(level.grid.cells(), T(1));
        WS_CUDA_CHECK(
            cudaMemcpy(level.k.data(), ones.data(), level.k.bytes(), cudaMemcpyHostToDevice));
      }
      level.stencils.release();
      level.stencils.allocate(slots * level.grid.nodes());
      level.stencils.zero();
    }
    built_.reset();
  }

  template <typename V>
  static std::vector<V> copyOut(const DeviceBuffer<V>& buffer) {
    std::vector<V> host(buffer.size());
    WS_CUDA_CHECK(cudaMemcpy(host.data(), buffer.data(), buffer.bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

  // afterSweep: the stream's last kernel was the last colour pass of a sweep of this level (the
  // next sweep's first pass may overlap it).
  template <int D, Stencil S>
  void sweepLevel(DeviceLevel<T>& level, const Sweep& s, bool afterSweep = false) {
    if (s.stored)
      sweepLevel<D, S, true>(level, s, afterSweep);
    else
      sweepLevel<D, S, false>(level, s, afterSweep);
  }
  // kStored: the stencils read from memory (a template parameter: see neighbourSum).
  template <int D, Stencil S, bool kStored>
  void sweepLevel(DeviceLevel<T>& level, const Sweep& s, bool afterSweep) {
    const Grid& g = level.grid;
    const T h2 = T(g.spacing() * g.spacing()), omega = T(s.omega);
    const Operator<T> op = operatorOf(level, s);
    switch (s.method) {
      case Method::Jacobi:
        recordedLaunch("jacobiKernel", jacobiKernel<D, S, T, kStored>, unknownBlocks<D>(g), kBlock)(
            level.u.data(), level.f.data(), op, next_.data(), g, h2, omega);
        std::swap(level.u, next_);
        break;
      case Method::Unordered:
        recordedLaunch("unorderedKernel", unorderedKernel<D, S, T, kStored>, unknownBlocks<D>(g),
                       kBlock)(level.u.data(), level.f.data(), op, g, h2, omega);
        break;
      case Method::Coloured:
      case Method::Multigrid:
        if (s.colours == 2)
          colourPasses<D, S, kStored, 2>(level, s, op, h2, omega, afterSweep);
        else
          colourPasses<D, S, kStored, D == 2 ? 4 : 8>(level, s, op, h2, omega, afterSweep);
        break;
      case Method::Lexicographic:
        throw InputError("sequential Gauss-Seidel runs on the CPU only");
    }
    WS_CUDA_CHECK_LAUNCH();
  }

  // A pass a colour, each its own kernel; a thread a node's each overlapping the end of the one
  // before (and the first the previous sweep's last, after one).
  template <int D, Stencil S, bool kStored, int kColours>
  void colourPasses(DeviceLevel<T>& level, const Sweep& s, const Operator<T>& op, T h2, T omega,
                    bool afterSweep) {
    if constexpr (S == Stencil::Full && kColours == 2) {
      throw InputError("red-black is not a colouring of the full stencil");
    } else if (D == 3 && S == Stencil::Compact && kColours == 2 && s.kernel == Kernel::Columns) {
      const int zBlock = std::max(s.zBlock, 1);
      const dim3 blocks = columnBlocks(level.grid, zBlock);
      recordedLaunch("columnRedBlackKernel", columnRedBlackKernel<T, kStored, 0>, blocks, kBlock)(
          level.u.data(), level.f.data(), op, level.grid, h2, omega, zBlock);
      recordedLaunch("columnRedBlackKernel", columnRedBlackKernel<T, kStored, 1>, blocks, kBlock)(
          level.u.data(), level.f.data(), op, level.grid, h2, omega, zBlock);
    } else if (D == 3 && S == Stencil::Compact && kColours == 2 && s.kernel == Kernel::FusedSweep &&
               &level == &levels_[0]) {
      const int zBlock = std::max(s.zBlock, 1);
      recordedLaunch("fusedRedBlackKernel", fusedRedBlackKernel<T, kStored>,
                     fusedBlocks(level.grid, zBlock), dim3(kFusedX / 2, kFusedY))(
          level.u.data(), level.f.data(), op, level.grid, h2, omega, zBlock, next_.data());
      std::swap(level.u, next_);
    } else if (s.kernel == Kernel::SharedSlices) {
      using Kernel = void (*)(T*, const T*, Operator<T>, Grid, T, T, int);
      const auto kernels = []<int... C>(std::integer_sequence<int, C...>) {
        return std::array<Kernel, kColours>{slicedColourKernel<D, S, T, kStored, kColours, C>...};
      }
      (std::make_integer_sequence<int, kColours>());
      const int zBlock = std::max(s.zBlock, 1);
      for (int c = 0; c < kColours; ++c)
        recordedLaunch("slicedColourKernel", kernels[c], slicedBlocks<D>(level.grid, zBlock),
                       kBlock)(level.u.data(), level.f.data(), op, level.grid, h2, omega, zBlock);
    } else {
      using Kernel = void (*)(T*, const T*, Operator<T>, Grid, T, T, bool);
      const auto kernels = []<int... C>(std::integer_sequence<int, C...>) {
        return std::array<Kernel, kColours>{colourKernel<D, S, T, kStored, kColours, C>...};
      }
      (std::make_integer_sequence<int, kColours>());
      const dim3 blocks = colouredBlocks<D, kColours>(level.grid);
      // Back and forth: every odd pass backwards, so that each begins where the one before ended
      // (a sweep's last pass, with an even count of colours, ends where the next sweep begins).
      for (int c = 0; c < kColours; ++c)
        dependentLaunch("colourKernel", kernels[c], blocks, kColourBlock<D, kColours>,
                        c > 0 || afterSweep)(level.u.data(), level.f.data(), op, level.grid, h2,
                                             omega, s.backAndForth && c % 2 == 1);
    }
  }

  template <int D, Stencil S>
  void vcycle(std::size_t l, const Sweep& s) {
    DeviceLevel<T>& fine = levels_[l];
    if (l + 1 == levels_.size()) {
      sweepLevel<D, S>(fine, s);
      return;
    }
    for (int k = 0; k < s.pre; ++k) sweepLevel<D, S>(fine, s, k > 0);
    DeviceLevel<T>& coarse = levels_[l + 1];
    recordedLaunch("restrictKernel", restrictKernel<D, S, T>, unknownBlocks<D>(coarse.grid),
                   kBlock)(fine.u.data(), fine.f.data(), operatorOf(fine, s), fine.grid,
                           coarse.f.data(), coarse.grid);
    WS_CUDA_CHECK(cudaMemsetAsync(coarse.u.data(), 0, coarse.u.bytes()));
    vcycle<D, S>(l + 1, s);
    recordedLaunch("prolongKernel", prolongKernel<D, T>, unknownBlocks<D>(fine.grid), kBlock)(
        coarse.u.data(), coarse.grid, fine.u.data(), fine.grid);
    WS_CUDA_CHECK_LAUNCH();
    for (int k = 0; k < s.post; ++k) sweepLevel<D, S>(fine, s, k > 0);
  }

  PoissonTimings timings_;
  GpuTimerRing ring_, viewRing_;
  std::vector<DeviceLevel<T>> levels_;
  DeviceBuffer<T> next_;  // Jacobi's new values
  DeviceBuffer<NodeValue> edits_;
  DeviceBuffer<double> partials_;
  DeviceOutput<float> output_;
  bool variable_ = false;         // k was loaded (else 1 everywhere)
  std::optional<Stencil> built_;  // the stencil the stored ones were built for, while current
};

}  // namespace

std::unique_ptr<PoissonEngine> makeCudaEngine(Precision precision, PoissonTimings timings) {
  if (precision == Precision::Double) return std::make_unique<CudaEngine<double>>(timings);
  return std::make_unique<CudaEngine<float>>(timings);
}

}  // namespace ws::poisson
