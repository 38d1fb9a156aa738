#pragma once
// The ImGui panels: controls (module, backend, variant, playback, tools, parameters), the timing
// overlay, the status bar, help, and the error popup. Shared by the GUI and headless frames.
#include <functional>
#include <memory>
#include <string>

#include "app/lab.h"
#include "app/session/player.h"
#include "app/video/screen_recorder.h"

namespace ws::app::ui {

// Demo sessions in the GUI: the video being recorded, the replay being played (the session being
// recorded is the lab's), and the panel's fields.
struct Demo {
  ScreenRecorder video;
  ScreenRecording videoSettings;
  std::unique_ptr<SessionPlayer> replay;
  std::string sessionPath = "session.json";
  std::string checkpointPath = "warpscope.wsckpt";
  bool fromReset = false;
  std::string message;  // what the last recording or replay said
};

struct UiContext {
  std::string glRenderer;
  std::string transferMode;
  int width = 0, height = 0;
  double cursorWorldX = -1, cursorWorldY = -1;  // under the mouse, when it is over the view
  bool showHelp = false;
  std::function<void()> screenshot;  // null where there is no window to capture
  Demo* demo = nullptr;              // null where sessions are not recorded (headless frames)
};

void drawUi(Lab& lab, UiContext& context);

// The parts, one file each.
void drawControlPanel(Lab& lab, UiContext& context);
void drawParameters(Lab& lab);
void drawTimingOverlay(Lab& lab, UiContext& context);
void drawStatusBar(Lab& lab, UiContext& context);
void drawHelp(UiContext& context);
void drawDemoPanel(Lab& lab, Demo& demo, int width, int height);
void drawReplayTimeline(Lab& lab, Demo& demo, UiContext& context);
void drawRecordingIndicator(Lab& lab, Demo& demo, UiContext& context);

constexpr float kPanelWidth = 360.0f;
constexpr float kStatusBarHeight = 26.0f;

}  // namespace ws::app::ui
