#pragma once
// What the 3-D view's isosurfaces follow, at every cell of the lattice: the speed, the vorticity's
// magnitude or the Q-criterion (where rotation beats strain: vortex cores), from the velocity
// gradient by central differences. Shared by the CPU and CUDA engines.
#include <cmath>
#include <cstddef>

#include "compute/core/hd.h"
#include "compute/lbm/lbm_cell.h"
#include "compute/lbm/lbm_view.h"

namespace ws::lbm {

enum class VolumeQuantity { Speed = 0, Vorticity = 1, QCriterion = 2 };

// A quantity at every cell (x fastest; walls 0) and the speed there, in the engine's memory, and
// the quantity's largest value (0 where none is positive); with the moments of every cell they
// come from (walls NaN density), which the streamlines run through.
struct VolumeFields {
  const float* quantity = nullptr;
  const float* speed = nullptr;
  float largest = 0;
  const PlaneSample* moments = nullptr;
};

// The speed of a cell; 0 in walls.
WS_HD float cellSpeed(const PlaneSample& c) {
  if (!(c.rho == c.rho)) return 0;
  return sqrtf(c.u[0] * c.u[0] + c.u[1] * c.u[1] + c.u[2] * c.u[2]);
}

// The velocity gradient G[i][j] = d u_i / d x_j at cell (x, y, z), from the moments of every cell
// (walls NaN density): central where both neighbours along x_j are fluid, one-sided where one is,
// zero where neither is (the lattice's sides are not wrapped).
WS_HD void velocityGradient(const Grid& g, const PlaneSample* moments, int x, int y, int z,
                            float G[3][3]) {
  const int at[3] = {x, y, z}, size[3] = {g.nx, g.ny, g.nz};
  const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * g.ny};
  const std::size_t n = (std::size_t(z) * g.ny + y) * g.nx + x;
  const PlaneSample& c = moments[n];
  for (int j = 0; j < 3; ++j) {
    const bool hasPrev = at[j] > 0 && moments[n - stride[j]].rho == moments[n - stride[j]].rho;
    const bool hasNext =
        at[j] + 1 < size[j] && moments[n + stride[j]].rho == moments[n + stride[j]].rho;
    const PlaneSample& lo = hasPrev ? moments[n - stride[j]] : c;
    const PlaneSample& hi = hasNext ? moments[n + stride[j]] : c;
    const int span = int(hasPrev) + int(hasNext);
    for (int i = 0; i < 3; ++i) G[i][j] = span == 0 ? 0.0f : (hi.u[i] - lo.u[i]) / float(span);
  }
}

// The quantity at cell (x, y, z); 0 in walls.
WS_HD float volumeValue(VolumeQuantity q, const Grid& g, const PlaneSample* moments, int x, int y,
                        int z) {
  const PlaneSample& c = moments[(std::size_t(z) * g.ny + y) * g.nx + x];
  if (q == VolumeQuantity::Speed || !(c.rho == c.rho)) return cellSpeed(c);
  float G[3][3];
  velocityGradient(g, moments, x, y, z, G);
  if (q == VolumeQuantity::Vorticity) {
    const float wx = G[2][1] - G[1][2], wy = G[0][2] - G[2][0], wz = G[1][0] - G[0][1];
    return sqrtf(wx * wx + wy * wy + wz * wz);
  }
  // Q = (|Omega|^2 - |S|^2) / 2 with Omega and S G's antisymmetric and symmetric parts, which is
  // -sum G_ij G_ji / 2.
  float sum = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) sum += G[i][j] * G[j][i];
  return -0.5f * sum;
}

}  // namespace ws::lbm
