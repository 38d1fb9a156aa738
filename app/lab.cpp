#include "app/lab.h"

#include <fstream>

#include "compute/core/cuda_check.h"
#include "compute/core/errors.h"

namespace ws::app {

void applySetting(Module& module, const std::string& setting) {
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
  module.setParamText(key, setting.substr(eq + 1));
}

namespace {

nlohmann::json readJsonFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open preset '" + path + "'");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError("preset '" + path + "' is not valid JSON: " + e.what());
  }
}

}  // namespace

Lab::Lab(const LabOptions& options) {
  const Backend backend = options.backend.value_or(defaultBackend());
  if (backend == Backend::Cuda && !gpuInfo().available)
    throw InputError("--backend cuda: " + gpuInfo().reason);
  module_ = createModule(options.module, backend);
  pickFirstTool();
  if (!options.variant.empty()) module_->select(backend, options.variant);
  if (!options.preset.empty()) module_->loadPreset(readJsonFile(options.preset));
  if (!options.size.empty()) module_->setSize(options.size);
  for (const auto& setting : options.sets) applySetting(*module_, setting);
  if (options.stepsPerFrame < 1) throw InputError("--steps-per-frame must be at least 1");
  stepsPerFrame = options.stepsPerFrame;
  running = !options.paused;
  if (backend == Backend::Cpu && !gpuInfo().available) notice = "CPU backend: no usable GPU";
}

void Lab::adoptModule(std::unique_ptr<Module> module) {
  module_ = std::move(module);
  history_.clear();
  fitPending = true;
  followGraph = true;
  colormap.clear();
  pickFirstTool();
}

void Lab::pickFirstTool() {
  const auto tools = module_->tools();
  tool = tools.empty() ? "" : tools.front();
}

void Lab::advance() {
  attempt([&] {
    const int steps = (running ? stepsPerFrame : 0) + pendingSteps_;
    pendingSteps_ = 0;
    if (steps > 0) module_->step(steps);
    module_->pollTimings();
    metrics_ = module_->metrics();
    for (const auto& metric : metrics_) addToHistory(metric.name, metric.value);
  });
}

bool Lab::attempt(const std::function<void()>& action) {
  try {
    action();
    return true;
  } catch (const CudaError& e) {
    if (e.contextLost())
      fallBackToCpu(e.what());
    else
      errorMessage = e.what();
  } catch (const std::exception& e) {
    if (module_->backend() == Backend::Cuda && cudaContextLost())
      fallBackToCpu(e.what());
    else
      errorMessage = e.what();
  }
  running = false;
  return false;
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

void Lab::switchModule(const std::string& name) {
  attempt([&] { adoptModule(createModule(name, module_->backend())); });
}

void Lab::select(Backend backend, const std::string& variant) {
  attempt([&] { module_->select(backend, variant); });
}

void Lab::loadPreset(const std::string& path) {
  attempt([&] { module_->loadPreset(readJsonFile(path)); });
}

void Lab::savePreset(const std::string& path) {
  attempt([&] {
    std::ofstream out(path);
    if (!out) throw InputError("cannot write preset '" + path + "'");
    out << module_->preset().dump(2) << "\n";
  });
}

void Lab::addToHistory(const std::string& series, double value) {
  auto& values = history_[series];
  values.push_back(static_cast<float>(value));
  if (values.size() > kHistory) values.pop_front();
}

void Lab::recordFrameTime(double ms) {
  frameMs_ = frameMs_ == 0 ? ms : 0.9 * frameMs_ + 0.1 * ms;
  addToHistory("frame ms", ms);
}

std::string Lab::colormapForView() {
  if (!colormap.empty()) return colormap;
  return module_->fieldViews()[module_->currentFieldView()].colormap;
}

}  // namespace ws::app
