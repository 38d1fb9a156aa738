// The GUI itself, under Xvfb: it starts, runs frames on the CPU backend, writes a screenshot of
// the window and exits 0. Skips where Xvfb is not installed.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "tests/xvfb.h"

namespace ws {
namespace {

// The GUI remembers its settings (app/ui/settings.h): these runs keep theirs apart from the user's.
const bool kOwnSettings =
    setenv("XDG_CONFIG_HOME", (::testing::TempDir() + "/gui-test-config").c_str(), 1) == 0;

// Runs a shell script (the program in the background, xdotool driving it) on a virtual screen.
test::ProcessResult runUnderXvfb(const std::string& script) {
  return test::runUnderXvfb("1280x900", script);
}

TEST(Gui, RunsUnderXvfbAndWritesAScreenshot) {
  if (!test::hasXvfb()) GTEST_SKIP() << "Xvfb is not installed (apt-get install xvfb)";
  const std::string shot = ::testing::TempDir() + "/gui.png";
  std::filesystem::remove(shot);
  const auto result = test::runUnderXvfb(
      "1400x900",
      std::string(WARPSCOPE_BIN) +
          " --backend cpu --size 300x200 --window 1280x800 --quit-after-frames 40 --screenshot " +
          shot);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("gui: 40 frames"), std::string::npos) << result.output;

  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(shot.c_str(), &width, &height, &channels, 3);
  ASSERT_NE(pixels, nullptr) << "no readable screenshot";
  EXPECT_EQ(width, 1280);
  EXPECT_EQ(height, 800);
  // The window shows the field (several colours of the colour map), panels and text.
  std::set<int> colours;
  for (int i = 0; i < width * height; i += 7)
    colours.insert(pixels[i * 3] << 16 | pixels[i * 3 + 1] << 8 | pixels[i * 3 + 2]);
  stbi_image_free(pixels);
  EXPECT_GT(colours.size(), 20u);
}

TEST(Gui, TakesKeysAndMouseInput) {
  if (!test::hasXvfb() || test::runProcess("command -v xdotool").exitCode != 0)
    GTEST_SKIP() << "Xvfb or xdotool is not installed (apt-get install xvfb xdotool)";
  // Paused on a 64x64 grid (about 5 px per cell in the view between the panels, x 341 to 683 of
  // 1024x768): clear, step three times, then drag a line of cells across the middle of the view,
  // and quit with Ctrl+Q. Real X events, through GLFW (the UI scripts of gui_panels_test feed
  // ImGui directly). Without a window manager the keyboard follows the pointer, so the pointer
  // goes over the window first.
  const std::string shot = ::testing::TempDir() + "/gui-input.png";
  const std::string script =
      std::string(WARPSCOPE_BIN) +
      " --backend cpu --size 64 --paused --window 1024x768 "
      "--quit-after-frames 1500 --screenshot " +
      shot +
      " & pid=$!; "
      "xdotool search --sync --name warpscope > /dev/null; sleep 1; "
      "xdotool mousemove 470 380 sleep 0.3 key c sleep 0.2 key Return sleep 0.2 key n sleep 0.2 "
      "key n sleep 0.2 key n sleep 0.3; "
      "xdotool mousedown 1 sleep 0.2 mousemove 500 385 sleep 0.2 mousemove "
      "530 390 sleep 0.2 mouseup 1 sleep 0.3; "
      "xdotool key ctrl+q; wait $pid";
  const auto result = runUnderXvfb(script);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find(", step 3,"), std::string::npos) << result.output;
  // The drag drew a line of about eleven cells onto the cleared grid.
  const auto at = result.output.find("gui: population ");
  ASSERT_NE(at, std::string::npos) << result.output;
  const int population = std::stoi(result.output.substr(at + 16));
  EXPECT_GE(population, 8) << result.output;
  EXPECT_LE(population, 16) << result.output;
  EXPECT_TRUE(std::filesystem::exists(shot));
}

// A session recorded in the GUI with keys and a mouse drag replays headless to the same state,
// and the window's video has the window's size and frames.
TEST(Gui, ASessionRecordedWithInputReplaysToTheSameState) {
  if (!test::hasXvfb() || test::runProcess("command -v xdotool").exitCode != 0)
    GTEST_SKIP() << "Xvfb or xdotool is not installed (apt-get install xvfb xdotool)";
  const std::string dir = ::testing::TempDir() + "/gui-session";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string script =
      std::string(WARPSCOPE_BIN) +
      " --backend cpu --size 64 --paused --window 1024x768 "
      "--quit-after-frames 1500 --record-session " +
      dir + "/s.json --record-video " + dir +
      "/s.mp4 & pid=$!; "
      "xdotool search --sync --name warpscope > /dev/null; sleep 1; "
      "xdotool mousemove 470 380 sleep 0.3 key c sleep 0.2 key Return sleep 0.2 key n sleep 0.2 "
      "key n sleep 0.3; "
      "xdotool mousedown 1 sleep 0.2 mousemove 500 385 sleep 0.2 mousemove "
      "530 390 sleep 0.2 mouseup 1 sleep 0.3 key space sleep 0.5 key space "
      "sleep 0.3; xdotool key ctrl+q; wait $pid";
  const auto result = runUnderXvfb(script);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  ASSERT_NE(result.output.find("session: " + dir + "/s.json"), std::string::npos) << result.output;
  const auto at = result.output.find("gui: population ");
  ASSERT_NE(at, std::string::npos) << result.output;
  const std::string population = result.output.substr(at, result.output.find('\n', at) - at);

  const auto replay = test::runProcess(std::string(WARPSCOPE_BIN) + " replay " + dir +
                                       "/s.json --size 320x240 --report " + dir + "/r.json");
  ASSERT_EQ(replay.exitCode, 0) << replay.output;
  EXPECT_NE(replay.output.find("the replayed state equals the recorded one"), std::string::npos)
      << replay.output;
  // The GUI's last population is the replay's.
  EXPECT_NE(replay.output.find(population.substr(5)), std::string::npos) << population << "\n"
                                                                         << replay.output;

  if (test::runProcess("command -v ffprobe").exitCode == 0) {
    const auto probe = test::runProcess(
        "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
        "stream=nb_read_frames,width,height -of csv=p=0 " +
        dir + "/s.mp4");
    EXPECT_EQ(probe.output.substr(0, 9), "1024,768,") << probe.output;
    EXPECT_GT(std::stoi(probe.output.substr(9)), 60) << "seconds of frames at 60 per second";
  }
}

