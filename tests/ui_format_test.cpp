// How the panels, the window's title and the Lesson panel write a rate: the SI prefix that fits
// the value, a symbol joined to it (GB/s), a word apart from it (45.4 k vertices/s); what kind of
// file a dropped one is.
#include <gtest/gtest.h>

#include <fstream>

#include "app/ui/ui.h"

namespace ws::app::ui {
namespace {

TEST(SiRate, ThePrefixFitsTheValue) {
  EXPECT_EQ(siRate(45400, "vertices/s"), "45.4 k vertices/s");
  EXPECT_EQ(siRate(1.23e9, "cells/s"), "1.23 G cells/s");
  EXPECT_EQ(siRate(12, "keys/s"), "12 keys/s");
  EXPECT_EQ(siRate(2.5e9, "B/s"), "2.5 GB/s");
  EXPECT_EQ(siRate(4.2e12, ""), "4.2 T");
}

// A plot's label with its latest value, never cut short (it was cut at 63 characters, which lost
// the Poisson residual curve's value).
TEST(PlotOverlay, TheLabelAndTheLatestValueComeWhole) {
  EXPECT_EQ(plotOverlay("step (CPU) ms", 8.47151f), "step (CPU) ms 8.47151");
  const std::string label = "log10 residual per step (steps per frame sweeps each) (10)";
  EXPECT_EQ(plotOverlay(label, 1.15f), label + " 1.15");
  EXPECT_EQ(plotOverlay(std::string(200, 'x'), -2.5e-7f), std::string(200, 'x') + " -2.5e-07");
}

TEST(OpenFile, AFilesKindComesFromItsNameAndForJsonItsFirstKey) {
  EXPECT_EQ(fileKindOf("a/b/glider.RLE"), FileKind::Pattern);
  EXPECT_EQ(fileKindOf("part.obj"), FileKind::Mesh);
  EXPECT_EQ(fileKindOf("part.off"), FileKind::Mesh);
  EXPECT_EQ(fileKindOf("wing.PNG"), FileKind::Picture);
  EXPECT_EQ(fileKindOf("step.pgm"), FileKind::Picture);
  EXPECT_EQ(fileKindOf("club.txt"), FileKind::Graph);
  EXPECT_EQ(fileKindOf("web.mtx"), FileKind::Graph);
  EXPECT_EQ(fileKindOf("demo.wsckpt"), FileKind::Checkpoint);
  EXPECT_EQ(fileKindOf("movie.mp4"), FileKind::Unknown);
  const std::string session = ::testing::TempDir() + "/kind-session.json";
  std::ofstream(session) << "{\n \"warpscope_session\": 1,\n \"start\": {}}";
  EXPECT_EQ(fileKindOf(session), FileKind::Session);
  const std::string preset = ::testing::TempDir() + "/kind-preset.json";
  std::ofstream(preset) << R"({"module": "life", "params": {}})";
  EXPECT_EQ(fileKindOf(preset), FileKind::Preset);
}

}  // namespace
}  // namespace ws::app::ui
