// The panels operated as a user does, in the real window under Xvfb (tests/ui_script.h): every
// module chosen from the module list from every other, every backend and variant, every widget of
// every section, every key of the help, each tool dragged in the view, the layout at three window
// sizes and three UI scales, the settings remembered between runs, and a monkey of random input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <vector>

#include "compute/core/backend.h"
#include "compute/core/module.h"
#include "tests/test_support.h"
#include "tests/ui_script.h"

namespace ws {
namespace {

using test::quoted;
using test::runUiScript;

#define REQUIRE_WINDOWS() \
  if (!test::canRunWindows()) GTEST_SKIP() << "Xvfb is not installed (apt-get install xvfb)"

struct ModuleFacts {
  std::string name, listTitle, title;  // the list's name for it, and its own (the status bar's)
  std::map<Backend, std::vector<KernelVariant>> variants;
  std::vector<std::string> tools;
};

const std::vector<ModuleFacts>& modules() {
  static const std::vector<ModuleFacts> all = [] {
    std::vector<ModuleFacts> out;
    for (const ModuleEntry& entry : moduleRegistry()) {
      const auto module = createModule(entry.name, Backend::Cpu);
      ModuleFacts facts{entry.name, entry.title, std::string(module->title()), {}, module->tools()};
      for (Backend backend : {Backend::Cpu, Backend::Cuda})
        facts.variants[backend] = module->variants(backend);
      out.push_back(std::move(facts));
    }
    return out;
  }();
  return all;
}

std::string backends() {
  return gpuInfo().available ? "" : "--backend cpu ";
}

std::string expectRuns(const ModuleFacts& m) {
  return "expect-module " + m.name + "\nexpect-status " + quoted(m.title) + "\nexpect-no-error\n";
}

void expectPassed(const test::UiRun& run) {
  EXPECT_EQ(run.result.exitCode, 0) << run.result.output;
  EXPECT_NE(run.result.output.find("commands passed"), std::string::npos) << run.result.output;
}

// The crash this suite was written for: a module chosen from the list replaced the module the
// panel was still drawing from. Every ordered pair of modules, each switch once (an Eulerian
// circuit of the complete directed graph), with the view laid out clear of the panels each time.
TEST(GuiPanels, TheModuleListSwitchesFromEveryModuleToEveryOther) {
  REQUIRE_WINDOWS();
  const auto& all = modules();
  const std::size_t n = all.size();
  ASSERT_GE(n, 2u);
  // Hierholzer's algorithm: edges i -> j for i != j, each used once.
  std::vector<std::vector<std::size_t>> unused(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = n; j-- > 0;)
      if (j != i) unused[i].push_back(j);
  std::vector<std::size_t> stack = {0}, circuit;
  while (!stack.empty()) {
    const std::size_t at = stack.back();
    if (unused[at].empty()) {
      circuit.push_back(at);
      stack.pop_back();
    } else {
      stack.push_back(unused[at].back());
      unused[at].pop_back();
    }
  }
  std::reverse(circuit.begin(), circuit.end());
  ASSERT_EQ(circuit.size(), n * (n - 1) + 1);

  std::string script = expectRuns(all[circuit[0]]);
  for (std::size_t k = 1; k < circuit.size(); ++k) {
    const ModuleFacts& m = all[circuit[k]];
    script += "pick module " + quoted(m.listTitle) + "\n" + expectRuns(m) + "expect-layout\n";
  }
  const auto run = runUiScript(
      "switches", script, backends() + "--module " + all[0].name + " --paused --window 1280x720");
  expectPassed(run);
}

// Each module on each backend this machine has, every variant picked from the variant list and
// stepped once: the status bar names it and no error is shown.
TEST(GuiPanels, EveryVariantOfEveryModuleRunsWhenPicked) {
  REQUIRE_WINDOWS();
  std::string script;
  for (const ModuleFacts& m : modules()) {
    script += "pick module " + quoted(m.listTitle) + "\n" + expectRuns(m);
    for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
      if (backend == Backend::Cuda && !gpuInfo().available) {
        script += "expect-widget CUDA\n";  // shown, disabled, with the reason beside it
        continue;
      }
      script += std::string("click ") + (backend == Backend::Cuda ? "CUDA" : "CPU") + "\n";
      for (const KernelVariant& v : m.variants.at(backend)) {
        script += "pick variant " + quoted(v.title) + "\n";
        script += "expect-status " + quoted(std::string(toString(backend)) + ": " + v.name + " |") +
                  "\nclick Step\nexpect-no-error\n";
      }
    }
  }
  const auto run = runUiScript("variants", script, backends() + "--paused --window 1600x1000");
  expectPassed(run);
}

// Every button, checkbox, radio, combo and slider of every section, in every module, operated
// once by the walk (app/ui/ui_driver.cpp says what each must do); the module still runs after.
class EveryWidget : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryWidget, OfEverySectionDoesWhatItSays) {
  REQUIRE_WINDOWS();
  const auto it = std::find_if(modules().begin(), modules().end(),
                               [&](const ModuleFacts& m) { return m.name == GetParam(); });
  ASSERT_NE(it, modules().end());
  const std::string script =
      "open Compare\nopen Presets\nopen Classroom\nwalk\n"
      "expect-status " +
      quoted(it->title) + "\n";
  const auto run =
      runUiScript("walk-" + GetParam(), script,
                  backends() + "--module " + GetParam() + " --paused --window 1920x1080");
  expectPassed(run);
  EXPECT_NE(run.result.output.find("ui-test: walk operated "), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(GuiPanels, EveryWidget, ::testing::ValuesIn(test::registeredModules()),
                         [](const auto& info) {
                           std::string name = info.param;  // letters, digits and '_' only
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// Playback, tools, presets, record and replay, checkpoints, compare, view and classroom, each
// with what it should have done.
TEST(GuiPanels, TheSectionsDoWhatTheySay) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
# Playback
expect-status "| paused |"
expect-status "| step 0 |"
click Step
expect-status "| step 1 |"
set N 7
click "Step 7"
expect-status "| step 8 |"
click Reset
expect-match confirmation "cannot be undone"
click Cancel
expect-status "| step 8 |"
click Reset
click "Yes, reset"
expect-status "| step 0 |"
click Run
expect-status "| running |"
click Pause
expect-status "| paused |"
set "steps / frame" 4
expect-value "steps / frame" 4
# Tools: an empty world, a line drawn, part of it erased
click clear
click "Yes, clear"
expect-value population 0
expect-value undo ""
click draw
view-drag left 0.3 0.5 0.7 0.5
expect-above population 10
expect-value undo draw
click erase
view-drag left 0.2 0.5 0.8 0.5
expect-value population 0
# Undo and redo, by key and by button
key ctrl+z
expect-above population 10
expect-status "undid erase"
key ctrl+shift+z
expect-value population 0
click Undo
click Undo
expect-value population 0
expect-value redo draw
click Redo
expect-above population 10
click Redo
expect-value population 0
click place
pick item glider
view-click 0.5 0.3
expect-no-error
# Parameters: a value typed and one out of range
set "soup density" 0.5
expect-value "soup density" 0.5
set "soup density" 7
expect-error "is not valid: expected a number from 0 to 1"
expect-value "soup density" 0.5
# View
pick "colour map" viridis
expect-value "colour map" viridis
toggle "grid lines"
expect-value "grid lines" off
click "Fit view"
# Presets
open Presets
set file p.json
click "Save preset"
expect-file p.json
set file missing.json
click "Load preset"
expect-error missing.json
# Record and replay
set session s.json
click "Record session"
expect-status "recording s.json"
click Step
click "Stop recording"
expect-file s.json
click Replay
expect-widget "Take over"
expect-layout
click "Take over"
expect-status "took over the replay"
expect-no-widget "Take over"
set checkpoint c.wsckpt
click "Save checkpoint"
expect-file c.wsckpt
click "Load checkpoint"
expect-status "resumed from c.wsckpt"
# Compare
open Compare
toggle "A/B split view"
expect-value "A/B split view" on
expect-widget "B variant"
expect-layout
click "Check now"
expect-no-error
toggle "A/B split view"
expect-no-widget "B variant"
# Classroom
open Classroom
toggle "high contrast"
toggle "large figure"
expect-widget "key figure"
expect-layout
toggle "large figure"
expect-no-widget "key figure"
slide "UI scale" 0.5
expect-above "UI scale" 1.5
expect-layout
)";
  const auto run = runUiScript("sections", script,
                               backends() + "--module life --size 64 --paused --window 1920x1080");
  expectPassed(run);
  for (const char* file : {"p.json", "s.json", "c.wsckpt"})
    EXPECT_TRUE(std::filesystem::exists(run.dir + "/" + file)) << file;
}

// Every key the help lists, each with its effect.
TEST(GuiPanels, EveryKeyOfTheHelpDoesWhatItSays) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
open Classroom
expect-status "| paused |"
key space
expect-status "| running |"
key space
expect-status "| paused |"
key r
key enter
expect-status "| step 0 |"
key n
expect-status "| step 1 |"
key right
expect-status "| step 2 |"
set N 5
key shift+n
expect-status "| step 7 |"
key plus
expect-value "steps / frame" 2
key minus
expect-value "steps / frame" 1
key r
key escape
expect-status "| step 7 |"
key r
key enter
expect-status "| step 0 |"
key c
key enter
expect-value population 0
key e
expect-value erase on
key p
expect-value place on
key d
expect-value draw on
key f
key g
expect-value "grid lines" off
key 2
expect-no-error
key 1
key u
expect-value "UI scale" 1.5
key u
expect-value "UI scale" 2
expect-layout
key u
expect-value "UI scale" 1
key i
expect-value "high contrast" on
key l
expect-value "large figure" on
expect-widget "key figure"
key l
key a
expect-value "auto demo" on
key a
expect-value "auto demo" off
click "colour map"
frames 2
expect-widget viridis
key escape
expect-no-widget viridis
key h
expect-widget help
key f1
expect-no-widget help
key f12
key tab
expect-no-widget module
expect-layout
key tab
expect-widget module
key ctrl+q
frames 200
expect-status "the window should have closed"
)";
  const auto run = runUiScript("keys", script,
                               backends() + "--module life --size 64 --paused --window 1600x1000");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;  // Ctrl+Q quit before the last check
  EXPECT_EQ(run.result.output.find("the window should have closed"), std::string::npos)
      << run.result.output;
  // F12 wrote a screenshot named after the module (the auto demo may have moved on from Life).
  const auto at = run.result.output.find("screenshot: warpscope-");
  ASSERT_NE(at, std::string::npos) << run.result.output;
  const std::string shot =
      run.result.output.substr(at + 12, run.result.output.find(' ', at + 12) - at - 12);
  EXPECT_TRUE(std::filesystem::exists(run.dir + "/" + shot)) << shot;
}

