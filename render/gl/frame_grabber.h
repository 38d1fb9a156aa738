#pragma once
// Reads frames back from GL without stalling the frame: each grab starts an asynchronous copy of
// the bound framebuffer into one of a ring of persistently mapped pixel-pack buffers, and hands
// out the frame copied `kRing - 1` grabs ago, whose copy has long finished. Whoever takes a frame
// reads it from the mapped buffer, on any thread, and releases it; a grab that needs a buffer
// still being read waits for its release.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "render/gl/gl.h"
#include "render/gl/objects.h"

namespace ws::gl {

class FrameGrabber {
 public:
  FrameGrabber(int width, int height);
  ~FrameGrabber();  // waits for frames handed out to be released
  FrameGrabber(const FrameGrabber&) = delete;
  FrameGrabber& operator=(const FrameGrabber&) = delete;

  // RGBA8 rows, bottom row first (GL's order), readable until release() is called.
  struct Frame {
    const std::uint8_t* bottomUp = nullptr;
    std::function<void()> release;
  };
  std::optional<Frame> grab();
  // The frames still in flight, oldest first (at the end of a recording).
  std::vector<Frame> drain();

  int width() const { return width_; }
  int height() const { return height_; }

  static constexpr int kRing = 3;

 private:
  Frame take(int slot);

  int width_, height_;
  Buffer buffers_[kRing];
  const std::uint8_t* mapped_[kRing] = {};
  GLsync fences_[kRing] = {};
  bool busy_[kRing] = {};
  std::mutex lock_;
  std::condition_variable released_;
  long started_ = 0, taken_ = 0;
};

}  // namespace ws::gl
