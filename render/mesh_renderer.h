#pragma once
// Draws a mesh scene in 3-D: the corners and start positions go to GL once per revision; every
// frame the source writes positions and values into shared buffers (straight into GL's memory
// through interop on the CUDA backend). One draw without vertex attributes (the shader
// reads the storage buffers by gl_VertexID), shaded, coloured, with its wireframe; then each
// vertex's path as a line when asked, and the scene's own lines over it all.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/backend.h"
#include "compute/views/mesh.h"
#include "render/gl/objects.h"
#include "render/orbit_camera.h"
#include "render/scene_lines.h"
#include "render/shared_buffer.h"

namespace ws::render {

class MeshRenderer {
 public:
  explicit MeshRenderer(std::shared_ptr<InteropLink> link);  // needs a current GL 4.3 context
  ~MeshRenderer();

  // `colormap` colours the values (a category scene uses its own palette).
  void draw(MeshSource& source, Backend writer, const MeshScene& scene, const OrbitCamera& camera,
            int viewportWidth, int viewportHeight, const std::string& colormap);

 private:
  void upload(MeshSource& source, const MeshScene& scene);
  void uploadColormap(const std::string& name);

  gl::Program program_, pathProgram_;
  gl::VertexArray vertexArray_;
  gl::Buffer corners_, start_;
  SceneLineRenderer lines_;
  SharedBuffer positions_, values_;
  gl::Texture colormap_;
  std::uint64_t revision_ = 0;
  std::string colormapName_;
};

}  // namespace ws::render
