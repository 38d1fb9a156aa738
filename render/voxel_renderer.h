#pragma once
// Draws a module's voxel scene in 3-D: the module writes two words per voxel (packed key, class)
// straight into an interop-mapped GL buffer on the CUDA backend, into host memory otherwise; one
// instanced draw of a cube per voxel, coloured by class, hidden classes left out, depth tested.
#include <memory>
#include <string>
#include <vector>

#include "compute/core/module.h"
#include "render/gl/objects.h"
#include "render/interop.h"
#include "render/orbit_camera.h"

namespace ws::render {

class VoxelRenderer {
 public:
  VoxelRenderer();  // needs a current GL 4.3 context
  ~VoxelRenderer();

  void draw(Module& module, const VoxelScene& scene, const OrbitCamera& camera, int viewportWidth,
            int viewportHeight);

  const std::string& transferMode() const { return transferMode_; }
  bool interopAvailable() const { return interopDevice_ >= 0; }
  void disableInterop(const std::string& why);

 private:
  void reserve(std::size_t voxels);

  gl::Program program_;
  gl::VertexArray vertexArray_;
  gl::Buffer buffer_;
  std::unique_ptr<CudaGlBuffer> interop_;
  std::size_t capacity_ = 0;
  std::vector<unsigned> host_;
  int interopDevice_ = -1;
  std::string interopProblem_, transferMode_;
};

}  // namespace ws::render
