// Every CUDA Cahn-Hilliard kernel against the CPU on fresh random fields: 2-D and 3-D, sizes that
// are and are not multiples of the kernels' blocks and tiles, both integrators, strips and
// rectangles, coefficients from arguments and from constant memory; the fast path back and forth
// against one way, and in 3-D its resident blocks against a launch a pass; then the totals and
// the view.
// Skips where no GPU is present.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "compute/cahn-hilliard/ch_module.h"
#include "compute/core/errors.h"
#include "tests/test_support.h"

namespace ws::ch {
namespace {

bool underSanitizer() {
  return std::getenv("WS_SANITIZER_RUN") != nullptr;
}

std::vector<float> randomField(std::size_t cells, std::uint64_t seed, float mean, float noise) {
  std::vector<float> phi(cells);
  std::uint64_t state = seed * 2654435761u + 1;
  for (float& v : phi) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    v = mean + noise * (float(state >> 40) / float(1 << 24) * 2 - 1);
  }
  return phi;
}

// The largest |a - b|.
float largestDifference(const std::vector<float>& a, const std::vector<float>& b) {
  float worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

// Tolerance: the kernels and the CPU run the same operations in the same order (ch_stencil.h); they
// differ only where nvcc fuses a multiply and an add that the host compiler rounds twice. With
// |phi| <= 1 the terms of a rate are at most about 200 (float ulp 1.5e-5), so a rate may differ by
// some 1e-4 and a step (times dt = 0.01) by 1e-6; the dynamics damp such differences rather than
// grow them, so after 20 steps 1e-4 leaves a margin of ten or more while any wrong stencil value
// (an off-by-one halo, a wrong wrap) shows as a difference of order 0.01 to 1.
constexpr float kTolerance = 1e-4f;

TEST(ChCuda, EveryKernelFollowsTheCpuOnFreshRandomFields) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed();
  // "150x200", "256x300" and "40x30x72" are large enough for the shuffle kernels' chunks away
  // from the grid's sides (which step through rows and planes without wrapping them). The fast
  // path holds four columns a lane where the width is a multiple of four in 2-D (96, 100, 256,
  // 1032; 32) and in 3-D where it is a multiple of two and fills at least five sixths of its
  // warps of 128 columns (128, 256, 118, 246; 128, 118); a column elsewhere (150, 36, 37, 40; 30,
  // 13, 36). 1032 ends 2.06 warps into a block of 4: whole warps past the row; 128x20x72 and 256x18x40 have partial blocks of rows and of planes, 128x70x12
  // (and 128x40x5) several blocks of rows, the last partial. The 3-D four-column sizes six planes
  // deep or more take resident blocks (pass_sync "neighbours", the default): 128x20x72 in twelve
  // parts of the planes, 256x18x40 in six, 128x70x12 in two. 118 and 246 wide rows are an odd
  // number of float2s: the lanes hold four columns as two float2s, the row's last quad a half
  // (118: the one warp's lane 29; 246: the second warp's).
  std::vector<std::string> sizes = {"96x48",     "100x77",    "36x24x20", "37x21x19",  "150x200",
                                    "256x300",   "40x30x72",  "1032x40",  "128x20x72", "256x18x40",
                                    "128x70x12", "118x20x24", "246x37x14"};
  if (underSanitizer())
    sizes = {"30x17", "32x20", "13x9x11", "128x6x5", "36x6x5", "128x40x5", "128x40x12", "118x6x12"};
  for (const KernelVariant& v : ChModule(Backend::Cuda).variants(Backend::Cuda))
    for (const std::string& size : sizes)
      for (const char* integrator : {"RK2", "Euler"})
        for (const char* shape : {"rectangles", "strips"})
          for (bool constant : {false, true}) {
            if (std::string(shape) == "strips" && v.name != "global" && v.name != "texture")
              continue;
            if (underSanitizer() && (constant || std::string(integrator) == "Euler")) continue;
            SCOPED_TRACE(v.name + " " + size + " " + integrator + " " + shape +
                         (constant ? " constant" : ""));
            ChModule cpu(Backend::Cpu), gpu(Backend::Cuda);
            gpu.select(Backend::Cuda, v.name);
            for (ChModule* m : {&cpu, &gpu}) {
              m->setSize(size);
              m->setParams({{"integrator", std::string(integrator)},
                            {"thread_shape", std::string(shape)},
                            {"constant_memory", constant},
                            {"dt", 0.005}});
            }
            const std::vector<float> start =
                randomField(cpu.field().size(), seed + size.size(), -0.2f, 0.8f);
            cpu.loadField(start);
            gpu.loadField(start);
            ASSERT_EQ(gpu.field(), start);
            for (int steps : {1, 19}) {
              cpu.step(steps);
              gpu.step(steps);
              const std::vector<float> a = cpu.field(), b = gpu.field();
              ASSERT_LE(largestDifference(a, b), kTolerance) << "after " << cpu.stepCount();
              ASSERT_GT(largestDifference(a, start), 0.01f);  // it moved
            }
          }
}

// m on the fast path at `size` with `integrator` and dt 0.005, its `key` set to `value`.
void onTheFastPath(ChModule& m, const std::string& size, const char* integrator, const char* key,
                   const char* value) {
  m.select(Backend::Cuda, "shuffle");
  m.setSize(size);
  m.setParams({{"integrator", std::string(integrator)}, {key, std::string(value)}, {"dt", 0.005}});
}

TEST(ChCuda, TheFastPathBackAndForthGivesOneWaysFieldBitForBit) {
  // Every other pass's blocks from the grid's end change the order the cells are taken in, not
  // their arithmetic: the field is one way's, bit for bit, after an odd and an even number of
  // passes, in 2-D widths whose lanes hold four columns (partial blocks of rows; 1032 ends 2.06
  // warps into a block of 4).
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::vector<std::string> sizes = {"96x48", "1032x40", "256x300"};
  if (underSanitizer()) sizes = {"32x20"};
  for (const std::string& size : sizes)
    for (const char* integrator : {"RK2", "Euler"}) {
      SCOPED_TRACE(size + " " + integrator);
      ChModule oneWay(Backend::Cuda), backAndForth(Backend::Cuda);
      onTheFastPath(oneWay, size, integrator, "pass_order", "one way");
      onTheFastPath(backAndForth, size, integrator, "pass_order", "back and forth");
      const std::vector<float> start =
          randomField(oneWay.field().size(), seed + size.size(), -0.2f, 0.8f);
      oneWay.loadField(start);
      backAndForth.loadField(start);
      for (int steps : {1, 2}) {
        oneWay.step(steps);
        backAndForth.step(steps);
        ASSERT_EQ(backAndForth.field(), oneWay.field()) << "after " << oneWay.stepCount();
      }
      ASSERT_NE(oneWay.field(), start);
    }
}

TEST(ChCuda, ResidentBlocksGiveTheLaunchesFieldBitForBit) {
  // The 3-D fast path's resident blocks run each pass's arithmetic as the launches do, marching the
  // other way every other pass, each part opposite its neighbours, and wait on the blocks around
  // them rather than on a launch's end: the field is the launches', bit for bit, after launches of
  // odd and even numbers of passes (steps of 1, 2, 3 and 33, which takes a launch of 32 and one of
  // 1: which way each part marches, and for Euler which buffer holds the field, carry over from one
  // launch to the next). 128x20x72 has one block of rows and twelve parts of six planes, every
  // block its own neighbour along x and y; 256x70x40 two blocks of columns and three of rows, the
  // last of six rows; 256x96x48 three whole blocks of rows; 128x40x12 two parts; 246x70x24 rows of
  // an odd number of float2s (a lane's four columns as two, the row's last quad a half).
  // 128x97x24 has a last block of one row: it is refused (its first block's halo would reach two
  // blocks away) and launches a pass.
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::vector<std::string> sizes = {"128x20x72", "256x70x40", "256x96x48",
                                    "128x40x12", "246x70x24", "128x97x24"};
  if (underSanitizer()) sizes = {"128x40x12"};
  for (const std::string& size : sizes)
    for (const char* integrator : {"RK2", "Euler"}) {
      SCOPED_TRACE(size + " " + integrator);
      ChModule launches(Backend::Cuda), resident(Backend::Cuda);
      onTheFastPath(launches, size, integrator, "pass_sync", "kernel launch");
      onTheFastPath(resident, size, integrator, "pass_sync", "neighbours");
      const bool refused = size == "128x97x24";
      EXPECT_EQ(resident.configuration().rfind("resident blocks", 0),
                refused ? std::string::npos : 0)
          << resident.configuration();
      EXPECT_EQ(launches.configuration().find("resident"), std::string::npos);
      const std::vector<float> start =
          randomField(launches.field().size(), seed + size.size(), -0.2f, 0.8f);
      launches.loadField(start);
      resident.loadField(start);
      for (int steps : {1, 2, 3, 33}) {  // 33: launches of 32 steps and of 1
        launches.step(steps);
        resident.step(steps);
        ASSERT_EQ(resident.field(), launches.field()) << "after " << launches.stepCount();
      }
      ASSERT_GT(largestDifference(launches.field(), start), 0.01f);
    }
}

TEST(ChCuda, TotalsViewAndEditsAgreeWithTheCpu) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed();
  for (const char* size : {"70x50", "20x24x28"}) {
    SCOPED_TRACE(size);
    ChModule cpu(Backend::Cpu), gpu(Backend::Cuda);
    gpu.select(Backend::Cuda, "texture");  // the arrays' copies in and out
    for (ChModule* m : {&cpu, &gpu}) {
      m->setSize(size);
      m->setParams({{"slice_axis", std::string("x")}, {"slice", 0.3}});
    }
    const std::vector<float> start = randomField(cpu.field().size(), seed, 0.1f, 0.9f);
    cpu.loadField(start);
    gpu.loadField(start);
    cpu.step(5);
    gpu.step(5);
    const Totals a = cpu.totals(), b = gpu.totals();
    EXPECT_NEAR(a.mass, b.mass, 1e-3);
    EXPECT_NEAR(a.energy, b.energy, 1e-6 * std::fabs(a.energy) + 1e-3);
    EXPECT_NEAR(double(a.crossings), double(b.crossings), 0.002 * double(a.crossings) + 2);
    PointerEdit e;
    e.tool = "draw";
    e.fromX = 2.5, e.fromY = 3.5, e.x = 12.5, e.y = 8.5;
    auto ca = cpu.edit(e);
    auto cb = gpu.edit(e);
    ASSERT_TRUE(ca && cb);
    EXPECT_LE(largestDifference(cpu.field(), gpu.field()), kTolerance);
    gpu.revert(*cb, false);
    cpu.revert(*ca, false);
    EXPECT_LE(largestDifference(cpu.field(), gpu.field()), kTolerance);
    FieldRequest r;
    r.originX = -1.5, r.originY = 0.25, r.worldPerPixel = 0.7, r.width = 40, r.height = 37;
    std::vector<float> pa(40 * 37), pb(40 * 37);
    FieldImage ia{pa.data(), 40, 37, false}, ib{pb.data(), 40, 37, false};
    cpu.renderField(r, ia);
    gpu.renderField(r, ib);
    for (std::size_t i = 0; i < pa.size(); ++i) {
      ASSERT_EQ(std::isnan(pa[i]), std::isnan(pb[i])) << i;
      if (!std::isnan(pa[i])) ASSERT_NEAR(pa[i], pb[i], kTolerance) << i;
    }
  }
}

