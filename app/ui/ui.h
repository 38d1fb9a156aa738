#pragma once
// The ImGui panels: controls (module, backend, variant, playback, tools, parameters), the timing
// overlay, the status bar, help, and the error popup. Shared by the GUI and headless frames.
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "app/analysis.h"
#include "app/lab.h"
#include "app/scene.h"
#include "app/session/player.h"
#include "app/ui/open_dialog.h"
#include "app/ui/tracked.h"
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

// Replays the session at demo.sessionPath (a recording under way stops first); what failed, or
// the files it uses that have changed since it was recorded, become messages.
void startReplay(Lab& lab, Demo& demo);

// Settings for a class: the UI's scale (for a projector), a high-contrast theme, the key figure
// in large type, and a demo that moves through the shipped presets by itself.
struct Classroom {
  float scale = 1.0f;         // the user's: 1, 1.5, 2 (U), or the slider's
  float displayScale = 1.0f;  // the window's content scale (HiDPI), which every size follows too
  float effective() const { return scale * displayScale; }
  bool highContrast = false;
  bool largeNumber = false;
  bool autoCycle = false;
  double cycleSeconds = 20;
  // Applied to ImGui's style when they change.
  float appliedScale = 1.0f;
  bool appliedContrast = false;
  // The auto demo: the shipped preset it shows and for how long it has, held (the demo waits on
  // it) or not. The panel's "Next preset" moves on at once. A preset whose step takes longer than
  // tooSlowMs on this backend is skipped, and not shown again, unless it is held (or the user
  // turned skipSlow off, as on a slow machine in a class that should see every one).
  double tooSlowMs = 250;
  bool skipSlow = true;
  std::size_t nextPreset = 0;
  std::string demoPreset;  // "" before the first
  double demoElapsed = 0;  // seconds shown, held time not counted
  double lastTick = -1;
  bool demoHeld = false;
  bool demoNextNow = false;
  std::set<std::string> tooSlow;
  std::string demoSkipped;  // what was skipped last and why
  double demoLeft() const { return std::max(0.0, cycleSeconds - demoElapsed); }
};

// The roofline and scaling-sweep windows: what they measured, and where the last frame drew each
// roofline point (for the headless check that all are drawn).
struct Analysis {
  bool showRoofline = false, showSweep = false;
  std::unique_ptr<RooflineRunner> roofline;  // measures one variant per frame until done
  std::unique_ptr<SweepRunner> sweep;        // runs one point per frame until done
  struct DrawnPoint {
    std::string label;
    float x, y;
    unsigned colour;  // RGBA as ImGui packs it
  };
  std::vector<DrawnPoint> drawn;
};

// A rectangle of the window, in ImGui's coordinates (window pixels, y down).
struct ScreenRect {
  float x = 0, y = 0, width = 0, height = 0;
  float right() const { return x + width; }
  float bottom() const { return y + height; }
  bool contains(float px, float py) const {
    return px >= x && px < right() && py >= y && py < bottom();
  }
  bool overlaps(const ScreenRect& o) const {
    return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
  }
  bool operator==(const ScreenRect&) const = default;
};

// Where each part of the window goes this frame: the panels at the sides (or a thin strip each
// when collapsed), the status bar at the bottom, the large figure's band above the view, and the
// view in what is left (less the replay's timeline below it during a replay). The simulation is
// drawn into `view` alone, so no panel ever hides it.
struct Layout {
  ScreenRect controls, timings, status, figure, timeline, view;
};

// A change that cannot be undone (a reset, a clear), waiting on the user's word: drawUi asks the
// question in a box, and queues the change on `yes` (a button of that label, or Enter).
struct Confirmation {
  std::string question;
  std::string yes;  // "Yes, reset"
  std::function<void()> change;
};

struct UiContext {
  std::string glRenderer;
  std::string transferMode;
  int width = 0, height = 0;  // the window, in ImGui's coordinates
  float pixelScale = 1;       // framebuffer pixels per window pixel (HiDPI)
  bool showUi = true;         // Tab hides the panels and the view takes the whole window
  bool controlsCollapsed = false, timingsCollapsed = false;
  Layout layout;
  double cursorWorldX = -1, cursorWorldY = -1;  // under the mouse, when it is over the view
  std::string pointerText;  // what the module says is under the mouse (Module::describeAt)
  std::vector<std::string> recentFiles;      // opened last first (openFile), remembered
  std::optional<Confirmation> confirmation;  // asked in the next frame
  OpenDialog openDialog;
  bool showHelp = false;
  Classroom classroom;
  Analysis analysis;
  std::function<void()> screenshot;  // null where there is no window to capture
  Demo* demo = nullptr;              // null where sessions are not recorded (headless frames)
};

