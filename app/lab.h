#pragma once
// The running lab, shared by the GUI and the headless runner: the module, playback, camera and
// view settings, metric histories and the last error. Every user action goes through attempt(),
// so a bad value or a CUDA failure becomes a message and the lab keeps running; every action that
// changes the simulation goes through perform(), which a session recording logs and a replay
// feeds (app/session/).
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/compare.h"
#include "app/session/actions.h"
#include "app/session/snapshot.h"
#include "app/undo.h"
#include "compute/core/module.h"
#include "compute/views/marks.h"
#include "render/camera2d.h"
#include "render/orbit_camera.h"

namespace ws::app {

// What the command line asks for; shared by the GUI, headless runs and the benchmark.
struct LabOptions {
  std::string module = "life";
  std::optional<Backend> backend;
  std::string variant;
  std::string size;
  std::vector<std::string> sets;                // "key=value" or "module.key=value"
  std::string preset;                           // JSON file
  std::optional<nlohmann::json> presetContent;  // the file as read already (else read here)
  std::string compare;  // A/B: B's "backend[:variant]" or "variant"; empty: none
  int stepsPerFrame = 1;
  bool paused = false;
  bool interop = true;  // false: --no-interop
};

class Lab {
 public:
  // Throws InputError for bad options (unknown module, parameter, value, file).
  explicit Lab(const LabOptions& options);
  ~Lab();

  Module& module() { return *module_; }

  // Playback.
  // Read here; changed through perform() (act::SetRunning, SetStepsPerFrame, RequestSteps) like
  // every other action, so a recording logs each change where it is made.
  bool running() const { return running_; }
  int stepsPerFrame() const { return stepsPerFrame_; }
  void setRunning(bool on);
  void setStepsPerFrame(int steps);
  int stepN = 100;
  void requestSteps(int count);  // none for 0
  // Advances the simulation for one frame and records timings and metrics.
  void advance();

  // Actions that may fail: errors become errorMessage (and, for a lost GPU, a switch to the CPU).
  // A refusal (InputError) leaves the playback as it was; another failure pauses it.
  bool attempt(const std::function<void()>& action);

  // What the panels ask for while they draw. Many actions replace what the frame is still drawing
  // from (a module switch or a checkpoint replaces the module, a backend or parameter change its
  // engine, A/B its comparison), so a panel never calls them directly: it queues them here, and
  // the frame loop applies them between frames, when no reference into the lab is held. It does
  // so on its worker thread (app/long_work.h), as it does advance(): a queued change must not
  // touch ImGui or OpenGL.
  void later(std::function<void()> change) { queued_.push_back(std::move(change)); }
  // Applies what was queued, in order (each through attempt()).
  void applyQueued();

  // What the user does to the simulation. Each is one typed action (app/session/actions.h)
  // passed to perform(), which logs it while a session is recorded, applies it, and has the A/B
  // view's B follow it.
  bool perform(const Action& action);
  void setParam(const std::string& key, const ParamValue& value);
  void edit(const PointerEdit& edit);
  void runAction(const std::string& action);
  void reset();
  void switchModule(const std::string& name);
  void select(Backend backend, const std::string& variant);
  // Another module's preset is loaded into that module, made aside, which then runs.
  void loadPreset(const std::string& path);
  // Writes the module's preset as `name` in the output folder, never over another file
  // (compute/core/output_file.h); the path written, or nullopt when it failed (errorMessage).
  std::optional<std::string> savePreset(const std::string& name);
  void fitView();
  // Ctrl+Z and Ctrl+Shift+Z: the last edit or parameter change taken back, or made again
  // (app/undo.h). The history starts again where the state does: a reset, a clear, another
  // module, a preset, a restored checkpoint, a recording begun.
  void undo();
  void redo();
  const UndoHistory& history() const { return undo_; }
  // What the last undo or redo did ("undid draw", "nothing to undo"), for the status bar; the UI
  // clears it once shown.
  std::string undoMessage;
  // The camera as it is, framed in the last frame's height: what input changes and performs as
  // the user moves the view.
  act::MoveCamera cameraNow() const { return {camera, orbit, viewportHeight}; }

  // The whole lab (module, parameters, state, playback, camera), to resume or seek to later.
  // restore() builds the module aside and changes nothing when that fails (it throws);
  // `backend` replaces the snapshot's (a session recorded on CUDA replayed on the CPU).
  LabSnapshot snapshot();
  nlohmann::json snapshotMeta() const;  // the snapshot without the module's state
  // `source` ("checkpoint 'a.wsckpt'") starts what a refusal says, where there is a file to name.
  void restore(const LabSnapshot& snapshot, std::optional<Backend> backend = std::nullopt,
               const std::string& source = "");
  // Resumes from a checkpoint file (app/session/snapshot.h); throws InputError naming the file
  // and changes nothing where it cannot.
  void resume(const std::string& checkpointPath);

