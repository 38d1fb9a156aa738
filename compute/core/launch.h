#pragma once
// Launch arithmetic shared by the CUDA engines, and the record of a launch that the launch
// readouts (registers, shared memory, occupancy) describe.
#include <vector_types.h>

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

// The record of `function` launched as <<<grid, block, shared>>>, added to `launches` unless the
// same kernel with the same shape is there already (a step of many generations launches it again
// and again; the readouts describe each launch shape once).
inline void noteLaunch(std::vector<KernelLaunch>& launches, const char* name, const void* function,
                       dim3 grid, dim3 block, std::size_t shared = 0) {
  KernelLaunch launch{
      name, function, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared};
  for (const KernelLaunch& l : launches)
    if (l.function == function && l.grid[0] == grid.x && l.grid[1] == grid.y &&
        l.grid[2] == grid.z && l.block[0] == block.x && l.block[1] == block.y &&
        l.dynamicShared == shared)
      return;
  launches.push_back(launch);
}

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
