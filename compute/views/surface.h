#pragma once
// The surface view: triangles in 3-D that a module extracts anew every frame (the LBM's
// isosurfaces), shaded and coloured through a colour map by a value at each vertex, with fixed
// surfaces drawn in one colour (the obstacles) and lines over them (the lattice's box).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "compute/views/field.h"
#include "compute/views/mesh.h"

namespace ws {

// A vertex is kSurfaceVertexFloats floats: its position x, y, z, the value its colour shows, its
// unit normal x, y, z and one unused (two vec4s for the shader). Three vertices a triangle.
constexpr int kSurfaceVertexFloats = 8;

// Where this frame's triangles go: room for `triangles` of them. On the CUDA backend `vertices`
// may be a device pointer (into an interop-mapped GL buffer).
struct SurfaceImage {
  float* vertices = nullptr;
  std::size_t triangles = 0;
  bool onDevice = false;
};

// The fixed surfaces change only with `revision`, which no other surface, of this module or
// another, ever has.
struct SurfaceScene {
  std::uint64_t revision = 0;
  float centre[3] = {0, 0, 0};
  float extent = 1;  // the scene's half-width around its centre, for the camera
  FieldView value;   // what the colour of the extracted surface shows, and its range
  std::vector<SceneLines> lines;
};

// What a module that shows surfaces offers.
class SurfaceSource {
 public:
  virtual ~SurfaceSource() = default;
  virtual std::optional<SurfaceScene> surfaceScene() const = 0;
  // The fixed surfaces of the current revision, drawn in one colour (vertices as above).
  virtual void fixedSurface(std::vector<float>& vertices) = 0;
  // Extracts this frame's surface: the number of its triangles, which renderSurface() writes.
  virtual std::size_t surfaceTriangles() = 0;
  // Writes the first image.triangles of them.
  virtual void renderSurface(SurfaceImage& image) = 0;
};

}  // namespace ws
