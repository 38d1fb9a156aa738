#pragma once
// Draws a module's mesh scene in 3-D: the corners and start positions go to GL once per revision;
// every frame the module writes positions and values straight into interop-mapped GL buffers on
// the CUDA backend, into host memory otherwise. One draw without vertex attributes (the shader
// reads the storage buffers by gl_VertexID), shaded, coloured, with its wireframe; then each
// vertex's path as a line when asked, and the scene's own lines over it all.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/module.h"
#include "render/gl/objects.h"
#include "render/interop.h"
#include "render/orbit_camera.h"

namespace ws::render {

class MeshRenderer {
 public:
  MeshRenderer();  // needs a current GL 4.3 context
  ~MeshRenderer();

  // `colormap` colours the values (a category scene uses its own palette).
  void draw(Module& module, const MeshScene& scene, const OrbitCamera& camera, int viewportWidth,
            int viewportHeight, const std::string& colormap);

  const std::string& transferMode() const { return transferMode_; }
  bool interopAvailable() const { return interopDevice_ >= 0; }
  void disableInterop(const std::string& why);

 private:
  void upload(Module& module, const MeshScene& scene);
  void reserve(std::size_t vertices, std::size_t values);
  void uploadColormap(const std::string& name);
  void drawLines(const std::vector<SceneLines>& lines, const glm::mat4& viewProjection);

  gl::Program program_, pathProgram_, lineProgram_;
  gl::VertexArray vertexArray_;
  gl::Buffer corners_, start_, positions_, values_, linePoints_;
  gl::Texture colormap_;
  std::unique_ptr<CudaGlBuffer> positionsInterop_, valuesInterop_;
  std::size_t vertexCapacity_ = 0, valueCapacity_ = 0;
  std::uint64_t revision_ = 0;
  std::string colormapName_;
  std::vector<float> hostPositions_, hostValues_;
  int interopDevice_ = -1;
  std::string interopProblem_, transferMode_;
};

}  // namespace ws::render
