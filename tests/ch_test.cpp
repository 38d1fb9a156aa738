// The Cahn-Hilliard module on the CPU: the physics its arithmetic must obey (mass conserved, the
// free energy falling, a small Fourier mode growing or decaying at the rate linear stability
// predicts), parameters refused as they must be, edits and their undo, and saved states.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <numbers>

#include "compute/cahn-hilliard/ch_module.h"
#include "compute/cahn-hilliard/ch_parts.h"
#include "compute/core/errors.h"
#include "tests/test_support.h"

namespace ws::ch {
namespace {

std::unique_ptr<ChModule> makeModule(const std::string& size, double mean = 0, double noise = 0.1,
                                     std::uint64_t seed = 1) {
  auto m = std::make_unique<ChModule>(Backend::Cpu);
  m->setSize(size);
  m->setParams({{"mean", mean}, {"noise", noise}, {"seed", std::int64_t(seed % 2147483647)}});
  return m;
}

TEST(ChPhysics, MassIsConservedToRoundOffIn2dAnd3d) {
  for (const char* size : {"64x48", "20x18x22"}) {
    auto m = makeModule(size, -0.3, 0.5, test::freshSeed());
    const double cells = double(m->field().size());
    const double before = m->totals().mass;
    m->step(400);
    const double after = m->totals().mass;
    // Each step's sum of the rates is zero but for float rounding: about 1e-7 of each cell's
    // value, a random walk over the cells and steps.
    EXPECT_LT(std::fabs(after - before) / cells, 1e-6) << size;
    // And the field did change (a conserved quantity of a frozen field proves nothing).
    EXPECT_GT(std::fabs(m->totals().energy - 0.0), 0.0);
  }
}

TEST(ChPhysics, FreeEnergyNeverIncreasesWhileTheMixSeparates) {
  for (const char* size : {"64x64", "24x24x24"}) {
    for (const char* integrator : {"RK2", "Euler"}) {
      auto m = makeModule(size, 0, 0.1, test::freshSeed());
      m->setParam("integrator", std::string(integrator));
      double previous = m->totals().energy;
      const double start = previous;
      for (int i = 0; i < 150; ++i) {
        m->step(20);
        const double energy = m->totals().energy;
        ASSERT_LE(energy, previous + 1e-9 * std::fabs(previous))
            << size << " " << integrator << " at step " << m->stepCount();
        previous = energy;
      }
      // t = 30: the mix has begun to separate into its phases (F per cell from about +0.005 to
      // about -0.05, on the way to the wells' -b^2/4u = -0.25 less the interfaces').
      EXPECT_LT(previous, start - 0.03 * m->field().size()) << size << " " << integrator;
      EXPECT_GT(m->totals().crossings, 0u);
    }
  }
}

// The amplitude of the mode cos(k . x) in the field.
double modeAmplitude(const std::vector<float>& phi, const Shape& s, const double k[3]) {
  double sum = 0;
  for (int z = 0; z < s.nz; ++z)
    for (int y = 0; y < s.ny; ++y)
      for (int x = 0; x < s.nx; ++x)
        sum += phi[s.index(x, y, z)] * std::cos(k[0] * x + k[1] * y + k[2] * z);
  return 2 * sum / double(s.cells());
}

TEST(ChPhysics, ASmallFourierModeGrowsOrDecaysAtTheLinearRate) {
  // Linearized about phi = 0: d phi/dt = m lap(-b phi - K lap phi). A mode cos(k . x) is an
  // eigenvector of the discrete Laplacian with eigenvalue -L, L = sum over axes of 2 - 2 cos k_i,
  // so it grows at sigma = m L (b - K L): long waves grow (spinodal decomposition), short ones
  // decay. At amplitude 1e-4 the cubic term is 1e-8 of the linear one.
  struct Case {
    const char* size;
    int modes[3];
    const char* integrator;
    double m, b, K;
  };
  const Case cases[] = {
      {"64x8", {4, 0, 0}, "RK2", 1, 1, 1},        {"64x48", {3, 5, 0}, "RK2", 1, 1, 1},
      {"64x48", {3, 5, 0}, "Euler", 0.5, 2, 0.7}, {"48x40", {12, 9, 0}, "RK2", 1, 1, 1},
      {"8x12x32", {0, 1, 3}, "RK2", 1, 1, 1},     {"8x12x32", {2, 3, 7}, "RK2", 2, 1, 0.5},
      {"8x12x32", {0, 1, 3}, "Euler", 1, 1, 0.5}};
  // Euler's amplification 1 + sigma dt per step is e^(sigma dt) but for sigma^2 dt^2 / 2: the
  // Euler cases keep sigma dt under 1e-3, so that it is the rate and not the step that is tested.
  constexpr double kDt = 0.001;
  for (const Case& c : cases) {
    auto m = makeModule(c.size, 0, 0);
    m->setParams({{"integrator", std::string(c.integrator)},
                  {"mobility", c.m},
                  {"b", c.b},
                  {"K", c.K},
                  {"dt", kDt}});
    const Shape s = m->config().shape;
    const int sides[3] = {s.nx, s.ny, s.nz};
    double k[3], L = 0;
    for (int a = 0; a < 3; ++a) {
      k[a] = 2 * std::numbers::pi * c.modes[a] / sides[a];
      L += 2 - 2 * std::cos(k[a]);
    }
    const double sigma = c.m * L * (c.b - c.K * L);
    std::vector<float> phi(s.cells());
    for (int z = 0; z < s.nz; ++z)
      for (int y = 0; y < s.ny; ++y)
        for (int x = 0; x < s.nx; ++x)
          phi[s.index(x, y, z)] = float(1e-4 * std::cos(k[0] * x + k[1] * y + k[2] * z));
    m->loadField(phi);
    const double a0 = modeAmplitude(m->field(), s, k);
    // Long enough for the amplitude to change by a factor of about e (at most 2000 steps).
    const int steps = std::min(2000, std::max(50, int(1.0 / (std::fabs(sigma) * kDt))));
    m->step(steps);
    const double a1 = modeAmplitude(m->field(), s, k);
    const double measured = std::log(a1 / a0) / (steps * kDt);
    EXPECT_NEAR(measured, sigma, 0.02 * std::fabs(sigma))
        << c.size << " modes " << c.modes[0] << "," << c.modes[1] << "," << c.modes[2] << " "
        << c.integrator;
  }
}

TEST(ChParams, ATimeStepPastTheStabilityLimitIsRefusedAndChangesNothing) {
  auto m = makeModule("32x32");
  // 2-D with m = b = K = 1: 2 / (1 * 8 * (8 + 2)) = 0.025.
  EXPECT_NEAR(stableTimeStep(2, m->config().k), 0.025, 1e-12);
  try {
    m->setParam("dt", 0.03);
    FAIL() << "dt 0.03 was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("stability limit 0.025"), std::string::npos) << e.what();
  }
  EXPECT_DOUBLE_EQ(m->params().getFloat("dt"), 0.01);
  // Stable in 2-D, not in 3-D (limit 2 / (12 * 14)): the switch is refused whole.
  m->setParam("dt", 0.02);
  EXPECT_THROW(m->setSize("16x16x16"), InputError);
  EXPECT_EQ(m->params().getText("dimensions"), "2-D");
  EXPECT_EQ(m->config().shape.nz, 1);
  // A larger K lowers the limit too.
  EXPECT_THROW(m->setParam("K", 2.0), InputError);
  EXPECT_DOUBLE_EQ(m->params().getFloat("K"), 1.0);
  // A run at the limit's edge stays bounded (the bound is the real one, not a guess).
  m->setParams({{"dt", 0.0245}, {"noise", 1.0}});
  m->step(2000);
  for (float v : m->field()) ASSERT_LT(std::fabs(v), 1.5f);
}

TEST(ChParams, NegativeOrZeroCoefficientsAreRefused) {
  auto m = makeModule("16x16");
  for (const char* key : {"K", "b", "u", "mobility"}) {
    EXPECT_THROW(m->setParam(key, -1.0), InputError) << key;
    EXPECT_THROW(m->setParam(key, 0.0), InputError) << key;
  }
  EXPECT_THROW(m->setSize("3x16"), InputError);
  EXPECT_THROW(m->setSize("16x16x16x16"), InputError);
  EXPECT_THROW(m->setSize("16^2"), InputError);
}

TEST(ChEdits, DrawAndEraseSetPhaseAlongTheStrokeAndUndoPutsItBack) {
  auto m = makeModule("40x30", 0, 0.1);
  m->setParam("brush", std::int64_t(2));
  const std::vector<float> before = m->field();
  PointerEdit e;
  e.tool = "draw";
  e.fromX = 5.5, e.fromY = 10.5, e.x = 25.5, e.y = 10.5;
  auto change = m->edit(e);
  ASSERT_TRUE(change);
  std::vector<float> drawn = m->field();
  const Shape s = m->config().shape;
  for (int x = 5; x <= 25; ++x)
    for (int dy = -2; dy <= 2; ++dy) EXPECT_EQ(drawn[s.index(x, 10 + dy, 0)], 1.0f) << x;
  EXPECT_EQ(drawn[s.index(15, 13, 0)], before[s.index(15, 13, 0)]);  // past the brush
  e.tool = "erase";
  e.fromX = e.x = 15.5, e.fromY = e.y = 10.5;
  auto erased = m->edit(e);
  ASSERT_TRUE(erased);
  EXPECT_EQ(m->field()[s.index(15, 10, 0)], -1.0f);
  m->revert(*erased, false);
  EXPECT_EQ(m->field(), drawn);
  m->revert(*change, false);
  EXPECT_EQ(m->field(), before);
  m->revert(*change, true);
  EXPECT_EQ(m->field(), drawn);
  // In 3-D the stroke lies on the slice shown.
  auto cube = makeModule("12x10x8", 0, 0.1);
  cube->setParams({{"slice_axis", std::string("y")}, {"slice", 0.5}, {"brush", std::int64_t(0)}});
  e.tool = "draw";
  e.fromX = e.x = 3.5, e.fromY = e.y = 6.5;  // view x is x, view y is z on a y slice
  ASSERT_TRUE(cube->edit(e));
  EXPECT_EQ(cube->field()[cube->config().shape.index(3, 5, 6)], 1.0f);
}

TEST(ChState, ASavedStateComesBackAndADamagedOneIsRefusedWhole) {
  auto m = makeModule("24x20", 0, 0.2, 7);
  m->step(30);
  const StateBlob saved = m->saveState();
  const std::vector<float> field = m->field();
  m->step(30);
  m->restoreState(saved);
  EXPECT_EQ(m->field(), field);
  EXPECT_EQ(m->stepCount(), 30u);
  EXPECT_NEAR(m->time(), 0.3, 1e-7);  // 30 steps of dt 0.01 in float
  const std::vector<float> now = m->field();
  StateBlob shortened = saved;
  shortened.data.resize(shortened.data.size() - 4);
  EXPECT_THROW(m->restoreState(shortened), InputError);
  StateBlob notANumber = saved;
  const float nan = std::nanf("");
  std::memcpy(notANumber.data.data() + 40, &nan, sizeof nan);
  EXPECT_THROW(m->restoreState(notANumber), InputError);
  StateBlob tiny = saved;
  tiny.meta["width"] = 2;
  EXPECT_THROW(m->restoreState(tiny), InputError);
  EXPECT_EQ(m->field(), now);
}

TEST(ChCpu, OneThreadAgreesBitForBitWithSeveral) {
  // The same arithmetic per cell and the totals summed row by row in order: the A/B view of the
  // OpenMP variant against the source's one-thread baseline shows them agreeing.
  const int before = omp_get_max_threads();
  omp_set_num_threads(3);
  auto many = makeModule("40x30x20", 0, 0.3, test::freshSeed());
  auto one = makeModule("40x30x20");
  one->select(Backend::Cpu, "single-thread");
  one->restoreState(many->saveState());
  many->step(25);
  one->step(25);
  omp_set_num_threads(before);
  EXPECT_EQ(many->field(), one->field());
  const Totals a = many->totals(), b = one->totals();
  EXPECT_EQ(a.mass, b.mass);
  EXPECT_EQ(a.energy, b.energy);
  EXPECT_EQ(a.crossings, b.crossings);
}

TEST(ChCoarsening, TheDomainSizeIsRecordedAtLogSpacedTimes) {
  auto m = makeModule("48x48", 0, 0.1, 3);
  m->setParam("dt", 0.02);
  // t = 20 in calls of 20 steps (0.4 each): the marks 1, 1.26 ... 19.95 (14 of them) fall in 13
  // of the calls (1.26 and 1.58 both in the one ending at 1.6), each recorded once at its end.
  for (int call = 0; call < 50; ++call) m->step(20);
  const std::vector<Curve> curves = m->curves();
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].values.size(), 13u);
  EXPECT_TRUE(m->coarseningExponent().has_value());
  // One timing sample a step() call, as the benchmark counts them (two warm-up samples skipped).
  EXPECT_EQ(m->stepTiming().stats().samples, 48);
  // The domain size a metric reports: positive and of the size of the fastest-growing wave
  // (2 pi / k with L = b / 2K: about 9 cells) once the phases have separated.
  double size = 0;
  for (const Metric& metric : m->metrics())
    if (metric.name == "domain size") size = metric.value;
  EXPECT_GT(size, 2.0);
  EXPECT_LT(size, 30.0);
}

