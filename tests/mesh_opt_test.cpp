// The mesh optimizer's CPU core: connectivity and what it reports, colourings, the Nelder-Mead
// search, and vertex optimization on meshes with known answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "compute/mesh/surface.h"
#include "tests/test_support.h"

namespace ws::mesh {
namespace {

constexpr float kDegrees = 180 / std::numbers::pi_v<float>;

TEST(MeshTopology, AClosedSphereAndAPatchWithItsBoundary) {
  const Topology sphere = buildTopology(jitteredSphere(2, 0.2f, 1));
  EXPECT_EQ(sphere.summary(), "closed and manifold");
  EXPECT_EQ(sphere.vertices, 162u);  // 10 * 4^2 + 2
  EXPECT_EQ(sphere.maxDegree(), 6u);
  for (std::uint32_t v = 0; v < sphere.vertices; ++v) {
    EXPECT_EQ(sphere.degree(v), sphere.triangleStart[v + 1] - sphere.triangleStart[v]);
    EXPECT_FALSE(sphere.pinned[v]);
  }
  const Topology patch = buildTopology(planePatch(6, 0, 1));
  EXPECT_EQ(patch.boundaryEdges, 20u);  // 4 (n - 1)
  EXPECT_EQ(patch.summary(), "20 boundary edges");
  std::size_t pinned = 0;
  for (std::uint8_t p : patch.pinned) pinned += p;
  EXPECT_EQ(pinned, 20u);  // the border's vertices
}

// The torus and the part are closed; the part's feature edges lock exactly its vertices on block
// edges and corners (its faces' vertices move in their planes, so their normals never tilt).
TEST(MeshTopology, TheTorusAndThePartAreClosedAndThePartLocksItsFeatureEdges) {
  const std::uint64_t seed = ws::test::freshSeed();
  const Topology torus = buildTopology(jitteredTorus(30, 12, 0.3f, seed));
  EXPECT_EQ(torus.summary(), "closed and manifold");
  EXPECT_EQ(torus.vertices, 360u);
  const SurfaceMesh part(cadPart(2, 0.4f, seed));
  EXPECT_EQ(part.topology.summary(), "closed and manifold");
  EXPECT_EQ(part.triangles(), 2u * 888 * 4);  // faces of area 8.88, squares of side 0.05
  // The jitter moves every vertex but those on edges and corners: the ones to lock.
  const TriangleMesh plain = cadPart(2, 0, seed);
  const auto locked = lockedVertices(part, 30);
  std::size_t lockedCount = 0;
  for (std::size_t v = 0; v < part.positions.size(); ++v) {
    const bool moved = part.positions[v].x != plain.vertices[v][0] ||
                       part.positions[v].y != plain.vertices[v][1] ||
                       part.positions[v].z != plain.vertices[v][2];
    EXPECT_EQ(bool(locked[v]), !moved) << "vertex " << v << ", seed " << seed;
    lockedCount += locked[v];
  }
  EXPECT_GT(lockedCount, 300u);  // 12 + 4 edges of the block and notch, 20 vertices each or so
}

TEST(MeshTopology, DegenerateTrianglesAndNonManifoldEdgesAreReportedNotRefused) {
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {2, 0, 0}};
  m.triangles = {{0, 1, 2},
                 {1, 0, 3},
                 {0, 1, 4},   // three triangles on the edge 0-1
                 {0, 1, 5}};  // and a fourth, flat: zero area
  const Topology t = buildTopology(m);
  EXPECT_EQ(t.nonManifoldEdges, 1u);
  EXPECT_EQ(t.degenerateTriangles, 1u);
  EXPECT_NE(t.summary().find("1 degenerate triangles"), std::string::npos) << t.summary();
  EXPECT_NE(t.summary().find("1 non-manifold edges"), std::string::npos) << t.summary();
  EXPECT_TRUE(t.pinned[0] && t.pinned[1]);
  m.triangles.push_back({2, 2, 4});  // a corner repeated
  EXPECT_EQ(buildTopology(m).degenerateTriangles, 2u);
}

TEST(MeshColouring, FirstFitAndJonesPlassmannAreValidWithAtMostMaxDegreePlusOneColours) {
  const std::uint64_t seed = ws::test::freshSeed();
  for (const TriangleMesh& m : {jitteredSphere(3, 0.3f, seed), planePatch(30, 0.2f, seed),
                                jitteredTorus(40, 16, 0.3f, seed), cadPart(2, 0.3f, seed)}) {
    const Topology t = buildTopology(m);
    for (const Colouring& c :
         {firstFitColouring(t), jonesPlassmannColouring(t, std::uint32_t(seed))}) {
      EXPECT_EQ(checkColouring(t, c), "") << "seed " << seed;
      EXPECT_LE(c.colours, t.maxDegree() + 1);
      EXPECT_GE(c.colours, 3u);  // a triangle's corners differ
    }
  }
  // Jones-Plassmann is first fit in priority order: each vertex has the smallest colour that its
  // neighbours of higher priority lack.
  const Topology sphere = buildTopology(jitteredSphere(3, 0.3f, seed));
  const Colouring jp = jonesPlassmannColouring(sphere, 5);
  for (std::uint32_t v = 0; v < sphere.vertices; ++v) {
    std::vector<bool> used(sphere.maxDegree() + 1, false);
    for (std::uint32_t i = sphere.neighbourStart[v]; i < sphere.neighbourStart[v + 1]; ++i)
      if (priorityBeats(sphere.neighbourOf[i], v, 5)) used[jp.colour[sphere.neighbourOf[i]]] = true;
    std::uint32_t k = 0;
    while (used[k]) ++k;
    ASSERT_EQ(jp.colour[v], k) << "vertex " << v;
  }
  // The checker sees a clash.
  const Topology t = buildTopology(planePatch(4, 0, 1));
  Colouring c = firstFitColouring(t);
  c.colour[1] = c.colour[0];
  EXPECT_NE(checkColouring(t, c).find("share colour"), std::string::npos);
}

// The smallest angle, found as the angle opposite the shortest side, is the least of the three.
TEST(MeshOptimize, TheSmallestAngleIsTheLeastOfTheThree) {
  std::mt19937_64 rng(ws::test::freshSeed());
  std::uniform_real_distribution<float> any(-1, 1);
  for (int i = 0; i < 10000; ++i) {
    const Vec3 a{any(rng), any(rng), any(rng)}, b{any(rng), any(rng), any(rng)},
        c{any(rng), any(rng), any(rng)};
    const float least =
        std::min({cornerAngle(a, b, c), cornerAngle(b, c, a), cornerAngle(c, a, b)});
    ASSERT_NEAR(minAngle(a, b, c), least, 1e-5f) << "triangle " << i;
  }
  EXPECT_EQ(minAngle({0, 0, 0}, {0, 0, 0}, {1, 0, 0}), 0.0f);  // an edge of no length
}

// The search's measure (sin^2 of the smallest angle, from the vertex's cached triangles) agrees
// with the smallest angle of vertexQuality, and finds the same folds, in either precision.
template <typename Real>
void expectTheSearchsMeasureAgrees(std::uint64_t seed) {
  SurfaceMesh m(jitteredSphere(3, 0.35f, seed));
  // The search sees a triangle turn over against where it is; the guard, besides, one that comes
  // to face against its reference normal, which the search leaves to it: compare without.
  MeshView view = m.view();
  view.reference = nullptr;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> offset(-0.12f, 0.12f);  // edges are about 0.2
  int folds = 0;
  for (std::uint32_t v = 0; v < m.positions.size(); ++v) {
    FanTriangle<Real> cache[Fan<Real>::kCapacity];
    const Fan<Real> fan(view, v, cache);
    const Vec3 p = {offset(rng), offset(rng), offset(rng)};
    const Real measure = fanQuality(fan, fan.local(m.positions[v] + p), true);
    const float angle = vertexQuality(view, v, m.positions[v] + p, true);
    if (angle < 0 || measure < 0) {
      // A triangle that turns over here has almost no area: both must see it, bar rounding.
      folds += angle < 0;
      EXPECT_EQ(measure < 0, angle < 0) << "vertex " << v << ", seed " << seed;
      continue;
    }
    const float sine = std::sin(angle);
    EXPECT_NEAR(double(measure), double(sine * sine), 2e-5) << "vertex " << v << ", seed " << seed;
  }
  EXPECT_GT(folds, 0) << "the offsets should turn some triangles over; seed " << seed;
}

TEST(MeshOptimize, TheSearchsMeasureIsTheSmallestAnglesSineSquared) {
  const std::uint64_t seed = ws::test::freshSeed();
  expectTheSearchsMeasureAgrees<float>(seed);
  expectTheSearchsMeasureAgrees<double>(seed);
}

// The uncoloured pass moves every vertex as if it alone moved, from the positions before it.
TEST(MeshOptimize, AllAtOnceMovesEachVertexAgainstThePositionsBefore) {
  const std::uint64_t seed = ws::test::freshSeed();
  SurfaceMesh m(jitteredSphere(3, 0.35f, seed));
  const SurfaceMesh before = m;
  SurfaceMesh copy = before;
  const auto locked = lockedVertices(m, 0);
  EXPECT_GT(optimizeAllAtOnce(m, locked, OptimizeParams{}), m.positions.size() / 2);
  const SurfaceProjection none{};
  for (std::uint32_t v = 0; v < m.positions.size(); v += 7) {
    const VertexMove move = moveVertex<float>(copy.view(), v, OptimizeParams{}, none, NoVisit{});
    EXPECT_EQ(length(m.positions[v] - move.to), 0.0f) << "vertex " << v << ", seed " << seed;
  }
}

// Plain Laplacian smoothing shrinks a sphere; the tangential kind, projected, keeps it.
TEST(MeshOptimize, PlainLaplacianShrinksTheSphereTangentialKeepsIt) {
  const std::uint64_t seed = ws::test::freshSeed();
  auto meanRadius = [](const SurfaceMesh& m) {
    double sum = 0;
    for (const Vec3& p : m.positions) sum += length(p);
    return sum / double(m.positions.size());
  };
  for (const Method method : {Method::Laplacian, Method::Tangential}) {
    SurfaceMesh m(jitteredSphere(3, 0.35f, seed));
    const SurfaceGrid original(m.positions, m.corners);
    const Colouring c = firstFitColouring(m.topology);
    const auto locked = lockedVertices(m, 0);
    OptimizeParams p;
    p.method = method;
    p.keepQuality = false;
    for (int sweep = 0; sweep < 5; ++sweep)
      for (std::uint32_t k = 0; k < c.colours; ++k)
        optimizeClass(m, c, k, locked, p, method == Method::Tangential ? &original : nullptr);
    if (method == Method::Laplacian)
      EXPECT_LT(meanRadius(m), 0.99) << "seed " << seed;
    else
      EXPECT_GT(meanRadius(m), 0.995) << "seed " << seed;
    EXPECT_GT(m.meanMinAngleDegrees(),
              SurfaceMesh(jitteredSphere(3, 0.35f, seed)).meanMinAngleDegrees());
  }
}

TEST(MeshOptimize, TheAngleSummaryCountsEveryTriangle) {
  const SurfaceMesh m(jitteredSphere(3, 0.15f, ws::test::freshSeed()));  // none inverted
  const AngleSummary s = summarizeAngles(m);
  EXPECT_EQ(s.inverted, 0u);
  std::uint32_t total = 0;
  for (std::uint32_t count : s.histogram) total += count;
  EXPECT_EQ(total, m.triangles());
  EXPECT_FLOAT_EQ(s.minDegrees, m.minAngleDegrees());
  EXPECT_NEAR(s.meanDegrees, m.meanMinAngleDegrees(), 1e-3);
  EXPECT_EQ(angleBin(-1), 0);
  EXPECT_EQ(angleBin(4.99f), 0);
  EXPECT_EQ(angleBin(5.0f), 1);
  EXPECT_EQ(angleBin(60.0f), kAngleBins - 1);
}

// The chapter's warm-up: points pulled onto a circle of radius r by minimizing their squared
// distance to it.
TEST(NelderMead, PointsEndOnTheCircle) {
  std::mt19937_64 rng(ws::test::freshSeed());
  std::uniform_real_distribution<float> any(-3, 3);
  NelderMeadOptions o;
  o.iterations = 200;
  o.tolerance = 1e-12f;
  for (int i = 0; i < 200; ++i) {
    const Point2 start{any(rng), any(rng)};
    const Point2 end = circlePull(start, 1.5f, o);
    EXPECT_NEAR(std::hypot(end.u, end.w), 1.5f, 1e-3f) << "from " << start.u << ", " << start.w;
  }
}

// The textbook form of a step (an evaluation in each branch) tries the same places as the form
// with one evaluation for all three, so it ends at the same corner after the same iterations, on
// fresh random functions with ridges and ripples (where every kind of step happens: both
// shrinks, which evaluate twice more, and plain reflections, which evaluate once, are seen).
TEST(NelderMead, ThePerBranchFormFindsWhatTheOneEvaluationFormFinds) {
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> any(-2, 2);
  bool shrank = false, reflected = false;
  for (int run = 0; run < 500; ++run) {
    const float a = any(rng), b = any(rng), c = std::abs(any(rng)) + 0.1f, d = any(rng);
    Point2 found[2];
    float best[2];
    int used[2], evaluations[2] = {0, 0};
    for (const bool perBranch : {false, true}) {
      auto f = [&](Point2 q) {
        ++evaluations[perBranch];
        return std::max(std::abs(q.u - a), c * std::abs(q.w - b)) +
               0.3f * std::sin(5 * q.u + d) * std::cos(5 * q.w);
      };
      NelderMeadOptions o;
      o.perBranch = perBranch;
      found[perBranch] = nelderMead(f, 0.5f, o, &best[perBranch], &used[perBranch], NoVisit{});
    }
    SCOPED_TRACE("run " + std::to_string(run) + ", seed " + std::to_string(seed));
    EXPECT_EQ(found[1].u, found[0].u);
    EXPECT_EQ(found[1].w, found[0].w);
    EXPECT_EQ(best[1], best[0]);
    EXPECT_EQ(used[1], used[0]);
    EXPECT_EQ(evaluations[1], evaluations[0]);
    shrank |= evaluations[0] > 3 + 2 * used[0];
    reflected |= evaluations[0] < 3 + 2 * used[0];
  }
  EXPECT_TRUE(shrank);
  EXPECT_TRUE(reflected);
}

// On a mesh, in either precision: a sweep in the textbook form moves every vertex as the one-
// evaluation form does, to the bit.
TEST(MeshOptimize, ThePerBranchSearchMovesTheVerticesAlike) {
  const std::uint64_t seed = ws::test::freshSeed();
  for (const Precision precision : {Precision::Single, Precision::Double}) {
    SurfaceMesh plain(jitteredSphere(3, 0.35f, seed));
    SurfaceMesh branchy = plain;
    const Colouring colouring = firstFitColouring(plain.topology);
    const auto locked = lockedVertices(plain, 0);
    OptimizeParams p;
    p.precision = precision;
    OptimizeParams q = p;
    q.search.perBranch = true;
    std::size_t moved = 0;
    for (std::uint32_t c = 0; c < colouring.colours; ++c) {
      moved += optimizeClass(plain, colouring, c, locked, p);
      optimizeClass(branchy, colouring, c, locked, q);
    }
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_GT(moved, plain.positions.size() / 4);
    for (std::size_t v = 0; v < plain.positions.size(); ++v) {
      ASSERT_EQ(branchy.positions[v].x, plain.positions[v].x) << "vertex " << v;
      ASSERT_EQ(branchy.positions[v].y, plain.positions[v].y) << "vertex " << v;
      ASSERT_EQ(branchy.positions[v].z, plain.positions[v].z) << "vertex " << v;
    }
  }
}

// A flat wheel of `sides` isosceles triangles around a centre vertex, the centre moved.
TriangleMesh wheel(std::uint32_t sides, float dx, float dy) {
  TriangleMesh m;
  m.vertices.push_back({dx, dy, 0});
  for (std::uint32_t k = 0; k < sides; ++k) {
    const float a = float(k) * 2 * std::numbers::pi_v<float> / float(sides);
    m.vertices.push_back({std::cos(a), std::sin(a), 0});
  }
  for (std::uint32_t k = 0; k < sides; ++k) m.triangles.push_back({0, 1 + k, 1 + (k + 1) % sides});
  return m;
}

// The centre of a regular wheel is where its smallest angle (360 / sides degrees at the centre)
// is largest: a displaced centre returns there, in either precision, for a hexagon (its
// triangles cached by the search) and for a wheel of more triangles than that cache holds.
TEST(MeshOptimize, ADisplacedWheelCentreReturnsAndAnEquilateralPatchStays) {
  for (const std::uint32_t sides : {6u, std::uint32_t(Fan<float>::kCapacity) + 8}) {
    for (const Precision precision : {Precision::Single, Precision::Double}) {
      SurfaceMesh m(wheel(sides, 0.3f, -0.2f));
      const Colouring c = firstFitColouring(m.topology);
      const auto locked = lockedVertices(m, 0);
      const float best = std::min(60.0f, 360.0f / float(sides));
      EXPECT_LT(m.minAngleDegrees(), best * 0.75f);
      OptimizeParams params;
      params.precision = precision;
      for (int sweep = 0; sweep < 10; ++sweep)
        for (std::uint32_t k = 0; k < c.colours; ++k) optimizeClass(m, c, k, locked, params);
      const bool single = precision == Precision::Single;
      EXPECT_LT(length(m.positions[0]), 0.01f) << sides << " sides, single " << single;
      EXPECT_GT(m.minAngleDegrees(), best - 1) << sides << " sides, single " << single;
    }
  }

  SurfaceMesh patch(planePatch(12, 0, 1));
  const std::vector<Vec3> before = patch.positions;
  const Colouring pc = firstFitColouring(patch.topology);
  const auto patchLocked = lockedVertices(patch, 30);
  for (std::uint32_t k = 0; k < pc.colours; ++k) optimizeClass(patch, pc, k, patchLocked, {});
  for (std::size_t v = 0; v < before.size(); ++v)
    EXPECT_LT(length(patch.positions[v] - before[v]), 1e-5f) << "vertex " << v;
}

// Sweeps over a jittered sphere: after every colour class the smallest angle has not dropped, no
// triangle has turned over, each move stayed within alpha times the nearest neighbour's distance,
// and the corners are as they were.
TEST(MeshOptimize, SweepsNeverLowerTheSmallestAngleNorFoldNorOverstep) {
  const std::uint64_t seed = ws::test::freshSeed();
  SurfaceMesh m(jitteredSphere(3, 0.35f, seed));
  const std::vector<std::uint32_t> corners = m.corners;
  const Colouring c = firstFitColouring(m.topology);
  const auto locked = lockedVertices(m, 0);
  OptimizeParams params;
  const float start = m.minAngleDegrees(), startMean = m.meanMinAngleDegrees();
  float smallest = start;
  for (int sweep = 0; sweep < 3; ++sweep) {
    for (std::uint32_t k = 0; k < c.colours; ++k) {
      const std::vector<Vec3> before = m.positions;
      // Each vertex's move as the class will make it, checked against its radius.
      const MeshView view = m.view();
      for (std::uint32_t i = c.classStart[k]; i < c.classStart[k + 1]; ++i) {
        const std::uint32_t v = c.members[i];
        const VertexMove move = optimizeVertex<float>(
            view, v, params, [](Vec3 p) { return p; }, NoVisit{});
        if (!move.moved) continue;
        EXPECT_LE(length(move.to - before[v]), move.radius * 1.0001f) << "vertex " << v;
        EXPECT_FALSE(foldsAt(view, v, move.to)) << "vertex " << v;
        EXPECT_GE(move.after, move.before) << "vertex " << v;
      }
      optimizeClass(m, c, k, locked, params);
      const float now = m.minAngleDegrees();
      EXPECT_GE(now, smallest) << "sweep " << sweep << ", colour " << k << ", seed " << seed;
      smallest = now;
      ASSERT_EQ(m.foldedSince(before), -1) << "a triangle folded; seed " << seed;
    }
  }
  EXPECT_EQ(m.corners, corners);
  EXPECT_GT(m.minAngleDegrees(), start + 5) << "seed " << seed;  // it did improve
  EXPECT_GT(m.meanMinAngleDegrees(), startMean + 2) << "seed " << seed;
}

TEST(MeshProjection, TheClosestPointOfATriangleIsOnItAndNoSampleIsCloser) {
  std::mt19937_64 rng(ws::test::freshSeed());
  std::uniform_real_distribution<float> any(-2, 2);
  auto random = [&] { return Vec3{any(rng), any(rng), any(rng)}; };
  for (int trial = 0; trial < 300; ++trial) {
    const Vec3 a = random(), b = random(), c = random(), p = random();
    const Vec3 q = closestPointOnTriangle(p, a, b, c);
    // On the triangle: in its plane, inside its edges.
    const Vec3 n = cross(b - a, c - a);
    EXPECT_NEAR(dot(q - a, n) / length(n), 0, 1e-4f);
    float nearest = 1e30f;
    for (int i = 0; i <= 60; ++i)
      for (int j = 0; i + j <= 60; ++j) {
        const Vec3 s = a + (b - a) * (float(i) / 60) + (c - a) * (float(j) / 60);
        nearest = std::min(nearest, length(s - p));
      }
    EXPECT_LE(length(q - p), nearest + 1e-4f) << "trial " << trial;
    EXPECT_GE(length(q - p), nearest - 0.1f * length(b - a)) << "trial " << trial;
  }
}

TEST(MeshProjection, TheGridFindsTheClosestPointOfTheWholeSurface) {
  const std::uint64_t seed = ws::test::freshSeed();
  const SurfaceMesh sphere(jitteredSphere(3, 0.3f, seed));
  const SurfaceGrid grid(sphere.positions, sphere.corners);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> any(-2.5f, 2.5f);
  for (int trial = 0; trial < 500; ++trial) {
    const Vec3 p = {any(rng), any(rng), any(rng)};  // inside and outside the grid's box
    float found = 0;
    const Vec3 q = closestPointOnSurface(grid.view(), p, &found);
    float best = 1e30f;
    for (std::size_t t = 0; t < sphere.triangles(); ++t) {
      const std::uint32_t* k = sphere.corners.data() + 3 * t;
      best = std::min(
          best, length(closestPointOnTriangle(p, sphere.positions[k[0]], sphere.positions[k[1]],
                                              sphere.positions[k[2]]) -
                       p));
    }
    EXPECT_NEAR(found, best, 1e-5f) << "trial " << trial << ", seed " << seed;
    EXPECT_NEAR(length(q - p), found, 1e-5f);
  }
}

// With projection, moved vertices stay on the input surface: on a jittered sphere, no farther
// from the unit sphere than the input's triangles reach (their deepest point, towards the
// centre).
TEST(MeshProjection, ProjectedVerticesStayOnTheInputSurface) {
  const std::uint64_t seed = ws::test::freshSeed();
  SurfaceMesh m(jitteredSphere(3, 0.35f, seed));
  const SurfaceGrid original(m.positions, m.corners);
  float deepest = 0;
  for (std::size_t t = 0; t < m.triangles(); ++t) {
    const std::uint32_t* k = m.corners.data() + 3 * t;
    const Vec3 q =
        closestPointOnTriangle({0, 0, 0}, m.positions[k[0]], m.positions[k[1]], m.positions[k[2]]);
    deepest = std::max(deepest, 1 - length(q));
  }
  const Colouring c = firstFitColouring(m.topology);
  const auto locked = lockedVertices(m, 0);
  const float start = m.minAngleDegrees();
  for (int sweep = 0; sweep < 3; ++sweep)
    for (std::uint32_t k = 0; k < c.colours; ++k)
      optimizeClass(m, c, k, locked, OptimizeParams{}, &original);
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    float off = 0;
    closestPointOnSurface(original.view(), m.positions[v], &off);
    EXPECT_LT(off, 1e-5f) << "vertex " << v << ", seed " << seed;
    EXPECT_LE(1 - length(m.positions[v]), deepest + 1e-5f) << "vertex " << v;
    EXPECT_LE(length(m.positions[v]), 1 + 1e-5f) << "vertex " << v;
  }
  EXPECT_GT(m.minAngleDegrees(), start + 5) << "seed " << seed;
}

}  // namespace
}  // namespace ws::mesh
