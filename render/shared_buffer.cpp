#include "render/shared_buffer.h"

#include <algorithm>

#include "compute/core/gpu_error.h"
#include "render/gl/gl_check.h"

namespace ws::render {

InteropLink::InteropLink() {
  device_ = cudaDeviceForCurrentContext(problem_);
  if (device_ >= 0) selectGpu(device_);
}

void InteropLink::fail(const std::string& why) {
  device_ = -1;
  problem_ = why;
}

std::string InteropLink::transferMode(Backend writer) const {
  if (writer != Backend::Cuda) return "CPU upload";
  if (on()) return "CUDA-GL interop";
  if (available()) return "read-back and upload (interop off)";
  return "host copy (" + problem_ + ")";
}

SharedBuffer::SharedBuffer(std::shared_ptr<InteropLink> link, GLenum target)
    : link_(std::move(link)), target_(target), buffer_(gl::makeBuffer()) {}

SharedBuffer::~SharedBuffer() = default;

void SharedBuffer::reserve(std::size_t bytes, std::size_t slack) {
  if (!link_->available()) registered_.reset();
  if (bytes <= capacity_ && bool(registered_) == link_->available()) return;
  registered_.reset();
  capacity_ = std::max(capacity_, bytes + slack);
  WS_GL_CHECK(glBindBuffer(target_, buffer_.get()));
  WS_GL_CHECK(glBufferData(target_, GLsizeiptr(std::max<std::size_t>(capacity_, 4)), nullptr,
                           GL_STREAM_DRAW));
  WS_GL_CHECK(glBindBuffer(target_, 0));
  if (!link_->available()) return;
  try {
    registered_ = std::make_unique<CudaGlBuffer>(buffer_.get());
  } catch (const CudaError& e) {
    link_->fail(std::string("interop registration failed: ") + e.what());
  }
}

SharedBuffer::Writing SharedBuffer::write(std::size_t bytes, Backend writer) {
  reserve(bytes);
  if (writer == Backend::Cuda && link_->on() && registered_) {
    auto mapping = std::make_unique<CudaGlBuffer::Mapping>(*registered_);
    void* data = mapping->device();
    return Writing(*this, bytes, std::move(mapping), data);
  }
  host_.resize(std::max<std::size_t>(bytes, 1));
  return Writing(*this, bytes, nullptr, host_.data());
}

SharedBuffer::Writing::Writing(SharedBuffer& buffer, std::size_t bytes,
                               std::unique_ptr<CudaGlBuffer::Mapping> mapping, void* data)
    : buffer_(&buffer), bytes_(bytes), mapping_(std::move(mapping)), data_(data) {}

SharedBuffer::Writing::Writing(Writing&& other) noexcept
    : buffer_(other.buffer_),
      bytes_(other.bytes_),
      mapping_(std::move(other.mapping_)),
      data_(other.data_) {
  other.buffer_ = nullptr;
}

SharedBuffer::Writing::~Writing() = default;  // an unfinished mapping is unmapped all the same

void SharedBuffer::Writing::finish() {
  if (!buffer_) return;
  if (mapping_) {
    mapping_.reset();  // unmapped: GL may read it now
  } else if (bytes_ > 0) {
    WS_GL_CHECK(glBindBuffer(buffer_->target_, buffer_->buffer_.get()));
    WS_GL_CHECK(glBufferSubData(buffer_->target_, 0, GLsizeiptr(bytes_), data_));
    WS_GL_CHECK(glBindBuffer(buffer_->target_, 0));
  }
  buffer_ = nullptr;
}

}  // namespace ws::render
