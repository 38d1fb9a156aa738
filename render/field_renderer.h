#pragma once
// Draws a 2-D field: the source samples the visible window into one float per pixel, written
// into a shared buffer (straight into GL's memory through interop on the CUDA backend); the shader
// maps it through a colour map, draws NaN as background and cell grid lines when zoomed in.
#include <memory>
#include <string>

#include "compute/core/backend.h"
#include "compute/views/field.h"
#include "render/camera2d.h"
#include "render/gl/objects.h"
#include "render/shared_buffer.h"

namespace ws::render {

class FieldRenderer {
 public:
  explicit FieldRenderer(std::shared_ptr<InteropLink> link);  // needs a current GL 4.3 context
  ~FieldRenderer();

  // `writer`: the backend the source writes from. A thin border is drawn just outside `world`, so
  // that its edges show where the field's colour is close to the background (an empty grid).
  void draw(FieldSource& source, Backend writer, const Camera2D& camera, const WorldBox& world,
            int viewportWidth, int viewportHeight, const std::string& colormap, bool gridLines);

 private:
  void resize(int width, int height);
  void uploadColormap(const std::string& name);

  gl::Program program_;
  gl::VertexArray vertexArray_;
  gl::Texture field_, colormapTexture_;
  SharedBuffer pixels_;
  std::string colormapName_;
  int width_ = 0, height_ = 0;
};

}  // namespace ws::render
