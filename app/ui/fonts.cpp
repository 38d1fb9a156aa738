#include "app/ui/fonts.h"

#include <backends/imgui_impl_opengl3.h>

#include <cstdlib>
#include <filesystem>

#include "compute/core/input_file.h"

namespace ws::app::ui {

namespace {

std::string findFont() {
  if (const char* path = std::getenv("WARPSCOPE_FONT"); path && pathExists(path)) return path;
  for (const char* path :
       {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf"})
    if (pathExists(path)) return path;
  return "";
}

}  // namespace

float largeFigureBandHeight(float scale) {
  return (Fonts::kLargePixels + Fonts::kMediumPixels + 20.0f) * scale;
}

Fonts& fonts() {
  static Fonts instance;
  return instance;
}

bool Fonts::use(float uiScale, float pixelScale) {
  if (uiScale == scale_ && pixelScale == pixelScale_) return false;
  scale_ = uiScale;
  pixelScale_ = pixelScale;
  // Rasterized at the framebuffer's resolution, drawn at the window's.
  const float scale = uiScale * pixelScale;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const std::string path = findFont();
  if (path.empty()) {
    warning_ = "no TrueType font found (apt-get install fonts-dejavu-core): ImGui's bitmap font";
    ImFontConfig config;
    config.SizePixels = 13.0f * scale;
    regular_ = io.Fonts->AddFontDefault(&config);
    large_ = medium_ = nullptr;
  } else {
    warning_.clear();
    regular_ = io.Fonts->AddFontFromFileTTF(path.c_str(), kRegularPixels * scale);
    medium_ = io.Fonts->AddFontFromFileTTF(path.c_str(), kMediumPixels * scale);
    large_ = io.Fonts->AddFontFromFileTTF(path.c_str(), kLargePixels * scale);
  }
  io.FontDefault = regular_;
  io.FontGlobalScale = 1.0f / pixelScale;
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  return true;
}

}  // namespace ws::app::ui
