#pragma once
// The surface view: triangles in 3-D that a module extracts anew every frame (the LBM's
// isosurfaces), shaded and coloured through a colour map by a value at each vertex, with lines
// through them likewise coloured (the LBM's streamlines), fixed surfaces drawn in one colour (the
// obstacles) and lines over them all (the lattice's box).
#include <atomic>
#include <cmath>
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
// another, ever has (newSurfaceRevision() hands them out).
struct SurfaceScene {
  std::uint64_t revision = 0;
  float centre[3] = {0, 0, 0};
  float extent = 1;  // the scene's half-width around its centre, for the camera
  FieldView value;   // what the colour of the extracted surface shows, and its range
  std::vector<SceneLines> lines;
};

// A scene of the box [0, nx] x [0, ny] x [0, nz] (a lattice, a grid): the camera's centre and
// extent, and its twelve edges as grey lines. The module adds its revision and value.
inline SurfaceScene boxScene(float nx, float ny, float nz) {
  const float size[3] = {nx, ny, nz};
  SurfaceScene scene;
  for (int k = 0; k < 3; ++k) scene.centre[k] = size[k] / 2;
  scene.extent = 0.5f * std::sqrt(nx * nx + ny * ny + nz * nz);
  // From each corner, the edges along the axes it has not moved along.
  SceneLines box;
  box.colour[0] = box.colour[1] = box.colour[2] = 0.55f;
  for (int corner = 0; corner < 8; ++corner)
    for (int axis = 0; axis < 3; ++axis) {
      if (corner >> axis & 1) continue;
      for (int end : {corner, corner | 1 << axis})
        for (int k = 0; k < 3; ++k) box.points.push_back((end >> k & 1) ? size[k] : 0.0f);
    }
  scene.lines.push_back(std::move(box));
  return scene;
}

// A revision no surface has had before, in this run of the program.
inline std::uint64_t newSurfaceRevision() {
  static std::atomic<std::uint64_t> revisions{0};
  return ++revisions;
}

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
