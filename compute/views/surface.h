#pragma once
// The surface view: triangles in 3-D that a module extracts anew every frame (the LBM's
// isosurfaces), shaded and coloured through a colour map by a value at each vertex, with lines
// through them likewise coloured (the LBM's streamlines), fixed surfaces drawn in one colour (the
// obstacles) and lines over them all (the lattice's box).
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

// A vertex of a line segment through the scene is kLineVertexFloats floats: its position x, y, z
// and the value its colour shows, which is negative at both ends of a segment that is not drawn
// (a line shorter than its room). Two vertices a segment.
constexpr int kLineVertexFloats = 4;

// Where this frame's triangles go: room for `triangles` of them; and its line segments: room for
// `segments`. On the CUDA backend `vertices` and `lineVertices` may be device pointers (into
// interop-mapped GL buffers).
struct SurfaceImage {
  float* vertices = nullptr;
  std::size_t triangles = 0;
  bool onDevice = false;
  float* lineVertices = nullptr;
  std::size_t segments = 0;
  bool linesOnDevice = false;
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
  // This frame's line segments through the scene (the LBM's streamlines), coloured like the
  // surface and hidden behind it; asked after surfaceTriangles().
  virtual std::size_t surfaceSegments() const { return 0; }
  // Writes the first image.triangles of them, and image.segments line segments from the same
  // state.
  virtual void renderSurface(SurfaceImage& image) = 0;
};

}  // namespace ws
