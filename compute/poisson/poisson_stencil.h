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
  // Cell (cx, cy, cz) spans nodes cx ... cx + 1 along each axis: n^D cells, x fastest.
  WS_HD std::size_t cells() const {
    const std::size_t c = std::size_t(n);
    return dims == 3 ? c * c * c : c * c;
  }
  WS_HD std::size_t cell(int cx, int cy, int cz) const {
    return (std::size_t(cz) * n + cy) * n + cx;
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

// -div(k grad u) with k constant on each cell: the weight a cell of k = 1 puts between two of its
// nodes that differ in d coordinates. Finite differences: the edge between them (d = 1) is shared
// by the 2^(D-1) cells around it, each giving its share of the mean k along it, and the centre
// (d = 0) the sum of its D edges' shares. Finite elements: the element stiffness matrix of the
// bilinear (trilinear) element. Summed over the 2^D cells around a node, k = 1 gives the constant
// stencils (weightsOf).
WS_HD double elementWeight(Stencil stencil, int dims, int d) {
  if (stencil == Stencil::Compact) {
    const double share = 1.0 / (1 << (dims - 1));
    return d == 0 ? dims * share : d == 1 ? -share : 0;
  }
  if (dims == 2) return d == 0 ? 2.0 / 3 : d == 1 ? -1.0 / 6 : -1.0 / 3;
  return d == 0 ? 1.0 / 3 : d == 1 ? 0 : -1.0 / 12;
}

// A stencil stored at every node (the source's variable stencils), slot by slot: compact, the
// centre then -x, +x, -y, +y (, -z, +z); full, all 3^D offsets, dz slowest and dx fastest (the
// 27-point stencil keeps its zero faces: the footprint is 27 values a node, as the source's).
template <int D, Stencil S>
inline constexpr int kSlots = S == Stencil::Compact ? 1 + 2 * D : (D == 2 ? 9 : 27);
template <int D, Stencil S>
WS_HD constexpr int slotOf(int dx, int dy, int dz) {
  if constexpr (S == Stencil::Compact) {
    return dx ? (dx < 0 ? 1 : 2) : dy ? (dy < 0 ? 3 : 4) : dz ? (dz < 0 ? 5 : 6) : 0;
  } else {
    return ((D == 3 ? (dz + 1) * 3 : 0) + dy + 1) * 3 + dx + 1;
  }
}
template <int D, Stencil S>
WS_HD void slotOffset(int slot, int& dx, int& dy, int& dz) {
  if constexpr (S == Stencil::Compact) {
    const int axis = (slot - 1) / 2, sign = (slot - 1) % 2 ? 1 : -1;
    dx = slot > 0 && axis == 0 ? sign : 0;
    dy = slot > 0 && axis == 1 ? sign : 0;
    dz = slot > 0 && axis == 2 ? sign : 0;
  } else {
    dx = slot % 3 - 1;
    dy = slot / 3 % 3 - 1;
    dz = D == 3 ? slot / 9 - 1 : 0;
  }
}

// Node (x, y, z)'s stencil (times h^2) from the coefficients k of the 2^D cells around it, slot s
// into out[s * stride]. Each cell's share is added in one order everywhere.
template <int D, Stencil S, typename T>
WS_HD void buildStencil(const Grid& g, const T* k, int x, int y, int z, T* out,
                        std::size_t stride) {
  T w[kSlots<D, S>] = {};
  for (int cz = (D == 3 ? z - 1 : 0); cz <= (D == 3 ? z : 0); ++cz)
    for (int cy = y - 1; cy <= y; ++cy)
      for (int cx = x - 1; cx <= x; ++cx) {
        const T kc = k[g.cell(cx, cy, cz)];
        for (int qz = cz; qz <= (D == 3 ? cz + 1 : cz); ++qz)
          for (int qy = cy; qy <= cy + 1; ++qy)
            for (int qx = cx; qx <= cx + 1; ++qx) {
              const int dx = qx - x, dy = qy - y, dz = D == 3 ? qz - z : 0;
              const double e = elementWeight(S, D, (dx != 0) + (dy != 0) + (dz != 0));
              if (e != 0) w[slotOf<D, S>(dx, dy, dz)] += kc * T(e);
            }
      }
  for (int slot = 0; slot < kSlots<D, S>; ++slot) out[slot * stride] = w[slot];
}

// A coarse cell's coefficient: the mean of the 2^D fine cells it covers (multigrid's coarser
// operators are built from these, as the finest is from the cells').
template <typename T>
WS_HD T coarseCoefficient(const T* fine, const Grid& fineGrid, int cx, int cy, int cz) {
  T sum = 0;
  for (int c = 0; c < (fineGrid.dims == 3 ? 2 : 1); ++c)
    for (int b = 0; b < 2; ++b)
      for (int a = 0; a < 2; ++a) sum += fine[fineGrid.cell(2 * cx + a, 2 * cy + b, 2 * cz + c)];
  return sum / T(1 << fineGrid.dims);
}

// The operator the sweeps and residuals apply: the constant stencil where `stencils` is null,
// else the one stored at each of `nodes` nodes, slot s of node i at stencils[s * nodes + i].
template <typename T>
struct Operator {
  const T* stencils = nullptr;
  std::size_t nodes = 0;
};

// The off-centre sum at node i and its centre weight, with `at(dx, dy, dz)` the value at an
// offset: the constant stencil's classes (offCentre) or the stored slots in order. kStored is a
// template parameter so that the constant path keeps its weights (and the division by the
// centre) compile-time constants: read from the arguments they cost a float sweep up to 28%.
template <int D, Stencil S, bool kStored, typename T, typename At>
WS_HD T neighbourSum(const At& at, const Operator<T>& op, std::size_t i, T& centre) {
  if constexpr (!kStored) {
    const Weights<T> w = weightsOf<T>(S, D);
    centre = w.centre;
    return offCentre<D, S>(at, w);
  } else {
    constexpr int kCentre = slotOf<D, S>(0, 0, 0);
    centre = op.stencils[kCentre * op.nodes + i];
    T sum = 0;
    WS_UNROLL
    for (int slot = 0; slot < kSlots<D, S>; ++slot) {
      if (slot == kCentre) continue;
      int dx, dy, dz;
      slotOffset<D, S>(slot, dx, dy, dz);
      sum += op.stencils[slot * op.nodes + i] * at(dx, dy, dz);
    }
    return sum;
  }
}
// The same, choosing by the operator at run time (the residual, the views).
template <int D, Stencil S, typename T, typename At>
WS_HD T neighbourSum(const At& at, const Operator<T>& op, std::size_t i, T& centre) {
  return op.stencils ? neighbourSum<D, S, true>(at, op, i, centre)
                     : neighbourSum<D, S, false>(at, op, i, centre);
}

// A node's Gauss-Seidel (or Jacobi) value from its neighbours' weighted sum, its centre weight and
// h^2 f there, relaxed by omega from its current value u (omega = 1: the plain update; above 1
// over-relaxation).
template <typename T>
WS_HD T relaxed(T u, T neighbours, T h2f, T centre, T omega) {
  const T solved = (h2f - neighbours) / centre;
  return u + omega * (solved - u);
}

// The residual f - (S u) / h^2 at a node.
template <typename T>
WS_HD T residual(T u, T neighbours, T f, T centre, T invH2) {
  return f - (centre * u + neighbours) * invH2;
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
