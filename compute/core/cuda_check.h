#pragma once
// Checked CUDA calls: a failure throws ws::CudaError naming the call, file and line, so the GUI can
// show it in a popup and carry on (on the CPU backend if the device is gone).
#include <cuda_runtime_api.h>

#include "compute/core/gpu_error.h"

namespace ws {

[[noreturn]] void throwCudaError(cudaError_t code, const char* call, const char* file, int line);

}  // namespace ws

#define WS_CUDA_CHECK(call)                                             \
  do {                                                                  \
    const cudaError_t ws_cuda_status_ = (call);                         \
    if (ws_cuda_status_ != cudaSuccess)                                 \
      ::ws::throwCudaError(ws_cuda_status_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: reports launch-configuration errors at once (asynchronous faults surface
// at the next synchronising call, which is checked too).
#define WS_CUDA_CHECK_LAUNCH() WS_CUDA_CHECK(cudaGetLastError())
