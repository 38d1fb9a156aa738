#include "compute/core/gpu_timer.h"

#include "compute/core/cuda_check.h"

namespace ws {

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
