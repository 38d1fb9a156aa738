// Isosurfaces on the CPU: the two passes of isosurface.h over the cubes with OpenMP, the scan
// between them on one thread.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/core/errors.h"
#include "compute/core/memory.h"
#include "compute/geometry/isosurface.h"

namespace ws::geometry {

namespace {

class CpuIsosurface final : public IsosurfaceExtractor {
 public:
  explicit CpuIsosurface(TimingScope& timing) : timing_(timing) {}

  std::size_t count(const ScalarGrid& grid, float level) override {
    if (grid.points() > kMaxIsosurfacePoints)
      throw InputError("an isosurface needs a grid of at most 2^28 points");
    const CpuStopwatch watch;
    grid_ = grid;
    level_ = level;
    const std::size_t cubes = grid.points();
    requireHostMemory(double(cubes) * sizeof(std::uint64_t), "an isosurface's cube counts");
    first_.assign(cubes + 1, 0);
    const int rows = grid.ny * grid.nz;
#pragma omp parallel for schedule(static)
    for (int row = 0; row < rows; ++row) {
      const int y = row % grid.ny, z = row / grid.ny;
      for (int x = 0; x < grid.nx; ++x)
        first_[grid.point(x, y, z) + 1] = std::uint64_t(cubeTriangles(grid, level, x, y, z));
    }
    for (std::size_t n = 0; n < cubes; ++n) first_[n + 1] += first_[n];  // cube n's first triangle
    ms_ = watch.elapsedMs();
    return std::size_t(first_[cubes]);
  }

  void write(float* out, std::size_t limit, bool) override {
    const CpuStopwatch watch;
    const ScalarGrid& g = grid_;
    const int rows = g.ny * g.nz;
#pragma omp parallel for schedule(dynamic, 16)
    for (int row = 0; row < rows; ++row) {
      const int y = row % g.ny, z = row / g.ny;
      for (int x = 0; x < g.nx; ++x) {
        const std::size_t n = g.point(x, y, z);
        if (first_[n + 1] > first_[n] && first_[n] < limit)
          writeCube(g, level_, x, y, z, first_[n], limit, out);
      }
    }
    timing_.record(ms_ + watch.elapsedMs(), double(g.points()),
                   isosurfaceBytes(g.points(), std::min<std::size_t>(limit, first_.back())));
  }

 private:
  TimingScope& timing_;
  ScalarGrid grid_;
  float level_ = 0;
  std::vector<std::uint64_t> first_;  // cube n's triangles: [first_[n], first_[n + 1])
  double ms_ = 0;                     // the counting pass's
};

}  // namespace

std::unique_ptr<IsosurfaceExtractor> makeCpuIsosurface(TimingScope& timing) {
  return std::make_unique<CpuIsosurface>(timing);
}

std::vector<float> isosurfaceOnHost(const ScalarGrid& grid, float level) {
  TimingScope unused("isosurface", "cubes/s", false);
  CpuIsosurface extractor(unused);
  const std::size_t triangles = extractor.count(grid, level);
  std::vector<float> vertices(triangles * 3 * kSurfaceVertexFloats);
  extractor.write(vertices.data(), triangles, false);
  return vertices;
}

}  // namespace ws::geometry
