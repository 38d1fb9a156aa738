#pragma once
// Checked CUDA calls: a failure throws ws::CudaError naming the call, file and line, so the GUI can
// show it in a popup and carry on (on the CPU backend if the device is gone).
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace ws {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }
  // After a "sticky" error the CUDA context is unusable: the process must stop using the GPU.
  bool contextLost() const;

 private:
  cudaError_t code_;
};

[[noreturn]] void throwCudaError(cudaError_t code, const char* call, const char* file, int line);

// True when the CUDA context has hit a sticky error (a faulting kernel, a lost device): errors can
// surface through any library (Thrust throws its own type), so callers ask after any failure.
bool cudaContextLost();

// Fault injection for the tests of that path: with WARPSCOPE_INJECT_GPU_FAULT=N in the environment,
// the N-th call launches a kernel that traps, as a faulting kernel would.
void injectGpuFaultIfRequested();

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
