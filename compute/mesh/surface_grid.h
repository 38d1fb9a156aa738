#pragma once
// The input surface, kept to project moved vertices back onto it: its triangles in a uniform grid
// of cells about an edge long, and the closest point on it to any point, on the host or the
// device. A vertex left on its tangent plane drifts off a curved surface, sweep after sweep (the
// chapter's method does); projected, it stays on the input mesh.
#include <cstdint>
#include <vector>

#include "compute/core/hd.h"
#include "compute/mesh/optimize.h"

namespace ws::mesh {

// The closest point of triangle (a, b, c) to p (Ericson, Real-Time Collision Detection, 5.1.5):
// p's region among the corners, edges and face, from the signs of a few dot products.
WS_HD Vec3 closestPointOnTriangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const float d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const Vec3 cp = p - c;
  const float d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const float denominator = 1 / (va + vb + vc);
  return a + ab * (vb * denominator) + ac * (vc * denominator);
}

// The grid as the search reads it (host or device pointers).
struct SurfaceGridView {
  Vec3 origin;
  float cell;
  int nx, ny, nz;
  const std::uint32_t *cellStart, *cellTriangles;  // cell c's triangles, compressed
  const Vec3* positions;                           // the input surface
  const std::uint32_t* corners;
};

// The closest point of the surface to p; its distance goes to *distance. The cells are searched
// in rings around p's cell (p clamped into the grid) until the best distance found is within the
// ring just searched, so no farther cell can hold a closer triangle; a cell farther than the best
// distance is passed over.
WS_HD Vec3 closestPointOnSurface(const SurfaceGridView& g, Vec3 p, float* distance) {
  auto cellOf = [](float x, float o, float cell, int n) {
    const int i = int(floorf((x - o) / cell));
    return i < 0 ? 0 : i >= n ? n - 1 : i;
  };
  const int ci = cellOf(p.x, g.origin.x, g.cell, g.nx), cj = cellOf(p.y, g.origin.y, g.cell, g.ny),
            ck = cellOf(p.z, g.origin.z, g.cell, g.nz);
  // How far p lies outside the grid's box: no triangle is nearer.
  const Vec3 lo = g.origin, hi = g.origin + Vec3{g.nx * g.cell, g.ny * g.cell, g.nz * g.cell};
  const Vec3 outside = {fmaxf(fmaxf(lo.x - p.x, p.x - hi.x), 0.f),
                        fmaxf(fmaxf(lo.y - p.y, p.y - hi.y), 0.f),
                        fmaxf(fmaxf(lo.z - p.z, p.z - hi.z), 0.f)};
  const float away = length(outside);
  float best2 = 3.4e38f;
  Vec3 best = p;
  const int rings = g.nx > g.ny ? (g.nx > g.nz ? g.nx : g.nz) : (g.ny > g.nz ? g.ny : g.nz);
  for (int r = 0; r < rings; ++r) {
    for (int k = ck - r; k <= ck + r; ++k)
      for (int j = cj - r; j <= cj + r; ++j)
        for (int i = ci - r; i <= ci + r; ++i) {
          if (i < 0 || j < 0 || k < 0 || i >= g.nx || j >= g.ny || k >= g.nz) continue;
          const int di = i > ci ? i - ci : ci - i, dj = j > cj ? j - cj : cj - j,
                    dk = k > ck ? k - ck : ck - k;
          const int ring = di > dj ? (di > dk ? di : dk) : (dj > dk ? dj : dk);
          if (ring != r) continue;  // searched in an earlier ring
          // A cell whose box is no nearer than the best point found cannot hold a nearer one
          // (p is usually close to the surface: most of the 26 cells around its own are skipped).
          auto gap = [&](float x, float o, int index) {
            const float low = o + float(index) * g.cell;
            return fmaxf(fmaxf(low - x, x - (low + g.cell)), 0.f);
          };
          const Vec3 apart = {gap(p.x, g.origin.x, i), gap(p.y, g.origin.y, j),
                              gap(p.z, g.origin.z, k)};
          if (dot(apart, apart) >= best2) continue;
          const std::uint32_t c = (std::uint32_t(k) * g.ny + j) * g.nx + i;
          for (std::uint32_t t = g.cellStart[c]; t < g.cellStart[c + 1]; ++t) {
            const std::uint32_t* tri = g.corners + 3 * g.cellTriangles[t];
            const Vec3 q = closestPointOnTriangle(p, g.positions[tri[0]], g.positions[tri[1]],
                                                  g.positions[tri[2]]);
            const Vec3 d = q - p;
            if (dot(d, d) < best2) {
              best2 = dot(d, d);
              best = q;
            }
          }
        }
    // Cells beyond ring r are at least r cells away, and none is nearer than the box.
    const float covered = fmaxf(away, float(r) * g.cell);
    if (best2 <= covered * covered) break;
  }
  *distance = sqrtf(best2);
  return best;
}

// What optimizeVertex calls to put a position back onto the input surface: the closest point on
// it, or the position itself when the view is empty (no projection).
struct SurfaceProjection {
  SurfaceGridView surface{};
  WS_HD Vec3 operator()(Vec3 p) const {
    float distance;
    return surface.cellStart ? closestPointOnSurface(surface, p, &distance) : p;
  }
};

// Builds the grid of an input surface (its own copy of positions and corners).
class SurfaceGrid {
 public:
  SurfaceGrid(const std::vector<Vec3>& positions, const std::vector<std::uint32_t>& corners);
  SurfaceGridView view() const;

  // The grid's arrays, for a copy to the device.
  Vec3 origin;
  float cell;
  int nx, ny, nz;
  std::vector<std::uint32_t> cellStart, cellTriangles;
  std::vector<Vec3> positions;
  std::vector<std::uint32_t> corners;
};

}  // namespace ws::mesh
