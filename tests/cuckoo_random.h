#pragma once
// Random unique keys for the cuckoo table tests, keys that are certainly absent, and the checks
// that the CPU and CUDA tables share.
#include <algorithm>
#include <cstdint>
#include <random>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "compute/core/errors.h"
#include "compute/voxhash/cuckoo.h"

namespace ws::voxhash::test {

// The probes of misses, counted bucket by bucket on a built table: up to and including the first
// candidate bucket with an empty slot or, with a miss filter (else empty), the first whose byte
// lacks the key's bit; or all of them.
inline std::uint64_t missProbesCountedOnTheTable(const std::vector<Entry>& slots,
                                                 const HashFunctions& f,
                                                 const std::vector<std::uint32_t>& absent,
                                                 const std::vector<std::uint8_t>& filter = {}) {
  std::uint64_t probes = 0;
  for (std::uint32_t key : absent) {
    for (int i = 0; i < f.count; ++i) {
      ++probes;
      const std::uint32_t first = f.slot(i, key);
      if (seeBucket(slots.data(), f, first, key).roomy) break;
      if (!filter.empty() && !(filter[first >> f.bucketShift] & filterBit(key))) break;
    }
  }
  return probes;
}

// The mean moves per key of a build, from its chain histogram (the last bin counted at its floor).
inline double meanChain(const BuildReport& report) {
  double keys = 0, moves = 0;
  for (int b = 0; b < kChainBins; ++b) {
    keys += double(report.chainHistogram[b]);
    moves += double(report.chainHistogram[b]) * (b + 1);
  }
  return keys ? moves / keys : 0;
}

struct RandomKeys {
  std::vector<std::uint32_t> keys, values, absent;
};

// n unique keys below 0xffffffff with random values, and n keys that are not among them.
inline RandomKeys randomKeys(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> any(0, kEmptyKey - 1);
  std::unordered_set<std::uint32_t> seen;
  RandomKeys r;
  while (r.keys.size() < n) {
    const std::uint32_t key = any(rng);
    if (seen.insert(key).second) {
      r.keys.push_back(key);
      r.values.push_back(any(rng));
    }
  }
  while (r.absent.size() < n) {
    const std::uint32_t key = any(rng);
    if (!seen.count(key)) r.absent.push_back(key);
  }
  return r;
}

// Builds hard tables eight times (four functions in 1.15 slots per key, chains of at most 3.5 lg N
// moves, or 1.5 lg N when keys look first; on the CPU most attempts fail), then an impossible one
// (two functions need about 2.1 slots per key: at 1.02 every attempt fails). Every build must end
// in a valid table or, after its attempts, in the clear error, and some must restart.
// `build(params, seed)` builds a fresh table and returns checkTable's verdict on it.
template <typename Build>
void expectRestartsAndClearGiveUps(Build&& build, Insertion insertion, std::uint64_t seed) {
  CuckooParams hard;
  hard.insertion = insertion;
  hard.sizeFactor = 1.15;
  hard.chainFactor = insertion == Insertion::Look ? 1.5 : 3.5;
  hard.maxAttempts = 40;
  int restarted = 0, gaveUp = 0;
  for (int trial = 0; trial < 8; ++trial) {
    try {
      const auto [report, verdict] = build(hard, seed + trial);
      restarted += report.attempts > 1;
      EXPECT_EQ(verdict, "") << "trial " << trial << ", seed " << seed;
    } catch (const InputError& e) {
      ++gaveUp;
      EXPECT_NE(std::string(e.what()).find("could not be built in 40 attempts"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_GT(restarted + gaveUp, 0) << "no build restarted; seed " << seed;
  CuckooParams impossible;
  impossible.insertion = insertion;
  impossible.functions = 2;
  impossible.sizeFactor = 1.02;
  impossible.maxAttempts = 3;
  try {
    build(impossible, seed);
    ADD_FAILURE() << "built a table that cannot exist";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("could not be built in 3 attempts"), std::string::npos)
        << e.what();
  }
}

}  // namespace ws::voxhash::test
