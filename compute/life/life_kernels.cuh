#pragma once
// Life kernels. (1)-(5) follow Balasalle, Lopez and Rutherford, "Optimizing Memory Access Patterns
// for Cellular Automata on GPUs" (GPU Computing Gems, Jade Edition, ch. 6): one 32-bit word per
// cell in a grid with a one-cell ghost border. (6) stores one bit per cell and updates 64 cells
// with a few dozen logic operations (life_bitops.h).
#include <cstdint>

#include "compute/life/life_bitops.h"
#include "compute/life/life_soup.h"
#include "compute/life/life_view.h"
#include "compute/views/field.h"

namespace ws::life {

// A grid of 32-bit cells with a ghost border: cell (x, y) is at base[origin + y*pitch + x] for
// x in [-1, width] and y in [-1, height]. The allocation also covers every cell a rounded-up
// thread block may read, so the kernels load without bounds checks and guard only their stores.
struct PaddedGeometry {
  int width, height;
  long long pitch;   // elements per row
  long long origin;  // element index of cell (0, 0)
  long long elements;
};

// kColumnMajor: threadIdx.x runs down a column (the lesson in coalescing: a warp's 32 loads then
// fall in 32 different rows); the grid is laid out to match (x blocks of blockDim.y columns).
template <bool kColumnMajor = false>
__global__ void lifeGlobalKernel(const std::uint32_t* __restrict__ current,
                                 std::uint32_t* __restrict__ next, PaddedGeometry g,
                                 std::uint32_t cellTable) {
  const int x =
      kColumnMajor ? blockIdx.x * blockDim.y + threadIdx.y : blockIdx.x * blockDim.x + threadIdx.x;
  const int y =
      kColumnMajor ? blockIdx.y * blockDim.x + threadIdx.x : blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= g.width || y >= g.height) return;
  const long long p = g.pitch;
  const std::uint32_t* c = current + g.origin + y * p + x;
  const std::uint32_t n = c[-p - 1] + c[-p] + c[-p + 1] + c[-1] + c[1] + c[p - 1] + c[p] + c[p + 1];
  next[g.origin + y * p + x] = (cellTable >> (n + 9 * c[0])) & 1u;
}

// Shared-memory tile of (BY+2) x (BX*CPT+2) cells; each thread updates CPT neighbouring cells,
// reusing the column sums they share (the chapter's "multicell" kernel when CPT > 1).
// kBarrier false: the race demonstration, no barrier between filling the tile and reading it.
template <int BX, int BY, int CPT, bool kBarrier = true>
__global__ void __launch_bounds__(BX* BY)
    lifeTileKernel(const std::uint32_t* __restrict__ current, std::uint32_t* __restrict__ next,
                   PaddedGeometry g, std::uint32_t cellTable) {
  constexpr int kTileW = BX * CPT + 2, kTileH = BY + 2;
  __shared__ std::uint32_t tile[kTileH][kTileW];
  const int x0 = blockIdx.x * BX * CPT, y0 = blockIdx.y * BY;
  const std::uint32_t* source = current + g.origin + (y0 - 1) * g.pitch + (x0 - 1);
  for (int i = threadIdx.y * BX + threadIdx.x; i < kTileW * kTileH; i += BX * BY) {
    const int ty = i / kTileW, tx = i % kTileW;
    tile[ty][tx] = source[ty * g.pitch + tx];
  }
  if constexpr (kBarrier) __syncthreads();

  const int y = y0 + threadIdx.y;
  if (y >= g.height) return;
  const int ty = threadIdx.y + 1, tx0 = threadIdx.x * CPT;  // tile column of the left neighbour
  std::uint32_t column[CPT + 2];
#pragma unroll
  for (int k = 0; k < CPT + 2; ++k)
    column[k] = tile[ty - 1][tx0 + k] + tile[ty][tx0 + k] + tile[ty + 1][tx0 + k];
  std::uint32_t* row = next + g.origin + y * g.pitch;
#pragma unroll
  for (int k = 0; k < CPT; ++k) {
    const int x = x0 + tx0 + k;
    if (x >= g.width) break;
    const std::uint32_t self = tile[ty][tx0 + k + 1];
    const std::uint32_t n = column[k] + column[k + 1] + column[k + 2] - self;
    row[x] = (cellTable >> (n + 9 * self)) & 1u;
  }
}

