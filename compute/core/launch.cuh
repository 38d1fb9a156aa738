#pragma once
// kernel<<<grid, block>>>(args...) written as recordedLaunch("kernel", kernel, grid,
// block)(args...): the same launch, also noted in the running step's launch log (launchLog(),
// launch.h) for the readouts when a module records its step. dependentLaunch: the same, able to
// overlap the stream's previous kernel.
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

// Programmatic dependent launch (compute capability 9.0 and later): a kernel launched with
// `overlap` may have its blocks start while the stream's previous kernel finishes its last ones,
// so that the launch and the first loads hide behind that kernel's tail. Such a kernel touches
// nothing the previous one writes, and writes nothing it reads, before waitForPreviousGrid(). If
// it reads anything before waiting, the kernel before must call letNextGridStart() only after its
// own wait, so that the overlap spans one kernel, never two. Elsewhere `overlap` is ignored and
// the launch is recordedLaunch's.
inline bool overlappingLaunches() {
  static const bool supported = [] {
    int device = 0, major = 0;
    return cudaGetDevice(&device) == cudaSuccess &&
           cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) ==
               cudaSuccess &&
           major >= 9;
  }();
  return supported;
}

template <typename... Params>
auto dependentLaunch(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
                     bool overlap, std::size_t shared = 0) {
  return [=](auto&&... args) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    config.attrs = &attribute;
    config.numAttrs = overlap && overlappingLaunches() ? 1 : 0;
    // An error here is the launch's, seen by the caller's cudaGetLastError() as with <<<...>>>.
    (void)cudaLaunchKernelEx(&config, kernel, std::forward<decltype(args)>(args)...);
    if (std::vector<KernelLaunch>* log = launchLog())
      noteLaunch(*log, name, reinterpret_cast<const void*>(kernel), grid, block, shared);
  };
}

// In a kernel that dependentLaunch may overlap: wait until the stream's previous kernel has
// finished and its writes are visible (at once where it was not overlapped), then let the next
// kernel's blocks start. No-ops before compute capability 9.0.
__device__ inline void waitForPreviousGrid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ inline void letNextGridStart() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}

// Block b's index along an axis of `count` blocks, taken from the grid's end when `backwards` (the
// block started first takes the last place): a pass that begins where the one before ended finds
// what that pass read and wrote last still in the L2 cache (Poisson's and Cahn-Hilliard's passes
// back and forth).
__device__ __forceinline__ int blockFrom(unsigned b, unsigned count, bool backwards) {
  return int(backwards ? count - 1 - b : b);
}

}  // namespace ws
