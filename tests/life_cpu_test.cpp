// Life on the CPU against known answers: still lifes, oscillator periods, spaceships,
// methuselahs, symmetries; and the CPU fast path against the reference on random soups.
#include "compute/life/life_cpu.h"

#include <gtest/gtest.h>

#include "compute/core/assets.h"
#include "compute/core/errors.h"
#include "compute/life/rle.h"
#include "tests/test_support.h"

namespace ws::life {
namespace {

using test::gridFromPicture;

LifeGrid run(const std::string& variant, const LifeGrid& start, int generations, Boundary boundary,
             LifeRule rule = LifeRule::conway()) {
  TimingScope timing("test", "cells/s", false);
  auto engine = makeCpuEngine(variant, {&timing, &timing});
  engine->reshape(start.width, start.height);
  engine->load(start);
  engine->step(generations, rule, boundary);
  return engine->save();
}

LifeGrid shippedPattern(const std::string& name, int width, int height) {
  const Pattern p = loadRleFile(assetDirectory() + "/patterns/" + name + ".rle");
  LifeGrid grid(width, height);
  const int x0 = (width - p.width) / 2, y0 = (height - p.height) / 2;
  for (auto [x, y] : p.cells) grid.set(x0 + x, y0 + y, true);
  return grid;
}

class CpuLife : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuLife, StillLifesStayUnchanged) {
  for (const char* name : {"block", "beehive", "loaf", "boat", "tub"}) {
    const LifeGrid start = shippedPattern(name, 12, 12);
    ASSERT_GT(start.population(), 0u) << name;
    for (Boundary b : {Boundary::Dead, Boundary::Torus})
      EXPECT_EQ(run(GetParam(), start, 7, b), start) << name;
  }
}

TEST_P(CpuLife, OscillatorsHaveTheirPeriods) {
  const std::pair<const char*, int> oscillators[] = {
      {"blinker", 2}, {"toad", 2}, {"beacon", 2}, {"pulsar", 3}, {"pentadecathlon", 15}};
  for (auto [name, period] : oscillators) {
    const LifeGrid start = shippedPattern(name, 32, 32);
    LifeGrid state = start;
    for (int g = 1; g <= period; ++g) {
      state = run(GetParam(), state, 1, Boundary::Dead);
      if (g < period) EXPECT_NE(state, start) << name << " repeats early, at " << g;
    }
    EXPECT_EQ(state, start) << name << " does not have period " << period;
  }
}

TEST_P(CpuLife, GliderMovesOneCellDiagonallyEveryFourGenerations) {
  const std::vector<std::string> glider = {".O.", "..O", "OOO"};
  const LifeGrid start = gridFromPicture(20, 20, 5, 5, glider);
  EXPECT_EQ(run(GetParam(), start, 4, Boundary::Dead), gridFromPicture(20, 20, 6, 6, glider));
}

TEST_P(CpuLife, GliderCirclesTheTorusIn4WGenerations) {
  for (int w : {8, 13, 70}) {
    const LifeGrid start = gridFromPicture(w, w, 1, 2, {".O.", "..O", "OOO"});
    EXPECT_NE(run(GetParam(), start, 4 * w - 4, Boundary::Torus), start) << w;
    EXPECT_EQ(run(GetParam(), start, 4 * w, Boundary::Torus), start) << w;
  }
}

TEST_P(CpuLife, DiehardDiesAfter130Generations) {
  const LifeGrid start = shippedPattern("diehard", 64, 64);
  const LifeGrid at129 = run(GetParam(), start, 129, Boundary::Dead);
  EXPECT_GT(at129.population(), 0u);
  EXPECT_EQ(run(GetParam(), at129, 1, Boundary::Dead).population(), 0u);
}

TEST_P(CpuLife, StepCommutesWithRotationsAndReflections) {
  const std::uint64_t seed = test::freshSeed();
  const int n = 37;
  const LifeGrid start = test::randomGrid(n, n, 0.4, seed);
  auto transform = [n](const LifeGrid& g, int kind) {
    LifeGrid out(n, n);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const int tx[] = {n - 1 - y, n - 1 - x, y, n - 1 - x, x};
        const int ty[] = {x, n - 1 - y, n - 1 - x, y, n - 1 - y};
        out.set(tx[kind], ty[kind], g.get(x, y));
      }
    return out;
  };
  for (Boundary b : {Boundary::Dead, Boundary::Torus})
    for (int kind = 0; kind < 5; ++kind)
      EXPECT_EQ(run(GetParam(), transform(start, kind), 5, b),
                transform(run(GetParam(), start, 5, b), kind))
          << "transform " << kind;
}