// Torus: copy the opposite edge into every ghost cell (one thread per ghost cell).
__global__ void wrapGhostsKernel(std::uint32_t* grid, PaddedGeometry g) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long rowGhosts = g.width + 2;  // per ghost row, corners included
  int x, y;
  if (i < 2 * rowGhosts) {
    x = static_cast<int>(i % rowGhosts) - 1;
    y = i < rowGhosts ? -1 : g.height;
  } else if (i < 2 * rowGhosts + 2LL * g.height) {
    const long long k = i - 2 * rowGhosts;
    y = static_cast<int>(k / 2);
    x = (k % 2) ? g.width : -1;
  } else {
    return;
  }
  const int sx = (x + g.width) % g.width, sy = (y + g.height) % g.height;
  grid[g.origin + y * g.pitch + x] = grid[g.origin + sy * g.pitch + sx];
}

// ---- conversions and edits, for both layouts ----

__global__ void paddedFromBits(const Word* __restrict__ bits, std::uint32_t* grid,
                               PaddedGeometry g) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= g.width || y >= g.height) return;
  const Word w = bits[static_cast<long long>(y) * wordsPerRow(g.width) + x / kWordBits];
  grid[g.origin + y * g.pitch + x] = (w >> (x % kWordBits)) & 1u;
}

__global__ void bitsFromPadded(const std::uint32_t* __restrict__ grid, Word* bits,
                               PaddedGeometry g) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const int words = wordsPerRow(g.width);
  if (j >= words || y >= g.height) return;
  Word w = 0;
  for (int b = 0; b < kWordBits && j * kWordBits + b < g.width; ++b)
    w |= Word(grid[g.origin + y * g.pitch + j * kWordBits + b] & 1u) << b;
  bits[static_cast<long long>(y) * words + j] = w;
}

__global__ void paddedSoup(std::uint32_t* grid, PaddedGeometry g, std::uint64_t seed,
                           std::uint64_t threshold) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= g.width || y >= g.height) return;
  grid[g.origin + y * g.pitch + x] = soupCell(seed, threshold, x, y);
}

__global__ void bitSoup(Word* bits, BitGeometry g, std::uint64_t seed, std::uint64_t threshold) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= g.words || y >= g.height) return;
  Word w = 0;
  for (int b = 0; b < kWordBits && j * kWordBits + b < g.width; ++b)
    w |= Word(soupCell(seed, threshold, j * kWordBits + b, y)) << b;
  bits[static_cast<long long>(y) * g.words + j] = w;
}

struct DeviceCellEdit {
  int x, y, alive;
};

// Each edit sets its cell and leaves in `alive` what the cell held before (for undo). Edits name
// distinct cells; in the bit layout, several may share a word (hence the atomics).
__global__ void paddedEdit(std::uint32_t* grid, PaddedGeometry g, DeviceCellEdit* edits,
                           int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  std::uint32_t& cell = grid[g.origin + edits[i].y * g.pitch + edits[i].x];
  const int before = cell != 0;
  cell = edits[i].alive;
  edits[i].alive = before;
}

__global__ void bitEdit(Word* bits, BitGeometry g, DeviceCellEdit* edits, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  auto* word = reinterpret_cast<unsigned long long*>(
      bits + static_cast<long long>(edits[i].y) * g.words + edits[i].x / kWordBits);
  const unsigned long long bit = 1ull << (edits[i].x % kWordBits);
  const unsigned long long before = edits[i].alive ? atomicOr(word, bit) : atomicAnd(word, ~bit);
  edits[i].alive = (before & bit) != 0;
}

