#pragma once
// Derivative-free vertex optimization (the source's chapter 13), shared by the CPU and the GPU:
// each vertex in turn maximizes the smallest angle of its triangles by a Nelder-Mead search in
// its tangent plane, its move bounded by alpha times the distance to its nearest neighbour. Beyond
// the chapter, each switchable: a move that lowers the vertex's smallest angle is not made (so the
// mesh's smallest angle never drops), and a move that would fold one of its triangles is not
// made either (the smallest angle alone cannot see a fold).
#include <cmath>
#include <cstdint>

#include "compute/core/hd.h"

namespace ws::mesh {

struct Vec3 {
  float x, y, z;
};
WS_HD Vec3 operator+(Vec3 a, Vec3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
WS_HD Vec3 operator-(Vec3 a, Vec3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
WS_HD Vec3 operator*(Vec3 a, float s) {
  return {a.x * s, a.y * s, a.z * s};
}
WS_HD float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
WS_HD Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
WS_HD float length(Vec3 a) {
  return sqrtf(dot(a, a));
}

// The angle at corner a of triangle (a, b, c), from atan2 of the sine and cosine terms (exact
// near 0 and 180 degrees, where acos of a dot product is not); 0 when an edge has no length.
WS_HD float cornerAngle(Vec3 a, Vec3 b, Vec3 c) {
  const Vec3 u = b - a, w = c - a;
  return atan2f(length(cross(u, w)), dot(u, w));
}
// The smallest interior angle, in radians: the angle opposite the shortest side (by the law of
// sines), so one atan2 instead of three; the triangle's doubled area is the cross product's length
// at every corner.
WS_HD float minAngle(Vec3 a, Vec3 b, Vec3 c) {
  const Vec3 ab = b - a, bc = c - b, ca = a - c;
  const float lab = dot(ab, ab), lbc = dot(bc, bc), lca = dot(ca, ca);
  const float twiceArea = length(cross(ab, ca));
  // The dot product of the two sides that meet opposite the shortest one.
  const float d = lbc <= lab && lbc <= lca ? -dot(ab, ca)  // at a
                  : lca <= lab             ? -dot(ab, bc)  // at b
                                           : -dot(bc, ca);             // at c
  return atan2f(twiceArea, d);
}

struct Point2 {
  float u, w;
};

struct NelderMeadOptions {
  int iterations = 40;      // at most
  float tolerance = 1e-6f;  // stop when the corners' values differ by less
};

// Minimizes f over the plane by Nelder-Mead (reflection 1, expansion 2, contraction and shrink
// 1/2), from the simplex (0, 0), (step, 0), (0, step). Returns the best corner found; its value
// goes to *best and the iterations made to *used. `visit(iteration, best corner)`, if not null,
// sees each iteration's best (the vertex inspector draws them).
template <typename F, typename Visit>
WS_HD Point2 nelderMead(F&& f, float step, const NelderMeadOptions& o, float* best, int* used,
                        Visit&& visit) {
  Point2 p[3] = {{0, 0}, {step, 0}, {0, step}};
  float v[3] = {f(p[0]), f(p[1]), f(p[2])};
  auto swap = [&](int i, int j) {
    const Point2 tp = p[i];
    p[i] = p[j];
    p[j] = tp;
    const float tv = v[i];
    v[i] = v[j];
    v[j] = tv;
  };
  int it = 0;
  for (; it < o.iterations; ++it) {
    if (v[1] < v[0]) swap(0, 1);  // order: v[0] <= v[1] <= v[2]
    if (v[2] < v[1]) swap(1, 2);
    if (v[1] < v[0]) swap(0, 1);
    visit(it, p[0]);
    if (v[2] - v[0] < o.tolerance) break;
    const Point2 c = {(p[0].u + p[1].u) / 2, (p[0].w + p[1].w) / 2};
    auto along = [&](float t) {
      return Point2{c.u + t * (p[2].u - c.u), c.w + t * (p[2].w - c.w)};
    };
    const Point2 r = along(-1);
    const float fr = f(r);
    if (fr < v[0]) {
      const Point2 e = along(-2);
      const float fe = f(e);
      p[2] = fe < fr ? e : r;
      v[2] = fe < fr ? fe : fr;
    } else if (fr < v[1]) {
      p[2] = r;
      v[2] = fr;
    } else {
      const Point2 k = along(fr < v[2] ? -0.5f : 0.5f);  // outside or inside contraction
      const float fk = f(k);
      if (fk < fminf(fr, v[2])) {
        p[2] = k;
        v[2] = fk;
      } else {  // shrink towards the best corner
        for (int i = 1; i < 3; ++i) {
          p[i] = {(p[0].u + p[i].u) / 2, (p[0].w + p[i].w) / 2};
          v[i] = f(p[i]);
        }
      }
    }
  }
  int b = 0;
  for (int i = 1; i < 3; ++i)
    if (v[i] < v[b]) b = i;
  *best = v[b];
  *used = it;
  return p[b];
}

// The chapter's 2-D warm-up: a point pulled onto the circle of `radius` about the origin by
// minimizing its squared distance to it, from `start`. Returns where it ends.
WS_HD Point2 circlePull(Point2 start, float radius, const NelderMeadOptions& options) {
  auto f = [&](Point2 q) {
    const float u = start.u + q.u, w = start.w + q.w;
    const float d = sqrtf(u * u + w * w) - radius;
    return d * d;
  };
  float best = 0;
  int used = 0;
  const Point2 q = nelderMead(f, 0.5f, options, &best, &used, [](int, Point2) {});
  return {start.u + q.u, start.w + q.w};
}

// A mesh as the optimizer reads it, host or device pointers: positions, three corners per
// triangle, and Topology's lists.
struct MeshView {
  Vec3* positions;
  const std::uint32_t* corners;
  const std::uint32_t *triangleStart, *triangleOf, *neighbourStart, *neighbourOf;
};

// How a vertex finds its new place: the chapter's search for the best smallest angle, or the
// baselines that move it to its neighbours' centroid (plain Laplacian smoothing) or to that
// centroid's foot in the tangent plane (tangential: the vertex slides along the surface instead of
// shrinking it). The guards below apply to all three.
enum class Method { NelderMead, Laplacian, Tangential };

struct OptimizeParams {
  Method method = Method::NelderMead;
  float alpha = 0.5f;  // a move is at most alpha times the distance to the nearest neighbour
  NelderMeadOptions search;
  bool keepQuality = true;  // refuse a move that lowers the vertex's smallest angle
  bool rejectFolds = true;  // refuse a move that flips one of the vertex's triangles
};

// Whether a triangle with corners `before` has turned over (its normal reversed, or it has no
// area left) with corners `after`.
WS_HD bool turnedOver(const Vec3 before[3], const Vec3 after[3]) {
  const Vec3 n0 = cross(before[1] - before[0], before[2] - before[0]);
  const Vec3 n1 = cross(after[1] - after[0], after[2] - after[0]);
  return dot(n0, n1) <= 0;
}

// The smallest angle of vertex v's triangles with v moved to `at`; with `folds`, -1 instead when
// one of them turns over. One pass over the triangles serves both (the search's objective).
WS_HD float vertexQuality(const MeshView& m, std::uint32_t v, Vec3 at, bool folds) {
  float smallest = 4;
  for (std::uint32_t i = m.triangleStart[v]; i < m.triangleStart[v + 1]; ++i) {
    const std::uint32_t* t = m.corners + 3 * m.triangleOf[i];
    Vec3 before[3], after[3];
    for (int k = 0; k < 3; ++k) {
      before[k] = m.positions[t[k]];
      after[k] = t[k] == v ? at : before[k];
    }
    if (folds && turnedOver(before, after)) return -1;
    smallest = fminf(smallest, minAngle(after[0], after[1], after[2]));
  }
  return smallest;
}

WS_HD float vertexMinAngle(const MeshView& m, std::uint32_t v, Vec3 at) {
  return vertexQuality(m, v, at, false);
}

// Whether one of vertex v's triangles turns over when v moves to `at`.
WS_HD bool foldsAt(const MeshView& m, std::uint32_t v, Vec3 at) {
  return vertexQuality(m, v, at, true) < 0;
}

// Where vertex v should go, and its smallest angle before and after (equal when it stays).
struct VertexMove {
  Vec3 to;
  float before, after;
  float radius;  // alpha times the distance to the nearest neighbour in the tangent plane
  int iterations;
  bool moved;
};

// The unit area-weighted normal at vertex v (the sum of its triangles' cross products); false
// when they cancel or have no area.
WS_HD bool vertexNormal(const MeshView& m, std::uint32_t v, Vec3* normal) {
  Vec3 n = {0, 0, 0};
  for (std::uint32_t i = m.triangleStart[v]; i < m.triangleStart[v + 1]; ++i) {
    const std::uint32_t* t = m.corners + 3 * m.triangleOf[i];
    const Vec3 a = m.positions[t[0]], b = m.positions[t[1]], c = m.positions[t[2]];
    n = n + cross(b - a, c - a);
  }
  const float l = length(n);
  if (!(l > 0)) return false;
  *normal = n * (1 / l);
  return true;
}

// The chapter's search runs in the tangent plane; the place it finds is then put back onto the
// surface by `project(point)` (closestPointOnSurface, or the point as it is), and the guards judge
// the projected place. Projecting once, not at each of the search's ~80 evaluations, keeps the
// search as cheap as the chapter's; the plane is a second-order approximation of the surface
// within the move's bound, and a projection that spoils the result is caught by the guards.
template <typename Project, typename Visit>
WS_HD VertexMove optimizeVertex(const MeshView& m, std::uint32_t v, const OptimizeParams& p,
                                Project&& project, Visit&& visit) {
  const Vec3 x = m.positions[v];
  VertexMove move{x, 0, 0, 0, 0, false};
  move.before = move.after = vertexMinAngle(m, v, x);
  Vec3 n;
  if (!vertexNormal(m, v, &n)) return move;
  const Vec3 axis = fabsf(n.x) < 0.6f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  Vec3 e1 = cross(n, axis);
  e1 = e1 * (1 / length(e1));
  const Vec3 e2 = cross(n, e1);
  float nearest = 3.4e38f;
  for (std::uint32_t i = m.neighbourStart[v]; i < m.neighbourStart[v + 1]; ++i) {
    const Vec3 d = m.positions[m.neighbourOf[i]] - x;
    const float du = dot(d, e1), dw = dot(d, e2);
    nearest = fminf(nearest, sqrtf(du * du + dw * dw));
  }
  const float r = p.alpha * nearest;
  move.radius = r;
  if (!(r > 0)) return move;
  constexpr float kRefused = 1e30f;
  auto at = [&](Point2 q) { return x + e1 * q.u + e2 * q.w; };
  auto objective = [&](Point2 q) {
    if (q.u * q.u + q.w * q.w > r * r) return kRefused;
    const float quality = vertexQuality(m, v, at(q), p.rejectFolds);
    return quality < 0 ? kRefused : -quality;
  };
  float best = 0;
  const Point2 q = nelderMead(objective, r / 2, p.search, &best, &move.iterations, visit);
  if (!(best < kRefused) || (q.u == 0 && q.w == 0)) return move;
  const Vec3 y = project(at(q));
  const float after = vertexQuality(m, v, y, p.rejectFolds);
  if (after < 0 || (p.keepQuality && !(after >= move.before))) return move;
  move.to = y;
  move.after = after;
  move.moved = true;
  return move;
}

// Laplacian smoothing of vertex v: to its neighbours' centroid, or (tangential) to that
// centroid's foot in the tangent plane; then projected, and refused by the same guards.
template <typename Project>
WS_HD VertexMove smoothVertex(const MeshView& m, std::uint32_t v, const OptimizeParams& p,
                              Project&& project) {
  const Vec3 x = m.positions[v];
  VertexMove move{x, 0, 0, 0, 0, false};
  move.before = move.after = vertexMinAngle(m, v, x);
  const std::uint32_t first = m.neighbourStart[v], last = m.neighbourStart[v + 1];
  if (first == last) return move;
  Vec3 centroid = {0, 0, 0};
  for (std::uint32_t i = first; i < last; ++i) centroid = centroid + m.positions[m.neighbourOf[i]];
  Vec3 step = centroid * (1.0f / float(last - first)) - x;
  if (p.method == Method::Tangential) {
    Vec3 n;
    if (!vertexNormal(m, v, &n)) return move;
    step = step - n * dot(step, n);
  }
  move.radius = length(step);
  const Vec3 y = project(x + step);
  const float after = vertexQuality(m, v, y, p.rejectFolds);
  if (after < 0 || (p.keepQuality && !(after >= move.before))) return move;
  move.to = y;
  move.after = after;
  move.moved = y.x != x.x || y.y != x.y || y.z != x.z;
  return move;
}

// Vertex v's move by the method `p` names.
template <typename Project, typename Visit>
WS_HD VertexMove moveVertex(const MeshView& m, std::uint32_t v, const OptimizeParams& p,
                            Project&& project, Visit&& visit) {
  return p.method == Method::NelderMead ? optimizeVertex(m, v, p, project, visit)
                                        : smoothVertex(m, v, p, project);
}

}  // namespace ws::mesh
