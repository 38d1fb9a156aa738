// The intersection pipeline on the CPU against known answers (identical, disjoint and nested
// models, and two overlapping spheres whose shared surface has a known share), every lookup
// structure against the others, and the module's intersection workload.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "compute/core/errors.h"
#include "compute/voxhash/voxhash_module.h"
#include "tests/test_support.h"
#include "tests/voxhash_pipeline_random.h"

namespace ws::voxhash {
namespace {

PipelineTimings scratchTimings() {
  static TimingScope scopes[7] = {{"f", "", false}, {"v", "", false}, {"b", "", false},
                                  {"q", "", false}, {"l", "", false}, {"c", "", false},
                                  {"w", "", false}};
  return {&scopes[0], &scopes[1], &scopes[2], &scopes[3], &scopes[4], &scopes[5], &scopes[6]};
}

constexpr int kSide = 96;

// A model pose: scaled by `scale`, moved by (x, 0, 0).
ModelPose at(float x, float scale) {
  ModelPose p;
  p.scale = scale;
  p.offset[0] = x;
  return p;
}

test::FrameResult sphereFrame(float xA, float scaleA, float xB, float scaleB,
                              LookupStructure structure = LookupStructure::Cuckoo) {
  const VoxelGrid grid = sceneGrid(kSide);
  const auto sphere = sampleShape(Shape::Sphere, 1, grid.voxel / 3);
  auto pipeline = makeCpuPipeline(scratchTimings());
  return test::runFrame(*pipeline, sphere, sphere, {at(xA, scaleA), at(xB, scaleB), 7}, grid,
                        structure);
}

std::size_t count(const test::FrameResult& r, VoxelClass c) {
  return std::size_t(std::count(r.classes.begin(), r.classes.end(), std::uint8_t(c)));
}

TEST(VoxhashPipeline, IdenticalModelsAreAllContact) {
  const test::FrameResult r = sphereFrame(0.1f, 1, 0.1f, 1);
  EXPECT_EQ(r.report.voxels[0], r.report.voxels[1]);
  EXPECT_GT(r.report.voxels[0], 1000u);
  EXPECT_EQ(r.report.contact, r.report.voxels[0]);
  EXPECT_EQ(count(r, kContact), r.keys.size());
}

TEST(VoxhashPipeline, DisjointModelsShareNothing) {
  const test::FrameResult r = sphereFrame(-1.1f, 0.6f, 1.1f, 0.6f);
  EXPECT_EQ(r.report.contact, 0u);
  EXPECT_EQ(r.report.aInsideB + r.report.bInsideA, 0u);
  EXPECT_EQ(count(r, kOnlyA), r.report.voxels[0]);
  EXPECT_EQ(count(r, kOnlyB), r.report.voxels[1]);
}

TEST(VoxhashPipeline, ASmallSphereInsideALargeOneIsAllInside) {
  const test::FrameResult r = sphereFrame(0.05f, 0.5f, 0, 1.2f);
  EXPECT_EQ(r.report.aInsideB, r.report.voxels[0]);
  EXPECT_EQ(r.report.contact, 0u);
  EXPECT_EQ(r.report.bInsideA, 0u);
}

TEST(VoxhashPipeline, OverlappingSpheresShareTheirCaps) {
  // Unit spheres with centres 1 apart: each has a cap of height 1/2 inside the other, a quarter
  // of its surface (a cap's area is 2 pi r h). Contact and inside voxels together make it up,
  // within the discretization.
  const test::FrameResult r = sphereFrame(-0.5f, 1, 0.5f, 1);
  const double shareA = double(r.report.aInsideB + r.report.contact) / double(r.report.voxels[0]);
  const double shareB = double(r.report.bInsideA + r.report.contact) / double(r.report.voxels[1]);
  EXPECT_NEAR(shareA, 0.25, 0.03);
  EXPECT_NEAR(shareB, 0.25, 0.03);
  EXPECT_GT(r.report.contact, 0u);
  EXPECT_GT(r.report.aInsideB, r.report.contact);
}

TEST(VoxhashPipeline, EveryLookupStructureGivesTheSameClasses) {
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  const VoxelGrid grid = sceneGrid(80);
  const auto a = sampleShape(Shape::Torus, kSizeA, grid.voxel / 2.6f);
  const auto b = sampleShape(Shape::TorusKnot, kSizeA, grid.voxel / 2.6f * kSizeA / kDefaultSizeB);
  auto pipeline = makeCpuPipeline(scratchTimings());
  for (int trial = 0; trial < 3; ++trial) {
    const FramePoses poses = test::randomPoses(rng);
    const test::FrameResult cuckoo =
        test::runFrame(*pipeline, a, b, poses, grid, LookupStructure::Cuckoo);
    for (LookupStructure s : {LookupStructure::SortedArray, LookupStructure::BitGrid}) {
      const test::FrameResult other = test::runFrame(*pipeline, a, b, poses, grid, s);
      EXPECT_EQ(other.keys, cuckoo.keys) << "seed " << seed;
      EXPECT_EQ(other.classes, cuckoo.classes) << "seed " << seed;
    }
  }
}

// A mesh's samples cover its surface: every point of it lies within `spacing` of one. Random
// triangles in a plane, slivers and obtuse ones among them.
TEST(VoxhashPipeline, MeshSamplesCoverTheSurface) {
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(0, 1);
  io::TriangleMesh m;
  for (int t = 0; t < 6; ++t) {
    for (int k = 0; k < 3; ++k) m.vertices.push_back({4 * unit(rng) - 2, 4 * unit(rng) - 2, 0});
    m.triangles.push_back(
        {std::uint32_t(3 * t), std::uint32_t(3 * t + 1), std::uint32_t(3 * t + 2)});
  }
  // The corners of the bounding square lie outside the mesh, so the scale is the test's to
  // compute too: centred on the vertices' box, the farthest vertex at 1.
  float lo[2] = {1e9f, 1e9f}, hi[2] = {-1e9f, -1e9f};
  for (const auto& v : m.vertices)
    for (int a = 0; a < 2; ++a) lo[a] = std::min(lo[a], v[a]), hi[a] = std::max(hi[a], v[a]);
  const float cx = (lo[0] + hi[0]) / 2, cy = (lo[1] + hi[1]) / 2;
  float radius = 0;
  for (const auto& v : m.vertices) radius = std::max(radius, std::hypot(v[0] - cx, v[1] - cy));
  const float spacing = 0.03f + 0.05f * unit(rng);
  const std::vector<Point> samples = sampleMesh(m, 1, spacing);
  for (const Point& p : samples) ASSERT_NEAR(p.z, 0, 1e-6);
  for (const auto& t : m.triangles)
    for (int trial = 0; trial < 40; ++trial) {
      float s = unit(rng), r = unit(rng);
      if (s + r > 1) s = 1 - s, r = 1 - r;
      const auto &a = m.vertices[t[0]], &b = m.vertices[t[1]], &c = m.vertices[t[2]];
      const float x = (a[0] + s * (b[0] - a[0]) + r * (c[0] - a[0]) - cx) / radius,
                  y = (a[1] + s * (b[1] - a[1]) + r * (c[1] - a[1]) - cy) / radius;
      float nearest = 1e9f;
      for (const Point& p : samples) nearest = std::min(nearest, std::hypot(p.x - x, p.y - y));
      ASSERT_LE(nearest, spacing * 1.0001f) << "at (" << x << ", " << y << "), seed " << seed;
    }
}

// The shipped gear has a bore through it: the flood fill reaches the centre from outside, while
// a cell within the gear's body, between its faces, stays inside. The star's centre is inside.
TEST(VoxhashPipeline, ShippedMeshesHaveAnInsideAndAnOutside) {
  const VoxelGrid grid = sceneGrid(64);
  auto cellAt = [&](float x, float y, float z) {
    std::uint32_t key = 0;
    EXPECT_TRUE(voxelOf(grid, x, y, z, key));
    return cellOf(grid, key);
  };
  const auto gear = voxelize(sampleModel("gear", kSizeA, grid.voxel / 2.6f), grid);
  const auto gearOutside = outsideOf(gear, grid);
  EXPECT_EQ(gearOutside[cellAt(0.01f, 0.01f, 0.01f)], 1);
  EXPECT_EQ(gearOutside[cellAt(0.6f, 0.01f, 0.01f)], 0);
  EXPECT_FALSE(std::binary_search(gear.begin(), gear.end(),
                                  packVoxel(int((0.6f + 2) / grid.voxel), 32, 32)));
  const auto star = voxelize(sampleModel("star", kSizeA, grid.voxel / 2.6f), grid);
  EXPECT_EQ(outsideOf(star, grid)[cellAt(0.01f, 0.01f, 0.01f)], 0);
  EXPECT_EQ(sampleModel("spring", kSizeA, grid.voxel / 2.6f).empty(), false);
}

// A mesh file sampled again gives the same cloud; changed on disk, it is read again: another
// mesh gives another cloud, and a file broken since is refused rather than served from before.
TEST(VoxhashPipeline, AMeshFileChangedOnDiskIsReadAgain) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("warpscope-mesh-" + std::to_string(ws::test::freshSeed()) + ".obj");
  std::ofstream(path) << "v 1 1 1\nv 1 -1 -1\nv -1 1 -1\nv -1 -1 1\n"
                         "f 1 2 3\nf 1 4 2\nf 1 3 4\nf 2 4 3\n";
  const std::vector<Point> tetrahedron = sampleModel(path.string(), 1, 0.05f);
  ASSERT_FALSE(tetrahedron.empty());
  EXPECT_EQ(sampleModel(path.string(), 1, 0.05f), tetrahedron);
  EXPECT_NE(sampleModel(path.string(), 1, 0.1f), tetrahedron);  // another spacing
  std::ofstream(path) << "v 1 0 0\nv -1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nv 0 0 -1\n"
                         "f 1 3 5\nf 3 2 5\nf 2 4 5\nf 4 1 5\nf 3 1 6\nf 2 3 6\nf 4 2 6\n"
                         "f 1 4 6\n";
  const std::vector<Point> octahedron = sampleModel(path.string(), 1, 0.05f);
  EXPECT_NE(octahedron, tetrahedron);
  EXPECT_EQ(octahedron, sampleMesh(io::loadMesh(path.string()), 1, 0.05f));
  std::ofstream(path) << "v 0 0 0\nf 1 2 3\n";
  EXPECT_THROW(sampleModel(path.string(), 1, 0.05f), InputError);
  std::filesystem::remove(path);
}

TEST(VoxhashModule, MeshModelsLoadAndBadFilesChangeNothing) {
  VoxhashModule m(Backend::Cpu);
  m.setSize("48^3");
  m.setParams({{"model_a", std::string("gear")}, {"model_b", std::string("spring")}});
  m.step(3);
  std::vector<std::uint32_t> before, after;
  std::vector<std::uint8_t> classes;
  m.frameResult(before, classes);
  ASSERT_FALSE(before.empty());

  const auto bad = std::filesystem::temp_directory_path() /
                   ("warpscope-bad-" + std::to_string(ws::test::freshSeed()) + ".obj");
  std::ofstream(bad) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n";
  try {
    m.setParam("model_a", bad.string());
    ADD_FAILURE() << "a malformed mesh was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string() + ":4:7: face vertex index 9"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(bad);
  EXPECT_THROW(m.setParam("model_b", std::string("no-such-model")), InputError);
  EXPECT_THROW(m.setParam("model_b", std::string("README.md")), InputError);
  EXPECT_EQ(m.params().getText("model_a"), "gear");
  EXPECT_EQ(m.params().getText("model_b"), "spring");
  m.frameResult(after, classes);
  EXPECT_EQ(after, before);
  EXPECT_EQ(m.stepCount(), 3u);
}

TEST(VoxhashModule, TheIntersectionWorkloadAnimatesAndShowsItsVoxels) {
  VoxhashModule m(Backend::Cpu);
  m.setSize("48^3");
  EXPECT_EQ(m.params().getInt("resolution"), 48);
  ASSERT_TRUE(m.voxelScene());
  std::vector<std::uint32_t> keys0, keys1;
  std::vector<std::uint8_t> classes;
  m.frameResult(keys0, classes);
  m.step(30);
  m.frameResult(keys1, classes);
  EXPECT_NE(keys0, keys1);  // the models moved
  std::vector<unsigned> words(2 * m.voxelCount());
  VoxelImage image{words.data(), m.voxelCount(), false};
  m.renderVoxels(image);
  for (std::size_t i = 0; i < keys1.size(); ++i) EXPECT_EQ(words[2 * i], keys1[i]);
  EXPECT_FALSE(m.histograms().empty());

  // Refused: the state stays the step-30 frame.
  EXPECT_THROW(m.setParam("resolution", std::int64_t(2000)), InputError);
  EXPECT_THROW(
      m.setParams(
          {{"functions", std::int64_t(2)}, {"size_factor", 1.02}, {"attempts", std::int64_t(1)}}),
      InputError);
  std::vector<std::uint32_t> keys2;
  m.frameResult(keys2, classes);
  EXPECT_EQ(keys2, keys1);
  EXPECT_EQ(m.stepCount(), 30u);
  EXPECT_THROW(m.setSize("big"), InputError);
}

}  // namespace
}  // namespace ws::voxhash
