#pragma once
// The bytes each stage of the intersection pipeline must move, for GB/s in the overlay: what
// the stage cannot avoid reading and writing, with random accesses counted as whole 32-byte
// sectors (see hash_lab.h for the tables).
#include "compute/voxhash/hash_lab.h"
#include "compute/voxhash/pipeline.h"

namespace ws::voxhash {

// A point read (12 bytes), its key written and read back by a radix sort of four passes (each
// reading and writing 4 bytes).
constexpr double kVoxelizeBytesPerPoint = 12 + 4 + 4 * 8;
// The GPU fill's cells are its models' boxes, a bit each in two arrays: both cleared, then at
// least three passes (x, y, z) read both and write the outside.
constexpr double kFillBytesPerCell = (2 + 3 * 3) / 8.0;

// The CPU's breadth-first search writes a byte of state per cell of the grid and reads it back.
constexpr double kSearchBytesPerCell = 2;

inline double boxCells(const VoxelBox& box) {
  if (box.empty()) return 0;
  return double(box.hi[0] - box.lo[0] + 1) * (box.hi[1] - box.lo[1] + 1) *
         (box.hi[2] - box.lo[2] + 1);
}
// A key and its lookup result read, its class written.
constexpr double kClassifyBytesPerKey = 4 + 4 + 1;

inline double buildBytes(LookupStructure s, double keys, const VoxelGrid& grid,
                         double slotsPerKey) {
  switch (s) {
    case LookupStructure::Cuckoo:
      return keys * buildBytesPerKey(slotsPerKey);
    case LookupStructure::SortedArray:
      return 0;                     // the sorted voxel list is the structure
    case LookupStructure::BitGrid:  // cleared, then one bit set per key (a sector each)
      return 2 * double(grid.cells()) / 8 + keys * kSectorBytes;
  }
  return 0;
}

// Every structure reads at least one random sector per lookup (the sorted array about lg n).
constexpr double kQueryBytesPerKey = kHitBytesPerKey;

}  // namespace ws::voxhash
