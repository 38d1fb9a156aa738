#pragma once
// Random soups defined by a hash of (seed, x, y), so the CPU and every CUDA variant fill the
// same cells without moving a grid between them.
#include <cstdint>

#include "compute/core/hd.h"

namespace ws::life {

WS_HD std::uint64_t mix64(std::uint64_t z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// density in [0, 1] as a threshold on 53-bit hash values.
inline std::uint64_t soupThreshold(double density) {
  return static_cast<std::uint64_t>(density * 9007199254740992.0);  // 2^53
}

WS_HD bool soupCell(std::uint64_t seed, std::uint64_t threshold, int x, int y) {
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(y)) << 32) |
                            static_cast<std::uint32_t>(x);
  return (mix64(mix64(seed) ^ key) >> 11) < threshold;
}

}  // namespace ws::life
