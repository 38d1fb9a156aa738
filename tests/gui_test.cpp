// The GUI itself, under Xvfb: it starts, runs frames on the CPU backend, writes a screenshot of
// the window and exits 0. Skips where xvfb-run is not installed.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <filesystem>
#include <set>

#include "tests/process.h"

namespace ws {
namespace {

TEST(Gui, RunsUnderXvfbAndWritesAScreenshot) {
  if (test::runProcess("command -v xvfb-run").exitCode != 0)
    GTEST_SKIP() << "xvfb-run is not installed (apt-get install xvfb xauth)";
  const std::string shot = ::testing::TempDir() + "/gui.png";
  std::filesystem::remove(shot);
  const auto result = test::runProcess(
      "xvfb-run -a -s '-screen 0 1400x900x24' " + std::string(WARPSCOPE_BIN) +
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

}  // namespace
}  // namespace ws
