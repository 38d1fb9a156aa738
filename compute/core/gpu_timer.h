#pragma once
// GPU samples for a TimingScope: CUDA events around launches, read a frame late with
// cudaEventQuery so the frame never waits for them. For the CUDA half of the code.
#include <cuda_runtime_api.h>

#include <vector>

#include "compute/core/timing.h"

namespace ws {

// CUDA events around launches, in a ring; never blocks unless asked to drain.
class GpuTimerRing {
 public:
  explicit GpuTimerRing(int slots = 16);
  ~GpuTimerRing();
  GpuTimerRing(const GpuTimerRing&) = delete;
  GpuTimerRing& operator=(const GpuTimerRing&) = delete;

  // start/stop bracket the launches of one sample. When every slot is still in flight the sample
  // is not timed (start returns false) rather than stalling the frame.
  bool start(cudaStream_t stream = nullptr);
  void stop(double work, double bytes, cudaStream_t stream = nullptr);
  void collect(TimingScope& scope);  // finished samples only
  void drain(TimingScope& scope);    // waits for all (benchmark)

 private:
  struct Slot {
    cudaEvent_t begin = nullptr, end = nullptr;
    double work = 0, bytes = 0;
  };
  std::vector<Slot> slots_;
  std::size_t head_ = 0, count_ = 0;  // in-flight slots: [head_, head_+count_)
  bool open_ = false;
};

}  // namespace ws
