#pragma once
// The vertex optimizer on the GPU: the mesh, its connectivity, its colour classes and locks in
// device memory, one launch per colour class with a thread per vertex of the class, running the
// same moveVertex as the CPU. The positions stay on the device between sweeps; the colouring can
// be made there too (Jones-Plassmann), and so can the angle statistics the module plots.
#include <cstdint>
#include <vector>

#include "compute/core/device_buffer.h"
#include "compute/mesh/colouring.h"
#include "compute/mesh/optimize.h"
#include "compute/mesh/surface.h"

namespace ws::mesh {

class CudaSurface {
 public:
  // Copies the mesh and its locks to the device. Throws OutOfMemoryError. With `original`, every
  // position tried is projected onto that surface, as on the CPU, until setProjection(false).
  // Colour it before optimizing.
  CudaSurface(const SurfaceMesh& mesh, const std::vector<std::uint8_t>& locked,
              const SurfaceGrid* original = nullptr, int block = 128);

  // A colouring made on the host, or Jones-Plassmann on the device (the same colours as
  // jonesPlassmannColouring with that seed). Both replace the colour classes.
  void setColouring(const Colouring& colouring);
  void colourJonesPlassmann(std::uint32_t seed);
  Colouring colouringOnHost() const;  // for tests
  std::uint32_t colours() const { return std::uint32_t(classStart_.size() - 1); }
  const std::vector<std::uint32_t>& classStart() const { return classStart_; }

  // One colour class, every class in order (a sweep), or every vertex at once against the
  // positions before (optimizeAllAtOnce's Jacobi pass); asynchronous. Each adds the vertices it
  // moved and the Nelder-Mead iterations used to counts().
  void optimizeClass(std::uint32_t colour, const OptimizeParams& params);
  void sweep(const OptimizeParams& params);
  void optimizeAllAtOnce(const OptimizeParams& params);
  PassCounts counts();  // waits; since construction or the last setPositions
  void setBlock(int block) { block_ = block; }
  void setLocked(const std::vector<std::uint8_t>& locked);
  void setProjection(bool on) { projection_.surface = on ? surface_ : SurfaceGridView{}; }

  // The triangles' smallest angles (waits), as summarizeAngles.
  AngleSummary summarizeAngles();

  void setPositions(const std::vector<Vec3>& positions);
  std::vector<Vec3> positionsOnHost() const;
  const Vec3* positions() const { return positions_.data(); }
  // Per triangle its smallest angle in degrees; per vertex its colour, and its distance from
  // `start` (a device array of the positions to measure from). `out` is a device pointer.
  void writeTriangleAngles(float* out) const;
  void writeVertexColours(float* out) const;
  void writeDistances(const Vec3* start, float* out) const;
  // Per vertex its distance from the original surface (needs `original`).
  void writeSurfaceDistances(float* out) const;
  std::size_t vertices() const { return vertices_; }
  std::size_t triangles() const { return triangles_; }

 private:
  int block_;
  std::size_t vertices_, triangles_;
  DeviceBuffer<Vec3> positions_, before_;
  DeviceBuffer<std::uint32_t> corners_, triangleStart_, triangleOf_, neighbourStart_, neighbourOf_;
  DeviceBuffer<Vec3> reference_;  // the mesh's reference normals
  DeviceBuffer<std::uint32_t> colour_, members_;
  DeviceBuffer<std::uint8_t> locked_;
  DeviceBuffer<std::uint32_t> gridStart_, gridTriangles_, originalCorners_;
  DeviceBuffer<Vec3> originalPositions_;
  DeviceBuffer<unsigned long long> counts_;  // moved, iterations
  DeviceBuffer<AngleSummary> summary_;
  SurfaceGridView surface_;       // the original surface on the device, or empty
  SurfaceProjection projection_;  // surface_, or an empty view: no projection
  std::vector<std::uint32_t> classStart_ = {0};
  MeshView view_;
};

// The chapter's 2-D warm-up on the GPU, a thread per point: circlePull for each start.
std::vector<Point2> circlePullOnGpu(const std::vector<Point2>& starts, float radius,
                                    const NelderMeadOptions& options);

}  // namespace ws::mesh
