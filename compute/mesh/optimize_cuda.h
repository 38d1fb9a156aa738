#pragma once
// The vertex optimizer on the GPU: the mesh, its connectivity, its colour classes and locks in
// device memory, one launch per colour class with a thread per vertex of the class, running the
// same optimizeVertex as the CPU. The positions stay on the device between sweeps.
#include <cstdint>
#include <vector>

#include "compute/core/device_buffer.h"
#include "compute/mesh/colouring.h"
#include "compute/mesh/optimize.h"
#include "compute/mesh/surface.h"

namespace ws::mesh {

class CudaSurface {
 public:
  // Copies the mesh, its colouring and its locks to the device. Throws OutOfMemoryError.
  // With `original`, every position tried is projected onto that surface, as on the CPU.
  CudaSurface(const SurfaceMesh& mesh, const Colouring& colouring,
              const std::vector<std::uint8_t>& locked, const SurfaceGrid* original = nullptr,
              int block = 128);

  // One colour class, or every class in order (a sweep); asynchronous.
  void optimizeClass(std::uint32_t colour, const OptimizeParams& params);
  void sweep(const OptimizeParams& params);

  std::vector<Vec3> positionsOnHost() const;
  std::size_t vertices() const { return vertices_; }
  std::uint32_t colours() const { return std::uint32_t(classStart_.size() - 1); }

 private:
  int block_;
  std::size_t vertices_;
  DeviceBuffer<Vec3> positions_;
  DeviceBuffer<std::uint32_t> corners_, triangleStart_, triangleOf_, neighbourStart_, neighbourOf_,
      members_;
  DeviceBuffer<std::uint8_t> locked_;
  DeviceBuffer<std::uint32_t> gridStart_, gridTriangles_, originalCorners_;
  DeviceBuffer<Vec3> originalPositions_;
  SurfaceProjection projection_;  // an empty view: no projection
  std::vector<std::uint32_t> classStart_;
  MeshView view_;
};

// The chapter's 2-D warm-up on the GPU, a thread per point: circlePull for each start.
std::vector<Point2> circlePullOnGpu(const std::vector<Point2>& starts, float radius,
                                    const NelderMeadOptions& options);

}  // namespace ws::mesh
