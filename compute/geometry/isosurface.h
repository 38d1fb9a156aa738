#pragma once
// Isosurfaces of a scalar on a grid of points (the LBM's 3-D view, Cahn-Hilliard's phi = 0): where
// the value crosses a level, as triangles. Marching tetrahedra, the table-free cousin of marching
// cubes: each cube between eight neighbouring points is split into six tetrahedra around its
// diagonal (the Freudenthal split, whose faces neighbouring cubes share), and each tetrahedron the
// level cuts gives one triangle or two, found from which corners are inside. No face is ambiguous,
// so the surface is closed wherever the grid's border lies outside it; it takes about twice the
// triangles of marching cubes. Both backends extract in two passes: each cube's triangles are
// counted, a scan of the counts gives each cube its first triangle, and each cube writes its own
// (in cube order, so the CPU and the GPU write the same list). The cube-level code below is theirs.
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "compute/core/hd.h"
#include "compute/core/timing.h"
#include "compute/views/surface.h"

namespace ws::geometry {

// Values at the points of an nx x ny x nz grid (x fastest), point (x, y, z) at world position
// origin + (x, y, z). Inside the surface is above the level.
struct ScalarGrid {
  const float* level = nullptr;   // what the surface follows
  const float* colour = nullptr;  // what its colour shows (null: the level itself)
  int nx = 0, ny = 0, nz = 0;
  float origin[3] = {0, 0, 0};
  WS_HD std::size_t points() const { return std::size_t(nx) * ny * nz; }
  WS_HD std::size_t point(int x, int y, int z) const { return (std::size_t(z) * ny + y) * nx + x; }
};

// Corner k (0 to 3) of tetrahedron t (0 to 5) of a cube, as a cube corner: bit 0 x, bit 1 y, bit 2
// z. Each tetrahedron walks from corner 0 to corner 7 along the three axes in one of their six
// orders.
WS_HD int tetCorner(int t, int k) {
  if (k == 0) return 0;
  if (k == 3) return 7;
  const int first = t / 2;
  const int second = (t & 1) ? (first == 2 ? 1 : 2) : (first == 0 ? 1 : 0);
  return k == 1 ? 1 << first : (1 << first) | (1 << second);
}

// Whether tetrahedron t's corners, in order, are right-handed: its axis order is an even
// permutation.
WS_HD bool tetRightHanded(int t) {
  return t == 0 || t == 3 || t == 4;
}

WS_HD int triangleCountOf(int inside) {
  return inside == 0 || inside == 4 ? 0 : inside == 2 ? 2 : 1;
}

WS_HD bool isFiniteValue(float v) {
  return fabsf(v) <= FLT_MAX;
}  // neither NaN nor infinite

// The cube whose lowest corner is point (x, y, z): its corners' values, false where it has none (on
// the far border) or one is not finite.
WS_HD bool cubeValues(const ScalarGrid& g, int x, int y, int z, float v[8]) {
  if (x + 1 >= g.nx || y + 1 >= g.ny || z + 1 >= g.nz) return false;
  for (int c = 0; c < 8; ++c) {
    v[c] = g.level[g.point(x + (c & 1), y + (c >> 1 & 1), z + (c >> 2))];
    if (!isFiniteValue(v[c])) return false;
  }
  return true;
}

// The triangles of cube (x, y, z).
WS_HD int cubeTriangles(const ScalarGrid& g, float level, int x, int y, int z) {
  float v[8];
  if (!cubeValues(g, x, y, z, v)) return 0;
  int count = 0;
  for (int t = 0; t < 6; ++t) {
    int inside = 0;
    for (int k = 0; k < 4; ++k) inside += v[tetCorner(t, k)] > level;
    count += triangleCountOf(inside);
  }
  return count;
}

// The gradient of the level at point (x, y, z): central differences, one-sided on the border and
// beside a value that is not finite.
WS_HD void levelGradient(const ScalarGrid& g, int x, int y, int z, float out[3]) {
  const int at[3] = {x, y, z}, size[3] = {g.nx, g.ny, g.nz};
  const float here = g.level[g.point(x, y, z)];
  for (int axis = 0; axis < 3; ++axis) {
    float lo = here, hi = here;
    int span = 0;
    int p[3] = {x, y, z};
    if (at[axis] > 0) {
      --p[axis];
      const float v = g.level[g.point(p[0], p[1], p[2])];
      if (isFiniteValue(v)) lo = v, ++span;
      ++p[axis];
    }
    if (at[axis] + 1 < size[axis]) {
      ++p[axis];
      const float v = g.level[g.point(p[0], p[1], p[2])];
      if (isFiniteValue(v)) hi = v, ++span;
    }
    out[axis] = span == 0 ? 0.0f : (hi - lo) / float(span);
  }
}

// The vertex where the level crosses the edge between two points, written to out (see
// kSurfaceVertexFloats). Worked out from the point with the lower index to the other, so every
// tetrahedron that shares the edge makes the same vertex, to the bit.
WS_HD void edgeVertex(const ScalarGrid& g, float level, const int a[3], const int b[3],
                      float* out) {
  const std::size_t ia = g.point(a[0], a[1], a[2]), ib = g.point(b[0], b[1], b[2]);
  const int* lo = ia < ib ? a : b;
  const int* hi = ia < ib ? b : a;
  const std::size_t il = ia < ib ? ia : ib, ih = ia < ib ? ib : ia;
  const float vl = g.level[il], vh = g.level[ih];
  const float t = (level - vl) / (vh - vl);  // the two lie either side of the level
  for (int k = 0; k < 3; ++k) out[k] = g.origin[k] + float(lo[k]) + t * float(hi[k] - lo[k]);
  out[3] = g.colour ? g.colour[il] + t * (g.colour[ih] - g.colour[il]) : level;
  float gl[3], gh[3];
  levelGradient(g, lo[0], lo[1], lo[2], gl);
  levelGradient(g, hi[0], hi[1], hi[2], gh);
  float n[3], length = 0;
  for (int k = 0; k < 3; ++k) {
    n[k] = -(gl[k] + t * (gh[k] - gl[k]));  // outwards: down the gradient
    length += n[k] * n[k];
  }
  length = length > 0 ? 1.0f / sqrtf(length) : 0.0f;
  for (int k = 0; k < 3; ++k) out[4 + k] = n[k] * length;
  out[7] = 0;
}

// Writes cube (x, y, z)'s triangles from triangle `first` on, those before `limit`, into `out`
// (three vertices each), each turned so that its normal (right hand) points out of the surface.
WS_HD void writeCube(const ScalarGrid& g, float level, int x, int y, int z, std::size_t first,
                     std::size_t limit, float* out) {
  float v[8];
  if (!cubeValues(g, x, y, z, v)) return;
  std::size_t next = first;
  for (int t = 0; t < 6 && next < limit; ++t) {
    // The corners, inside ones first; the parity of that reordering and the tetrahedron's
    // handedness say which way round the triangles go.
    int order[4], inside = 0;
    for (int k = 0; k < 4; ++k)
      if (v[tetCorner(t, k)] > level) order[inside++] = k;
    for (int k = 0, n = inside; k < 4; ++k)
      if (!(v[tetCorner(t, k)] > level)) order[n++] = k;
    const int count = triangleCountOf(inside);
    if (count == 0) continue;
    int inversions = 0;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) inversions += order[i] > order[j];
    const bool flip = tetRightHanded(t) == bool(inversions & 1);
    int p[4][3];  // the reordered corners as points
    for (int k = 0; k < 4; ++k) {
      const int c = tetCorner(t, order[k]);
      p[k][0] = x + (c & 1), p[k][1] = y + (c >> 1 & 1), p[k][2] = z + (c >> 2);
    }
    // The edges each triangle's vertices lie on, inside corner first: one inside corner cut off
    // (0-1, 0-2, 0-3), three (0-3, 1-3, 2-3), or two: the quad 0-2, 0-3, 1-3, 1-2 in two.
    int edges[2][3][2];
    if (inside == 1) {
      const int e[3][2] = {{0, 1}, {0, 2}, {0, 3}};
      for (int i = 0; i < 3; ++i) edges[0][i][0] = e[i][0], edges[0][i][1] = e[i][1];
    } else if (inside == 3) {
      const int e[3][2] = {{0, 3}, {1, 3}, {2, 3}};
      for (int i = 0; i < 3; ++i) edges[0][i][0] = e[i][0], edges[0][i][1] = e[i][1];
    } else {
      const int e[2][3][2] = {{{0, 2}, {0, 3}, {1, 3}}, {{0, 2}, {1, 3}, {1, 2}}};
      for (int s = 0; s < 2; ++s)
        for (int i = 0; i < 3; ++i) edges[s][i][0] = e[s][i][0], edges[s][i][1] = e[s][i][1];
    }
    for (int s = 0; s < count && next < limit; ++s, ++next) {
      float* triangle = out + next * 3 * kSurfaceVertexFloats;
      for (int i = 0; i < 3; ++i) {
        const int slot = flip && i > 0 ? 3 - i : i;
        edgeVertex(g, level, p[edges[s][i][0]], p[edges[s][i][1]],
                   triangle + slot * kSurfaceVertexFloats);
      }
    }
  }
}