TEST_P(CpuLife, OnATorusStepCommutesWithTranslation) {
  const std::uint64_t seed = test::freshSeed();
  const int w = 45, h = 29, dx = 17, dy = 11;
  const LifeGrid start = test::randomGrid(w, h, 0.35, seed);
  auto shift = [&](const LifeGrid& g) {
    LifeGrid out(w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) out.set((x + dx) % w, (y + dy) % h, g.get(x, y));
    return out;
  };
  EXPECT_EQ(run(GetParam(), shift(start), 9, Boundary::Torus),
            shift(run(GetParam(), start, 9, Boundary::Torus)));
}

INSTANTIATE_TEST_SUITE_P(Variants, CpuLife, ::testing::Values("reference", "bitpacked"));

TEST(CpuLifeMethuselah, RPentominoSettlesAtGeneration1103WithPopulation116) {
  // Dead border, large enough that no escaping glider reaches the edge by generation 1103.
  const LifeGrid start = shippedPattern("r-pentomino", 704, 704);
  const LifeGrid settled = run("bitpacked", start, 1103, Boundary::Dead);
  EXPECT_EQ(settled.population(), 116u);
  const LifeGrid before = run("bitpacked", start, 1102, Boundary::Dead);
  EXPECT_NE(before.population(), 116u);
  // From 1103 on only gliders move and period-2 debris blinks: the population stays 116.
  LifeGrid later = settled;
  for (int g = 0; g < 6; ++g) {
    later = run("bitpacked", later, 1, Boundary::Dead);
    EXPECT_EQ(later.population(), 116u);
  }
}

TEST(CpuLifeFastPath, MatchesTheReferenceOnRandomSoups) {
  const std::uint64_t seed = test::freshSeed();
  const std::pair<int, int> sizes[] = {{64, 64}, {65, 17}, {1, 5}, {127, 130}, {200, 3}, {5, 200}};
  const char* rules[] = {"B3/S23", "B36/S23", "B2/S", "B3678/S34678", "B1357/S1357"};
  int round = 0;
  for (auto [w, h] : sizes)
    for (const char* rule : rules)
      for (Boundary b : {Boundary::Dead, Boundary::Torus}) {
        const LifeGrid start = test::randomGrid(w, h, 0.2 + 0.15 * (round % 4), seed + round);
        ++round;
        for (int gens : {1, 2, 10}) {
          const LifeGrid expected = run("reference", start, gens, b, LifeRule::parse(rule));
          const LifeGrid actual = run("bitpacked", start, gens, b, LifeRule::parse(rule));
          EXPECT_EQ(expected, actual)
              << w << "x" << h << " " << rule << " gens " << gens << " torus "
              << (b == Boundary::Torus) << ": " << test::describeDifference(expected, actual);
        }
      }
}

TEST(LifeRules, ParseTheCommonNotations) {
  EXPECT_EQ(LifeRule::parse("B3/S23"), LifeRule::conway());
  EXPECT_EQ(LifeRule::parse("b3s23"), LifeRule::conway());
  EXPECT_EQ(LifeRule::parse("23/3"), LifeRule::conway());
  EXPECT_EQ(LifeRule::parse(" B36 / S23 ").toString(), "B36/S23");
  EXPECT_EQ(LifeRule::parse("B2/S").toString(), "B2/S");
  EXPECT_EQ(LifeRule::parse("B3678/S34678").survive,
            (1 << 3) | (1 << 4) | (1 << 6) | (1 << 7) | (1 << 8));
  for (const auto& named : namedRules()) EXPECT_NO_THROW(LifeRule::parse(named.rule)) << named.name;
}

TEST(LifeRules, RejectInvalidRules) {
  for (const char* bad : {"", "B9/S23", "B3/S2x", "hello", "B3", "B03/S23", "3-23", "B3/S23/S4"})
    EXPECT_THROW(LifeRule::parse(bad), InputError) << "'" << bad << "'";
}

}  // namespace
}  // namespace ws::life