// ---- (6) bit-packed step ----

// Each thread owns word column j over kRows rows. All kRows + 2 input rows are loaded before any
// arithmetic, so a thread keeps 3 (kRows + 2) loads in flight instead of waiting row by row.
template <bool kConway, int kRows>
__global__ void __launch_bounds__(128)
    lifeBitPackedKernel(const Word* __restrict__ current, Word* __restrict__ next, BitGeometry g,
                        unsigned birthTable, unsigned surviveTable) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int firstRow = (blockIdx.y * blockDim.y + threadIdx.y) * kRows;
  if (j >= g.words || firstRow >= g.height) return;
  RowWords words[kRows + 2];
#pragma unroll
  for (int i = 0; i < kRows + 2; ++i)
    words[i] = loadRowWords(rowOrNull(current, firstRow - 1 + i, g), j, g);
  RowSum sums[kRows + 2];
#pragma unroll
  for (int i = 0; i < kRows + 2; ++i) sums[i] = rowSum(words[i]);
  const Word mask = validBits(j, g);
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    const int r = firstRow + i;
    if (r < g.height)
      next[static_cast<long long>(r) * g.words + j] =
          nextState<kConway>(sums[i], sums[i + 1], sums[i + 2], words[i + 1].centre, birthTable,
                             surviveTable) &
          mask;
  }
}

// ---- (7) bit-packed with temporal blocking ----

// A warp's 32 lanes hold 32 neighbouring word columns of a tile of kTemporalRows + 2 kGens rows,
// all in registers; west and east neighbours come from the adjacent lanes by shuffles. The tile
// advances `generations` (at most kGens) generations before anything is written back. Errors
// creep in from the tile's edges one cell per generation: the outer lanes (0 and 31, a whole
// word each) and kGens rows at the top and bottom absorb them, and only the valid interior is
// stored. So each pass reads and writes the grid about once for several generations.
//
// A lane's west neighbour is bit 63 of the word of the lane before, its east bit 0 of the next
// lane's: a shuffle each way brings just that half-word, and a funnel shift each half-word moves
// the bit in. Lanes 0 and 31 take their own word for the missing neighbour (a shuffle past the
// warp's end returns the caller's value): wrong cells at the tile's sides, which spread a cell a
// generation and so stay in those halo words for 63 generations.
__device__ __forceinline__ RowSum laneRowSum(Word centre) {
  const unsigned lo = unsigned(centre), hi = unsigned(centre >> 32);
  const unsigned leftHi = __shfl_up_sync(0xffffffffu, hi, 1);
  const unsigned rightLo = __shfl_down_sync(0xffffffffu, lo, 1);
  const Word west = Word(__funnelshift_l(lo, hi, 1)) << 32 | __funnelshift_l(leftHi, lo, 1);
  const Word east = Word(__funnelshift_r(hi, rightLo, 1)) << 32 | __funnelshift_r(lo, hi, 1);
  return addThree(west, centre, east);
}

constexpr int kTemporalRows = 32;     // output rows per warp
constexpr int kTemporalColumns = 30;  // output words per warp (32 lanes less two halo lanes)

// One generation of the tile's rows [first, end), in place: row i is updated once the sums of the
// row below are made, the old row's own already taken. Rows outside the range keep what they
// held, which is read only by rows outside the next generation's range (one row narrower at either
// end). The range is known only when running, 0 < first <= kGens and kRows - kGens <= end <
// kRows: the rows between are updated without a check, and all are indexed by constants (an index
// the compiler cannot resolve would move the tile to local memory). Past a dead edge (!kTorus) the
// rows and columns outside the grid stay dead.
template <bool kConway, bool kTorus, int kGens, int kRows>
__device__ __forceinline__ void advanceTile(Word (&rows)[kRows], int first, int end, Word mask,
                                            unsigned long long liveRows, unsigned birthTable,
                                            unsigned surviveTable) {
  RowSum above{0, 0}, mid{0, 0};  // the sums of rows i - 2 and i - 1
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    if ((i < kGens - 1 && i < first - 1) || (i > kRows - kGens && i > end)) continue;
    const RowSum below = laneRowSum(rows[i]);
    if (i > kGens || i > first) {  // row i - 1 is in the range
      const Word born =
          nextState<kConway>(above, mid, below, rows[i - 1], birthTable, surviveTable);
      if constexpr (kTorus)
        rows[i - 1] = born;
      else
        rows[i - 1] = (liveRows >> (i - 1) & 1u) ? born & mask : 0;
    }
    above = mid;
    mid = below;
  }
}

