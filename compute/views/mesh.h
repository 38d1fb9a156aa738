#pragma once
// The mesh view: a triangle mesh in 3-D (the mesh module), shaded, coloured through a colour map
// by a value per triangle or per vertex, with its wireframe and each vertex's path from where it
// started when asked.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "compute/views/field.h"

namespace ws {

// The mesh's moving part: three floats per vertex, its position, then one float per vertex or per
// triangle (as the MeshScene says), the value the colour map shows. On the CUDA backend both may
// be device pointers (into an interop-mapped GL buffer).
struct MeshImage {
  float* positions = nullptr;
  float* values = nullptr;
  std::size_t vertices = 0, valueCount = 0;
  bool onDevice = false;
};

// Lines drawn over a 3-D scene (the vertex inspector's disk and search), in one colour.
struct SceneLines {
  std::vector<float> points;  // x, y, z of each segment's two ends
  float colour[3] = {1, 1, 1};
};

// The corners and the start positions change only with `revision`, which no other mesh, of this
// module or another, ever has; the module writes the positions and values every frame.
struct MeshScene {
  std::size_t vertices = 0, triangles = 0;
  std::uint64_t revision = 0;
  float centre[3] = {0, 0, 0};
  float extent = 1;  // the mesh's half-width around its centre, for the camera
  FieldView value;   // what the colour shows, and its range
  enum class Values { PerTriangle, PerVertex, PerVertexRegion } values = Values::PerTriangle;
  bool wireframe = false, paths = false;
  // When value.name is a category (colour classes): the number of categories.
  int categories = 0;
  std::vector<SceneLines> lines;  // drawn over the mesh, not hidden by it
};

// What a module that shows a mesh offers.
class MeshSource {
 public:
  virtual ~MeshSource() = default;
  virtual std::optional<MeshScene> meshScene() const = 0;
  // The corners (three per triangle) and start positions (three floats per vertex) of the
  // current revision.
  virtual void meshTopology(std::vector<std::uint32_t>& corners,
                            std::vector<float>& start) const = 0;
  virtual void renderMesh(MeshImage& image) = 0;
};

}  // namespace ws
