#include "compute/graph/layout.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace ws::graph {

Layout::Layout(const Graph& g, std::uint64_t seed) : g_(g) {
  std::mt19937_64 rng(seed);
  const float side = std::sqrt(float(std::max<std::uint32_t>(g.vertices, 1)));
  std::uniform_real_distribution<float> any(-side / 2, side / 2);
  positions_.resize(2 * std::size_t(g.vertices));
  for (float& p : positions_) p = any(rng);
  force_.resize(positions_.size());
}

void Layout::step(const LayoutParams& params, const std::vector<std::uint8_t>& removed) {
  const std::uint32_t n = g_.vertices;
  if (n == 0) return;
  const float k = params.spacing, cell = 2 * k;
  // The grid: vertices bucketed by cell, over the box that holds them.
  float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  for (std::uint32_t v = 0; v < n; ++v)
    for (int a = 0; a < 2; ++a) {
      lo[a] = std::min(lo[a], positions_[2 * v + a]);
      hi[a] = std::max(hi[a], positions_[2 * v + a]);
    }
  // Cells at most 4096 a side: a layout that has flown apart gets coarser cells, not a huge grid.
  const int nx = std::clamp(int((hi[0] - lo[0]) / cell) + 1, 1, 4096);
  const int ny = std::clamp(int((hi[1] - lo[1]) / cell) + 1, 1, 4096);
  const float cx = (hi[0] - lo[0]) / float(nx) + 1e-6f, cy = (hi[1] - lo[1]) / float(ny) + 1e-6f;
  auto cellOf = [&](std::uint32_t v, int* i, int* j) {
    *i = std::min(nx - 1, int((positions_[2 * v] - lo[0]) / cx));
    *j = std::min(ny - 1, int((positions_[2 * v + 1] - lo[1]) / cy));
  };
  cellStart_.assign(std::size_t(nx) * ny + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    int i, j;
    cellOf(v, &i, &j);
    ++cellStart_[std::size_t(j) * nx + i + 1];
  }
  for (std::size_t c = 1; c < cellStart_.size(); ++c) cellStart_[c] += cellStart_[c - 1];
  cellVertices_.resize(n);
  std::vector<std::uint32_t> fill(cellStart_.begin(), cellStart_.end() - 1);
  for (std::uint32_t v = 0; v < n; ++v) {
    int i, j;
    cellOf(v, &i, &j);
    cellVertices_[fill[std::size_t(j) * nx + i]++] = v;
  }
  // Forces: repulsion from the 3 x 3 cells around, attraction along edges, gravity.
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t vi = 0; vi < std::int64_t(n); ++vi) {
    const auto v = std::uint32_t(vi);
    const float x = positions_[2 * v], y = positions_[2 * v + 1];
    float fx = -params.gravity * x, fy = -params.gravity * y;
    int ci, cj;
    cellOf(v, &ci, &cj);
    for (int j = std::max(cj - 1, 0); j <= std::min(cj + 1, ny - 1); ++j)
      for (int i = std::max(ci - 1, 0); i <= std::min(ci + 1, nx - 1); ++i)
        for (std::uint32_t s = cellStart_[std::size_t(j) * nx + i];
             s < cellStart_[std::size_t(j) * nx + i + 1]; ++s) {
          const std::uint32_t u = cellVertices_[s];
          if (u == v) continue;
          float dx = x - positions_[2 * u], dy = y - positions_[2 * u + 1];
          float d2 = dx * dx + dy * dy;
          if (d2 < 1e-8f) {  // on top of each other: apart along a direction from their numbers
            dx = 1e-3f * float(int(v % 7) - 3) + 1e-4f;
            dy = 1e-3f * float(int(u % 5) - 2);
            d2 = dx * dx + dy * dy;
          }
          const float push = k * k / d2;  // k^2 / d, along the unit vector (dx, dy) / d
          fx += dx * push;
          fy += dy * push;
        }
    for (std::uint32_t a = g_.offset[v]; a < g_.offset[v + 1]; ++a) {
      if (!removed.empty() && removed[g_.arcEdge[a]]) continue;
      const std::uint32_t u = g_.arcTo[a];
      const float dx = positions_[2 * u] - x, dy = positions_[2 * u + 1] - y;
      const float pull = std::sqrt(dx * dx + dy * dy) / k;  // d^2 / k along the unit vector
      fx += dx * pull;
      fy += dy * pull;
    }
    force_[2 * v] = fx;
    force_[2 * v + 1] = fy;
  }
  // Each vertex moves along its force, at most the temperature.
  const float limit = params.temperature * k;
  for (std::uint32_t v = 0; v < n; ++v) {
    const float fx = force_[2 * v], fy = force_[2 * v + 1];
    const float f = std::sqrt(fx * fx + fy * fy);
    if (!(f > 0)) continue;
    const float move = std::min(f, limit) / f;
    positions_[2 * v] += fx * move;
    positions_[2 * v + 1] += fy * move;
  }
}

}  // namespace ws::graph
