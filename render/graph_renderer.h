#pragma once
// Draws a module's graph scene in 2-D through the field's camera: the edges' ends go to GL once
// per revision; every frame the module writes node positions, sizes and values and edge values
// straight into interop-mapped GL buffers on the CUDA backend (the layout's positions never
// leave the GPU), into host memory otherwise. Edges as bands, then nodes as discs, both drawn
// without vertex attributes (the shaders read the storage buffers by gl_VertexID).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/module.h"
#include "render/camera2d.h"
#include "render/gl/objects.h"
#include "render/interop.h"

namespace ws::render {

class GraphRenderer {
 public:
  GraphRenderer();  // needs a current GL 4.3 context
  ~GraphRenderer();

  // `colormap` colours nodes by value (a category scene uses the palette) and edges.
  void draw(Module& module, const GraphScene& scene, const Camera2D& camera, int viewportWidth,
            int viewportHeight, const std::string& colormap);

  const std::string& transferMode() const { return transferMode_; }
  bool interopAvailable() const { return interopDevice_ >= 0; }
  void disableInterop(const std::string& why);

 private:
  void reserve(std::size_t nodes, std::size_t edges);

  gl::Program nodeProgram_, edgeProgram_;
  gl::VertexArray vertexArray_;
  gl::Buffer ends_, nodes_, edges_;
  gl::Texture colormap_, edgeColormap_;
  std::unique_ptr<CudaGlBuffer> nodesInterop_, edgesInterop_;
  std::size_t nodeCapacity_ = 0, edgeCapacity_ = 0;
  std::uint64_t revision_ = 0;
  std::string colormapName_;
  std::vector<float> hostNodes_, hostEdges_;
  int interopDevice_ = -1;
  std::string interopProblem_, transferMode_;
};

}  // namespace ws::render
