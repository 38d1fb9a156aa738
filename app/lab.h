#pragma once
// The running lab, shared by the GUI and the headless runner: the module, playback, camera and
// view settings, metric histories and the last error. Every user action goes through attempt(),
// so a bad value or a CUDA failure becomes a message and the lab keeps running.
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/core/module.h"
#include "render/camera2d.h"
#include "render/orbit_camera.h"

namespace ws::app {

// What the command line asks for; shared by the GUI, headless runs and the benchmark.
struct LabOptions {
  std::string module = "life";
  std::optional<Backend> backend;
  std::string variant;
  std::string size;
  std::vector<std::string> sets;  // "key=value" or "module.key=value"
  std::string preset;             // JSON file
  int stepsPerFrame = 1;
  bool paused = false;
};

class Lab {
 public:
  // Throws InputError for bad options (unknown module, parameter, value, file).
  explicit Lab(const LabOptions& options);

  Module& module() { return *module_; }

  // Playback.
  bool running = true;
  int stepsPerFrame = 1;
  int stepN = 100;
  void requestSteps(int count) { pendingSteps_ += count; }
  // Advances the simulation for one frame and records timings and metrics.
  void advance();

  // Actions that may fail: errors become errorMessage (and, for a lost GPU, a switch to the CPU).
  bool attempt(const std::function<void()>& action);
  void switchModule(const std::string& name);
  void select(Backend backend, const std::string& variant);
  void loadPreset(const std::string& path);
  void savePreset(const std::string& path);

  std::string errorMessage;  // shown once by the UI, then cleared
  std::string notice;        // lasting note (e.g. "running on the CPU: ...")

  // View.
  render::Camera2D camera;
  render::OrbitCamera orbit;  // for modules with a 3-D scene (voxels, a mesh)
  bool fitPending = true;
  // A graph view keeps its layout framed as it spreads, until the user pans or zooms (F or
  // "Fit view" frames it, and follows it, again).
  bool followGraph = true;
  bool showed3d = false;  // the last frame was a 3-D scene: a switch to a 2-D view refits
  std::string colormap;   // empty: the view's default
  bool gridLines = true;
  std::string tool = "draw";
  std::string toolItem = "glider";

  // Histories for the plots: one value per frame, newest last.
  const std::map<std::string, std::deque<float>>& metricHistory() const { return history_; }
  const std::vector<Metric>& lastMetrics() const { return metrics_; }
  void recordFrameTime(double ms);
  double frameMs() const { return frameMs_; }

  std::string colormapForView();

  static constexpr std::size_t kHistory = 600;

 private:
  void fallBackToCpu(const std::string& reason);
  void addToHistory(const std::string& series, double value);  // keeps the last kHistory values
  void adoptModule(std::unique_ptr<Module> module);
  void pickFirstTool();  // the module's first tool, or none

  std::unique_ptr<Module> module_;
  int pendingSteps_ = 0;
  std::map<std::string, std::deque<float>> history_;
  std::vector<Metric> metrics_;
  double frameMs_ = 0;
};

// Applies "key=value" to a module; the key may carry the module's name ("life.rule").
void applySetting(Module& module, const std::string& setting);

}  // namespace ws::app
