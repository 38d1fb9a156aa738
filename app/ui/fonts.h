#pragma once
// The UI's fonts: a TrueType face (DejaVu Sans, from Debian's fonts-dejavu-core) rasterized at the
// UI's scale, and a large one for the key figure, instead of ImGui's 13-pixel bitmap font scaled
// up. Without the font file ImGui's own font is scaled, and the UI says so once.
#include <imgui.h>

#include <string>

namespace ws::app::ui {

// The large figure's band above the view, at a UI scale.
float largeFigureBandHeight(float scale);

class Fonts {
 public:
  // Rasterizes the fonts for `scale` (the UI scale times the window's content scale) and
  // `pixelScale` (framebuffer pixels per window unit, where they differ) when either changed; call
  // between frames, before the backend's NewFrame. Returns true when it rebuilt them.
  bool use(float scale, float pixelScale = 1.0f);
  ImFont* large() const { return large_; }    // the key figure; null: scale the regular font
  ImFont* medium() const { return medium_; }  // the line below it
  const std::string& warning() const { return warning_; }

  static constexpr float kRegularPixels = 15.0f, kLargePixels = 64.0f, kMediumPixels = 26.0f;

 private:
  float scale_ = 0, pixelScale_ = 0;
  ImFont *regular_ = nullptr, *large_ = nullptr, *medium_ = nullptr;
  std::string warning_;
};

// The fonts of the running UI (one ImGui context per program).
Fonts& fonts();

}  // namespace ws::app::ui
