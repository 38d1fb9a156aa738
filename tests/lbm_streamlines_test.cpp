// The LBM's streamlines: straight along a uniform flow and stopping at the lattice's end and at a
// wall, round a rotating flow, none in still water, and on fresh random flows everywhere tangent
// to the flow, half a cell a step, in the fluid; the module's 3-D view with them.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "compute/lbm/lbm_module.h"
#include "compute/lbm/streamlines.h"
#include "tests/lbm_random.h"
#include "tests/test_support.h"

namespace ws::lbm {
namespace {

// Moments with the velocity `flow` gives at each cell centre, density 1; walls where `wall` says.
std::vector<PlaneSample> momentsOf(
    const Grid& g, const std::function<std::array<float, 3>(float, float, float)>& flow,
    const std::function<bool(int, int, int)>& wall = nullptr) {
  std::vector<PlaneSample> moments(g.cells());
  for (int z = 0; z < g.nz; ++z)
    for (int y = 0; y < g.ny; ++y)
      for (int x = 0; x < g.nx; ++x) {
        const auto u = flow(x + 0.5f, y + 0.5f, z + 0.5f);
        moments[(std::size_t(z) * g.ny + y) * g.nx + x] = {wall && wall(x, y, z) ? NAN : 1.0f,
                                                           {u[0], u[1], u[2]}};
      }
  return moments;
}

struct Traced {
  std::vector<float> vertices;
  StreamSpec spec;
  // Segment s of line `line`: its two vertices.
  const float* segment(int line, int s) const {
    return &vertices[(std::size_t(line) * (spec.points - 1) + s) * 2 * kLineVertexFloats];
  }
  bool drawn(int line, int s) const { return segment(line, s)[3] >= 0; }
  int drawnCount(int line) const {
    int n = 0;
    for (int s = 0; s < spec.points - 1; ++s) n += drawn(line, s);
    return n;
  }
};

Traced trace(const std::vector<PlaneSample>& moments, const Grid& g, StreamSpec spec) {
  TimingScope timing("streamlines", "points/s", false, 0);
  Traced t{std::vector<float>(spec.segments() * 2 * kLineVertexFloats, NAN), spec};
  makeCpuStreamlines(timing)->trace({moments.data(), g}, spec, t.vertices.data(), false);
  EXPECT_EQ(timing.stats().samples, 1) << "timed";
  return t;
}

TEST(Streamlines, AlongAUniformFlowTheyAreStraightAndStopAtTheLatticesEndOrAWall) {
  const Grid g{16, 8, 6};
  const auto uniform = [](float, float, float) { return std::array<float, 3>{0.05f, 0, 0}; };
  StreamSpec spec{20, 61, true};  // room for 30 cells: more than the lattice's length
  const Traced t = trace(momentsOf(g, uniform), g, spec);
  for (int line = 0; line < spec.lines; ++line) {
    // From x = 1.5 to the last point before x = 16, half a cell apart: 28 segments.
    ASSERT_EQ(t.drawnCount(line), 28) << "line " << line;
    const float* first = t.segment(line, 0);
    EXPECT_EQ(first[0], 1.5f);
    for (int s = 0; s < 28; ++s) {
      const float* v = t.segment(line, s);
      EXPECT_NEAR(v[kLineVertexFloats] - v[0], 0.5f, 1e-5f) << "line " << line << ", segment " << s;
      EXPECT_EQ(v[1], first[1]);
      EXPECT_EQ(v[2], first[2]);
      EXPECT_NEAR(v[3], 0.05f, 1e-7f) << "its colour shows the speed";
      EXPECT_TRUE(t.drawn(line, s)) << "drawn segments come first";
    }
  }
  // Seeds spread over the inlet: no two lines on one spot, and both halves of the plane used.
  int upper = 0;
  for (int line = 0; line < spec.lines; ++line) {
    upper += t.segment(line, 0)[1] > g.ny / 2.0f;
    for (int other = 0; other < line; ++other)
      EXPECT_GT(std::hypot(t.segment(line, 0)[1] - t.segment(other, 0)[1],
                           t.segment(line, 0)[2] - t.segment(other, 0)[2]),
                0.3f);
  }
  EXPECT_GT(upper, 5);
  EXPECT_LT(upper, 15);

  // A wall across the channel at x = 9: every line ends in front of it.
  const Traced walled =
      trace(momentsOf(g, uniform, [](int x, int, int) { return x == 9; }), g, spec);
  for (int line = 0; line < spec.lines; ++line) {
    const int drawn = walled.drawnCount(line);
    ASSERT_GT(drawn, 0);
    const float end = walled.segment(line, drawn - 1)[kLineVertexFloats];
    EXPECT_LT(end, 9.0f);
    EXPECT_GT(end, 8.0f) << "it runs up to the wall";
  }
}

TEST(Streamlines, RoundARotatingFlowTheyAreCirclesAndRunBothWaysFromTheirSeeds) {
  const Grid g{24, 24, 8};
  const float c = 12;  // the axis: x = y = 12, along z
  const auto rotation = [&](float x, float y, float) {
    return std::array<float, 3>{-0.01f * (y - c), 0.01f * (x - c), 0};
  };
  // 200 cells of line: round a circle of radius up to 11 about three times.
  const StreamSpec spec{64, 401, false};
  const Traced t = trace(momentsOf(g, rotation), g, spec);
  const int upstream = (spec.points - 1) / 2;
  int checked = 0;
  for (int line = 0; line < spec.lines; ++line) {
    if (!t.drawn(line, upstream)) continue;  // a seed on the axis, where the flow stands still
    const float* seed = t.segment(line, upstream);
    const float radius = std::hypot(seed[0] - c, seed[1] - c);
    if (radius > 12.0f) {  // a circle that leaves the lattice: cut at its sides
      EXPECT_LT(t.drawnCount(line), spec.points - 1);
      continue;
    }
    // Within the cell centres the interpolated flow is exactly the rotation; at two cells from
    // the axis and more a step turns a quarter of a radian at most (RK4 keeps the radius to 1e-3
    // over 400 such steps).
    if (radius > 11.5f || radius < 2.0f) continue;
    ++checked;
    EXPECT_EQ(t.drawnCount(line), spec.points - 1) << "a closed circle never ends, line " << line;
    EXPECT_EQ(t.segment(line, 0)[0], seed[0]) << "the upstream half starts at the seed too";
    double along = 0;
    for (int s = 0; s < spec.points - 1; ++s) {
      const float* v = t.segment(line, s);
      ASSERT_NEAR(std::hypot(v[0] - c, v[1] - c), radius, 2e-3f * radius)
          << "line " << line << ", segment " << s;
      ASSERT_EQ(v[2], seed[2]);
      along += std::hypot(v[4] - v[0], v[5] - v[1]);
      EXPECT_NEAR(v[3], 0.01f * std::hypot(v[0] - c, v[1] - c), 1e-6f);
    }
    EXPECT_NEAR(along, 200.0, 200.0 * 0.003) << "chords of half a cell, radius 2 and up";
    // The upstream half runs against the flow: its first step turns clockwise (z up).
    const float* back = t.segment(line, 0);
    const float turn = (back[0] - c) * (back[5] - c) - (back[1] - c) * (back[4] - c);
    EXPECT_LT(turn, 0) << "line " << line;
  }
  EXPECT_GT(checked, 30);
}

TEST(Streamlines, StillWaterHasNone) {
  const Grid g{8, 8, 8};
  const StreamSpec spec{10, 21, false};
  const Traced t =
      trace(momentsOf(g, [](float, float, float) { return std::array<float, 3>{}; }), g, spec);
  for (int line = 0; line < spec.lines; ++line) EXPECT_EQ(t.drawnCount(line), 0);
  for (std::size_t k = 0; k < t.vertices.size(); ++k)
    EXPECT_EQ(t.vertices[k], k % kLineVertexFloats == 3 ? -1.0f : 0.0f) << "float " << k;
}

TEST(Streamlines, OnFreshRandomFlowsTheyFollowTheFlowThroughTheFluid) {
  const std::uint64_t seed = ws::test::freshSeed();
  const Grid g{29, 23, 19};
  const std::vector<PlaneSample> moments = test::randomMoments(g, seed);
  const StreamField field{moments.data(), g};
  for (const bool inlet : {false, true}) {
    const StreamSpec spec{100, 81, inlet};
    const Traced t = trace(moments, g, spec);
    std::size_t drawn = 0, turning = 0;
    const int half = inlet ? 0 : (spec.points - 1) / 2;
    for (int line = 0; line < spec.lines; ++line)
      for (int s = 0; s < spec.points - 1; ++s) {
        if (!t.drawn(line, s)) continue;
        ++drawn;
        const float* v = t.segment(line, s);
        const float* w = v + kLineVertexFloats;
        ASSERT_TRUE(streamInFluid(field, v) && streamInFluid(field, w))
            << "segment " << s << " of line " << line << ", seed " << seed;
        const float step[3] = {w[0] - v[0], w[1] - v[1], w[2] - v[2]};
        const float length = std::hypot(step[0], step[1], step[2]);
        ASSERT_LE(length, StreamSpec::kStep * (1 + 1e-5f));
        // Joined: each segment starts where the one before in its half ended, which was drawn.
        if (s != 0 && s != half) {
          ASSERT_TRUE(t.drawn(line, s - 1)) << "segment " << s << " of line " << line;
          for (int k = 0; k < 3; ++k)
            ASSERT_EQ(v[k], t.segment(line, s - 1)[kLineVertexFloats + k]);
        }
        // Along the flow (its tangent half-way, where a chord of a curve lies closest to it),
        // against it in the upstream half; the rare exceptions where the flow turns sharply in
        // half a cell (next to points where it stands still).
        float u[3];
        ASSERT_TRUE(streamVelocity(field, v, u));
        EXPECT_NEAR(v[3], std::hypot(u[0], u[1], u[2]), 1e-6f) << "the speed where it is";
        const float middle[3] = {(v[0] + w[0]) / 2, (v[1] + w[1]) / 2, (v[2] + w[2]) / 2};
        float m[3];
        if (!streamVelocity(field, middle, m)) continue;  // the chord cuts a wall's corner
        const float cosine = (step[0] * m[0] + step[1] * m[1] + step[2] * m[2]) /
                             (length * std::hypot(m[0], m[1], m[2]));
        turning += (s >= half ? cosine : -cosine) < 0.95f;
      }
    EXPECT_GT(drawn, spec.segments() / 20) << "enough to check, seed " << seed;
    EXPECT_LT(turning, drawn / 20) << "seed " << seed;
  }
}

TEST(LbmStreamlines, TheCavitysViewHasThemWithOrWithoutTheIsosurface) {
  auto module = test::cpuModule({{"lattice", std::string("d3q19")},
                                 {"scene", std::string("cavity")},
                                 {"width", std::int64_t(16)},
                                 {"height", std::int64_t(16)},
                                 {"depth", std::int64_t(12)},
                                 {"tracers", std::int64_t(0)},
                                 {"display", std::string("isosurface")},
                                 {"streamlines", std::int64_t(40)},
                                 {"stream_length", 2.0}});
  module->step(80);
  EXPECT_FALSE(module->applies("stream_seeds")) << "a cavity has no inlet";
  EXPECT_TRUE(module->applies("stream_length"));
  const Grid g = module->spec().grid;
  for (const std::string quantity : {"speed", "none"}) {
    module->setParams({{"iso_quantity", quantity}});
    EXPECT_EQ(module->applies("iso_level"), quantity != "none");
    const std::size_t triangles = module->surfaceTriangles();
    const std::size_t segments = module->surfaceSegments();
    EXPECT_EQ(segments, 40u * 64) << "two lattice lengths, 16 cells each, in half cells";
    EXPECT_EQ(triangles == 0, quantity == "none");
    std::vector<float> surface(triangles * 3 * kSurfaceVertexFloats),
        lines(segments * 2 * kLineVertexFloats, NAN);
    SurfaceImage image{surface.data(), triangles, false, lines.data(), segments, false};
    module->renderSurface(image);
    std::size_t drawn = 0;
    float fastest = 0;
    for (std::size_t v = 0; v < 2 * segments; ++v) {
      const float* p = &lines[v * kLineVertexFloats];
      if (p[3] < 0) continue;
      drawn += v % 2;
      fastest = std::max(fastest, p[3]);
      ASSERT_TRUE(p[0] > 0 && p[0] < g.nx && p[1] > 0 && p[1] < g.ny && p[2] > 0 && p[2] < g.nz);
    }
    EXPECT_GT(drawn, segments / 2) << "most of them drawn: a cavity's flow goes round";
    EXPECT_GT(fastest, 0.02f) << "near the lid";
  }
  EXPECT_NE(module->notes().find("40 streamlines from seeds throughout the flow"),
            std::string::npos)
      << module->notes();
  EXPECT_NE(module->notes().find("no isosurface (isosurface of: none)"), std::string::npos)
      << module->notes();
  module->setParams({{"streamlines", std::int64_t(0)}});
  EXPECT_EQ(module->surfaceSegments(), 0u);
  EXPECT_FALSE(module->applies("stream_length"));
  EXPECT_EQ(module->notes().find("streamlines from"), std::string::npos) << module->notes();
}

TEST(LbmStreamlines, FromTheInletOfAChannelTheyPassTheObstacle) {
  auto module = test::cpuModule({{"lattice", std::string("d3q19")},
                                 {"scene", std::string("cylinder")},
                                 {"width", std::int64_t(40)},
                                 {"height", std::int64_t(20)},
                                 {"depth", std::int64_t(8)},
                                 {"reynolds", 20.0},
                                 {"tracers", std::int64_t(0)},
                                 {"display", std::string("isosurface")},
                                 {"iso_quantity", std::string("none")},
                                 {"streamlines", std::int64_t(30)},
                                 {"stream_seeds", std::string("inlet")}});
  module->step(150);
  EXPECT_TRUE(module->applies("stream_seeds"));
  module->surfaceTriangles();
  const std::size_t segments = module->surfaceSegments();
  ASSERT_EQ(segments, 30u * 80);
  std::vector<float> lines(segments * 2 * kLineVertexFloats);
  SurfaceImage image{nullptr, 0, false, lines.data(), segments, false};
  module->renderSurface(image);
  // Each line starts on the inlet plane; most reach past the cylinder (x 8 to 12 or so).
  int past = 0;
  for (int line = 0; line < 30; ++line) {
    const float* first = &lines[std::size_t(line) * 80 * 2 * kLineVertexFloats];
    if (first[3] < 0) continue;  // a seed in the channel's wall
    EXPECT_EQ(first[0], 1.5f);
    float furthest = 0;
    for (int s = 0; s < 80; ++s) {
      const float* v = first + s * 2 * kLineVertexFloats;
      if (v[3] >= 0) furthest = std::max(furthest, v[kLineVertexFloats]);
    }
    past += furthest > 25;
  }
  EXPECT_GT(past, 15);
  EXPECT_NE(module->notes().find("30 streamlines from the inlet"), std::string::npos);
}

}  // namespace
}  // namespace ws::lbm
