#pragma once
// The LBM lattice split over the processes of an MPI run (compute/core/ranks.h), as Riesinger et
// al. (2017) run it: rank 0's engine sends each of its calls to the other ranks, then makes it on
// its own slab (lbm_split.h); the other ranks make each call on theirs.
#include <memory>

#include "compute/lbm/lbm_engine.h"

namespace ws::lbm::mpi {

// Rank 0's engine of a lattice split over every rank along `axis`, the halos exchanged while the
// inside steps (`overlap`) or after the step; each rank steps its slab on the CPU, or with
// `cudaBlock` > 0 on its GPU (blocks of that many threads).
std::unique_ptr<LbmEngine> makeEngine(LatticeKind lattice, const Variant& variant,
                                      LbmTimings timings, int axis, bool overlap, int cudaBlock);

}  // namespace ws::lbm::mpi
