// Undo and redo (app/undo.h): every tool's edits and parameter changes are taken back and made
// again, on the state as it is; a stroke is one step; at least 50 levels; a step holds what the
// edit changed, not the world; the history lets go where the state starts again; the CUDA
// engines report what cells held before an edit as the CPU's do.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "app/lab.h"
#include "compute/core/backend.h"
#include "compute/graph/graph_module.h"
#include "compute/lbm/lbm_cell.h"
#include "compute/lbm/lbm_module.h"
#include "compute/life/life_cpu.h"
#include "compute/life/life_cuda.h"
#include "compute/life/life_engine.h"
#include "compute/life/life_module.h"
#include "test_support.h"

namespace ws::app {
namespace {

using life::LifeGrid;
using life::LifeModule;

Lab labOf(const std::string& module, std::vector<std::string> sets,
          Backend backend = Backend::Cpu) {
  LabOptions options;
  options.backend = backend;
  options.module = module;
  options.sets = std::move(sets);
  options.paused = true;
  return Lab(options);
}

LifeGrid gridOf(Lab& lab) {
  return dynamic_cast<LifeModule&>(lab.module()).grid();
}

// A drag of `tool` from (x0, y) to (x1, y) in `moves` edits: a press and its continuations.
void stroke(Lab& lab, const std::string& tool, double x0, double x1, double y, int moves = 4) {
  PointerEdit e;
  e.tool = tool;
  e.fromX = e.x = x0;
  e.fromY = e.y = y;
  lab.edit(e);
  for (int i = 1; i <= moves; ++i) {
    e.start = false;
    e.fromX = e.x;
    e.x = x0 + (x1 - x0) * i / moves;
    lab.edit(e);
  }
}

void place(Lab& lab, const std::string& pattern, double x, double y) {
  PointerEdit e;
  e.tool = "place";
  e.item = pattern;
  e.x = e.fromX = x;
  e.y = e.fromY = y;
  lab.edit(e);
}

TEST(Undo, AStrokeIsOneStepUndoneAndRedone) {
  Lab lab = labOf("life", {"width=64", "height=48", "density=0.3"});
  const LifeGrid start = gridOf(lab);
  stroke(lab, "draw", 5.5, 40.5, 10.5);
  const LifeGrid drawn = gridOf(lab);
  ASSERT_NE(drawn, start);
  for (int x = 5; x <= 40; ++x) EXPECT_TRUE(drawn.get(x, 10)) << x;
  EXPECT_EQ(lab.history().undoable(), 1u);
  EXPECT_EQ(lab.history().nextUndo(), "draw");

  lab.undo();
  EXPECT_EQ(gridOf(lab), start);
  EXPECT_EQ(lab.undoMessage, "undid draw");
  EXPECT_EQ(lab.history().nextRedo(), "draw");
  lab.redo();
  EXPECT_EQ(gridOf(lab), drawn);
  EXPECT_EQ(lab.undoMessage, "redid draw");

  // Erasing, then both back.
  stroke(lab, "erase", 0.5, 63.5, 10.5, 2);
  for (int x = 0; x < 64; ++x) EXPECT_FALSE(gridOf(lab).get(x, 10));
  lab.undo();
  EXPECT_EQ(gridOf(lab), drawn);
  lab.undo();
  EXPECT_EQ(gridOf(lab), start);
  lab.undo();
  EXPECT_EQ(lab.undoMessage, "nothing to undo");
  EXPECT_EQ(gridOf(lab), start);
}

TEST(Undo, ANewEditAfterAnUndoDropsWhatCouldBeRedone) {
  Lab lab = labOf("life", {"width=32", "height=32", "density=0"});
  stroke(lab, "draw", 2.5, 10.5, 4.5);
  lab.undo();
  ASSERT_EQ(lab.history().redoable(), 1u);
  stroke(lab, "draw", 2.5, 10.5, 20.5);
  EXPECT_EQ(lab.history().redoable(), 0u);
  lab.redo();
  EXPECT_EQ(lab.undoMessage, "nothing to redo");
  EXPECT_FALSE(gridOf(lab).get(5, 4));
  EXPECT_TRUE(gridOf(lab).get(5, 20));
}

TEST(Undo, KeepsAtLeastFiftyLevelsOfSmallSteps) {
  Lab lab = labOf("life", {"width=256", "height=256", "density=0"});
  std::vector<LifeGrid> states = {gridOf(lab)};
  constexpr int kSteps = 60;
  for (int i = 0; i < kSteps; ++i) {
    PointerEdit e;
    e.tool = "draw";
    e.x = e.fromX = 3.5 + 4 * (i % 60);
    e.y = e.fromY = 3.5 + 4 * (i / 8);
    lab.edit(e);
    states.push_back(gridOf(lab));
  }
  EXPECT_EQ(lab.history().undoable(), std::size_t(kSteps));
  for (int i = kSteps; i > 0; --i) {
    lab.undo();
    ASSERT_EQ(gridOf(lab), states[i - 1]) << "undo " << kSteps - i + 1;
  }
  for (int i = 1; i <= kSteps; ++i) {
    lab.redo();
    ASSERT_EQ(gridOf(lab), states[i]) << "redo " << i;
  }
}

TEST(Undo, AStepHoldsWhatTheEditChangedNotTheWorld) {
  // A 4096^2 grid (2 MB as bits): a glider's step holds its cells only.
  Lab lab = labOf("life", {"width=4096", "height=4096", "density=0.5"});
  const LifeGrid before = gridOf(lab);
  place(lab, "glider", 100, 100);
  EXPECT_EQ(lab.history().undoable(), 1u);
  EXPECT_EQ(lab.history().nextUndo(), "place glider");
  EXPECT_LT(lab.history().heldBytes(), 1000u);
  lab.undo();
  EXPECT_EQ(gridOf(lab), before);
}

TEST(Undo, UndoIsOverTheStateAsItIsNow) {
  // Cells drawn, then generations run: undo puts back the cells the stroke changed (what grew
  // from them stays), and redo sets them again.
  Lab lab = labOf("life", {"width=64", "height=64", "density=0"});
  stroke(lab, "draw", 10.5, 20.5, 30.5, 1);
  lab.requestSteps(1);
  lab.advance();
  const LifeGrid ran = gridOf(lab);
  lab.undo();
  LifeGrid expected = ran;
  for (int x = 10; x <= 20; ++x) expected.set(x, 30, false);
  EXPECT_EQ(gridOf(lab), expected);
  lab.redo();
  for (int x = 10; x <= 20; ++x) expected.set(x, 30, true);
  EXPECT_EQ(gridOf(lab), expected);
}

TEST(Undo, PlacingAPatternWithItsOwnRuleUndoesBoth) {
  Lab lab = labOf("life", {"width=64", "height=64", "density=0"});
  place(lab, "replicator-highlife", 30, 30);
  ASSERT_EQ(lab.module().params().getText("rule"), "B36/S23");
  const LifeGrid placed = gridOf(lab);
  EXPECT_GT(placed.population(), 0u);
  lab.undo();
  EXPECT_EQ(lab.module().params().getText("rule"), "B3/S23");
  EXPECT_EQ(gridOf(lab).population(), 0u);
  EXPECT_EQ(lab.module().notes().find("replicator"), std::string::npos) << lab.module().notes();
  lab.redo();
  EXPECT_EQ(lab.module().params().getText("rule"), "B36/S23");
  EXPECT_EQ(gridOf(lab), placed);
}

TEST(Undo, ParameterChangesAreStepsAndOneParameterInARowIsOne) {
  Lab lab = labOf("life", {"width=64", "height=64"});
  lab.setParam("rule", std::string("B36/S23"));
  lab.setParam("rule", std::string("B2/S"));  // as typed, one change after another
  lab.setParam("view", std::string("age"));
  EXPECT_EQ(lab.history().undoable(), 2u);
  EXPECT_EQ(lab.history().nextUndo(), "parameter view");
  lab.undo();
  EXPECT_EQ(lab.module().params().getText("view"), "alive");
  lab.undo();
  EXPECT_EQ(lab.module().params().getText("rule"), "B3/S23");
  lab.redo();
  EXPECT_EQ(lab.module().params().getText("rule"), "B2/S");
  // A refused value is no step.
  lab.setParam("width", std::int64_t(3));
  EXPECT_NE(lab.errorMessage, "");
  lab.errorMessage.clear();
  EXPECT_EQ(lab.history().nextUndo(), "parameter rule");
}

TEST(Undo, AChangeThatStartsTheWorldAgainLetsTheEarlierStepsGo) {
  Lab lab = labOf("life", {"width=64", "height=64", "density=0"});
  stroke(lab, "draw", 2.5, 30.5, 5.5);
  lab.setParam("rule", std::string("B36/S23"));
  lab.setParam("width", std::int64_t(96));  // a new grid
  EXPECT_EQ(lab.history().undoable(), 1u);
  EXPECT_EQ(lab.history().nextUndo(), "parameter width");
  lab.undo();
  EXPECT_EQ(lab.module().params().getInt("width"), 64);
  EXPECT_EQ(lab.module().world().maxX, 64);
  // A reset, a clear and another module let every step go.
  stroke(lab, "draw", 2.5, 30.5, 5.5);
  lab.reset();
  EXPECT_EQ(lab.history().undoable(), 0u);
  stroke(lab, "draw", 2.5, 30.5, 5.5);
  lab.runAction("clear");
  EXPECT_EQ(lab.history().undoable(), 0u);
  stroke(lab, "draw", 2.5, 30.5, 5.5);
  lab.switchModule("graph");
  EXPECT_EQ(lab.history().undoable(), 0u);
  lab.undo();
  EXPECT_EQ(lab.undoMessage, "nothing to undo");
}

// Picking D3Q19 at the default size changes the size with it (lbm_module.cpp, alongWith): one
// step, undone whole.
TEST(Undo, TheLatticeAndTheSizeThatCameWithItAreOneStep) {
  Lab lab = labOf("lbm", {});
  ASSERT_EQ(lab.module().sizeText(), "512x256");
  lab.setParam("lattice", std::string("d3q19"));
  ASSERT_EQ(lab.module().sizeText(), "96x48x48");
  EXPECT_EQ(lab.history().undoable(), 1u);
  lab.undo();
  EXPECT_EQ(lab.module().params().getText("lattice"), "d2q9");
  EXPECT_EQ(lab.module().sizeText(), "512x256");
  lab.redo();
  EXPECT_EQ(lab.module().sizeText(), "96x48x48");
}

TEST(Undo, AnotherVariantKeepsTheHistory) {
  Lab lab = labOf("life", {"width=128", "height=64", "density=0.2"});
  const LifeGrid start = gridOf(lab);
  stroke(lab, "draw", 2.5, 100.5, 7.5);
  const auto variants = lab.module().variants(Backend::Cpu);
  ASSERT_GT(variants.size(), 1u);
  const std::string other = lab.module().variant() == variants.front().name ? variants.back().name
                                                                            : variants.front().name;
  lab.select(Backend::Cpu, other);
  ASSERT_EQ(lab.module().variant(), other);
  lab.undo();
  EXPECT_EQ(gridOf(lab), start);
}

TEST(Undo, ObstaclesAndTheProbeLineOfLbm) {
  Lab lab = labOf("lbm", {"scene=cylinder", "width=128", "height=64", "brush=2"});
  auto& lbm = dynamic_cast<lbm::LbmModule&>(lab.module());
  lab.requestSteps(3);
  lab.advance();
  const std::vector<std::uint8_t> flags = lbm.flags();
  stroke(lab, "draw", 80.5, 100.5, 20.5);
  ASSERT_TRUE(lbm::isSolid(lbm.flags()[43 * 128 + 95]));
  lab.requestSteps(2);
  lab.advance();
  lab.undo();
  EXPECT_EQ(lbm.flags(), flags) << "the cells and their near-wall bits as they were";
  lab.redo();
  EXPECT_TRUE(lbm::isSolid(lbm.flags()[43 * 128 + 95]));
  lab.requestSteps(2);
  lab.advance();
  EXPECT_EQ(lab.errorMessage, "");

  const std::string probe = lab.module().params().getText("probe");
  stroke(lab, "probe", 10.5, 50.5, 30.5);
  const std::string drawn = lab.module().params().getText("probe");
  ASSERT_NE(drawn, probe);
  lab.undo();
  EXPECT_EQ(lab.module().params().getText("probe"), probe);
  lab.redo();
  EXPECT_EQ(lab.module().params().getText("probe"), drawn);
}

TEST(Undo, ADraggedNodeGoesBackAndIsFreeAgain) {
  Lab lab = labOf("graph", {"vertices=40", "groups=2"});
  auto& graph = dynamic_cast<graph::GraphModule&>(lab.module());
  const std::vector<float> before = graph.positions();
  PointerEdit e;
  e.tool = "drag";
  e.x = e.fromX = before[0];
  e.y = e.fromY = before[1];
  lab.edit(e);
  e.start = false;
  e.x += 50;
  e.y -= 20;
  lab.edit(e);
  EXPECT_FLOAT_EQ(graph.positions()[0], float(e.x));
  EXPECT_EQ(lab.history().undoable(), 1u);
  lab.undo();
  EXPECT_FLOAT_EQ(graph.positions()[0], before[0]);
  EXPECT_FLOAT_EQ(graph.positions()[1], before[1]);
  // Free again: the layout moves it (a pinned node would stay).
  lab.setRunning(true);
  for (int frame = 0; frame < 5; ++frame) lab.advance();
  EXPECT_NE(graph.positions()[0], before[0]);
  lab.redo();
  EXPECT_FLOAT_EQ(graph.positions()[0], float(e.x));
  for (int frame = 0; frame < 5; ++frame) lab.advance();
  EXPECT_FLOAT_EQ(graph.positions()[0], float(e.x)) << "pinned where it was dragged";
}

TEST(Undo, TheAbComparisonFollows) {
  Lab lab = labOf("life", {"width=64", "height=64", "density=0.3"});
  const auto variants = lab.module().variants(Backend::Cpu);
  lab.startComparison(parseCompareTarget(variants.back().name, Backend::Cpu));
  stroke(lab, "draw", 2.5, 60.5, 9.5);
  lab.undo();
  lab.compareEvery = std::chrono::milliseconds(0);
  lab.advance();
  ASSERT_NE(lab.comparison(), nullptr);
  EXPECT_TRUE(lab.comparison()->agreement()->state.exact());
}

// Random distinct cells to set or clear, over a random grid.
struct RandomEdits {
  LifeGrid grid;
  std::vector<life::CellEdit> edits;
};
RandomEdits randomEdits(int w, int h, std::size_t count) {
  std::mt19937 random(std::random_device{}());
  RandomEdits r{LifeGrid(w, h), {}};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) r.grid.set(x, y, random() % 3 == 0);
  std::vector<bool> named(std::size_t(w) * h);
  while (r.edits.size() < count) {
    const int x = int(random() % w), y = int(random() % h);
    if (named[std::size_t(y) * w + x]) continue;
    named[std::size_t(y) * w + x] = true;
    r.edits.push_back({x, y, random() % 2 == 0});
  }
  return r;
}

// What an engine's setCells reports and leaves.
std::pair<std::vector<life::CellEdit>, LifeGrid> editedBy(life::LifeEngine& engine,
                                                          const RandomEdits& r) {
  engine.reshape(r.grid.width, r.grid.height);
  engine.load(r.grid);
  std::vector<life::CellEdit> before = engine.setCells(r.edits);
  return {std::move(before), engine.save()};
}

TEST(UndoCpu, TheEnginesReportWhatTheCellsHeld) {
  const RandomEdits r = randomEdits(300, 200, 5000);
  TimingScope timing("test", "cells/s", false);
  auto reference = life::makeCpuEngine("reference", {&timing, &timing});
  const auto [before, after] = editedBy(*reference, r);
  for (std::size_t i = 0; i < r.edits.size(); ++i) {
    ASSERT_EQ(before[i].alive, r.grid.get(r.edits[i].x, r.edits[i].y)) << i;
    ASSERT_EQ(after.get(r.edits[i].x, r.edits[i].y), r.edits[i].alive) << i;
  }
  auto bits = life::makeCpuEngine("bitpacked", {&timing, &timing});
  EXPECT_EQ(editedBy(*bits, r), editedBy(*reference, r));
}

// Every CUDA layout reports what each cell held as the CPU does, on fresh random grids and edits;
// and a stroke undone and redone through the lab on each variant.
TEST(UndoCuda, EveryEngineReportsWhatTheCellsHeldAsTheCpusDoes) {
  WS_REQUIRE_GPU();
  const RandomEdits r = randomEdits(300, 200, 5000);
  TimingScope timing("test", "cells/s", false);
  auto reference = life::makeCpuEngine("reference", {&timing, &timing});
  const auto expected = editedBy(*reference, r);
  for (auto kernel : {life::CudaLifeKernel::GlobalHalo, life::CudaLifeKernel::SharedTile,
                      life::CudaLifeKernel::SharedAligned, life::CudaLifeKernel::SharedFlat,
                      life::CudaLifeKernel::MultiCell, life::CudaLifeKernel::BitPacked,
                      life::CudaLifeKernel::BitTemporal}) {
    SCOPED_TRACE(int(kernel));
    life::CudaLifeConfig config;
    config.kernel = kernel;
    auto gpu = life::makeCudaEngine(config, {&timing, &timing});
    EXPECT_TRUE(editedBy(*gpu, r) == expected);
  }
  for (const auto& variant : LifeModule(Backend::Cuda).variants(Backend::Cuda)) {
    SCOPED_TRACE(variant.name);
    Lab lab = labOf("life", {"width=300", "height=200"}, Backend::Cuda);
    lab.select(Backend::Cuda, variant.name);
    dynamic_cast<LifeModule&>(lab.module()).loadGrid(r.grid);
    stroke(lab, "draw", 3.5, 290.5, 50.5, 7);
    stroke(lab, "erase", 3.5, 290.5, 60.5, 3);
    lab.undo();
    lab.undo();
    EXPECT_EQ(gridOf(lab), r.grid);
    lab.redo();
    lab.redo();
    LifeGrid drawn = r.grid;
    for (int x = 3; x <= 290; ++x) drawn.set(x, 50, true), drawn.set(x, 60, false);
    EXPECT_EQ(gridOf(lab), drawn);
    EXPECT_EQ(lab.errorMessage, "");
  }
}

}  // namespace
}  // namespace ws::app
