// The LBM's 3-D view: marching tetrahedra (closed surfaces, turned outwards, where the level is:
// a sphere, fresh random fields), the quantities the isosurfaces follow (on a flow whose gradient
// is known), and the module's surface view of a cavity with an obstacle.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <random>
#include <vector>

#include "compute/geometry/isosurface.h"
#include "compute/lbm/lbm_engine.h"
#include "compute/lbm/lbm_module.h"
#include "compute/lbm/lbm_scene.h"
#include "tests/lbm_random.h"
#include "tests/test_support.h"

namespace ws::lbm {

using namespace ws::geometry;
namespace {

using Vec = std::array<double, 3>;

Vec position(const std::vector<float>& vertices, std::size_t v) {
  const float* p = &vertices[v * kSurfaceVertexFloats];
  return {p[0], p[1], p[2]};
}
Vec minus(const Vec& a, const Vec& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec& a, const Vec& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
double norm(const Vec& a) {
  return std::sqrt(dot(a, a));
}

// Whether the triangles make closed surfaces turned one way: every edge between two vertices
// (the same to the bit, as edgeVertex promises) is walked once each way. Says the first that is
// not, else "".
std::string openOrMisturnedEdge(const std::vector<float>& vertices) {
  using Key = std::array<std::uint32_t, 3>;
  const auto key = [&](std::size_t v) {
    Key k;
    std::memcpy(k.data(), &vertices[v * kSurfaceVertexFloats], sizeof k);
    return k;
  };
  std::map<std::pair<Key, Key>, int> walked;
  const std::size_t triangles = vertices.size() / (3 * kSurfaceVertexFloats);
  for (std::size_t t = 0; t < triangles; ++t)
    for (int i = 0; i < 3; ++i) ++walked[{key(3 * t + i), key(3 * t + (i + 1) % 3)}];
  for (const auto& [edge, count] : walked) {
    const auto back = walked.find({edge.second, edge.first});
    if (count != 1 || back == walked.end() || back->second != 1)
      return "an edge walked " + std::to_string(count) + " times one way and " +
             std::to_string(back == walked.end() ? 0 : back->second) + " the other";
  }
  return "";
}

// The grid's values interpolated linearly over the tetrahedron of the Freudenthal split that holds
// point p (grid coordinates): the function whose level set marching tetrahedra draws exactly.
// Worked out here another way: the axes sorted by p's place in its cube.
double tetLinear(const ScalarGrid& g, const Vec& p) {
  int base[3];
  double local[3];
  const int size[3] = {g.nx, g.ny, g.nz};
  for (int k = 0; k < 3; ++k) {
    base[k] = std::clamp(int(std::floor(p[k])), 0, size[k] - 2);
    local[k] = p[k] - base[k];
  }
  int order[3] = {0, 1, 2};
  std::sort(order, order + 3, [&](int a, int b) { return local[a] > local[b]; });
  int corner[3] = {base[0], base[1], base[2]};
  const auto value = [&] { return double(g.level[g.point(corner[0], corner[1], corner[2])]); };
  double result = (1 - local[order[0]]) * value();
  for (int k = 0; k < 3; ++k) {
    ++corner[order[k]];
    result += (local[order[k]] - (k < 2 ? local[order[k + 1]] : 0.0)) * value();
  }
  return result;
}

TEST(Isosurface, ASpheresSurfaceIsClosedRoundAndTurnedOutwards) {
  const double radius = 9.3;
  const Vec centre = {13.6, 13.1, 14.2};
  ScalarGrid grid;
  grid.nx = 28, grid.ny = 27, grid.nz = 29;
  std::vector<float> distance(grid.points());
  for (int z = 0; z < grid.nz; ++z)
    for (int y = 0; y < grid.ny; ++y)
      for (int x = 0; x < grid.nx; ++x)
        distance[grid.point(x, y, z)] =
            float(radius - norm(minus({double(x), double(y), double(z)}, centre)));
  grid.level = distance.data();
  const std::vector<float> vertices = isosurfaceOnHost(grid, 0.0f);
  const std::size_t triangles = vertices.size() / (3 * kSurfaceVertexFloats);
  ASSERT_GT(triangles, 1000u);
  EXPECT_EQ(openOrMisturnedEdge(vertices), "");
  double area = 0, volume = 0, worstRadius = 0, worstNormal = 1;
  for (std::size_t t = 0; t < triangles; ++t) {
    const Vec a = minus(position(vertices, 3 * t), centre);
    const Vec b = minus(position(vertices, 3 * t + 1), centre);
    const Vec c = minus(position(vertices, 3 * t + 2), centre);
    const Vec n = cross(minus(b, a), minus(c, a));
    area += norm(n) / 2;
    volume += dot(a, cross(b, c)) / 6;  // positive for each face turned outwards
    for (std::size_t v = 3 * t; v < 3 * t + 3; ++v) {
      const Vec r = minus(position(vertices, v), centre);
      worstRadius = std::max(worstRadius, std::abs(norm(r) - radius));
      const float* normal = &vertices[v * kSurfaceVertexFloats + 4];
      worstNormal = std::min(worstNormal, dot({normal[0], normal[1], normal[2]}, r) / norm(r));
    }
  }
  // Linear interpolation along edges up to sqrt 3 long cuts inside a sphere of radius 9.3 by at
  // most (sqrt 3)^2 / (8 x 9.3) = 0.04 cells; the area and the volume fall short by about that
  // over the radius (0.4%) twice and thrice.
  EXPECT_LT(worstRadius, 0.05);
  EXPECT_NEAR(area / (4 * std::numbers::pi * radius * radius), 1.0, 0.02);
  EXPECT_NEAR(volume / (4.0 / 3 * std::numbers::pi * std::pow(radius, 3)), 1.0, 0.02);
  EXPECT_GT(worstNormal, 0.97) << "each vertex's normal points away from the centre";
}

TEST(Isosurface, FreshRandomFieldsGiveClosedSurfacesAtTheirLevelTurnedOutwards) {
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int trial = 0; trial < 4; ++trial) {
    ScalarGrid grid;
    grid.nx = 6 + int(rng() % 9), grid.ny = 6 + int(rng() % 9), grid.nz = 6 + int(rng() % 9);
    grid.origin[0] = 0.5f, grid.origin[1] = -2, grid.origin[2] = 3;
    std::vector<float> values(grid.points());
    for (int z = 0; z < grid.nz; ++z)
      for (int y = 0; y < grid.ny; ++y)
        for (int x = 0; x < grid.nx; ++x) {
          const bool border = x == 0 || y == 0 || z == 0 || x == grid.nx - 1 || y == grid.ny - 1 ||
                              z == grid.nz - 1;
          values[grid.point(x, y, z)] = border ? 0.0f : unit(rng);  // the border outside: closed
        }
    grid.level = values.data();
    const float level = 0.3f + 0.4f * unit(rng);
    const std::vector<float> vertices = isosurfaceOnHost(grid, level);
    const std::size_t triangles = vertices.size() / (3 * kSurfaceVertexFloats);
    ASSERT_GT(triangles, 0u) << "seed " << seed;
    EXPECT_EQ(openOrMisturnedEdge(vertices), "") << "seed " << seed << ", trial " << trial;
    const Vec origin = {grid.origin[0], grid.origin[1], grid.origin[2]};
    int misplaced = 0, misturned = 0, checked = 0;
    for (std::size_t t = 0; t < triangles; ++t) {
      Vec p[3];
      for (int i = 0; i < 3; ++i) {
        p[i] = minus(position(vertices, 3 * t + i), origin);  // in grid coordinates
        misplaced += std::abs(tetLinear(grid, p[i]) - level) > 1e-4;
      }
      // A step off the middle of the triangle each way, well inside its tetrahedron: not from
      // slivers, whose middle lies too near an edge where another triangle may meet it.
      const Vec n = cross(minus(p[1], p[0]), minus(p[2], p[0]));
      const double longest =
          std::max({norm(minus(p[1], p[0])), norm(minus(p[2], p[1])), norm(minus(p[0], p[2]))});
      if (norm(n) / longest < 1e-2) continue;
      const Vec mid = {(p[0][0] + p[1][0] + p[2][0]) / 3, (p[0][1] + p[1][1] + p[2][1]) / 3,
                       (p[0][2] + p[1][2] + p[2][2]) / 3};
      const double step = 1e-4 / norm(n);
      const Vec out = {mid[0] + step * n[0], mid[1] + step * n[1], mid[2] + step * n[2]};
      const Vec in = {mid[0] - step * n[0], mid[1] - step * n[1], mid[2] - step * n[2]};
      ++checked;
      misturned += !(tetLinear(grid, out) < level && tetLinear(grid, in) > level);
    }
    EXPECT_EQ(misplaced, 0) << "vertices off the level, seed " << seed;
    EXPECT_GT(checked, int(triangles) / 2);
    EXPECT_EQ(misturned, 0) << "of " << checked << " triangles, seed " << seed;
  }
}

TEST(Isosurface, NotFiniteValuesLeaveTheirCubesOut) {
  ScalarGrid grid;
  grid.nx = grid.ny = grid.nz = 4;
  std::vector<float> values(grid.points(), 0.0f);
  values[grid.point(1, 1, 1)] = 1.0f;
  grid.level = values.data();
  const std::size_t around = isosurfaceOnHost(grid, 0.5f).size();
  ASSERT_GT(around, 0u);
  values[grid.point(2, 2, 2)] = NAN;  // in one of the eight cubes around the point
  const std::vector<float> without = isosurfaceOnHost(grid, 0.5f);
  EXPECT_LT(without.size(), around);
  EXPECT_TRUE(
      std::all_of(without.begin(), without.end(), [](float v) { return std::isfinite(v); }));
}

// A flow whose velocity is linear in the position, u = A (x - x0): central and one-sided
// differences both give A itself, so every fluid cell's quantities are known exactly.
TEST(LbmVolume, TheQuantitiesFollowTheVelocityGradient) {
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const Grid g{11, 9, 8};
  double A[3][3];
  for (auto& row : A)
    for (double& a : row) a = 0.002 * unit(rng);
  std::vector<std::uint8_t> flags(g.cells(), kFluid);
  for (std::size_t n = 0; n < g.cells(); ++n)
    if (unit(rng) > 0.85) flags[n] = kWall;
  markNearWalls(g, flags, 0, g.cells());
  std::vector<float> state(g.cells() * 19, 0.0f);
  std::vector<std::array<double, 3>> u(g.cells());
  for (std::size_t n = 0; n < g.cells(); ++n) {
    const double at[3] = {double(n % g.nx) - 5, double(n / g.nx % g.ny) - 4,
                          double(n / g.nx / g.ny) - 3.5};
    for (int i = 0; i < 3; ++i) u[n][i] = A[i][0] * at[0] + A[i][1] * at[1] + A[i][2] * at[2];
    if (isSolid(flags[n])) continue;
    float velocity[3] = {float(u[n][0]), float(u[n][1]), float(u[n][2])}, s[19];
    equilibrium<D3Q19>(1.0f, velocity, s);
    for (int i = 0; i < 19; ++i) state[i * g.cells() + n] = s[i];
  }
  TimingScope step("step", "u", false), view("view", "p", false);
  auto engine = makeCpuEngine(LatticeKind::D3Q19, Variant{}, {&step, &view});
  engine->reshape(g);
  engine->setFlags(flags, 0, flags.size());
  engine->setParams(StepParams{});
  engine->importState(state, 0);
  const double vorticity = std::hypot(A[2][1] - A[1][2], A[0][2] - A[2][0], A[1][0] - A[0][1]);
  double q = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) q -= 0.5 * A[i][j] * A[j][i];
  const auto hasFluidNeighbours = [&](std::size_t n) {
    const int at[3] = {int(n % g.nx), int(n / g.nx % g.ny), int(n / g.nx / g.ny)};
    const int size[3] = {g.nx, g.ny, g.nz};
    const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * g.ny};
    for (int k = 0; k < 3; ++k)
      if (!(at[k] > 0 && !isSolid(flags[n - stride[k]])) &&
          !(at[k] + 1 < size[k] && !isSolid(flags[n + stride[k]])))
        return false;
    return true;
  };
  const double expected[3] = {0, vorticity, q};
  for (int which = 0; which < 3; ++which) {
    const VolumeFields fields = engine->volumeInPlace(VolumeQuantity(which));
    float largest = 0;
    int checked = 0;
    for (std::size_t n = 0; n < g.cells(); ++n) {
      largest = std::max(largest, fields.quantity[n]);
      if (isSolid(flags[n])) {
        EXPECT_EQ(fields.quantity[n], 0.0f);
        EXPECT_EQ(fields.speed[n], 0.0f);
        continue;
      }
      const double speed = std::hypot(u[n][0], u[n][1], u[n][2]);
      EXPECT_NEAR(fields.speed[n], speed, 1e-6) << "cell " << n << ", seed " << seed;
      if (!hasFluidNeighbours(n)) continue;
      ++checked;
      const double want = which == 0 ? speed : expected[which];
      EXPECT_NEAR(fields.quantity[n], want, 2e-6 * (which == 2 ? 0.002 : 1))
          << "quantity " << which << ", cell " << n << ", seed " << seed;
    }
    EXPECT_GT(checked, int(g.cells()) / 2);
    EXPECT_EQ(fields.largest, largest);
  }
}

