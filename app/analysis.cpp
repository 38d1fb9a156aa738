#include "app/analysis.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "app/measure.h"
#include "compute/core/errors.h"

namespace ws::app {

std::optional<RooflinePoint> rooflinePoint(const Module& module) {
  const std::optional<OpModel> ops = module.opsPerWorkUnit();
  const TimingStats s = module.stepTiming().stats();
  if (!ops || s.samples == 0 || module.bytesPerWorkUnit() <= 0) return std::nullopt;
  RooflinePoint p;
  p.backend = toString(module.backend());
  p.variant = module.variant();
  p.kind = ops->kind;
  p.intensity = ops->ops / module.bytesPerWorkUnit();
  p.opsPerSecond = s.ratePerSecond * ops->ops;
  p.bytesPerSecond = s.bytesPerSecond;
  p.workingSet = s.medianBytes;
  p.live = true;
  return p;
}

namespace {

// A copy of `module` on `backend` running `variant` (empty: as select() picks).
std::unique_ptr<Module> copyOf(const std::string& name, const nlohmann::json& preset,
                               Backend backend, const std::string& variant) {
  std::unique_ptr<Module> copy = createModule(name, backend);
  copy->select(backend, variant);
  copy->loadPreset(preset);
  return copy;
}

}  // namespace

RooflineRunner::RooflineRunner(const Module& module, int samples, int stepsPerSample)
    : module_(module.name()),
      preset_(module.preset()),
      backend_(module.backend()),
      samples_(samples),
      stepsPerSample_(stepsPerSample) {
  for (const KernelVariant& variant : module.variants(backend_)) variants_.push_back(variant.name);
}

bool RooflineRunner::step() {
  if (done()) return false;
  const std::string& variant = variants_[next_++];
  try {
    std::unique_ptr<Module> copy = copyOf(module_, preset_, backend_, variant);
    copy->reset();
    measureSteps(*copy, samples_, stepsPerSample_, 2);
    if (auto point = rooflinePoint(*copy)) {
      point->live = false;
      points_.push_back(*point);
    }
  } catch (const OutOfMemoryError&) {
    // Does not fit beside the running module: left out.
  }
  return true;
}

double SweepLine::msAt(double work) const {
  return std::pow(10.0, intercept + slope * std::log10(work));
}

std::optional<SweepLine> fitSweep(const std::vector<SweepPoint>& points, Backend backend) {
  std::vector<const SweepPoint*> mine;
  for (const SweepPoint& p : points)
    if (p.backend == backend && p.work > 0 && p.msPerStep > 0) mine.push_back(&p);
  std::sort(mine.begin(), mine.end(), [](auto* a, auto* b) { return a->work < b->work; });
  // The larger half: below it a step's fixed cost (a launch, waking threads) hides the growth.
  mine.erase(mine.begin(), mine.begin() + long(mine.size() / 2));
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const SweepPoint* p : mine) {
    const double x = std::log10(p->work), y = std::log10(p->msPerStep);
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double denominator = n * sxx - sx * sx;
  if (n < 2 || denominator <= 0) return std::nullopt;
  SweepLine line;
  line.slope = (n * sxy - sx * sy) / denominator;
  line.intercept = (sy - line.slope * sx) / n;
  line.fromWork = mine.front()->work;
  line.toWork = mine.back()->work;
  return line;
}

std::optional<double> sweepCrossover(const std::vector<SweepPoint>& points) {
  // log(CPU time / GPU time) at each size both measured, smallest first.
  std::map<double, std::pair<double, double>> at;  // work -> (cpu ms, gpu ms)
  for (const SweepPoint& p : points)
    (p.backend == Backend::Cpu ? at[p.work].first : at[p.work].second) = p.msPerStep;
  std::vector<std::pair<double, double>> lead;  // (log work, log ratio)
  for (const auto& [work, ms] : at)
    if (ms.first > 0 && ms.second > 0)
      lead.emplace_back(std::log10(work), std::log10(ms.first / ms.second));
  // From the last size where the CPU was at least as fast, the GPU wins at every larger one.
  std::size_t first = lead.size();
  while (first > 0 && lead[first - 1].second > 0) --first;
  if (first == 0 || first == lead.size()) return std::nullopt;  // the GPU wins everywhere, or never
  const auto [x0, r0] = lead[first - 1];
  const auto [x1, r1] = lead[first];
  return std::pow(10.0, x0 + (x1 - x0) * (r0 / (r0 - r1)));
}

SweepRunner::SweepRunner(const Module& module, std::vector<Backend> backends, double slowStepMs)
    : module_(module.name()),
      variant_(module.variant()),
      preset_(module.preset()),
      slowStepMs_(slowStepMs) {
  const std::vector<std::string> sizes = module.sweepSizes();
  if (sizes.empty()) throw InputError("module '" + module_ + "' has no sizes to sweep");
  for (const std::string& size : sizes)
    for (Backend backend : backends) plan_.emplace_back(backend, size);
}

bool SweepRunner::step() {
  while (next_ < plan_.size()) {
    const auto [backend, size] = plan_[next_++];
    if (std::find(stopped_.begin(), stopped_.end(), backend) != stopped_.end()) continue;
    SweepPoint point{backend, size};
    try {
      std::unique_ptr<Module> copy = copyOf(module_, preset_, backend, "");
      const std::vector<KernelVariant> offered = copy->variants(backend);
      if (std::any_of(offered.begin(), offered.end(),
                      [&](const KernelVariant& v) { return v.name == variant_; }))
        copy->select(backend, variant_);
      copy->setSize(size);
      copy->reset();
      const StepMeasurement m = measureSteps(*copy, 5, 2, 1);
      point.msPerStep = m.msPerStep;
      point.work = m.stats.ratePerSecond * m.stats.medianMs * 1e-3 / 2;
    } catch (const OutOfMemoryError&) {
      stopped_.push_back(backend);  // larger sizes will not fit either
      continue;
    }
    points_.push_back(point);
    if (point.msPerStep > slowStepMs_) stopped_.push_back(backend);
    return true;
  }
  return false;
}

}  // namespace ws::app
