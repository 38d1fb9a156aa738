#include "app/lab.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>

#include "app/session/actions.h"
#include "app/session/recorder.h"
#include "app/shown_view.h"
#include "compute/core/errors.h"
#include "compute/core/gpu_error.h"
#include "compute/core/json_input.h"
#include "compute/core/output_file.h"

namespace ws::app {

void applySettings(Module& module, const std::vector<std::string>& settings) {
  std::vector<std::pair<std::string, ParamValue>> values;
  for (const std::string& setting : settings) {
    const auto eq = setting.find('=');
    if (eq == std::string::npos)
      throw InputError("--set '" + setting + "': expected key=value, e.g. life.rule=B36/S23");
    std::string key = setting.substr(0, eq);
    const std::string prefix = std::string(module.name()) + ".";
    if (key.rfind(prefix, 0) == 0)
      key = key.substr(prefix.size());
    else if (key.find('.') != std::string::npos)
      throw InputError("--set '" + setting + "': the parameter is not one of module '" +
                       std::string(module.name()) + "'");
    values.emplace_back(key, module.params().parse(key, setting.substr(eq + 1)));
  }
  // All at once: a lattice 4096 wide and 4096 high is checked as that, never built 4096 wide
  // and 64 high on the way there.
  if (!values.empty()) module.setParams(values);
}

nlohmann::json readPresetFile(const std::string& path) {
  return json_input::parseFile(path, "preset");
}

namespace {

// Where in the preset's file the first parameter `module` refuses is (" at line L, column C"), or
// "" where none is refused on its own or the file no longer says it.
std::string placeOfRefusedParameter(const Module& module, const nlohmann::json& content,
                                    const std::string& path) {
  const auto params = content.find("params");
  if (params == content.end() || !params->is_object()) return "";
  for (const auto& [key, value] : params->items()) {
    try {
      module.params().checkJson({{key, value}});
    } catch (const InputError&) {
      try {
        const std::string place = json_input::placeOfKey(json_input::readText(path, "preset"), key);
        return place.empty() ? "" : " at " + place;
      } catch (const InputError&) {
        return "";
      }
    }
  }
  return "";
}

// A preset's content into `module`; a refusal names the file it came from, where there is one.
// Returns what was scaled for the CPU (Module::loadPreset).
std::string loadPresetFrom(Module& module, const nlohmann::json& content, const std::string& path) {
  const std::string where = path.empty() ? "the preset" : "preset '" + path + "'";
  try {
    return module.loadPreset(content);
  } catch (const nlohmann::json::exception& e) {
    json_input::throwLibraryError(where, e);
  } catch (const InputError& e) {
    if (path.empty()) throw;
    throw InputError(where + placeOfRefusedParameter(module, content, path) + ": " + e.what());
  }
}

// What the lab says of a preset scaled for the CPU.
std::string scaledNote(const std::string& scaled) {
  return scaled.empty() ? "" : "preset scaled for the CPU: " + scaled;
}

bool startsPaused(const nlohmann::json& preset) {
  return preset.is_object() && preset.value("paused", false);
}

// The steps a frame the preset asks for (Module::loadPreset checked it), if it names them.
std::optional<int> presetStepsPerFrame(const nlohmann::json& preset) {
  if (!preset.is_object() || !preset.contains("steps_per_frame")) return std::nullopt;
  return preset["steps_per_frame"].get<int>();
}

}  // namespace

std::optional<std::string> presetModuleOf(const nlohmann::json& preset) {
  if (!preset.is_object() || !preset.contains("module") || !preset["module"].is_string())
    return std::nullopt;
  const std::string name = preset["module"];
  for (const ModuleEntry& entry : moduleRegistry())
    if (entry.name == name) return name;
  return std::nullopt;
}

Lab::Lab(const LabOptions& options) {
  const Backend backend = options.backend.value_or(defaultBackend());
  if (backend == Backend::Cuda && !gpuInfo().available)
    throw InputError("--backend cuda: " + gpuInfo().reason);
  module_ = createModule(options.module, backend);
  pickFirstTool();
  if (!options.variant.empty()) module_->select(backend, options.variant);
  bool presetPaused = false;
  std::optional<int> presetSpeed;
  if (!options.preset.empty()) {
    const nlohmann::json content =
        options.presetContent ? *options.presetContent : readPresetFile(options.preset);
    presetNote_ = scaledNote(loadPresetFrom(*module_, content, options.preset));
    presetPaused = startsPaused(content);
    presetSpeed = presetStepsPerFrame(content);
  }
  if (!options.size.empty()) module_->setSize(options.size);
  applySettings(*module_, options.sets);
  if (!options.compare.empty())
    startComparison(parseCompareTarget(options.compare, module_->backend()));
  if (options.stepsPerFrame < 1) throw InputError("--steps-per-frame must be at least 1");
  // The preset's speed unless the command line names another.
  stepsPerFrame_ = options.stepsPerFrame == 1 && presetSpeed ? *presetSpeed : options.stepsPerFrame;
  running_ = !options.paused && !presetPaused;
  interop = options.interop;
  if (backend == Backend::Cpu && !gpuInfo().available)
    notice = WS_WITH_CUDA ? "CPU backend: no usable GPU" : "CPU backend: built without CUDA";
}

Lab::~Lab() = default;

void Lab::adoptModule(std::unique_ptr<Module> module) {
  comparison_.reset();  // B was of the old module
  module_ = std::move(module);
  history_.clear();
  undo_.clear();
  fitPending = true;
  followGraph = true;
  colormap.clear();
  presetNote_.clear();
  pickFirstTool();
}

void Lab::pickFirstTool() {
  const auto tools = module_->tools();
  tool = tools.empty() ? "" : tools.front();
}

void Lab::advance() {
  const bool stepped = attempt([&] {
    if (recorder_) recorder_->frame(*this);
    const int steps = (running_ ? stepsPerFrame_ : 0) + pendingSteps_;
    pendingSteps_ = 0;
    if (steps > 0) module_->step(steps);
    module_->pollTimings();
    withComparison([&](Comparison& c) {
      c.follow(*module_);
      c.checkEvery(*module_, compareEvery);
    });
    metrics_ = module_->metrics();
    // A series the module no longer reports (another workload's) is not plotted on.
    std::erase_if(history_, [&](const auto& series) {
      return series.first != kFrameSeries &&
             std::none_of(metrics_.begin(), metrics_.end(),
                          [&](const Metric& m) { return m.name == series.first; });
    });
    for (const auto& metric : metrics_)
      if (metric.plotted) addToHistory(metric.name, metric.value);
  });
  // A simulation that failed pauses, so that its message is read once, not met every frame.
  if (!stepped) running_ = false;
}

bool Lab::attempt(const std::function<void()>& action) {
  bool refused = false;
  try {
    action();
    return true;
  } catch (const InputError& e) {
    // Refused (a bad value or file, too little memory): the lab stays as it was, running or not.
    errorMessage = e.what();
    refused = true;
  } catch (const CudaError& e) {
    if (e.contextLost())
      fallBackToCpu(e.what());
    else
      errorMessage = e.what();
  } catch (const std::bad_alloc&) {
    errorMessage = "out of memory: the change asked for more memory than this machine has free";
  } catch (const std::exception& e) {
    if (module_->backend() == Backend::Cuda && cudaContextLost())
      fallBackToCpu(e.what());
    else
      errorMessage = e.what();
  }
  if (!refused) running_ = false;  // a failure pauses the simulation
  // Whatever the input, a message stays a few lines (every message quotes values briefly; this
  // holds where one was missed).
  errorMessage = json_input::brief(errorMessage, json_input::kLongestMessage);
  return false;
}

void Lab::applyQueued() {
  // Taken out first: a change may queue another, which waits for the next frame.
  std::vector<std::function<void()>> changes;
  changes.swap(queued_);
  for (const auto& change : changes) attempt(change);
}

void Lab::fallBackToCpu(const std::string& reason) {
  // The GPU's state cannot be read back after a sticky error: start again from the parameters.
  auto fresh = createModule(std::string(module_->name()), Backend::Cpu);
  const nlohmann::json params = module_->params().toJson();
  try {
    fresh->loadPreset({{"module", std::string(module_->name())}, {"params", params}});
  } catch (const std::exception&) {
    // Too large for the CPU: keep the CPU defaults.
  }
  adoptModule(std::move(fresh));
  errorMessage =
      "The GPU failed and the lab switched to the CPU backend (the simulation restarted "
      "from its parameters).\n\n" +
      reason;
  notice = "CPU backend after a GPU failure";
}

bool Lab::perform(const Action& action) {
  // Logged before it runs: a replay meets the same failure at the same point.
  if (recorder_) recorder_->log(*this, toJson(action));
  const std::uint64_t stepBefore = module_->stepCount();
  const std::uint64_t generation = module_->stateGeneration();
  const Module* moduleBefore = module_.get();
  const auto* param = std::get_if<act::SetParam>(&action);
  const std::optional<ParamSet> paramsBefore =
      param ? std::optional(module_->params()) : std::nullopt;
  std::unique_ptr<EditChange> change;
  const bool done = attempt([&] { change = apply(action); });
  if (!done) return false;
  // The state the plots describe was replaced (a reset, a new mesh or graph, a preset): they
  // start again with it. The frame times are the lab's and go on.
  if (std::holds_alternative<act::Reset>(action) ||
      std::holds_alternative<act::LoadPreset>(action) || module_->stepCount() < stepBefore)
    std::erase_if(history_, [](const auto& series) { return series.first != kFrameSeries; });
  // Undo steps of a state that started again (a reset, a clear, a new size) or of another module
  // no longer apply; the change that restarted it can still be undone.
  const bool undoing =
      std::holds_alternative<act::Undo>(action) || std::holds_alternative<act::Redo>(action);
  if (module_.get() != moduleBefore || std::holds_alternative<act::LoadPreset>(action) ||
      (!undoing && module_->stateGeneration() != generation))
    undo_.clear();
  if (param && module_.get() == moduleBefore)
    undo_.noteParam(param->key, *paramsBefore, module_->params());
  if (const auto* edit = std::get_if<act::Edit>(&action))
    undo_.noteEdit(edit->pointer, std::move(change));
  withComparison([&](Comparison& c) { c.follow(action, *module_); });
  return true;
}

void Lab::startComparison(const CompareTarget& target) {
  comparison_ = std::make_unique<Comparison>(*module_, target);
  fitPending = true;  // the view is half as wide
}

void Lab::withComparison(const std::function<void(Comparison&)>& work) {
  if (!comparison_) return;
  try {
    work(*comparison_);
  } catch (const std::exception& e) {
    comparison_.reset();
    fitPending = true;
    errorMessage =
        std::string("The A/B comparison stopped (the main simulation is unchanged): ") + e.what();
  }
}

std::unique_ptr<EditChange> Lab::apply(const Action& action) {
  validate(action);
  std::unique_ptr<EditChange> change;
  // What an undo or redo did, for the status bar.
  const auto said = [&](const std::optional<std::string>& what, const char* done,
                        const char* none) { undoMessage = what ? done + (" " + *what) : none; };
  std::visit(Overloaded{
                 [&](const act::SetParam& a) { module_->setParam(a.key, a.value); },
                 [&](const act::Edit& a) { change = module_->edit(a.pointer); },
                 [&](const act::RunAction& a) { module_->runAction(a.name); },
                 [&](const act::Reset&) { module_->reset(); },
                 [&](const act::SwitchModule& a) {
                   adoptModule(createModule(a.name, module_->backend()));
                 },
                 [&](const act::Select& a) { module_->select(a.backend, a.variant); },
                 [&](const act::LoadPreset& a) { applyPreset(a); },
                 [&](const act::SetRunning& a) { running_ = a.value; },
                 [&](const act::SetStepsPerFrame& a) { stepsPerFrame_ = a.value; },
                 [&](const act::RequestSteps& a) { pendingSteps_ += a.count; },
                 [&](const act::Fit&) { fitPending = followGraph = true; },
                 [&](const act::MoveCamera& a) { moveCamera(a); },
                 [&](const act::Undo&) { said(undo_.undo(*module_), "undid", "nothing to undo"); },
                 [&](const act::Redo&) { said(undo_.redo(*module_), "redid", "nothing to redo"); },
             },
             action);
  return change;
}

void Lab::applyPreset(const act::LoadPreset& preset) {
  const auto module = presetModuleOf(preset.content);
  if (!module || *module == module_->name()) {
    presetNote_ = scaledNote(loadPresetFrom(*module_, preset.content, preset.path));
  } else {
    // Another module's preset: that module is made aside with it, so that a refusal changes
    // nothing.
    auto fresh = createModule(*module, module_->backend());
    const std::string scaled = loadPresetFrom(*fresh, preset.content, preset.path);
    adoptModule(std::move(fresh));
    presetNote_ = scaledNote(scaled);
  }
  if (startsPaused(preset.content)) running_ = false;
  if (const std::optional<int> speed = presetStepsPerFrame(preset.content)) stepsPerFrame_ = *speed;
}

void Lab::setRunning(bool on) {
  perform(act::SetRunning{on});
}

void Lab::setStepsPerFrame(int steps) {
  perform(act::SetStepsPerFrame{steps});
}

void Lab::requestSteps(int count) {
  // In actions a session can hold (a headless frame may ask for more at once).
  for (int left = count; left > 0; left -= int(kMostStepsAtOnce))
    perform(act::RequestSteps{int(std::min<long long>(left, kMostStepsAtOnce))});
}

void Lab::setParam(const std::string& key, const ParamValue& value) {
  perform(act::SetParam{key, value});
}

void Lab::edit(const PointerEdit& edit) {
  perform(act::Edit{edit});
}

void Lab::runAction(const std::string& action) {
  perform(act::RunAction{action});
}

void Lab::reset() {
  perform(act::Reset{});
}

void Lab::switchModule(const std::string& name) {
  perform(act::SwitchModule{name});
}

void Lab::select(Backend backend, const std::string& variant) {
  perform(act::Select{backend, variant});
}

void Lab::loadPreset(const std::string& path) {
  nlohmann::json content;
  if (attempt([&] { content = readPresetFile(path); })) perform(act::LoadPreset{path, content});
}

std::optional<std::string> Lab::savePreset(const std::string& name) {
  std::string path;
  if (!attempt([&] {
        path = freshOutputPath(name);
        writeWholeFile(path, module_->preset().dump(2) + "\n", "preset");
      }))
    return std::nullopt;
  return path;
}

void Lab::fitView() {
  perform(act::Fit{});
}

void Lab::undo() {
  perform(act::Undo{});
}

void Lab::redo() {
  perform(act::Redo{});
}

void Lab::moveCamera(const act::MoveCamera& move) {
  camera = move.plane;
  // The same part of the world fills the frame at another frame height.
  if (move.height > 0 && viewportHeight > 0) camera.zoom *= double(viewportHeight) / move.height;
  orbit = move.orbit;
  fitPending = followGraph = false;
  showed3d = shows3d(*module_);  // the camera is the view's now: no refit when it is first drawn
}

nlohmann::json Lab::snapshotMeta() const {
  return {{"module", module_->name()},
          {"backend", toString(module_->backend())},
          {"variant", module_->variant()},
          {"params", module_->params().toJson()},
          {"playback", {{"running", running_}, {"steps_per_frame", stepsPerFrame_}}},
          {"camera", toJson(cameraNow())},
          {"follow_graph", followGraph},
          {"fit_pending", fitPending}};
}

LabSnapshot Lab::snapshot() {
  return {snapshotMeta(), module_->saveState()};
}

void Lab::restore(const LabSnapshot& snapshot, std::optional<Backend> backend,
                  const std::string& source) {
  try {
    json_input::guard("the saved state", [&] { restoreChecked(snapshot, backend); });
  } catch (const InputError& e) {
    if (source.empty()) throw;
    throw InputError(source + ": " + e.what());
  }
}

void Lab::resume(const std::string& checkpointPath) {
  restore(readCheckpoint(checkpointPath), std::nullopt, "checkpoint '" + checkpointPath + "'");
}

void Lab::restoreChecked(const LabSnapshot& snapshot, std::optional<Backend> backend) {
  const nlohmann::json& meta = snapshot.meta;
  const std::string name = meta.at("module");
  const auto recorded = parseBackend(meta.at("backend").get<std::string>());
  if (!recorded) throw InputError("unknown backend " + json_input::briefJson(meta["backend"]));
  // What the lab keeps, checked before anything changes.
  nlohmann::json cameraJson = meta.at("camera");
  cameraJson["type"] = "camera";
  const auto camera = std::get<act::MoveCamera>(actionFromJson(cameraJson));
  const nlohmann::json& playback = meta.at("playback");
  const nlohmann::json speed = {{"type", "steps_per_frame"},
                                {"value", playback.at("steps_per_frame")}};
  validateAction(speed);
  const bool wasRunning = playback.at("running");
  const bool follow = meta.value("follow_graph", false);
  const bool fit = meta.value("fit_pending", follow);
  const Backend chosen = backend.value_or(*recorded);
  // Built aside: a failure leaves the running module as it was.
  auto fresh = createModule(name, chosen);
  fresh->select(chosen, chosen == *recorded ? meta.at("variant").get<std::string>() : "");
  fresh->loadPreset({{"module", name}, {"params", meta.at("params")}});
  if (snapshot.reset)
    fresh->reset();
  else
    fresh->restoreState(snapshot.state);
  if (module_ == nullptr || module_->name() != name) history_.clear();
  undo_.clear();  // of the state replaced
  module_ = std::move(fresh);
  if (comparison_ && comparison_->module().name() != name) comparison_.reset();
  withComparison([&](Comparison& c) { c.resync(*module_); });
  pendingSteps_ = 0;
  running_ = wasRunning;
  stepsPerFrame_ = speed["value"];
  moveCamera(camera);
  followGraph = follow;
  fitPending = fit;
  const auto tools = module_->tools();
  if (std::find(tools.begin(), tools.end(), tool) == tools.end()) pickFirstTool();
}

void Lab::startRecording(const std::string& path, bool fromReset) {
  attempt([&] {
    if (fromReset) module_->reset();
    recorder_ = std::make_unique<SessionRecorder>(path, *this, fromReset);
    // A replay starts with no history: so does the recording, so that its undos replay exactly.
    undo_.clear();
  });
}

std::string Lab::stopRecording() {
  if (!recorder_) return "";
  std::string written;
  attempt([&] { written = recorder_->finish(*this); });
  recorder_.reset();
  return written;
}

void Lab::addToHistory(const std::string& series, double value) {
  auto& values = history_[series];
  values.push_back(static_cast<float>(value));
  if (values.size() > kHistory) values.pop_front();
}

void Lab::recordFrameTime(double ms) {
  frameMs_ = frameMs_ == 0 ? ms : 0.9 * frameMs_ + 0.1 * ms;
  addToHistory(kFrameSeries, ms);
}

std::string Lab::colormapForView() {
  if (!colormap.empty()) return colormap;
  const std::optional<FieldView> shown = shownValue(*module_);
  return shown ? shown->colormap : "viridis";
}

}  // namespace ws::app
