// The Poisson module on the CPU: colourings that are colourings, the convergence theory predicts
// for the model problem, second-order accuracy, every solver reaching the same discrete solution,
// orderings that are the orderings they say, and parameters, edits and states handled as they
// must be.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <set>

#include "compute/core/errors.h"
#include "compute/poisson/poisson_module.h"
#include "tests/poisson_support.h"
#include "tests/test_support.h"

namespace ws::poisson {
namespace {

std::unique_ptr<PoissonModule> makeModule(const std::string& size, const std::string& variant,
                                          const std::string& stencil = "finite-difference") {
  auto m = std::make_unique<PoissonModule>(Backend::Cpu);
  m->setSize(size);
  m->select(Backend::Cpu, variant);
  m->setParam("stencil", stencil);
  return m;
}

TEST(PoissonColouring, NoStencilNeighbourSharesANodesColour) {
  for (int dims : {2, 3})
    for (Stencil stencil : {Stencil::Compact, Stencil::Full}) {
      const Weights w = weightsOf(stencil, dims);
      const int colours = coloursFor(stencil, dims);
      const int zs = dims == 3 ? 3 : 1;
      // A node's colour against every neighbour the stencil weighs, at every parity of position.
      for (int z = 2; z < 2 + 2 * zs - (dims == 2 ? 1 : 0); ++z)
        for (int y = 2; y < 4; ++y)
          for (int x = 2; x < 4; ++x)
            for (int dz = (dims == 3 ? -1 : 0); dz <= (dims == 3 ? 1 : 0); ++dz)
              for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                  const int away = (dx != 0) + (dy != 0) + (dz != 0);
                  const float weight = away == 1 ? w.face : away == 2 ? w.edge : w.corner;
                  if (away == 0 || weight == 0) continue;
                  EXPECT_NE(colourOf(colours, x, y, z), colourOf(colours, x + dx, y + dy, z + dz))
                      << dims << "-D, " << colours << " colours, (" << dx << "," << dy << "," << dz
                      << ")";
                }
      // And every colour is used: the colours number what the stencil needs.
      std::vector<int> seen(colours, 0);
      for (int z = 0; z < (dims == 3 ? 2 : 1); ++z)
        for (int y = 0; y < 2; ++y)
          for (int x = 0; x < 2; ++x) ++seen[colourOf(colours, x, y, z)];
      for (int c = 0; c < colours; ++c) EXPECT_GT(seen[c], 0);
    }
  // Red-black is no colouring of the full stencils: their diagonal neighbours share a colour.
  EXPECT_EQ(colourOf(2, 1, 1, 0), colourOf(2, 2, 2, 0));
  EXPECT_EQ(coloursOf(Colouring::Fewest, Stencil::Full, 2), 4);
  EXPECT_EQ(coloursOf(Colouring::Fewest, Stencil::Full, 3), 8);
}

TEST(PoissonBytes, AColouredSweepMovesTheRowsItsColoursTouch) {
  // The bytes model against the rows of a 64 grid a pass touches, counted: each colour's pass
  // reads f and writes u on the rows (y, z) holding its nodes, and reads u on those rows and on
  // every row a nonzero weight of the stencil reaches from them; whole rows, since the colours
  // alternate within every cache line. The row counts' parity imbalance (32 of 63) is within 2%.
  const Grid g{64, 2};
  for (int dims : {2, 3})
    for (Stencil stencil : {Stencil::Compact, Stencil::Full})
      for (int colours : {2, dims == 2 ? 4 : 8}) {
        if (colours == 2 && stencil == Stencil::Full) continue;  // not a colouring
        const Weights w = weightsOf(stencil, dims);
        const auto weighs = [&](int dx, int dy, int dz) {
          const int away = std::abs(dx) + std::abs(dy) + std::abs(dz);
          return (away == 0 ? w.centre : away == 1 ? w.face : away == 2 ? w.edge : w.corner) != 0;
        };
        const int zs = dims == 3 ? g.n - 1 : 1;
        const double rows = double(g.n - 1) * zs;
        double values = 0;  // moved an unknown a sweep, in values
        for (int c = 0; c < colours; ++c) {
          std::set<std::pair<int, int>> own, read;
          for (int z = dims == 3 ? 1 : 0; z < (dims == 3 ? g.n : 1); ++z)
            for (int y = 1; y < g.n; ++y)
              for (int x = 1; x <= 2; ++x) {
                if (colourOf(colours, x, y, z) != c) continue;
                own.insert({y, z});
                for (int dz = (dims == 3 ? -1 : 0); dz <= (dims == 3 ? 1 : 0); ++dz)
                  for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                      if (weighs(dx, dy, dz) && y + dy >= 1 && y + dy < g.n &&
                          (dims == 2 || (z + dz >= 1 && z + dz < g.n)))
                        read.insert({y + dy, z + dz});
              }
          values += (double(read.size()) + 2.0 * double(own.size())) / rows;
        }
        Sweep s;
        s.stencil = stencil;
        s.colours = colours;
        for (Precision precision : {Precision::Float, Precision::Double})
          EXPECT_NEAR(bytesPerUpdate(s, dims, precision), values * valueBytes(precision),
                      0.02 * values * valueBytes(precision))
              << dims << "-D, " << colours << " colours, stencil " << int(stencil);
      }
  // Both colours in one pass (3-D red-black on the 7-point stencil) read u and f and write u once,
  // as Jacobi does; where that kernel does not apply the passes stay.
  Sweep fused;
  fused.kernel = Kernel::FusedSweep;
  EXPECT_EQ(bytesPerUpdate(fused, 3, Precision::Float), 12);
  EXPECT_EQ(bytesPerUpdate(fused, 3, Precision::Double), 24);
  EXPECT_EQ(bytesPerUpdate(fused, 2, Precision::Float), 24);
  fused.stencil = Stencil::Full;
  fused.colours = 8;
  EXPECT_EQ(bytesPerUpdate(fused, 3, Precision::Float), 48);  // eight passes, as without it
}

TEST(PoissonStencil, EveryStencilIsMinusTheLaplacianOfAQuadratic) {
  // S applied to x^2 + 2y^2 (+ 3z^2) at any node is -h^2 lap = -(2 + 4 (+ 6)) h^2, with h = 1.
  for (int dims : {2, 3})
    for (Stencil stencil : {Stencil::Compact, Stencil::Full}) {
      const Weights w = weightsOf(stencil, dims);
      const auto q = [](int x, int y, int z) { return float(x * x + 2 * y * y + 3 * z * z); };
      const auto at = [&](int dx, int dy, int dz) {
        return q(5 + dx, 7 + dy, dims == 3 ? 4 + dz : 0);
      };
      const float s = withStencil(dims, stencil, [&]<int D, Stencil S>() {
        return w.centre * at(0, 0, 0) + offCentre<D, S>(at, w);
      });
      EXPECT_NEAR(s, dims == 2 ? -6.0f : -12.0f, 1e-3f) << dims << "-D " << int(stencil);
      EXPECT_NEAR(w.centre + (dims == 2 ? 4 * w.face + 4 * w.edge
                                        : 6 * w.face + 12 * w.edge + 8 * w.corner),
                  0.0f, 1e-6f);
    }
}

// The residual's fall a sweep, measured over `over` sweeps after `settle` sweeps.
double measuredFactor(PoissonModule& m, int settle, int over) {
  m.step(settle);
  const double before = m.norms().residual;
  m.step(over);
  return std::pow(m.norms().residual / before, 1.0 / over);
}

TEST(PoissonStencil, StoredStencilsOfUnitCoefficientsAreTheConstantOnes) {
  // Built from k = 1 on every cell, a node's stored stencil is the constant one, slot by slot.
  const auto check = [&]<int D, Stencil S>() {
    const Grid g{6, D};
    const std::vector<double> k(g.cells(), 1.0);
    std::vector<double> stencil(kSlots<D, S>);
    buildStencil<D, S>(g, k.data(), 3, 2, D == 3 ? 4 : 0, stencil.data(), 1);
    const Weights<double> w = weightsOf<double>(S, D);
    for (int slot = 0; slot < kSlots<D, S>; ++slot) {
      int dx, dy, dz;
      slotOffset<D, S>(slot, dx, dy, dz);
      EXPECT_EQ((slotOf<D, S>(dx, dy, dz)), slot);
      const int away = std::abs(dx) + std::abs(dy) + std::abs(dz);
      const double expected = away == 0   ? w.centre
                              : away == 1 ? w.face
                              : away == 2 ? w.edge
                                          : w.corner;
      EXPECT_NEAR(stencil[slot], expected, 1e-15)
          << D << "-D stencil " << int(S) << " slot " << slot;
    }
    return 0;
  };
  for (int dims : {2, 3})
    for (Stencil stencil : {Stencil::Compact, Stencil::Full}) withStencil(dims, stencil, check);
}

TEST(PoissonStencil, AVariableStencilIsSymmetricAndAnnihilatesConstants) {
  // With k random on the cells (0.1 to 10): what node p weighs neighbour q by, q weighs p by (the
  // operator is symmetric), and every stencil sums to zero (-div(k grad 1) = 0).
  const std::uint64_t seed = test::freshSeed();
  const auto check = [&]<int D, Stencil S>() {
    const Grid g{7, D};
    std::vector<double> k = test::randomInterior({g.n - 1, D}, seed + D, 1.0f);
    k.resize(g.cells());
    for (double& value : k) value = std::pow(10.0, value);
    std::vector<double> stencils(kSlots<D, S> * g.nodes(), 0.0);
    for (int z = (D == 3 ? 1 : 0); z < (D == 3 ? g.n : 1); ++z)
      for (int y = 1; y < g.n; ++y)
        for (int x = 1; x < g.n; ++x)
          buildStencil<D, S>(g, k.data(), x, y, z, &stencils[g.index(x, y, z)], g.nodes());
    const auto weight = [&](std::size_t node, int dx, int dy, int dz) {
      return stencils[slotOf<D, S>(dx, dy, dz) * g.nodes() + node];
    };
    for (int z = (D == 3 ? 2 : 0); z < (D == 3 ? g.n - 1 : 1); ++z)
      for (int y = 2; y < g.n - 1; ++y)
        for (int x = 2; x < g.n - 1; ++x) {
          double sum = 0;
          for (int slot = 0; slot < kSlots<D, S>; ++slot) {
            int dx, dy, dz;
            slotOffset<D, S>(slot, dx, dy, dz);
            const double w = weight(g.index(x, y, z), dx, dy, dz);
            sum += w;
            EXPECT_NEAR(w, weight(g.index(x + dx, y + dy, z + dz), -dx, -dy, -dz),
                        1e-12 * std::fabs(w))
                << D << "-D stencil " << int(S) << " at " << x << "," << y << "," << z;
          }
          EXPECT_NEAR(sum, 0.0, 1e-12 * weight(g.index(x, y, z), 0, 0, 0));
          EXPECT_GT(weight(g.index(x, y, z), 0, 0, 0), 0);
        }
    return 0;
  };
  for (int dims : {2, 3})
    for (Stencil stencil : {Stencil::Compact, Stencil::Full}) withStencil(dims, stencil, check);
}

TEST(PoissonConvergence, JacobiAndGaussSeidelFallAtTheModelProblemsRates) {
  // The sine problem from u = 0: the error is the lowest mode, for which Jacobi's factor is
  // cos(pi h) and red-black Gauss-Seidel's cos^2(pi h) (its asymptotic rate). Compared as rates
  // (-log of the factor) within 1%: the factors themselves are all within 1% of 1.
  for (int dims : {2, 3}) {
    const int n = dims == 2 ? 32 : 16;
    const std::string size = std::to_string(n) + (dims == 2 ? "^2" : "^3");
    const double theory = std::cos(std::numbers::pi / n);
    for (const auto& [variant, expected] :
         {std::pair{"jacobi", theory}, std::pair{"red-black", theory * theory},
          std::pair{"lexicographic", theory * theory}}) {
      auto m = makeModule(size, variant);
      const double factor = measuredFactor(*m, 3 * n, 2 * n);
      EXPECT_NEAR(std::log(factor) / std::log(expected), 1.0, 0.01)
          << variant << " " << size << ": " << factor << " against " << expected;
    }
  }
}

// The sweeps a module's solver takes to cut the residual by 10^3 (at most `most`). Float's floor
// (see the module's notes) keeps a 64 grid's residual from falling much below 10^-4 of its start.
int sweepsToCutBy1000(PoissonModule& m, int most) {
  const double start = m.norms().residual;
  for (int k = 1; k <= most; ++k) {
    m.step(1);
    if (m.norms().residual <= 1e-3 * start) return k;
  }
  return most + 1;
}

TEST(PoissonConvergence, SorAtTheBestOmegaNeedsAFractionOfGaussSeidelsSweeps) {
  // Theory for n = 64: Gauss-Seidel's factor cos^2(pi h) needs about 2,900 sweeps to cut the
  // residual by 10^3; SOR's spectral radius omega - 1 = 0.906 about 70, more in practice (the
  // residual first grows fivefold, and its slowest modes couple at the best omega).
  const int n = 64;
  auto sor = makeModule("64", "sor");
  sor->setParam("omega", 2 / (1 + std::sin(std::numbers::pi / n)));
  const int sorSweeps = sweepsToCutBy1000(*sor, 1000);
  auto gs = makeModule("64", "red-black");
  const int gsSweeps = sweepsToCutBy1000(*gs, 5000);
  EXPECT_GT(sorSweeps, 70);
  EXPECT_LT(sorSweeps, 180);
  EXPECT_NEAR(gsSweeps, std::log(1e-3) / std::log(std::pow(std::cos(std::numbers::pi / n), 2)),
              0.05 * gsSweeps);
}

TEST(PoissonConvergence, AVCycleCutsTheResidualByAFixedFactorOnEveryGrid) {
  for (const char* size : {"64", "256", "32^3"})
    for (const char* stencil : {"finite-difference", "finite-element"}) {
      auto m = makeModule(size, "multigrid", stencil);
      const double start = m->norms().residual;
      m->step(1);
      const double one = m->norms().residual;
      m->step(2);
      const double factor = std::sqrt(m->norms().residual / one);
      EXPECT_LT(one / start, 0.2) << size << " " << stencil;
      EXPECT_LT(factor, 0.2) << size << " " << stencil;
    }
}

TEST(PoissonConvergence, TheTimeToFallAMillionIsCountedOrPredicted) {
  // Red-black at n = 32 in double: Gauss-Seidel's factor cos^2(pi / 32) needs some 1,430 sweeps
  // for 10^6. After 300 the module predicts the count from its last factor (over the last 10);
  // stepping on, the count it records where the residual crossed 10^-6 of its start agrees
  // within 2%.
  auto m = makeModule("32", "red-black");
  m->setParam("precision", std::string("double"));
  EXPECT_FALSE(m->fallByAMillion());  // no factor before a sweep
  m->step(290);
  m->step(10);
  const auto predicted = m->fallByAMillion();
  ASSERT_TRUE(predicted);
  EXPECT_FALSE(predicted->measured);
  EXPECT_NE(m->notes().find("predicted at the last factor"), std::string::npos) << m->notes();
  while (!m->fallByAMillion()->measured && m->stepCount() < 3000) m->step(10);
  const auto counted = m->fallByAMillion();
  ASSERT_TRUE(counted->measured);
  EXPECT_NEAR(predicted->sweeps, counted->sweeps, 0.02 * counted->sweeps);
  EXPECT_NEAR(counted->sweeps,
              6 * std::log(10.0) / -std::log(std::pow(std::cos(std::numbers::pi / 32), 2)),
              0.05 * counted->sweeps);
  // Multigrid gets there in a few V-cycles, counted a step at a time.
  auto multigrid = makeModule("64", "multigrid");
  multigrid->setParam("precision", std::string("double"));
  for (int k = 0; k < 20; ++k) multigrid->step(1);
  const auto cycles = multigrid->fallByAMillion();
  ASSERT_TRUE(cycles && cycles->measured);
  EXPECT_GE(cycles->sweeps, 3);
  EXPECT_LE(cycles->sweeps, 8);
  // In float a 256 grid's floor (once u has grown to the solution's size) lies above 10^-6 of
  // the start: no prediction, and the notes say so.
  auto single = makeModule("256", "multigrid");
  single->step(5);
  EXPECT_FALSE(single->fallByAMillion());
  EXPECT_NE(single->notes().find("out of reach"), std::string::npos) << single->notes();
}

// u after solving the sine problem to float precision on an n grid, and its error's rms.
double solvedError(const std::string& size, const char* stencil) {
  auto m = makeModule(size, "multigrid", stencil);
  const double start = m->norms().residual;
  m->step(12);
  // Float's floor: (S u) / h^2 loses about n^2 ulps of u, 1e-5 of f at n = 64.
  EXPECT_LT(m->norms().residual, 1e-4 * start) << size;
  return m->norms().error;
}

TEST(PoissonAccuracy, TheErrorAgainstTheSineSolutionFallsAtSecondOrder) {
  for (const char* stencil : {"finite-difference", "finite-element"}) {
    const double e16 = solvedError("16", stencil), e32 = solvedError("32", stencil),
                 e64 = solvedError("64", stencil);
    EXPECT_NEAR(e16 / e32, 4.0, 0.3) << stencil;
    EXPECT_NEAR(e32 / e64, 4.0, 0.3) << stencil;
    const double c16 = solvedError("16^3", stencil), c32 = solvedError("32^3", stencil);
    EXPECT_NEAR(c16 / c32, 4.0, 0.3) << stencil;
  }
}

TEST(PoissonSolvers, EverySolverReachesTheSameDiscreteSolution) {
  const std::uint64_t seed = test::freshSeed();
  for (const char* size : {"16", "8^3"})
    for (const char* stencil : {"finite-difference", "finite-element"}) {
      // A random right-hand side, solved by multigrid as the reference.
      auto reference = makeModule(size, "multigrid", stencil);
      const Grid g = reference->grid();
      const std::vector<double> f = test::randomInterior(g, seed);
      const std::vector<double> zero(g.nodes(), 0.0);
      reference->engine().load(zero, f);
      reference->step(15);
      const std::vector<double> solved = reference->engine().solution();
      double scale = 0;
      for (double v : solved) scale = std::max(scale, std::fabs(v));
      for (const KernelVariant& v : reference->variants(Backend::Cpu)) {
        auto m = makeModule(size, v.name, stencil);
        m->engine().load(zero, f);
        m->step(v.name == "multigrid" ? 15 : 1500);
        EXPECT_LT(test::largestDifference(m->engine().solution(), solved), 1e-4 * scale)
            << v.name << " " << size << " " << stencil;
      }
    }
}

TEST(PoissonSolvers, StoredStencilsSweepAsTheConstantOnes) {
  // k = 1 everywhere: every solver with its stencils stored at every node gives the constant
  // stencil's numbers (to double's round-off: the stored slots are summed one by one, the
  // constant stencil's neighbours class by class).
  for (const char* size : {"32", "16^3"})
    for (const char* stencil : {"finite-difference", "finite-element"})
      for (const KernelVariant& v : PoissonModule(Backend::Cpu).variants(Backend::Cpu)) {
        if (v.name == "unordered") continue;  // a race on more than one thread
        SCOPED_TRACE(v.name + " " + size + " " + stencil);
        auto constant = makeModule(size, v.name, stencil),
             stored = makeModule(size, v.name, stencil);
        for (auto* m : {constant.get(), stored.get()})
          m->setParam("precision", std::string("double"));
        stored->setParam("stencils", std::string("stored at every node"));
        EXPECT_TRUE(stored->config().sweep.stored);
        EXPECT_FALSE(constant->config().sweep.stored);
        EXPECT_NE(stored->configuration().find("stored"), std::string::npos);
        constant->step(5);
        stored->step(5);
        EXPECT_LT(
            test::largestDifference(constant->engine().solution(), stored->engine().solution()),
            1e-12);
        // (Multigrid's residual is at double's floor, 2e-16 |u| n^2, by now.)
        const double n = constant->grid().n;
        EXPECT_NEAR(stored->norms().residual, constant->norms().residual,
                    1e-9 * constant->norms().residual + 1e-12 * n * n);
      }
}

// The rms error against sin(pi x) sin(pi y) (sin(pi z)) of -div(k grad u) = f with k = 1 + x,
// solved by multigrid in double on an n grid.
double variableCoefficientError(const std::string& size, const char* stencil) {
  auto m = makeModule(size, "multigrid", stencil);
  m->setParam("precision", std::string("double"));
  const Grid g = m->grid();
  const double h = g.spacing(), pi = std::numbers::pi;
  std::vector<double> k(g.cells()), f(g.nodes(), 0.0);
  for (int z = 0; z < (g.dims == 3 ? g.n : 1); ++z)
    for (int y = 0; y < g.n; ++y)
      for (int x = 0; x < g.n; ++x) k[g.cell(x, y, z)] = 1 + (x + 0.5) * h;
  for (int z = (g.dims == 3 ? 1 : 0); z < (g.dims == 3 ? g.n : 1); ++z)
    for (int y = 1; y < g.n; ++y)
      for (int x = 1; x < g.n; ++x) {
        // -div((1 + x) grad u) = -(du/dx) + (1 + x) D pi^2 u.
        const double u = sineSolution(g, x, y, z);
        const double dudx = pi * std::cos(pi * x * h) * std::sin(pi * y * h) *
                            (g.dims == 3 ? std::sin(pi * z * h) : 1.0);
        f[g.index(x, y, z)] = -dudx + (1 + x * h) * g.dims * pi * pi * u;
      }
  m->loadCoefficient(k);
  EXPECT_FALSE(m->coefficientUniform());
  EXPECT_TRUE(m->config().sweep.stored);
  m->engine().load(std::vector<double>(g.nodes(), 0.0), f);
  m->step(12);
  EXPECT_LT(m->norms().residual, 1e-8 * g.n * g.n) << size << " " << stencil;
  return m->norms().error;
}

TEST(PoissonAccuracy, AVariableCoefficientSolvesAtSecondOrder) {
  // A manufactured solution: k = 1 + x on the cells, f from the sine solution. The error falls
  // by 4 (+- 0.4) per halving of h, as for k = 1: the stored operator is -div(k grad u)'s.
  for (const auto& [coarse, fine] : {std::pair{"32", "64"}, std::pair{"16^3", "32^3"}})
    for (const char* stencil : {"finite-difference", "finite-element"}) {
      const double ratio =
          variableCoefficientError(coarse, stencil) / variableCoefficientError(fine, stencil);
      EXPECT_NEAR(ratio, 4.0, 0.4) << coarse << " " << stencil;
    }
}

TEST(PoissonSolvers, EverySolverReachesTheSameSolutionWithAnInclusion) {
  // k = 100 in a disc: multigrid, red-black, Jacobi and sequential Gauss-Seidel reach one discrete
  // solution (double); the error view has no exact solution to compare against.
  const auto solved = [&](const std::string& variant, int sweeps) {
    auto m = makeModule("16", variant);
    m->setParams({{"precision", std::string("double")},
                  {"coefficient", std::string("inclusion")},
                  {"problem", std::string("sources")}});
    EXPECT_FALSE(m->coefficientUniform());
    EXPECT_FALSE(m->exactSolutionKnown());
    m->step(sweeps);
    return m->engine().solution();
  };
  const std::vector<double> multigrid = solved("multigrid", 40);
  for (const auto& [variant, sweeps] : {std::pair{"red-black", 6000}, std::pair{"jacobi", 12000},
                                        std::pair{"lexicographic", 20000}})
    EXPECT_LT(test::largestDifference(solved(variant, sweeps), multigrid), 1e-9) << variant;
}

TEST(PoissonPrecision, DoubleLetsTheResidualFallWhereFloatsFloorStopsIt) {
  // Multigrid on the sine problem at n = 256: float's rounding stops the residual near 1e-7 |u|
  // n^2 = 7e-3, some 10^3.5 below its start; in double it falls by 10^9 and more. Float's
  // solution differs from double's by its rounding noise, 1e-5 here: more than the discretization
  // error (6e-6), which double shows.
  auto single = makeModule("256", "multigrid"), twice = makeModule("256", "multigrid");
  twice->setParam("precision", std::string("double"));
  const double start = single->norms().residual;
  EXPECT_NEAR(twice->norms().residual, start, 1e-6 * start);
  single->step(20);
  twice->step(20);
  EXPECT_GT(single->norms().residual, 1e-5 * start);
  EXPECT_LT(twice->norms().residual, 1e-9 * start);
  const std::vector<double> a = single->engine().solution(), b = twice->engine().solution();
  EXPECT_LT(test::largestDifference(a, b), 5e-5);
  EXPECT_NE(a, b);
  EXPECT_NEAR(twice->norms().error, 6.3e-6, 0.3e-6);  // pi^2 h^2 / 12 of u's rms, 1/2
  EXPECT_NE(twice->notes().find("double's floor"), std::string::npos) << twice->notes();
}

TEST(PoissonPrecision, SwitchingPrecisionKeepsTheStateAndADoubleStateComesBackExactly) {
  auto m = makeModule("32", "sor");
  m->step(9);
  const std::vector<double> before = m->engine().solution();
  m->setParam("precision", std::string("double"));
  EXPECT_EQ(m->engine().solution(), before);  // floats widen exactly
  EXPECT_EQ(m->stepCount(), 9u);
  m->step(4);
  const StateBlob state = m->saveState();
  EXPECT_EQ(state.meta["precision"], "double");
  auto other = makeModule("16", "jacobi");
  other->setParam("precision", std::string("double"));
  other->restoreState(state);
  EXPECT_EQ(other->engine().solution(), m->engine().solution());
  // Into a float engine a double state is rounded, not refused.
  auto narrow = makeModule("16", "jacobi");
  narrow->restoreState(state);
  EXPECT_NE(narrow->engine().solution(), m->engine().solution());
  StateBlob damaged = state;
  damaged.meta["precision"] = "half";
  EXPECT_THROW(other->restoreState(damaged), InputError);
  damaged = state;
  damaged.meta.erase("precision");
  EXPECT_THROW(other->restoreState(damaged), InputError);
}

TEST(PoissonOrderings, TheSameOrderingGivesTheSameNumbersOnAnyThreadCount) {
  // Colour by colour, no node reads a value another thread writes in the same pass: OpenMP's
  // sweeps equal one thread's bit for bit. And the unordered sweep on one thread is sequential
  // Gauss-Seidel exactly (the race needs a second thread).
  TimingScope sweep("sweep", "updates/s", false), view("view", "pixels/s", false);
  const std::uint64_t seed = test::freshSeed();
  for (const Grid g : {Grid{40, 2}, Grid{12, 3}})
    for (Stencil stencil : {Stencil::Compact, Stencil::Full})
      for (Precision precision : {Precision::Float, Precision::Double}) {
        const std::vector<double> u = test::randomInterior(g, seed),
                                  f = test::randomInterior(g, seed + 1);
        const auto run = [&](int threads, Method method, int colours) {
          auto engine = makeCpuEngine(threads, precision, {&sweep, &view});
          engine->reshape(g);
          engine->load(u, f);
          Sweep s;
          s.method = method;
          s.stencil = stencil;
          s.colours = colours;
          s.omega = 1.3;
          engine->sweep(5, s);
          return engine->solution();
        };
        const int colours = coloursFor(stencil, g.dims);
        EXPECT_EQ(run(0, Method::Coloured, colours), run(1, Method::Coloured, colours));
        EXPECT_EQ(run(0, Method::Jacobi, 1), run(1, Method::Jacobi, 1));
        EXPECT_EQ(run(0, Method::Multigrid, colours), run(1, Method::Multigrid, colours));
        EXPECT_EQ(run(1, Method::Unordered, 1), run(1, Method::Lexicographic, 1));
        EXPECT_NE(run(1, Method::Coloured, colours), run(1, Method::Lexicographic, 1));
      }
}

TEST(PoissonRaces, EachSolversLastRaceFromZeroIsKeptUntilTheProblemChanges) {
  auto m = makeModule("32", "red-black");
  m->step(50);
  m->select(Backend::Cpu, "multigrid");
  m->step(2);  // not from u = 0: no race
  const auto series = [&](std::size_t plot) {
    std::map<std::string, std::size_t> points;
    const std::vector<SeriesPlot> plots = m->seriesPlots();  // held: the loop reads into it
    for (const SeriesPlot::Series& s : plots.at(plot).series) points[s.name] = s.x.size();
    return points;
  };
  EXPECT_EQ(series(0), (std::map<std::string, std::size_t>{{"red-black", 1}}));
  m->reset();
  for (int k = 0; k < 4; ++k) m->step(1);
  EXPECT_EQ(series(0), (std::map<std::string, std::size_t>{{"multigrid", 4}, {"red-black", 1}}));
  // Against time once the rate is measured (after the timings' warm-up samples).
  EXPECT_EQ(m->seriesPlots().at(1).series.at(0).name, "multigrid");
  EXPECT_GT(m->seriesPlots().at(1).series.at(0).x.size(), 0u);
  // The residual falls along a race.
  const SeriesPlot::Series multigrid = m->seriesPlots().at(0).series.at(0);
  EXPECT_LT(multigrid.y.back(), multigrid.y.front() - 3);
  // Reset, then choose another solver: it races from u = 0, and the last one's race stands (a
  // race is replaced only by the solver's next sweep from u = 0).
  m->reset();
  m->select(Backend::Cpu, "jacobi");
  m->step(3);
  EXPECT_EQ(series(0), (std::map<std::string, std::size_t>{
                           {"jacobi", 1}, {"multigrid", 4}, {"red-black", 1}}));
  // A setting that makes another problem before the first sweep: the race starts there.
  m->reset();
  m->setParam("precision", std::string("double"));
  m->step(2);
  EXPECT_EQ(series(0), (std::map<std::string, std::size_t>{{"jacobi", 1}}));
  // A stroke makes another problem: every race ends.
  PointerEdit e;
  e.tool = "positive";
  e.fromX = e.x = 10.5;
  e.fromY = e.y = 10.5;
  ASSERT_TRUE(m->edit(e));
  EXPECT_TRUE(series(0).empty());
}

TEST(PoissonInput, SizesThatDoNotFitAreRefusedAndChangeNothing) {
  auto m = makeModule("64", "red-black");
  m->step(3);
  // Red-black is no colouring of the 9-point stencil: the variant takes its 4 colours.
  m->setParam("stencil", std::string("finite-element"));
  EXPECT_EQ(m->config().sweep.colours, 4);
  m->setParam("stencil", std::string("finite-difference"));
  EXPECT_EQ(m->config().sweep.colours, 2);
  m->setParam("size", std::int64_t(100));
  try {
    m->select(Backend::Cpu, "multigrid");
    FAIL() << "multigrid on 100 cells a side was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("128"), std::string::npos) << e.what();
  }
  EXPECT_EQ(m->variant(), "red-black");
  EXPECT_EQ(m->grid().n, 100);

  // On multigrid, a size that does not halve is refused with the state as it was.
  auto mg = makeModule("64", "multigrid");
  mg->step(2);
  const std::vector<double> before = mg->engine().solution();
  EXPECT_THROW(mg->setParam("size", std::int64_t(96)), InputError);
  EXPECT_EQ(mg->params().getInt("size"), 64);
  EXPECT_EQ(mg->grid().n, 64);
  EXPECT_EQ(mg->engine().solution(), before);
  EXPECT_EQ(mg->stepCount(), 2u);

  EXPECT_THROW(m->setSize("64x32"), InputError);
  EXPECT_THROW(m->setSize("64^4"), InputError);
  EXPECT_EQ(m->grid().n, 100);
  m->setSize("32^3");
  EXPECT_EQ(m->grid().dims, 3);
  EXPECT_EQ(m->sizeText(), "32^3");
}

TEST(PoissonEdit, DrawingTheRightHandSideIsUndoneAndEndsTheExactComparison) {
  auto m = makeModule("64", "red-black");
  m->setParam("problem", std::string("drawn"));
  EXPECT_FALSE(m->exactSolutionKnown());
  // Nothing drawn yet: f = 0, u = 0 is solved, and sweeping it is no error.
  m->step(3);
  EXPECT_EQ(m->norms().residual, 0.0);
  EXPECT_FALSE(m->metrics().empty());
  m->setParam("problem", std::string("sine"));
  EXPECT_TRUE(m->exactSolutionKnown());
  const std::vector<double> f = m->engine().rightHandSide();
  PointerEdit e;
  e.tool = "positive";
  e.fromX = e.x = 20.5;
  e.fromY = e.y = 30.5;
  const auto change = m->edit(e);
  ASSERT_TRUE(change);
  EXPECT_FALSE(m->exactSolutionKnown());
  const Grid& g = m->grid();
  EXPECT_FLOAT_EQ(m->engine().rightHandSide()[g.index(20, 30, 0)], 200.0f);
  EXPECT_FLOAT_EQ(m->engine().rightHandSide()[g.index(24, 30, 0)], 200.0f);  // the brush's edge
  EXPECT_FLOAT_EQ(m->engine().rightHandSide()[g.index(25, 30, 0)], f[g.index(25, 30, 0)]);
  // The view `view` over the whole world, `side` pixels square.
  const auto rendered = [&](const char* view, int side) {
    m->setParam("view", std::string(view));
    std::vector<float> pixels(std::size_t(side) * side);
    FieldRequest r;
    r.width = r.height = side;
    r.worldPerPixel = double(g.side()) / side;
    FieldImage image{pixels.data(), side, side, false};
    m->renderField(r, image);
    return pixels;
  };
  const auto shown = [](const std::vector<float>& pixels) {
    return std::count_if(pixels.begin(), pixels.end(), [](float v) { return !std::isnan(v); });
  };
  // With no exact solution the error view shows nothing rather than u minus the sine's.
  EXPECT_EQ(shown(rendered("error", 16)), 0);
  EXPECT_EQ(shown(rendered("solution", 16)), 16 * 16);
  // The colour classes are drawn on a corner of 8 cells a side, whatever the grid: 9 nodes across
  // the view, alternating.
  const std::vector<float> colours = rendered("colours", 90);
  int changes = 0;
  for (int px = 1; px < 90; ++px) changes += colours[45 * 90 + px] != colours[45 * 90 + px - 1];
  EXPECT_EQ(changes, 8);
  EXPECT_EQ(colours[45 * 90 + 5], float(colourOf(2, 0, 4, 0)));
  m->revert(*change, false);
  EXPECT_EQ(m->engine().rightHandSide(), f);
  EXPECT_TRUE(m->exactSolutionKnown());  // the sine problem again
  m->revert(*change, true);
  EXPECT_FLOAT_EQ(m->engine().rightHandSide()[g.index(20, 30, 0)], 200.0f);
  EXPECT_FALSE(m->exactSolutionKnown());
  // The boundary is the boundary condition: a stroke along it sets nothing.
  e.fromX = e.x = 0.5;
  e.fromY = e.y = 0.5;
  m->setParam("brush", std::int64_t(0));
  EXPECT_FALSE(m->edit(e));
}

TEST(PoissonEdit, DrawingTheCoefficientStoresTheStencilsAndIsUndone) {
  auto m = makeModule("64", "red-black");
  m->step(3);
  ASSERT_TRUE(m->coefficientUniform());
  EXPECT_FALSE(m->config().sweep.stored);
  PointerEdit e;
  e.tool = "coefficient";
  e.fromX = e.x = 20.5;  // between nodes 20 and 21: cell 20
  e.fromY = e.y = 30.5;
  m->setParam("contrast", 10.0);
  const auto change = m->edit(e);
  ASSERT_TRUE(change);
  EXPECT_FALSE(m->coefficientUniform());
  EXPECT_TRUE(m->config().sweep.stored);  // k varies: the stencils are stored
  EXPECT_FALSE(m->exactSolutionKnown());
  const Grid& g = m->grid();
  const std::vector<double> k = m->engine().coefficient();
  ASSERT_EQ(k.size(), g.cells());
  EXPECT_DOUBLE_EQ(k[g.cell(20, 30, 0)], 10.0);
  EXPECT_DOUBLE_EQ(k[g.cell(24, 30, 0)], 10.0);  // the brush's edge, 4 cells away
  EXPECT_DOUBLE_EQ(k[g.cell(25, 30, 0)], 1.0);
  // The coefficient view shows log10 k: 1 on the cells drawn, 0 elsewhere.
  m->setParam("view", std::string("coefficient"));
  std::vector<float> pixels(65 * 65);
  FieldRequest r;
  r.width = r.height = 65;
  r.worldPerPixel = 1;
  FieldImage image{pixels.data(), 65, 65, false};
  m->renderField(r, image);
  EXPECT_FLOAT_EQ(pixels[30 * 65 + 20], 1.0f);
  EXPECT_FLOAT_EQ(pixels[30 * 65 + 40], 0.0f);
  // Sweeping solves the problem with k drawn: the residual still falls.
  const double before = m->norms().residual;
  m->step(50);
  EXPECT_LT(m->norms().residual, before);
  // Undone, k = 1 everywhere again and the constant stencils come back; redone, k is drawn.
  m->revert(*change, false);
  EXPECT_TRUE(m->coefficientUniform());
  EXPECT_FALSE(m->config().sweep.stored);
  EXPECT_TRUE(m->engine().coefficient().empty());
  m->revert(*change, true);
  EXPECT_FALSE(m->coefficientUniform());
  EXPECT_DOUBLE_EQ(m->engine().coefficient()[g.cell(20, 30, 0)], 10.0);
  // "coefficient 1" sets it back to 1 on the cells it covers.
  e.tool = "coefficient 1";
  ASSERT_TRUE(m->edit(e));
  EXPECT_DOUBLE_EQ(m->engine().coefficient()[g.cell(20, 30, 0)], 1.0);
}

TEST(PoissonState, AStateComesBackWholeAndADamagedOneChangesNothing) {
  auto m = makeModule("32", "sor");
  m->step(7);
  const StateBlob state = m->saveState();
  auto other = makeModule("16^3", "jacobi");
  other->restoreState(state);
  EXPECT_EQ(other->grid().n, 32);
  EXPECT_EQ(other->grid().dims, 2);
  EXPECT_EQ(other->engine().solution(), m->engine().solution());
  EXPECT_EQ(other->stepCount(), 7u);

  StateBlob damaged = state;
  damaged.data.resize(damaged.data.size() - 4);
  EXPECT_THROW(other->restoreState(damaged), InputError);
  damaged = state;
  damaged.meta["dimensions"] = 4;
  EXPECT_THROW(other->restoreState(damaged), InputError);
  damaged = state;
  const float nan = NAN;
  std::memcpy(damaged.data.data() + 40 * sizeof(float), &nan, sizeof nan);
  EXPECT_THROW(other->restoreState(damaged), InputError);
  EXPECT_EQ(other->engine().solution(), m->engine().solution());

  // A coefficient comes back with the state; a coefficient of zero or less is refused, naming the
  // cell, and changes nothing.
  auto inclusion = makeModule("32", "multigrid");
  inclusion->setParams(
      {{"coefficient", std::string("inclusion")}, {"precision", std::string("double")}});
  inclusion->step(2);
  const StateBlob withK = inclusion->saveState();
  other->restoreState(withK);
  EXPECT_FALSE(other->coefficientUniform());
  EXPECT_TRUE(other->config().sweep.stored);
  EXPECT_EQ(other->engine().coefficient(), inclusion->engine().coefficient());  // 1 and 100
  // (other holds float: the double state's u rounds.)
  EXPECT_LT(test::largestDifference(other->engine().solution(), inclusion->engine().solution()),
            1e-6);
  damaged = withK;
  const double negative = -2;
  const std::size_t cell = 2 * inclusion->grid().nodes() + 100;
  std::memcpy(damaged.data.data() + cell * sizeof(double), &negative, sizeof negative);
  try {
    other->restoreState(state);
    other->restoreState(damaged);
    FAIL() << "a negative coefficient was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("cell 100"), std::string::npos) << error.what();
  }
  EXPECT_TRUE(other->coefficientUniform());
  EXPECT_EQ(other->engine().solution(), m->engine().solution());
}

}  // namespace
}  // namespace ws::poisson
