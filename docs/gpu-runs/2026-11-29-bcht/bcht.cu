// Experiment (issue 34, not part of the build): a bucketed cuckoo table, BGHT's BCHT, measured
// before it enters the hash lab. Buckets of B 8-byte slots (B = 4: one 32-byte sector; 8: two; 16:
// a 128-byte line), each probed by a tile of B lanes (one slot a lane, one coalesced read), C hash
// functions choosing a key's buckets. A key (new or evicted) looks through its buckets from the
// one after where it was for an empty slot, claims it with a compare-and-swap, and evicts (from
// its first bucket looked at) only when all are full: a key sits in bucket j only after seeing
// buckets 0 to j - 1 full, and slots never empty, so a miss stops at the first bucket with an
// empty slot. Keys: 2^25 random unique 32-bit keys, as the hash lab's `random`; misses the next
// 2^25. Prints build, hit and miss rates (10^9 keys/s), buckets read a hit and a miss, and checks
// every hit's value and every miss.
//   nvcc -O3 -arch=sm_90 -std=c++17 bcht.cu -o bcht && ./bcht [log2 keys]
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;
using u32 = std::uint32_t;
using u64 = unsigned long long;

constexpr u32 kPrime = 4294967291u, kEmptyKey = 0xffffffffu, kNotFound = 0xffffffffu;
constexpr u64 kEmptyEntry = ~0ull;

