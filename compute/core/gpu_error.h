#pragma once
// A failure of the CUDA runtime as the rest of the program meets it: thrown by the CUDA half of
// the code (compute/core/cuda_check.h), caught anywhere without a CUDA header. In a build without
// CUDA nothing throws it, and no context is ever lost.
#include <stdexcept>
#include <string>

namespace ws {

class CudaError : public std::runtime_error {
 public:
  CudaError(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }  // a cudaError_t
  // After a "sticky" error the CUDA context is unusable: the process must stop using the GPU.
  bool contextLost() const;

 private:
  int code_;
};

// True when the CUDA context has hit a sticky error (a faulting kernel, a lost device): errors can
// surface through any library (Thrust throws its own type), so callers ask after any failure.
bool cudaContextLost();

// Fault injection for the tests of that path: with WARPSCOPE_INJECT_GPU_FAULT=N in the environment,
// the N-th call launches a kernel that traps, as a faulting kernel would.
void injectGpuFaultIfRequested();

}  // namespace ws
