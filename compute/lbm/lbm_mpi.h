#pragma once
// The LBM lattice split over the processes of an MPI run (compute/core/ranks.h), as Riesinger et
// al. (2017) run it: rank 0's engine sends each of its calls to the other ranks, then makes it on
// its own slab (lbm_split.h); the other ranks make each call on theirs.
#include <memory>

#include "compute/lbm/lbm_engine.h"
#include "compute/lbm/lbm_split.h"

namespace ws::lbm::mpi {

// Rank 0's engine of a lattice split over every rank as `plan` says (its ranks: every rank of the
// run); each rank steps its slab on the CPU, or with plan.cudaBlock > 0 on its GPU (blocks of that
// many threads). Halos go from GPU to GPU (plan.peer) only where every rank is on this host.
std::unique_ptr<LbmEngine> makeEngine(LatticeKind lattice, const Variant& variant,
                                      LbmTimings timings, SplitPlan plan);

}  // namespace ws::lbm::mpi