// Each tool of each module dragged and clicked in the view, and the view panned and zoomed.
TEST(GuiPanels, EveryToolOfEveryModuleWorksInTheView) {
  REQUIRE_WINDOWS();
  std::string script;
  for (const ModuleFacts& m : modules()) {
    script += "pick module " + quoted(m.listTitle) + "\n" + expectRuns(m);
    // The Tools section only where there are tools.
    script += std::string(m.tools.empty() ? "expect-no-widget" : "expect-widget") + " Tools\n";
    for (const std::string& tool : m.tools)
      script += "click " + quoted(tool) + "\nexpect-value " + quoted(tool) +
                " on\nview-drag left 0.4 0.45 0.6 0.55\nview-click 0.5 0.5\nexpect-no-error\n";
    script +=
        "view-drag right 0.45 0.5 0.55 0.5\nview-drag middle 0.5 0.5 0.6 0.6\n"
        "view-drag ctrl+left 0.5 0.5 0.4 0.4\nview-wheel 0.5 0.5 2\nview-wheel 0.5 0.5 -3\n"
        "key f\nexpect-no-error\n";
  }
  const auto run = runUiScript("tools", script, backends() + "--paused --window 1600x1000");
  expectPassed(run);
}

// Nothing hides the view and nothing overlaps or is cut off: every module at three window sizes
// and three UI scales, with the panels shown, collapsed to strips, and hidden.
TEST(GuiPanels, TheLayoutKeepsTheViewClearAtEverySizeAndScale) {
  REQUIRE_WINDOWS();
  std::string script;
  int shot = 0;
  for (const auto& [w, h] : {std::pair{1280, 720}, {1600, 1000}, {1920, 1080}}) {
    script += "window " + std::to_string(w) + " " + std::to_string(h) + "\n";
    for (const ModuleFacts& m : modules()) {
      script += "pick module " + quoted(m.listTitle) + "\nexpect-layout\n";
      script += "key u\nexpect-layout\nkey u\nexpect-layout\n";
      if (m.name == "lbm" || m.name == "life")
        script += "screenshot layout-" + std::to_string(shot++) + ".png\n";
      script += "key u\nexpect-value \"UI scale\" 1\n";
    }
    script +=
        "click \"<##hide warpscope\"\nclick \">##hide Timings\"\nexpect-layout\n"
        "expect-widget \">##show warpscope\"\nscreenshot layout-" +
        std::to_string(shot++) +
        ".png\nclick \">##show warpscope\"\nclick \"<##show Timings\"\nexpect-widget module\n"
        "key tab\nexpect-layout\nkey tab\n";
  }
  const auto run =
      runUiScript("layout", "open Classroom\n" + script, backends() + "--paused --window 1280x720");
  expectPassed(run);
}

