#pragma once
// Draws a surface scene in 3-D: the fixed surfaces go to GL once per revision, drawn in one
// colour; every frame the source extracts its surface and traces its lines, writing them into
// shared buffers (straight into GL's memory through interop on the CUDA backend), drawn through the
// colour map; then the scene's lines over all. One draw each without vertex attributes (the
// shaders read the storage buffers by gl_VertexID).
#include <cstdint>
#include <memory>
#include <string>

#include "compute/core/backend.h"
#include "compute/views/surface.h"
#include "render/gl/objects.h"
#include "render/orbit_camera.h"
#include "render/scene_lines.h"
#include "render/shared_buffer.h"

namespace ws::render {

class SurfaceRenderer {
 public:
  explicit SurfaceRenderer(std::shared_ptr<InteropLink> link);  // needs a current GL 4.3 context

  void draw(SurfaceSource& source, Backend writer, const SurfaceScene& scene,
            const OrbitCamera& camera, int viewportWidth, int viewportHeight,
            const std::string& colormap);

 private:
  void drawTriangles(GLuint vertices, std::size_t triangles);

  gl::Program program_, lineProgram_;
  gl::VertexArray vertexArray_;
  gl::Buffer fixed_;
  SharedBuffer extracted_, segments_;
  gl::Texture colormap_;
  SceneLineRenderer sceneLines_;
  std::uint64_t revision_ = 0;
  std::size_t fixedTriangles_ = 0;
  std::string colormapName_;
};

}  // namespace ws::render
