#pragma once
// Lines over a 3-D scene (compute/views/mesh.h's SceneLines), drawn over what is there, not hidden
// by it: the mesh inspector's disk, the lattice's box around an isosurface.
#include <vector>

#include <glm/glm.hpp>

#include "compute/views/mesh.h"
#include "render/gl/objects.h"

namespace ws::render {

class SceneLineRenderer {
 public:
  SceneLineRenderer();  // needs a current GL 4.3 context
  // Into the current viewport, with depth testing off.
  void draw(const std::vector<SceneLines>& lines, const glm::mat4& viewProjection);

 private:
  gl::Program program_;
  gl::VertexArray vertexArray_;
  gl::Buffer points_;
};

}  // namespace ws::render
