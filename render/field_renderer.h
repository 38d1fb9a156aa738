#pragma once
// Draws a module's 2-D field: the module samples the visible window into one float per pixel
// (straight into an interop-mapped GL buffer on the CUDA backend, into host memory otherwise); the
// shader maps it through a colour map, draws NaN as background and cell grid lines when zoomed in.
// Then the module's points (tracers), which reach GL the same way.
#include <memory>
#include <string>
#include <vector>

#include "compute/core/module.h"
#include "render/camera2d.h"
#include "render/gl/objects.h"
#include "render/interop.h"

namespace ws::render {

class FieldRenderer {
 public:
  FieldRenderer();  // needs a current GL 4.3 context
  ~FieldRenderer();

  void draw(Module& module, const Camera2D& camera, int viewportWidth, int viewportHeight,
            const std::string& colormap, bool gridLines);

  // How the field reached GL in the last frame, for the status bar.
  const std::string& transferMode() const { return transferMode_; }
  bool interopAvailable() const { return interopDevice_ >= 0; }
  const std::string& interopProblem() const { return interopProblem_; }
  // Stop using interop (after an error); fields go through host memory from then on.
  void disableInterop(const std::string& why);
  // The lesson in host-device traffic: with `on` false the CUDA backend's field and points are
  // read back to host memory and uploaded again each frame, as without interop.
  void useInterop(bool on) { useInterop_ = on; }

 private:
  void resize(int width, int height);
  void uploadColormap(const std::string& name);
  void drawPoints(Module& module, const FieldRequest& request);
  // Room for `count` points in pointBuffer_ (registered with CUDA when interop is on).
  void reservePoints(std::size_t count);
  // The buffer registered with CUDA, or null when interop is off or registration fails (which
  // turns interop off).
  std::unique_ptr<CudaGlBuffer> registerWithCuda(GLuint buffer);

  gl::Program program_;
  gl::VertexArray vertexArray_;
  gl::Texture field_, colormapTexture_;
  gl::Buffer pixelBuffer_;
  std::unique_ptr<CudaGlBuffer> interop_;
  gl::Program pointProgram_;
  gl::VertexArray pointArray_;
  gl::Buffer pointBuffer_;
  std::unique_ptr<CudaGlBuffer> pointInterop_;
  std::size_t pointCapacity_ = 0;
  std::vector<float> hostPoints_;
  int interopDevice_ = -1;
  bool useInterop_ = true;
  std::string interopProblem_;
  std::string transferMode_;
  std::string colormapName_;
  int width_ = 0, height_ = 0;
  std::vector<float> hostPixels_;
};

}  // namespace ws::render