// The mesh module: a click on the sphere (in the view, between the panels) inspects a vertex; a
// step later the inspector still follows it, and its notes say what its next move is.
TEST(Gui, AClickOnTheMeshInspectsAVertex) {
  if (!test::hasXvfb() || test::runProcess("command -v xdotool").exitCode != 0)
    GTEST_SKIP() << "Xvfb or xdotool is not installed (apt-get install xvfb xdotool)";
  const std::string script = std::string(WARPSCOPE_BIN) +
                             " --module mesh --backend cpu --paused --window 1024x768 "
                             "--quit-after-frames 1500 & pid=$!; "
                             "xdotool search --sync --name warpscope > /dev/null; sleep 1; "
                             "xdotool mousemove 470 384 sleep 0.3 mousedown 1 sleep 0.3 mouseup 1 "
                             "sleep 0.5 key n sleep 0.5; xdotool key ctrl+q; wait $pid";
  const auto result = runUnderXvfb(script);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find(", step 1,"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("gui: vertex "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("Nelder-Mead iterations (at most 40)"), std::string::npos)
      << result.output;
}

// The graph module runs in the GUI: Girvan-Newman takes the karate club apart frame by frame, the
// drawn graph has its communities' colours, and the notes printed at the end say how far it got.
TEST(Gui, TheGraphModuleAnimatesGirvanNewman) {
  if (!test::hasXvfb()) GTEST_SKIP() << "Xvfb is not installed (apt-get install xvfb)";
  const std::string shot = ::testing::TempDir() + "/gui-graph.png";
  const auto result =
      runUnderXvfb(std::string(WARPSCOPE_BIN) +
                   " --module graph --backend cpu --set graph.graph=karate --window 1024x768 "
                   "--quit-after-frames 120 --screenshot " +
                   shot);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("Girvan-Newman: "), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("Girvan-Newman: 0 of"), std::string::npos) << result.output;
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(shot.c_str(), &width, &height, &channels, 3);
  ASSERT_NE(pixels, nullptr) << "no readable screenshot";
  int blue = 0;  // the first community's palette colour, 0x4e79a7
  for (int i = 0; i < width * height; ++i)
    blue += pixels[3 * i] == 0x4e && pixels[3 * i + 1] == 0x79 && pixels[3 * i + 2] == 0xa7;
  stbi_image_free(pixels);
  EXPECT_GT(blue, 30);
}

// The A/B view in the window: both halves run, and the GUI exits cleanly with the comparison on.
TEST(Gui, TheABViewRunsInTheWindow) {
  if (!test::hasXvfb()) GTEST_SKIP() << "Xvfb is not installed (apt-get install xvfb)";
  const std::string shot = ::testing::TempDir() + "/gui-ab.png";
  std::filesystem::remove(shot);
  const auto result = test::runUnderXvfb(
      "1400x900",
      std::string(WARPSCOPE_BIN) +
          " --backend cpu --variant bitpacked --compare reference --size 300x200 --window 1280x800 "
          "--quit-after-frames 30 --screenshot " +
          shot);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("gui: 30 frames"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("gui: A/B: agree bit for bit"), std::string::npos) << result.output;
  EXPECT_TRUE(std::filesystem::exists(shot));
}

// A change whose set-up takes long (a graph of two million vertices, minutes on the CPU) runs
// aside while the window shows what it is doing, with Cancel; Escape (a real key press) cancels
// it, and the module is as it was: the same graph, the parameter back, a message that says so.
TEST(Gui, ALongSetUpShowsItsProgressAndEscapeCancelsIt) {
  if (!test::hasXvfb() || test::runProcess("command -v xdotool").exitCode != 0)
    GTEST_SKIP() << "Xvfb or xdotool is not installed (apt-get install xvfb xdotool)";
  const std::string dir = ::testing::TempDir() + "/gui-cancel";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/cancel.ui") << "close Lesson\nclose Playback\nclose Tools\n"
                                       "set vertices 2000000\n"
                                       "frames 2\n"
                                       "expect-error \"cancelled while\"\n"
                                       "expect-value vertices 300\n"
                                       "expect-value edges 1443\n"
                                       "quit\n";
  const std::string script = std::string(WARPSCOPE_BIN) +
                             " --module graph --backend cpu --window 1260x880 --ui-script " + dir +
                             "/cancel.ui & pid=$!; "
                             // Escape once the set-up shows its progress (the title says so):
                             // sooner, the panels would take it; under the sanitizers on a busy
                             // machine, four seconds were once too few (CI, 2026-12-08).
                             "timeout 300 xdotool search --sync --name 'Esc cancels' > /dev/null; "
                             "xdotool mousemove 630 440 sleep 0.3 key Escape; wait $pid";
  const auto start = std::chrono::steady_clock::now();
  const auto result = runUnderXvfb(script);
  EXPECT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("ui-test: 9 commands passed"), std::string::npos) << result.output;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(120));
}

}  // namespace
}  // namespace ws