// A parameter's help shows in a tooltip that wraps inside the window, at UI scale 1 and 2: the
// flow's Reynolds number's help once ran some 2000 pixels past a 1280-pixel window.
TEST(GuiPanels, AParametersHelpWrapsInsideTheWindow) {
  REQUIRE_WINDOWS();
  const std::string hover =
      "hover \"Reynolds number\"\nexpect-layout\nhover \"cylinder walls\"\nexpect-layout\n";
  const auto run = runUiScript(
      "tooltip",
      hover + "screenshot tooltip-1.png\nkey u\nkey u\n" + hover + "screenshot tooltip-2.png\n",
      backends() + "--module lbm --paused --window 1280x720");
  expectPassed(run);
}

// The playback's buttons stay where they are while a module runs: the live figures above them
// (the notes, the lesson) once grew and wrapped anew, and a click on Pause at UI scale 2 missed.
TEST(GuiPanels, ThePlaybackStaysPutWhileTheFiguresChange) {
  REQUIRE_WINDOWS();
  const std::string runAndPause =
      "click Run\nexpect-still Pause 45\nexpect-still Step 15\nclick Pause\nexpect-widget Run\n";
  std::string script;
  for (const ModuleFacts& m : modules())
    script += "pick module " + quoted(m.listTitle) + "\n" + runAndPause +
              "key u\nkey u\n" +  // UI scale 2
              runAndPause + "key u\nexpect-value \"UI scale\" 1\n";
  const auto run =
      runUiScript("still", "open Classroom\n" + script, backends() + "--paused --window 1600x1000");
  expectPassed(run);
}

// The Presets section lists the shipped presets of every module; choosing one switches to its
// module and loads it.
TEST(GuiPanels, AShippedPresetOfAnyModuleIsChosenFromTheList) {
  REQUIRE_WINDOWS();
  const std::string script =
      "open Presets\n"
      "pick shipped lbm-cavity\nexpect-module lbm\nexpect-value scene cavity\nexpect-no-error\n"
      "pick shipped life-highlife-replicator\nexpect-module life\n"
      "expect-value rule B36/S23\nexpect-no-error\n"
      "pick shipped reduce-divergence\nexpect-module reduce\nexpect-no-error\nexpect-layout\n";
  const auto run = runUiScript("presets", script, backends() + "--paused --window 1600x1000");
  expectPassed(run);
}

// On the CPU a preset sized for a GPU runs at its CPU size, and the Notes say what was scaled; a
// preset may start paused.
TEST(GuiPanels, APresetIsScaledForTheCpuAndMayStartPaused) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
open Presets
pick shipped lbm-cylinder
expect-module lbm
expect-value width 512
expect-value "preset note" "preset scaled for the CPU: height 1024 -> 256, width 2048 -> 512"
expect-widget Pause
pick shipped mesh-folded-sphere
expect-module mesh
expect-value "preset note" "preset scaled for the CPU: vertices 163842 -> 10242"
expect-widget Run
expect-no-error
expect-layout
)";
  const auto run = runUiScript("scaled", script, "--backend cpu --window 1600x1000");
  expectPassed(run);
}

// A tangled mesh (the folded sphere preset): the notes count its inverted triangles, a step
// untangles before it optimizes, and with "untangle first" off the folds stay.
TEST(GuiPanels, AFoldedMeshIsUntangledFirst) {
  REQUIRE_WINDOWS();
  const std::string script = R"ui(
open Presets
pick shipped mesh-folded-sphere
expect-module mesh
expect-match "module notes" "inverted triangles: ([1-9][0-9]*) at the start, \1 now \(untangling: pass 1\)"
click Step
frames 2
click "Step 100"
frames 3
expect-match "module notes" "inverted triangles: [1-9][0-9]* at the start, 0 now \(untangled in [0-9]+ pass(es)?\)"
expect-above "smallest angle (degrees)" 30
toggle "untangle first"
click Reset
click "Yes, reset"
expect-status "| step 0 |"
click "Step 100"
frames 3
expect-match "module notes" "at the start, [1-9][0-9]* now \(untangle first is off\)"
expect-no-error
expect-layout
)ui";
  const auto run = runUiScript("untangle", script, "--backend cpu --window 1600x1000");
  expectPassed(run);
}

// LBM's probe tool: a drag draws the line from where it began to where it ends, and the mouse
// standing still before it lets go keeps it (it used to collapse to a point); a new drag starts
// again; the line is a parameter, set from the panel or the command line.
TEST(GuiPanels, TheProbeLineFollowsTheDragAndAStillMouseKeepsIt) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
click probe
view-drag left 0.3 0.5 0.7 0.5
expect-match "probe line" "^([0-9]+),([0-9]+),(?!\1,)[0-9]+,\2$"
view-drag left 0.5 0.2 0.5 0.8
expect-match "probe line" "^([0-9]+),([0-9]+),\1,(?!\2$)[0-9]+$"
set "probe line" "5,6,7,8"
expect-value "probe line" "5,6,7,8"
set "probe line" "5,6"
expect-error "x0,y0,x1,y1"
expect-value "probe line" "5,6,7,8"
expect-no-error
expect-layout
)";
  const auto run = runUiScript("probe", script,
                               "--backend cpu --paused --module lbm --set lbm.probe=1,2,3,4 "
                               "--window 1600x1000");
  expectPassed(run);
}