TEST(LbmSurface, ACavitysIsosurfaceShowsItsFlowAndTheObstacleDrawnInIt) {
  auto module = test::cpuModule({{"lattice", std::string("d3q19")},
                                 {"scene", std::string("cavity")},
                                 {"width", std::int64_t(20)},
                                 {"height", std::int64_t(20)},
                                 {"depth", std::int64_t(16)},
                                 {"tracers", std::int64_t(0)}});
  EXPECT_FALSE(module->surfaceScene()) << "the slice is shown until asked";
  module->setParams({{"display", std::string("isosurface")}, {"iso_level", 0.25}});
  module->step(60);
  const std::optional<SurfaceScene> scene = module->surfaceScene();
  ASSERT_TRUE(scene);
  EXPECT_EQ(scene->value.name, "speed");
  ASSERT_EQ(scene->lines.size(), 1u);
  EXPECT_EQ(scene->lines[0].points.size(), 12u * 2 * 3) << "the box's twelve edges";
  std::vector<float> obstacles;
  module->fixedSurface(obstacles);
  EXPECT_TRUE(obstacles.empty()) << "the cavity's walls are its sides, left out";

  const std::size_t triangles = module->surfaceTriangles();
  ASSERT_GT(triangles, 20u);
  std::vector<float> vertices(triangles * 3 * kSurfaceVertexFloats, NAN);
  SurfaceImage image{vertices.data(), triangles, false};
  module->renderSurface(image);
  const Grid g = module->spec().grid;
  for (std::size_t v = 0; v < 3 * triangles; ++v) {
    const float* p = &vertices[v * kSurfaceVertexFloats];
    ASSERT_TRUE(p[0] >= 0.5f && p[0] <= g.nx - 0.5f && p[1] >= 0.5f && p[1] <= g.ny - 0.5f &&
                p[2] >= 0.5f && p[2] <= g.nz - 0.5f)
        << "vertex " << v << " at " << p[0] << ", " << p[1] << ", " << p[2];
    ASSERT_TRUE(p[3] >= 0 && p[3] < 0.3f) << "its speed, vertex " << v;
  }
  // Under the lid the flow is fastest: the surface of a quarter of the largest speed lies in the
  // cavity's upper part (the lid moves along x at the top, y = ny).
  double meanY = 0;
  for (std::size_t v = 0; v < 3 * triangles; ++v) meanY += vertices[v * kSurfaceVertexFloats + 1];
  EXPECT_GT(meanY / double(3 * triangles), g.ny / 2.0);
  EXPECT_NE(module->notes().find("isosurface of speed"), std::string::npos) << module->notes();

  // A wall drawn into the slice (z half-way) is an obstacle, with a surface of its own; the scene
  // has a new revision, so that the view fetches it.
  PointerEdit draw;
  draw.tool = "draw";
  draw.x = draw.fromX = 10, draw.y = draw.fromY = 10;
  draw.start = true;
  module->setParams({{"display", std::string("slice")}});
  module->edit(draw);
  module->setParams({{"display", std::string("isosurface")}});
  const std::optional<SurfaceScene> drawn = module->surfaceScene();
  ASSERT_TRUE(drawn);
  EXPECT_NE(drawn->revision, scene->revision);
  module->fixedSurface(obstacles);
  const std::size_t obstacleTriangles = obstacles.size() / (3 * kSurfaceVertexFloats);
  ASSERT_GT(obstacleTriangles, 8u);
  for (std::size_t v = 0; v < 3 * obstacleTriangles; ++v) {
    const float* p = &obstacles[v * kSurfaceVertexFloats];
    EXPECT_NEAR(p[2], g.nz / 2.0, 4) << "the brush's disc, in the slice";
  }
  EXPECT_EQ(openOrMisturnedEdge(obstacles), "");
}

TEST(LbmSurface, OnlyA3DLatticeOffersTheIsosurface) {
  auto module = test::cpuModule({{"display", std::string("isosurface")}});
  EXPECT_FALSE(module->surfaceScene()) << "D2Q9";
  EXPECT_FALSE(module->applies("iso_level"));
  module->setParams({{"lattice", std::string("d3q19")},
                     {"width", std::int64_t(12)},
                     {"height", std::int64_t(12)},
                     {"depth", std::int64_t(12)}});
  EXPECT_TRUE(module->surfaceScene());
  EXPECT_TRUE(module->applies("iso_level"));
  EXPECT_FALSE(module->applies("slice")) << "no slice is shown";
}

}  // namespace
}  // namespace ws::lbm