// Grids of at most this many points: the GPU's 32-bit triangle counts (12 at most a cube) hold
// any surface of theirs.
constexpr std::size_t kMaxIsosurfacePoints = std::size_t(1) << 28;

// The bytes an extraction moves at least, for the timings: each point's value read, its cube's
// count written, scanned and read back, and the triangles written.
inline double isosurfaceBytes(std::size_t cubes, std::size_t triangles) {
  return double(cubes) * 6 * sizeof(std::uint32_t) +
         double(triangles) * 3 * kSurfaceVertexFloats * sizeof(float);
}

// One backend's extraction. The grid's arrays must be in the extractor's memory (device memory for
// CUDA) from count() until write().
class IsosurfaceExtractor {
 public:
  virtual ~IsosurfaceExtractor() = default;
  // The first pass: the number of triangles where grid.level crosses `level`. Throws InputError
  // for a grid of over kMaxIsosurfacePoints.
  virtual std::size_t count(const ScalarGrid& grid, float level) = 0;
  // The second: the first `limit` of those triangles into `out` (device memory where onDevice).
  virtual void write(float* out, std::size_t limit, bool onDevice) = 0;
  virtual void pollTimings() {}
  virtual void drainTimings() {}
};

// The whole surface on the host in one go (the obstacles' surface, from a small box).
std::vector<float> isosurfaceOnHost(const ScalarGrid& grid, float level);

// `timing` records both passes, in cubes a second.
std::unique_ptr<IsosurfaceExtractor> makeCpuIsosurface(TimingScope& timing);
std::unique_ptr<IsosurfaceExtractor> makeCudaIsosurface(TimingScope& timing);

}  // namespace ws::geometry