// The DFG benchmark's preset on the CPU: round (interpolated) cylinder walls, the wake's pressure
// drop shown with the forces; the walls switch to the staircase and the storage to FP16, whose
// note warns that forces lose accuracy.
TEST(GuiPanels, TheDfgPresetMeasuresTheWakeWithEitherWall) {
  REQUIRE_WINDOWS();
  const std::string script = R"ui(
open Presets
pick shipped lbm-dfg-2d1
expect-module lbm
expect-value "cylinder walls" interpolated
expect-value width 441
click "Step 100"
frames 3
expect-above "dp/(rho U^2)" 1
expect-above Cd 4
pick "cylinder walls" bounce-back
expect-value "cylinder walls" bounce-back
click "Step 100"
frames 3
expect-above Cd 0.1
pick variant "A-A in place, SoA, FP16 storage"
frames 3
expect-match "module notes" "FP16 storage keeps each population"
window 1000 700
frames 3
expect-layout
expect-no-error
)ui";
  const auto run = runUiScript("dfg", script, "--backend cpu --window 1600x1000");
  expectPassed(run);
}

// The 3-D lattice seen whole: an isosurface of the cavity's flow, turned by dragging, of another
// quantity at another level, streamlines alone, more and longer, then none; back to the slice and
// again at another window size and UI scale.
TEST(GuiPanels, A3DFlowIsShownAsAnIsosurfaceAndTurnedWithTheMouse) {
  REQUIRE_WINDOWS();
  const std::string script = R"ui(
pick module "Lattice Boltzmann flow"
set width 24
set height 24
pick lattice d3q19
pick scene cavity
set "depth (3-D)" 24
expect-widget "slice normal"
pick "3-D view" isosurface
expect-no-widget "slice normal"
expect-no-widget view
click "Step 100"
frames 3
expect-match "module notes" "isosurface of speed at 0\.0[0-9]+: [1-9][0-9]* triangles"
expect-match camera "^orbit, yaw 0\.60, pitch 0\.45"
view-drag left 0.5 0.5 0.7 0.6
expect-match camera "^orbit, yaw (?!0\.60)"
pick "isosurface of" q-criterion
set "isosurface level" 0.05
frames 3
expect-match "module notes" "isosurface of q-criterion at [0-9.e-]+: [1-9][0-9]* triangles"
expect-match "module notes" "64 streamlines from seeds throughout the flow, up to 24 cells each"
expect-no-widget "streamlines from"
pick "isosurface of" none
expect-no-widget "isosurface level"
set streamlines 200
set "streamline length" 2
frames 3
expect-match "module notes" "no isosurface \(isosurface of: none\)"
expect-match "module notes" "200 streamlines from seeds throughout the flow, up to 48 cells each"
set streamlines 0
expect-no-widget "streamline length"
pick "3-D view" slice
frames 3
expect-widget "slice normal"
expect-no-widget camera
pick "3-D view" isosurface
window 1000 700
key u
frames 3
expect-layout
expect-match camera "^orbit"
expect-no-error
)ui";
  const auto run = runUiScript("isosurface", script, "--backend cpu --window 1600x1000");
  expectPassed(run);
}

// Cahn-Hilliard as a user meets it: a time step past the stability limit refused (in 3-D, whose
// limit is lower, too), a stroke drawn and taken back, the mix separating (the
// free energy falls), then a 3-D box shown as its interfaces and turned, and the one-thread
// baseline picked.
TEST(GuiPanels, APhaseSeparationIsDrawnRunAndShownIn3D) {
  REQUIRE_WINDOWS();
  const std::string script = R"ui(
pick module "Cahn-Hilliard phase separation"
set width 96
set height 64
expect-value dimensions 2-D
expect-no-widget "slice normal"
expect-no-widget "3-D view"
set "time step" 0.05
expect-error "past the stability limit 0.025"
expect-value "time step" 0.01
set "time step" 0.02
click draw
view-drag left 0.3 0.5 0.7 0.5
expect-value undo draw
key ctrl+z
expect-status "undid draw"
set N 1000
click "Step 1000"
frames 3
expect-below "free energy per cell" -0.02
expect-above "domain size" 3
expect-match "module notes" "t = 20 after 1000 steps"
expect-match "module notes" "mass drift -?[0-9.]+e-[0-9]+ per cell"
set "time step" 0.01
pick dimensions 3-D
set width 24
set height 24
set "depth (3-D)" 24
set "time step" 0.02
expect-error "past the stability limit 0.0119"
expect-value "time step" 0.01
expect-widget "slice normal"
pick "3-D view" isosurface
expect-no-widget "slice normal"
set N 300
click "Step 300"
frames 3
expect-match "module notes" "interfaces phi = 0: [1-9][0-9]* triangles"
expect-match camera "^orbit, yaw 0\.60, pitch 0\.45"
view-drag left 0.5 0.5 0.7 0.6
expect-match camera "^orbit, yaw (?!0\.60)"
pick variant "one thread (the source's baseline)"
click Step
frames 2
expect-value variant "one thread (the source's baseline)"
expect-match "module notes" "after 301 steps"
window 1000 700
key u
frames 3
expect-layout
expect-no-error
)ui";
  const auto run =
      runUiScript("cahn-hilliard", script, "--backend cpu --paused --window 1600x1000");
  expectPassed(run);
}

// The Poisson solver as a user meets it: red-black falls at Gauss-Seidel's rate, multigrid solves
// in a few cycles, a size that does not halve is refused on multigrid and leaves the grid as it
// was, a drawn right-hand side is undone, the views and the 3-D slice answer, and the layout
// holds in a small window at another UI scale.
TEST(GuiPanels, APoissonProblemIsSolvedColouredAndDrawnOn) {
  REQUIRE_WINDOWS();
  const std::string script = R"ui(
pick module "Poisson (coloured Gauss-Seidel)"
set "cells a side" 64
expect-value variant "red-black Gauss-Seidel"
expect-no-widget "omega (SOR)"
set N 200
click "Step 200"
frames 2
click "Step 200"
frames 3
expect-match "module notes" "the residual falls by 0\.997[56][0-9]+ a sweep"
expect-match "module notes" "Gauss-Seidel cos\^2 = 0\.997592"
pick variant "multigrid V-cycle"
expect-widget "smoothing before"
click Reset
click "Yes, reset"
set N 5
click "Step 5"
frames 3
expect-below "residual per sweep, from u = 0: multigrid" -3
expect-below "residual per sweep, from u = 0: red-black" 1.5
expect-below "residual (rms)" 0.01
expect-match "module notes" "residual down 10\^[3-9] after [1-5] sweeps"
set "cells a side" 96
expect-error "multigrid halves the grid down to 2 cells a side"
expect-value "cells a side" 64
pick precision double
expect-match "module notes" "double's floor"
click "Step 5"
frames 3
expect-match "module notes" "residual down 10\^[3-9] after [1-5] sweeps"
expect-below "residual (rms)" 1e-6
pick precision float
pick problem drawn
click negative
view-drag left 0.3 0.3 0.6 0.6
expect-value undo negative
click "Step 5"
frames 3
expect-match "module notes" "no exact solution to compare"
key ctrl+z
expect-status "undid negative"
pick "coefficient k" inclusion
expect-match "module notes" "k varying from cell to cell"
expect-match "module notes" "stencils stored at every node: 5 values a node"
pick view coefficient
click coefficient
view-drag left 0.1 0.1 0.2 0.2
expect-value undo coefficient
click "Step 5"
frames 2
key ctrl+z
expect-status "undid coefficient"
pick "coefficient k" "1 everywhere"
pick stencils "stored at every node"
expect-match "module notes" "stencils stored at every node: 5 values a node"
pick stencils constant
pick view "right-hand side"
pick view colours
pick stencil finite-element
expect-match "module notes" "4 colours"
pick variant "SOR (over-relaxed, coloured)"
expect-widget "omega (SOR)"
pick dimensions 3-D
set "cells a side" 16
expect-widget "slice position (z)"
set "slice position (z)" 0.25
click "Step 5"
frames 2
expect-match "module notes" "3375 unknowns, h = 1/16, 8 colours"
window 1000 700
key u
frames 3
expect-layout
expect-no-error
)ui";
  const auto run = runUiScript("poisson", script, "--backend cpu --paused --window 1600x1000");
  expectPassed(run);
}