// The 3-D fast path's parts of the planes (ch_parts.h): every plane in exactly one part, each
// starting on an even plane; as few parts as fill whole waves of blocks.
TEST(ChParts, ThePartsCoverThePlanesFromEvenStarts) {
  for (int nz = 2; nz <= 300; ++nz)
    for (int parts = 1; parts <= (nz + 1) / 2; ++parts) {
      ASSERT_EQ(partStart(0, parts, nz), 0);
      ASSERT_EQ(partStart(parts, parts, nz), nz);
      for (int p = 0; p < parts; ++p) {
        ASSERT_EQ(partStart(p, parts, nz) % 2, 0) << nz << " planes, part " << p << " of " << parts;
        ASSERT_LT(partStart(p, parts, nz), partStart(p + 1, parts, nz))
            << nz << " planes, part " << p << " of " << parts << " is empty";
      }
    }
}

TEST(ChParts, TheFewestPartsThatFillWholeWaves) {
  // 256^3 on 132 multiprocessors, a block each: 2 x 16 columns of blocks. Four parts (128 blocks,
  // one wave of 64-plane marches) beat eight (two waves of 32) and one (a wave a quarter full).
  EXPECT_EQ(planeParts(32, 256, 132), 4);
  // Columns that fill a wave, or two: one part, the longest marches.
  EXPECT_EQ(planeParts(128, 512, 132), 1);
  EXPECT_EQ(planeParts(264, 256, 132), 1);
  // 400 columns leave a quarter of their fourth wave idle: four parts make 1600 blocks, 13 waves
  // 93% full.
  EXPECT_EQ(planeParts(400, 256, 132), 4);
  // Twice the multiprocessors' blocks at once: twice the parts.
  EXPECT_EQ(planeParts(32, 256, 264), 8);
  // A thin lattice: no more parts than pairs of planes.
  EXPECT_EQ(planeParts(1, 6, 132), 3);
}

}  // namespace
}  // namespace ws::ch
