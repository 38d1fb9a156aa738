// Obstacles from meshes in a 3-D lattice: the cells inside a box and inside fresh random spheres,
// nothing from an open mesh, placement and its checks, and the module's channel flow past one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>

#include "compute/core/errors.h"
#include "compute/lbm/lbm_mesh_obstacle.h"
#include "compute/lbm/lbm_module.h"
#include "tests/lbm_random.h"
#include "tests/test_support.h"

namespace ws::lbm {
namespace {

// A box from lo to hi, its faces turned outwards; without its top (z = hi) when `open`.
io::TriangleMesh box(float lo, float hi, bool open = false) {
  io::TriangleMesh mesh;
  for (int c = 0; c < 8; ++c)
    mesh.vertices.push_back({c & 1 ? hi : lo, c & 2 ? hi : lo, c & 4 ? hi : lo});
  mesh.triangles = {{0, 2, 1}, {1, 2, 3}, {0, 1, 4}, {1, 5, 4}, {0, 4, 2},
                    {2, 4, 6}, {1, 3, 5}, {3, 7, 5}, {2, 6, 3}, {3, 6, 7}};
  if (!open) mesh.triangles.insert(mesh.triangles.end(), {{4, 5, 6}, {5, 7, 6}});
  return mesh;
}

// A UV sphere of radius r about c, in `rings` x 2 `rings` quads.
io::TriangleMesh sphere(const std::array<double, 3>& c, double r, int rings) {
  io::TriangleMesh mesh;
  const int segments = 2 * rings;
  mesh.vertices.push_back({float(c[0]), float(c[1]), float(c[2] - r)});  // south pole
  for (int i = 1; i < rings; ++i) {
    const double theta = std::numbers::pi * i / rings;
    for (int j = 0; j < segments; ++j) {
      const double phi = 2 * std::numbers::pi * j / segments;
      mesh.vertices.push_back({float(c[0] + r * std::sin(theta) * std::cos(phi)),
                               float(c[1] + r * std::sin(theta) * std::sin(phi)),
                               float(c[2] - r * std::cos(theta))});
    }
  }
  mesh.vertices.push_back({float(c[0]), float(c[1]), float(c[2] + r)});  // north pole
  const auto at = [&](int ring, int j) {
    return std::uint32_t(1 + (ring - 1) * segments + j % segments);
  };
  const auto north = std::uint32_t(mesh.vertices.size() - 1);
  for (int j = 0; j < segments; ++j) {
    mesh.triangles.push_back({0, at(1, j + 1), at(1, j)});
    for (int i = 1; i + 1 < rings; ++i) {
      mesh.triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j)});
      mesh.triangles.push_back({at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)});
    }
    mesh.triangles.push_back({at(rings - 1, j), at(rings - 1, j + 1), north});
  }
  return mesh;
}

std::size_t countInside(const std::vector<std::uint8_t>& inside) {
  return std::size_t(std::count(inside.begin(), inside.end(), 1));
}

TEST(LbmMeshObstacle, ABoxFillsExactlyTheCellsWhoseCentresItHolds) {
  const Grid g{20, 18, 16};
  // Placed with its largest side 8 cells long about (10, 9, 8): from (6, 5, 4) to (14, 13, 12).
  const io::TriangleMesh placed = placeMesh(box(-1, 1), {10, 9, 8, 8});
  const std::vector<std::uint8_t> inside = voxelizeMesh(placed, g);
  EXPECT_EQ(countInside(inside), 8u * 8 * 8);
  for (std::size_t n = 0; n < g.cells(); ++n) {
    const int x = int(n % g.nx), y = int(n / g.nx % g.ny), z = int(n / g.nx / g.ny);
    const bool expected = x >= 6 && x < 14 && y >= 5 && y < 13 && z >= 4 && z < 12;
    ASSERT_EQ(inside[n], expected) << "cell " << x << ", " << y << ", " << z;
  }
}

TEST(LbmMeshObstacle, FreshRandomSpheresHoldTheCellsWithinTheirRadius) {
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Grid g{40, 36, 32};
  for (int trial = 0; trial < 3; ++trial) {
    const double r = 6 + 6 * unit(rng);
    const std::array<double, 3> c = {13 + 14 * unit(rng), 13 + 10 * unit(rng), 13 + 6 * unit(rng)};
    // 48 rings: the facets lie inside the sphere, the farthest from it the middle of a quad's
    // diagonal, r (1 - cos(sqrt 2 pi / 96)) = 0.0011 r in.
    const std::vector<std::uint8_t> inside = voxelizeMesh(sphere(c, r, 48), g);
    int wrong = 0;
    for (std::size_t n = 0; n < g.cells(); ++n) {
      const double dx = n % g.nx + 0.5 - c[0], dy = n / g.nx % g.ny + 0.5 - c[1],
                   dz = double(n / g.nx / g.ny) + 0.5 - c[2];
      const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
      if (d < r * (1 - 0.0015) || d > r + 1e-4) wrong += inside[n] != (d < r);
    }
    EXPECT_EQ(wrong, 0) << "cells clearly in or out, seed " << seed << ", trial " << trial;
    const double volume = 4.0 / 3 * std::numbers::pi * r * r * r;
    EXPECT_NEAR(double(countInside(inside)) / volume, 1.0, 0.06) << "seed " << seed;
  }
}

