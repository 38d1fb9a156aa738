#include "compute/core/timing.h"

#include <algorithm>

#include "compute/core/cuda_check.h"

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

GpuTimerRing::GpuTimerRing(int slots) : slots_(slots) {
  for (auto& slot : slots_) {
    WS_CUDA_CHECK(cudaEventCreate(&slot.begin));
    WS_CUDA_CHECK(cudaEventCreate(&slot.end));
  }
}

GpuTimerRing::~GpuTimerRing() {
  for (auto& slot : slots_) {
    cudaEventDestroy(slot.begin);
    cudaEventDestroy(slot.end);
  }
}

bool GpuTimerRing::start(cudaStream_t stream) {
  if (count_ == slots_.size()) return open_ = false;
  Slot& slot = slots_[(head_ + count_) % slots_.size()];
  WS_CUDA_CHECK(cudaEventRecord(slot.begin, stream));
  return open_ = true;
}

void GpuTimerRing::stop(double work, double bytes, cudaStream_t stream) {
  if (!open_) return;
  Slot& slot = slots_[(head_ + count_) % slots_.size()];
  WS_CUDA_CHECK(cudaEventRecord(slot.end, stream));
  slot.work = work;
  slot.bytes = bytes;
  ++count_;
  open_ = false;
}

void GpuTimerRing::collect(TimingScope& scope) {
  while (count_ > 0) {
    Slot& slot = slots_[head_];
    const cudaError_t status = cudaEventQuery(slot.end);
    if (status == cudaErrorNotReady) return;
    WS_CUDA_CHECK(status);
    float ms = 0;
    WS_CUDA_CHECK(cudaEventElapsedTime(&ms, slot.begin, slot.end));
    scope.record(ms, slot.work, slot.bytes);
    head_ = (head_ + 1) % slots_.size();
    --count_;
  }
}

void GpuTimerRing::drain(TimingScope& scope) {
  if (count_ > 0) {
    const Slot& last = slots_[(head_ + count_ - 1) % slots_.size()];
    WS_CUDA_CHECK(cudaEventSynchronize(last.end));
  }
  collect(scope);
}

}  // namespace ws
