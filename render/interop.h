#pragma once
// CUDA-GL interop for buffers: register a GL buffer with CUDA once, map it for each frame through a
// scoped guard (unmapped before GL touches it again), unregister on destruction.
#include <memory>
#include <string>

#include "render/gl/gl.h"

struct cudaGraphicsResource;

namespace ws::render {

// The CUDA device that drives the current GL context, or -1 with `problem` saying why (no CUDA
// device, or GL runs elsewhere, e.g. on Mesa's llvmpipe).
int cudaDeviceForCurrentContext(std::string& problem);

class CudaGlBuffer {
 public:
  explicit CudaGlBuffer(GLuint buffer);  // throws CudaError when registration fails
  ~CudaGlBuffer();
  CudaGlBuffer(const CudaGlBuffer&) = delete;
  CudaGlBuffer& operator=(const CudaGlBuffer&) = delete;

  // Maps for the guard's lifetime; device() is valid until it is destroyed.
  class Mapping {
   public:
    explicit Mapping(CudaGlBuffer& buffer);
    ~Mapping();
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    void* device() const { return pointer_; }
    std::size_t bytes() const { return bytes_; }

   private:
    cudaGraphicsResource* resource_;
    void* pointer_ = nullptr;
    std::size_t bytes_ = 0;
  };

 private:
  cudaGraphicsResource* resource_ = nullptr;
};

}  // namespace ws::render
