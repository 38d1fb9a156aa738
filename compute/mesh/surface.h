#pragma once
// The optimizer's mesh on the CPU: positions that move, corners and connectivity that never do,
// and the steps of a sweep (one colour class at a time, its vertices in parallel).
#include <cstdint>
#include <vector>

#include "compute/mesh/colouring.h"
#include "compute/mesh/optimize.h"
#include "compute/mesh/surface_grid.h"
#include "compute/mesh/topology.h"

namespace ws::mesh {

struct SurfaceMesh {
  std::vector<Vec3> positions;
  std::vector<std::uint32_t> corners;  // three per triangle
  Topology topology;
  std::vector<Vec3> reference;  // each triangle's reference normal, from the mesh as it came

  explicit SurfaceMesh(const TriangleMesh& mesh);
  MeshView view();
  std::size_t triangles() const { return corners.size() / 3; }
  // The smallest and the mean of the triangles' smallest angles, in degrees.
  float minAngleDegrees() const;
  float meanMinAngleDegrees() const;
  // The first triangle that has turned over since the positions were `before`, or -1.
  std::ptrdiff_t foldedSince(const std::vector<Vec3>& before) const;
};

// Which way the surface faces at each triangle, from a mesh that may arrive tangled: the sum of
// the unit normals of the triangles that share a corner with it (itself left out), so that a few
// folded triangles are outvoted by the sound ones around them; then again with only the
// triangles that vote found sound. Unit vectors; the triangle's own normal where they cancel,
// zero for a triangle without area in a neighbourhood without any.
std::vector<Vec3> referenceNormals(const std::vector<Vec3>& positions,
                                   const std::vector<std::uint32_t>& corners,
                                   const Topology& topology);

// The triangles' signed smallest angles (signedMinAngle: an inverted triangle's is negative) in
// one pass: their minimum, mean, the inverted ones and a histogram in bins of kAngleBinDegrees
// (the first bin takes the inverted too, the last everything from 55 degrees up to 60, the most a
// smallest angle can be).
constexpr int kAngleBins = 12;
constexpr float kAngleBinDegrees = 5;
struct AngleSummary {
  float minDegrees = 180;
  double meanDegrees = 0;
  std::uint32_t histogram[kAngleBins] = {};
  std::uint32_t inverted = 0;
};
AngleSummary summarizeAngles(const SurfaceMesh& mesh);
WS_HD int angleBin(float degrees) {
  const int b = int(degrees / kAngleBinDegrees);
  return b < 0 ? 0 : b >= kAngleBins ? kAngleBins - 1 : b;
}
// The degrees in a radian, for device code too.
constexpr float kDegreesPerRadian = 57.29577951308232f;

// What passes did: vertices moved, Nelder-Mead iterations used.
struct PassCounts {
  std::uint64_t moved = 0, iterations = 0;
};

// Vertices that must not move: those Topology pins (boundary and non-manifold edges) and, with
// featureDegrees > 0, those on an edge whose two triangles meet at more than featureDegrees (the
// angle between their normals: 0 on a flat sheet).
// Slivers (triangles with an angle under kSliverDegrees) and inverted triangles are left out of
// the comparison: their normals say little about the surface, and a poor or tangled mesh's
// slivers and folds would otherwise lock the very vertices that must move to mend them.
constexpr float kSliverDegrees = 10;
std::vector<std::uint8_t> lockedVertices(const SurfaceMesh& mesh, float featureDegrees);

// Optimizes the unlocked vertices of one colour class in place, in parallel: no two of them
// share a triangle, so each sees its neighbours as they were. With `original`, every position
// tried is projected onto that surface first. Returns how many moved; adds the Nelder-Mead
// iterations the vertices used to *iterations when given.
std::size_t optimizeClass(SurfaceMesh& mesh, const Colouring& colouring, std::uint32_t colour,
                          const std::vector<std::uint8_t>& locked, const OptimizeParams& params,
                          const SurfaceGrid* original = nullptr,
                          std::uint64_t* iterations = nullptr);

// Every unlocked vertex at once, without a colouring (Jacobi): each move is made against the
// positions before the pass, so neighbours that move together can undo each other's guards: the
// smallest angle may drop and triangles may fold. The lesson of why the chapter colours.
std::size_t optimizeAllAtOnce(SurfaceMesh& mesh, const std::vector<std::uint8_t>& locked,
                              const OptimizeParams& params, const SurfaceGrid* original = nullptr,
                              std::uint64_t* iterations = nullptr);

// Procedural test meshes. An icosphere of radius 1 subdivided `levels` times, each vertex moved
// along the surface by up to `jitter` times the edge length (then back onto the sphere). A flat
// n x n patch of equilateral triangles in the z = 0 plane, interior vertices moved in the plane
// by up to `jitter` times the edge length.
TriangleMesh jitteredSphere(int levels, float jitter, std::uint64_t seed);
TriangleMesh planePatch(int n, float jitter, std::uint64_t seed);
// A torus (radii 1 and 0.35) of `around` x `across` quads split in two, each vertex moved along
// the surface by up to `jitter` times its quad's side.
TriangleMesh jitteredTorus(int around, int across, float jitter, std::uint64_t seed);
// A CAD-like part with sharp features: a 2 x 1.2 x 0.6 block with a 0.8 x 1.2 x 0.3 notch cut out
// of its top, every face a grid of squares of side 0.1 / n split in two (1776 n^2
// triangles); vertices inside a face moved within it by up to `jitter` times the side, vertices
// on edges and corners left in place.
TriangleMesh cadPart(int n, float jitter, std::uint64_t seed);

}  // namespace ws::mesh
