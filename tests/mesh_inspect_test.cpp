// The vertex inspector's core: picking a vertex with a ray, and one vertex's next move laid open
// as a pass would make it.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "compute/mesh/inspect.h"
#include "compute/mesh/surface.h"
#include "tests/test_support.h"

namespace ws::mesh {
namespace {

// A ray aimed near a vertex of a sphere (inside one of its triangles) picks that vertex, not one
// on the far side; a ray that passes the sphere picks nothing.
TEST(MeshInspect, ARayPicksTheVertexItMeetsFirst) {
  const std::uint64_t seed = ws::test::freshSeed();
  const SurfaceMesh m(jitteredSphere(3, 0.35f, seed));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> any(0, std::uint32_t(m.positions.size() - 1));
  std::uniform_real_distribution<float> tilt(-0.15f, 0.15f);
  for (int i = 0; i < 20; ++i) {
    const std::uint32_t v = any(rng);
    const std::uint32_t* t =
        m.corners.data() + 3 * m.topology.triangleOf[m.topology.triangleStart[v]];
    const Vec3 centroid = (m.positions[t[0]] + m.positions[t[1]] + m.positions[t[2]]) * (1.0f / 3);
    const Vec3 target = m.positions[v] * 0.8f + centroid * 0.2f;  // v's weight: 0.87
    // From a point off to the side of the outward normal.
    const Vec3 origin = target * 3 + Vec3{tilt(rng), tilt(rng), tilt(rng)};
    const Vec3 direction = target - origin;
    const auto picked =
        pickVertex(m.positions, m.corners, origin, direction * (1 / length(direction)));
    ASSERT_TRUE(picked.has_value()) << "vertex " << v << ", seed " << seed;
    EXPECT_EQ(*picked, v) << "seed " << seed;
  }
  EXPECT_FALSE(pickVertex(m.positions, m.corners, {3, 3, 3}, {1, 0, 0}).has_value());
  EXPECT_FALSE(pickVertex(m.positions, m.corners, {3, 0, 0}, {1, 0, 0}).has_value());  // behind
}

// A flat wheel of six triangles, its centre moved: the centre's inspection shows the search in
// the plane of the wheel, within the disk of alpha times the nearest neighbour's distance, the
// best corner improving at every iteration, and the same move a pass makes.
TEST(MeshInspect, TheSearchIsShownAsAPassMakesIt) {
  TriangleMesh wheel;
  wheel.vertices.push_back({0.3f, -0.2f, 0});
  for (int k = 0; k < 6; ++k) {
    const float a = float(k) * std::numbers::pi_v<float> / 3;
    wheel.vertices.push_back({std::cos(a), std::sin(a), 0});
  }
  for (std::uint32_t k = 0; k < 6; ++k) wheel.triangles.push_back({0, 1 + k, 1 + (k + 1) % 6});
  SurfaceMesh m(wheel);
  const OptimizeParams params;
  const Inspection in = inspectVertex(m.view(), 0, false, params, nullptr);
  EXPECT_EQ(in.triangles, 6);
  EXPECT_NEAR(std::fabs(in.normal.z), 1, 1e-6f);
  float nearest = 10;
  for (std::uint32_t k = 1; k <= 6; ++k)
    nearest = std::min(nearest, length(m.positions[k] - m.positions[0]));
  EXPECT_NEAR(in.radius, params.alpha * nearest, 1e-5f);
  ASSERT_GE(in.simplices.size(), std::size_t(in.move.iterations));
  ASSERT_LE(in.simplices.size(), std::size_t(in.move.iterations) + 1);
  float best = 0;
  for (const auto& simplex : in.simplices) {
    for (const Vec3& corner : simplex) EXPECT_NEAR(corner.z, 0, 1e-6f);
    const float quality = vertexMinAngle(m.view(), 0, simplex[0]);
    EXPECT_GE(quality, best - 1e-5f);
    best = std::max(best, quality);
  }
  ASSERT_EQ(in.move.outcome, Outcome::Moved);
  EXPECT_LE(length(in.move.to - in.centre), in.radius * 1.0001f);
  EXPECT_NE(describe(in, params).find("moves"), std::string::npos) << describe(in, params);
  // The pass moves it to the same place.
  const Colouring c = firstFitColouring(m.topology);
  optimizeClass(m, c, c.colour[0], lockedVertices(m, 0), params);
  EXPECT_EQ(length(m.positions[0] - in.move.to), 0.0f);
}

// A locked vertex stays, unsearched; the centre of a regular wheel has no better place.
TEST(MeshInspect, LockedAndOptimalVerticesSayWhyTheyStay) {
  SurfaceMesh patch(planePatch(6, 0, 1));
  const OptimizeParams params;
  const Inspection locked = inspectVertex(patch.view(), 0, true, params, nullptr);
  EXPECT_TRUE(locked.simplices.empty());
  EXPECT_FALSE(locked.move.moved);
  EXPECT_NE(describe(locked, params).find("locked"), std::string::npos);
  const auto interior = std::find(patch.topology.pinned.begin(), patch.topology.pinned.end(), 0);
  ASSERT_NE(interior, patch.topology.pinned.end());
  const auto v = std::uint32_t(interior - patch.topology.pinned.begin());
  const Inspection still = inspectVertex(patch.view(), v, false, params, nullptr);
  EXPECT_EQ(still.move.outcome, Outcome::NoBetterPlace);
  EXPECT_NE(describe(still, params).find("no better place"), std::string::npos);
}

}  // namespace
}  // namespace ws::mesh
