// The cuckoo table on the GPU against the CPU table on fresh random keys: the same lookups, the
// table's invariants after every build, restarts, give-ups and refused input. Skips without a GPU.
#include <gtest/gtest.h>

#include "compute/core/errors.h"
#include "compute/voxhash/cuckoo_cpu.h"
#include "compute/voxhash/cuckoo_cuda.h"
#include "tests/cuckoo_random.h"
#include "tests/test_support.h"

namespace ws::voxhash {
namespace {

struct Lookups {
  std::vector<std::uint32_t> hits, misses;
  std::uint64_t hitProbes = 0, missProbes = 0;
};

Lookups queryBoth(CudaCuckooTable& table, const test::RandomKeys& r) {
  const auto keys = toDevice(r.keys), absent = toDevice(r.absent);
  DeviceBuffer<std::uint32_t> out(r.keys.size());
  DeviceBuffer<unsigned long long> probes(2);
  probes.zero();
  Lookups l;
  table.query(keys.data(), r.keys.size(), out.data(), probes.data());
  l.hits = toHost(out.data(), r.keys.size());
  table.query(absent.data(), r.absent.size(), out.data(), probes.data() + 1);
  l.misses = toHost(out.data(), r.absent.size());
  const std::vector<unsigned long long> counts = toHost(probes.data(), 2);
  l.hitProbes = counts[0];
  l.missProbes = counts[1];
  return l;
}

TEST(CuckooCuda, BuildsAndLookupsMatchTheCpuOnRandomKeys) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  const test::RandomKeys r = test::randomKeys(100000, seed);
  const auto keys = toDevice(r.keys), values = toDevice(r.values);
  struct Case {
    int functions;
    double size;
    HashFamily family;
    int block;
    Insertion insertion;
    int bucket = 1;
    bool filter = false;
  };
  constexpr auto kMul = HashFamily::Multiplicative, kXor = HashFamily::Xor;
  constexpr auto kSwap = Insertion::Exchange, kLook = Insertion::Look;
  for (const Case c :
       {Case{2, 2.2, kMul, 64, kSwap},           Case{3, 1.25, kXor, 128, kSwap},
        Case{4, 1.25, kMul, 64, kSwap},          Case{4, 1.25, kXor, 32, kSwap},
        Case{4, 4.0, kMul, 256, kSwap},          Case{5, 1.1, kXor, 1024, kSwap},
        Case{2, 2.2, kMul, 64, kLook},           Case{4, 1.25, kMul, 64, kLook},
        Case{4, 1.25, kXor, 128, kLook},         Case{5, 1.1, kMul, 256, kLook},
        Case{2, 1.25, kMul, 64, kLook, 4},       Case{3, 1.12, kMul, 128, kSwap, 4},
        Case{2, 1.25, kXor, 256, kLook, 8},      Case{3, 1.12, kMul, 64, kLook, 8},
        Case{2, 1.5, kMul, 64, kLook, 2},        Case{4, 1.25, kMul, 128, kLook, 16},
        Case{2, 1.25, kMul, 64, kLook, 8, true}, Case{3, 1.12, kXor, 128, kLook, 4, true},
        Case{4, 1.25, kMul, 64, kSwap, 1, true}, Case{2, 2.2, kMul, 256, kLook, 1, true},
        Case{4, 1.25, kMul, 32, kLook, 16, true}}) {
    CuckooParams params;
    params.functions = c.functions;
    params.sizeFactor = c.size;
    params.family = c.family;
    params.insertion = c.insertion;
    params.bucket = c.bucket;
    params.missFilter = c.filter;
    const std::string what = std::to_string(c.functions) + " functions, " + std::to_string(c.size) +
                             " slots per key, block " + std::to_string(c.block) +
                             (c.insertion == kLook ? ", look first" : ", exchange") +
                             ", buckets of " + std::to_string(c.bucket) +
                             (c.filter ? ", miss filter" : "") + ", seed " + std::to_string(seed);
    CudaCuckooTable gpu(c.block);
    BuildReport report = gpu.build(keys.data(), values.data(), r.keys.size(), params, seed);
    gpu.chainStatistics(report);
    const std::vector<std::uint8_t> filter = gpu.filterOnHost();
    EXPECT_EQ(filter.size(),
              c.filter ? filterBytes(gpu.functions().slots, gpu.functions().bucketShift) : 0)
        << what;
    EXPECT_EQ(checkTable(gpu.slotsOnHost(), gpu.functions(), r.keys.size(), filter), "") << what;
    std::uint64_t chains = 0;
    for (std::uint64_t count : report.chainHistogram) chains += count;
    EXPECT_EQ(chains, r.keys.size()) << what;
    EXPECT_GE(report.longestChain, 1u);
    EXPECT_LE(report.longestChain, std::uint32_t(report.chainLimit));

    CpuCuckooTable cpu;
    cpu.build(r.keys, r.values, params, seed);
    std::vector<std::uint32_t> expectedHits, expectedMisses;
    cpu.query(r.keys, expectedHits);
    cpu.query(r.absent, expectedMisses);
    const Lookups l = queryBoth(gpu, r);
    EXPECT_EQ(l.hits, expectedHits) << what;
    EXPECT_EQ(l.misses, expectedMisses) << what;
    EXPECT_LE(l.hitProbes, r.keys.size() * c.functions) << what;
    EXPECT_GE(l.hitProbes, r.keys.size()) << what;
    EXPECT_EQ(l.missProbes, test::missProbesCountedOnTheTable(gpu.slotsOnHost(), gpu.functions(),
                                                              r.absent, filter))
        << what;
  }
}

TEST(CuckooCuda, AHardTableRestartsAndAnImpossibleOneGivesUpClearly) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  const test::RandomKeys r = test::randomKeys(20000, seed);
  const auto keys = toDevice(r.keys), values = toDevice(r.values);
  for (Insertion insertion : {Insertion::Exchange, Insertion::Look}) {
    CudaCuckooTable table;
    test::expectRestartsAndClearGiveUps(
        [&](const CuckooParams& params, std::uint64_t s) {
          const BuildReport report =
              table.build(keys.data(), values.data(), r.keys.size(), params, s);
          return std::pair(report,
                           checkTable(table.slotsOnHost(), table.functions(), r.keys.size()));
        },
        insertion, seed);
    DeviceBuffer<std::uint32_t> out(1);
    EXPECT_THROW(table.query(keys.data(), 1, out.data()), InputError);  // the last build failed
  }
}

