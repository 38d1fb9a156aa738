#include "compute/core/module.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "compute/core/errors.h"
#include "compute/core/json_input.h"
#include "compute/core/progress.h"

namespace ws {

void Module::setParam(const std::string& key, const ParamValue& value) {
  setParams({{key, value}});
}

void Module::setParamText(const std::string& key, const std::string& text) {
  setParams({{key, params_.parse(key, text)}});
}

void Module::setParams(const std::vector<std::pair<std::string, ParamValue>>& values) {
  std::vector<std::pair<std::string, ParamValue>> checked;
  for (const auto& [key, value] : values) checked.emplace_back(key, params_.check(key, value));
  const ParamSet before = params_;
  std::vector<std::string> changed;
  for (const auto& [key, value] : checked) {
    if (params_.value(key) == value) continue;
    params_.assign(key, value);
    changed.push_back(key);
  }
  if (changed.empty()) return;
  const auto named = [&](const std::string& key) {
    return std::any_of(values.begin(), values.end(), [&](const auto& v) { return v.first == key; });
  };
  for (const auto& [key, value] : alongWith(changed, before))
    if (!named(key) && params_.value(key) != value) {
      params_.assign(key, params_.check(key, value));
      changed.push_back(key);
    }
  const std::string variantBefore = variant();
  if (!offers(backend_, variantBefore)) variant_ = defaultVariant(backend_);
  try {
    applyParams(changed);
  } catch (...) {
    params_ = before;
    variant_ = variantBefore;
    throw;
  }
}

nlohmann::json Module::preset() const {
  return {{"module", std::string(name())}, {"params", params_.toJson()}};
}

std::string Module::loadPreset(const nlohmann::json& preset) {
  if (!preset.is_object() || !preset.contains("params") || !preset.contains("module"))
    throw InputError("a preset is a JSON object with \"module\" and \"params\"");
  if (preset["module"] != std::string(name()))
    throw InputError("the preset is for module " +
                     (preset["module"].is_string()
                          ? "'" + json_input::brief(preset["module"].get<std::string>()) + "'"
                          : json_input::briefJson(preset["module"])) +
                     ", not '" + std::string(name()) + "'");
  if (preset.contains("variant") && !preset["variant"].is_string())
    throw InputError("the preset's \"variant\" must be a variant's name");
  if (preset.contains("paused") && !preset["paused"].is_boolean())
    throw InputError("the preset's \"paused\" must be true or false");
  if (preset.contains("steps_per_frame") &&
      (!preset["steps_per_frame"].is_number_integer() || preset["steps_per_frame"] < 1 ||
       preset["steps_per_frame"] > kMostStepsPerFrame))
    throw InputError("the preset's \"steps_per_frame\" must be a whole number from 1 to " +
                     std::to_string(kMostStepsPerFrame));
  nlohmann::json params = preset["params"];
  std::string scaled;
  if (preset.contains("cpu")) {
    if (!preset["cpu"].is_object())
      throw InputError("the preset's \"cpu\" must be an object of parameters");
    params_.checkJson(params);  // both named and valid, whatever the backend
    params_.checkJson(preset["cpu"]);
    if (backend_ == Backend::Cpu)
      for (const auto& [key, value] : preset["cpu"].items()) {
        const auto was = params.find(key);
        if (was != params.end() && *was == value) continue;
        scaled += (scaled.empty() ? "" : ", ") + key + " " +
                  (was != params.end() ? json_input::briefJson(*was) + " -> " : "") +
                  json_input::briefJson(value);
        params[key] = value;
      }
  }
  const nlohmann::json before = params_.toJson();
  setParams(params_.checkJson(params));
  clearTimings();  // they were of another configuration
  // A preset may name the kernel that shows its point (a lesson); where this backend does not
  // offer it, the current one stays. A name no backend offers (with the preset's parameters) is
  // refused, and the parameters go back.
  if (!preset.contains("variant")) return scaled;
  const std::string variant = preset["variant"];
  if (offers(backend_, variant)) {
    select(backend_, variant);
  } else if (!offers(Backend::Cpu, variant) && !offers(Backend::Cuda, variant)) {
    setParams(params_.checkJson(before));
    throw InputError("the preset names variant '" + json_input::brief(variant) + "', which " +
                     std::string(name()) + " does not have");
  }
  return scaled;
}

std::string Module::sizeText() const {
  const WorldBox box = world();
  return std::to_string(long(box.maxX - box.minX)) + "x" +
         std::to_string(long(box.maxY - box.minY));
}

const std::string& Module::variant() const {
  if (variant_.empty()) variant_ = defaultVariant(backend_);
  return variant_;
}

std::string Module::defaultVariant(Backend backend) const {
  const auto list = variants(backend);
  const auto marked =
      std::find_if(list.begin(), list.end(), [](const KernelVariant& v) { return v.isDefault; });
  return marked != list.end() ? marked->name : list.front().name;
}

bool Module::offers(Backend backend, const std::string& variant) const {
  const auto list = variants(backend);
  return std::any_of(list.begin(), list.end(),
                     [&](const KernelVariant& v) { return v.name == variant; });
}

KernelVariant Module::currentVariant() const {
  const auto list = variants(backend_);
  for (const auto& v : list)
    if (v.name == variant()) return v;
  return list.front();
}

void Module::step(int count) {
  const RecordLaunches record(launches_);  // for the launch readouts
  advance(count);
  steps_ += static_cast<std::uint64_t>(count);
}

void Module::select(Backend backend, const std::string& variant) {
  if (backend == backend_ && variant == this->variant()) return;
  if (backend == Backend::Cuda && !gpuInfo().available)
    throw InputError("the CUDA backend is not available: " + gpuInfo().reason);
  // No variant named: keep the current one where the other backend has it too, else the default.
  std::string chosen = variant;
  if (chosen.empty()) chosen = offers(backend, variant_) ? variant_ : defaultVariant(backend);
  if (!offers(backend, chosen)) {
    std::string names;
    for (const auto& v : variants(backend)) names += " " + v.name;
    throw InputError("unknown variant '" + chosen + "' for the " + std::string(toString(backend)) +
                     " backend (known:" + names + ")");
  }
  StateBlob state = saveState();
  const Backend previousBackend = backend_;
  const std::string previousVariant = variant_;
  backend_ = backend;
  variant_ = chosen;
  try {
    applySelection(previousBackend, state);
  } catch (...) {
    // Refused or cancelled: what was running is put back, to its end.
    const CannotCancel puttingBack;
    backend_ = previousBackend;
    variant_ = previousVariant;
    applySelection(previousBackend, state);
    throw;
  }
  clearTimings();
}

void Module::clearTimings() {
  for (auto& scope : timings_) scope->clear();
}

TimingScope& Module::addTiming(std::string name, std::string rateUnit, bool onGpu,
                               int warmupSamples) {
  timings_.push_back(
      std::make_unique<TimingScope>(std::move(name), std::move(rateUnit), onGpu, warmupSamples));
  return *timings_.back();
}

Backend defaultBackend() {
  return gpuInfo().available ? Backend::Cuda : Backend::Cpu;
}

bool anyOf(const std::vector<std::string>& changedKeys, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    if (std::find(changedKeys.begin(), changedKeys.end(), key) != changedKeys.end()) return true;
  return false;
}

StateDifference compareStates(const StateBlob& a, const StateBlob& b) {
  StateDifference d;
  const std::size_t floatsFrom = std::min(a.floatsFrom, a.data.size());
  if (a.data.size() != b.data.size() || a.floatsFrom != b.floatsFrom ||
      (a.data.size() - floatsFrom) % sizeof(float) != 0) {
    d.comparable = false;
    return d;
  }
  d.bytes = floatsFrom;
  for (std::size_t i = 0; i < floatsFrom; ++i) d.differingBytes += a.data[i] != b.data[i];
  d.floats = (a.data.size() - floatsFrom) / sizeof(float);
  for (std::size_t i = 0; i < d.floats; ++i) {
    float x, y;
    std::memcpy(&x, a.data.data() + floatsFrom + i * sizeof(float), sizeof(float));
    std::memcpy(&y, b.data.data() + floatsFrom + i * sizeof(float), sizeof(float));
    if (std::memcmp(&x, &y, sizeof(float)) == 0) continue;  // bit for bit, NaNs included
    ++d.differingFloats;
    const double gap = std::isnan(x) || std::isnan(y) ? INFINITY : std::fabs(double(x) - y);
    d.largest = std::max(d.largest, gap);
  }
  return d;
}

}  // namespace ws
