#pragma once
// The Cahn-Hilliard equation's arithmetic, shared by the CPU implementation and every CUDA kernel
// (so they differ only in where the values come from and in the rounding of fused multiply-adds).
//
//   d phi / dt = m lap(mu),   mu = -b phi + u phi^3 - K lap(phi)
//
// on a periodic grid of unit spacing, lap the 5-point (2-D) or 7-point (3-D) Laplacian. A cell's
// rate needs mu at the cell and its 2D neighbours, and each mu the values around it: 13 cells in
// 2-D (the source's Figure 5), 25 in 3-D.
#include <cmath>
#include <cstddef>

#include "compute/core/hd.h"

namespace ws::ch {

// The equation's coefficients and the time step.
struct Coefficients {
  float m = 1, b = 1, u = 1, K = 1, dt = 0.01f;
};

// An nx x ny x nz grid, x fastest; nz == 1 in 2-D.
struct Shape {
  int nx = 0, ny = 0, nz = 1;
  WS_HD std::size_t cells() const { return std::size_t(nx) * ny * nz; }
  WS_HD std::size_t index(int x, int y, int z) const { return (std::size_t(z) * ny + y) * nx + x; }
};

// i held to [0, n) on the torus, for offsets of at most n either way.
WS_HD int wrapIndex(int i, int n) {
  return i < 0 ? i + n : (i >= n ? i - n : i);
}

// The sum of a cell's 2D neighbours, in the one order every implementation adds them.
WS_HD float neighbourSum(float w, float e, float s, float n) {
  return (w + e) + (s + n);
}
// The 3D sum from its pairs: along the row (w + e), the two across (s, n), along z (back + front).
WS_HD float neighbourSumOfPairs(float alongRow, float s, float n, float alongZ) {
  return (alongRow + (s + n)) + alongZ;
}
WS_HD float neighbourSum(float w, float e, float s, float n, float back, float front) {
  return neighbourSumOfPairs(w + e, s, n, back + front);
}

// mu at a cell from its value and the sum of its 2D neighbours' values,
//   mu = -b c + u c^3 - K (neighbours - 2D c) = c (u c^2 + 2D K - b) - K neighbours,
// the Laplacian's centre taken into the bulk term: an operation fewer, which made the issue-bound
// 3-D fast path 1-2.5% faster on an H200 (docs/performance.md).
template <int D>
WS_HD float chemicalPotential(float c, float neighbours, const Coefficients& k) {
  return c * (k.u * c * c + (float(2 * D) * k.K - k.b)) - k.K * neighbours;
}

// d phi / dt at a cell from mu there and the sum of mu at its neighbours.
template <int D>
WS_HD float rateFromPotentials(float muCentre, float muNeighbours, const Coefficients& k) {
  return k.m * (muNeighbours - float(2 * D) * muCentre);
}

// mu at offset (dx, dy, dz) from a cell, with `at(dx, dy, dz)` the value there.
template <int D, typename At>
WS_HD float potentialAt(const At& at, int dx, int dy, int dz, const Coefficients& k) {
  const float c = at(dx, dy, dz);
  if constexpr (D == 2) {
    return chemicalPotential<2>(
        c, neighbourSum(at(dx - 1, dy, 0), at(dx + 1, dy, 0), at(dx, dy - 1, 0), at(dx, dy + 1, 0)),
        k);
  } else {
    return chemicalPotential<3>(
        c,
        neighbourSum(at(dx - 1, dy, dz), at(dx + 1, dy, dz), at(dx, dy - 1, dz), at(dx, dy + 1, dz),
                     at(dx, dy, dz - 1), at(dx, dy, dz + 1)),
        k);
  }
}

// d phi / dt at a cell from the values around it (the whole 13- or 25-cell stencil).
template <int D, typename At>
WS_HD float rateAt(const At& at, const Coefficients& k) {
  const float centre = potentialAt<D>(at, 0, 0, 0, k);
  if constexpr (D == 2) {
    return rateFromPotentials<2>(
        centre,
        neighbourSum(potentialAt<2>(at, -1, 0, 0, k), potentialAt<2>(at, 1, 0, 0, k),
                     potentialAt<2>(at, 0, -1, 0, k), potentialAt<2>(at, 0, 1, 0, k)),
        k);
  } else {
    return rateFromPotentials<3>(
        centre,
        neighbourSum(potentialAt<3>(at, -1, 0, 0, k), potentialAt<3>(at, 1, 0, 0, k),
                     potentialAt<3>(at, 0, -1, 0, k), potentialAt<3>(at, 0, 1, 0, k),
                     potentialAt<3>(at, 0, 0, -1, k), potentialAt<3>(at, 0, 0, 1, k)),
        k);
  }
}

// What one pass over the grid computes. Euler: next = phi + dt f(phi). The source's RK2 (the
// midpoint rule) in two passes, since only the end of a kernel synchronizes the whole grid:
// Half: stage = phi + dt/2 f(phi); Final: next = phi + dt f(stage), where `phi` is read at the cell
// only and the stencil over the stage.
enum class Pass { Euler, Half, Final };

WS_HD float passStep(Pass pass, const Coefficients& k) {
  return pass == Pass::Half ? 0.5f * k.dt : k.dt;
}

// The free energy of a cell: the bulk double well and the gradient to its next cell along each
// axis (forward differences, so each bond is counted once). The sum over the grid,
// F = sum(-b/2 phi^2 + u/4 phi^4 + K/2 |grad phi|^2), never increases under the exact flow.
template <int D, typename At>
WS_HD double cellEnergy(const At& at, const Coefficients& k) {
  const double c = at(0, 0, 0);
  const double gx = at(1, 0, 0) - c, gy = at(0, 1, 0) - c;
  double gradient = gx * gx + gy * gy;
  if constexpr (D == 3) {
    const double gz = at(0, 0, 1) - c;
    gradient += gz * gz;
  }
  return -0.5 * k.b * c * c + 0.25 * k.u * c * c * c * c + 0.5 * k.K * gradient;
}

// The bonds from a cell to its next cell along each axis that cross from one phase (phi > 0) to
// the other: the interfaces, whose density gives the domain size.
template <int D, typename At>
WS_HD int cellCrossings(const At& at) {
  const bool c = at(0, 0, 0) > 0;
  int crossings = int((at(1, 0, 0) > 0) != c) + int((at(0, 1, 0) > 0) != c);
  if constexpr (D == 3) crossings += int((at(0, 0, 1) > 0) != c);
  return crossings;
}

// The grid's totals: the mass sum(phi), the free energy, the interface bonds.
struct Totals {
  double mass = 0, energy = 0;
  unsigned long long crossings = 0;
};

// The largest time step both integrators stay stable at: the explicit step of the stiffest
// Fourier mode, whose Laplacian eigenvalue is -4D, where phi sits at a well (phi^2 = b/u, so the
// bulk term's slope is 2b): growth rate -m 4D (K 4D + 2|b|), stable while dt |rate| <= 2 (for
// Euler and for the two-stage midpoint rule alike).
inline double stableTimeStep(int dimensions, const Coefficients& k) {
  const double lambda = 4.0 * dimensions;
  return 2.0 / (double(k.m) * lambda * (double(k.K) * lambda + 2.0 * std::fabs(double(k.b))));
}

}  // namespace ws::ch