  // Session recording (app/session/recorder.h): from the current state (written beside the
  // session as a checkpoint) or from a reset; stopRecording() writes the session file and says
  // what it wrote.
  void startRecording(const std::string& path, bool fromReset);
  std::string stopRecording();
  bool recording() const { return recorder_ != nullptr; }
  const SessionRecorder* recorder() const { return recorder_.get(); }

  // The A/B view (app/compare.h): B follows the module from its current state. Starting throws
  // InputError and leaves the lab as it was; a failure of B's later ends the comparison with a
  // message and leaves the module running. A module switch or a restore ends it.
  void startComparison(const CompareTarget& target);
  void stopComparison() { comparison_.reset(); }
  Comparison* comparison() { return comparison_.get(); }
  // How often advance() compares A and B (copying both states to the host); 0: every frame.
  std::chrono::milliseconds compareEvery{500};

  std::string errorMessage;  // shown once by the UI, then cleared
  std::string notice;        // lasting note (e.g. "running on the CPU: ...")
  // What the last preset loaded changed to run on the CPU ("preset scaled for the CPU: width
  // 2048 -> 512"); empty where nothing was. A module switch forgets it.
  const std::string& presetNote() const { return presetNote_; }

  // View.
  render::Camera2D camera;
  render::OrbitCamera orbit;  // for modules with a 3-D scene (voxels, a mesh)
  bool fitPending = true;
  // A graph view keeps its layout framed as it spreads, until the user pans or zooms (F or
  // "Fit view" frames it, and follows it, again).
  bool followGraph = true;
  bool showed3d = false;   // the last frame was a 3-D scene: a switch between 2-D and 3-D refits
  int viewportHeight = 0;  // of the last frame drawn (a replayed camera keeps its framing)
  std::string colormap;    // empty: the view's default
  bool gridLines = true;
  // CUDA fields reach GL through interop (true), or are read back and uploaded each frame (the
  // host-device traffic lesson).
  bool interop = true;
  std::string tool = "draw";
  std::string toolItem = "glider";
  // How the place tool turns what it places (PointerEdit::orientation), and where the pointer is
  // over a 2-D view with the tool in hand, for its preview (none while it is elsewhere).
  int placeOrientation = 0;
  std::optional<ToolHover> hover;

  // Histories for the plots: one value per frame, newest last.
  const std::map<std::string, std::deque<float>>& metricHistory() const { return history_; }
  const std::vector<Metric>& lastMetrics() const { return metrics_; }
  void recordFrameTime(double ms);
  double frameMs() const { return frameMs_; }

  std::string colormapForView();

  static constexpr std::size_t kHistory = 600;
  static constexpr const char* kFrameSeries = "frame ms";

 private:
  void restoreChecked(const LabSnapshot& snapshot, std::optional<Backend> backend);
  void fallBackToCpu(const std::string& reason);
  void addToHistory(const std::string& series, double value);  // keeps the last kHistory values
  void adoptModule(std::unique_ptr<Module> module);
  // Applies the action; returns what an edit changed (for the undo history), else null.
  std::unique_ptr<EditChange> apply(const Action& action);
  void moveCamera(const act::MoveCamera& move);
  // A preset into the module, or into a new one where it is another module's.
  void applyPreset(const act::LoadPreset& preset);

  void pickFirstTool();  // the module's first tool, or none
  // Runs `work` on the comparison, ending it with a message when it throws.
  void withComparison(const std::function<void(Comparison&)>& work);

  std::unique_ptr<Module> module_;
  std::unique_ptr<Comparison> comparison_;
  std::vector<std::function<void()>> queued_;
  bool running_ = true;
  int stepsPerFrame_ = 1;
  int pendingSteps_ = 0;
  std::unique_ptr<SessionRecorder> recorder_;
  std::map<std::string, std::deque<float>> history_;
  std::vector<Metric> metrics_;
  double frameMs_ = 0;
  std::string presetNote_;
  UndoHistory undo_;
};

// Applies "key=value" settings to a module, all in one change; a key may carry the module's name
// ("life.rule").
void applySettings(Module& module, const std::vector<std::string>& settings);

// A preset file's JSON. Throws InputError for a file that cannot be read or is not JSON.
nlohmann::json readPresetFile(const std::string& path);
// The module a preset is for, where it names one of this build's (--preset without --module
// runs it); nullopt otherwise, and loading it then says what is wrong.
std::optional<std::string> presetModuleOf(const nlohmann::json& preset);

}  // namespace ws::app
