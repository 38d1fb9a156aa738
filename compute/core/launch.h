#pragma once
// Launch arithmetic shared by the CUDA engines, and the record of a launch that the launch
// readouts (registers, shared memory, occupancy) describe (launch.cuh records them).
#include <cstddef>
#include <string>
#include <vector>

namespace ws {

// The number of blocks of `block` threads that covers `items` (the last one partly).
inline unsigned blocksFor(std::size_t items, unsigned block) {
  return static_cast<unsigned>((items + block - 1) / block);
}

// One kernel as the current variant launches it: the kernel itself (its host-side handle, for
// cudaFuncGetAttributes), its grid and block, and the dynamic shared memory it asks for.
struct KernelLaunch {
  std::string name;
  const void* function = nullptr;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  std::size_t dynamicShared = 0;
};

// The log a module's step records its launches into (RecordLaunches), or null outside a step; the
// CUDA code the step calls writes to it through recordedLaunch (launch.cuh) without being handed
// it, as a profiler range would.
std::vector<KernelLaunch>*& launchLog();

// For the lifetime of this object, launches are recorded into `log` (emptied first).
class RecordLaunches {
 public:
  explicit RecordLaunches(std::vector<KernelLaunch>& log) : previous_(launchLog()) {
    log.clear();
    launchLog() = &log;
  }
  ~RecordLaunches() { launchLog() = previous_; }
  RecordLaunches(const RecordLaunches&) = delete;
  RecordLaunches& operator=(const RecordLaunches&) = delete;

 private:
  std::vector<KernelLaunch>* previous_;
};

}  // namespace ws
