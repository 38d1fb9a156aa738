// What the CUDA half of the core (cuda_check.cpp, fault_injection.cu, roofline_peak.cu) offers,
// in a build without CUDA: no context to lose, no fault to inject, no GPU peak to measure.
// gpuInfo() says the CUDA backend is not built, so nothing asks for more.
#include "compute/core/errors.h"
#include "compute/core/gpu_error.h"
#include "compute/core/roofline.h"

namespace ws {

bool CudaError::contextLost() const {
  return false;
}

bool cudaContextLost() {
  return false;
}

void injectGpuFaultIfRequested() {}

double measureGpuPeak(OpKind) {
  throw InputError("this build has no CUDA backend: there is no GPU peak to measure");
}

}  // namespace ws
