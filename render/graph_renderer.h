#pragma once
// Draws a graph scene in 2-D through the field's camera: the edges' ends go to GL once per
// revision; every frame the source writes node positions, sizes and values and edge values into
// shared buffers (straight into GL's memory through interop on the CUDA backend: the layout's
// positions never leave the GPU). Edges as bands, then nodes as discs, both drawn
// without vertex attributes (the shaders read the storage buffers by gl_VertexID).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/backend.h"
#include "compute/views/graph.h"
#include "render/camera2d.h"
#include "render/gl/objects.h"
#include "render/shared_buffer.h"

namespace ws::render {

class GraphRenderer {
 public:
  explicit GraphRenderer(std::shared_ptr<InteropLink> link);  // needs a current GL 4.3 context
  ~GraphRenderer();

  // `colormap` colours nodes by value (a category scene uses the palette) and edges.
  void draw(GraphSource& source, Backend writer, const GraphScene& scene, const Camera2D& camera,
            int viewportWidth, int viewportHeight, const std::string& colormap);

 private:
  gl::Program nodeProgram_, edgeProgram_;
  gl::VertexArray vertexArray_;
  gl::Buffer ends_;
  SharedBuffer nodes_, edges_;
  gl::Texture colormap_, edgeColormap_;
  std::uint64_t revision_ = 0;
  std::string colormapName_;
};

}  // namespace ws::render
