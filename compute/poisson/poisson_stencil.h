#pragma once
// The Poisson problem's arithmetic, shared by the CPU implementation and the CUDA kernels (so
// that an ordering computes the same numbers on both, up to the rounding of fused multiply-adds).
//
//   -lap u = f on the unit square (cube), u = 0 on its boundary,
//
// on a grid of n cells a side (h = 1/n): (n + 1)^D nodes, the boundary's fixed, the (n - 1)^D
// inside them the unknowns. A stencil S scaled by h^2 stands for -lap: (S u)_i = h^2 f_i. Strobl
// 2008 (seed 002) sections 4.1 and 4.3: compact finite-difference stencils (5 points in 2-D, 7 in
// 3-D) or the full ones of bilinear (trilinear) finite elements (9 points, 27 points), and the
// colourings that make Gauss-Seidel parallel.
#include <cmath>
#include <cstddef>

#include "compute/core/hd.h"

namespace ws::poisson {

// n cells along each of D axes; nodes are numbered x fastest, (n + 1) a side.
struct Grid {
  int n = 0, dims = 2;
  WS_HD int side() const { return n + 1; }
  WS_HD std::size_t nodes() const {
    const std::size_t s = std::size_t(side());
    return dims == 3 ? s * s * s : s * s;
  }
  WS_HD std::size_t unknowns() const {
    const std::size_t s = std::size_t(n - 1);
    return dims == 3 ? s * s * s : s * s;
  }
  WS_HD std::size_t index(int x, int y, int z) const {
    return (std::size_t(z) * side() + y) * side() + x;
  }
  WS_HD double spacing() const { return 1.0 / n; }
};

enum class Stencil {
  Compact,  // finite differences: 5 points in 2-D, 7 in 3-D
  Full,     // bilinear (trilinear) finite elements: 9 points, 27 points
};

// The stencil's weights (times h^2) by how far a neighbour lies: the centre, across a face, an
// edge, a corner, in the precision T the values are held in. Each set sums to zero (S of a
// constant is 0) and applied to x^2 gives -2.
template <typename T>
struct Weights {
  T centre, face, edge, corner;
};
template <typename T = float>
WS_HD Weights<T> weightsOf(Stencil stencil, int dims) {
  if (stencil == Stencil::Compact) return {T(2 * dims), T(-1), T(0), T(0)};
  if (dims == 2) return {T(8) / 3, T(-1) / 3, T(-1) / 3, T(0)};
  return {T(8) / 3, T(0), T(-1) / 6, T(-1) / 12};
}

// The colours a node's stencil neighbours must differ from it in: red-black (the parity of
// x + y + z) serves the compact stencils; the full ones need the parity of each coordinate apart,
// 4 colours in 2-D and 8 in 3-D (the source's Figures 6 and 7).
WS_HD int colourOf(int colours, int x, int y, int z) {
  if (colours == 2) return (x + y + z) & 1;
  return (x & 1) | ((y & 1) << 1) | (colours == 8 ? (z & 1) << 2 : 0);
}
// The fewest colours a stencil needs.
inline int coloursFor(Stencil stencil, int dims) {
  return stencil == Stencil::Compact ? 2 : (dims == 2 ? 4 : 8);
}

// The off-centre part of the stencil at a node, sum over neighbours of weight * value, with
// `at(dx, dy, dz)` the value at an offset; each class of neighbour summed in one order everywhere.
template <int D, Stencil S, typename T, typename At>
WS_HD T offCentre(const At& at, const Weights<T>& w) {
  if constexpr (D == 2) {
    const T faces = (at(-1, 0, 0) + at(1, 0, 0)) + (at(0, -1, 0) + at(0, 1, 0));
    if constexpr (S == Stencil::Compact) {
      return w.face * faces;
    } else {
      const T edges = (at(-1, -1, 0) + at(1, -1, 0)) + (at(-1, 1, 0) + at(1, 1, 0));
      return w.face * faces + w.edge * edges;
    }
  } else {
    const T faces = ((at(-1, 0, 0) + at(1, 0, 0)) + (at(0, -1, 0) + at(0, 1, 0))) +
                    (at(0, 0, -1) + at(0, 0, 1));
    if constexpr (S == Stencil::Compact) {
      return w.face * faces;
    } else {
      // The source's test runs the 27 points with the 20 outer ones zero; ours are the
      // trilinear element's, whose faces are zero.
      T edges = 0, corners = 0;
      WS_UNROLL
      for (int dz = -1; dz <= 1; dz += 2) {
        edges += (at(-1, 0, dz) + at(1, 0, dz)) + (at(0, -1, dz) + at(0, 1, dz));
        corners += (at(-1, -1, dz) + at(1, -1, dz)) + (at(-1, 1, dz) + at(1, 1, dz));
      }
      edges += (at(-1, -1, 0) + at(1, -1, 0)) + (at(-1, 1, 0) + at(1, 1, 0));
      return w.face * faces + w.edge * edges + w.corner * corners;
    }
  }
}

// A node's Gauss-Seidel (or Jacobi) value from its neighbours and h^2 f there, relaxed by omega
// from its current value u (omega = 1: the plain update; above 1 over-relaxation).
template <typename T>
WS_HD T relaxed(T u, T neighbours, T h2f, const Weights<T>& w, T omega) {
  const T solved = (h2f - neighbours) / w.centre;
  return u + omega * (solved - u);
}

// The residual f - (S u) / h^2 at a node.
template <typename T>
WS_HD T residual(T u, T neighbours, T f, const Weights<T>& w, T invH2) {
  return f - (w.centre * u + neighbours) * invH2;
}

// The model problem's exact solution and its right-hand side (the source's section 7.1): u the
// product of sin(pi x) over the axes, f = D pi^2 u.
WS_HD double sineSolution(const Grid& g, int x, int y, int z) {
  const double pi = 3.14159265358979323846, h = g.spacing();
  const double u = sin(pi * x * h) * sin(pi * y * h);
  return g.dims == 3 ? u * sin(pi * z * h) : u;
}
inline double sineRightHandSide(const Grid& g, int x, int y, int z) {
  return g.dims * 9.86960440108935861883 * sineSolution(g, x, y, z);
}

// Full weighting, the weight of a fine node at offset (dx, dy, dz) from the coarse node it is
// restricted into (dx, dy, dz in -1..1): 1/4, 1/8, 1/16 in 2-D by distance; 1/8 ... 1/64 in 3-D.
template <typename T>
WS_HD T restrictionWeight(int dims, int dx, int dy, int dz) {
  const int away = (dx != 0) + (dy != 0) + (dz != 0);
  return T(1) / T(1 << (dims + away));
}

// The coarse grid's values interpolated to fine node (x, y, z) (linearly along each axis where
// the node lies between coarse ones): the correction a V-cycle adds.
template <typename T>
WS_HD T interpolated(const T* coarse, const Grid& cg, int x, int y, int z) {
  const int ox = x & 1, oy = y & 1, oz = z & 1;
  T sum = 0;
  for (int c = 0; c <= oz; ++c)
    for (int b = 0; b <= oy; ++b)
      for (int a = 0; a <= ox; ++a) sum += coarse[cg.index(x / 2 + a, y / 2 + b, z / 2 + c)];
  return sum / T(1 << (ox + oy + oz));
}

}  // namespace ws::poisson
