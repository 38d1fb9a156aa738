// Every CUDA Poisson solver against the CPU on fresh random states: 2-D and 3-D, both stencils,
// sizes odd and even (so each colour's first node and the blocks' edges move), then the norms and
// the views. Skips where no GPU is present.
#include <gtest/gtest.h>

#include <cmath>

#include "compute/poisson/poisson_module.h"
#include "tests/poisson_support.h"
#include "tests/test_support.h"

namespace ws::poisson {
namespace {

// Tolerance: the same operations in the same order on both sides (poisson_stencil.h), apart from
// the multiply-adds nvcc fuses; each update is a contraction of values of order 1, so after a few
// sweeps they differ by some 1e-6, while a wrong colour, a missed node or a wrong neighbour shows
// as a difference of order 0.1 to 1.
constexpr double kTolerance = 1e-4;

TEST(PoissonCuda, EverySolverFollowsTheCpuOnFreshRandomStates) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed();
  for (const char* size : {"32", "37", "64", "16^3", "13^3"})
    for (const char* stencil : {"finite-difference", "finite-element"})
      for (const char* precision : {"float", "double"})
        for (const KernelVariant& v : PoissonModule(Backend::Cuda).variants(Backend::Cuda)) {
          if (v.name == "unordered") continue;  // a race: compared by what it converges to below
          const bool multigrid = v.name == "multigrid";
          if (multigrid && std::string(size).find('7') != std::string::npos) continue;
          if (multigrid && std::string(size) == "13^3") continue;
          SCOPED_TRACE(v.name + " " + size + " " + stencil + " " + precision);
          PoissonModule cpu(Backend::Cpu), gpu(Backend::Cuda);
          for (PoissonModule* m : {&cpu, &gpu}) {
            m->setSize(size);
            m->select(m->backend(), v.name);
            m->setParams({{"stencil", std::string(stencil)},
                          {"omega", 1.5},
                          {"precision", std::string(precision)}});
          }
          // Double rounds 10^9 times finer.
          const double tolerance = std::string(precision) == "double" ? 1e-12 : kTolerance;
          const Grid g = cpu.grid();
          const std::vector<double> u = test::randomInterior(g, seed + g.n, 1.0f);
          const std::vector<double> f =
              test::randomInterior(g, seed + g.n + 1, float(g.n) * float(g.n));
          cpu.engine().load(u, f);
          gpu.engine().load(u, f);
          ASSERT_EQ(gpu.engine().solution(), u);
          ASSERT_EQ(gpu.engine().rightHandSide(), f);
          for (int sweeps : {1, 4}) {
            cpu.step(sweeps);
            gpu.step(sweeps);
            EXPECT_LT(test::largestDifference(cpu.engine().solution(), gpu.engine().solution()),
                      tolerance)
                << "after " << cpu.stepCount() << " sweeps";
          }
          const Norms a = cpu.norms(), b = gpu.norms();
          EXPECT_NEAR(b.residual, a.residual, 1e-4 * a.residual + 1e-3);
          EXPECT_NEAR(b.error, a.error, 1e-4 * a.error + 1e-6);
          EXPECT_NEAR(b.largest, a.largest, 1e-4);
        }
}

TEST(PoissonCuda, TheUnorderedSweepStillConvergesToTheDiscreteSolution) {
  WS_REQUIRE_GPU();
  PoissonModule multigrid(Backend::Cuda), unordered(Backend::Cuda);
  for (PoissonModule* m : {&multigrid, &unordered}) m->setSize("32");
  multigrid.select(Backend::Cuda, "multigrid");
  unordered.select(Backend::Cuda, "unordered");
  multigrid.step(15);
  unordered.step(4000);
  EXPECT_LT(test::largestDifference(multigrid.engine().solution(), unordered.engine().solution()),
            1e-3);
}

TEST(PoissonCuda, TheViewsShowWhatTheCpuShows) {
  WS_REQUIRE_GPU();
  for (const char* size : {"40", "12^3"}) {
    PoissonModule cpu(Backend::Cpu), gpu(Backend::Cuda);
    for (PoissonModule* m : {&cpu, &gpu}) {
      m->setSize(size);
      m->step(3);
    }
    for (const char* view : {"solution", "error", "residual", "right-hand side", "colours"}) {
      SCOPED_TRACE(std::string(size) + " " + view);
      std::vector<float> a(96 * 80), b(a.size());
      FieldRequest r;
      r.width = 96;
      r.height = 80;
      r.originX = -2;
      r.originY = -1.5;
      r.worldPerPixel = (cpu.grid().side() + 4.0) / 96;
      for (PoissonModule* m : {&cpu, &gpu}) {
        m->setParam("view", std::string(view));
        FieldImage image{m == &cpu ? a.data() : b.data(), r.width, r.height, false};
        m->renderField(r, image);
      }
      for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(std::isnan(a[i]), std::isnan(b[i])) << "pixel " << i;
        if (!std::isnan(a[i])) ASSERT_NEAR(a[i], b[i], 1e-3f * (1 + std::fabs(a[i]))) << i;
      }
    }
  }
}

}  // namespace
}  // namespace ws::poisson
