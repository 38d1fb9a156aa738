#include "compute/voxhash/cuckoo.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <unordered_map>

#include "compute/core/errors.h"

namespace ws::voxhash {

void validate(const CuckooParams& params) {
  if (params.functions < 2 || params.functions > kMaxFunctions)
    throw InputError("hash functions: " + std::to_string(params.functions) + " is outside 2 to 5");
  if (!(params.sizeFactor >= 1.02 && params.sizeFactor <= 4.0))
    throw InputError("table size factor: " + std::to_string(params.sizeFactor) +
                     " is outside 1.02 to 4 slots per key");
  if (!(params.chainFactor >= 1 && params.chainFactor <= 100))
    throw InputError("chain limit factor: " + std::to_string(params.chainFactor) +
                     " is outside 1 to 100 (moves per key are capped at c lg N)");
  if (params.bucket < 1 || params.bucket > 16 || (params.bucket & (params.bucket - 1)))
    throw InputError("bucket: " + std::to_string(params.bucket) + " slots is not 1, 2, 4, 8 or 16");
  if (params.maxAttempts < 1 || params.maxAttempts > 1000)
    throw InputError("build attempts: " + std::to_string(params.maxAttempts) +
                     " is outside 1 to 1000");
}

std::uint32_t tableSlots(const CuckooParams& params, std::size_t keys) {
  validate(params);
  // Whole buckets.
  const double slots =
      std::ceil(params.sizeFactor * double(std::max<std::size_t>(keys, 1)) / params.bucket) *
      params.bucket;
  if (slots >= double(kPrime))
    throw InputError(std::to_string(keys) + " keys at " + std::to_string(params.sizeFactor) +
                     " slots per key need more slots than the hash functions reach (" +
                     std::to_string(kPrime) + ")");
  return std::uint32_t(slots);
}

int chainLimit(const CuckooParams& params, std::size_t keys) {
  const double lg = std::log2(double(std::max<std::size_t>(keys, 2)));
  return std::max(1, int(std::ceil(params.chainFactor * lg)));
}

HashFunctions drawFunctions(const CuckooParams& params, std::uint32_t slots, std::uint64_t seed,
                            int attempt) {
  std::seed_seq sequence{std::uint32_t(seed), std::uint32_t(seed >> 32), std::uint32_t(attempt)};
  std::mt19937 rng(sequence);
  std::uniform_int_distribution<std::uint32_t> a(1, kPrime - 1), b(0, kPrime - 1);
  HashFunctions f;
  f.count = params.functions;
  f.family = params.family;
  f.slots = slots;
  f.bucketShift = std::countr_zero(unsigned(params.bucket));
  for (int i = 0; i < params.functions; ++i) {
    f.a[i] = a(rng);
    f.b[i] = b(rng);
  }
  return f;
}

std::string buildFailureMessage(const CuckooParams& params, std::size_t keys) {
  return "the cuckoo table for " + std::to_string(keys) + " keys could not be built in " +
         std::to_string(params.maxAttempts) + " attempts (" + std::to_string(params.functions) +
         " hash functions, " + std::to_string(params.sizeFactor) + " slots per key, chains up to " +
         std::to_string(chainLimit(params, keys)) +
         " moves): use a larger table, more hash functions or a longer chain limit";
}

std::size_t filterBytes(std::uint32_t slots, int bucketShift) {
  const std::size_t buckets = std::size_t(slots) >> bucketShift;
  return (buckets + 3) / 4 * 4;
}

std::string checkTable(const std::vector<Entry>& slots, const HashFunctions& functions,
                       std::size_t keys, const std::vector<std::uint8_t>& filter) {
  if (slots.size() != functions.slots)
    return "the table has " + std::to_string(slots.size()) + " slots, its functions address " +
           std::to_string(functions.slots);
  if (!filter.empty() && filter.size() != filterBytes(functions.slots, functions.bucketShift))
    return "the miss filter has " + std::to_string(filter.size()) + " bytes for " +
           std::to_string(functions.slots >> functions.bucketShift) + " buckets";
  std::unordered_map<std::uint32_t, std::size_t> seen;
  seen.reserve(keys);
  for (std::size_t s = 0; s < slots.size(); ++s) {
    const std::uint32_t key = keyOf(slots[s]);
    if (key == kEmptyKey) continue;
    if (!seen.emplace(key, s).second)
      return "key " + std::to_string(key) + " is in slots " + std::to_string(seen[key]) + " and " +
             std::to_string(s);
    const int function = placedBy(slots.data(), functions, std::uint32_t(s)) - 1;
    if (function < 0)
      return "key " + std::to_string(key) + " is in slot " + std::to_string(s) +
             ", in none of its candidate buckets";
    for (int i = 0; i < function; ++i) {  // what lets a miss stop (lookup)
      const std::uint32_t first = functions.slot(i, key);
      const std::string where = "key " + std::to_string(key) +
                                " is in the bucket of its function " + std::to_string(function) +
                                " but the bucket of its function " + std::to_string(i);
      if (seeBucket(slots.data(), functions, first, key).roomy) return where + " has an empty slot";
      if (!filter.empty() && !mayOverflow(filter.data(), functions, first, key))
        return where + " lacks its bit in the miss filter";
    }
  }
  if (seen.size() != keys)
    return std::to_string(seen.size()) + " slots are occupied for " + std::to_string(keys) +
           " keys";
  return "";
}

}  // namespace ws::voxhash
