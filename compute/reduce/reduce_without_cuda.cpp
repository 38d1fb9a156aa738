// The CUDA half of the reduction lab (reduce_cuda.cu) in a build without CUDA: gpuInfo() says the
// backend is not built, so no CUDA engine is asked for.
#include "compute/core/errors.h"
#include "compute/reduce/reduce_lab.h"

namespace ws::reduce {

std::unique_ptr<ReduceEngine> makeCudaEngine(const LabConfig&, LabTimings) {
  throw InputError("this build has no CUDA backend");
}

}  // namespace ws::reduce
