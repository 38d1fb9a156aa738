// The voxel intersection pipeline on the CPU: voxelization, the flood fill, and the classes of
// two models' voxels against known answers (identical, disjoint, nested and overlapping spheres)
// and against dense occupancy grids.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "compute/core/errors.h"
#include "compute/voxhash/intersect.h"

namespace ws::voxhash {
namespace {

// A 64^3 grid of unit voxels centred on the origin.
VoxelGrid grid64() {
  VoxelGrid g;
  g.side = 64;
  g.voxel = 1;
  g.origin[0] = g.origin[1] = g.origin[2] = -32;
  return g;
}

std::vector<std::uint32_t> sphereVoxels(float radius, float cx, const VoxelGrid& g) {
  const float offset[3] = {cx, 0.3f, -0.2f};  // off the cell boundaries
  return voxelize(placed(sampleShape(Shape::Sphere, radius, 0.25f), 1, offset), g);
}

TEST(Voxelize, EveryPointsCellOnceAndPointsOutsideDropped) {
  const VoxelGrid g = grid64();
  const std::vector<Point> points = {{0.5f, 0.5f, 0.5f}, {0.7f, 0.2f, 0.9f}, {-31.5f, 3, 3},
                                     {40, 0, 0},         {0, -33, 0},        {31.99f, 31.99f, 0}};
  const std::vector<std::uint32_t> keys = voxelize(points, g);
  // Sorted by key: z, then y, then x.
  EXPECT_EQ(keys, (std::vector<std::uint32_t>{packVoxel(32, 32, 32), packVoxel(63, 63, 32),
                                              packVoxel(0, 35, 35)}));
  int x, y, z;
  unpackVoxel(packVoxel(1023, 5, 1000), x, y, z);
  EXPECT_EQ(x, 1023);
  EXPECT_EQ(y, 5);
  EXPECT_EQ(z, 1000);
}

TEST(Voxelize, EveryShapeMakesAClosedShell) {
  const VoxelGrid g = grid64();
  const float origin[3] = {0.1f, 0.2f, 0.3f};
  for (const char* name : {"sphere", "torus", "torus-knot", "box"}) {
    const auto shell = voxelize(placed(sampleShape(parseShape(name), 20, 0.4f), 1, origin), g);
    const std::vector<std::uint8_t> outside = outsideOf(shell, g);
    const std::size_t out = std::count(outside.begin(), outside.end(), 1);
    // Closed: some cells are neither outside nor shell. The centre of a sphere or box is inside,
    // and a point beyond the shape is outside.
    EXPECT_GT(g.cells() - out - shell.size(), 0u) << name;
    EXPECT_EQ(outside[g.index(0, 0, 0)], 1) << name;
  }
  EXPECT_THROW(parseShape("cone"), InputError);
  EXPECT_THROW(sampleShape(Shape::Sphere, 10, 0), InputError);
  EXPECT_THROW(sampleShape(Shape::Sphere, 10, 1e-4f), InputError);  // too many points
}

TEST(FloodFill, ASphereIsInsideWithinAVoxelOfItsRadius) {
  const VoxelGrid g = grid64();
  const float r = 20;
  const std::vector<std::uint32_t> shell = sphereVoxels(r, 0.1f, g);
  const std::vector<std::uint8_t> outside = outsideOf(shell, g);
  for (int z = 0; z < g.side; ++z)
    for (int y = 0; y < g.side; ++y)
      for (int x = 0; x < g.side; ++x) {
        const float dx = x + 0.5f - 32 - 0.1f, dy = y + 0.5f - 32 - 0.3f, dz = z + 0.5f - 32 + 0.2f;
        const float d = std::sqrt(dx * dx + dy * dy + dz * dz);
        if (d < r - 1) ASSERT_EQ(outside[g.index(x, y, z)], 0) << x << " " << y << " " << z;
        if (d > r + 1) ASSERT_EQ(outside[g.index(x, y, z)], 1) << x << " " << y << " " << z;
      }
}

TEST(Intersect, IdenticalModelsTouchEverywhere) {
  const VoxelGrid g = grid64();
  const auto a = sphereVoxels(15, 0, g);
  const Intersection r = intersect(a, a, g, CuckooParams{}, 1);
  EXPECT_EQ(r.contact, a.size());
  EXPECT_EQ(std::count(r.classOfB.begin(), r.classOfB.end(), kContact), std::ptrdiff_t(a.size()));
  EXPECT_EQ(r.aInsideB + r.bInsideA, 0u);
}

TEST(Intersect, DisjointModelsShareNothing) {
  const VoxelGrid g = grid64();
  const Intersection r =
      intersect(sphereVoxels(8, -15, g), sphereVoxels(8, 15, g), g, CuckooParams{}, 2);
  EXPECT_EQ(r.contact + r.aInsideB + r.bInsideA, 0u);
}

TEST(Intersect, ASmallSphereInsideALargeOneIsAllInside) {
  const VoxelGrid g = grid64();
  const auto small = sphereVoxels(6, 2, g), large = sphereVoxels(25, 0, g);
  const Intersection r = intersect(small, large, g, CuckooParams{}, 3);
  EXPECT_EQ(r.aInsideB, small.size());
  EXPECT_EQ(r.contact, 0u);
  EXPECT_EQ(r.bInsideA, 0u);
}

TEST(Intersect, ContactIsTheAndOfDenseGridsAndSymmetric) {
  const VoxelGrid g = grid64();
  const auto a = sphereVoxels(14, -6, g), b = sphereVoxels(12, 7, g);
  const Intersection r = intersect(a, b, g, CuckooParams{}, 4);
  std::vector<std::uint8_t> dense(g.cells(), 0);
  for (std::uint32_t key : a) dense[cellOf(g, key)] |= 1;
  for (std::uint32_t key : b) dense[cellOf(g, key)] |= 2;
  const std::size_t both = std::count(dense.begin(), dense.end(), 3);
  EXPECT_GT(both, 0u);
  EXPECT_EQ(r.contact, both);
  EXPECT_EQ(std::size_t(std::count(r.classOfB.begin(), r.classOfB.end(), kContact)), both);
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(r.classOfA[i] == kContact, dense[cellOf(g, a[i])] == 3);
  EXPECT_GT(r.aInsideB, 0u);
  EXPECT_GT(r.bInsideA, 0u);
}

TEST(Intersect, OverlappingSpheresEncloseTheLensVolume) {
  const VoxelGrid g = grid64();
  const float radius = 16, distance = 12;
  const auto a = sphereVoxels(radius, -distance / 2, g), b = sphereVoxels(radius, distance / 2, g);
  const auto outA = outsideOf(a, g), outB = outsideOf(b, g);
  std::vector<std::uint8_t> shellA(g.cells(), 0), shellB(g.cells(), 0);
  for (std::uint32_t key : a) shellA[cellOf(g, key)] = 1;
  for (std::uint32_t key : b) shellB[cellOf(g, key)] = 1;
  // Cells strictly inside both fills lie in the lens; cells inside or on both shells cover it.
  std::size_t strictly = 0, covering = 0;
  for (std::size_t c = 0; c < g.cells(); ++c) {
    strictly += !outA[c] && !shellA[c] && !outB[c] && !shellB[c];
    covering += !outA[c] && !outB[c];
  }
  const double lens = std::numbers::pi * (4 * radius + distance) *
                      std::pow(2 * radius - distance, 2) / 12;  // in voxels
  EXPECT_LT(double(strictly), lens);
  EXPECT_GT(double(covering), lens);
  EXPECT_NEAR((strictly + covering) / 2.0, lens, 0.1 * lens);
}

}  // namespace
}  // namespace ws::voxhash
