#include "app/compare.h"

#include <cstdio>
#include <map>

#include "compute/core/errors.h"

namespace ws::app {

std::string Agreement::summary() const {
  char text[256];
  const auto at = static_cast<unsigned long long>(step);
  if (!state.comparable) {
    std::snprintf(text, sizeof text, "the states differ in size or layout at step %llu", at);
    return text;
  }
  if (exact()) {
    std::snprintf(text, sizeof text,
                  "agree bit for bit at step %llu (%zu bytes, %zu floats, %zu metrics)", at,
                  state.bytes, state.floats, metricsCompared);
    return text;
  }
  std::snprintf(text, sizeof text, "differ at step %llu:", at);
  std::string line = text;
  if (state.differingBytes) {
    std::snprintf(text, sizeof text, " %zu of %zu bytes;", state.differingBytes, state.bytes);
    line += text;
  }
  if (state.differingFloats) {
    std::snprintf(text, sizeof text, " %zu of %zu floats, largest difference %.3g;",
                  state.differingFloats, state.floats, state.largest);
    line += text;
  }
  for (const std::string& metric : metricsDiffering) (line += ' ') += metric + ';';
  line.pop_back();
  return line;
}

CompareTarget parseCompareTarget(const std::string& text, Backend current) {
  if (text.empty()) throw InputError("--compare: expected cuda, cpu, BACKEND:VARIANT or VARIANT");
  const std::size_t colon = text.find(':');
  const std::string head = text.substr(0, colon);
  if (const auto backend = parseBackend(head))
    return {*backend, colon == std::string::npos ? "" : text.substr(colon + 1)};
  if (colon != std::string::npos)
    throw InputError("--compare '" + text + "': unknown backend '" + head + "' (cpu or cuda)");
  return {current, text};
}

namespace {

std::unique_ptr<Module> createB(const Module& a, Backend backend) {
  if (backend == Backend::Cuda && !gpuInfo().available)
    throw InputError("A/B: the CUDA backend is not available: " + gpuInfo().reason);
  return createModule(std::string(a.name()), backend);
}

}  // namespace

Comparison::Comparison(Module& a, const CompareTarget& target) : b_(createB(a, target.backend)) {
  b_->loadPreset(a.preset());
  b_->select(target.backend, target.variant);
  resync(a);
}

void Comparison::follow(Module& a) {
  if (b_->stepCount() > a.stepCount()) {
    resync(a);
    return;
  }
  if (const auto behind = a.stepCount() - b_->stepCount(); behind > 0) b_->step(int(behind));
  b_->pollTimings();
}

void Comparison::follow(const Action& action, Module& a) {
  std::visit(
      Overloaded{
          [&](const act::SetParam& p) { b_->setParam(p.key, p.value); },
          [&](const act::Edit& e) { b_->edit(e.pointer); }, [&](const act::Reset&) { b_->reset(); },
          [&](const act::RunAction&) { resync(a); }, [&](const act::LoadPreset&) { resync(a); },
          [&](const act::Undo&) { resync(a); }, [&](const act::Redo&) { resync(a); },
          [](const auto&) {},  // the playback, A's own backend or variant
      },
      action);
  agreement_.reset();
}

void Comparison::resync(Module& a) {
  if (a.params().toJson() != b_->params().toJson()) b_->loadPreset(a.preset());
  b_->restoreState(a.saveState());
  b_->clearTimings();
  agreement_.reset();
}

const Agreement& Comparison::check(Module& a) {
  Agreement result;
  result.step = a.stepCount();
  result.state = compareStates(a.saveState(), b_->saveState());
  std::map<std::string, double> theirs;
  for (const Metric& m : b_->metrics()) theirs[m.name] = m.value;
  for (const Metric& m : a.metrics()) {
    const auto it = theirs.find(m.name);
    if (it == theirs.end()) continue;
    ++result.metricsCompared;
    if (it->second == m.value) continue;
    char text[160];
    std::snprintf(text, sizeof text, "%s %.6g / %.6g", m.name.c_str(), m.value, it->second);
    result.metricsDiffering.push_back(text);
  }
  agreement_ = result;
  lastCheck_ = std::chrono::steady_clock::now();
  return *agreement_;
}

void Comparison::checkEvery(Module& a, std::chrono::milliseconds interval) {
  const bool stale = !agreement_ || agreement_->step != a.stepCount();
  if (stale && std::chrono::steady_clock::now() - lastCheck_ >= interval) check(a);
}

}  // namespace ws::app