__host__ __device__ u32 mix32(u32 x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
__host__ __device__ u32 keyOf(u64 e) { return u32(e >> 32); }
__host__ __device__ u32 valueOf(u64 e) { return u32(e); }
__host__ __device__ u32 labKey(u32 i, u32 seed) {
  const u32 k = mix32(i ^ seed);
  return k == kEmptyKey ? mix32(0xffffffffu ^ seed) : k;
}
__host__ __device__ u32 labValue(u32 i) {
  const u32 v = mix32(~i);
  return v == kNotFound ? 0 : v;
}

constexpr int kMaxFunctions = 4;
struct Functions {
  int count;
  u32 buckets;
  u32 a[kMaxFunctions], b[kMaxFunctions];
  __host__ __device__ u32 bucket(int i, u32 key) const {  // (a k + b) mod p, scaled to the buckets
    u64 m = u64(a[i]) * key + b[i];
    m = (m >> 32) * 5 + (m & 0xffffffffu);
    m = (m >> 32) * 5 + (m & 0xffffffffu);
    const u32 r = u32(m >= kPrime ? m - kPrime : m);
    return u32((u64(r) * buckets) >> 32);
  }
};

// Inserts keys [0, n): a tile of B lanes takes B keys, one a lane, and inserts them one by one
// together. Counts the buckets read and the chains that failed.
template <int B, int C>
__global__ void insertKernel(u32 n, u32 seed, u64* table, Functions f, int limit,
                             unsigned long long* reads, int* failed) {
  auto tile = cg::tiled_partition<B>(cg::this_thread_block());
  const u32 first = (blockIdx.x * blockDim.x + threadIdx.x) / B * B;
  const int lane = int(tile.thread_rank());
  unsigned long long readsHere = 0;
  for (int j = 0; j < B; ++j) {
    const u32 i = first + j;
    if (i >= n) break;  // the same for the whole tile
    u32 key = labKey(i, seed);
    u64 entry = (u64(key) << 32) | labValue(i);
    int fn = 0;  // the function whose bucket the key looks at first
    for (int moves = 0;;) {
      // Look through the key's buckets from fn's on for an empty slot; claim the first.
      bool placed = false;
      for (int t = 0; t < C && !placed; ++t) {
        u64* bucket = table + u64(f.bucket((fn + t) % C, key)) * B;
        for (;;) {
          const u64 seen = __ldcg(bucket + lane);
          ++readsHere;
          const unsigned empty = tile.ballot(keyOf(seen) == kEmptyKey);
          if (!empty) break;
          const int leader = __ffs(empty) - 1;
          bool won = false;
          if (lane == leader) won = atomicCAS(bucket + lane, kEmptyEntry, entry) == kEmptyEntry;
          if (tile.shfl(won, leader)) {
            placed = true;
            break;
          }  // else another tile took the slot: look again
        }
      }
      if (placed) break;
      if (++moves > limit) {
        if (lane == 0) atomicExch(failed, 1);
        break;
      }
      // All full: evict a slot of the first bucket looked at, chosen by the key and the move.
      const u32 at = f.bucket(fn, key);
      const int victim = int(mix32(key + moves) % B);
      u64 evicted = 0;
      if (lane == victim) evicted = atomicExch(table + u64(at) * B + lane, entry);
      evicted = tile.shfl(evicted, victim);
      entry = evicted;
      key = keyOf(evicted);
      // The evicted key looks on from the function after the one that put it in bucket `at`.
      int from = 0;
      for (int g = C - 1; g >= 0; --g)
        if (f.bucket(g, key) == at) from = g;
      fn = (from + 1) % C;
    }
  }
  if (reads && lane == 0) atomicAdd(reads, readsHere);  // the checked round only
}

// Looks up keys [offset, offset + n): value or kNotFound into out.
template <int B, int C>
__global__ void lookupKernel(u32 offset, u32 n, u32 seed, const u64* table, Functions f,
                             u32* out, unsigned long long* reads) {
  auto tile = cg::tiled_partition<B>(cg::this_thread_block());
  const u32 first = (blockIdx.x * blockDim.x + threadIdx.x) / B * B;
  const int lane = int(tile.thread_rank());
  unsigned long long readsHere = 0;
  u32 result = kNotFound;
  for (int j = 0; j < B; ++j) {
    const u32 i = first + j;
    if (i >= n) break;
    const u32 key = labKey(offset + i, seed);
    u32 value = kNotFound;
    for (int g = 0; g < C; ++g) {
      const u64 seen = __ldcg(table + u64(f.bucket(g, key)) * B + lane);
      ++readsHere;
      const unsigned hit = tile.ballot(keyOf(seen) == key);
      if (hit) { value = tile.shfl(valueOf(seen), __ffs(hit) - 1); break; }
      if (tile.ballot(keyOf(seen) == kEmptyKey)) break;
    }
    if (lane == j) result = value;
  }
  if (first + lane < n) out[first + lane] = result;
  if (reads && lane == 0) atomicAdd(reads, readsHere);  // the checked round only
}

// Looks up keys as lookupKernel does, a thread a key reading a whole bucket of 4 slots (32 bytes,
// one sector) as two 16-byte loads: no tile, every lane's load in flight at once.
template <int C>
__global__ void lookupThreadKernel(u32 offset, u32 n, u32 seed, const u64* table, Functions f,
                                   u32* out) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const u32 key = labKey(offset + i, seed);
  u32 value = kNotFound;
  for (int g = 0; g < C; ++g) {
    const ulonglong2* bucket = reinterpret_cast<const ulonglong2*>(table + u64(f.bucket(g, key)) * 4);
    const ulonglong2 lo = __ldcg(bucket), hi = __ldcg(bucket + 1);
    const u64 slot[4] = {lo.x, lo.y, hi.x, hi.y};
    bool empty = false, found = false;
#pragma unroll
    for (int s = 0; s < 4; ++s) {
      if (keyOf(slot[s]) == key && !found) value = valueOf(slot[s]), found = true;
      empty |= keyOf(slot[s]) == kEmptyKey;
    }
    if (found || empty) break;
  }
  out[i] = value;
}

#define CHECK(x) do { cudaError_t status_ = (x); if (status_ != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(status_)); std::exit(1); } } while (0)

