#pragma once
// The cuckoo table on the CPU: the same insertion as the CUDA kernel, one OpenMP thread per key
// with atomic exchanges on the slots, and the same lookups. The reference the CUDA table is
// compared with, and the CPU backend's table.
#include <cstdint>
#include <vector>

#include "compute/voxhash/cuckoo.h"

namespace ws::voxhash {

class CpuCuckooTable {
 public:
  // Builds the table for `keys` with their `values`, drawing hash constants from `seed` (and the
  // attempt number on a restart). Throws InputError for a key or value of 0xffffffff, a key given
  // twice, parameters out of range, or when every attempt fails; the table is then empty.
  BuildReport build(const std::vector<std::uint32_t>& keys,
                    const std::vector<std::uint32_t>& values, const CuckooParams& params,
                    std::uint64_t seed);
  // values[i] becomes the value of keys[i], or kNotFound. Returns the slots read.
  std::uint64_t query(const std::vector<std::uint32_t>& keys,
                      std::vector<std::uint32_t>& values) const;

  const std::vector<Entry>& slots() const { return slots_; }
  // The miss filter's bytes (filterBytes), or none when the table was built without it.
  const std::vector<std::uint8_t>& filter() const { return filter_; }
  const HashFunctions& functions() const { return functions_; }

 private:
  std::vector<Entry> slots_;
  std::vector<std::uint8_t> filter_;
  HashFunctions functions_;
};

// Throws InputError when a key or value is 0xffffffff or the sizes differ.
void checkInput(const std::vector<std::uint32_t>& keys, const std::vector<std::uint32_t>& values);

}  // namespace ws::voxhash
