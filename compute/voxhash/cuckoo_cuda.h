#pragma once
// The cuckoo table on the GPU (the source's chapter 4): one thread per key inserts with 64-bit
// atomic exchanges (Listing 4.1; or looks first, see Insertion), one thread per query probes the
// candidate slots (Listing 4.2). Keys, values and the table stay in device memory; a build reads
// only its status, which the kernels write into mapped host memory, to decide whether to restart.
#include <cstdint>
#include <vector>

#include "compute/core/device_buffer.h"
#include "compute/voxhash/cuckoo.h"

namespace ws::voxhash {

struct DeviceBuildStatus;

class CudaCuckooTable {
 public:
  // `block`: threads per block of the build and query kernels (the chapter uses 64, so that a
  // long eviction chain keeps few idle threads of its block alive).
  explicit CudaCuckooTable(int block = 64);
  ~CudaCuckooTable();

  // Builds the table for n device keys with their device values, as CpuCuckooTable::build does
  // (same errors), but the report's chain histogram and longest chain are left for
  // chainStatistics. With keysKnownUnique (keys deduplicated before, or drawn unique) the pass
  // that looks for a key held twice is skipped.
  BuildReport build(const std::uint32_t* keys, const std::uint32_t* values, std::size_t n,
                    const CuckooParams& params, std::uint64_t seed, bool keysKnownUnique = false);
  // values[i] (device) becomes the value of keys[i] (device), or kNotFound. The slots read are
  // added to the device counter `probes` unless it is null.
  void query(const std::uint32_t* keys, std::size_t n, std::uint32_t* values,
             unsigned long long* probes = nullptr);

  // The last successful build's chain histogram and longest chain, into its report (CUB
  // histogram and maximum over the keys' chain lengths, which the build keeps on the device).
  void chainStatistics(BuildReport& report);

  // The built table's slots (functions().slots of them; none before a build succeeds).
  std::vector<Entry> slotsOnHost() const;
  const Entry* slots() const { return built_ ? slots_.data() : nullptr; }
  // The miss filter's bytes (filterBytes), none when the table was built without it.
  std::vector<std::uint8_t> filterOnHost() const;
  const HashFunctions& functions() const { return functions_; }
  void setBlock(int block);
  int block() const { return block_; }

 private:
  int block_;
  // The device filter, or null when the table is built without one.
  std::uint8_t* filter() { return filtered_ ? filter_.data() : nullptr; }

  DeviceBuffer<Entry> slots_;          // at least functions_.slots, grown with room to spare
  DeviceBuffer<std::uint8_t> filter_;  // the miss filter's bytes, when filtered_
  bool filtered_ = false;
  HashFunctions functions_;
  bool built_ = false;
  MappedHostValue<DeviceBuildStatus> status_;  // written by the kernels, read after a sync
  DeviceBuffer<std::uint16_t> moves_;          // per key: its chain length, 0 when it failed
  std::size_t keys_ = 0;
  DeviceBuffer<int> levels_;
  DeviceBuffer<unsigned char> scratch_;
};

}  // namespace ws::voxhash
