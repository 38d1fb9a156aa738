#include "render/gl/frame_grabber.h"

#include <cstring>

#include "render/gl/gl_check.h"

namespace ws::gl {

FrameGrabber::FrameGrabber(int width, int height) : width_(width), height_(height) {
  for (Buffer& buffer : buffers_) {
    buffer = makeBuffer();
    WS_GL_CHECK(glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer.get()));
    WS_GL_CHECK(glBufferData(GL_PIXEL_PACK_BUFFER, GLsizeiptr(width) * height * 4, nullptr,
                             GL_STREAM_READ));
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

std::optional<FrameGrabber::Pixels> FrameGrabber::grab() {
  std::optional<Pixels> done;
  if (started_ - taken_ == kRing - 1) done = take(int(taken_++ % kRing));
  WS_GL_CHECK(glBindBuffer(GL_PIXEL_PACK_BUFFER, buffers_[started_ % kRing].get()));
  WS_GL_CHECK(glPixelStorei(GL_PACK_ALIGNMENT, 1));
  WS_GL_CHECK(glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr));
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  ++started_;
  return done;
}

std::vector<FrameGrabber::Pixels> FrameGrabber::drain() {
  std::vector<Pixels> frames;
  while (taken_ < started_) frames.push_back(take(int(taken_++ % kRing)));
  return frames;
}

FrameGrabber::Pixels FrameGrabber::take(int slot) {
  WS_GL_CHECK(glBindBuffer(GL_PIXEL_PACK_BUFFER, buffers_[slot].get()));
  const std::size_t rowBytes = std::size_t(width_) * 4;
  Pixels pixels(rowBytes * height_);
  const auto* mapped = static_cast<const std::uint8_t*>(
      glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, GLsizeiptr(pixels.size()), GL_MAP_READ_BIT));
  if (!mapped) {
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    throw std::runtime_error("glMapBufferRange failed reading a frame back");
  }
  // GL's rows run bottom-up; images run top-down.
  for (int y = 0; y < height_; ++y)
    std::memcpy(pixels.data() + std::size_t(y) * rowBytes,
                mapped + std::size_t(height_ - 1 - y) * rowBytes, rowBytes);
  glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  return pixels;
}

}  // namespace ws::gl
