#pragma once
// Reads frames back from GL without stalling the frame: each grab starts an asynchronous copy of
// the bound framebuffer into one of a ring of pixel-pack buffers, and returns the frame copied
// `kRing - 1` grabs ago, whose copy has long finished.
#include <cstdint>
#include <optional>
#include <vector>

#include "render/gl/objects.h"

namespace ws::gl {

class FrameGrabber {
 public:
  FrameGrabber(int width, int height);

  // RGBA8, top row first.
  using Pixels = std::vector<std::uint8_t>;
  std::optional<Pixels> grab();
  // The frames still in flight, oldest first (at the end of a recording).
  std::vector<Pixels> drain();

  int width() const { return width_; }
  int height() const { return height_; }

  static constexpr int kRing = 3;

 private:
  Pixels take(int slot);

  int width_, height_;
  Buffer buffers_[kRing];
  long started_ = 0, taken_ = 0;
};

}  // namespace ws::gl
