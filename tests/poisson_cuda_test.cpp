// Every CUDA Poisson solver against the CPU on fresh random states: 2-D and 3-D, both stencils,
// sizes odd and even (so each colour's first node and the blocks' edges move), the coloured ones
// with both kernels (the shared-memory slices on grids of several tiles and z-blocks), then the
// norms and the views. Skips where no GPU is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "compute/poisson/poisson_module.h"
#include "tests/poisson_support.h"
#include "tests/test_support.h"

namespace ws::poisson {
namespace {

// Tolerance: the same operations in the same order on both sides (poisson_stencil.h), apart from
// the multiply-adds nvcc fuses; each update is a contraction of values of order 1, so after a few
// sweeps they differ by some 1e-6 of the largest |u|, while a wrong colour, a missed node or a
// wrong neighbour shows as a difference of order 0.1 to 1 of it. Relative to |u| where it grows
// past 1: multigrid's corrections carried u to 13.5 and float's rounding to 1.1e-4 (H200, run 76).
constexpr double kTolerance = 1e-4;

// One sweep and four more on both modules (loaded alike): u agrees within `tolerance` times the
// largest |u| (at least 1) after each, and the residuals' norms agree.
void expectTheSameSweeps(PoissonModule& cpu, PoissonModule& gpu, double tolerance) {
  for (int sweeps : {1, 4}) {
    cpu.step(sweeps);
    gpu.step(sweeps);
    const double scale = std::max(1.0, cpu.norms().largest);
    EXPECT_LT(test::largestDifference(cpu.engine().solution(), gpu.engine().solution()),
              tolerance * scale)
        << "after " << cpu.stepCount() << " sweeps, largest |u| " << scale;
  }
  const double a = cpu.norms().residual, b = gpu.norms().residual;
  EXPECT_NEAR(b, a, 1e-4 * a + 1e-3);
}

TEST(PoissonCuda, EverySolverFollowsTheCpuOnFreshRandomStates) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed();
  // How the coloured passes run: a thread a node, every other pass from the grid's end or each
  // from its start, or shared-memory slices marching up z-blocks of 32 planes, or 5 (so that 3-D
  // grids take several blocks in z, one of them short), or register columns, or both colours in
  // one pass (3-D red-black on the 7-point stencil; elsewhere a thread a node), in blocks of 5
  // planes and of 1.
  struct Run {
    std::string kernel;
    int zBlock;
    std::string passOrder = "back and forth";
  };
  const std::vector<Run> kernels = {
      {"a thread a node", 32},        {"a thread a node", 32, "one way"},
      {"shared-memory slices", 32},   {"shared-memory slices", 5},
      {"register columns", 5},        {"both colours in one pass", 5},
      {"both colours in one pass", 1}};
  // Under compute-sanitizer (WS_SANITIZER_RUN, racecheck's pace) the grids of several tiles and
  // z-blocks, in float: the kernels' shared memory is the same in double.
  const bool sanitizer = std::getenv("WS_SANITIZER_RUN") != nullptr;
  const std::vector<const char*> sizes =
      sanitizer ? std::vector<const char*>{"150", "13^3", "40^3"}
                : std::vector<const char*>{"32", "37", "64", "150", "16^3", "13^3", "70^3"};
  const std::vector<const char*> precisions =
      sanitizer ? std::vector<const char*>{"float"} : std::vector<const char*>{"float", "double"};
  for (const char* size : sizes)
    for (const char* stencil : {"finite-difference", "finite-element"})
      for (const char* precision : precisions)
        for (const KernelVariant& v : PoissonModule(Backend::Cuda).variants(Backend::Cuda))
          for (const auto& [kernel, zBlock, passOrder] : kernels) {
            if (v.name == "unordered") continue;  // a race: compared by what it converges to below
            const bool multigrid = v.name == "multigrid";
            // Multigrid's finest level sweeps in one pass with that kernel; its others, a thread
            // a node.
            if (v.name == "jacobi" && kernel != "a thread a node") continue;
            if (multigrid && kernel != "a thread a node" && kernel != "both colours in one pass")
              continue;
            if (multigrid && !multigridFits(std::atoi(size))) continue;  // refused there
            SCOPED_TRACE(v.name + " " + size + " " + stencil + " " + precision + ", " + kernel +
                         " (" + std::to_string(zBlock) + " planes, " + passOrder + ")");
            PoissonModule cpu(Backend::Cpu), gpu(Backend::Cuda);
            for (PoissonModule* m : {&cpu, &gpu}) {
              m->setSize(size);
              m->select(m->backend(), v.name);
              m->setParams({{"stencil", std::string(stencil)},
                            {"omega", 1.5},
                            {"precision", std::string(precision)},
                            {"kernel", kernel},
                            {"z_block", zBlock},
                            {"pass_order", passOrder}});
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
            expectTheSameSweeps(cpu, gpu, tolerance);
            const Norms a = cpu.norms(), b = gpu.norms();
            EXPECT_NEAR(b.error, a.error, 1e-4 * a.error + 1e-6);
            EXPECT_NEAR(b.largest, a.largest, 1e-4 * std::max(1.0, a.largest));
          }
}

TEST(PoissonCuda, StoredAndVariableStencilsFollowTheCpu) {
  // k random on the cells (0.5 to 2, each a float), so the stencils are built and stored at
  // every node on both sides; the same solvers and kernels, compared as above, then the norms
  // and the coefficient view.
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed();
  const bool sanitizer = std::getenv("WS_SANITIZER_RUN") != nullptr;
  const std::vector<const char*> sizes = sanitizer
                                             ? std::vector<const char*>{"150", "16^3"}
                                             : std::vector<const char*>{"37", "64", "13^3", "16^3"};
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"red-black", "a thread a node"},
      {"red-black", "shared-memory slices"},
      {"red-black", "both colours in one pass"},
      {"multicolour", "shared-memory slices"},
      {"jacobi", "a thread a node"},
      {"multigrid", "a thread a node"}};
  for (const char* size : sizes)
    for (const char* stencil : {"finite-difference", "finite-element"})
      for (const char* precision : {"float", "double"})
        for (const auto& [variant, kernel] : runs) {
          if (variant == "multigrid" && !multigridFits(std::atoi(size))) continue;
          SCOPED_TRACE(variant + " " + size + " " + stencil + " " + precision + ", " + kernel);
          PoissonModule cpu(Backend::Cpu), gpu(Backend::Cuda);
          for (PoissonModule* m : {&cpu, &gpu}) {
            m->setSize(size);
            m->select(m->backend(), variant);
            m->setParams({{"stencil", std::string(stencil)},
                          {"precision", std::string(precision)},
                          {"kernel", kernel}});
          }
          const Grid g = cpu.grid();
          const std::vector<double> noise = test::randomInterior({g.n + 1, g.dims}, seed + 7);
          std::vector<double> k(g.cells());
          for (int z = 0; z < (g.dims == 3 ? g.n : 1); ++z)
            for (int y = 0; y < g.n; ++y)
              for (int x = 0; x < g.n; ++x)
                k[g.cell(x, y, z)] = float(std::exp2(
                    noise[Grid{g.n + 1, g.dims}.index(x + 1, y + 1, g.dims == 3 ? z + 1 : 0)]));
          const std::vector<double> u = test::randomInterior(g, seed + g.n, 1.0f);
          const std::vector<double> f =
              test::randomInterior(g, seed + g.n + 1, float(g.n) * float(g.n));
          for (PoissonModule* m : {&cpu, &gpu}) {
            m->loadCoefficient(k);
            m->engine().load(u, f);
          }
          ASSERT_TRUE(gpu.config().sweep.stored);
          ASSERT_EQ(gpu.engine().coefficient(), k);
          const double tolerance = std::string(precision) == "double" ? 1e-12 : kTolerance;
          expectTheSameSweeps(cpu, gpu, tolerance);
          std::vector<float> shown[2];
          for (PoissonModule* m : {&cpu, &gpu}) {
            m->setParam("view", std::string("coefficient"));
            std::vector<float>& pixels = shown[m == &gpu];
            pixels.assign(40 * 40, 0.0f);
            FieldRequest r;
            r.width = r.height = 40;
            r.worldPerPixel = double(g.side()) / 40;
            FieldImage image{pixels.data(), 40, 40, false};
            m->renderField(r, image);
          }
          for (std::size_t i = 0; i < shown[0].size(); ++i)
            ASSERT_NEAR(shown[0][i], shown[1][i], 1e-6f) << "pixel " << i;
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