// An obstacle from a mesh, named in the panel: the channel flows past it (its size is the
// Reynolds number's length), a name that is no mesh is refused and the obstacle stays; in 3-D
// the streamlines start from the inlet when asked.
TEST(GuiPanels, A3DChannelFlowsPastAMeshNamedInThePanel) {
  REQUIRE_WINDOWS();
  const std::string script = R"ui(
pick module "Lattice Boltzmann flow"
set width 48
set height 24
pick lattice d3q19
set "depth (3-D)" 24
expect-no-widget "obstacle place"
set "obstacle mesh" star
expect-no-error
expect-match "module notes" "over L = 8\.0 cells \(obstacle size\)"
set "obstacle place" "12,12,12,10"
expect-match "module notes" "over L = 10\.0 cells \(obstacle size\)"
set "obstacle mesh" no-such-mesh
expect-error "no mesh 'no-such-mesh'"
key escape
expect-value "obstacle mesh" star
pick "3-D view" isosurface
click "Step 100"
frames 3
expect-match "module notes" "isosurface of speed at [0-9.]+: [1-9][0-9]* triangles"
expect-above Cd 0.01
pick "streamlines from" inlet
frames 2
expect-match "module notes" "64 streamlines from the inlet, up to 48 cells each"
expect-no-error
)ui";
  const auto run = runUiScript("mesh-obstacle", script, "--backend cpu --window 1600x1000");
  expectPassed(run);
}

// LBM measures as it runs: the force on the cylinder and its coefficients (the Timings panel's
// curves and values), probe points clicked into the flow (numbered over the view, undone with
// Ctrl+Z), and the series exported as CSV into the output folder.
TEST(GuiPanels, TheFlowsForcesAndProbesAreMeasuredAndExported) {
  REQUIRE_WINDOWS();
  const std::string dir = ::testing::TempDir() + "/gui-lbm-series";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string script = R"ui(
click "probe point"
view-click 0.6 0.45
expect-match "probe points" "^[0-9]+,[0-9]+$"
view-click 0.8 0.5
expect-match "probe points" "^[0-9]+,[0-9]+; [0-9]+,[0-9]+$"
key ctrl+z
expect-match "probe points" "^[0-9]+,[0-9]+$"
click "Step 100"
click "Step 100"
expect-above Cd 0.5
expect-above "|u| (probe 1)" 0.01
expect-above "Cd (obstacle 1)" 0.5
pick "forces on" all
click "Step 100"
expect-above "Cd" 0.5
click "export series CSV"
expect-file ")ui" + dir + R"ui(/warpscope-lbm-cylinder-step300-series.csv"
set "probe points" "1,2,3"
expect-no-error
set "probe points" "1"
expect-error "expected x,y or x,y,z"
expect-layout
)ui";
  const auto run = runUiScript("lbm-series", script,
                               "--backend cpu --paused --module lbm --size 256x128 --output-dir " +
                                   dir + " --window 1600x1000");
  expectPassed(run);
}

// A folder of files to open: a pattern, a note warpscope does not open, and a preset in a
// subfolder.
std::string openFixtures(const std::string& name) {
  namespace fs = std::filesystem;
  const std::string assets = std::string(WS_SOURCE_DIR) + "/assets/";
  const std::string dir = (fs::path(::testing::TempDir()) / name).lexically_normal();
  fs::remove_all(dir);
  fs::create_directories(dir + "/presets");
  fs::copy_file(assets + "patterns/glider.rle", dir + "/glider.rle");
  fs::copy_file(assets + "presets/lbm-cavity.json", dir + "/presets/lbm-cavity.json");
  std::ofstream(dir + "/notes.md") << "not for warpscope\n";
  return dir;
}

// The Open dialog's browser in the window (where neither zenity nor kdialog is installed): it
// starts in the output folder, lists its folders and the files warpscope opens, goes into and
// out of folders, and opens what is picked or typed where its kind goes.
TEST(GuiPanels, TheOpenDialogBrowsesAndOpens) {
  REQUIRE_WINDOWS();
  const std::string dir = openFixtures("open-browser");
  const std::string script = R"(
open Files
click Open...
expect-value "open folder" ")" +
                             dir + R"("
expect-widget glider.rle
expect-widget presets/
expect-no-widget notes.md
toggle "all files"
expect-widget notes.md
click presets/
expect-value "open folder" ")" +
                             dir + R"(/presets"
expect-widget lbm-cavity.json
click Up
click glider.rle
expect-value path ")" + dir + R"(/glider.rle"
click Open
expect-no-widget "open folder"
expect-module life
expect-value population 5
expect-status "opened )" + dir +
                             R"(/glider.rle"
key ctrl+o
set path presets/lbm-cavity.json
expect-module lbm
expect-value scene cavity
key ctrl+o
expect-value "open folder" ")" +
                             dir + R"("
set path notes.md
expect-error "cannot open"
expect-module lbm
key ctrl+o
click Cancel
expect-no-widget "open folder"
expect-no-error
expect-layout
)";
  const auto run = runUiScript(
      "open", script,
      "--backend cpu --set life.density=0 --paused --output-dir " + dir + " --window 1600x1000",
      true, true, "WARPSCOPE_FILE_DIALOG=builtin");
  expectPassed(run);
}

