// The CUDA half of Cahn-Hilliard (ch_cuda.cu) in a build without CUDA: gpuInfo() says the backend
// is not built, so no CUDA engine is asked for.
#include "compute/cahn-hilliard/ch_cuda.h"
#include "compute/core/errors.h"

namespace ws::ch {

std::unique_ptr<ChEngine> makeCudaEngine(const CudaChConfig&, ChTimings) {
  throw InputError("this build has no CUDA backend");
}

}  // namespace ws::ch
