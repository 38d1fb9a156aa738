#pragma once
// Cuckoo hashing as the source's chapter 4 builds it on the GPU (Alcantara et al.): a table of
// 64-bit slots, key in the upper and value in the lower 32 bits, so that a pair moves with one
// atomic exchange and is found with one load. Every key has one candidate slot per hash function;
// a key evicted from the slot of function i moves on to the slot of function i + 1. Or, as BGHT's
// bucketed cuckoo table (BCHT, Awad et al. 2023), one candidate bucket of 4 or 8 consecutive slots
// per function (a 32-byte sector, or two): a key settles in its first bucket far more often, so a
// lookup reads fewer buckets, each one memory access. Shared by the CPU and CUDA tables, so that
// both place and find keys the same way.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "compute/core/hd.h"

namespace ws::voxhash {

using Entry = std::uint64_t;

// An empty slot holds kEmptyKey (the chapter's marker); a query that misses returns kNotFound. So
// neither may appear in the input: voxel keys have at most 30 bits, and the builds refuse them.
// The empty entry is all ones (the chapter's has value 0), so that a byte fill (cudaMemset) clears
// a table.
constexpr std::uint32_t kEmptyKey = 0xffffffffu;
constexpr std::uint32_t kNotFound = 0xffffffffu;
constexpr Entry kEmptyEntry = ~Entry(0);

WS_HD constexpr Entry makeEntry(std::uint32_t key, std::uint32_t value) {
  return (Entry(key) << 32) | value;
}
WS_HD constexpr std::uint32_t keyOf(Entry e) {
  return std::uint32_t(e >> 32);
}
WS_HD constexpr std::uint32_t valueOf(Entry e) {
  return std::uint32_t(e);
}

constexpr int kMaxFunctions = 5;
// Chain lengths are counted in moves per key: the atomic operations it took on the table
// (exchanges, and claims of empty slots when keys look first), 1 when its first try landed; the
// last bin gathers kChainBins and more.
constexpr int kChainBins = 32;
// h_i(k) = (a_i k + b_i) mod p mod slots, with p the largest prime below 2^32 (as CUDPP, the
// chapter's library, has it). The chapter prints p = 334214459, but the functions only see k mod p:
// keys k and k + p share all their candidate slots, so among 2^25 random 32-bit keys some five
// share a residue and no table with four functions can hold them (every build failed on an H200).
// With p = 2^32 - 5 only keys 0 to 3 and 2^32 - 5 to 2^32 - 2 pair up so.
constexpr std::uint32_t kPrime = 4294967291u;

// x mod p without a division: 2^32 = 5 (mod p), so the high word folds into the low one, twice.
WS_HD constexpr std::uint32_t modPrime(std::uint64_t x) {
  x = (x >> 32) * 5 + (x & 0xffffffffu);  // below 6 * 2^32
  x = (x >> 32) * 5 + (x & 0xffffffffu);  // below 2^32 + 25
  return std::uint32_t(x >= kPrime ? x - kPrime : x);
}

// h in [0, 2^32) scaled to [0, slots): the high word of h * slots (a multiply where `% slots` would
// be a division; it keeps the top bits of h, which the modulo by p mixes as well as the bottom).
WS_HD constexpr std::uint32_t scaleTo(std::uint32_t h, std::uint32_t slots) {
  return std::uint32_t((std::uint64_t(h) * slots) >> 32);
}

// Multiplicative: (a k + b) mod p scaled to the table (scaleTo), the chapter's family. XOR:
// ((a ^ k) + b) mod p mod slots, which the chapter found to spread some data sets better. The XOR
// sum moves k's bits little, so its top bits would send keys that share theirs to one slot under
// every function; the division by the table size brings in all the bits.
enum class HashFamily { Multiplicative, Xor };

// A table's hash functions: the constants of each, drawn afresh for every build attempt. The
// table's slots come in buckets of 2^bucketShift consecutive slots (1: the chapter's table); a
// function chooses a bucket, and slot() returns its first slot.
struct HashFunctions {
  int count = 4;
  HashFamily family = HashFamily::Multiplicative;
  std::uint32_t slots = 1;  // a multiple of the bucket
  int bucketShift = 0;
  std::uint32_t a[kMaxFunctions] = {}, b[kMaxFunctions] = {};

  WS_HD int bucket() const { return 1 << bucketShift; }
  // The first slot of the bucket holding slot s.
  WS_HD std::uint32_t bucketStart(std::uint32_t s) const { return s >> bucketShift << bucketShift; }
  WS_HD std::uint32_t slot(int i, std::uint32_t key) const {
    const std::uint64_t mixed = family == HashFamily::Multiplicative
                                    ? std::uint64_t(a[i]) * key + b[i]
                                    : std::uint64_t(a[i] ^ key) + b[i];
    const std::uint32_t buckets = slots >> bucketShift;
    return (family == HashFamily::Multiplicative ? scaleTo(modPrime(mixed), buckets)
                                                 : modPrime(mixed) % buckets)
           << bucketShift;
  }