TEST(CuckooCuda, DuplicateAndReservedKeysAreRefused) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  const test::RandomKeys r = test::randomKeys(5000, seed);
  for (int copies : {2, 9}) {
    std::vector<std::uint32_t> keys = r.keys, values = r.values;
    for (int c = 1; c < copies; ++c) {
      keys.push_back(r.keys[77]);
      values.push_back(c);
    }
    const auto k = toDevice(keys), v = toDevice(values);
    for (Insertion insertion : {Insertion::Exchange, Insertion::Look})
      for (int bucket : {1, 4}) {
        CuckooParams params;
        params.insertion = insertion;
        params.bucket = bucket;
        CudaCuckooTable table;
        EXPECT_THROW(table.build(k.data(), v.data(), keys.size(), params, seed), InputError)
            << copies << " copies, buckets of " << bucket << ", seed " << seed;
      }
  }
  std::vector<std::uint32_t> keys = r.keys;
  keys[10] = kEmptyKey;
  const auto k = toDevice(keys), v = toDevice(r.values);
  CudaCuckooTable table;
  EXPECT_THROW(table.build(k.data(), v.data(), keys.size(), CuckooParams{}, seed), InputError);
  EXPECT_THROW(CudaCuckooTable(48), InputError);
}

}  // namespace
}  // namespace ws::voxhash
