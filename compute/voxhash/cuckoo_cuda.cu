#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <bit>
#include <numeric>

#include "compute/core/errors.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/voxhash/cuckoo_cuda.h"

namespace ws::voxhash {

// What the build kernel reports back to the host.
struct DeviceBuildStatus {
  unsigned failed, duplicate, invalid;
};

namespace {

// The table's slots as insertEntry uses them. Loads go to the L2 (__ldcg), where the atomics are
// done: a copy of a slot in this SM's L1 could be stale, and show a key that has since moved on.
struct DeviceSlots {
  Entry* table;
  std::uint8_t* filter;  // null: no miss filter; else filterBytes, 4-byte aligned
  __device__ Entry exchange(std::uint32_t s, Entry e) const {
    return atomicExch(reinterpret_cast<unsigned long long*>(table + s),
                      static_cast<unsigned long long>(e));
  }
  __device__ Entry load(std::uint32_t s) const {
    return __ldcg(reinterpret_cast<const unsigned long long*>(table + s));
  }
  // Slots s and s + 1 in one 16-byte load (s even: the table is 16-byte aligned).
  __device__ void loadTwo(std::uint32_t s, Entry& a, Entry& b) const {
    const ulonglong2 two = __ldcg(reinterpret_cast<const ulonglong2*>(table + s));
    a = two.x, b = two.y;
  }
  __device__ bool claim(std::uint32_t s, Entry e) const {
    return atomicCAS(reinterpret_cast<unsigned long long*>(table + s), kEmptyEntry,
                     static_cast<unsigned long long>(e)) == kEmptyEntry;
  }
  // The byte's bits ORed into its 32-bit word: no atomics on bytes. The result is not used, so
  // this is a reduction the L2 does without a round trip.
  __device__ void mark(std::uint32_t bucket, std::uint8_t bits) const {
    if (!filter) return;
    const unsigned inWord = unsigned(bits) << 8 * (bucket % 4);
    atomicOr(reinterpret_cast<unsigned*>(filter) + bucket / 4, inWord);
  }
};

// One thread per key. Its chain length (0 when it failed) goes to moves[k], one coalesced 2-byte
// store: the histogram is made later, and only when someone asks (chainStatistics). One kernel
// per insertion, so that the chapter's carries no code of the other.
template <Insertion insertion>
__global__ void insertKernel(const std::uint32_t* keys, const std::uint32_t* values, std::size_t n,
                             DeviceSlots slots, HashFunctions f, int limit, std::uint16_t* moves,
                             DeviceBuildStatus* status) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t key = keys[k], value = values[k];
  int made = 0;
  if (key == kEmptyKey || value == kNotFound) {
    status->invalid = 1;
  } else {
    made = insertEntry(makeEntry(key, value), f, insertion, limit, slots);
    if (made == kChainFailed) status->failed = 1;
    if (made == kDuplicateKey) status->duplicate = 1;
  }
  moves[k] = std::uint16_t(made > 0 ? made : 0);
}

__global__ void heldTwiceKernel(const Entry* table, HashFunctions f, DeviceBuildStatus* status) {
  const std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s < f.slots && heldTwice(table, f, std::uint32_t(s))) status->duplicate = 1;
}

// lookup() in a table of kBucket-slot buckets (2 to 16), each bucket read with 16-byte loads,
// all in flight together (a bucket of k slots starts at a multiple of 8 k bytes).
template <int kBucket>
__device__ std::uint32_t lookupBuckets(const Entry* table, const HashFunctions& f,
                                       const std::uint8_t* filter, std::uint32_t key, int& probes) {
  for (int i = 0; i < f.count; ++i) {
    const std::uint32_t first = f.slot(i, key);
    const auto* bucket = reinterpret_cast<const ulonglong2*>(table + first);
    ulonglong2 pairs[kBucket / 2];
    WS_UNROLL
    for (int j = 0; j < kBucket / 2; ++j) pairs[j] = bucket[j];
    BucketSeen seen;
    WS_UNROLL
    for (int j = 0; j < kBucket / 2; ++j) seen.see(pairs[j].x, key), seen.see(pairs[j].y, key);
    ++probes;
    if (seen.found) return seen.value;
    if (seen.roomy || i + 1 == f.count || !mayOverflow(filter, f, first, key)) break;
  }
  return kNotFound;
}

