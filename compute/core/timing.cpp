#include "compute/core/timing.h"

#include <algorithm>

namespace ws {

TimingScope::TimingScope(std::string name, std::string rateUnit, bool onGpu, int warmupSamples)
    : name_(std::move(name)),
      rateUnit_(std::move(rateUnit)),
      onGpu_(onGpu),
      warmupSamples_(warmupSamples),
      toSkip_(warmupSamples) {}

void TimingScope::record(double ms, double work, double bytes) {
  if (toSkip_ > 0) {
    --toSkip_;
    return;
  }
  samples_.push_back({ms, work, bytes});
  if (samples_.size() > kWindow) samples_.pop_front();
}

void TimingScope::clear() {
  samples_.clear();
  toSkip_ = warmupSamples_;
}

TimingStats TimingScope::stats() const {
  TimingStats s;
  s.samples = static_cast<int>(samples_.size());
  if (samples_.empty()) return s;
  std::vector<Sample> sorted(samples_.begin(), samples_.end());
  std::sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.ms < b.ms; });
  double total = 0;
  for (const auto& sample : sorted) total += sample.ms;
  s.meanMs = total / sorted.size();
  s.minMs = sorted.front().ms;
  s.maxMs = sorted.back().ms;
  const Sample& median = sorted[sorted.size() / 2];
  s.medianMs = median.ms;
  s.medianBytes = median.bytes;
  if (median.ms > 0) {
    s.ratePerSecond = median.work / (median.ms * 1e-3);
    s.bytesPerSecond = median.bytes / (median.ms * 1e-3);
  }
  return s;
}

std::vector<float> TimingScope::historyMs() const {
  std::vector<float> out;
  out.reserve(samples_.size());
  for (const auto& sample : samples_) out.push_back(static_cast<float>(sample.ms));
  return out;
}

}  // namespace ws
