#include <algorithm>

#include "compute/core/cuda_check.h"
#include "compute/core/launch.h"
#include "compute/mesh/optimize_cuda.h"

namespace ws::mesh {

namespace {

// One thread per vertex of a colour class: no two of them share a triangle, so each reads its
// neighbours as they were before the launch and writes only its own position.
__global__ void optimizeClassKernel(MeshView mesh, const std::uint32_t* members, std::uint32_t n,
                                    const std::uint8_t* locked, OptimizeParams params,
                                    SurfaceProjection project) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t v = members[i];
  if (locked[v]) return;
  const VertexMove move = optimizeVertex(mesh, v, params, project, [](int, Point2) {});
  if (move.moved) mesh.positions[v] = move.to;
}

__global__ void circlePullKernel(const Point2* starts, std::uint32_t n, float radius,
                                 NelderMeadOptions options, Point2* ends) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ends[i] = circlePull(starts[i], radius, options);
}

}  // namespace

std::vector<Point2> circlePullOnGpu(const std::vector<Point2>& starts, float radius,
                                    const NelderMeadOptions& options) {
  const auto in = toDevice(starts);
  DeviceBuffer<Point2> out(std::max<std::size_t>(starts.size(), 1));
  if (!starts.empty())
    circlePullKernel<<<blocksFor(starts.size(), 128), 128>>>(
        in.data(), std::uint32_t(starts.size()), radius, options, out.data());
  WS_CUDA_CHECK(cudaGetLastError());
  return toHost(out.data(), starts.size());
}

CudaSurface::CudaSurface(const SurfaceMesh& mesh, const Colouring& colouring,
                         const std::vector<std::uint8_t>& locked, const SurfaceGrid* original,
                         int block)
    : block_(block),
      vertices_(mesh.positions.size()),
      positions_(toDevice(mesh.positions)),
      corners_(toDevice(mesh.corners)),
      triangleStart_(toDevice(mesh.topology.triangleStart)),
      triangleOf_(toDevice(mesh.topology.triangleOf)),
      neighbourStart_(toDevice(mesh.topology.neighbourStart)),
      neighbourOf_(toDevice(mesh.topology.neighbourOf)),
      members_(toDevice(colouring.members)),
      locked_(toDevice(locked)),
      classStart_(colouring.classStart) {
  if (original) {
    gridStart_ = toDevice(original->cellStart);
    gridTriangles_ = toDevice(original->cellTriangles);
    originalPositions_ = toDevice(original->positions);
    originalCorners_ = toDevice(original->corners);
    SurfaceGridView& onDevice = projection_.surface;
    onDevice = original->view();
    onDevice.cellStart = gridStart_.data();
    onDevice.cellTriangles = gridTriangles_.data();
    onDevice.positions = originalPositions_.data();
    onDevice.corners = originalCorners_.data();
  }
  view_ = {positions_.data(),  corners_.data(),        triangleStart_.data(),
           triangleOf_.data(), neighbourStart_.data(), neighbourOf_.data()};
}

void CudaSurface::optimizeClass(std::uint32_t colour, const OptimizeParams& params) {
  const std::uint32_t first = classStart_[colour], n = classStart_[colour + 1] - first;
  if (n)
    optimizeClassKernel<<<blocksFor(n, block_), block_>>>(view_, members_.data() + first, n,
                                                          locked_.data(), params, projection_);
  WS_CUDA_CHECK(cudaGetLastError());
}

void CudaSurface::sweep(const OptimizeParams& params) {
  for (std::uint32_t c = 0; c < colours(); ++c) optimizeClass(c, params);
}

std::vector<Vec3> CudaSurface::positionsOnHost() const {
  return toHost(positions_.data(), vertices_);
}

}  // namespace ws::mesh