// Where zenity is installed, Open runs it (here a stand-in that answers as zenity does) while the
// window keeps drawing, and opens what it answers; a cancelled chooser changes nothing.
TEST(GuiPanels, TheOpenDialogIsTheDesktopsWhereThereIsOne) {
  REQUIRE_WINDOWS();
  namespace fs = std::filesystem;
  const std::string dir = openFixtures("open-desktop");
  fs::create_directories(dir + "/bin");
  {
    std::ofstream zenity(dir + "/bin/zenity");
    // It holds its answer until the script has seen it open (the screenshot of that moment):
    // answering after a fixed time, it answered before a loaded machine drew the next frame.
    zenity << "#!/bin/sh\necho \"$@\" >> " << dir << "/zenity-args.txt\n"
           << "test -e " << dir << "/cancel && exit 1\n"
           << "for i in $(seq 400); do test -e " << dir << "/seen.png && break; sleep 0.05; done\n"
           << "echo " << dir << "/glider.rle\n";
  }
  fs::permissions(dir + "/bin/zenity", fs::perms::owner_all);
  const std::string script = R"(
open Files
click Open...
expect-value "desktop chooser" open
screenshot )" + dir + R"(/seen.png
frames 40
expect-value "desktop chooser" closed
expect-module life
expect-value population 5
expect-no-widget "open folder"
)";
  const auto run =
      runUiScript("zenity", script,
                  "--backend cpu --module lbm --paused --output-dir " + dir + " --window 1600x1000",
                  true, true, "PATH=" + dir + "/bin:$PATH");
  expectPassed(run);
  std::ifstream args(dir + "/zenity-args.txt");
  const std::string said((std::istreambuf_iterator<char>(args)), {});
  EXPECT_NE(said.find("--file-selection --title=Open in warpscope --filename=" + dir + "/"),
            std::string::npos)
      << said;
  // Cancelled: the module stays.
  std::ofstream(dir + "/cancel") << "";
  const auto cancelled = runUiScript("zenity-cancel", R"(
key ctrl+o
frames 20
expect-value "desktop chooser" closed
expect-module lbm
expect-no-error
)",
                                     "--backend cpu --module lbm --paused --window 1600x1000", true,
                                     true, "PATH=" + dir + "/bin:$PATH");
  expectPassed(cancelled);
}

// Undo in the window: LBM's obstacles and probe line, a parameter, and the graph's dragged node,
// each taken back by Ctrl+Z and made again by Ctrl+Y. (The state each undo restores is checked in
// tests/undo_test.cpp; here, that the keys and buttons reach it.)
TEST(GuiPanels, UndoAndRedoTakeBackEachModulesEdits) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
click draw
view-drag left 0.3 0.3 0.6 0.3
expect-value undo draw
click probe
view-drag left 0.3 0.5 0.7 0.5
expect-value undo probe
expect-match "probe line" "^[0-9]+,[0-9]+,[0-9]+,[0-9]+$"
key ctrl+z
expect-value "probe line" ""
expect-value undo draw
expect-status "undid probe"
key ctrl+z
expect-value undo ""
expect-value redo draw
key ctrl+y
expect-value undo draw
set "Reynolds number" 80
expect-value undo "parameter reynolds"
click Undo
expect-value "Reynolds number" 100
click Redo
expect-value "Reynolds number" 80
pick module "Graph clustering"
expect-value undo ""
click drag
view-drag left 0.5 0.5 0.8 0.2
expect-value undo drag
key ctrl+z
expect-status "undid drag"
expect-value redo drag
expect-no-error
expect-layout
)";
  const auto run = runUiScript("undo", script,
                               "--backend cpu --paused --module lbm --set lbm.reynolds=100 "
                               "--window 1600x1000");
  expectPassed(run);
}

// Life: a placed pattern brings its own rule, and the Notes say so.
TEST(GuiPanels, APlacedPatternBringsItsRuleAndTheNotesSaySo) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
click place
pick item replicator-highlife
view-click 0.5 0.5
expect-value rule B36/S23
expect-match "module notes" "rule B36/S23, from the pattern replicator-highlife"
pick item glider
view-click 0.3 0.3
expect-value rule B3/S23
expect-match "module notes" "from the pattern glider"
expect-no-error
)";
  const auto run = runUiScript("rule", script, "--backend cpu --paused --window 1600x1000");
  expectPassed(run);
}

// The voxel module's random keys hide the models' parameters, and their plots go; the
// intersection brings them back. A bucketed table hides the insertion (it always looks). A 3-D
// lattice's depth shows with the 3-D lattice.
TEST(GuiPanels, ParametersThatMeanNothingAreHidden) {
  REQUIRE_WINDOWS();
  const std::string script = R"script(
expect-widget "voxels per axis"
expect-no-widget keys
frames 3
expect-widget "voxels of A"
pick workload "random keys"
frames 3
expect-no-widget "voxels per axis"
expect-no-widget "size of B"
expect-widget keys
expect-no-widget "voxels of A"
expect-widget "probes per hit"
expect-widget insertion
pick "bucket (slots)" 4
frames 2
expect-no-widget insertion
pick "bucket (slots)" 1
frames 2
expect-widget insertion
pick workload intersection
expect-widget "voxels per axis"
pick module "Lattice Boltzmann flow"
expect-no-widget "depth (3-D)"
set width 32
set height 32
pick lattice d3q19
expect-widget "depth (3-D)"
expect-no-error
expect-layout
)script";
  const auto run = runUiScript("hidden", script,
                               "--backend cpu --module voxhash --set voxhash.resolution=24 "
                               "--set voxhash.keys=4096 --window 1600x1000");
  expectPassed(run);
}

// The hash lab's miss filter: with 2 functions and buckets of 8 at load 0.8 a miss reads about
// 1.41 buckets; the filter's checkbox brings that near 1.06, and hits still find every key.
// First, a value typed into a slider that cannot be built (2 functions in one-slot buckets at
// 1.25 slots a key) is refused with its message, once, on Enter: ImGui applies typed text at
// every keystroke, and the refusal's popup was closed by the Enter that ended the typing.
TEST(GuiPanels, TheMissFilterLetsMissesReadFewerBuckets) {
  REQUIRE_WINDOWS();
  const std::string script = R"script(
pick workload "random keys"
set keys 65536
set "hash functions" 2
expect-error "could not be built"
expect-value "hash functions" 4
pick "bucket (slots)" 8
set "hash functions" 2
frames 4
expect-value "hash functions" 2
expect-value "miss filter" off
expect-above "probes per miss" 1.3
toggle "miss filter"
frames 4
expect-below "probes per miss" 1.15
expect-value "keys lost" 0
toggle "miss filter"
frames 4
expect-above "probes per miss" 1.3
expect-no-error
expect-layout
)script";
  const auto run = runUiScript("filter", script,
                               "--backend cpu --module voxhash --set voxhash.resolution=24 "
                               "--window 1600x1000");
  expectPassed(run);
}