// kTorus: the grid wraps and its width is a whole number of words, so no cell is masked.
template <bool kConway, bool kTorus, int kGens>
__global__ void __launch_bounds__(128)
    lifeBitTemporalKernel(const Word* __restrict__ current, Word* __restrict__ next, BitGeometry g,
                          int generations, unsigned birthTable, unsigned surviveTable) {
  constexpr int kRows = kTemporalRows + 2 * kGens;
  const int lane = threadIdx.x;
  const int j = blockIdx.x * kTemporalColumns - 1 + lane;
  const int firstRow = (blockIdx.y * blockDim.y + threadIdx.y) * kTemporalRows;
  if (firstRow >= g.height) return;  // the same for the whole warp
  const bool inside = j >= 0 && j < g.words;
  // On a torus (whose width is a whole number of words here) outside columns wrap; past a dead
  // edge they are dead and stay so.
  const bool live = inside || kTorus;
  const int column = inside ? j : (j + g.words) % g.words;
  const Word mask = live ? validBits(column, g) : 0;

  Word rows[kRows];
  unsigned long long liveRows = 0;
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    const Word* row = rowOrNull(current, firstRow - kGens + i, g);
    rows[i] = (row && live) ? row[column] : 0;
    if (row) liveRows |= 1ull << i;
  }
  // Generation k of n needs only the rows within n - 1 - k of the stored ones.
#pragma unroll 1
  for (int gen = 0; gen < generations; ++gen) {
    const int margin = generations - 1 - gen;
    advanceTile<kConway, kTorus, kGens>(rows, kGens - margin, kGens + kTemporalRows + margin, mask,
                                        liveRows, birthTable, surviveTable);
  }
  if (!inside || lane == 0 || lane == 31) return;
#pragma unroll
  for (int i = 0; i < kTemporalRows; ++i) {
    const int r = firstRow + i;
    if (r < g.height) next[static_cast<long long>(r) * g.words + j] = rows[kGens + i];
  }
}

// ---- views ----

struct PaddedReader {
  const std::uint32_t* cells;  // at cell (0, 0)
  long long pitch;
  __device__ float value(int x, int y) const { return float(cells[y * pitch + x]); }
};

struct BitReader {
  const Word* bits;
  int words;
  __device__ float value(int x, int y) const {
    return float((bits[static_cast<long long>(y) * words + x / kWordBits] >> (x % kWordBits)) & 1u);
  }
};

struct AgeReader {
  const std::uint8_t* ages;
  int width;
  __device__ float value(int x, int y) const {
    return float(ages[static_cast<long long>(y) * width + x]);
  }
};

template <typename Reader>
__global__ void renderKernel(Reader reader, int width, int height, FieldRequest request,
                             float* pixels, bool takeMax) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= request.width || py >= request.height) return;
  pixels[static_cast<long long>(py) * request.width + px] =
      samplePixel(reader, width, height, request, px, py, takeMax);
}

template <typename Reader>
__global__ void ageKernel(Reader reader, int width, int height, std::uint8_t* ages) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  std::uint8_t& a = ages[static_cast<long long>(y) * width + x];
  a = reader.value(x, y) != 0.0f ? static_cast<std::uint8_t>(min(a + 1, 255)) : 0;
}

}  // namespace ws::life
