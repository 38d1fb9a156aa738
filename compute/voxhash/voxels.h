#pragma once
// The voxel grid both models are voxelized on: a cube of n^3 cells of one size from an origin, and
// a voxel's packed 30-bit key (10 bits per axis), the key the cuckoo tables store. A key is never
// 0xffffffff (the tables' empty marker) because it has 30 bits.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "compute/core/hd.h"

namespace ws::voxhash {

constexpr int kMaxGridSide = 1024;  // 10 bits per axis
// The key of a point outside the grid, before it is dropped: above every 30-bit key.
constexpr std::uint32_t kOffGrid = 1u << 30;

struct VoxelGrid {
  float origin[3] = {0, 0, 0};
  float voxel = 1;  // edge length of a cell
  int side = 64;    // cells per axis, at most kMaxGridSide

  WS_HD std::size_t cells() const { return std::size_t(side) * side * side; }
  WS_HD std::size_t index(int x, int y, int z) const {
    return (std::size_t(z) * side + y) * side + x;
  }
};

WS_HD constexpr std::uint32_t packVoxel(int x, int y, int z) {
  return std::uint32_t(x) | std::uint32_t(y) << 10 | std::uint32_t(z) << 20;
}
WS_HD constexpr void unpackVoxel(std::uint32_t key, int& x, int& y, int& z) {
  x = int(key & 1023u);
  y = int(key >> 10 & 1023u);
  z = int(key >> 20 & 1023u);
}

// A box of cells, bounds included; empty while hi < lo. The voxelizer reduces the points' cells
// to one (offGrid counts whether any point fell outside the grid, whose key then joins the voxel
// list as one extra, last key).
struct VoxelBox {
  int lo[3] = {kMaxGridSide, kMaxGridSide, kMaxGridSide}, hi[3] = {-1, -1, -1};
  int offGrid = 0;

  WS_HD bool empty() const { return hi[0] < lo[0]; }
  WS_HD static VoxelBox of(std::uint32_t key);
  // The smallest box holding both, for a reduction.
  WS_HD VoxelBox operator|(const VoxelBox& o) const {
    VoxelBox u;
    for (int a = 0; a < 3; ++a) {
      u.lo[a] = lo[a] < o.lo[a] ? lo[a] : o.lo[a];
      u.hi[a] = hi[a] > o.hi[a] ? hi[a] : o.hi[a];
    }
    u.offGrid = offGrid | o.offGrid;
    return u;
  }
};

// The index in a dense n^3 array of the cell with key `key`.
WS_HD std::size_t cellOf(const VoxelGrid& g, std::uint32_t key) {
  int x, y, z;
  unpackVoxel(key, x, y, z);
  return g.index(x, y, z);
}

// The key of the cell holding point p; false when p lies outside the grid.
WS_HD bool voxelOf(const VoxelGrid& g, float px, float py, float pz, std::uint32_t& key) {
  const float fx = floorf((px - g.origin[0]) / g.voxel), fy = floorf((py - g.origin[1]) / g.voxel),
              fz = floorf((pz - g.origin[2]) / g.voxel);
  if (!(fx >= 0 && fy >= 0 && fz >= 0 && fx < g.side && fy < g.side && fz < g.side)) return false;
  key = packVoxel(int(fx), int(fy), int(fz));
  return true;
}

// The box of the one cell `key`, or of nothing but the off-grid mark.
WS_HD VoxelBox VoxelBox::of(std::uint32_t key) {
  VoxelBox b;
  if (key == kOffGrid) {
    b.offGrid = 1;
  } else {
    unpackVoxel(key, b.lo[0], b.lo[1], b.lo[2]);
    for (int a = 0; a < 3; ++a) b.hi[a] = b.lo[a];
  }
  return b;
}

// The box of a list of keys on the host (for tests and the host versions of the GPU steps).
inline VoxelBox boxOf(const std::vector<std::uint32_t>& keys) {
  VoxelBox box;
  for (std::uint32_t key : keys) box = box | VoxelBox::of(key);
  return box;
}

}  // namespace ws::voxhash
