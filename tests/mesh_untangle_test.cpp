// Tangled meshes (vertices pushed across their neighbours): inverted triangles found against the
// surface around them and reported as the worst, untangled before the optimization on the CPU
// (mesh_module_test runs the module on both backends), sound meshes left alone, and the inspector
// saying why a vertex is inverted.
#include <gtest/gtest.h>

#include <string>

#include "compute/io/mesh_io.h"
#include "compute/mesh/inspect.h"
#include "compute/mesh/mesh_module.h"
#include "compute/mesh/surface.h"
#include "tests/mesh_tangle.h"
#include "tests/test_support.h"

namespace ws::mesh {
namespace {

TEST(MeshUntangle, SoundMeshesHaveNoInvertedTriangle) {
  const std::uint64_t seed = ws::test::freshSeed();
  for (const TriangleMesh& mesh : {jitteredSphere(3, 0.15f, seed), planePatch(20, 0.15f, seed),
                                   jitteredTorus(36, 12, 0.15f, seed), cadPart(1, 0.15f, seed)}) {
    const SurfaceMesh m(mesh);
    EXPECT_EQ(summarizeAngles(m).inverted, 0u) << "seed " << seed;
    EXPECT_GT(summarizeAngles(m).minDegrees, 0);
  }
  // The shipped meshes too, but the bumpy torus: jittered by 0.35 of an edge, it came with a few
  // folded slivers (mesh_module_test untangles them).
  for (const std::string& name : shippedMeshes()) {
    const SurfaceMesh m(loadMesh(meshPathOf(name)));
    if (name == "bumpy-torus")
      EXPECT_GT(summarizeAngles(m).inverted, 0u);
    else
      EXPECT_EQ(summarizeAngles(m).inverted, 0u) << name;
  }
}

TEST(MeshUntangle, FoldedTrianglesAreFoundAndCountAsTheWorst) {
  const std::uint64_t seed = ws::test::freshSeed();
  for (const bool sphere : {false, true}) {
    const TriangleMesh sound = sphere ? jitteredSphere(3, 0.1f, seed) : planePatch(16, 0.1f, seed);
    std::vector<std::uint32_t> pushed;
    const SurfaceMesh folded(test::tangled(sound, 4, seed, sphere, &pushed));
    ASSERT_EQ(pushed.size(), 4u);
    const AngleSummary s = summarizeAngles(folded);
    EXPECT_GE(s.inverted, 4u) << "a pushed vertex folds one triangle or more; seed " << seed;
    EXPECT_LT(s.minDegrees, 0) << "an inverted triangle's smallest angle is negative";
    EXPECT_LE(s.minDegrees, summarizeAngles(SurfaceMesh(sound)).minDegrees);
    // Each inverted triangle has a pushed vertex among its corners.
    SurfaceMesh copy = folded;
    const MeshView view = copy.view();
    for (std::uint32_t t = 0; t < folded.triangles(); ++t) {
      if (!invertedTriangle(view, t)) continue;
      bool touches = false;
      for (int k = 0; k < 3; ++k)
        touches = touches || std::find(pushed.begin(), pushed.end(), folded.corners[3 * t + k]) !=
                                 pushed.end();
      EXPECT_TRUE(touches) << "triangle " << t << ", seed " << seed;
    }
  }
}

// Untangling sweeps, then the chapter's, on a folded patch and sphere: no inverted triangle
// left, the corners as they were, and the smallest angle positive.
TEST(MeshUntangle, SweepsUntangleThenOptimizeOnTheCpu) {
  const std::uint64_t seed = ws::test::freshSeed();
  for (const bool sphere : {false, true}) {
    const TriangleMesh input = test::tangled(
        sphere ? jitteredSphere(3, 0.1f, seed) : planePatch(16, 0.1f, seed), 4, seed, sphere);
    SurfaceMesh m(input);
    const SurfaceGrid original(m.positions, m.corners);
    const std::vector<std::uint8_t> locked = lockedVertices(m, 0);
    const Colouring colouring = firstFitColouring(m.topology);
    OptimizeParams untangle;
    untangle.method = Method::Untangle;
    int passes = 0;
    while (summarizeAngles(m).inverted > 0 && passes < 20) {
      for (std::uint32_t c = 0; c < colouring.colours; ++c)
        optimizeClass(m, colouring, c, locked, untangle, &original);
      ++passes;
    }
    EXPECT_EQ(summarizeAngles(m).inverted, 0u) << "sphere " << sphere << ", seed " << seed;
    const std::vector<Vec3> untangled = m.positions;
    for (int sweep = 0; sweep < 10; ++sweep)
      for (std::uint32_t c = 0; c < colouring.colours; ++c)
        optimizeClass(m, colouring, c, locked, OptimizeParams{}, &original);
    EXPECT_EQ(summarizeAngles(m).inverted, 0u) << "the fold guard keeps it untangled";
    EXPECT_EQ(m.foldedSince(untangled), -1);
    EXPECT_GT(summarizeAngles(m).minDegrees, 5.0f) << "sphere " << sphere << ", seed " << seed;
    EXPECT_EQ(m.corners, SurfaceMesh(input).corners);
  }
}

TEST(MeshUntangle, ASoundMeshIsLeftAsItIs) {
  SurfaceMesh m(jitteredSphere(3, 0.15f, ws::test::freshSeed()));
  const std::vector<Vec3> before = m.positions;
  const Colouring colouring = firstFitColouring(m.topology);
  OptimizeParams untangle;
  untangle.method = Method::Untangle;
  std::size_t moved = 0;
  for (std::uint32_t c = 0; c < colouring.colours; ++c)
    moved += optimizeClass(m, colouring, c, lockedVertices(m, 0), untangle);
  EXPECT_EQ(moved, 0u);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), m.positions.begin(),
                         [](Vec3 a, Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }));
}

TEST(MeshUntangle, TheInspectorSaysWhyAVertexIsInvertedAndWhereItGoes) {
  std::vector<std::uint32_t> pushed;
  SurfaceMesh m(test::tangled(planePatch(12, 0.1f, 7), 1, 7, false, &pushed));
  ASSERT_EQ(pushed.size(), 1u);
  OptimizeParams untangle;
  untangle.method = Method::Untangle;
  const Inspection in = inspectVertex(m.view(), pushed[0], false, untangle, nullptr);
  EXPECT_GT(in.inverted, 0);
  EXPECT_GT(in.worstTurn, 3.0f) << "a folded triangle faces about the other way";
  EXPECT_TRUE(in.move.moved);
  EXPECT_FALSE(in.simplices.empty());
  const std::string text = describe(in, untangle);
  EXPECT_NE(text.find("untangling moves it"), std::string::npos) << text;
  EXPECT_NE(text.find("of its triangles inverted"), std::string::npos) << text;
  // A vertex away from the fold stays while the mesh untangles.
  const Inspection other = inspectVertex(m.view(), 0, false, untangle, nullptr);
  EXPECT_EQ(other.move.outcome, Outcome::NotTangled);
}

}  // namespace
}  // namespace ws::mesh
