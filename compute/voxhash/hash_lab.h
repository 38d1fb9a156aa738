#pragma once
// The hash lab: n random unique keys built into a cuckoo table every step, then queried with all
// of them (hits) and with n keys that are not there (misses), on the CPU or the GPU. It measures
// the chapter's build and retrieval rates and shows the table as an image: each slot coloured by
// the hash function that placed its key.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "compute/core/timing.h"
#include "compute/views/field.h"
#include "compute/voxhash/cuckoo.h"

namespace ws::voxhash {

// A bijection of 32-bit integers (xor-shift-multiply rounds with odd constants), so that
// distinct inputs give distinct keys without a set to check them against.
WS_HD constexpr std::uint32_t mix32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// A bijection of the 18-bit integers (x below 2^18), for scattering KeyPattern::Bricks' bricks.
WS_HD constexpr std::uint32_t mix18(std::uint32_t x) {
  constexpr std::uint32_t mask = (1u << 18) - 1;
  x ^= x >> 9;
  x = x * 0x2c1b3u & mask;  // odd: a bijection modulo 2^18
  x ^= x >> 7;
  x = x * 0x1d2a5u & mask;
  return x ^ x >> 9;
}

// How the lab's keys lie: random 32-bit keys (the chapter's); consecutive integers from a random
// start (row numbers); a stride of 4096 from a random multiple of it (the low twelve bits the
// same in every key); or voxel keys (packVoxel's x | y << 10 | z << 20) filling bricks of 16^3
// cells scattered through a 1024^3 grid, as a voxelized surface's keys come. A hash family that
// holds up places them all alike; one that does not fails builds or grows long eviction chains.
enum class KeyPattern { Random, Sequential, Strided, Bricks };

// Key i (i below 2^30) for `seed` in `pattern`, before the one that would be kEmptyKey is replaced.
WS_HD constexpr std::uint32_t patternKey(std::uint32_t i, std::uint32_t seed, KeyPattern pattern) {
  switch (pattern) {
    case KeyPattern::Sequential:
      return mix32(seed) + i;
    case KeyPattern::Strided:  // i << 12 for i below 2^20; rotated, so that all 2^32 stay distinct
      return (mix32(seed) & ~0xfffu) + (i << 12 | i >> 20);
    case KeyPattern::Bricks: {  // 2^12 cells a brick, 2^18 bricks: 30 bits, never kEmptyKey
      const std::uint32_t brick = mix18(((i >> 12) ^ seed) & ((1u << 18) - 1)), cell = i & 0xfffu;
      return ((brick & 63) * 16 + (cell & 15)) | ((brick >> 6 & 63) * 16 + (cell >> 4 & 15)) << 10 |
             ((brick >> 12) * 16 + (cell >> 8)) << 20;
    }
    default:
      return mix32(i ^ seed);
  }
}

// Key i of the lab's 2n keys for `seed`: keys 0 to n-1 go into the table, n to 2n-1 are the
// misses. All distinct (each pattern is a bijection of i, the bricks' of i below 2^30); the one
// that would be kEmptyKey is replaced by a key no index reaches (exactly one index maps to it,
// and i = 0xffffffff, never used, maps to the replacement).
WS_HD constexpr std::uint32_t labKey(std::uint32_t i, std::uint32_t seed, KeyPattern pattern) {
  const std::uint32_t key = patternKey(i, seed, pattern);
  return key == kEmptyKey ? patternKey(0xffffffffu, seed, pattern) : key;
}
WS_HD constexpr std::uint32_t labValue(std::uint32_t i) {
  const std::uint32_t value = mix32(~i);
  return value == kNotFound ? 0 : value;
}

// The table as an image of `width` slots per row, row 0 at the top of the world. The value under
// pixel (px, py) of the request: placedBy, or NaN outside the table.
WS_HD float slotPixel(const Entry* table, const HashFunctions& f, int width, const FieldRequest& r,
                      int px, int py) {
  const double wx = r.originX + (px + 0.5) * r.worldPerPixel;
  const double wy = r.originY + (py + 0.5) * r.worldPerPixel;
  const int height = int((f.slots + width - 1) / width);
  if (wx < 0 || wy < 0 || wx >= width || wy >= height) return NAN;
  const std::uint64_t s = std::uint64_t(height - 1 - int(wy)) * width + std::uint64_t(wx);
  return s < f.slots ? float(placedBy(table, f, std::uint32_t(s))) : NAN;
}

// The bytes each operation must move per key, for GB/s and the floor. A random access moves a
// whole 32-byte sector (a bucket of more than 4 slots, its slots); an atomic exchange or
// compare-and-swap reads a sector and writes it back. Build: the pair read, the table filled with
// empty slots, at least one atomic on a slot. Hit: the key read, the value written, at least one
// bucket read. Miss: the candidate buckets up to the first with an empty slot; a random slot is
// full with the load factor's probability, a bucket (as if its slots filled independently) with
// that to the power of its slots, so 1 + full + full^2 + ... of them on average. With the miss
// filter, the least a miss reads, its first bucket: how many it reads past that depends on the
// bits the build set (the lab counts them: LabReport::probesPerMiss), and the filter's byte is
// read from the L2 (5 MB at 2^25 keys in buckets of 8), not counted.
constexpr double kSectorBytes = 32;
constexpr double bucketBytes(int bucket) {
  return 8.0 * bucket > kSectorBytes ? 8.0 * bucket : kSectorBytes;
}
constexpr double buildBytesPerKey(double slotsPerKey) {
  return 8 + 8 * slotsPerKey + 2 * kSectorBytes;
}
constexpr double hitBytesPerKey(int bucket) {
  return 8 + bucketBytes(bucket);
}
constexpr double kHitBytesPerKey = hitBytesPerKey(1);
constexpr double missProbesPerKey(int functions, double slotsPerKey, int bucket = 1) {
  double bucketFull = 1;
  for (int i = 0; i < bucket; ++i) bucketFull /= slotsPerKey;
  double probes = 0, full = 1;
  for (int i = 0; i < functions; ++i, full *= bucketFull) probes += full;
  return probes;
}
constexpr double missBytesPerKey(int functions, double slotsPerKey, int bucket = 1,
                                 bool filtered = false) {
  return 8 +
         bucketBytes(bucket) * (filtered ? 1 : missProbesPerKey(functions, slotsPerKey, bucket));
}

// The lab's three operations' bytes per key for a table of these parameters.
struct LabBytes {
  double build, hit, miss;
  constexpr double all() const { return build + hit + miss; }
};
constexpr LabBytes labBytesPerKey(const CuckooParams& c, double slotsPerKey) {
  return {buildBytesPerKey(slotsPerKey), hitBytesPerKey(c.bucket),
          missBytesPerKey(c.functions, slotsPerKey, c.bucket, c.missFilter)};
}

// The integer arithmetic of a step per key, counted as the bytes are (the least: one move per
// build, one probe per hit). A multiplicative hash (HashFunctions::slot) is 11 operations,
// counting a 64-bit add as two: a k + b (a multiply and an add), two folds of modPrime (a
// multiply by 5 and a 64-bit add each), its compare and subtract, and scaleTo's multiply; the
// XOR family's is counted the same, its modulo as one. A build adds packing the pair and
// checking what the exchange returned (2); a probe, comparing each slot of the bucket read with
// the key and with the empty marker, and counting (1 + 2 a slot).
constexpr double kHashOps = 11;
constexpr double labOpsPerKey(const CuckooParams& c, double slotsPerKey) {
  const double build = kHashOps + 2, probe = kHashOps + 1 + 2 * c.bucket;
  return build + probe +
         probe * (c.missFilter ? 1 : missProbesPerKey(c.functions, slotsPerKey, c.bucket));
}

struct LabTimings {
  TimingScope *total, *build, *hits, *misses, *view;
};

// What the last step saw.
struct LabReport {
  BuildReport build;
  double probesPerHit = 0, probesPerMiss = 0;
  std::uint64_t lostKeys = 0;  // present keys the hit queries did not find (must stay 0)
};

class HashLab {
 public:
  virtual ~HashLab() = default;
  // Draws the lab's keys; throws OutOfMemoryError (keeping the old ones) when they do not fit.
  virtual void setKeys(std::size_t n, std::uint32_t seed, KeyPattern pattern) = 0;
  // `count` times: builds the table (constants from firstSeed, firstSeed + 1, ...) and queries
  // it with the hits and the misses. The total scope times the `count` steps as one sample; the
  // stages are timed step by step.
  virtual void step(const CuckooParams& params, std::uint64_t firstSeed, int count) = 0;
  // The last step's, with its chain statistics.
  virtual LabReport report() = 0;
  // The table's slots; its image has tableImageWidth(slots()) per row.
  virtual std::uint32_t slots() const = 0;
  virtual void render(const FieldRequest& request, FieldImage& image) = 0;
  virtual std::string configuration() const = 0;
  virtual void pollTimings() {}
  virtual void drainTimings() {}
  virtual void synchronize() {}
};

std::unique_ptr<HashLab> makeCpuHashLab(LabTimings timings);
std::unique_ptr<HashLab> makeCudaHashLab(LabTimings timings, int block);

// Slots per image row for a table of `slots`: about the square root, a multiple of 16 so that
// every bucket (1 to 16 slots) lies in one row and the buckets line up in columns.
int tableImageWidth(std::uint32_t slots);

// A table of f.slots slots drawn as an image of tableImageWidth(f.slots) slots per row: each
// pixel's slotPixel, or NaN everywhere when there is no table (slots null). On the host into
// image.pixels, or on the GPU from a device table into the device array `pixels` of image's size.
void renderTableOnHost(const Entry* slots, const HashFunctions& f, const FieldRequest& request,
                       FieldImage& image);
void renderTableOnDevice(const Entry* slots, const HashFunctions& f, const FieldRequest& request,
                         const FieldImage& image, float* pixels);

}  // namespace ws::voxhash