// The frame's layout from the window's size and the panels' state; true when the view's area
// changed since the last frame (the view is then fitted to it again).
bool updateLayout(UiContext& context);
// The framebuffer's pixels of a rectangle of the window (the view's, for drawScene).
ViewArea pixelArea(const ScreenRect& rect, float pixelScale);
// The next window fills `rect`, whatever the user did to it.
void placeNextWindow(const ScreenRect& rect);
// A panel at a side of the view, in `rect`: its window begun, with a button that collapses it to
// a thin strip; collapsed, the strip with a button that opens it again, and false (nothing to
// draw, no End to call). `arrows`: the hide and show buttons' arrows, e.g. "<>".
bool beginSidePanel(const char* window, const ScreenRect& rect, bool& collapsed, const char* arrows,
                    const char* hideTip);

void drawUi(Lab& lab, UiContext& context);

// Reset and Clear, as the button, the key and the demo ask for them: after the user says yes,
// since neither can be undone.
void askToReset(Lab& lab, UiContext& context);
void askToClear(Lab& lab, UiContext& context);
// The user's answer to the question asked (the buttons, or Enter and Escape): yes queues the
// change.
void answerConfirmation(Lab& lab, UiContext& context, bool yes);

// The parts, one file each.
void drawControlPanel(Lab& lab, UiContext& context);
void drawParameters(Lab& lab);
void drawTimingOverlay(Lab& lab, UiContext& context);
void drawStatusBar(Lab& lab, UiContext& context);
void drawHelp(UiContext& context);

// What a file the user opens is: by its extension, and for JSON by its first key.
enum class FileKind { Pattern, Mesh, Picture, Graph, Preset, Session, Checkpoint, Unknown };
FileKind fileKindOf(const std::string& path);
// Opens a file dropped on the window or picked from the recent files, where its kind goes: a
// pattern placed at `at` (world coordinates; the centre without) in Life, a mesh to optimize (a
// voxel model where the voxel module runs), a graph, a preset, a session replayed, a checkpoint
// resumed. It replaces the module: call it between frames (Lab::later). What fails is a message
// and changes nothing; what opens goes first in the recent files.
void openFile(Lab& lab, UiContext& context, const std::string& path,
              std::optional<std::pair<double, double>> at = std::nullopt);
// The Open dialog (app/ui/open_dialog.h): shown by "Open..." and Ctrl+O; drawn, and the desktop
// chooser's answer taken, each frame.
void showOpenDialog(Lab& lab, UiContext& context);
void drawOpenDialog(Lab& lab, UiContext& context);
void drawViewLabels(Lab& lab, UiContext& context);
void drawConfirmation(Lab& lab, UiContext& context);
void drawDemoPanel(Lab& lab, Demo& demo, int width, int height);
void drawReplayTimeline(Lab& lab, Demo& demo, UiContext& context);
// The variant's lesson: the source's figure beside the live one, and the launch readouts.
void drawLesson(Lab& lab);
// The classroom settings' panel, their effect on the style, the large key figure, and the
// auto-cycling demo (which loads the next preset when its time has come).
void drawClassroomPanel(Classroom& classroom);
void applyClassroomStyle(Classroom& classroom);
void drawLargeNumber(Lab& lab, UiContext& context);
// The A/B view: its settings in the panel, and over the view each half's figures and whether
// they agree.
void drawComparePanel(Lab& lab);
void drawComparisonLabels(Lab& lab, UiContext& context);
// The roofline and sweep: their switches and buttons in the panel, and their windows.
void drawAnalysisControls(Lab& lab, Analysis& analysis);
void drawAnalysisWindows(Lab& lab, UiContext& context);
void advanceAutoCycle(Lab& lab, Classroom& classroom, double nowSeconds);
// "3.1 G elements/s": a rate with an SI prefix.
std::string siRate(double perSecond, const std::string& unit);
// What a plot of the Timings panel writes over itself: its label and latest value, whole however
// long the label ("log10 residual per step (steps per frame sweeps each) (10) 1.15").
std::string plotOverlay(const std::string& label, float latest);
std::string plotValue(float latest);  // the latest value alone, as plotOverlay writes it
void drawRecordingIndicator(Lab& lab, Demo& demo, UiContext& context);

constexpr float kPanelWidth = 360.0f;    // the controls, at UI scale 1
constexpr float kTimingsWidth = 430.0f;  // the timings
constexpr float kStripWidth = 32.0f;     // a collapsed panel
constexpr float kStatusBarHeight = 26.0f;
constexpr float kTimelineHeight = 120.0f;  // the replay's timeline

}  // namespace ws::app::ui
