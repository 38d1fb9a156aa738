#include "app/gui_app.h"

// GL comes from epoxy (render/gl/gl.h); GLFW must not include the system GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "app/interrupt.h"
#include "app/long_work.h"
#include "app/scene.h"
#include "app/session/session.h"
#include "app/ui/fonts.h"
#include "app/ui/imgui_gl.h"
#include "app/ui/settings.h"
#include "app/ui/ui.h"
#include "app/ui/ui_driver.h"
#include "compute/core/errors.h"
#include "compute/core/output_file.h"
#include "compute/core/progress.h"
#include "render/colormap.h"
#include "render/gl/gl.h"
#include "render/gl/offscreen_target.h"

namespace ws::app {

namespace {

bool offers(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Mouse and keyboard over the simulation view (ImGui gets first pick).
class ViewInput {
 public:
  // A moved camera is performed as one act::MoveCamera (logged while recording, like an edit).
  void handle(Lab& lab, ui::UiContext& context, const ViewArea& view) {
    act::MoveCamera move = lab.cameraNow();
    move.height = view.height;
    const act::MoveCamera before = move;
    handle(lab, context, view, move);
    if (!(move == before)) lab.perform(move);
  }

 private:
  void handle(Lab& lab, ui::UiContext& context, const ViewArea& view, act::MoveCamera& move) {
    ImGuiIO& io = ImGui::GetIO();
    // In framebuffer pixels from the view's top left.
    double mx = io.MousePos.x * context.pixelScale;
    const double my = io.MousePos.y * context.pixelScale - view.y;
    // In the A/B view each half is a view of its own through the same camera.
    const std::vector<ViewColumn> columns = viewColumns(lab, view);
    ViewColumn column = columns.front();
    for (const ViewColumn& c : columns)
      if (c.contains(mx)) column = c;
    const bool overView = !io.WantCaptureMouse && io.MousePos.x >= 0 &&
                          context.layout.view.contains(io.MousePos.x, io.MousePos.y);
    mx -= column.x;
    const int w = column.width, h = view.height;
    if (shows3d(lab.module())) {
      orbit(lab, move.orbit, overView, mx, my, w, h);
      return;
    }
    render::Camera2D& camera = move.plane;
    context.cursorWorldX = overView ? camera.worldX(mx, w) : -1;
    context.cursorWorldY = overView ? camera.worldY(my, h) : -1;
    context.pointerText = overView && !editing_
                              ? lab.module().describeAt(context.cursorWorldX, context.cursorWorldY)
                              : "";
    lab.hover.reset();
    if (overView && offers(lab.module().tools(), lab.tool))
      lab.hover = ToolHover{lab.tool, lab.toolItem, context.cursorWorldX, context.cursorWorldY,
                            lab.placeOrientation};

    if (overView && io.MouseWheel != 0)
      camera.zoomAbout(std::pow(1.25, io.MouseWheel), mx, my, w, h);

    const bool panning = ImGui::IsMouseDown(2) || (io.KeyCtrl && ImGui::IsMouseDown(0));
    if (panning && (overView || panning_)) {
      if (panning_) camera.pan(mx - lastX_, my - lastY_);
      panning_ = true;
    } else {
      panning_ = false;
    }

    // A replay drives the simulation: the mouse moves the view only.
    const bool replaying = context.demo && context.demo->replay;
    const bool left = ImGui::IsMouseDown(0) && !io.KeyCtrl, right = ImGui::IsMouseDown(1);
    if ((left || right) && (overView || editing_) && !panning_ && !replaying) {
      const std::string tool = right ? "erase" : lab.tool;
      const bool fresh = !editing_;
      const double wx = camera.worldX(mx, w), wy = camera.worldY(my, h);
      // Drawing tools follow the drag; placing happens once per click.
      if (offers(lab.module().tools(), tool) && (tool != "place" || fresh)) {
        PointerEdit edit{tool,        wx, wy, fresh ? wx : lastWorldX_, fresh ? wy : lastWorldY_,
                         lab.toolItem};
        edit.start = fresh;
        edit.orientation = lab.placeOrientation;
        lab.perform(act::Edit{edit});
      }
      editing_ = true;
      lastWorldX_ = wx;
      lastWorldY_ = wy;
    } else {
      editing_ = false;
    }
    lastX_ = mx;
    lastY_ = my;
  }

  // A 3-D scene: drag to turn the camera, wheel to move closer, middle or Ctrl+drag to pan; a
  // left click that does not drag goes to a module that offers "inspect" as a ray.
  void orbit(Lab& lab, render::OrbitCamera& camera, bool overView, double mx, double my, int width,
             int height) {
    ImGuiIO& io = ImGui::GetIO();
    if (overView && io.MouseWheel != 0) camera.zoom(std::pow(1.15, io.MouseWheel));
    const bool panning = ImGui::IsMouseDown(2) || (io.KeyCtrl && ImGui::IsMouseDown(0));
    const bool turning = ImGui::IsMouseDown(0) && !io.KeyCtrl;
    if ((panning || turning) && (overView || dragging_)) {
      if (!dragging_) pressX_ = mx, pressY_ = my, leftPress_ = turning;
      if (dragging_ && panning) camera.pan(mx - lastX_, my - lastY_, height);
      if (dragging_ && turning) camera.turn(mx - lastX_, my - lastY_);
      dragging_ = true;
    } else {
      if (dragging_ && leftPress_ && std::hypot(mx - pressX_, my - pressY_) < 4 &&
          offers(lab.module().tools(), "inspect"))
        inspect(lab, camera, mx, my, width, height);
      dragging_ = false;
    }
    lastX_ = mx;
    lastY_ = my;
  }

  static void inspect(Lab& lab, const render::OrbitCamera& camera, double mx, double my, int width,
                      int height) {
    glm::vec3 origin, direction;
    camera.ray(mx, my, width, height, origin, direction);
    PointerEdit edit;
    edit.tool = "inspect";
    edit.hasRay = true;
    for (int k = 0; k < 3; ++k) edit.origin[k] = origin[k], edit.direction[k] = direction[k];
    lab.perform(act::Edit{edit});
  }

  bool dragging_ = false, leftPress_ = false;
  bool panning_ = false, editing_ = false;
  double lastX_ = 0, lastY_ = 0, lastWorldX_ = 0, lastWorldY_ = 0, pressX_ = 0, pressY_ = 0;
};

// Key presses queued by a GLFW callback: ImGui 1.86 samples key state once per frame, which loses
// a press and release that both fall between two frames.
using ui::KeyPress;

// What the window's callbacks queue for the frame loop: key presses, and files dropped on it.
struct WindowEvents {
  std::vector<KeyPress> keys;
  std::vector<std::string> drops;
};

void queueKeyPress(GLFWwindow* window, int key, int, int action, int mods) {
  if (action == GLFW_PRESS || action == GLFW_REPEAT)
    static_cast<WindowEvents*>(glfwGetWindowUserPointer(window))->keys.push_back({key, mods});
}

void queueDrop(GLFWwindow* window, int count, const char** paths) {
  auto& drops = static_cast<WindowEvents*>(glfwGetWindowUserPointer(window))->drops;
  for (int i = 0; i < count; ++i) drops.emplace_back(paths[i]);
}

// Files dropped on the window open between frames, a pattern where the pointer is over the view.
void openDrops(Lab& lab, ui::UiContext& context, std::vector<std::string>& drops) {
  std::optional<std::pair<double, double>> at;
  if (context.cursorWorldX >= 0) at = std::pair{context.cursorWorldX, context.cursorWorldY};
  for (const std::string& path : drops)
    lab.later([&lab, &context, path, at] { ui::openFile(lab, context, path, at); });
  drops.clear();
}

// Ctrl+C copies what the module offers (Life: the selection as RLE) to the clipboard; Ctrl+V
// makes the clipboard's text an item for the place tool (a pattern to place, with its preview).
void clipboard(Lab& lab, ui::UiContext& context, bool copy) {
  if (copy) {
    lab.attempt([&] {
      const std::string text = lab.module().copyText();
      if (text.empty()) return;
      ImGui::SetClipboardText(text.c_str());
      if (context.demo) context.demo->message = "copied to the clipboard";
    });
    return;
  }
  const char* text = ImGui::GetClipboardText();
  lab.later([&lab, &context, text = std::string(text ? text : "")] {
    if (!lab.attempt([&] { lab.toolItem = lab.module().pasteItem(text); })) return;
    lab.tool = "place";
    if (context.demo) context.demo->message = "pasted: click to place " + lab.toolItem;
  });
}

void handleKeys(Lab& lab, ui::UiContext& context, std::vector<KeyPress>& presses, bool& screenshot,
                bool& quit) {
  const bool typing = ImGui::GetIO().WantCaptureKeyboard;
  SessionPlayer* replay = context.demo ? context.demo->replay.get() : nullptr;
  for (const auto [key, mods] : presses) {
    const bool ctrl = mods & GLFW_MOD_CONTROL, shift = mods & GLFW_MOD_SHIFT;
    if (ctrl && key == GLFW_KEY_Q) quit = true;
    // A question asked (reset, clear) takes the keyboard: Enter says yes, Escape no.
    if (context.confirmation) {
      if (key == GLFW_KEY_ENTER || key == GLFW_KEY_KP_ENTER || key == GLFW_KEY_ESCAPE)
        ui::answerConfirmation(lab, context, key != GLFW_KEY_ESCAPE);
      continue;
    }
    if (key == GLFW_KEY_F12) screenshot = true;
    if (ctrl && !typing && !replay && (key == GLFW_KEY_C || key == GLFW_KEY_V))
      clipboard(lab, context, key == GLFW_KEY_C);
    if (ctrl && !typing && key == GLFW_KEY_O) ui::showOpenDialog(lab, context);
    if (ctrl && !typing && !replay && (key == GLFW_KEY_Z || key == GLFW_KEY_Y)) {
      if (key == GLFW_KEY_Y || shift)
        lab.redo();
      else
        lab.undo();
    }
    if (typing || ctrl) continue;
    // During a replay, Space plays and pauses it and keys that would change the simulation wait.
    if (replay && key == GLFW_KEY_SPACE) {
      replay->playing = !replay->playing;
      continue;
    }
    if (replay && key != GLFW_KEY_F && key != GLFW_KEY_G && key != GLFW_KEY_TAB &&
        key != GLFW_KEY_H && key != GLFW_KEY_F1 && key != GLFW_KEY_U && key != GLFW_KEY_I &&
        key != GLFW_KEY_L)
      continue;
    // clang-format off
    switch (key) {
      case GLFW_KEY_SPACE: lab.setRunning(!lab.running()); break;
      case GLFW_KEY_N:
      case GLFW_KEY_RIGHT: lab.requestSteps(shift ? lab.stepN : 1); break;
      case GLFW_KEY_R: ui::askToReset(lab, context); break;
      case GLFW_KEY_C:
        if (offers(lab.module().actions(), "clear")) ui::askToClear(lab, context);
        break;
      case GLFW_KEY_F: lab.fitView(); break;  // to the view's area, between the panels
      case GLFW_KEY_G: lab.gridLines = !lab.gridLines; break;
      case GLFW_KEY_TAB: context.showUi = !context.showUi; break;
      case GLFW_KEY_U: {
        float& scale = context.classroom.scale;
        scale = scale < 1.25f ? 1.5f : scale < 1.75f ? 2.0f : 1.0f;
        break;
      }
      case GLFW_KEY_I: context.classroom.highContrast = !context.classroom.highContrast; break;
      case GLFW_KEY_L: context.classroom.largeNumber = !context.classroom.largeNumber; break;
      case GLFW_KEY_A: context.classroom.autoCycle = !context.classroom.autoCycle; break;
      case GLFW_KEY_H:
      case GLFW_KEY_F1: context.showHelp = !context.showHelp; break;
      case GLFW_KEY_D: lab.tool = "draw"; break;
      case GLFW_KEY_E: lab.tool = "erase"; break;
      case GLFW_KEY_P: lab.tool = "place"; break;
      // The place tool's pattern: turned a quarter clockwise (.) or back (,), mirrored left to
      // right (X) or top to bottom (Y); see PointerEdit::orientation.
      case GLFW_KEY_PERIOD: lab.placeOrientation = turnedOrientation(lab.placeOrientation, 1); break;
      case GLFW_KEY_COMMA: lab.placeOrientation = turnedOrientation(lab.placeOrientation, 3); break;
      case GLFW_KEY_X: lab.placeOrientation = mirroredOrientation(lab.placeOrientation, 0); break;
      case GLFW_KEY_Y: lab.placeOrientation = mirroredOrientation(lab.placeOrientation, 2); break;
      case GLFW_KEY_EQUAL:
      case GLFW_KEY_KP_ADD:
        lab.setStepsPerFrame(std::min(kMostStepsPerFrame, lab.stepsPerFrame() * 2));
        break;
      case GLFW_KEY_MINUS:
      case GLFW_KEY_KP_SUBTRACT: lab.setStepsPerFrame(std::max(1, lab.stepsPerFrame() / 2)); break;
      default: break;
    }
    // clang-format on
    const FieldSource* field = lab.module().view<FieldSource>();
    const auto views = field ? field->fieldViews() : std::vector<FieldView>{};
    const std::size_t view = static_cast<std::size_t>(key - GLFW_KEY_1);
    if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9 && view < views.size() &&
        lab.module().params().has("view"))
      lab.setParam("view", views[view].name);
  }
  presses.clear();
}

void saveScreenshot(const std::string& path, int width, int height) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  gl::writePng(path, width, height, gl::readPixels(width, height));
  std::cout << "screenshot: " << path << " (" << width << "x" << height << ")" << std::endl;
}

}  // namespace

