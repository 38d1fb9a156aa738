#include "app/analysis.h"

#include <algorithm>
#include <cmath>

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

std::vector<RooflinePoint> measureRoofline(const Module& module, int samples, int stepsPerSample) {
  std::vector<RooflinePoint> points;
  const std::string name(module.name());
  for (const KernelVariant& variant : module.variants(module.backend())) {
    try {
      std::unique_ptr<Module> copy = copyOf(name, module.preset(), module.backend(), variant.name);
      copy->reset();
      measureSteps(*copy, samples, stepsPerSample, 2);
      if (auto point = rooflinePoint(*copy)) {
        point->live = false;
        points.push_back(*point);
      }
    } catch (const OutOfMemoryError&) {
      // Does not fit beside the running module: left out.
    }
  }
  return points;
}

double SweepLine::msAt(double work) const {
  return std::pow(10.0, intercept + slope * std::log10(work));
}

std::optional<SweepLine> fitSweep(const std::vector<SweepPoint>& points, Backend backend) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const SweepPoint& p : points) {
    if (p.backend != backend || p.work <= 0 || p.msPerStep <= 0) continue;
    const double x = std::log10(p.work), y = std::log10(p.msPerStep);
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double denominator = n * sxx - sx * sx;
  if (n < 2 || denominator <= 0) return std::nullopt;
  SweepLine line;
  line.slope = (n * sxy - sx * sy) / denominator;
  line.intercept = (sy - line.slope * sx) / n;
  return line;
}

std::optional<double> sweepCrossover(const std::vector<SweepPoint>& points) {
  const auto cpu = fitSweep(points, Backend::Cpu), gpu = fitSweep(points, Backend::Cuda);
  if (!cpu || !gpu || cpu->slope == gpu->slope) return std::nullopt;
  // intercept_c + slope_c x = intercept_g + slope_g x
  const double x = (gpu->intercept - cpu->intercept) / (cpu->slope - gpu->slope);
  double lo = 1e300, hi = 0;
  for (const SweepPoint& p : points) lo = std::min(lo, p.work), hi = std::max(hi, p.work);
  const double work = std::pow(10.0, x);
  if (work < lo || work > hi) return std::nullopt;
  return work;
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