// Files go to the output folder chosen in the Files section, and a second save of the same name
// is kept beside the first (a screenshot, a checkpoint), whose field then names it.
TEST(GuiPanels, FilesGoToTheOutputFolderAndNeverOverwrite) {
  REQUIRE_WINDOWS();
  const std::string dir = ::testing::TempDir() + "/gui-output";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string script = R"(
open Files
set "output folder" ")" + dir +
                             R"("
key f12
key f12
expect-file ")" + dir + R"(/warpscope-life.png"
expect-file ")" + dir + R"(/warpscope-life-2.png"
set checkpoint c.wsckpt
click "Save checkpoint"
click "Save checkpoint"
expect-file ")" + dir + R"(/c-2.wsckpt"
expect-value checkpoint ")" + dir +
                             R"(/c-2.wsckpt"
set "output folder" /no/such/folder
expect-error "is not a folder"
expect-value "output folder" ")" +
                             dir + R"("
expect-layout
)";
  const auto run = runUiScript("output", script, "--backend cpu --paused --window 1600x1000");
  expectPassed(run);
}

// The graph: what is under the pointer shows in a tooltip and the status bar, the picked node's
// id is drawn beside it, and the exports write CSV, GraphML and GEXF into the output folder.
TEST(GuiPanels, GraphNodesAreNamedAndTheGraphIsExported) {
  REQUIRE_WINDOWS();
  const std::string dir = ::testing::TempDir() + "/gui-graph-export";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string script = R"(
view-move 0.5 0.5
expect-match "under the pointer" "^node [0-9]+: degree [0-9]+, community [0-9]+$"
click pick
view-click 0.5 0.5
expect-match "view label" "^node [0-9]+$"
click "export CSV"
click "export GraphML"
click "export GEXF"
expect-file ")" + dir + R"(/warpscope-graph-step0-nodes.csv"
expect-file ")" + dir + R"(/warpscope-graph-step0-edges.csv"
expect-file ")" + dir + R"(/warpscope-graph-step0.graphml"
expect-file ")" + dir + R"(/warpscope-graph-step0.gexf"
expect-no-error
expect-layout
)";
  const auto run = runUiScript("graph-export", script,
                               "--backend cpu --module graph --set graph.graph=karate --paused "
                               "--output-dir " +
                                   dir + " --window 1600x1000");
  expectPassed(run);
}

// A file dropped on the window opens where its kind goes: a pattern where it lands in Life, a mesh
// to optimize (or the obstacle of a 3-D flow), a graph, a preset, a picture of obstacles for a
// flow, a checkpoint; an unknown kind is a message; each opened goes in the recent files, from
// which it opens again where its kind goes then (the mesh into the 3-D flow the checkpoint
// brought back).
TEST(GuiPanels, ADroppedFileOpensWhereItsKindGoes) {
  REQUIRE_WINDOWS();
  const std::string assets = std::string(WS_SOURCE_DIR) + "/assets/";
  // The script in one raw string; @ASSETS@ stands for the assets folder.
  std::string script = R"ui(
view-move 0.3 0.3
drop "@ASSETS@patterns/glider.rle"
frames 2
expect-module life
expect-value population 5
expect-value item "@ASSETS@patterns/glider.rle"
drop "@ASSETS@meshes/gear.obj"
expect-module mesh
expect-value mesh "@ASSETS@meshes/gear.obj"
drop "@ASSETS@graphs/karate.txt"
expect-module graph
expect-value graph "@ASSETS@graphs/karate.txt"
drop "@ASSETS@presets/lbm-cavity.json"
expect-module lbm
expect-value scene cavity
drop "@ASSETS@masks/airfoil.png"
expect-module lbm
expect-value scene cylinder
expect-value "obstacle picture" "@ASSETS@masks/airfoil.png"
expect-match "module notes" "obstacle height"
set width 48
set height 24
pick lattice d3q19
set "depth (3-D)" 12
drop "@ASSETS@meshes/gear.obj"
expect-module lbm
expect-value "obstacle mesh" "@ASSETS@meshes/gear.obj"
expect-match "module notes" "obstacle size"
open "Record and replay"
set checkpoint here.wsckpt
click "Save checkpoint"
drop "@ASSETS@presets/life-gosper-gun.json"
expect-module life
drop here.wsckpt
expect-module lbm
set session dropped.json
click "Record session"
click Step
click "Stop recording"
drop dropped.json
expect-widget "Take over"
click "Take over"
drop script.ui
expect-error "cannot open 'script.ui'"
drop no-such-file.rle
expect-error "there is no such file"
open Files
pick recent "@ASSETS@meshes/gear.obj"
expect-module lbm
expect-value "obstacle mesh" "@ASSETS@meshes/gear.obj"
expect-no-error
expect-layout
)ui";
  for (std::size_t at; (at = script.find("@ASSETS@")) != std::string::npos;)
    script.replace(at, 8, assets);
  const auto run =
      runUiScript("drop", script, "--backend cpu --set life.density=0 --paused --window 1600x1000");
  expectPassed(run);
}

// Life's place tool: the keys turn and mirror the pattern, the Tools section says how it will be
// placed, and a click places it so (a session replays the orientation).
TEST(GuiPanels, ThePlaceToolTurnsAndMirrorsThePattern) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
key p
expect-value orientation "as drawn"
key period
expect-value orientation "a quarter turn"
key x
expect-value orientation "three quarter turns, mirrored"
key comma
key y
expect-value orientation "as drawn"
key period
view-move 0.5 0.5
screenshot preview.png
view-click 0.5 0.5
expect-value population 5
expect-no-error
)";
  const auto run = runUiScript("place", script,
                               "--backend cpu --set life.density=0 --size 64 --paused "
                               "--window 1600x1000");
  expectPassed(run);
}