  // Where a key evicted from slot `from` goes next: the bucket of the function after the first
  // one that points at `from`'s, skipping functions that point there too (the chapter's listing
  // stops at the first match, so a key whose functions coincide would use fewer slots than it
  // has). All candidate buckets are computed at once, independent of each other, and the loops
  // unroll over kMaxFunctions so they stay in registers: on a long eviction chain every move
  // waits for this.
  WS_HD std::uint32_t next(std::uint32_t key, std::uint32_t from) const {
    from = bucketStart(from);
    std::uint32_t candidate[kMaxFunctions];
    int first = count;  // the first function that points at `from`
    WS_UNROLL
    for (int i = kMaxFunctions - 1; i >= 0; --i) {
      candidate[i] = i < count ? slot(i, key) : from;
      if (candidate[i] == from) first = i;
    }
    // The first function after `first`, cyclically, that points elsewhere.
    WS_UNROLL
    for (int i = 0; i < kMaxFunctions; ++i)
      if (i > first && candidate[i] != from) return candidate[i];
    WS_UNROLL
    for (int i = 0; i < kMaxFunctions; ++i)
      if (i < first && candidate[i] != from) return candidate[i];
    return from;  // every function points at one slot: the chain can only run into the limit
  }
};

// The miss filter (after the Horton table's remap bits, Breslow et al. 2016): a byte a bucket, in
// an array beside the table. A key stored in a later bucket than its first sets its bit (one of
// eight, chosen by a hash of the key apart from the table's) in the byte of each earlier candidate
// bucket, so that a miss that finds a bucket full reads on only where its own bit is set there:
// with 2 functions, buckets of 8 and load 0.8, 1.07 buckets a miss instead of 1.41 (a CPU model,
// docs/gpu-runs/2026-12-06-h100-ceilings/). Bits are only ever set: a key that moves back to an
// earlier bucket leaves its bit, so the filter errs towards reading on, never towards missing a
// key. A lookup reads a bucket's byte only when that bucket is full and holds not the key.
WS_HD constexpr std::uint8_t filterBit(std::uint32_t key) {
  return std::uint8_t(1u << ((key * 0x85ebca6bu) >> 29));
}

// Whether a miss must read on past the full bucket starting at slot `first`: always without a
// filter (null).
WS_HD bool mayOverflow(const std::uint8_t* filter, const HashFunctions& f, std::uint32_t first,
                       std::uint32_t key) {
  return !filter || (filter[first >> f.bucketShift] & filterBit(key));
}

// A key has entered the bucket starting at slot `at`: its bit into the filter bytes of its earlier
// candidate buckets, those of the functions before the first that chooses `at` (a function that
// chooses `at` too finds it first). slots.mark(b, bits) ORs bits into bucket b's byte, atomically,
// or does nothing when the table has no filter.
template <typename Slots>
WS_HD void markEarlierBuckets(std::uint32_t key, std::uint32_t at, const HashFunctions& f,
                              Slots&& slots) {
  WS_UNROLL
  for (int i = 0; i < kMaxFunctions; ++i) {
    if (i >= f.count) break;
    const std::uint32_t first = f.slot(i, key);
    if (first == at) break;
    slots.mark(first >> f.bucketShift, filterBit(key));
  }
}

// How a key enters the table.
// - Exchange, the chapter's Listing 4.1: the entry is swapped into its first slot; whatever it
//   evicts moves on to its next slot, until a move lands in an empty slot. One atomic exchange
//   per move, and a move into an occupied slot always evicts.
// - Look: a key (new or evicted) first reads its candidate slots in order and claims the first
//   empty one with a compare-and-swap; it evicts, as above, only when all are occupied. A read
//   is cheaper than an exchange (which must write), and keys settle in earlier slots, where
//   lookups find them sooner; the chains are less than half as long.
// Both keep what lets a miss stop at the first empty candidate slot (lookup): a key sits in its
// slot j only when it has seen its slots 0 to j - 1 occupied, and an occupied slot never empties.
// A bucketed table always looks (as BCHT does), slot by slot through each candidate bucket; when
// all are full it evicts a slot of the next bucket chosen by the key and the move, so that a
// chain does not keep evicting one slot. A key sits in its bucket j only when its buckets 0 to
// j - 1 were full.
enum class Insertion { Exchange, Look };

// One key's insertion (a bucketed table's with Insertion::Look: insertionOf). `slots` is the table:
// slots.exchange(s, e) atomically swaps e into slot s and returns what it held; slots.load(s) reads
// slot s, slots.loadTwo(s, a, b) slots s and s + 1 (s even); slots.claim(s, e) puts e into slot s
// if it is empty, atomically, and says whether it did; slots.mark feeds the miss filter
// (markEarlierBuckets).
// Returns the moves made (exchanges and claims), or kChainFailed when they would pass `limit`, or
// kDuplicateKey when the entry met another copy of its own key (the input was not unique).
constexpr int kChainFailed = -1, kDuplicateKey = -2;

template <typename Slots>
WS_HD int insertEntry(Entry entry, const HashFunctions& f, Insertion insertion, int limit,
                      Slots&& slots) {
  constexpr std::uint32_t kNowhere = 0xffffffffu;  // a new key was evicted from no slot
  std::uint32_t key = keyOf(entry), from = kNowhere, at = f.slot(0, key);
  int moves = 0;
  for (;;) {
    if (insertion == Insertion::Look) {
      WS_UNROLL
      for (int i = 0; i < kMaxFunctions; ++i) {
        if (i >= f.count) break;
        const std::uint32_t first = f.slot(i, key), end = first + f.bucket();
        if (first == from) continue;  // full: it holds the key that evicted this one
        // The bucket is read a 32-byte sector (4 slots) at a time, its loads in flight together,
        // then claimed at the first empty slot from `s` on; when another key took that slot
        // first, read again past it. Slot by slot, one round trip after another, the GPU built
        // 2.5-20% slower (buckets of 4 to 16, 2^25 keys; run 102 of 2026-11-30).
        for (std::uint32_t s = first; s < end;) {
          // The sector holding slot s, as far as it lies in the bucket (a bucket of 1 or 2 slots
          // is part of a sector).
          const std::uint32_t sector = (s & ~3u) > first ? (s & ~3u) : first,
                              sectorEnd = sector + 4 < end ? sector + 4 : end;
          Entry seen[4] = {};  // a bucket of 1 or 2 slots reads only its own
          if (f.bucket() == 1) {
            seen[0] = slots.load(sector);
          } else {
            slots.loadTwo(sector, seen[0], seen[1]);
            if (sector + 2 < sectorEnd) slots.loadTwo(sector + 2, seen[2], seen[3]);
          }
          std::uint32_t empty = sectorEnd;
          WS_UNROLL
          for (int j = 0; j < 4; ++j) {
            const std::uint32_t slot = sector + j;
            if (slot >= sectorEnd) break;
            if (slot < s) continue;
            const std::uint32_t held = keyOf(seen[j]);
            if (held == key) return kDuplicateKey;
            if (held == kEmptyKey) {
              empty = slot;
              break;
            }
          }
          if (empty == sectorEnd) {  // full: the next sector, or past the bucket
            s = sectorEnd;
            continue;
          }
          if (++moves > limit) return kChainFailed;
          if (slots.claim(empty, entry)) {
            if (i > 0) markEarlierBuckets(key, first, f, slots);
            return moves;
          }
          s = empty + 1;
        }
      }
      // The victim: a slot of the bucket at `at` chosen by the key and the move.
      if (f.bucketShift) at += (key + std::uint32_t(moves)) * 0x9e3779b9u >> (32 - f.bucketShift);
    }
    if (++moves > limit) return kChainFailed;
    const Entry evicted = slots.exchange(at, entry);
    markEarlierBuckets(key, f.bucketStart(at), f, slots);
    const std::uint32_t evictedKey = keyOf(evicted);
    if (evictedKey == kEmptyKey) return moves;
    if (evictedKey == key) return kDuplicateKey;
    entry = evicted;
    key = evictedKey;
    from = f.bucketStart(at);
    at = f.next(key, at);
  }
}

// What a lookup finds in one candidate bucket: the key's value, kNotFound, and whether the bucket
// has an empty slot (then the key is in no later bucket: see Insertion).
struct BucketSeen {
  std::uint32_t value = kNotFound;
  bool found = false, roomy = false;
  WS_HD void see(Entry e, std::uint32_t key) {
    if (keyOf(e) == key && !found) value = valueOf(e), found = true;
    roomy |= keyOf(e) == kEmptyKey;
  }
};

// The bucket of `f` starting at slot `first`, read slot by slot for `key`.
WS_HD BucketSeen seeBucket(const Entry* table, const HashFunctions& f, std::uint32_t first,
                           std::uint32_t key) {
  BucketSeen seen;
  for (std::uint32_t s = first; s < first + f.bucket(); ++s) seen.see(table[s], key);
  return seen;
}

// A key's value, probing its candidate buckets in order (Listing 4.2); kNotFound when absent.
// `probes` counts the buckets read. Unlike the listing, a miss stops at the first bucket with an
// empty slot: a key enters the table in its first bucket with room and moves only to its next
// bucket, and a slot once filled is never empty again, so a key stored in its bucket j found its
// buckets 0 to j - 1 full. At 1.25 slots per key that saves a quarter of a miss's reads. With a
// miss filter (else null) a miss stops too at a full bucket whose byte lacks the key's bit.
WS_HD std::uint32_t lookup(const Entry* table, const HashFunctions& f, const std::uint8_t* filter,
                           std::uint32_t key, int& probes) {
  for (int i = 0; i < f.count; ++i) {
    const std::uint32_t first = f.slot(i, key);
    const BucketSeen seen = seeBucket(table, f, first, key);
    ++probes;
    if (seen.found) return seen.value;
    if (seen.roomy || i + 1 == f.count || !mayOverflow(filter, f, first, key)) break;
  }
  return kNotFound;
}

// Whether the key in slot s sits in another of its candidate slots as well: a second copy, which
// only a duplicate in the input can leave (each copy ends up in one of its candidate buckets).
WS_HD bool heldTwice(const Entry* table, const HashFunctions& f, std::uint32_t s) {
  const std::uint32_t key = keyOf(table[s]);
  if (key == kEmptyKey) return false;
  for (int i = 0; i < f.count; ++i) {
    const std::uint32_t first = f.slot(i, key);
    for (std::uint32_t t = first; t < first + f.bucket(); ++t)
      if (t != s && keyOf(table[t]) == key) return true;
  }
  return false;
}

// Which function placed the key of slot s (chose its bucket): 1 to count, or 0 for an empty slot
// or a key in none of its candidate buckets.
WS_HD int placedBy(const Entry* table, const HashFunctions& f, std::uint32_t s) {
  const std::uint32_t key = keyOf(table[s]);
  if (key == kEmptyKey) return 0;
  for (int i = 0; i < f.count; ++i)
    if (f.slot(i, key) == f.bucketStart(s)) return i + 1;
  return 0;
}

WS_HD int chainBin(int moves) {
  return (moves < kChainBins ? moves : kChainBins) - 1;
}

// What the user chooses for a table.
struct CuckooParams {
  int functions = 4;         // 2 to 5
  double sizeFactor = 1.25;  // slots per key, 1.02 to 4
  double chainFactor = 7;    // an eviction chain ends in failure after c lg N moves
  HashFamily family = HashFamily::Multiplicative;
  Insertion insertion = Insertion::Exchange;
  int bucket = 1;           // slots per bucket: 1 (the chapter's table), 2, 4, 8 or 16 (BCHT's)
  int maxAttempts = 20;     // builds with fresh constants before giving up
  bool missFilter = false;  // a byte a bucket that lets misses stop sooner (filterBit)
};

// Throws InputError naming the parameter when one is outside its range.
void validate(const CuckooParams& params);

// How the table's keys go in: as chosen, but always looking in a bucketed table.
inline Insertion insertionOf(const CuckooParams& params) {
  return params.bucket > 1 ? Insertion::Look : params.insertion;
}

// The table's size and chain limit for n keys.
std::uint32_t tableSlots(const CuckooParams& params, std::size_t keys);
int chainLimit(const CuckooParams& params, std::size_t keys);

// Fresh constants for build attempt `attempt` of a table seeded with `seed`.
HashFunctions drawFunctions(const CuckooParams& params, std::uint32_t slots, std::uint64_t seed,
                            int attempt);

// What a build did, for the user and for the tests.
struct BuildReport {
  std::size_t keys = 0;
  std::uint32_t slots = 0;
  int attempts = 0;  // 1 when the first constants worked; restarts are attempts - 1
  int chainLimit = 0;
  std::vector<std::uint64_t> chainHistogram = std::vector<std::uint64_t>(kChainBins, 0);
  std::uint32_t longestChain = 0;
  double loadFactor() const { return slots ? double(keys) / slots : 0.0; }
};

// The build gave up: every attempt had a chain that reached the limit.
std::string buildFailureMessage(const CuckooParams& params, std::size_t keys);

// Invariants of a built table, checked on its slots: exactly `keys` occupied slots, no key twice,
// every key in one of its candidate slots, with the slots of its earlier functions occupied and,
// where the table has a miss filter (a byte a bucket; else empty), its bit set in their bytes.
// Returns "" or what is wrong (for tests and checks).
std::string checkTable(const std::vector<Entry>& slots, const HashFunctions& functions,
                       std::size_t keys, const std::vector<std::uint8_t>& filter = {});

// The miss filter's bytes for a table of `slots` slots: one a bucket, rounded up to whole 32-bit
// words (the GPU sets its bits with 32-bit atomics).
std::size_t filterBytes(std::uint32_t slots, int bucketShift);

}  // namespace ws::voxhash
