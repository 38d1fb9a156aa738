#include "compute/voxhash/cuckoo_cpu.h"

#include <atomic>

#include "compute/core/memory.h"

#include "compute/core/errors.h"

namespace ws::voxhash {

void checkInput(const std::vector<std::uint32_t>& keys, const std::vector<std::uint32_t>& values) {
  if (keys.size() != values.size())
    throw InputError(std::to_string(keys.size()) + " keys but " + std::to_string(values.size()) +
                     " values");
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == kEmptyKey || values[i] == kNotFound)
      throw InputError("key " + std::to_string(i) + " or its value is 0xffffffff, which marks " +
                       "empty slots and misses");
}

namespace {

// The table's slots as insertEntry uses them, shared by the OpenMP threads.
struct AtomicSlots {
  Entry* table;
  std::uint8_t* filter;  // null: no miss filter
  Entry exchange(std::uint32_t s, Entry e) const {
    return std::atomic_ref<Entry>(table[s]).exchange(e, std::memory_order_relaxed);
  }
  Entry load(std::uint32_t s) const {
    return std::atomic_ref<Entry>(table[s]).load(std::memory_order_relaxed);
  }
  void loadTwo(std::uint32_t s, Entry& a, Entry& b) const { a = load(s), b = load(s + 1); }
  bool claim(std::uint32_t s, Entry e) const {
    Entry empty = kEmptyEntry;
    return std::atomic_ref<Entry>(table[s]).compare_exchange_strong(empty, e,
                                                                    std::memory_order_relaxed);
  }
  void mark(std::uint32_t bucket, std::uint8_t bits) const {
    if (filter)
      std::atomic_ref<std::uint8_t>(filter[bucket]).fetch_or(bits, std::memory_order_relaxed);
  }
};

}  // namespace

BuildReport CpuCuckooTable::build(const std::vector<std::uint32_t>& keys,
                                  const std::vector<std::uint32_t>& values,
                                  const CuckooParams& params, std::uint64_t seed) {
  checkInput(keys, values);
  slots_.clear();
  filter_.clear();
  BuildReport report;
  report.keys = keys.size();
  report.slots = tableSlots(params, keys.size());
  report.chainLimit = chainLimit(params, keys.size());
  requireHostMemory(double(report.slots) * sizeof(Entry),
                    "a cuckoo table of " + std::to_string(report.slots) + " slots");
  std::vector<Entry> table(report.slots);
  std::vector<std::uint8_t> filter;
  const std::int64_t n = std::int64_t(keys.size());
  for (int attempt = 0; attempt < params.maxAttempts; ++attempt) {
    report.attempts = attempt + 1;
    const HashFunctions f = drawFunctions(params, report.slots, seed, attempt);
    std::fill(table.begin(), table.end(), kEmptyEntry);
    if (params.missFilter) filter.assign(filterBytes(report.slots, f.bucketShift), 0);
    AtomicSlots slots{table.data(), params.missFilter ? filter.data() : nullptr};
    bool failed = false, duplicate = false;
    std::vector<std::uint64_t> histogram(kChainBins, 0);
    std::uint32_t longest = 0;
#pragma omp parallel
    {
      std::vector<std::uint64_t> mine(kChainBins, 0);
      std::uint32_t myLongest = 0;
#pragma omp for schedule(static) reduction(|| : failed, duplicate)
      for (std::int64_t k = 0; k < n; ++k) {
        const int moves = insertEntry(makeEntry(keys[k], values[k]), f, insertionOf(params),
                                      report.chainLimit, slots);
        failed = failed || moves == kChainFailed;
        duplicate = duplicate || moves == kDuplicateKey;
        if (moves > 0) {
          ++mine[chainBin(moves)];
          myLongest = std::max(myLongest, std::uint32_t(moves));
        }
      }
#pragma omp critical
      {
        for (int b = 0; b < kChainBins; ++b) histogram[b] += mine[b];
        longest = std::max(longest, myLongest);
      }
    }
    bool heldTwiceAnywhere = false;
    if (!duplicate && !failed) {
#pragma omp parallel for schedule(static) reduction(|| : heldTwiceAnywhere)
      for (std::int64_t s = 0; s < std::int64_t(table.size()); ++s)
        heldTwiceAnywhere = heldTwiceAnywhere || heldTwice(table.data(), f, std::uint32_t(s));
    }
    if (duplicate || heldTwiceAnywhere)
      throw InputError(
          "the keys are not unique: a key appears more than once; deduplicate them "
          "before building the table");
    if (failed) continue;
    report.chainHistogram = histogram;
    report.longestChain = longest;
    slots_ = std::move(table);
    filter_ = std::move(filter);
    functions_ = f;
    return report;
  }
  throw InputError(buildFailureMessage(params, keys.size()));
}

std::uint64_t CpuCuckooTable::query(const std::vector<std::uint32_t>& keys,
                                    std::vector<std::uint32_t>& values) const {
  values.assign(keys.size(), kNotFound);
  if (slots_.empty()) return 0;
  std::uint64_t probes = 0;
#pragma omp parallel for schedule(static) reduction(+ : probes)
  for (std::int64_t k = 0; k < std::int64_t(keys.size()); ++k) {
    int mine = 0;
    values[k] = lookup(slots_.data(), functions_, filter_.empty() ? nullptr : filter_.data(),
                       keys[k], mine);
    probes += mine;
  }
  return probes;
}

}  // namespace ws::voxhash
