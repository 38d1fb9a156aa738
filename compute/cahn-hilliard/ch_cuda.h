#pragma once
// The CUDA engine for Cahn-Hilliard: the source's kernels A-D over global, shared and texture
// memory, and a fast path. The kernels themselves are in ch_kernels.cuh.
#include <memory>

#include "compute/cahn-hilliard/ch_engine.h"

namespace ws::ch {

enum class CudaChKernel {
  Global,         // A: every stencil value from global memory
  Shared,         // B: 16x16 blocks, 12x12 updating threads and a 2-cell halo in shared memory
  Texture,        // C: through the texture cache, the periodic boundary by the hardware's wrap
  TextureShared,  // D: read through the texture into shared memory, then as B
  Tiled,          // cooperative tiles in shared memory, mu once per cell, several cells per thread
  Shuffle,        // the fast path: warps marching through the grid, neighbours by shuffles
};

struct CudaChConfig {
  CudaChKernel kernel = CudaChKernel::Shuffle;
  bool strips = false;    // A and C: blocks of 256x1 threads instead of 16x16 rectangles
  bool constant = false;  // the coefficients from __constant__ memory instead of the arguments
  // The 2-D fast path (four columns a lane): every other pass from the grid's end, where the pass
  // before ended, so that what it reads first is still in the L2 cache; false: each from the start.
  bool backAndForth = true;
  // The 3-D fast path: a step's passes in one launch of blocks that stay on the GPU, each starting
  // a pass as its neighbours finish the one before; false: a launch a pass.
  bool resident = true;
};

std::unique_ptr<ChEngine> makeCudaEngine(const CudaChConfig& config, ChTimings timings);

}  // namespace ws::ch
