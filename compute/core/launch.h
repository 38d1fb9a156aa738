#pragma once
// Launch arithmetic shared by the CUDA engines.
#include <cstddef>

namespace ws {

// The number of blocks of `block` threads that covers `items` (the last one partly).
inline unsigned blocksFor(std::size_t items, unsigned block) {
  return static_cast<unsigned>((items + block - 1) / block);
}

}  // namespace ws
