// The Compare section: the A/B view's second simulation and its agreement check, the roofline's
// points and ceilings, the scaling sweep's fit and crossover; and headless frames of the A/B view
// (both halves drawn) and of the roofline (every point drawn where the program says it is).
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <sstream>

#include "app/analysis.h"
#include "app/lab.h"
#include "app/measure.h"
#include "compute/core/errors.h"
#include "render/colormap.h"
#include "test_support.h"
#include "tests/process.h"

namespace ws::app {
namespace {

StateBlob blob(std::vector<std::uint8_t> bytes, std::vector<float> floats) {
  StateBlob s;
  s.floatsFrom = bytes.size();
  s.data = bytes;
  s.data.resize(bytes.size() + floats.size() * sizeof(float));
  std::memcpy(s.data.data() + bytes.size(), floats.data(), floats.size() * sizeof(float));
  return s;
}

TEST(CompareStates, BytesExactlyAndFloatsByTheirLargestDifference) {
  const StateBlob a = blob({1, 2, 3}, {1.0f, 2.0f, 3.0f});
  EXPECT_TRUE(compareStates(a, a).exact());
  const StateDifference d = compareStates(a, blob({1, 9, 3}, {1.0f, 2.5f, 2.75f}));
  EXPECT_FALSE(d.exact());
  EXPECT_EQ(d.bytes, 3u);
  EXPECT_EQ(d.floats, 3u);
  EXPECT_EQ(d.differingBytes, 1u);
  EXPECT_EQ(d.differingFloats, 2u);
  EXPECT_DOUBLE_EQ(d.largest, 0.5);
  EXPECT_TRUE(std::isinf(compareStates(a, blob({1, 2, 3}, {1.0f, NAN, 3.0f})).largest));
  EXPECT_FALSE(compareStates(a, blob({1, 2, 3}, {1.0f, 2.0f})).comparable);
  // Without floats every byte is compared.
  StateBlob bits;
  bits.data = {0xff, 0x00};
  StateBlob other = bits;
  other.data[1] = 0x10;
  EXPECT_EQ(compareStates(bits, other).differingBytes, 1u);
}

LabOptions lifeOnCpu(std::uint64_t seed, const std::string& compare) {
  LabOptions o;
  o.module = "life";
  o.backend = Backend::Cpu;
  o.variant = "bitpacked";
  o.sets = {"width=200", "height=120", "density=0.4", "seed=" + std::to_string(seed % 100000)};
  o.compare = compare;
  return o;
}

TEST(Comparison, BFollowsAFromTheSameStateAndAgreesBitForBit) {
  Lab lab(lifeOnCpu(test::freshSeed(), "reference"));
  ASSERT_NE(lab.comparison(), nullptr);
  Module& b = lab.comparison()->module();
  EXPECT_EQ(b.backend(), Backend::Cpu);
  EXPECT_EQ(b.variant(), "reference");
  lab.setStepsPerFrame(7);
  for (int frame = 0; frame < 5; ++frame) lab.advance();
  EXPECT_EQ(lab.module().stepCount(), 35u);
  EXPECT_EQ(b.stepCount(), 35u);
  const Agreement& agreed = lab.comparison()->check(lab.module());
  EXPECT_TRUE(agreed.exact()) << agreed.summary();
  EXPECT_EQ(agreed.state.bytes, lab.module().saveState().data.size());
  EXPECT_GE(agreed.metricsCompared, 1u);  // the population

  // An edit and a parameter change on A reach B (done again on B), and the two still agree.
  lab.edit({"draw", 10, 10, 10, 10});
  lab.setParam("rule", std::string("B36/S23"));
  EXPECT_EQ(b.params().getText("rule"), "B36/S23");
  for (int frame = 0; frame < 3; ++frame) lab.advance();
  EXPECT_TRUE(lab.comparison()->check(lab.module()).exact());

  // B alone changed: the check says where and by how much.
  b.runAction("random soup");
  const Agreement& differs = lab.comparison()->check(lab.module());
  EXPECT_FALSE(differs.exact());
  EXPECT_GT(differs.state.differingBytes, 0u);
  ASSERT_EQ(differs.metricsDiffering.size(), 1u);
  EXPECT_NE(differs.metricsDiffering[0].find("population"), std::string::npos);
  EXPECT_NE(differs.summary().find("differ at step"), std::string::npos) << differs.summary();
  // A's next edit is done again on B, not copied over it: B's own change stays.
  lab.edit({"draw", 20, 20, 20, 20});
  EXPECT_FALSE(lab.comparison()->check(lab.module()).exact());

  // A module switch ends it; the module goes on.
  lab.switchModule("lbm");
  EXPECT_EQ(lab.comparison(), nullptr);
}

TEST(Comparison, ABadTargetChangesNothing) {
  EXPECT_THROW(Lab(lifeOnCpu(1, "nosuch")), InputError);
  EXPECT_THROW(Lab(lifeOnCpu(1, "tpu:bitpacked")), InputError);
  if (!gpuInfo().available) EXPECT_THROW(Lab(lifeOnCpu(1, "cuda")), InputError);
  Lab lab(lifeOnCpu(1, ""));
  EXPECT_THROW(lab.startComparison({Backend::Cpu, "nosuch"}), InputError);
  EXPECT_EQ(lab.comparison(), nullptr);
  EXPECT_EQ(parseCompareTarget("cpu:reference", Backend::Cuda).variant, "reference");
  EXPECT_EQ(parseCompareTarget("reference", Backend::Cuda).backend, Backend::Cuda);
}

TEST(Comparison, LbmLayoutsAgreeAndHalfPrecisionDiffersByLittle) {
  const auto run = [](const std::string& b) {
    LabOptions o;
    o.module = "lbm";
    o.backend = Backend::Cpu;
    o.variant = "ab-soa-fp32";
    o.sets = {"width=96", "height=48"};
    o.compare = b;
    Lab lab(o);
    lab.setStepsPerFrame(20);
    for (int frame = 0; frame < 4; ++frame) lab.advance();
    return lab.comparison()->check(lab.module());
  };
  const Agreement layouts = run("ab-aos-fp32");
  EXPECT_TRUE(layouts.exact()) << layouts.summary();
  EXPECT_GT(layouts.state.floats, 96u * 48u * 9u - 1);
  const Agreement half = run("ab-soa-fp16");
  EXPECT_FALSE(half.exact());
  EXPECT_GT(half.state.largest, 0.0);
  EXPECT_LT(half.state.largest, 1e-2) << half.summary();
}

TEST(Comparison, CudaAgainstTheCpu) {
  WS_REQUIRE_GPU();
  LabOptions o = lifeOnCpu(test::freshSeed(), "cuda:temporal");
  Lab lab(o);
  lab.setStepsPerFrame(8);  // whole passes of the temporal kernel
  for (int frame = 0; frame < 4; ++frame) lab.advance();
  const Agreement& life = lab.comparison()->check(lab.module());
  EXPECT_TRUE(life.exact()) << life.summary();

  LabOptions lbm;
  lbm.module = "lbm";
  lbm.backend = Backend::Cpu;
  lbm.sets = {"width=128", "height=64"};
  lbm.compare = "cuda";
  Lab flow(lbm);
  flow.setStepsPerFrame(25);
  for (int frame = 0; frame < 4; ++frame) flow.advance();
  const Agreement& lattice = flow.comparison()->check(flow.module());
  EXPECT_TRUE(lattice.state.comparable);
  EXPECT_LT(lattice.state.largest, 1e-4) << lattice.summary();
}

TEST(Roofline, PointsComeFromTheOverlaysByteModel) {
  Lab lab(lifeOnCpu(3, ""));
  lab.setStepsPerFrame(4);
  for (int frame = 0; frame < 6; ++frame) lab.advance();
  Module& module = lab.module();
  const auto point = rooflinePoint(module);
  ASSERT_TRUE(point.has_value());
  const TimingStats s = module.stepTiming().stats();
  EXPECT_DOUBLE_EQ(point->bytesPerSecond, s.bytesPerSecond);  // the overlay's GB/s
  EXPECT_DOUBLE_EQ(point->intensity, module.opsPerWorkUnit()->ops / module.bytesPerWorkUnit());
  EXPECT_NEAR(point->opsPerSecond / point->bytesPerSecond, point->intensity,
              1e-9 * point->intensity);
  EXPECT_TRUE(point->live);

  // One variant a step (the GUI measures one per frame).
  RooflineRunner runner(module, 3, 2);
  EXPECT_EQ(runner.planned(), module.variants(Backend::Cpu).size());
  ASSERT_TRUE(runner.step());
  EXPECT_EQ(runner.measured(), 1u);
  EXPECT_EQ(runner.points().size(), 1u);
  while (runner.step()) {
  }
  EXPECT_TRUE(runner.done());
  const std::vector<RooflinePoint>& all = runner.points();
  ASSERT_EQ(all.size(), module.variants(Backend::Cpu).size());
  EXPECT_EQ(all[0].variant, "reference");
  EXPECT_DOUBLE_EQ(all[0].intensity, 11.0 / 2.0);
  EXPECT_DOUBLE_EQ(all[1].intensity, 34.0 / 64.0 / 0.25);  // Conway's rule, bit-packed
  EXPECT_EQ(module.stepCount(), 24u);  // measured on copies: the running module is untouched
  // Any other rule adds the count up and looks it up: more operations a cell.
  module.setParamText("rule", "B36/S23");
  EXPECT_DOUBLE_EQ(module.opsPerWorkUnit()->ops, 160.0 / 64.0);

  const Ceilings& cpu = measuredCeilings(Backend::Cpu);
  EXPECT_GT(cpu.bytesPerSecond, 1e8);
  EXPECT_GT(cpu.fp32PerSecond, 1e8);
  EXPECT_GT(cpu.fp64PerSecond, 1e8);
  EXPECT_DOUBLE_EQ(cpu.bound(OpKind::Fp32, 1e-3), cpu.bytesPerSecond * 1e-3);
  EXPECT_DOUBLE_EQ(cpu.bound(OpKind::Fp32, 1e9), cpu.fp32PerSecond);
  // Data that fit in a cache have a roof of their own, never below memory's.
  EXPECT_EQ(bandwidthFor(Backend::Cpu, 0), cpu.bytesPerSecond);
  EXPECT_EQ(bandwidthFor(Backend::Cpu, 1e12), cpu.bytesPerSecond);
  EXPECT_GE(bandwidthFor(Backend::Cpu, 4e6), cpu.bytesPerSecond);
}

// A module on the CPU at parameters `sets`, stepped as the roofline measures it; its point.
RooflinePoint measuredPoint(Module& module,
                            const std::vector<std::pair<std::string, ParamValue>>& sets) {
  module.setParams(sets);
  module.reset();
  measureSteps(module, 3, 2, 1);
  const auto point = rooflinePoint(module);
  EXPECT_TRUE(point.has_value()) << module.name();
  if (!point) return {};
  EXPECT_DOUBLE_EQ(point->intensity, module.opsPerWorkUnit()->ops / module.bytesPerWorkUnit())
      << module.name();
  EXPECT_DOUBLE_EQ(point->bytesPerSecond, module.stepTiming().stats().bytesPerSecond);
  EXPECT_GT(point->opsPerSecond, 0.0);
  return *point;
}

// The graph's, the mesh's and the voxel module's operation models: where they hold, what they
// count, in which kind of arithmetic.
TEST(Roofline, EveryModuleWithAModelGivesPointsFromItAndTheOverlaysBytes) {
  const auto graph = createModule("graph", Backend::Cpu);
  graph->setParam("step", std::string("layout"));
  EXPECT_FALSE(graph->opsPerWorkUnit().has_value());  // force layout: no FP64 model
  const RooflinePoint brandes = measuredPoint(*graph, {{"graph", std::string("grid")},
                                                       {"vertices", std::int64_t(400)},
                                                       {"step", std::string("centrality")}});
  EXPECT_EQ(brandes.kind, OpKind::Fp64);
  EXPECT_DOUBLE_EQ(graph->opsPerWorkUnit()->ops, 6.0);  // every edge of a grid joins two levels
  graph->setParam("graph", std::string("planted"));
  EXPECT_GT(graph->opsPerWorkUnit()->ops, 0.0);
  EXPECT_LT(graph->opsPerWorkUnit()->ops, 6.0);  // edges within a level: no arithmetic

  const auto hash = createModule("voxhash", Backend::Cpu);
  EXPECT_FALSE(hash->opsPerWorkUnit().has_value());  // the intersection: six stages, no model
  const RooflinePoint lab = measuredPoint(
      *hash, {{"workload", std::string("random keys")}, {"keys", std::int64_t(4096)}});
  EXPECT_EQ(lab.kind, OpKind::Int32);
  // At 4 functions and 1.25 slots a key: a build (13), a hit (14), a miss's 2.952 probes (14).
  EXPECT_NEAR(hash->opsPerWorkUnit()->ops, 13 + 14 + 14 * 2.952, 1e-9);

  const auto mesh = createModule("mesh", Backend::Cpu);
  const double unsearched = mesh->opsPerWorkUnit()->ops;  // no pass yet: the first simplexes
  const RooflinePoint search = measuredPoint(*mesh, {{"vertices", std::int64_t(2562)}});
  EXPECT_EQ(search.kind, OpKind::Fp32);
  const double searched = mesh->opsPerWorkUnit()->ops;
  EXPECT_GT(searched, 1.5 * unsearched);  // the iterations' evaluations come on top
  mesh->setParam("precision", std::string("fp64"));
  EXPECT_EQ(mesh->opsPerWorkUnit()->kind, OpKind::Fp64);
  EXPECT_DOUBLE_EQ(mesh->opsPerWorkUnit()->ops, searched);
  mesh->select(Backend::Cpu, "laplacian");
  const RooflinePoint smoothing = measuredPoint(*mesh, {});
  EXPECT_EQ(smoothing.kind, OpKind::Fp32);  // the baselines work in FP32 whatever the precision
  EXPECT_LT(mesh->opsPerWorkUnit()->ops, searched / 4);
}

TEST(Roofline, GpuPeaksArePhysical) {
  WS_REQUIRE_GPU();
  if (std::getenv("WS_SANITIZER_RUN"))
    GTEST_SKIP() << "under compute-sanitizer a kernel's time says nothing about the peak";
  const int sms = gpuInfo().multiprocessors;
  ASSERT_GT(sms, 0);
  // 128 FP32 lanes per SM on every GPU since Ampere, an FMA counting two, between 0.5 and 2.5 GHz;
  // a kernel whose work the compiler removed would read far above.
  const double lanes = sms * 128.0 * 2;
  const double fp32 = measureGpuPeak(OpKind::Fp32), int32 = measureGpuPeak(OpKind::Int32);
  EXPECT_GT(fp32, lanes * 0.5e9);
  EXPECT_LT(fp32, lanes * 2.5e9);
  EXPECT_GT(int32, lanes * 0.1e9);
  EXPECT_LT(int32, lanes * 2.5e9);
  // FP64: from 2 units per SM (consumer parts, 1/64 of FP32) to 64 (data-centre parts, 1/2).
  const double fp64 = measureGpuPeak(OpKind::Fp64);
  EXPECT_GT(fp64, sms * 2.0 * 2 * 0.5e9);
  EXPECT_LT(fp64, sms * 64.0 * 2 * 2.5e9);
  std::printf("FP32 %.4g flop/s, FP64 %.4g flop/s, int32 %.4g op/s on %d SMs\n", fp32, fp64, int32,
              sms);
}

TEST(Sweep, FitsTheLargerSizesAndFindsWhereTheGpuStartsToWin) {
  std::vector<SweepPoint> points;
  for (double work = 1e3; work <= 1e8; work *= 10) {
    points.push_back({Backend::Cpu, "", work, 1e-5 * work});                  // slope 1
    points.push_back({Backend::Cuda, "", work, 0.01 * std::pow(work, 0.5)});  // slope 1/2
  }
  const auto cpu = fitSweep(points, Backend::Cpu), gpu = fitSweep(points, Backend::Cuda);
  ASSERT_TRUE(cpu && gpu);
  EXPECT_NEAR(cpu->slope, 1.0, 1e-9);
  EXPECT_NEAR(gpu->slope, 0.5, 1e-9);
  EXPECT_NEAR(cpu->msAt(1e4), 0.1, 1e-9);
  EXPECT_DOUBLE_EQ(cpu->fromWork, 1e6);  // the larger three of six sizes
  EXPECT_DOUBLE_EQ(cpu->toWork, 1e8);
  // 1e-5 w = 0.01 sqrt(w) at w = 1e6, a measured size.
  ASSERT_TRUE(sweepCrossover(points).has_value());
  EXPECT_NEAR(*sweepCrossover(points), 1e6, 1e-3);
  // Between two sizes: CPU 2x faster at 1e4, GPU 2x faster at 1e5: the middle, on log axes.
  const std::vector<SweepPoint> between = {{Backend::Cpu, "", 1e4, 1},
                                           {Backend::Cuda, "", 1e4, 2},
                                           {Backend::Cpu, "", 1e5, 2},
                                           {Backend::Cuda, "", 1e5, 1}};
  EXPECT_NEAR(*sweepCrossover(between), std::sqrt(1e4 * 1e5), 1e-6 * 1e5);
  // A fixed cost bends the small sizes; the fit over the larger half still finds linear time.
  std::vector<SweepPoint> fixedCost;
  for (double work = 1e2; work <= 1e9; work *= 10)
    fixedCost.push_back({Backend::Cpu, "", work, 0.01 + 1e-7 * work});
  EXPECT_GT(fitSweep(fixedCost, Backend::Cpu)->slope, 0.9);
  // The GPU winning at every size, or losing at the largest: no crossover.
  for (auto& p : points)
    if (p.backend == Backend::Cuda) p.msPerStep *= 1e-3;
  EXPECT_FALSE(sweepCrossover(points).has_value());
  for (auto& p : points)
    if (p.backend == Backend::Cuda && p.work == 1e8) p.msPerStep = 1e9;
  EXPECT_FALSE(sweepCrossover(points).has_value());
}

TEST(Sweep, MeasuresTheModulesSizesOnCopies) {
  Lab lab(lifeOnCpu(5, ""));
  SweepRunner sweep(lab.module(), {Backend::Cpu}, 1e9);
  int measured = 0;
  while (sweep.step() && measured < 4) ++measured;
  ASSERT_GE(sweep.points().size(), 4u);
  const std::vector<std::string> sizes = lab.module().sweepSizes();
  for (std::size_t i = 0; i < 4; ++i) {
    const double side = std::stod(sizes[i]);
    EXPECT_EQ(sweep.points()[i].size, sizes[i]);
    EXPECT_DOUBLE_EQ(sweep.points()[i].work, side * side);  // cell updates per step
    EXPECT_GT(sweep.points()[i].msPerStep, 0.0);
  }
  EXPECT_EQ(lab.module().sizeText(), "200x120");
  // A Girvan-Newman step removes one edge whatever the size: nothing to sweep.
  EXPECT_THROW(SweepRunner(*createModule("graph", Backend::Cpu), {Backend::Cpu}), InputError);
}

// The other modules' sizes grow their work: the first three of each, on the CPU.
TEST(Sweep, EveryModulesSizesGrowItsWork) {
  const std::vector<std::pair<std::string, std::vector<std::pair<std::string, ParamValue>>>> cases =
      {{"graph", {{"step", std::string("centrality")}, {"sources", std::int64_t(8)}}},
       {"mesh", {}},
       {"voxhash", {{"workload", std::string("random keys")}}},
       {"voxhash", {}}};
  for (const auto& [name, sets] : cases) {
    const auto module = createModule(name, Backend::Cpu);
    module->setParams(sets);
    SweepRunner sweep(*module, {Backend::Cpu}, 1e9);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(sweep.step()) << name;
    const std::vector<SweepPoint>& points = sweep.points();
    ASSERT_EQ(points.size(), 3u) << name;
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(points[i].size, module->sweepSizes()[i]) << name;
    EXPECT_GT(points[1].work, 1.5 * points[0].work) << name << " " << points[1].size;
    EXPECT_GT(points[2].work, 1.5 * points[1].work) << name << " " << points[2].size;
  }
}

// The real program, headless.
test::ProcessResult warpscope(const std::string& args) {
  return test::runProcess(std::string(WARPSCOPE_BIN) + " " + args);
}

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
  const unsigned char* at(int x, int y) const { return &rgb[(std::size_t(y) * width + x) * 3]; }
};

Image readPng(const std::string& path) {
  Image image;
  int channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &image.width, &image.height, &channels, 3);
  if (!pixels) return image;
  image.rgb.assign(pixels, pixels + std::size_t(image.width) * image.height * 3);
  stbi_image_free(pixels);
  return image;
}

