// The intersection pipeline on the GPU against the CPU, on fresh random placements of every
// shape: the same voxel keys, the same flood fill, the same classes. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "compute/voxhash/fill_cuda.h"
#include "compute/voxhash/intersect_cuda.h"
#include "compute/voxhash/voxhash_module.h"
#include "tests/test_support.h"
#include "tests/voxhash_pipeline_random.h"

namespace ws::voxhash {
namespace {

TEST(VoxhashCuda, VoxelsFillsAndClassesMatchTheCpu) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> jitter(-6, 6), size(6, 18);
  for (int side : {64, 50}) {
    VoxelGrid g;
    g.side = side;
    g.origin[0] = g.origin[1] = g.origin[2] = -side / 2.0f;
    for (const char* a : {"sphere", "torus", "torus-knot", "box"})
      for (const char* b : {"sphere", "torus-knot"}) {
        const float offsetA[3] = {jitter(rng), jitter(rng), jitter(rng)},
                    offsetB[3] = {jitter(rng), jitter(rng), jitter(rng)};
        const auto pointsA = placed(sampleShape(parseShape(a), size(rng), 0.4f), 1, offsetA);
        const auto pointsB = placed(sampleShape(parseShape(b), size(rng), 0.4f), 1, offsetB);
        const std::string what = std::string(a) + " and " + b + " on " + std::to_string(side) +
                                 "^3, seed " + std::to_string(seed);
        const auto keysA = voxelize(pointsA, g), keysB = voxelize(pointsB, g);
        ASSERT_EQ(voxelizeOnGpu(pointsA, g), keysA) << what;
        ASSERT_EQ(voxelizeOnGpu(pointsB, g), keysB) << what;
        EXPECT_EQ(outsideOfOnGpu(keysA, g), outsideOf(keysA, g)) << what;
        const Intersection cpu = intersect(keysA, keysB, g, CuckooParams{}, seed);
        const Intersection gpu = intersectOnGpu(keysA, keysB, g, CuckooParams{}, seed);
        EXPECT_EQ(gpu.classOfA, cpu.classOfA) << what;
        EXPECT_EQ(gpu.classOfB, cpu.classOfB) << what;
      }
  }
}

// Random walls in a random part of the grid: at these densities the outside winds through them,
// so the fill needs many passes, each turn of a path one more.
TEST(VoxhashCuda, TheFloodFillMatchesBreadthFirstSearchInRandomMazes) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  int mostPasses = 0;
  for (int side : {40, 75}) {
    VoxelGrid g;
    g.side = side;
    for (double density : {0.2, 0.45, 0.6}) {
      std::uniform_int_distribution<int> corner(0, side / 3), extent(side / 3, 2 * side / 3);
      const int lo[3] = {corner(rng), corner(rng), corner(rng)},
                size[3] = {extent(rng), extent(rng), extent(rng)};
      std::bernoulli_distribution wall(density);
      std::vector<std::uint32_t> shell;
      for (int z = lo[2]; z < lo[2] + size[2]; ++z)
        for (int y = lo[1]; y < lo[1] + size[1]; ++y)
          for (int x = lo[0]; x < lo[0] + size[0]; ++x)
            if (wall(rng)) shell.push_back(packVoxel(x, y, z));
      std::shuffle(shell.begin(), shell.end(), rng);  // the fill takes keys in any order
      int passes = 0;
      EXPECT_EQ(outsideOfOnGpu(shell, g, &passes), outsideOf(shell, g))
          << side << "^3, wall density " << density << ", seed " << seed;
      EXPECT_GE(passes, 3);
      mostPasses = std::max(mostPasses, passes);
    }
  }
  EXPECT_GT(mostPasses, 6) << "seed " << seed;  // the mazes did need turns
  VoxelGrid g;
  g.side = 8;
  EXPECT_EQ(outsideOfOnGpu({}, g), std::vector<std::uint8_t>(g.cells(), 1));
  EXPECT_EQ(outsideOfOnGpu({packVoxel(7, 0, 3)}, g), outsideOf({packVoxel(7, 0, 3)}, g));
}

TEST(VoxhashCuda, TheFramePipelineMatchesTheCpuForEveryLookupStructure) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  TimingScope scopes[14] = {{"f", "", false}, {"v", "", false}, {"b", "", false}, {"q", "", false},
                            {"l", "", false}, {"c", "", false}, {"w", "", false}, {"f", "", true},
                            {"v", "", true},  {"b", "", true},  {"q", "", true},  {"l", "", true},
                            {"c", "", true},  {"w", "", true}};
  auto cpu = makeCpuPipeline(
      {&scopes[0], &scopes[1], &scopes[2], &scopes[3], &scopes[4], &scopes[5], &scopes[6]});
  auto gpu = makeCudaPipeline(
      {&scopes[7], &scopes[8], &scopes[9], &scopes[10], &scopes[11], &scopes[12], &scopes[13]}, 64);
  const char* shapes[] = {"sphere", "torus", "torus-knot", "box"};
  for (int side : {72, 101}) {
    const VoxelGrid grid = sceneGrid(side);
    const auto a = sampleShape(parseShape(shapes[rng() % 4]), kSizeA, grid.voxel / 2.6f);
    const auto b = sampleShape(parseShape(shapes[rng() % 4]), kSizeA,
                               grid.voxel / 2.6f * kSizeA / kDefaultSizeB);
    for (int trial = 0; trial < 2; ++trial) {
      const FramePoses poses = test::randomPoses(rng);
      for (LookupStructure s :
           {LookupStructure::Cuckoo, LookupStructure::SortedArray, LookupStructure::BitGrid}) {
        const std::string what = std::to_string(side) + "^3, structure " + std::to_string(int(s)) +
                                 ", seed " + std::to_string(seed);
        const test::FrameResult expected = test::runFrame(*cpu, a, b, poses, grid, s);
        const test::FrameResult got = test::runFrame(*gpu, a, b, poses, grid, s);
        ASSERT_EQ(got.keys, expected.keys) << what;
        EXPECT_EQ(got.classes, expected.classes) << what;
        EXPECT_EQ(got.report.contact, expected.report.contact) << what;
        EXPECT_EQ(got.report.aInsideB, expected.report.aInsideB) << what;
        EXPECT_EQ(got.report.bInsideA, expected.report.bInsideA) << what;
        EXPECT_GT(got.report.voxels[0], 0u) << what;
      }
    }
  }
}

TEST(VoxhashCuda, TheModuleDrawsTheSameVoxelsOnBothBackends) {
  WS_REQUIRE_GPU();
  std::vector<unsigned> words[2];
  int i = 0;
  for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
    VoxhashModule m(backend);
    m.setSize("64^3");
    m.setParam("deform", std::string("twist"));
    m.step(17);
    words[i].resize(2 * m.voxelCount());
    VoxelImage image{words[i].data(), m.voxelCount(), false};
    m.renderVoxels(image);
    ++i;
  }
  EXPECT_FALSE(words[0].empty());
  EXPECT_EQ(words[0], words[1]);
}

}  // namespace
}  // namespace ws::voxhash