template <int B, int C>
void run(u32 n, double load, int repeats) {
  const u32 buckets = u32((double(n) / load + B - 1) / B);
  u64* table; u32* out; unsigned long long* reads; int* failed;
  CHECK(cudaMalloc(&table, u64(buckets) * B * 8));
  CHECK(cudaMalloc(&out, u64(n) * 4));
  CHECK(cudaMalloc(&reads, 3 * 8));
  CHECK(cudaMalloc(&failed, 4));
  cudaEvent_t e[4];
  for (auto& x : e) cudaEventCreate(&x);
  const int block = 128, blocks = int((n + block - 1) / block);
  const int limit = 7 * 25;  // 7 lg N moves, as the lab's chains
  std::vector<float> build, hits, misses, threadHits, threadMisses;
  double readsBuild = 0, readsHit = 0, readsMiss = 0;
  int attempts = 0, failures = 0;
  bool ok = true;
  for (int r = 0; r < repeats + 1; ++r) {
    Functions f{C, buckets, {}, {}};
    int fail = 1;
    float msBuild = 0;
    for (int attempt = 0; fail && attempt < 20; ++attempt) {
      for (int g = 0; g < C; ++g) {
        f.a[g] = 1 + mix32(0x9e3779b9u * (r * 64 + attempt * 8 + g) + 1) % (kPrime - 1);
        f.b[g] = mix32(0x85ebca6bu * (r * 64 + attempt * 8 + g) + 7) % kPrime;
      }
      CHECK(cudaMemset(reads, 0, 24));
      CHECK(cudaMemset(failed, 0, 4));
      cudaEventRecord(e[0]);
      CHECK(cudaMemset(table, 0xff, u64(buckets) * B * 8));
      insertKernel<B, C><<<blocks, block>>>(n, 12345u, table, f, limit, r == 0 ? reads : nullptr, failed);
      cudaEventRecord(e[1]);
      CHECK(cudaEventSynchronize(e[1]));
      CHECK(cudaMemcpy(&fail, failed, 4, cudaMemcpyDeviceToHost));
      float t; cudaEventElapsedTime(&t, e[0], e[1]); msBuild += t;
      if (r > 0) ++attempts, failures += fail;
    }
    if (fail) { std::printf("B %d C %d load %.2f: no build in 20 attempts\n", B, C, load); ok = false; break; }
    cudaEventRecord(e[1]);
    lookupKernel<B, C><<<blocks, block>>>(0, n, 12345u, table, f, out, r == 0 ? reads + 1 : nullptr);
    cudaEventRecord(e[2]);
    CHECK(cudaEventSynchronize(e[2]));
    if (r == 0) {  // check every hit
      std::vector<u32> got(n);
      CHECK(cudaMemcpy(got.data(), out, u64(n) * 4, cudaMemcpyDeviceToHost));
      for (u32 i = 0; i < n; ++i)
        if (got[i] != labValue(i)) { std::printf("key %u: got %u, expected %u\n", i, got[i], labValue(i)); ok = false; break; }
    }
    lookupKernel<B, C><<<blocks, block>>>(n, n, 12345u, table, f, out, r == 0 ? reads + 2 : nullptr);
    cudaEventRecord(e[3]);
    CHECK(cudaEventSynchronize(e[3]));
    if (r == 0) {  // check every miss
      std::vector<u32> got(n);
      CHECK(cudaMemcpy(got.data(), out, u64(n) * 4, cudaMemcpyDeviceToHost));
      for (u32 i = 0; i < n; ++i)
        if (got[i] != kNotFound) { std::printf("absent key %u found\n", i); ok = false; break; }
      std::vector<u64> slots(u64(buckets) * B);
      CHECK(cudaMemcpy(slots.data(), table, slots.size() * 8, cudaMemcpyDeviceToHost));
      const u64 full = std::count_if(slots.begin(), slots.end(), [](u64 s) { return keyOf(s) != kEmptyKey; });
      if (full != n) { std::printf("%llu slots full for %u keys\n", full, n); ok = false; }
      if constexpr (B == 4) {  // the thread-a-key lookup, checked the same way
        lookupThreadKernel<C><<<blocks, block>>>(0, n, 12345u, table, f, out);
        std::vector<u32> got(n);
        CHECK(cudaMemcpy(got.data(), out, u64(n) * 4, cudaMemcpyDeviceToHost));
        for (u32 i = 0; i < n; ++i)
          if (got[i] != labValue(i)) { std::printf("thread lookup, key %u wrong\n", i); ok = false; break; }
        lookupThreadKernel<C><<<blocks, block>>>(n, n, 12345u, table, f, out);
        CHECK(cudaMemcpy(got.data(), out, u64(n) * 4, cudaMemcpyDeviceToHost));
        for (u32 i = 0; i < n; ++i)
          if (got[i] != kNotFound) { std::printf("thread lookup, absent key %u found\n", i); ok = false; break; }
      }
      unsigned long long rd[3];  // counted in this round only: a counter's atomics cost time
      CHECK(cudaMemcpy(rd, reads, 24, cudaMemcpyDeviceToHost));
      readsBuild = double(rd[0]) / n, readsHit = double(rd[1]) / n, readsMiss = double(rd[2]) / n;
      continue;  // the first round is the warm-up and the check
    }
    float tThreadHit = 0, tThreadMiss = 0;
    if constexpr (B == 4) {
      cudaEvent_t t[3];
      for (auto& x : t) cudaEventCreate(&x);
      cudaEventRecord(t[0]);
      lookupThreadKernel<C><<<blocks, block>>>(0, n, 12345u, table, f, out);
      cudaEventRecord(t[1]);
      lookupThreadKernel<C><<<blocks, block>>>(n, n, 12345u, table, f, out);
      cudaEventRecord(t[2]);
      CHECK(cudaEventSynchronize(t[2]));
      cudaEventElapsedTime(&tThreadHit, t[0], t[1]);
      cudaEventElapsedTime(&tThreadMiss, t[1], t[2]);
      for (auto& x : t) cudaEventDestroy(x);
    }
    threadHits.push_back(tThreadHit), threadMisses.push_back(tThreadMiss);
    float tHit, tMiss;
    cudaEventElapsedTime(&tHit, e[1], e[2]);
    cudaEventElapsedTime(&tMiss, e[2], e[3]);
    build.push_back(msBuild), hits.push_back(tHit), misses.push_back(tMiss);
  }
  if (ok && !build.empty()) {
    std::sort(build.begin(), build.end()), std::sort(hits.begin(), hits.end()), std::sort(misses.begin(), misses.end());
    std::sort(threadHits.begin(), threadHits.end()), std::sort(threadMisses.begin(), threadMisses.end());
    const float th = threadHits[threadHits.size() / 2], tm = threadMisses[threadMisses.size() / 2];
    if (th > 0)
      std::printf("B %2d C %d load %.2f, a thread a key: hits %6.2f (%.3f ms)  misses %6.2f (%.3f ms)  checked\n",
                  B, C, load, n / (th * 1e6), th, n / (tm * 1e6), tm);
    const float b = build[build.size() / 2], h = hits[hits.size() / 2], m = misses[misses.size() / 2];
    std::printf("B %2d C %d load %.2f (%u buckets, %5.1f MB): build %6.2f (%.3f ms, restarts %d of %d, %.2f buckets read a key)  hits %6.2f (%.3f ms, %.2f a key)  misses %6.2f (%.3f ms, %.2f a key)  checked\n",
                B, C, load, buckets, buckets * B * 8 / 1e6, n / (b * 1e6), b, failures, attempts,
                readsBuild, n / (h * 1e6), h, readsHit, n / (m * 1e6), m, readsMiss);
  }
  cudaFree(table), cudaFree(out), cudaFree(reads), cudaFree(failed);
}

int main(int argc, char** argv) {
  const int lg = argc > 1 ? std::atoi(argv[1]) : 25;
  const u32 n = 1u << lg;
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, 2^%d keys, 7 repeats (median)\n", p.name, lg);
  for (double load : {0.8, 0.9}) {
    run<4, 3>(n, load, 7);
    run<8, 3>(n, load, 7);
    run<16, 3>(n, load, 7);
    run<4, 2>(n, load, 7);
    run<8, 2>(n, load, 7);
    run<16, 2>(n, load, 7);
  }
}