// One thread per query; the probes are summed per warp, then one atomic per warp.
template <int kBucket>
__global__ void queryKernel(const std::uint32_t* keys, std::size_t n, const Entry* table,
                            const std::uint8_t* filter, HashFunctions f, std::uint32_t* values,
                            unsigned long long* probes) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int mine = 0;
  if (k < n) {
    if constexpr (kBucket == 1)
      values[k] = lookup(table, f, filter, keys[k], mine);
    else
      values[k] = lookupBuckets<kBucket>(table, f, filter, keys[k], mine);
  }
  for (int offset = 16; offset > 0; offset /= 2)
    mine += __shfl_down_sync(0xffffffffu, mine, offset);
  if (probes && (threadIdx.x & 31) == 0 && mine) atomicAdd(probes, (unsigned long long)mine);
}

}  // namespace

CudaCuckooTable::CudaCuckooTable(int block) : levels_(kChainBins + 1) {
  setBlock(block);
  // Bins of chain lengths 1, 2, ..., kChainBins - 1, then kChainBins and longer.
  int levels[kChainBins + 1];
  std::iota(levels, levels + kChainBins, 1);
  levels[kChainBins] = 1 << 16;
  WS_CUDA_CHECK(cudaMemcpy(levels_.data(), levels, sizeof levels, cudaMemcpyHostToDevice));
}
CudaCuckooTable::~CudaCuckooTable() = default;

void CudaCuckooTable::setBlock(int block) {
  if (block < 32 || block > 1024 || block % 32)
    throw InputError("block size: " + std::to_string(block) +
                     " is not a multiple of 32 from 32 to 1024");
  block_ = block;
}

BuildReport CudaCuckooTable::build(const std::uint32_t* keys, const std::uint32_t* values,
                                   std::size_t n, const CuckooParams& params, std::uint64_t seed,
                                   bool keysKnownUnique) {
  BuildReport report;
  report.keys = n;
  report.slots = tableSlots(params, n);
  report.chainLimit = chainLimit(params, n);
  // Memory is allocated (and checked, a driver query that stalls the stream) only when it must
  // grow, then with an eighth to spare: the voxel pipeline's tables change size a little every
  // frame.
  if (slots_.size() < report.slots || moves_.size() < n) {
    const std::size_t slots = slots_ ? report.slots + report.slots / 8 : report.slots,
                      keys = moves_ ? n + n / 8 : n;
    requireDeviceMemory(double(slots) * sizeof(Entry) + double(keys) * sizeof(std::uint16_t),
                        double(slots_.bytes() + moves_.bytes()),
                        "a cuckoo table of " + std::to_string(report.slots) + " slots");
    slots_.allocate(slots);
    moves_.allocate(keys);
  }
  const std::size_t filterSize =
      params.missFilter ? filterBytes(report.slots, std::countr_zero(unsigned(params.bucket))) : 0;
  if (filter_.size() < filterSize) {
    requireDeviceMemory(double(filterSize), double(filter_.bytes()),
                        "a miss filter of " + std::to_string(filterSize) + " bytes");
    filter_.allocate(filterSize + filterSize / 8);
  }
  filtered_ = params.missFilter;
  keys_ = n;
  functions_ = {};
  built_ = false;
  for (int attempt = 0; attempt < params.maxAttempts; ++attempt) {
    report.attempts = attempt + 1;
    const HashFunctions f = drawFunctions(params, report.slots, seed, attempt);
    status_.host() = {};  // no kernel is running: the last attempt was waited for
    static_assert(kEmptyEntry == ~Entry(0), "the fill writes all-ones bytes");
    WS_CUDA_CHECK(cudaMemsetAsync(slots_.data(), 0xff, report.slots * sizeof(Entry)));
    if (filterSize) WS_CUDA_CHECK(cudaMemsetAsync(filter_.data(), 0, filterSize));
    if (n) {
      auto* insert = insertionOf(params) == Insertion::Look ? insertKernel<Insertion::Look>
                                                            : insertKernel<Insertion::Exchange>;
      recordedLaunch("insert", insert, blocksFor(n, block_), block_)(
          keys, values, n, DeviceSlots{slots_.data(), filter()}, f, report.chainLimit,
          moves_.data(), status_.device());
    }
    if (!keysKnownUnique)
      recordedLaunch("heldTwiceKernel", heldTwiceKernel, blocksFor(report.slots, 256), 256)(
          slots_.data(), f, status_.device());
    WS_CUDA_CHECK(cudaGetLastError());
    WS_CUDA_CHECK(cudaStreamSynchronize(0));
    const DeviceBuildStatus status = status_.host();
    if (status.invalid)
      throw InputError("a key or value is 0xffffffff, which marks empty slots and misses");
    if (status.duplicate)
      throw InputError(
          "the keys are not unique: a key appears more than once; deduplicate them "
          "before building the table");
    if (status.failed) continue;
    functions_ = f;
    built_ = true;
    return report;
  }
  throw InputError(buildFailureMessage(params, n));
}

