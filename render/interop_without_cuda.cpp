// CUDA-GL interop in a build without CUDA: there is no CUDA device behind any GL context, so every
// field reaches GL as a CPU upload and no buffer is registered.
#include "render/interop.h"

#include "compute/core/gpu_error.h"

namespace ws::render {

int cudaDeviceForCurrentContext(std::string& problem) {
  problem = "built without CUDA";
  return -1;
}

CudaGlBuffer::CudaGlBuffer(GLuint) {
  throw CudaError(0, "built without CUDA: no GL buffer can be registered with CUDA");
}

CudaGlBuffer::~CudaGlBuffer() = default;

CudaGlBuffer::Mapping::Mapping(CudaGlBuffer& buffer) : resource_(buffer.resource_) {}

CudaGlBuffer::Mapping::~Mapping() = default;

}  // namespace ws::render
