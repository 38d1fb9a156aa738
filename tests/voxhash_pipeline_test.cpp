// The intersection pipeline on the CPU against known answers (identical, disjoint and nested
// models, and two overlapping spheres whose shared surface has a known share), every lookup
// structure against the others, and the module's intersection workload.
#include <gtest/gtest.h>

#include <algorithm>

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
  const auto b = sampleShape(Shape::TorusKnot, kSizeA, grid.voxel / 2.6f * kSizeA / kSizeB);
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