namespace {

// The remembered settings this run starts from (none with --reset-settings), and the module's
// options with the last module where the command line chose none.
ui::Settings startingSettings(const GuiOptions& options, LabOptions& lab) {
  if (options.resetSettings) {
    ui::forgetSettings();
    return {};
  }
  std::string warning;
  ui::Settings settings = ui::loadSettings(warning);
  const bool known = std::any_of(moduleRegistry().begin(), moduleRegistry().end(),
                                 [&](const ModuleEntry& e) { return e.name == settings.module; });
  if (!settings.module.empty() && !known) {
    warning = "ignored the remembered module (not one of this build's)";
    settings.module.clear();
  }
  if (!warning.empty()) std::cerr << "warpscope: " << warning << std::endl;
  // Options that belong to a module keep the default one, as --module does.
  const bool chosen = options.moduleGiven || !lab.size.empty() || !lab.sets.empty() ||
                      !lab.variant.empty() || !lab.preset.empty() || !lab.compare.empty() ||
                      !options.replaySession.empty();
  if (!chosen && !settings.module.empty()) lab.module = settings.module;
  // The remembered output folder, unless the command line named one or it is gone.
  if (!options.outputDirGiven && !settings.outputFolder.empty()) {
    try {
      setOutputFolder(settings.outputFolder);
    } catch (const InputError& e) {
      std::cerr << "warpscope: " << e.what() << ": files go to the current folder" << std::endl;
    }
  }
  return settings;
}

// A frame drawn while the lab's work takes long (a large graph's set-up, a fine voxel grid's
// frame on the CPU), in place of the panels and the view, which it is changing: what the work is
// doing, how far it is, and Cancel (Escape and closing the window cancel too). The window's title
// says it as well ("warpscope - laying out the graph - Esc cancels"), for a window out of sight
// (and for tests, which wait for it).
void drawWorkingFrame(GLFWwindow* window, std::vector<KeyPress>& keyPresses, Progress& progress) {
  glfwPollEvents();
  for (const KeyPress& press : keyPresses)
    if (press.key == GLFW_KEY_ESCAPE) progress.cancel();
  keyPresses.clear();  // pressed for this window, not for the panels'
  if (glfwWindowShouldClose(window) || interrupted()) progress.cancel();
  int width = 0, height = 0;
  glfwGetFramebufferSize(window, &width, &height);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  const ImGuiViewport* screen = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(screen->GetCenter(), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 24, 0));
  ImGui::Begin("Working", nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove);
  const Progress::Now now = progress.now();
  const std::string doing = progress.cancelled() ? "cancelling..."
                            : now.what.empty()   ? "working..."
                                                 : now.what;
  ImGui::TextUnformatted(doing.c_str());
  glfwSetWindowTitle(window, ("warpscope - " + doing + " - Esc cancels").c_str());
  // Unknown progress: a bar that sweeps, without a percentage.
  const bool known = now.done >= 0;
  ImGui::ProgressBar(known ? float(now.done) : std::fmod(float(ImGui::GetTime()), 1.0f),
                     ImVec2(-1, 0), known ? nullptr : "");
  ImGui::BeginDisabled(progress.cancelled());
  if (ImGui::Button("Cancel (Esc)")) progress.cancel();
  ImGui::EndDisabled();
  ImGui::End();
  ImGui::Render();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, width, height);
  glClearColor(render::kBackground[0], render::kBackground[1], render::kBackground[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ui::renderDrawLists([](std::string_view) { return true; });
  glfwSwapBuffers(window);
}

void rememberSettings(GLFWwindow* window, Lab& lab, const ui::UiContext& context) {
  ui::Settings settings;
  int x = 0, y = 0;
  glfwGetWindowPos(window, &x, &y);
  settings.x = x;
  settings.y = y;
  glfwGetWindowSize(window, &settings.width, &settings.height);
  settings.scale = context.classroom.scale;
  settings.highContrast = context.classroom.highContrast;
  settings.showUi = context.showUi;
  settings.controlsCollapsed = context.controlsCollapsed;
  settings.timingsCollapsed = context.timingsCollapsed;
  settings.module = std::string(lab.module().name());
  settings.outputFolder = outputFolder();
  settings.recentFiles = context.recentFiles;
  std::string warning;
  if (!ui::saveSettings(settings, warning)) std::cerr << "warpscope: " << warning << std::endl;
}

}  // namespace

