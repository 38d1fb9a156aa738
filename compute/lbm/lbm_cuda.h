#pragma once
// The CUDA engine for the LBM: every storage variant (lbm_engine.h) as fused stream-collide
// kernels, one thread per cell, `block` threads per block.
#include <memory>

#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

std::unique_ptr<LbmEngine> makeCudaEngine(LatticeKind lattice, const Variant& variant, int block,
                                          LbmTimings timings);

}  // namespace ws::lbm
