#pragma once
// How the 3-D fast path (ch_kernels.cuh's vectorKernel3d) shares the planes among its blocks: each
// block marches through one part of them, and the parts are as few as fill the GPU in whole waves
// of blocks, since every march starts with two planes that only make mu and with its pipeline
// empty (on an H200 at 256^3, four parts of 64 planes in one wave ran 8% faster than eight of 32
// in two: docs/performance.md).
#include <cstdint>

#include "compute/core/hd.h"

namespace ws::ch {

// The first plane of part p of `parts` (nz for p == parts): even, and the parts as even as that
// allows. (The march does not need the even start: its exchange buffers alternate with its turns,
// counted from its first, whatever the plane; a resident block marching down starts at nz less its
// part's end.) Every part holds a plane at least while parts <= (nz + 1) / 2.
WS_HD int partStart(int part, int parts, int nz) {
  return part == parts ? nz : 2 * int(std::int64_t(part) * ((nz + 1) / 2) / parts);
}

// What starting a march costs, in planes' time (as run 68's four against eight parts measured it).
constexpr int kMarchStartPlanes = 6;

// The parts for `columns` blocks a part, `wave` blocks at once: those minimising the waves times
// the planes a block marches through (its part and the start), from 1 to (nz + 1) / 2.
inline int planeParts(int columns, int nz, int wave) {
  int best = 1;
  double bestCost = 0;
  for (int parts = 1; parts <= (nz + 1) / 2; ++parts) {
    const std::int64_t blocks = std::int64_t(columns) * parts;
    const double waves = double((blocks + wave - 1) / wave);
    const double cost = waves * (double(nz) / parts + kMarchStartPlanes);
    if (parts == 1 || cost < bestCost) best = parts, bestCost = cost;
  }
  return best;
}

}  // namespace ws::ch