// Life's selection: dragged with the select tool, saved as RLE, copied and pasted back through
// the clipboard as a pattern the place tool places.
TEST(GuiPanels, ASelectionIsSavedCopiedAndPasted) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
click select
view-drag left 0.2 0.2 0.6 0.6
expect-match "module notes" "selected [0-9]+x[0-9]+ cells"
click "save RLE"
expect-file warpscope-life-step0.rle
key ctrl+c
key ctrl+v
expect-value place on
expect-value item pasted.rle
view-click 0.8 0.8
click "select none"
expect-no-error
expect-layout
)";
  const auto run =
      runUiScript("select", script, "--backend cpu --size 64 --paused --window 1600x1000");
  expectPassed(run);
}

// The reduction lab's threads view names its axes and the cell under the pointer.
TEST(GuiPanels, TheReductionTreeViewsNameTheirAxes) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
expect-value "view label" "thread 0"
view-move 0.5 0.5
expect-match "under the pointer" "^step [0-9]+ \(s = [0-9]+\), thread [0-9]+ \(warp [0-9]+\): "
expect-layout
)";
  const std::string preset = std::string(WS_SOURCE_DIR) + "/assets/presets/reduce-divergence.json";
  const auto run =
      runUiScript("tree", script, "--backend cpu --preset " + preset + " --window 1600x1000");
  expectPassed(run);
}

// The auto demo says which preset it shows and when the next comes; it can be held and moved on.
TEST(GuiPanels, TheAutoDemoShowsItsPresetAndCanBeHeldAndMovedOn) {
  REQUIRE_WINDOWS();
  const std::string script = R"(
open Classroom
set "s / preset" 60
toggle "pass over slow ones"
toggle "auto demo"
frames 3
expect-module cahn-hilliard
click Hold
frames 2
expect-value "demo status" "cahn-hilliard-3d, held"
click "Next preset"
frames 3
expect-value "demo status" "cahn-hilliard-droplets, held"
click "Go on"
frames 2
expect-widget Hold
expect-no-error
expect-layout
)";
  const auto run = runUiScript("demo", script, "--backend cpu --paused --window 1600x1000");
  expectPassed(run);
}

// The window's size, UI scale, contrast, panels and module are remembered; --reset-settings
// forgets them; a corrupt settings file is ignored with a warning.
TEST(GuiPanels, SettingsAreRememberedBetweenRuns) {
  REQUIRE_WINDOWS();
  const std::string first = R"(
open Classroom
pick module "Lattice Boltzmann flow"
key u
key i
click ">##hide Timings"
window 1400 900
)";
  auto run = runUiScript("settings", first, backends() + "--paused");
  expectPassed(run);
  const std::string second = R"(
expect-module lbm
open Classroom
expect-value "UI scale" 1.5
expect-value "high contrast" on
expect-widget "<##show Timings"
)";
  run = runUiScript("settings", second, backends() + "--paused", false);
  expectPassed(run);
  run = runUiScript("settings", "expect-module life\nexpect-widget \">##hide Timings\"\n",
                    backends() + "--paused --reset-settings", false);
  expectPassed(run);

  std::ofstream(run.dir + "/config/warpscope/settings.json") << "{\"scale\": [[[";
  run = runUiScript("settings", "expect-module life\n", backends() + "--paused", false);
  expectPassed(run);
  EXPECT_NE(run.result.output.find("ignored the settings in"), std::string::npos)
      << run.result.output;
}

// Random clicks, drags, wheel turns, keys and window sizes across every module: the program keeps
// running and quits cleanly. A seed that once found a problem stays here.
class Monkey : public ::testing::TestWithParam<int> {};

TEST_P(Monkey, KeepsTheWindowRunning) {
  REQUIRE_WINDOWS();
  // 200 events a seed; the sanitizer stage, whose frames are several times slower, asks for fewer
  // (WARPSCOPE_MONKEY_EVENTS) to keep CI within its time.
  const char* events = std::getenv("WARPSCOPE_MONKEY_EVENTS");
  const std::string script =
      "monkey " + std::to_string(GetParam()) + " " + (events ? events : "200") + "\nframes 5\n";
  const auto run = runUiScript("monkey-" + std::to_string(GetParam()), script,
                               backends() + "--size 128 --paused --window 1280x720");
  expectPassed(run);
}

INSTANTIATE_TEST_SUITE_P(GuiPanels, Monkey, ::testing::Values(1, 2, 3));

// A checkpoint whose state lies is refused with the file's name, and Life runs on as it was.
TEST(GuiPanels, ABadCheckpointIsRefusedAndTheModuleStays) {
  REQUIRE_WINDOWS();
  const std::string dir = ::testing::TempDir() + "/ui-bad-checkpoint";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string meta =
      R"({"module":"reduce","backend":"cpu","variant":"","params":{},)"
      R"("playback":{"running":false,"steps_per_frame":1},"camera":{"center":[0,0],"zoom":1,)"
      R"("height":0,"orbit":{"centre":[0,0,0],"yaw":0,"pitch":0,"distance":5}},)"
      R"("state":{"steps":-1}})";
  std::ofstream(dir + "/warpscope.wsckpt", std::ios::binary)
      << "warpscope-checkpoint 1 " << meta.size() << " 0\n"
      << meta;
  const std::string script =
      "open Presets\nclick \"Load checkpoint\"\n"
      "expect-error \"checkpoint 'warpscope.wsckpt': the saved reduction state\"\n"
      "expect-module life\nclick Step\nexpect-status \"| step 1 |\"\n";
  const auto run = runUiScript("bad-checkpoint", script,
                               backends() + "--module life --size 64 --paused --window 1600x1000",
                               /*fresh=*/false);
  expectPassed(run);
}

// A bad script stops before any window opens, naming the line.
TEST(GuiPanels, ABadScriptIsRefusedWithItsLine) {
  const auto run = runUiScript("bad", "frames 1\nfly away\n", "--backend cpu", true, false);
  EXPECT_EQ(run.result.exitCode, 2) << run.result.output;
  EXPECT_NE(run.result.output.find("script.ui:2: unknown command 'fly'"), std::string::npos)
      << run.result.output;
}

// A check that fails says which line and why, and exits 3.
TEST(GuiPanels, AFailedCheckNamesItsLine) {
  REQUIRE_WINDOWS();
  const auto run = runUiScript("fails", "expect-module life\nexpect-module lbm\n",
                               "--backend cpu --module life --paused --window 1280x720");
  EXPECT_EQ(run.result.exitCode, 3) << run.result.output;
  EXPECT_NE(run.result.output.find("ui-test: line 2: the module is 'life', not 'lbm'"),
            std::string::npos)
      << run.result.output;
}

}  // namespace
}  // namespace ws
