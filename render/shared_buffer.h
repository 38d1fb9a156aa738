#pragma once
// A GL buffer that a module writes each frame (instant-ngp's CUDAMapping, Polyscope's managed
// buffers): a module on the CUDA backend writes it through a device pointer into the buffer itself
// (CUDA-GL interop); any other writer, or any writer while interop is off or has failed, writes
// host memory that is uploaded after. Every renderer's per-frame data goes through one, so
// --no-interop and the fallback after a failure reach every view alike.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/backend.h"
#include "render/gl/objects.h"
#include "render/interop.h"

namespace ws::render {

// Whether CUDA writes GL's buffers directly, shared by the buffers of a scene: a failure turns
// interop off for all of them, and the user's choice (--no-interop, the panel's checkbox) sends
// them all through host memory.
class InteropLink {
 public:
  InteropLink();  // needs a current GL context: asks which CUDA device drives it
  // The context runs on a CUDA device and interop has not failed.
  bool available() const { return device_ >= 0; }
  // Available, and the user wants it.
  bool on() const { return available() && wanted_; }
  void want(bool on) { wanted_ = on; }
  // Off from now on, saying why (a registration or a mapping failed).
  void fail(const std::string& why);
  const std::string& problem() const { return problem_; }
  // How data from a writer on `writer` reaches GL now, in words, for the status bar.
  std::string transferMode(Backend writer) const;

 private:
  int device_ = -1;
  bool wanted_ = true;
  std::string problem_;
};

class SharedBuffer {
 public:
  // `target`: where GL binds it to upload (GL_ARRAY_BUFFER, GL_SHADER_STORAGE_BUFFER,
  // GL_PIXEL_UNPACK_BUFFER). Needs a current GL context.
  SharedBuffer(std::shared_ptr<InteropLink> link, GLenum target);
  ~SharedBuffer();
  SharedBuffer(const SharedBuffer&) = delete;
  SharedBuffer& operator=(const SharedBuffer&) = delete;

  GLuint get() const { return buffer_.get(); }
  std::size_t capacity() const { return capacity_; }
  // Room for at least `bytes`. Growing re-creates the buffer with `bytes` plus `slack` of room.
  void reserve(std::size_t bytes, std::size_t slack = 0);

  // One frame's writing of a buffer: where to write, on the device or the host; finish() hands
  // it to GL (unmapping it, or uploading the host copy). Dropped unfinished (the writer threw),
  // nothing is uploaded.
  class Writing {
   public:
    Writing(Writing&&) noexcept;
    ~Writing();
    template <typename T>
    T* as() const {
      return static_cast<T*>(data_);
    }
    bool onDevice() const { return bool(mapping_); }
    void finish();

   private:
    friend class SharedBuffer;
    Writing(SharedBuffer& buffer, std::size_t bytes, std::unique_ptr<CudaGlBuffer::Mapping> mapping,
            void* data);
    SharedBuffer* buffer_;
    std::size_t bytes_;
    std::unique_ptr<CudaGlBuffer::Mapping> mapping_;
    void* data_;
  };
  // Room for `bytes` (reserved first) that a writer on `writer` fills.
  Writing write(std::size_t bytes, Backend writer);

 private:
  std::shared_ptr<InteropLink> link_;
  GLenum target_;
  gl::Buffer buffer_;
  std::unique_ptr<CudaGlBuffer> registered_;  // null without interop
  std::size_t capacity_ = 0;
  std::vector<unsigned char> host_;
};

}  // namespace ws::render
