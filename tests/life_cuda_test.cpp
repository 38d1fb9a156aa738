// Every CUDA Life variant against the CPU reference: all block shapes and cells per thread, both
// boundaries, sizes on and off the block multiples, soups of several densities, several rules;
// bit-exact after 1, 2, 10 and 100 generations. Skips where no GPU is present.
#include "compute/life/life_cuda.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "compute/core/errors.h"
#include "compute/life/life_cpu.h"
#include "compute/life/life_module.h"
#include "tests/test_support.h"

namespace ws::life {
namespace {

struct Case {
  std::string variant;
  std::string block = "64x4";
  std::string cellsPerThread = "2";
  std::string rowsPerThread = "8";
  std::string generationsPerPass = "4";
  std::string mapping = "row-major";
};

std::string describe(const Case& c) {
  return c.variant + " block " + c.block + " cpt " + c.cellsPerThread + " rows " + c.rowsPerThread +
         " gens/pass " + c.generationsPerPass + " " + c.mapping;
}

std::vector<Case> allCases() {
  std::vector<Case> cases = {
      {"global"}, {"global", "64x4", "2", "8", "4", "column-major"}, {"shared"}, {"aligned"}};
  for (const char* const* shape = tileShapes(); *shape; ++shape) {
    cases.push_back({"flat", *shape});
    for (const char* cpt : {"1", "2", "4"}) cases.push_back({"multicell", *shape, cpt});
  }
  for (const char* rows : {"1", "2", "4", "8", "16", "32"})
    cases.push_back({"bitpacked", "64x4", "2", rows});
  for (const char* gens : {"2", "4", "8"}) cases.push_back({"temporal", "64x4", "2", "8", gens});
  return cases;
}

// Under compute-sanitizer (scripts/gpu_check.sh sets WS_SANITIZER_RUN) every kernel still runs,
// on fewer and smaller grids: the tools slow kernels down a hundredfold.
bool underSanitizer() {
  return std::getenv("WS_SANITIZER_RUN") != nullptr;
}

TEST(LifeCuda, EveryVariantMatchesTheCpuReference) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::vector<std::pair<int, int>> sizes = {{256, 256},  {1024, 64}, {67, 45},   {1000, 130},
                                            {130, 1000}, {5, 300},   {3840, 77}, {64, 5}};
  if (underSanitizer()) sizes = {{67, 45}, {130, 70}, {64, 5}};
  const char* rules[] = {"B3/S23", "B36/S23", "B3678/S34678"};
  const double densities[] = {0.1, 0.35, 0.6};
  int round = 0;
  for (const Case& c : allCases()) {
    LifeModule life(Backend::Cuda);
    life.select(Backend::Cuda, c.variant);
    life.setParamText("block", c.block);
    life.setParamText("cells_per_thread", c.cellsPerThread);
    life.setParamText("rows_per_thread", c.rowsPerThread);
    life.setParamText("generations_per_pass", c.generationsPerPass);
    life.setParamText("mapping", c.mapping);
    for (auto [w, h] : sizes) {
      life.setSize(std::to_string(w) + "x" + std::to_string(h));
      for (const char* boundary : {"dead", "torus"}) {
        life.setParamText("boundary", boundary);
        const char* rule = rules[round % 3];
        life.setParamText("rule", rule);
        const Boundary b = std::string(boundary) == "dead" ? Boundary::Dead : Boundary::Torus;
        LifeGrid expected = test::randomGrid(w, h, densities[round % 3], seed + round);
        ++round;
        life.loadGrid(expected);
        int done = 0;
        for (int generations : {1, 2, 10, underSanitizer() ? 12 : 100}) {
          life.step(generations - done);
          expected = test::referenceRun(expected, generations - done, LifeRule::parse(rule), b);
          done = generations;
          const LifeGrid actual = life.grid();
          ASSERT_EQ(actual, expected)
              << describe(c) << ", " << w << "x" << h << " " << boundary << " " << rule << " after "
              << generations << " generations: " << test::describeDifference(expected, actual);
        }
        EXPECT_EQ(life.population(), expected.population());
      }
    }
  }
}

TEST(LifeCuda, TheRaceDemonstrationIsOffByDefaultAndLabelled) {
  WS_REQUIRE_GPU();
  LifeModule life(Backend::Cuda);
  EXPECT_FALSE(life.params().getBool("remove_barrier"));
  life.select(Backend::Cuda, "shared");
  life.step(1);
  ASSERT_FALSE(life.launches().empty());
  EXPECT_EQ(life.launches().back().name, "lifeTileKernel");
  EXPECT_EQ(life.notes(), "");
  life.setParamText("remove_barrier", "true");
  // Under compute-sanitizer the race would be reported, rightly: it is not run there.
  if (!underSanitizer()) {
    life.step(1);
    EXPECT_EQ(life.launches().back().name, "lifeTileKernel (no barrier)");
  }
  EXPECT_NE(life.configuration().find("NO BARRIER"), std::string::npos);
  EXPECT_NE(life.notes().find("wrong on purpose"), std::string::npos);
  // Only the shared tile kernel has the demonstration: elsewhere it changes nothing.
  life.select(Backend::Cuda, "flat");
  life.step(1);
  EXPECT_EQ(life.launches().back().name, "lifeTileKernel");
  EXPECT_EQ(life.notes(), "");
}

TEST(LifeCuda, SoupsAndEditsMatchTheCpu) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = test::freshSeed() % 1000000;
  for (const char* variant : {"global", "aligned", "bitpacked", "temporal"}) {
    LifeModule gpu(Backend::Cuda), cpu(Backend::Cpu);
    gpu.select(Backend::Cuda, variant);
    for (LifeModule* m : {&gpu, &cpu}) {
      m->setSize("333x77");
      m->setParam("seed", std::int64_t(seed));
      m->setParamText("density", "0.42");
      m->reset();
      m->edit({"draw", 5, 5, 200, 70, ""});
      m->edit({"erase", 0, 10, 332, 10, ""});
      m->edit({"place", 100, 40, 100, 40, "gosper-glider-gun"});
      m->step(17);
    }
    EXPECT_EQ(gpu.grid(), cpu.grid()) << variant;
  }
}

