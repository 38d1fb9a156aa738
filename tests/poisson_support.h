#pragma once
// What the Poisson tests share.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "compute/poisson/poisson_stencil.h"

namespace ws::test {

// Values in [-scale, scale) at every unknown of a grid, the boundary's 0, from a seed: each a float
// (so that float and double engines are given the same numbers).
inline std::vector<double> randomInterior(const poisson::Grid& g, std::uint64_t seed,
                                          float scale = 1) {
  std::vector<double> v(g.nodes(), 0.0);
  std::uint64_t state = seed * 2654435761u + 1;
  const int zs = g.dims == 3 ? g.n : 1;
  for (int z = g.dims == 3 ? 1 : 0; z < zs; ++z)
    for (int y = 1; y < g.n; ++y)
      for (int x = 1; x < g.n; ++x) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        v[g.index(x, y, z)] = scale * (float(state >> 40) / float(1 << 24) * 2 - 1);
      }
  return v;
}

// The largest |a - b| over two fields of the same grid.
inline double largestDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

}  // namespace ws::test