void CudaCuckooTable::query(const std::uint32_t* keys, std::size_t n, std::uint32_t* values,
                            unsigned long long* probes) {
  if (n == 0) return;
  if (!built_) throw InputError("the cuckoo table has not been built");
  // One kernel a bucket size, 2^bucketShift slots.
  static const decltype(&queryKernel<1>) kernels[] = {
      queryKernel<1>, queryKernel<2>, queryKernel<4>, queryKernel<8>, queryKernel<16>};
  const auto kernel = kernels[functions_.bucketShift];
  recordedLaunch("queryKernel", kernel, blocksFor(n, block_), block_)(
      keys, n, slots_.data(), filter(), functions_, values, probes);
  WS_CUDA_CHECK(cudaGetLastError());
}

void CudaCuckooTable::chainStatistics(BuildReport& report) {
  if (!keys_ || !built_) return;
  DeviceBuffer<unsigned> counts(kChainBins), longest(1);
  std::size_t histogramBytes = 0, maxBytes = 0;
  const int n = int(keys_);
  WS_CUDA_CHECK(cub::DeviceHistogram::HistogramRange(
      nullptr, histogramBytes, moves_.data(), counts.data(), kChainBins + 1, levels_.data(), n));
  WS_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, maxBytes, moves_.data(), longest.data(), n));
  if (scratch_.size() < std::max(histogramBytes, maxBytes))
    scratch_.allocate(std::max(histogramBytes, maxBytes));
  WS_CUDA_CHECK(cub::DeviceHistogram::HistogramRange(scratch_.data(), histogramBytes, moves_.data(),
                                                     counts.data(), kChainBins + 1, levels_.data(),
                                                     n));
  WS_CUDA_CHECK(
      cub::DeviceReduce::Max(scratch_.data(), maxBytes, moves_.data(), longest.data(), n));
  unsigned host[kChainBins], most = 0;
  WS_CUDA_CHECK(cudaMemcpy(host, counts.data(), sizeof host, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaMemcpy(&most, longest.data(), sizeof most, cudaMemcpyDeviceToHost));
  report.chainHistogram.assign(host, host + kChainBins);
  report.longestChain = most;
}

std::vector<Entry> CudaCuckooTable::slotsOnHost() const {
  return built_ ? toHost(slots_.data(), functions_.slots) : std::vector<Entry>();
}

std::vector<std::uint8_t> CudaCuckooTable::filterOnHost() const {
  return built_ && filtered_
             ? toHost(filter_.data(), filterBytes(functions_.slots, functions_.bucketShift))
             : std::vector<std::uint8_t>();
}

}  // namespace ws::voxhash