// Pixels of a column range that are not the background (the field's colours).
long drawnPixels(const Image& image, int x0, int x1) {
  long drawn = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = x0; x < x1; ++x) {
      const unsigned char* p = image.at(x, y);
      drawn += std::abs(p[0] - int(render::kBackground[0] * 255)) > 8 ||
               std::abs(p[1] - int(render::kBackground[1] * 255)) > 8 ||
               std::abs(p[2] - int(render::kBackground[2] * 255)) > 8;
    }
  return drawn;
}

TEST(HeadlessFrames, TheABViewDrawsBothHalvesAndSaysTheyAgree) {
  const std::string shot = ::testing::TempDir() + "/ab.png";
  std::filesystem::remove(shot);
  const auto result = warpscope(
      "--headless --backend cpu --variant bitpacked --compare reference --size 160x90 "
      "--steps 12 --steps-per-frame 3 --window 640x360 --screenshot " +
      shot);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("A/B: B is cpu/reference"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("A/B: agree bit for bit at step 12"), std::string::npos)
      << result.output;
  const Image image = readPng(shot);
  ASSERT_EQ(image.width, 640);
  // Each half shows the 160x90 world fitted to 320x360: most of each half is field.
  const long left = drawnPixels(image, 0, 320), right = drawnPixels(image, 320, 640);
  EXPECT_GT(left, 320L * 150) << "left half";
  EXPECT_GT(right, 320L * 150) << "right half";
  // The same state through the same camera: the halves are the same picture.
  long same = 0;
  for (int y = 0; y < 360; ++y)
    for (int x = 0; x < 320; ++x) same += std::memcmp(image.at(x, y), image.at(x + 320, y), 3) == 0;
  EXPECT_GT(same, 320L * 360 * 99 / 100);
}

