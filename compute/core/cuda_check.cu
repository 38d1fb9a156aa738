#include "compute/core/cuda_check.h"

#include <sstream>

namespace ws {

bool CudaError::contextLost() const {
  switch (code_) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorDevicesUnavailable:
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorLaunchTimeout:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

bool cudaContextLost() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return false;
  const cudaError_t status = cudaDeviceSynchronize();
  return status != cudaSuccess && CudaError(status, "").contextLost();
}

void throwCudaError(cudaError_t code, const char* call, const char* file, int line) {
  std::ostringstream msg;
  msg << "CUDA error " << cudaGetErrorName(code) << " (" << cudaGetErrorString(code) << ") in "
      << call << " at " << file << ":" << line;
  throw CudaError(code, msg.str());
}

}  // namespace ws
