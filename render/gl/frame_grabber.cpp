#include "render/gl/frame_grabber.h"

#include <stdexcept>

#include "render/gl/gl_check.h"

namespace ws::gl {

FrameGrabber::FrameGrabber(int width, int height) : width_(width), height_(height) {
  const GLsizeiptr bytes = GLsizeiptr(width) * height * 4;
  for (int slot = 0; slot < kRing; ++slot) {
    buffers_[slot] = makeBuffer();
    WS_GL_CHECK(glBindBuffer(GL_PIXEL_PACK_BUFFER, buffers_[slot].get()));
    const GLbitfield access = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    WS_GL_CHECK(glBufferStorage(GL_PIXEL_PACK_BUFFER, bytes, nullptr, access));
    mapped_[slot] =
        static_cast<const std::uint8_t*>(glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, bytes, access));
    if (!mapped_[slot])
      throw std::runtime_error("cannot map a pixel-pack buffer for frame read-back");
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

FrameGrabber::~FrameGrabber() {
  std::unique_lock lock(lock_);
  released_.wait(lock, [&] {
    for (bool busy : busy_)
      if (busy) return false;
    return true;
  });
  for (int slot = 0; slot < kRing; ++slot) {
    if (fences_[slot]) glDeleteSync(fences_[slot]);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, buffers_[slot].get());
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

std::optional<FrameGrabber::Frame> FrameGrabber::grab() {
  std::optional<Frame> done;
  if (started_ - taken_ == kRing - 1) done = take(int(taken_++ % kRing));
  const int slot = int(started_ % kRing);
  {
    std::unique_lock lock(lock_);
    released_.wait(lock, [&] { return !busy_[slot]; });
  }
  WS_GL_CHECK(glBindBuffer(GL_PIXEL_PACK_BUFFER, buffers_[slot].get()));
  WS_GL_CHECK(glPixelStorei(GL_PACK_ALIGNMENT, 1));
  WS_GL_CHECK(glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr));
  fences_[slot] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  ++started_;
  return done;
}

std::vector<FrameGrabber::Frame> FrameGrabber::drain() {
  std::vector<Frame> frames;
  while (taken_ < started_) frames.push_back(take(int(taken_++ % kRing)));
  return frames;
}

FrameGrabber::Frame FrameGrabber::take(int slot) {
  // Issued kRing - 1 frames ago: normally complete, so this does not wait.
  glClientWaitSync(fences_[slot], GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(1e9));
  glDeleteSync(fences_[slot]);
  fences_[slot] = nullptr;
  {
    std::lock_guard lock(lock_);
    busy_[slot] = true;
  }
  return {mapped_[slot], [this, slot] {
            std::lock_guard lock(lock_);
            busy_[slot] = false;
            released_.notify_all();
          }};
}

}  // namespace ws::gl