TEST(ChCuda, TheInterfacesSurfaceIsTheCpus) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed();
  ChModule cpu(Backend::Cpu), gpu(Backend::Cuda);
  for (ChModule* m : {&cpu, &gpu}) {
    m->setSize("30x26x22");
    m->setParam("display", std::string("isosurface"));
  }
  const std::vector<float> start = randomField(cpu.field().size(), seed, 0.0f, 1.0f);
  cpu.loadField(start);
  gpu.loadField(start);
  ASSERT_TRUE(gpu.surfaceScene());
  const std::size_t triangles = cpu.surfaceTriangles();
  ASSERT_GT(triangles, 1000u);
  ASSERT_EQ(gpu.surfaceTriangles(), triangles);  // the same field: the same cubes cut
  std::vector<float> a(triangles * 3 * kSurfaceVertexFloats), b(a.size());
  SurfaceImage ia, ib;
  ia.vertices = a.data(), ia.triangles = triangles;
  ib.vertices = b.data(), ib.triangles = triangles;
  cpu.renderSurface(ia);
  gpu.renderSurface(ib);
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-4f) << i;
}

TEST(ChCuda, TheSourcesMaximumSizesRunOnEveryKernel) {
  WS_REQUIRE_GPU();
  if (underSanitizer()) GTEST_SKIP() << "large grids: not under the sanitizer";
  // 5792^2 and 322^3, the largest the source's one-thread-a-cell launch could address: the
  // mass stays put and the free energy falls on every kernel.
  for (const char* size : {"5792", "322^3"})
    for (const KernelVariant& v : ChModule(Backend::Cuda).variants(Backend::Cuda)) {
      SCOPED_TRACE(v.name + " " + size);
      ChModule gpu(Backend::Cuda);
      gpu.select(Backend::Cuda, v.name);
      gpu.setSize(size);
      const Totals before = gpu.totals();
      gpu.step(20);
      const Totals after = gpu.totals();
      const double cells = double(gpu.field().size());
      EXPECT_LT(std::fabs(after.mass - before.mass) / cells, 1e-6);
      EXPECT_LT(after.energy, before.energy);
    }
}

}  // namespace
}  // namespace ws::ch
