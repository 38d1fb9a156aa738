#include "compute/mesh/surface_grid.h"

#include <algorithm>
#include <cmath>

namespace ws::mesh {

SurfaceGrid::SurfaceGrid(const std::vector<Vec3>& p, const std::vector<std::uint32_t>& c)
    : positions(p), corners(c) {
  Vec3 lo = {3.4e38f, 3.4e38f, 3.4e38f}, hi = {-3.4e38f, -3.4e38f, -3.4e38f};
  for (const Vec3& v : positions) {
    lo = {std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z)};
    hi = {std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z)};
  }
  const std::size_t triangles = corners.size() / 3;
  if (positions.empty() || !triangles) lo = hi = {0, 0, 0};
  // Cells about as wide as the mean edge, so that a cell holds a few triangles.
  double edges = 0;
  for (std::size_t t = 0; t < triangles; ++t)
    for (int k = 0; k < 3; ++k)
      edges += length(positions[corners[3 * t + k]] - positions[corners[3 * t + (k + 1) % 3]]);
  const Vec3 size = hi - lo;
  const float extent = std::max({size.x, size.y, size.z, 1e-6f});
  cell = std::max(triangles ? float(edges / (3.0 * double(triangles))) : extent, extent / 256);
  origin = lo;
  nx = std::max(1, int(std::ceil(size.x / cell)));
  ny = std::max(1, int(std::ceil(size.y / cell)));
  nz = std::max(1, int(std::ceil(size.z / cell)));
  // Each triangle in every cell its bounding box overlaps: counted, then placed.
  auto range = [&](std::size_t t, int axis, int& first, int& last) {
    float a = 3.4e38f, b = -3.4e38f;
    for (int k = 0; k < 3; ++k) {
      const Vec3 v = positions[corners[3 * t + k]];
      const float x = axis == 0 ? v.x - origin.x : axis == 1 ? v.y - origin.y : v.z - origin.z;
      a = std::min(a, x);
      b = std::max(b, x);
    }
    const int n = axis == 0 ? nx : axis == 1 ? ny : nz;
    first = std::clamp(int(std::floor(a / cell)), 0, n - 1);
    last = std::clamp(int(std::floor(b / cell)), 0, n - 1);
  };
  auto forCells = [&](std::size_t t, auto&& visit) {
    int i0, i1, j0, j1, k0, k1;
    range(t, 0, i0, i1);
    range(t, 1, j0, j1);
    range(t, 2, k0, k1);
    for (int k = k0; k <= k1; ++k)
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) visit((std::size_t(k) * ny + j) * nx + i);
  };
  cellStart.assign(std::size_t(nx) * ny * nz + 1, 0);
  for (std::size_t t = 0; t < triangles; ++t)
    forCells(t, [&](std::size_t c) { ++cellStart[c + 1]; });
  for (std::size_t c = 1; c < cellStart.size(); ++c) cellStart[c] += cellStart[c - 1];
  cellTriangles.resize(cellStart.back());
  std::vector<std::uint32_t> fill(cellStart.begin(), cellStart.end() - 1);
  for (std::size_t t = 0; t < triangles; ++t)
    forCells(t, [&](std::size_t c) { cellTriangles[fill[c]++] = std::uint32_t(t); });
}

SurfaceGridView SurfaceGrid::view() const {
  return {origin,           cell,          nx, ny, nz, cellStart.data(), cellTriangles.data(),
          positions.data(), corners.data()};
}

}  // namespace ws::mesh
