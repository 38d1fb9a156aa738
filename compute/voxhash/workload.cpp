#include "compute/voxhash/workload.h"

#include <algorithm>
#include <string>

namespace ws::voxhash {

VariantCatalog<LookupStructure> lookupCatalog(Backend backend) {
  const bool gpu = backend == Backend::Cuda;
  return {
      {{"cuckoo", gpu ? "cuckoo hash tables (chapter 4)" : "cuckoo hash tables (chapter 4), OpenMP",
        "One thread per key swaps its key-value pair into the slot of its first hash function "
        "with a 64-bit atomic exchange; whatever it evicts moves on to the slot of its next "
        "function, until a swap finds an empty slot or the chain reaches its limit (then the "
        "table is rebuilt with new constants). A lookup reads the candidate slots in order: one "
        "random 8-byte access per probe. The chapter reached 0.25 x 10^9 pairs/s on a GTX 470 "
        "(2010); random memory access, not arithmetic, sets the pace. With insertion = look, a key "
        "first reads its candidate slots and claims an empty one with a compare-and-swap, and "
        "evicts only when all are occupied. With bucket = 4 or 8, BGHT's bucketed table (2023): "
        "each function chooses a bucket of slots read in one access, and at 80% load most keys "
        "sit in their first bucket. With the miss filter, a byte a bucket tells a miss whether a "
        "key like it overflowed from a full bucket, so most misses read one bucket.",
        gpu ? std::vector<std::string>{"block", "insertion"}
            : std::vector<std::string>{"insertion"},
        "ch. 4 (GTX 470, 2010): 0.25 x 10^9 pairs/s"},
       LookupStructure::Cuckoo},
      {{"sorted",
        "sorted array, binary search",
        "The chapter's main rival: each model's voxels, already sorted and deduplicated, are the "
        "structure (nothing to build), and a lookup is a binary search: about lg n dependent "
        "random reads instead of one to four, so lookups slow down as the models grow.",
        {}},
       LookupStructure::SortedArray},
      {{"bitgrid",
        "dense bit grid",
        "One bit per cell of the whole grid: building clears it and sets a bit per voxel, a lookup "
        "reads one bit. The fastest lookups, but memory and clearing grow with the cube of the "
        "resolution where a table grows with the voxels: the reason to hash sparse data.",
        {}},
       LookupStructure::BitGrid},
  };
}

WorkloadKind workloadOf(const ParamSet& p) {
  return p.getText("workload") == kWorkloadNames[0] ? WorkloadKind::Intersection
                                                    : WorkloadKind::Keys;
}

void declareCuckooParams(ParamSet& p) {
  p.declare(ParamSpec::integer("functions", "hash functions", 4, 2, kMaxFunctions,
                               "candidate slots per key: more build faster and pack tighter, but "
                               "a miss reads more of them"));
  p.declare(ParamSpec::real("size_factor", "table size (x keys)", 1.25, 1.02, 4.0,
                            "slots per key; the chapter's smallest practical sizes: about 2.1, "
                            "1.1, 1.03, 1.02 for 2 to 5 functions"));
  p.declare(ParamSpec::real("chain_factor", "chain limit (x lg N)", 7, 1, 100,
                            "a key's eviction chain fails after this many times lg N moves, and "
                            "the build restarts with new constants"));
  p.declare(ParamSpec::choice("family", "hash family", "multiplicative", {"multiplicative", "xor"},
                              "(a k + b) mod p, or ((a xor k) + b) mod p, scaled to the table"));
  p.declare(ParamSpec::choice("insertion", "insertion", "exchange", {"exchange", "look"},
                              "exchange: the chapter's, a key swaps itself into its first slot "
                              "and evicts what was there; look: a key reads its candidate slots "
                              "and claims an empty one (compare-and-swap), evicting only when all "
                              "are full: fewer atomics, shorter chains"));
  p.declare(ParamSpec::choice(
      "bucket", "bucket (slots)", "1", {"1", "2", "4", "8", "16"},
      "slots a hash function chooses at once: 1, the chapter's table; 4 (a 32-byte sector) or 8, "
      "BGHT's bucketed cuckoo table: a key settles in its first bucket far more often, so a "
      "lookup reads fewer buckets, each one memory access. A bucketed table always looks first"));
  p.declare(ParamSpec::integer("attempts", "build attempts", 20, 1, 1000,
                               "builds with fresh constants before the step gives up"));
  p.declare(ParamSpec::boolean(
      "filter", "miss filter", false,
      "a byte a bucket beside the table (the Horton table's idea): a key stored past its first "
      "bucket sets its bit, one of eight, in its earlier buckets' bytes, and a miss reads on past "
      "a full bucket only where its own bit is set there. Misses read fewer buckets (on an "
      "H100, 2^25 keys in buckets of 8: 1.06 instead of 1.41, 18% faster); hits in a second "
      "bucket read the byte too and the build sets the bits (5% and 4% slower)"));
}

bool isCuckooParam(const std::string& key) {
  for (const char* k : {"functions", "size_factor", "chain_factor", "family", "insertion", "bucket",
                        "attempts", "filter"})
    if (key == k) return true;
  return false;
}

CuckooParams cuckooParamsOf(const ParamSet& p) {
  CuckooParams c;
  c.functions = int(p.getInt("functions"));
  c.sizeFactor = p.getFloat("size_factor");
  c.chainFactor = p.getFloat("chain_factor");
  c.family = p.getText("family") == "xor" ? HashFamily::Xor : HashFamily::Multiplicative;
  c.insertion = p.getText("insertion") == "look" ? Insertion::Look : Insertion::Exchange;
  c.bucket = std::stoi(p.getText("bucket"));
  c.maxAttempts = int(p.getInt("attempts"));
  c.missFilter = p.getBool("filter");
  return c;
}

std::vector<Metric> chainMetrics(const BuildReport& build) {
  return {{"restarts", double(build.attempts > 0 ? build.attempts - 1 : 0)},
          {"load factor", build.loadFactor()},
          {"longest chain", double(build.longestChain)}};
}

std::string chainNotes(const BuildReport& build) {
  return std::to_string(build.slots) + " slots for " + std::to_string(build.keys) +
         " keys; chains fail after " + std::to_string(build.chainLimit) + " moves";
}

Histogram chainHistogram(const BuildReport& build, std::string title) {
  // Lengths 1 to 8 one by one, the rest together (the full histogram has kChainBins bins).
  constexpr int kShown = 8;
  Histogram h{std::move(title), {}, {}};
  const double keys = double(std::max<std::size_t>(build.keys, 1));
  for (int b = 0; b < kChainBins; ++b) {
    const float share = float(100.0 * double(build.chainHistogram[b]) / keys);
    if (b < kShown) {
      h.labels.push_back(std::to_string(b + 1));
      h.values.push_back(share);
    } else if (b == kShown) {
      h.labels.push_back(std::to_string(kShown + 1) + "+");
      h.values.push_back(share);
    } else {
      h.values.back() += share;
    }
  }
  return h;
}

}  // namespace ws::voxhash
