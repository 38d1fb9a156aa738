// The CUDA half of the Poisson solver (poisson_cuda.cu) in a build without CUDA: gpuInfo() says
// the backend is not built, so no CUDA engine is asked for.
#include "compute/core/errors.h"
#include "compute/poisson/poisson_cuda.h"

namespace ws::poisson {

std::unique_ptr<PoissonEngine> makeCudaEngine(Precision, PoissonTimings) {
  throw InputError("this build has no CUDA backend");
}

}  // namespace ws::poisson
