#pragma once
// kernel<<<grid, block>>>(args...) written as recordedLaunch("kernel", kernel, grid,
// block)(args...): the same launch, also noted in the running step's launch log (launchLog(),
// launch.h) for the readouts when a module records its step.
#include <utility>

#include "compute/core/launch.h"

namespace ws {

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

template <typename... Params>
auto recordedLaunch(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
                    std::size_t shared = 0) {
  return [=](auto&&... args) {
    kernel<<<grid, block, shared>>>(std::forward<decltype(args)>(args)...);
    if (std::vector<KernelLaunch>* log = launchLog())
      noteLaunch(*log, name, reinterpret_cast<const void*>(kernel), grid, block, shared);
  };
}

}  // namespace ws
