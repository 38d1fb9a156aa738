#pragma once
// The flood fill on the GPU: which cells lie outside a model's closed shell of voxels. Only the
// shell's bounding box is filled (every cell beyond it is outside, and reaches infinity around
// it), at one bit per cell, a row of x in whole 32-bit words. A pass runs along one axis, every
// line of cells at once: along x a thread carries the outside through its row's words (an
// addition spreads it through a word's runs of free cells), along y or z a warp scans a column of
// words, 32 columns of cells, both ways. Passes take turns, x, y, z, x, ..., until two in a row
// change nothing: then the outside is closed along all three axes, and so it is the flood fill's,
// which breadth-first search on the CPU (outsideOf) checks. A shape needs a pass per turn of the
// longest path its outside must take: three for a convex one. All passes of both models run in
// one cooperative launch, with grid-wide barriers between them; nothing waits on the host.
#include <cstdint>
#include <vector>

#include "compute/core/device_buffer.h"
#include "compute/core/hd.h"
#include "compute/voxhash/voxels.h"

namespace ws::voxhash {

// A filled box as the classification reads it.
struct OutsideBits {
  int lo[3] = {0, 0, 0}, size[3] = {0, 0, 0};  // an empty box: everything is outside
  int words = 0;                               // per row of x
  const unsigned* bits = nullptr;              // (z * size[1] + y) * words + x / 32, bit x % 32

  WS_HD bool outside(std::uint32_t key) const {
    int x, y, z;
    unpackVoxel(key, x, y, z);
    x -= lo[0], y -= lo[1], z -= lo[2];
    if (unsigned(x) >= unsigned(size[0]) || unsigned(y) >= unsigned(size[1]) ||
        unsigned(z) >= unsigned(size[2]))
      return true;
    return bits[(std::size_t(z) * size[1] + y) * words + x / 32] >> (x % 32) & 1u;
  }
};

class CudaShellFill {
 public:
  static constexpr int kMaxModels = 2;

  // Fills the outside of each of `models` shells: counts[m] voxel keys (device) within box
  // boxes[m]. Queued on the stream; nothing is waited for.
  void run(int models, const std::uint32_t* const shells[], const std::size_t counts[],
           const VoxelBox boxes[]);
  // Model m's outside, valid (on the device) once the queued work has run.
  const OutsideBits& outside(int m) const { return views_[m]; }
  // The passes the last run took (waits for it).
  int passes() const;

 private:
  DeviceBuffer<unsigned> shell_[kMaxModels], outside_[kMaxModels];
  OutsideBits views_[kMaxModels];
  DeviceBuffer<unsigned> flags_;  // the passes' change flags, then the pass count
};

// The outside of `shell` (sorted or not) as outsideOf gives it, a byte per cell of the grid,
// computed by CudaShellFill (for tests); `passes`, when given, receives the passes it took.
std::vector<std::uint8_t> outsideOfOnGpu(const std::vector<std::uint32_t>& shell,
                                         const VoxelGrid& grid, int* passes = nullptr);

}  // namespace ws::voxhash