TEST(LifeCuda, SwitchingVariantsAndBackendsKeepsTheState) {
  WS_REQUIRE_GPU();
  LifeModule life(Backend::Cuda);
  life.setSize("500x300");
  life.step(5);
  LifeGrid expected = life.grid();
  for (const char* variant :
       {"global", "shared", "aligned", "flat", "multicell", "bitpacked", "temporal"}) {
    life.select(Backend::Cuda, variant);
    EXPECT_EQ(life.grid(), expected) << variant;
    life.step(3);
    expected = test::referenceRun(expected, 3, LifeRule::conway(), Boundary::Torus);
    EXPECT_EQ(life.grid(), expected) << variant;
  }
  life.select(Backend::Cpu, "reference");
  EXPECT_EQ(life.grid(), expected);
  life.select(Backend::Cuda, "");  // CUDA has no "reference": its default
  EXPECT_EQ(life.variant(), "bitpacked");
  EXPECT_EQ(life.grid(), expected);
  life.select(Backend::Cpu, "");  // the CPU has "bitpacked" too: kept
  EXPECT_EQ(life.variant(), "bitpacked");
  life.select(Backend::Cuda, "bitpacked");
  EXPECT_EQ(life.grid(), expected);
  EXPECT_EQ(life.stepCount(), 26u);
}

TEST(LifeCuda, AGridTooLargeForTheGpuIsAMessageAndChangesNothing) {
  WS_REQUIRE_GPU();
  LifeModule life(Backend::Cuda);
  life.select(Backend::Cuda, "global");
  life.setSize("300");
  life.step(2);
  const LifeGrid before = life.grid();
  try {
    life.setSize("262144");  // 2 x 256 GiB of 32-bit cells
    FAIL() << "no error";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("GPU memory"), std::string::npos) << e.what();
  }
  EXPECT_EQ(life.params().getInt("width"), 300);
  EXPECT_EQ(life.grid(), before);
}

TEST(LifeCuda, APresetChangingSizeAndKernelShapeAppliesBoth) {
  WS_REQUIRE_GPU();
  LifeModule life(Backend::Cuda);
  life.select(Backend::Cuda, "multicell");
  life.loadPreset(
      {{"module", "life"},
       {"params",
        {{"width", 300}, {"height", 200}, {"block", "128x2"}, {"cells_per_thread", "4"}}}});
  EXPECT_EQ(life.world().maxX, 300);
  LifeGrid expected = life.grid();
  life.step(5);
  expected = test::referenceRun(expected, 5, LifeRule::conway(), Boundary::Torus);
  EXPECT_EQ(life.grid(), expected);
  EXPECT_EQ(life.configuration(), "32-bit cells, block 128x2, 4 cells/thread");
}

TEST(LifeCuda, AgeViewCountsGenerationsAlive) {
  WS_REQUIRE_GPU();
  for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
    LifeModule life(backend);
    life.setSize("16");
    life.setParamText("pattern", "block");
    life.setParamText("view", "age");
    life.step(7);
    std::vector<float> pixels(16 * 16);
    FieldImage image{pixels.data(), 16, 16, false};
    life.renderField({0, 0, 1, 16, 16}, image);
    EXPECT_EQ(pixels[7 * 16 + 7], 7.0f) << toString(backend);
    EXPECT_EQ(pixels[0], 0.0f);
  }
}

}  // namespace
}  // namespace ws::life
