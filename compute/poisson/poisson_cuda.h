#pragma once
// The CUDA engine for the Poisson solver (poisson_cuda.cu).
#include <memory>

#include "compute/poisson/poisson_engine.h"

namespace ws::poisson {

std::unique_ptr<PoissonEngine> makeCudaEngine(Precision precision, PoissonTimings timings);

}  // namespace ws::poisson
