// The lab around a module: its plots start again when the state they describe is replaced, and
// a series the module no longer reports is not plotted on; the parameters that mean nothing as
// the module now runs are known (the panel hides them).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/lab.h"
#include "compute/core/errors.h"
#include "compute/core/output_file.h"
#include "compute/lbm/lbm_module.h"
#include "compute/voxhash/voxhash_module.h"
#include "test_support.h"

namespace ws::app {
namespace {

Lab labOf(const std::string& module, std::vector<std::string> sets) {
  LabOptions options;
  options.backend = Backend::Cpu;
  options.module = module;
  options.sets = std::move(sets);
  return Lab(options);
}

void runFrames(Lab& lab, int frames) {
  for (int frame = 0; frame < frames; ++frame) {
    lab.advance();
    lab.recordFrameTime(1.0);
  }
}

TEST(LabPlots, AnotherWorkloadsSeriesAreNotPlottedOn) {
  Lab lab = labOf("voxhash", {"resolution=24", "keys=1024"});
  runFrames(lab, 3);
  ASSERT_TRUE(lab.metricHistory().count("voxels of A"));
  lab.setParam("workload", std::string("random keys"));
  runFrames(lab, 2);
  EXPECT_FALSE(lab.metricHistory().count("voxels of A"));
  EXPECT_TRUE(lab.metricHistory().count("probes per hit"));
  EXPECT_EQ(lab.metricHistory().at(Lab::kFrameSeries).size(), 5u);  // the lab's own goes on
}

TEST(LabPlots, AReplacedStateStartsThePlotsAgain) {
  Lab lab = labOf("life", {"width=64", "height=64"});
  runFrames(lab, 4);
  ASSERT_EQ(lab.metricHistory().at("population").size(), 4u);
  lab.reset();
  EXPECT_FALSE(lab.metricHistory().count("population"));
  EXPECT_EQ(lab.metricHistory().at(Lab::kFrameSeries).size(), 4u);
  runFrames(lab, 2);
  EXPECT_EQ(lab.metricHistory().at("population").size(), 2u);
  // A parameter that starts the state again (a new soup) too; one that does not keeps them.
  lab.setParam("view", std::string("age"));
  EXPECT_EQ(lab.metricHistory().at("population").size(), 2u);
  lab.setParam("density", 0.2);
  EXPECT_FALSE(lab.metricHistory().count("population"));
  // A refused change keeps them.
  runFrames(lab, 1);
  lab.setParam("width", std::int64_t(1));
  EXPECT_FALSE(lab.errorMessage.empty());
  EXPECT_EQ(lab.metricHistory().at("population").size(), 1u);
}

TEST(Parameters, ThoseThatMeanNothingAsTheModuleRunsAreKnown) {
  voxhash::VoxhashModule voxels(Backend::Cpu);
  EXPECT_TRUE(voxels.applies("model_a"));
  EXPECT_TRUE(voxels.applies("view"));
  EXPECT_FALSE(voxels.applies("keys"));
  EXPECT_TRUE(voxels.applies("functions"));  // both workloads' tables
  voxels.setParam("workload", std::string("random keys"));
  for (const char* key : {"model_a", "model_b", "size_b", "path", "deform", "resolution", "view"})
    EXPECT_FALSE(voxels.applies(key)) << key;
  EXPECT_TRUE(voxels.applies("keys"));
  EXPECT_TRUE(voxels.applies("functions"));
  EXPECT_TRUE(voxels.applies("workload"));
  // Still set, for when they apply.
  voxels.setParam("resolution", std::int64_t(32));
  EXPECT_EQ(voxels.params().getInt("resolution"), 32);

  lbm::LbmModule flow(Backend::Cpu);
  EXPECT_FALSE(flow.applies("depth"));
  EXPECT_FALSE(flow.applies("viscosity"));
  EXPECT_TRUE(flow.applies("reynolds"));
  EXPECT_FALSE(flow.applies("block"));  // CUDA's
  flow.setParams({{"lattice", std::string("d3q19")},
                  {"width", std::int64_t(16)},
                  {"height", std::int64_t(16)},
                  {"depth", std::int64_t(8)},
                  {"viscosity_from", std::string("viscosity")}});
  EXPECT_TRUE(flow.applies("depth"));
  EXPECT_TRUE(flow.applies("slice"));
  EXPECT_TRUE(flow.applies("viscosity"));
  EXPECT_FALSE(flow.applies("reynolds"));
}

// What the user saves goes to the output folder and never over a file that is there.
TEST(OutputFiles, GoToTheOutputFolderAndNeverOverwrite) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "output-folder";
  fs::remove_all(dir);
  fs::create_directories(dir);
  setOutputFolder(dir.string());
  EXPECT_EQ(freshOutputPath("mesh.ply"), (dir / "mesh.ply").string());
  std::ofstream(dir / "mesh.ply") << "taken";
  EXPECT_EQ(freshOutputPath("mesh.ply"), (dir / "mesh-2.ply").string());
  std::ofstream(dir / "mesh-2.ply") << "taken";
  EXPECT_EQ(freshOutputPath("mesh.ply"), (dir / "mesh-3.ply").string());
  EXPECT_EQ(freshOutputPath("notes"), (dir / "notes").string());
  // A name with a folder of its own goes there.
  EXPECT_EQ(freshOutputPath((dir / "sub" / "x.csv").string()), (dir / "sub" / "x.csv").string());
  // A preset saved twice is kept twice, and the lab says where each went.
  Lab lab = labOf("life", {"width=64", "height=64"});
  EXPECT_EQ(lab.savePreset("p.json"), (dir / "p.json").string());
  EXPECT_EQ(lab.savePreset("p.json"), (dir / "p-2.json").string());
  EXPECT_TRUE(fs::exists(dir / "p-2.json"));
  // A folder that is not one is refused and changes nothing.
  EXPECT_THROW(setOutputFolder((dir / "no-such").string()), InputError);
  EXPECT_THROW(setOutputFolder((dir / "mesh.ply").string()), InputError);
  EXPECT_EQ(outputFolder(), dir.string());
  setOutputFolder("");
  EXPECT_EQ(freshOutputPath("q.json"), "q.json");
}

}  // namespace
}  // namespace ws::app