TEST(HeadlessFrames, TheRooflineDrawsEveryPointWhereItSays) {
  const std::string shot = ::testing::TempDir() + "/roofline.png";
  std::filesystem::remove(shot);
  const auto result = warpscope(
      "--headless --backend cpu --roofline --steps 8 --window 1280x800 --screenshot " + shot);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  const Image image = readPng(shot);
  ASSERT_EQ(image.width, 1280);
  const std::regex line(
      R"(roofline: (\S+(?: \(live\))?) drawn at \((\d+), (\d+)\) colour ([0-9a-f]{8}))");
  int points = 0;
  std::istringstream in(result.output);
  for (std::string text; std::getline(in, text);) {
    std::smatch m;
    if (!std::regex_search(text, m, line)) continue;
    ++points;
    const int x = std::stoi(m[2]), y = std::stoi(m[3]);
    const unsigned colour = std::stoul(m[4], nullptr, 16);  // ImGui's ABGR
    const int r = colour & 0xff, g = colour >> 8 & 0xff, b = colour >> 16 & 0xff;
    // The disc (5 pixels across its radius), within 3 of its centre: another point's leader line
    // or label may cross the centre itself where two measured points lie close.
    bool found = false;
    for (int dy = -3; dy <= 3 && !found; ++dy)
      for (int dx = -3; dx <= 3 && !found; ++dx) {
        const unsigned char* p = image.at(x + dx, y + dy);
        found = std::abs(p[0] - r) < 24 && std::abs(p[1] - g) < 24 && std::abs(p[2] - b) < 24;
      }
    EXPECT_TRUE(found) << m[1] << " at " << x << "," << y;
  }
  // Both CPU variants measured, and the running one live.
  EXPECT_EQ(points, 3) << result.output;
}

TEST(HeadlessFrames, ReadBackAndUploadDrawsWhatInteropDraws) {
  WS_REQUIRE_GPU();
  const std::string viaInterop = ::testing::TempDir() + "/interop.png",
                    viaHost = ::testing::TempDir() + "/readback.png";
  const std::string run = "--headless --backend cuda --size 300x200 --steps 6 --window 480x320 ";
  const auto a = warpscope(run + "--screenshot " + viaInterop);
  const auto b = warpscope(run + "--no-interop --screenshot " + viaHost);
  ASSERT_EQ(a.exitCode, 0) << a.output;
  ASSERT_EQ(b.exitCode, 0) << b.output;
  EXPECT_NE(a.output.find("field via CUDA-GL interop"), std::string::npos) << a.output;
  EXPECT_NE(b.output.find("field via read-back and upload (interop off)"), std::string::npos)
      << b.output;
  const Image one = readPng(viaInterop), other = readPng(viaHost);
  ASSERT_EQ(one.width, 480);
  EXPECT_EQ(one.rgb, other.rgb);
  EXPECT_GT(drawnPixels(one, 0, 480), 480L * 100);
}

}  // namespace
}  // namespace ws::app
