#include "render/interop.h"

// epoxy (through interop.h) stands in for GL/gl.h, which cuda_gl_interop.h would include.
#include <cuda_gl_interop.h>

#include "compute/core/cuda_check.h"

namespace ws::render {

int cudaDeviceForCurrentContext(std::string& problem) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    problem = "no CUDA device";
    return -1;
  }
  unsigned int found = 0;
  int device = -1;
  const cudaError_t status = cudaGLGetDevices(&found, &device, 1, cudaGLDeviceListAll);
  if (status != cudaSuccess || found == 0) {
    cudaGetLastError();
    problem = "the OpenGL context does not run on a CUDA device";
    return -1;
  }
  return device;
}

CudaGlBuffer::CudaGlBuffer(GLuint buffer) {
  WS_CUDA_CHECK(
      cudaGraphicsGLRegisterBuffer(&resource_, buffer, cudaGraphicsRegisterFlagsWriteDiscard));
}

CudaGlBuffer::~CudaGlBuffer() {
  if (resource_) cudaGraphicsUnregisterResource(resource_);
}

CudaGlBuffer::Mapping::Mapping(CudaGlBuffer& buffer) : resource_(buffer.resource_) {
  WS_CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, nullptr));
  const cudaError_t status = cudaGraphicsResourceGetMappedPointer(&pointer_, &bytes_, resource_);
  if (status != cudaSuccess) {
    cudaGraphicsUnmapResources(1, &resource_, nullptr);
    WS_CUDA_CHECK(status);
  }
}

CudaGlBuffer::Mapping::~Mapping() {
  cudaGraphicsUnmapResources(1, &resource_, nullptr);
}

}  // namespace ws::render
