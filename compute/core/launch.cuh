#pragma once
// kernel<<<grid, block>>>(args...) written as recordedLaunch("kernel", kernel, grid,
// block)(args...): the same launch, also noted in the running step's launch log (launchLog(),
// launch.h) for the readouts when a module records its step.
#include <utility>

#include "compute/core/launch.h"

namespace ws {

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
