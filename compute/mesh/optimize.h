#pragma once
// Derivative-free vertex optimization (the source's chapter 13), shared by the CPU and the GPU:
// each vertex in turn maximizes the smallest angle of its triangles by a Nelder-Mead search in
// its tangent plane, its move bounded by alpha times the distance to its nearest neighbour. Beyond
// the chapter, each switchable: a move that lowers the vertex's smallest angle is not made (so the
// mesh's smallest angle never drops), and a move that would fold one of its triangles is not
// made either (the smallest angle alone cannot see a fold).
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "compute/core/hd.h"

namespace ws::mesh {

// A point or direction; the mesh stores Vec3 (single precision), the search may work in double.
template <typename Real>
struct Vec3T {
  Real x, y, z;
};
using Vec3 = Vec3T<float>;

template <typename R>
WS_HD Vec3T<R> operator+(Vec3T<R> a, Vec3T<R> b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <typename R>
WS_HD Vec3T<R> operator-(Vec3T<R> a, Vec3T<R> b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <typename R>
WS_HD Vec3T<R> operator*(Vec3T<R> a, std::type_identity_t<R> s) {
  return {a.x * s, a.y * s, a.z * s};
}
template <typename R>
WS_HD R dot(Vec3T<R> a, Vec3T<R> b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <typename R>
WS_HD Vec3T<R> cross(Vec3T<R> a, Vec3T<R> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
WS_HD float squareRoot(float x) {
  return sqrtf(x);
}
WS_HD double squareRoot(double x) {
  return sqrt(x);
}
template <typename R>
WS_HD R length(Vec3T<R> a) {
  return squareRoot(dot(a, a));
}
template <typename To, typename From>
WS_HD Vec3T<To> convert(Vec3T<From> a) {
  return {To(a.x), To(a.y), To(a.z)};
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

template <typename Real>
struct Point2T {
  Real u, w;
};
using Point2 = Point2T<float>;

struct NelderMeadOptions {
  int iterations = 40;      // at most
  float tolerance = 1e-6f;  // stop when the corners' values differ by less
  // The textbook form of a step: expansion and the two contractions each evaluate f in a branch
  // of their own, so the lanes of a warp that chose differently run the evaluations one after
  // another (divergence). Off, one evaluation serves all three. Same places, same results.
  bool perBranch = false;
};

// What nelderMead calls with each iteration's simplex when nobody watches.
struct NoVisit {
  template <typename Point>
  WS_HD void operator()(int, const Point*) const {}
};

// Minimizes f over the plane by Nelder-Mead (reflection 1, expansion 2, contraction and shrink
// 1/2), from the simplex (0, 0), (step, 0), (0, step). Returns the best corner found; its value
// goes to *best and the iterations made to *used. `visit(iteration, simplex)` sees each
// iteration's three corners, best first (the vertex inspector draws them).
template <typename Real, typename F, typename Visit>
WS_HD Point2T<Real> nelderMead(F&& f, Real step, const NelderMeadOptions& o, Real* best, int* used,
                               Visit&& visit) {
  using P = Point2T<Real>;
  P p[3] = {{0, 0}, {step, 0}, {0, step}};
  Real v[3] = {f(p[0]), f(p[1]), f(p[2])};
  auto swap = [&](int i, int j) {
    const P tp = p[i];
    p[i] = p[j];
    p[j] = tp;
    const Real tv = v[i];
    v[i] = v[j];
    v[j] = tv;
  };
  int it = 0;
  for (; it < o.iterations; ++it) {
    if (v[1] < v[0]) swap(0, 1);  // order: v[0] <= v[1] <= v[2]
    if (v[2] < v[1]) swap(1, 2);
    if (v[1] < v[0]) swap(0, 1);
    visit(it, static_cast<const P*>(p));
    if (v[2] - v[0] < Real(o.tolerance)) break;
    const P c = {(p[0].u + p[1].u) / 2, (p[0].w + p[1].w) / 2};
    auto along = [&](Real t) { return P{c.u + t * (p[2].u - c.u), c.w + t * (p[2].w - c.w)}; };
    const P r = along(-1);
    const Real fr = f(r);
    auto take = [&](P q, Real fq) {
      p[2] = q;
      v[2] = fq;
    };
    auto shrink = [&] {  // towards the best corner
      for (int i = 1; i < 3; ++i) {
        p[i] = {(p[0].u + p[i].u) / 2, (p[0].w + p[i].w) / 2};
        v[i] = f(p[i]);
      }
    };
    if (o.perBranch) {
      if (fr < v[0]) {  // the best yet: try further out
        const P e = along(-2);
        const Real fe = f(e);
        if (fe < fr)
          take(e, fe);
        else
          take(r, fr);
      } else if (fr < v[1]) {  // no better than the best, better than the second: reflection
        take(r, fr);
      } else if (fr < v[2]) {  // contraction outside
        const P k = along(Real(-0.5));
        const Real fk = f(k);
        if (fk < fr)
          take(k, fk);
        else
          shrink();
      } else {  // contraction inside
        const P k = along(Real(0.5));
        const Real fk = f(k);
        if (fk < v[2])
          take(k, fk);
        else
          shrink();
      }
      continue;
    }
    // The second place to try: further out (expansion) when r is the best yet, back towards the
    // centroid (contraction, outside or inside) when r is no better than the second best, none
    // when r simply takes the worst corner's place. One call of f serves all three, so the
    // lanes of a warp that chose differently evaluate together.
    const Real t = fr < v[0] ? Real(-2) : fr < v[1] ? Real(0) : fr < v[2] ? Real(-0.5) : Real(0.5);
    P k = r;
    Real fk = fr;
    if (t != 0) {
      k = along(t);
      fk = f(k);
    }
    if (t == 0 || (fr < v[0] && !(fk < fr))) {  // reflection
      take(r, fr);
    } else if (fr < v[0] || fk < (fr < v[2] ? fr : v[2])) {  // expansion or contraction
      take(k, fk);
    } else {
      shrink();
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
  const Point2 q = nelderMead(f, 0.5f, options, &best, &used, NoVisit{});
  return {start.u + q.u, start.w + q.w};
}

// A mesh as the optimizer reads it, host or device pointers: positions, three corners per
// triangle, Topology's lists, and each triangle's reference normal (referenceNormals: which way
// the surface faces there; a triangle facing against it is inverted), or none.
struct MeshView {
  Vec3* positions;
  const std::uint32_t* corners;
  const std::uint32_t *triangleStart, *triangleOf, *neighbourStart, *neighbourOf;
  const Vec3* reference = nullptr;
};

// Whether triangle (a, b, c) faces against the reference normal r (or has no area): inverted, a
// fold. Never where r is zero (no reference).
WS_HD bool facesAgainst(Vec3 a, Vec3 b, Vec3 c, Vec3 r) {
  if (r.x == 0 && r.y == 0 && r.z == 0) return false;
  return !(dot(cross(b - a, c - a), r) > 0);
}

// The smallest angle of triangle (a, b, c) in radians, negative when it faces against r: the
// quality the module reports, in which a fold is the worst (its angles alone look sound).
WS_HD float signedMinAngle(Vec3 a, Vec3 b, Vec3 c, Vec3 r) {
  const float angle = minAngle(a, b, c);
  return facesAgainst(a, b, c, r) ? -angle : angle;
}

WS_HD Vec3 referenceOf(const MeshView& m, std::uint32_t t) {
  return m.reference ? m.reference[t] : Vec3{0, 0, 0};
}

// Triangle t as it stands.
WS_HD bool invertedTriangle(const MeshView& m, std::uint32_t t) {
  const std::uint32_t* c = m.corners + 3 * t;
  return facesAgainst(m.positions[c[0]], m.positions[c[1]], m.positions[c[2]], referenceOf(m, t));
}
WS_HD float signedMinAngle(const MeshView& m, std::uint32_t t) {
  const std::uint32_t* c = m.corners + 3 * t;
  return signedMinAngle(m.positions[c[0]], m.positions[c[1]], m.positions[c[2]], referenceOf(m, t));
}

// How a vertex finds its new place: the chapter's search for the best smallest angle, or the
// baselines that move it to its neighbours' centroid (plain Laplacian smoothing) or to that
// centroid's foot in the tangent plane (tangential: the vertex slides along the surface instead of
// shrinking it). The guards below apply to all three. Untangle: the phase before them, which
// moves only vertices with an inverted triangle, to make theirs face the right way
// (untangleVertex).
enum class Method { NelderMead, Laplacian, Tangential, Untangle };

// The arithmetic of the Nelder-Mead search (positions are stored in single precision either way).
enum class Precision { Single, Double };

struct OptimizeParams {
  Method method = Method::NelderMead;
  float alpha = 0.5f;  // a move is at most alpha times the distance to the nearest neighbour
  NelderMeadOptions search;
  Precision precision = Precision::Single;
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
// one of them turns over, or comes to face against its reference normal (many moves that each
// turn a triangle less than a right angle can turn it over). One pass over the triangles serves
// both.
WS_HD float vertexQuality(const MeshView& m, std::uint32_t v, Vec3 at, bool folds) {
  float smallest = 4;
  for (std::uint32_t i = m.triangleStart[v]; i < m.triangleStart[v + 1]; ++i) {
    const std::uint32_t* t = m.corners + 3 * m.triangleOf[i];
    Vec3 before[3], after[3];
    for (int k = 0; k < 3; ++k) {
      before[k] = m.positions[t[k]];
      after[k] = t[k] == v ? at : before[k];
    }
    if (folds) {
      if (turnedOver(before, after)) return -1;
      const Vec3 r = referenceOf(m, m.triangleOf[i]);
      if (facesAgainst(after[0], after[1], after[2], r) &&
          !facesAgainst(before[0], before[1], before[2], r))
        return -1;
    }
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

// Why a vertex moved or stayed (the vertex inspector says which).
enum class Outcome : std::uint8_t {
  Moved,
  NoPlane,        // its triangles have no area, or no neighbour is apart from it
  NoBetterPlace,  // the search ended where it began
  Folds,          // the place found turns a triangle over
  LowersQuality,  // the place found has a smaller smallest angle
  NotTangled,     // untangling: none of its triangles is inverted, so it stays
  StillTangled,   // untangling: the place found leaves its triangles no less tangled
};

// Where vertex v should go, and its smallest angle before and after (equal when it stays).
struct VertexMove {
  Vec3 to;
  float before, after;
  float radius;  // alpha times the distance to the nearest neighbour in the tangent plane
  int iterations;
  bool moved;
  Outcome outcome;
  Vec3 tried;  // the place the guards judged (projected), when there was one
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

// One of vertex v's triangles as v's search sees it: its other two corners in the fan's frame
// (Fan::local), in the triangle's order (so that its normal keeps its direction).
template <typename Real>
struct FanTriangle {
  Vec3T<Real> a, b;
};

// Vertex v's triangles, read from the mesh once per search into the caller's `cache` when they
// fit (nearly always: a vertex of a reasonable mesh has 3 to 10), else at every evaluation. The
// search then needs no index lookups, and works in a frame of its own: relative to v, in units of
// v's distance to its first neighbour, so that its arithmetic stays near 1 whatever the mesh's
// units.
template <typename Real>
struct Fan {
  static constexpr int kCapacity = 16;

  WS_HD Fan(const MeshView& mesh, std::uint32_t vertex, FanTriangle<Real>* cache)
      : m(mesh),
        v(vertex),
        first(mesh.triangleStart[vertex]),
        count(int(mesh.triangleStart[vertex + 1] - first)),
        x(convert<Real>(mesh.positions[vertex])),
        cached(count <= kCapacity ? cache : nullptr) {
    if (count > 0) {
      const Real l = length(read(0).a);  // in mesh units while unit is 1
      unit = l > 0 ? l : Real(1);
      scale = 1 / unit;
    }
    if (cached)
      for (int i = 0; i < count; ++i) cached[i] = read(i);
  }
  WS_HD FanTriangle<Real> operator[](int i) const { return cached ? cached[i] : read(i); }
  WS_HD FanTriangle<Real> read(int i) const {
    const std::uint32_t* t = m.corners + 3 * m.triangleOf[first + std::uint32_t(i)];
    const int k = t[0] == v ? 0 : t[1] == v ? 1 : 2;  // v's corner; the other two follow it
    return {local(m.positions[t[(k + 1) % 3]]), local(m.positions[t[(k + 2) % 3]])};
  }
  // A point of the mesh in the fan's frame, and back.
  WS_HD Vec3T<Real> local(Vec3 point) const { return (convert<Real>(point) - x) * scale; }
  WS_HD Vec3 global(Vec3T<Real> point) const { return convert<float>(x + point * unit); }

  const MeshView& m;
  std::uint32_t v, first;
  int count;
  Vec3T<Real> x;             // v's position
  Real unit = 1, scale = 1;  // the frame's unit in mesh lengths, and its inverse
  FanTriangle<Real>* cached;
};

// The search's measure of vertex v moved to `p` (in the fan's frame): over its triangles, the
// least sin^2 of the smallest angle; with `folds`, -1 when one of them turns over. The smallest
// angle of a triangle is at most 60 degrees, where sin^2 rises with the angle, so the measure ranks
// places as the smallest angle does (vertexQuality) with neither an atan2 nor a square root; and
// the least is kept as a fraction, so a single division serves all the triangles.
template <typename Real>
WS_HD Real fanQuality(const Fan<Real>& fan, Vec3T<Real> p, bool folds) {
  Real num = 1, den = 1;  // the least sin^2 so far
  for (int i = 0; i < fan.count; ++i) {
    const FanTriangle<Real> t = fan[i];
    const Vec3T<Real> pa = t.a - p, pb = t.b - p, ab = t.b - t.a;
    const Vec3T<Real> n = cross(pa, pb);
    if (folds && !(dot(n, cross(t.a, t.b)) > 0)) return -1;
    const Real lpa = dot(pa, pa), lpb = dot(pb, pb), lab = dot(ab, ab);
    // The dot product of the two sides that meet opposite the shortest one (its sign does not
    // matter: it is squared).
    const Real d = lab <= lpa && lab <= lpb ? dot(pa, pb)  // at p
                   : lpa <= lpb             ? dot(ab, pb)  // at b
                                            : dot(ab, pa);             // at a
    const Real s2 = dot(n, n);  // the squared doubled area: sin^2 = s2 / (s2 + d^2)
    const Real whole = s2 + d * d;
    if (!(whole > 0)) {  // all three corners in one place
      num = 0;
    } else if (s2 * den < num * whole) {
      num = s2;
      den = whole;
    }
  }
  return num / den;
}

// Where vertex v's search runs, in the fan's frame: the tangent plane through v (normal to the
// area-weighted normal, spanned by e1 and e2) and the radius of the disk the search keeps to,
// alpha times the distance to the nearest neighbour's foot in that plane. Not `valid` when v's
// triangles have no area or its neighbours all sit on it.
template <typename Real>
struct TangentFrame {
  Vec3T<Real> normal, e1, e2;
  Real radius;
  bool valid;
};

// Sets f's unit normal along `n` and two unit axes across it; false where n has no length.
template <typename Real>
WS_HD bool spanPlane(TangentFrame<Real>& f, Vec3T<Real> n) {
  using V = Vec3T<Real>;
  const Real ln = length(n);
  if (!(ln > 0)) return false;
  f.normal = n * (1 / ln);
  const V axis = (f.normal.x < 0 ? -f.normal.x : f.normal.x) < Real(0.6) ? V{1, 0, 0} : V{0, 1, 0};
  const V e1 = cross(f.normal, axis);
  f.e1 = e1 * (1 / length(e1));
  f.e2 = cross(f.normal, f.e1);
  return true;
}

// The distance in f's plane from v to its nearest neighbour, or to its farthest.
template <typename Real>
WS_HD Real planarReach(const MeshView& m, std::uint32_t v, const Fan<Real>& fan,
                       const TangentFrame<Real>& f, bool farthest) {
  Real reach = farthest ? Real(0) : Real(3.4e38f);
  for (std::uint32_t i = m.neighbourStart[v]; i < m.neighbourStart[v + 1]; ++i) {
    const Vec3T<Real> d = fan.local(m.positions[m.neighbourOf[i]]);
    const Real du = dot(d, f.e1), dw = dot(d, f.e2);
    const Real planar = squareRoot(du * du + dw * dw);
    reach = (farthest ? planar > reach : planar < reach) ? planar : reach;
  }
  return reach;
}

template <typename Real>
WS_HD TangentFrame<Real> tangentFrame(const MeshView& m, std::uint32_t v, const Fan<Real>& fan,
                                      float alpha) {
  TangentFrame<Real> f{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 0, false};
  Vec3T<Real> n = {0, 0, 0};
  for (int i = 0; i < fan.count; ++i) n = n + cross(fan[i].a, fan[i].b);
  if (!spanPlane(f, n)) return f;
  f.radius = Real(alpha) * planarReach(m, v, fan, f, false);
  f.valid = f.radius > 0;
  return f;
}

// The guards' verdict on moving vertex v (smallest angle `before`) to `y`, into `move`.
WS_HD void judgeMove(const MeshView& m, std::uint32_t v, Vec3 y, const OptimizeParams& p,
                     VertexMove& move) {
  move.tried = y;
  const float after = vertexQuality(m, v, y, p.rejectFolds);
  if (after < 0) {
    move.outcome = Outcome::Folds;
  } else if (p.keepQuality && !(after >= move.before)) {
    move.outcome = Outcome::LowersQuality;
  } else {
    move.to = y;
    move.after = after;
    move.moved = true;
    move.outcome = Outcome::Moved;
  }
}

// The chapter's search, in the tangent plane at v and in the precision Real; the place it finds
// is then put back onto the surface by `project(point)` (closestPointOnSurface, or the point as it
// is), and the guards judge the projected place with the smallest angle itself, in single
// precision, as the mesh stores it. Projecting once, not at each of the search's ~80
// evaluations, keeps the search as cheap as the chapter's; the plane is a second-order
// approximation of the surface within the move's bound, and a projection that spoils the result
// is caught by the guards.
template <typename Real, typename Project, typename Visit>
WS_HD VertexMove optimizeVertex(const MeshView& m, std::uint32_t v, const OptimizeParams& p,
                                Project&& project, Visit&& visit) {
  const Vec3 x = m.positions[v];
  VertexMove move{x, 0, 0, 0, 0, false, Outcome::NoPlane, x};
  move.before = move.after = vertexMinAngle(m, v, x);
  FanTriangle<Real> cache[Fan<Real>::kCapacity];
  const Fan<Real> fan(m, v, cache);
  const TangentFrame<Real> f = tangentFrame(m, v, fan, p.alpha);
  move.radius = float(f.radius * fan.unit);
  if (!f.valid) return move;
  const Real r = f.radius;  // in the fan's units, as the search's places
  constexpr Real kRefused = Real(1e30f);
  auto objective = [&](Point2T<Real> q) {
    if (q.u * q.u + q.w * q.w > r * r) return kRefused;
    const Real quality = fanQuality(fan, f.e1 * q.u + f.e2 * q.w, p.rejectFolds);
    return quality < 0 ? kRefused : -quality;
  };
  Real best = 0;
  const Point2T<Real> q = nelderMead(objective, r / 2, p.search, &best, &move.iterations, visit);
  move.outcome = Outcome::NoBetterPlace;
  if (!(best < kRefused) || (q.u == 0 && q.w == 0)) return move;
  judgeMove(m, v, project(fan.global(f.e1 * q.u + f.e2 * q.w)), p, move);
  return move;
}

// Laplacian smoothing of vertex v: to its neighbours' centroid, or (tangential) to that
// centroid's foot in the tangent plane; then projected, and refused by the same guards.
template <typename Project>
WS_HD VertexMove smoothVertex(const MeshView& m, std::uint32_t v, const OptimizeParams& p,
                              Project&& project) {
  const Vec3 x = m.positions[v];
  VertexMove move{x, 0, 0, 0, 0, false, Outcome::NoPlane, x};
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
  judgeMove(m, v, project(x + step), p, move);
  if (move.moved && move.to.x == x.x && move.to.y == x.y && move.to.z == x.z) {
    move.moved = false;
    move.outcome = Outcome::NoBetterPlace;
  }
  return move;
}

// Untangling (Knupp 2001, "Hexahedral and tetrahedral mesh untangling"): over vertex v's
// triangles, the sum of max(0, beta - A), A a triangle's doubled area signed by its reference
// normal; zero once each faces the right way with at least beta of area. `refs` are the
// triangles' reference normals in the fan's order; `at` is in the fan's frame.
template <typename Real>
WS_HD Real untangleMeasure(const Fan<Real>& fan, const Vec3T<Real>* refs, Vec3T<Real> at,
                           Real beta) {
  Real sum = 0;
  for (int i = 0; i < fan.count; ++i) {
    const FanTriangle<Real> t = fan[i];
    const Real area = dot(cross(t.a - at, t.b - at), refs[i]);
    sum += area < beta ? beta - area : Real(0);
  }
  return sum;
}

// Where vertex v's untangling search runs, in the fan's frame: the plane normal to the sum of its
// triangles' reference normals (its own triangles may face any way), and within the distance of
// its farthest neighbour in that plane (a vertex pushed across its neighbours must come back past
// them). Not `valid` without references, or when they cancel.
template <typename Real>
WS_HD TangentFrame<Real> untangleFrame(const MeshView& m, std::uint32_t v, const Fan<Real>& fan) {
  TangentFrame<Real> f{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 0, false};
  if (!m.reference) return f;
  Vec3T<Real> n = {0, 0, 0};
  for (std::uint32_t i = m.triangleStart[v]; i < m.triangleStart[v + 1]; ++i)
    n = n + convert<Real>(m.reference[m.triangleOf[i]]);
  if (!spanPlane(f, n)) return f;
  f.radius = planarReach(m, v, fan, f, true);
  f.valid = f.radius > 0;
  return f;
}

// The untangling phase's move of vertex v: only when one of its triangles is inverted, a
// Nelder-Mead search for the least untangling measure over untangleFrame's disk, then projected;
// the place is taken when its measure is lower than where v is. beta is a tenth of the mean area
// of v's triangles. The chapter's guards do not apply (a fold must be undone, and the smallest
// angle may fall on the way); the optimizing phase after it keeps what it mends.
template <typename Real, typename Project, typename Visit>
WS_HD VertexMove untangleVertex(const MeshView& m, std::uint32_t v, const OptimizeParams& p,
                                Project&& project, Visit&& visit) {
  using V = Vec3T<Real>;
  const Vec3 x = m.positions[v];
  VertexMove move{x, 0, 0, 0, 0, false, Outcome::NotTangled, x};
  const std::uint32_t first = m.triangleStart[v];
  const int count = int(m.triangleStart[v + 1] - first);
  bool tangled = false;
  float before = 4;
  for (int i = 0; i < count; ++i) {
    const std::uint32_t t = m.triangleOf[first + std::uint32_t(i)];
    tangled = tangled || invertedTriangle(m, t);
    before = fminf(before, signedMinAngle(m, t));
  }
  move.before = move.after = before;
  if (!tangled) return move;
  move.outcome = Outcome::NoPlane;
  FanTriangle<Real> cache[Fan<Real>::kCapacity];
  const Fan<Real> fan(m, v, cache);
  const TangentFrame<Real> f = untangleFrame(m, v, fan);
  move.radius = float(f.radius * fan.unit);
  if (!f.valid || count > Fan<Real>::kCapacity) return move;
  V refs[Fan<Real>::kCapacity];
  Real meanArea = 0;
  for (int i = 0; i < count; ++i) {
    refs[i] = convert<Real>(m.reference[m.triangleOf[first + std::uint32_t(i)]]);
    meanArea += length(cross(fan[i].a, fan[i].b)) / Real(count);
  }
  const Real r = f.radius, beta = meanArea / 10;
  constexpr Real kRefused = Real(1e30f);
  auto objective = [&](Point2T<Real> q) {
    if (q.u * q.u + q.w * q.w > r * r) return kRefused;
    return untangleMeasure(fan, refs, f.e1 * q.u + f.e2 * q.w, beta);
  };
  const Real start = untangleMeasure(fan, refs, V{0, 0, 0}, beta);
  Real best = 0;
  const Point2T<Real> q = nelderMead(objective, r / 2, p.search, &best, &move.iterations, visit);
  move.outcome = Outcome::StillTangled;
  if (!(best < start) || (q.u == 0 && q.w == 0)) return move;
  const Vec3 y = project(fan.global(f.e1 * q.u + f.e2 * q.w));
  move.tried = y;
  if (!(untangleMeasure(fan, refs, fan.local(y), beta) < start)) return move;
  move.to = y;
  move.moved = true;
  move.outcome = Outcome::Moved;
  float after = 4;  // the smallest signed angle of v's triangles at the new place
  for (int i = 0; i < count; ++i) {
    const std::uint32_t t = m.triangleOf[first + std::uint32_t(i)];
    const std::uint32_t* c = m.corners + 3 * t;
    Vec3 k[3];
    for (int j = 0; j < 3; ++j) k[j] = c[j] == v ? y : m.positions[c[j]];
    after = fminf(after, signedMinAngle(k[0], k[1], k[2], m.reference[t]));
  }
  move.after = after;
  return move;
}

// Vertex v's move by the method `p` names but Untangle, its search in the precision Real (which
// should be the one p.precision names: see withPrecision).
template <typename Real, typename Project, typename Visit>
WS_HD VertexMove moveVertex(const MeshView& m, std::uint32_t v, const OptimizeParams& p,
                            Project&& project, Visit&& visit) {
  return p.method == Method::NelderMead ? optimizeVertex<Real>(m, v, p, project, visit)
                                        : smoothVertex(m, v, p, project);
}

// The same with Untangle too. The GPU runs the untangling phase in kernels of its own instead,
// so that the optimizing kernels do not carry its registers (8% of a sweep on an H100).
template <typename Real, typename Project, typename Visit>
WS_HD VertexMove passMove(const MeshView& m, std::uint32_t v, const OptimizeParams& p,
                          Project&& project, Visit&& visit) {
  if (p.method == Method::Untangle) return untangleVertex<Real>(m, v, p, project, visit);
  return moveVertex<Real>(m, v, p, project, visit);
}

// Calls f(float{}) or f(double{}) as `precision` says, so that a caller makes its loop or kernel
// once per precision and picks one at run time.
template <typename F>
auto withPrecision(Precision precision, F&& f) {
  return precision == Precision::Double ? f(double{}) : f(float{});
}

}  // namespace ws::mesh
