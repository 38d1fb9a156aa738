// Isosurfaces on the GPU: a thread per cube counts its triangles, CUB's exclusive scan gives each
// cube its first, and a thread per cube writes its own, straight into the GL buffer that draws
// them where interop is on.
#include <cub/device/device_scan.cuh>

#include "compute/core/cuda_check.h"
#include "compute/core/device_buffer.h"
#include "compute/core/errors.h"
#include "compute/core/gpu_timer.h"
#include "compute/core/launch.h"
#include "compute/geometry/isosurface.h"

namespace ws::geometry {

namespace {

constexpr unsigned kBlock = 256;

__device__ void pointOf(const ScalarGrid& g, std::size_t n, int& x, int& y, int& z) {
  x = int(n % g.nx);
  y = int(n / g.nx % g.ny);
  z = int(n / (std::size_t(g.nx) * g.ny));
}

__global__ void countKernel(ScalarGrid g, float level, std::uint32_t* counts) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.points()) return;
  int x, y, z;
  pointOf(g, n, x, y, z);
  counts[n] = std::uint32_t(cubeTriangles(g, level, x, y, z));
}

__global__ void writeKernel(ScalarGrid g, float level, const std::uint32_t* counts,
                            const std::uint32_t* first, std::size_t limit, float* out) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.points() || counts[n] == 0 || first[n] >= limit) return;
  int x, y, z;
  pointOf(g, n, x, y, z);
  writeCube(g, level, x, y, z, first[n], limit, out);
}

class CudaIsosurface final : public IsosurfaceExtractor {
 public:
  explicit CudaIsosurface(TimingScope& timing) : timing_(timing) {}

  std::size_t count(const ScalarGrid& grid, float level) override {
    if (grid.points() > kMaxIsosurfacePoints)
      throw InputError("an isosurface needs a grid of at most 2^28 points");
    grid_ = grid;
    level_ = level;
    const std::size_t cubes = grid.points();
    if (counts_.size() != cubes) {
      requireDeviceMemory(2.0 * cubes * sizeof(std::uint32_t), double(counts_.bytes() * 2),
                          "an isosurface's cube counts");
      counts_.release();
      first_.release();
      counts_.allocate(cubes);
      first_.allocate(cubes);
    }
    if (!timed_) timed_ = ring_.start();
    countKernel<<<blocksFor(cubes, kBlock), kBlock>>>(grid, level, counts_.data());
    WS_CUDA_CHECK(cudaGetLastError());
    std::size_t scratchBytes = 0;
    WS_CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(nullptr, scratchBytes, counts_.data(), first_.data(), cubes));
    if (scratch_.size() < scratchBytes) scratch_.allocate(scratchBytes);
    WS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch_.data(), scratchBytes, counts_.data(),
                                                first_.data(), cubes));
    std::uint32_t last[2];
    WS_CUDA_CHECK(cudaMemcpy(&last[0], first_.data() + cubes - 1, sizeof(std::uint32_t),
                             cudaMemcpyDeviceToHost));
    WS_CUDA_CHECK(cudaMemcpy(&last[1], counts_.data() + cubes - 1, sizeof(std::uint32_t),
                             cudaMemcpyDeviceToHost));
    return std::size_t(last[0]) + last[1];
  }

  void write(float* out, std::size_t limit, bool onDevice) override {
    const std::size_t cubes = grid_.points();
    if (limit > 0) {
      float* target = output_.prepare(out, limit * 3 * kSurfaceVertexFloats, onDevice);
      writeKernel<<<blocksFor(cubes, kBlock), kBlock>>>(grid_, level_, counts_.data(),
                                                        first_.data(), limit, target);
      WS_CUDA_CHECK(cudaGetLastError());
      output_.deliver();
    }
    if (timed_) ring_.stop(double(cubes), isosurfaceBytes(cubes, limit));
    timed_ = false;
  }

  void pollTimings() override { ring_.collect(timing_); }
  void drainTimings() override { ring_.drain(timing_); }

 private:
  TimingScope& timing_;
  ScalarGrid grid_;
  float level_ = 0;
  DeviceBuffer<std::uint32_t> counts_, first_;
  DeviceBuffer<unsigned char> scratch_;
  DeviceOutput<float> output_;
  GpuTimerRing ring_;
  bool timed_ = false;  // a sample is open from count() to write()
};

}  // namespace

std::unique_ptr<IsosurfaceExtractor> makeCudaIsosurface(TimingScope& timing) {
  return std::make_unique<CudaIsosurface>(timing);
}

}  // namespace ws::geometry
