// A kernel that faults on purpose, for testing how the application survives a failing GPU.
#include <cstdlib>

#include "compute/core/cuda_check.h"

namespace ws {

namespace {
__global__ void trapKernel() {
  __trap();
}
}  // namespace

void injectGpuFaultIfRequested() {
  static const char* setting = std::getenv("WARPSCOPE_INJECT_GPU_FAULT");
  static long countdown = setting ? std::atol(setting) : 0;
  if (countdown <= 0 || --countdown > 0) return;
  trapKernel<<<1, 1>>>();
}

}  // namespace ws
