// The intersection pipeline on the GPU against the CPU, on fresh random placements of every
// shape: the same voxel keys, the same flood fill, the same classes. Skips without a GPU.
#include <gtest/gtest.h>

#include <random>

#include "compute/voxhash/intersect_cuda.h"
#include "tests/test_support.h"

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

}  // namespace
}  // namespace ws::voxhash
