#include <algorithm>

#include "compute/core/errors.h"
#include "compute/core/launch.h"
#include "compute/voxhash/cuckoo_cuda.h"

namespace ws::voxhash {

// What the build kernel reports back to the host.
struct DeviceBuildStatus {
  unsigned failed, duplicate, invalid, longest;
  unsigned long long histogram[kChainBins];
};

namespace {

__global__ void fillKernel(Entry* table, std::uint32_t slots) {
  const std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s < slots) table[s] = kEmptyEntry;
}

// One thread per key. Chain lengths go to a histogram in shared memory first, then one atomic
// per bin and block to the global one.
__global__ void insertKernel(const std::uint32_t* keys, const std::uint32_t* values, std::size_t n,
                             Entry* table, HashFunctions f, int limit, DeviceBuildStatus* status) {
  __shared__ unsigned bins[kChainBins];
  __shared__ unsigned longest;
  for (int b = threadIdx.x; b < kChainBins; b += blockDim.x) bins[b] = 0;
  if (threadIdx.x == 0) longest = 0;
  __syncthreads();
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n) {
    const std::uint32_t key = keys[k], value = values[k];
    if (key == kEmptyKey || value == kNotFound) {
      status->invalid = 1;
    } else {
      auto exchange = [table](std::uint32_t at, Entry entry) {
        return Entry(atomicExch(reinterpret_cast<unsigned long long*>(table + at),
                                static_cast<unsigned long long>(entry)));
      };
      const int moves = insertEntry(makeEntry(key, value), f, limit, exchange);
      if (moves == kChainFailed) status->failed = 1;
      if (moves == kDuplicateKey) status->duplicate = 1;
      if (moves > 0) {
        atomicAdd(&bins[chainBin(moves)], 1u);
        atomicMax(&longest, unsigned(moves));
      }
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kChainBins; b += blockDim.x)
    if (bins[b]) atomicAdd(&status->histogram[b], (unsigned long long)bins[b]);
  if (threadIdx.x == 0 && longest) atomicMax(&status->longest, longest);
}

__global__ void heldTwiceKernel(const Entry* table, HashFunctions f, DeviceBuildStatus* status) {
  const std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s < f.slots && heldTwice(table, f, std::uint32_t(s))) status->duplicate = 1;
}

// One thread per query; the probes are summed per warp, then one atomic per warp.
__global__ void queryKernel(const std::uint32_t* keys, std::size_t n, const Entry* table,
                            HashFunctions f, std::uint32_t* values, unsigned long long* probes) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int mine = 0;
  if (k < n) values[k] = lookup(table, f, keys[k], mine);
  for (int offset = 16; offset > 0; offset /= 2)
    mine += __shfl_down_sync(0xffffffffu, mine, offset);
  if ((threadIdx.x & 31) == 0 && mine) atomicAdd(probes, (unsigned long long)mine);
}

}  // namespace

CudaCuckooTable::CudaCuckooTable(int block) : status_(1), probes_(1) {
  setBlock(block);
  probes_.zero();
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
  requireDeviceMemory(double(report.slots) * sizeof(Entry), double(slots_.bytes()),
                      "a cuckoo table of " + std::to_string(report.slots) + " slots");
  if (slots_.size() != report.slots) slots_.allocate(report.slots);
  functions_ = {};
  for (int attempt = 0; attempt < params.maxAttempts; ++attempt) {
    report.attempts = attempt + 1;
    const HashFunctions f = drawFunctions(params, report.slots, seed, attempt);
    status_.zero();
    fillKernel<<<blocksFor(report.slots, 256), 256>>>(slots_.data(), report.slots);
    if (n) {
      insertKernel<<<blocksFor(n, block_), block_>>>(keys, values, n, slots_.data(), f,
                                                     report.chainLimit, status_.data());
    }
    if (!keysKnownUnique)
      heldTwiceKernel<<<blocksFor(report.slots, 256), 256>>>(slots_.data(), f, status_.data());
    WS_CUDA_CHECK(cudaGetLastError());
    DeviceBuildStatus status;
    WS_CUDA_CHECK(cudaMemcpy(&status, status_.data(), sizeof status, cudaMemcpyDeviceToHost));
    if (status.invalid)
      throw InputError("a key or value is 0xffffffff, which marks empty slots and misses");
    if (status.duplicate)
      throw InputError(
          "the keys are not unique: a key appears more than once; deduplicate them "
          "before building the table");
    if (status.failed) continue;
    report.chainHistogram.assign(status.histogram, status.histogram + kChainBins);
    report.longestChain = status.longest;
    functions_ = f;
    return report;
  }
  throw InputError(buildFailureMessage(params, n));
}

void CudaCuckooTable::query(const std::uint32_t* keys, std::size_t n, std::uint32_t* values) {
  if (n == 0) return;
  if (functions_.slots != slots_.size() || !slots_)
    throw InputError("the cuckoo table has not been built");
  queryKernel<<<blocksFor(n, block_), block_>>>(keys, n, slots_.data(), functions_, values,
                                                probes_.data());
  WS_CUDA_CHECK(cudaGetLastError());
}

std::uint64_t CudaCuckooTable::takeProbes() {
  unsigned long long probes = 0;
  WS_CUDA_CHECK(cudaMemcpy(&probes, probes_.data(), sizeof probes, cudaMemcpyDeviceToHost));
  probes_.zero();
  return probes;
}

std::vector<Entry> CudaCuckooTable::slotsOnHost() const {
  std::vector<Entry> host(slots_.size());
  WS_CUDA_CHECK(cudaMemcpy(host.data(), slots_.data(), slots_.bytes(), cudaMemcpyDeviceToHost));
  return host;
}

}  // namespace ws::voxhash
