#include "render/gl/offscreen_target.h"

#include <stb_image_write.h>

#include <algorithm>
#include <stdexcept>

#include "compute/core/output_file.h"
#include "render/gl/gl_check.h"

namespace ws::gl {

OffscreenTarget::OffscreenTarget(int width, int height)
    : width_(width), height_(height), color_(makeTexture()) {
  GLuint fbo = 0;
  WS_GL_CHECK(glGenFramebuffers(1, &fbo));
  framebuffer_ = Framebuffer(fbo);
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, color_.get()));
  WS_GL_CHECK(glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height));
  WS_GL_CHECK(glGenRenderbuffers(1, &depth_));
  WS_GL_CHECK(glBindRenderbuffer(GL_RENDERBUFFER, depth_));
  WS_GL_CHECK(glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, width, height));
  WS_GL_CHECK(glBindFramebuffer(GL_FRAMEBUFFER, fbo));
  WS_GL_CHECK(
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_.get(), 0));
  WS_GL_CHECK(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
                                        GL_RENDERBUFFER, depth_));
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw GlError("offscreen framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
                  " is incomplete");
}

OffscreenTarget::~OffscreenTarget() {
  glDeleteRenderbuffers(1, &depth_);
}

void OffscreenTarget::bind() {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
  glViewport(0, 0, width_, height_);
}

std::vector<std::uint8_t> readPixels(int width, int height) {
  std::vector<std::uint8_t> pixels(std::size_t(width) * height * 4);
  WS_GL_CHECK(glPixelStorei(GL_PACK_ALIGNMENT, 1));
  WS_GL_CHECK(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data()));
  // GL's rows run bottom-up; images run top-down.
  const std::size_t rowBytes = std::size_t(width) * 4;
  for (int y = 0; y < height / 2; ++y)
    std::swap_ranges(pixels.begin() + y * rowBytes, pixels.begin() + (y + 1) * rowBytes,
                     pixels.begin() + (height - 1 - y) * rowBytes);
  return pixels;
}

void writePng(const std::string& path, int width, int height,
              const std::vector<std::uint8_t>& rgba) {
  std::string png;
  const auto append = [](void* into, void* data, int size) {
    static_cast<std::string*>(into)->append(static_cast<const char*>(data), std::size_t(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4))
    throw std::runtime_error("could not encode PNG '" + path + "'");
  writeWholeFile(path, png, "PNG");
}

}  // namespace ws::gl
