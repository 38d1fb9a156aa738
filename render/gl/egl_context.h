#pragma once
// A headless OpenGL 4.3+ core context through EGL's device platform (EGL_EXT_platform_device): no
// window, no X server. Works on the NVIDIA driver and on Mesa's llvmpipe.
#include <string>

namespace ws::gl {

class EglContext {
 public:
  // Throws GlError saying what was missing. `preferredDevice` < 0: the first hardware device,
  // else a software one.
  explicit EglContext(int preferredDevice = -1);
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  void makeCurrent();
  const std::string& description() const { return description_; }

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
  std::string description_;
};

}  // namespace ws::gl