TEST(LbmMeshObstacle, AnOpenMeshLeavesNoStreaks) {
  const Grid g{16, 16, 16};
  // Without its top, every line through the box crosses only its bottom: nothing is inside.
  EXPECT_EQ(countInside(voxelizeMesh(placeMesh(box(-1, 1, true), {8, 8, 8, 6}), g)), 0u);
}

TEST(LbmMeshObstacle, PlacementsAreCheckedAndAFlatMeshRefused) {
  EXPECT_FALSE(parseMeshPlacement(""));
  const MeshPlacement at = *parseMeshPlacement("10, 20.5,30,4");
  EXPECT_EQ(at.y, 20.5);
  EXPECT_EQ(at.size, 4);
  for (const char* bad : {"1,2,3", "1,2,3,0.5", "1,2,3,4,5", "a,b,c,d", "-1,2,3,4", "1,2,3,1e9"})
    EXPECT_THROW(parseMeshPlacement(bad), InputError) << bad;
  io::TriangleMesh point;
  point.vertices = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  point.triangles = {{0, 1, 2}};
  EXPECT_THROW(placeMesh(point, {5, 5, 5, 4}), InputError);
}

TEST(LbmMeshObstacle, TheChannelFlowsPastAShippedMeshAndMeasuresItsForce) {
  auto module = test::cpuModule({{"lattice", std::string("d3q19")},
                                 {"width", std::int64_t(48)},
                                 {"height", std::int64_t(24)},
                                 {"depth", std::int64_t(24)},
                                 {"tracers", std::int64_t(0)}});
  const std::size_t cylinderWalls =
      std::size_t(std::count(module->flags().begin(), module->flags().end(), kWall));
  module->setParams({{"obstacle_mesh", std::string("rough-sphere")},
                     {"obstacle_place", std::string("12,12,12,8")}});
  EXPECT_NE(module->notes().find("obstacle size"), std::string::npos) << module->notes();
  EXPECT_NEAR(module->flow().length, 8, 1e-12) << "the Reynolds number's length";
  // The walls now: the channel's top and bottom and the sphere, no cylinder.
  const Grid g = module->spec().grid;
  std::size_t sphereCells = 0;
  for (std::size_t n = 0; n < g.cells(); ++n) {
    const int y = int(n / g.nx % g.ny);
    sphereCells += (module->flags()[n] & kTypeMask) == kWall && y != 0 && y != g.ny - 1;
  }
  EXPECT_GT(sphereCells, 150u);  // (pi / 6) 8^3 = 268 for a smooth sphere
  EXPECT_LT(sphereCells, 400u);
  EXPECT_LT(sphereCells, cylinderWalls);
  module->step(60);
  ASSERT_FALSE(module->bodies().empty());
  EXPECT_EQ(module->bodies()[0], "obstacle 1");
  const FlowSeries& series = module->series();
  ASSERT_GT(series.rows(), 0u);
  EXPECT_GT(series.value(series.rows() - 1, 0), 0) << "the flow pushes the sphere downstream";

  // A mesh that is not there, or one that cannot be read, changes nothing.
  const std::uint64_t steps = module->stepCount();
  const std::vector<std::uint8_t> flags = module->flags();
  EXPECT_THROW(module->setParams({{"obstacle_mesh", std::string("no-such-mesh")}}), InputError);
  const std::string bad = ::testing::TempDir() + "/not-a-mesh.obj";
  {
    std::ofstream out(bad);
    out << "v 0 0 0\nv 1 0 0\nf 1 2 7\n";
  }
  EXPECT_THROW(module->setParams({{"obstacle_mesh", bad}}), InputError);
  EXPECT_THROW(module->setParams({{"obstacle_place", std::string("1,2,3")}}), InputError);
  EXPECT_EQ(module->stepCount(), steps);
  EXPECT_EQ(module->flags(), flags);
  EXPECT_EQ(module->params().getText("obstacle_mesh"), "rough-sphere");
}

}  // namespace
}  // namespace ws::lbm
