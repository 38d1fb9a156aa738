#pragma once
// Kernel and CPU timings for the overlay and the benchmark. A TimingScope keeps the recent samples
// of one piece of work (a kernel, a CPU step) with the work and bytes each sample did, so it can
// report ms, the module's own rate and GB/s. GPU samples come from CUDA events in a small ring per
// scope (compute/core/gpu_timer.h), read a frame late so the frame never waits for them.
#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace ws {

struct TimingStats {
  int samples = 0;
  double meanMs = 0, minMs = 0, maxMs = 0, medianMs = 0;
  double ratePerSecond = 0;   // work units per second, over the median sample
  double bytesPerSecond = 0;  // model bytes per second, over the median sample
  double medianBytes = 0;     // the median sample's model bytes (the data a step moves)
};

class TimingScope {
 public:
  TimingScope(std::string name, std::string rateUnit, bool onGpu, int warmupSamples = 2);

  const std::string& name() const { return name_; }
  const std::string& rateUnit() const { return rateUnit_; }
  bool onGpu() const { return onGpu_; }

  // One finished piece of work: its time, the work units it did and the bytes its model moves.
  void record(double ms, double work, double bytes);
  TimingStats stats() const;
  std::vector<float> historyMs() const;  // oldest first, for the scrolling plot
  void clear();  // after a reset or a variant switch: warm-up samples are skipped again

  static constexpr std::size_t kWindow = 240;

 private:
  struct Sample {
    double ms, work, bytes;
  };
  std::string name_, rateUnit_;
  bool onGpu_;
  int warmupSamples_;
  int toSkip_;
  std::deque<Sample> samples_;
};

// Wall-clock time of a CPU section.
class CpuStopwatch {
 public:
  CpuStopwatch() : start_(std::chrono::steady_clock::now()) {}
  double elapsedMs() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace ws