int runGui(const GuiOptions& options) {
  // Bad options or a bad script end the run before any window opens.
  LabOptions labOptions = options.lab;
  const ui::Settings settings = startingSettings(options, labOptions);
  // The lab's changes and frames run on a worker: one that takes long shows its progress (on
  // stderr while no window is open yet) and can be cancelled.
  LongWork work;
  const InterruptsEndTheLoop interrupts;
  std::unique_ptr<Lab> made;
  ProgressOnStderr say;
  try {
    work.run([&] { made = std::make_unique<Lab>(labOptions); }, std::ref(say));
  } catch (const Cancelled& e) {
    std::cout << "gui: interrupted during the set-up: " << e.what() << std::endl;
    return 130;  // as a shell says of a run Ctrl+C ended
  }
  Lab& lab = *made;
  std::unique_ptr<ui::UiDriver> driver;
  if (!options.uiScript.empty()) driver = std::make_unique<ui::UiDriver>(options.uiScript);

  glfwSetErrorCallback([](int code, const char* text) {
    std::cerr << "GLFW error " << code << ": " << text << std::endl;
  });
  if (!glfwInit()) {
    std::cerr << "warpscope: cannot open a window (no display?). Use --headless to render without "
                 "one."
              << std::endl;
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  const int width = options.windowGiven ? options.width : settings.width;
  const int height = options.windowGiven ? options.height : settings.height;
  GLFWwindow* window = glfwCreateWindow(width, height, "warpscope", nullptr, nullptr);
  if (!window) {
    std::cerr << "warpscope: no OpenGL 4.3 core context for a window here" << std::endl;
    glfwTerminate();
    return 1;
  }
  if (settings.x && settings.y && !options.windowGiven)
    glfwSetWindowPos(window, *settings.x, *settings.y);
  glfwMakeContextCurrent(window);
  glfwSwapInterval(driver ? 0 : 1);  // a script runs as fast as frames are drawn

  int exitCode = 0;
  {
    SceneRenderers renderers;
    ui::ImGuiGl imgui;
    WindowEvents events;
    std::vector<KeyPress>& keyPresses = events.keys;
    glfwSetWindowUserPointer(window, &events);
    glfwSetKeyCallback(window, queueKeyPress);  // before ImGui's backend, which chains to it
    glfwSetDropCallback(window, queueDrop);
    ImGui_ImplGlfw_InitForOpenGL(window, true);

    ui::UiContext context;
    ui::Demo demo;
    context.demo = &demo;
    context.glRenderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    context.classroom.scale = settings.scale;
    context.classroom.highContrast = settings.highContrast;
    context.showUi = settings.showUi;
    context.controlsCollapsed = settings.controlsCollapsed;
    context.timingsCollapsed = settings.timingsCollapsed;
    context.recentFiles = settings.recentFiles;
    ViewInput input;
    bool screenshotRequested = false, quit = false;
    std::string scriptScreenshot;
    context.screenshot = [&] { screenshotRequested = true; };
    if (!options.recordSession.empty()) {
      demo.sessionPath = options.recordSession;
      lab.startRecording(options.recordSession, false);
    }
    if (!options.replaySession.empty()) {
      demo.sessionPath = options.replaySession;
      ui::startReplay(lab, demo);
    }
    bool videoPending = !options.recordVideo.empty();
    long frames = 0;
    auto lastTitle = std::chrono::steady_clock::now();

    const auto working = [&](Progress& progress) {
      drawWorkingFrame(window, keyPresses, progress);
      lastTitle = {};  // the lab's title again on the first frame after the work
    };
    while (!glfwWindowShouldClose(window) && !quit && !interrupted()) {
      const auto frameStart = std::chrono::steady_clock::now();
      glfwPollEvents();
      int fbWidth = 0, fbHeight = 0, winWidth = 0, winHeight = 0;
      glfwGetFramebufferSize(window, &fbWidth, &fbHeight);
      glfwGetWindowSize(window, &winWidth, &winHeight);
      float contentScale = 1, unused = 1;
      glfwGetWindowContentScale(window, &contentScale, &unused);
      context.width = std::max(winWidth, 1);
      context.height = std::max(winHeight, 1);
      context.pixelScale = winWidth > 0 ? float(fbWidth) / winWidth : 1.0f;
      context.classroom.displayScale = std::max(0.5f, contentScale / context.pixelScale);

      // Between frames, while nothing points into the lab: what the panels asked for last frame,
      // then the simulation's frame (on the worker, with a progress window when they take long).
      work.run([&] { lab.applyQueued(); }, working);
      const std::uint64_t stepBefore = lab.module().stepCount();
      work.run(
          [&] {
            if (demo.replay) {
              demo.replay->tick(lab);
            } else {
              ui::advanceAutoCycle(lab, context.classroom, glfwGetTime());
              lab.advance();
            }
          },
          working);
      if (glfwWindowShouldClose(window) || interrupted()) lab.errorMessage.clear();  // "cancelled"
      if (ui::updateLayout(context)) lab.fitPending = true;  // the view's area changed: refit
      const ViewArea view = ui::pixelArea(context.layout.view, context.pixelScale);
      ui::fonts().use(context.classroom.effective(), context.pixelScale);

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      if (driver) {
        ui::DriverRequests requests;
        driver->frame(lab, context, requests);
        keyPresses.insert(keyPresses.end(), requests.keys.begin(), requests.keys.end());
        if (requests.resize)
          glfwSetWindowSize(window, requests.resize->first, requests.resize->second);
        if (!requests.screenshot.empty()) scriptScreenshot = requests.screenshot;
        events.drops.insert(events.drops.end(), requests.drops.begin(), requests.drops.end());
        if (requests.quit || driver->finished()) quit = true;
      }
      ImGui::NewFrame();
      ui::WidgetLog::instance().beginFrame();
      handleKeys(lab, context, keyPresses, screenshotRequested, quit);
      input.handle(lab, context, view);
      openDrops(lab, context, events.drops);

      if (videoPending) {  // once the framebuffer's size is known
        demo.videoSettings.path = options.recordVideo;
        lab.attempt([&] { demo.video.start(demo.videoSettings, fbWidth, fbHeight); });
        videoPending = false;
      }
      demo.video.beginFrame(lab.module().stepCount() != stepBefore, fbWidth, fbHeight);
      drawScene(lab, renderers, fbWidth, fbHeight, view);
      context.transferMode = renderers.transferMode;
      lab.attempt([&] { demo.video.capture(ScreenRecording::Capture::View); });
      if (context.showUi) ui::drawUi(lab, context);
      ui::drawRecordingIndicator(lab, demo, context);
      ImGui::Render();
      // The UI in two parts, so that a video can take the view with the timings, or the window
      // without the recording indicator.
      const auto timings = [](std::string_view owner) { return owner.rfind("Timings", 0) == 0; };
      const auto foreground = [](std::string_view owner) { return owner == "##Foreground"; };
      ui::renderDrawLists(timings);
      lab.attempt([&] { demo.video.capture(ScreenRecording::Capture::ViewAndTimings); });
      ui::renderDrawLists([&](std::string_view o) { return !timings(o) && !foreground(o); });
      lab.attempt([&] { demo.video.capture(ScreenRecording::Capture::Window); });
      ui::renderDrawLists(foreground);
      if (!lab.undoMessage.empty()) {
        demo.message = lab.undoMessage;  // "undid draw"
        lab.undoMessage.clear();
      }
      if (!demo.video.active() && !demo.video.lastSummary.empty()) {
        demo.message = demo.video.lastSummary;  // it stopped itself (the window was resized)
        demo.video.lastSummary.clear();
      }

      ++frames;
      if (options.quitAfterFrames > 0 && frames >= options.quitAfterFrames) quit = true;
      if (screenshotRequested) {
        lab.attempt([&] {
          const std::string path =
              freshOutputPath("warpscope-" + std::string(lab.module().name()) + ".png");
          saveScreenshot(path, fbWidth, fbHeight);
          demo.message = "saved " + path;
        });
        screenshotRequested = false;
      }
      if (!scriptScreenshot.empty()) {
        lab.attempt([&] { saveScreenshot(scriptScreenshot, fbWidth, fbHeight); });
        scriptScreenshot.clear();
      }
      // --screenshot: the last frame, whether the frame count or Ctrl+Q ended the run.
      if (quit && !options.screenshot.empty())
        lab.attempt([&] { saveScreenshot(options.screenshot, fbWidth, fbHeight); });
      glfwSwapBuffers(window);
      lab.recordFrameTime(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frameStart)
              .count());

      if (std::chrono::steady_clock::now() - lastTitle > std::chrono::milliseconds(500)) {
        lastTitle = std::chrono::steady_clock::now();
        std::string title = "warpscope - " + std::string(lab.module().title()) + " - step " +
                            std::to_string(lab.module().stepCount());
        for (const auto& scope : lab.module().timings()) {
          const TimingStats s = scope->stats();
          if (s.samples == 0) continue;
          title += " - " + ui::siRate(s.ratePerSecond, scope->rateUnit());
          break;
        }
        char fps[32];
        std::snprintf(fps, sizeof fps, " - %.0f fps", 1000.0 / std::max(lab.frameMs(), 1e-3));
        glfwSetWindowTitle(window, (title + fps).c_str());
      }
    }
    rememberSettings(window, lab, context);
    // Recordings are finalized however the window was closed.
    if (lab.recording()) std::cout << "session: " << lab.stopRecording() << std::endl;
    if (demo.video.active()) std::cout << "video: " << demo.video.stop() << std::endl;
    if (!lab.errorMessage.empty()) {
      std::cerr << "warpscope: " << lab.errorMessage << std::endl;
      if (options.quitAfterFrames > 0) exitCode = 1;
    }
    std::cout << "gui: " << frames << " frames, step " << lab.module().stepCount() << ", "
              << toString(lab.module().backend()) << "/" << lab.module().variant() << ", "
              << context.transferMode << ", on " << context.glRenderer << std::endl;
    for (const auto& metric : lab.module().metrics())
      std::cout << "gui: " << metric.name << " " << metric.value << std::endl;
    if (Comparison* comparison = lab.comparison())
      lab.attempt([&] {
        std::cout << "gui: A/B: " << comparison->check(lab.module()).summary() << std::endl;
      });
    std::istringstream notes(lab.module().notes());
    for (std::string line; std::getline(notes, line);) std::cout << "gui: " << line << std::endl;
    if (driver && !driver->failure().empty()) {
      std::cerr << "ui-test: " << driver->failure() << std::endl;
      exitCode = 3;
    } else if (driver) {
      std::cout << "ui-test: " << driver->passed() << " commands passed" << std::endl;
    }
    ImGui_ImplGlfw_Shutdown();
  }
  glfwDestroyWindow(window);
  glfwTerminate();
  return exitCode;
}

}  // namespace ws::app
