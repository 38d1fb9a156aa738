#pragma once
// A framebuffer object to render into without a window (headless frames, tests), and reading
// pixels back from it or from the window.
#include <cstdint>
#include <string>
#include <vector>

#include "render/gl/objects.h"

namespace ws::gl {

class OffscreenTarget {
 public:
  OffscreenTarget(int width, int height);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  void bind();
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  int width_, height_;
  Framebuffer framebuffer_;
  Texture color_;
  GLuint depth_ = 0;
};

// RGBA8 pixels of the bound framebuffer, top row first.
std::vector<std::uint8_t> readPixels(int width, int height);
// Writes RGBA8 pixels (top row first) as PNG; throws std::runtime_error naming the path.
void writePng(const std::string& path, int width, int height,
              const std::vector<std::uint8_t>& rgba);

}  // namespace ws::gl
