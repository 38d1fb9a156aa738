#pragma once
// Draws a voxel scene in 3-D: the source writes two words per voxel (packed key, class) into a
// shared buffer (straight into GL's memory through interop on the CUDA backend); one
// instanced draw of a cube per voxel, coloured by class, hidden classes left out, depth tested.
#include <memory>

#include "compute/core/backend.h"
#include "compute/views/voxels.h"
#include "render/gl/objects.h"
#include "render/orbit_camera.h"
#include "render/shared_buffer.h"

namespace ws::render {

class VoxelRenderer {
 public:
  explicit VoxelRenderer(std::shared_ptr<InteropLink> link);  // needs a current GL 4.3 context
  ~VoxelRenderer();

  void draw(VoxelSource& source, Backend writer, const VoxelScene& scene, const OrbitCamera& camera,
            int viewportWidth, int viewportHeight);

 private:
  gl::Program program_;
  gl::VertexArray vertexArray_;
  SharedBuffer voxels_;
};

}  // namespace ws::render
