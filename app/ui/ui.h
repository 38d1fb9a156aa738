#pragma once
// The ImGui panels: controls (module, backend, variant, playback, tools, parameters), the timing
// overlay, the status bar, help, and the error popup. Shared by the GUI and headless frames.
#include <functional>
#include <string>

#include "app/lab.h"

namespace ws::app::ui {

struct UiContext {
  std::string glRenderer;
  std::string transferMode;
  int width = 0, height = 0;
  double cursorWorldX = -1, cursorWorldY = -1;  // under the mouse, when it is over the view
  bool showHelp = false;
  std::function<void()> screenshot;  // null where there is no window to capture
};

void drawUi(Lab& lab, UiContext& context);

// The parts, one file each.
void drawControlPanel(Lab& lab, UiContext& context);
void drawParameters(Lab& lab);
void drawTimingOverlay(Lab& lab, UiContext& context);
void drawStatusBar(Lab& lab, UiContext& context);
void drawHelp(UiContext& context);

constexpr float kPanelWidth = 360.0f;
constexpr float kStatusBarHeight = 26.0f;

}  // namespace ws::app::ui
