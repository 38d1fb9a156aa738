#include "compute/graph/layout.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "compute/graph/layout_force.h"

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
  // The grid: vertices bucketed by cell, in increasing order within a cell.
  float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  for (std::uint32_t v = 0; v < n; ++v)
    for (int a = 0; a < 2; ++a) {
      lo[a] = std::min(lo[a], positions_[2 * v + a]);
      hi[a] = std::max(hi[a], positions_[2 * v + a]);
    }
  const LayoutGrid grid = LayoutGrid::around(lo[0], lo[1], hi[0], hi[1], params.spacing);
  cellStart_.assign(std::size_t(grid.cells()) + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v)
    ++cellStart_[grid.cellOf(positions_[2 * v], positions_[2 * v + 1]) + 1];
  for (std::size_t c = 1; c < cellStart_.size(); ++c) cellStart_[c] += cellStart_[c - 1];
  cellVertices_.resize(n);
  std::vector<std::uint32_t> fill(cellStart_.begin(), cellStart_.end() - 1);
  for (std::uint32_t v = 0; v < n; ++v)
    cellVertices_[fill[grid.cellOf(positions_[2 * v], positions_[2 * v + 1])]++] = v;
  const LayoutInputs in = {positions_.data(),
                           grid,
                           cellStart_.data(),
                           cellVertices_.data(),
                           g_.offset.data(),
                           g_.arcTo.data(),
                           g_.arcEdge.data(),
                           removed.empty() ? nullptr : removed.data(),
                           params};
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t v = 0; v < std::int64_t(n); ++v)
    layoutForce(in, std::uint32_t(v), &force_[2 * v], &force_[2 * v + 1]);
  for (std::uint32_t v = 0; v < n; ++v)
    layoutMove(positions_.data(), v, force_[2 * v], force_[2 * v + 1], params);
}

}  // namespace ws::graph
