#pragma once
// The chapter's Figure 4.1 on the CPU: two models voxelized on one grid, each voxel set in a
// cuckoo table, each model's voxels looked up in the other's table (the hits are the contact
// voxels), and a flood fill from the grid's boundary that tells which voxels of each model lie
// inside the other.
#include <cstdint>
#include <vector>

#include "compute/voxhash/cuckoo.h"
#include "compute/voxhash/shapes.h"
#include "compute/voxhash/voxels.h"

namespace ws::voxhash {

// What a voxel of one model is, as the view colours it.
enum VoxelClass : std::uint8_t {
  kOnlyA = 0,     // a voxel of A, outside B
  kOnlyB = 1,     // a voxel of B, outside A
  kContact = 2,   // a voxel of both
  kAInsideB = 3,  // a voxel of A inside B's shell
  kBInsideA = 4,  // a voxel of B inside A's shell
};

// The keys of the cells that hold points, sorted and without repeats; points outside the grid
// are dropped.
std::vector<std::uint32_t> voxelize(const std::vector<Point>& points, const VoxelGrid& grid);

// One byte per cell of the grid: 1 where the cell is reached from the grid's boundary through
// cells that are not in `shell` (sorted keys), moving across faces: the outside of a closed
// shell. Breadth-first, the reference for the GPU fill.
std::vector<std::uint8_t> outsideOf(const std::vector<std::uint32_t>& shell, const VoxelGrid& grid);

// The class a voxel of one model gets, from the lookup in the other's structure and the other's
// outside: the rule shared by the CPU and the GPU.
WS_HD std::uint8_t classOf(bool found, bool outsideOther, VoxelClass only, VoxelClass inside) {
  return found ? std::uint8_t(kContact) : outsideOther ? std::uint8_t(only) : std::uint8_t(inside);
}

struct Intersection {
  std::vector<std::uint8_t> classOfA, classOfB;  // per key of A and of B, in their order
  std::size_t contact = 0, aInsideB = 0, bInsideA = 0;
};

// Classifies the voxels of A and B (sorted unique keys), with cuckoo tables built from `params`.
Intersection intersect(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                       const VoxelGrid& grid, const CuckooParams& params, std::uint64_t seed);

}  // namespace ws::voxhash
