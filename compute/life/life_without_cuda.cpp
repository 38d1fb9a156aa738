// The CUDA half of Life (life_cuda.cu) in a build without CUDA: gpuInfo() says the backend is not
// built, so no CUDA engine is asked for.
#include "compute/core/errors.h"
#include "compute/life/life_cuda.h"

namespace ws::life {

std::unique_ptr<LifeEngine> makeCudaEngine(const CudaLifeConfig&, LifeTimings) {
  throw InputError("this build has no CUDA backend");
}

}  // namespace ws::life
