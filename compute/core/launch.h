#pragma once
// Launch arithmetic shared by the CUDA engines, and the record of a launch that the launch
// readouts (registers, shared memory, occupancy) describe.
#include <cstddef>
#include <string>

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

}  // namespace ws
