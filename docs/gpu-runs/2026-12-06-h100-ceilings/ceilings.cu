// What an H100 gives random accesses to a table the size of issue 34's cuckoo tables (2^25 keys at
// load 0.8 in 8-byte slots: 335 MB): probes a second for random reads of 8, 32, 64 and 128 bytes
// (a tile of lanes reading one bucket together, as the bucketed table's probes do) and for random
// 64-bit atomic exchanges and compare-and-swaps at single slots. Each thread makes one probe of a
// random place (a hash of its index and the round: no index array is read). Median of 9 rounds.
//   nvcc -O3 -arch=sm_90 -std=c++17 ceilings.cu -o ceilings && ./ceilings
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

using u64 = unsigned long long;

__device__ __forceinline__ unsigned mix(unsigned x) {
  x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
  return x;
}

// B bytes a probe: B / 8 lanes each read one slot of a random B-byte bucket.
template <int B>
__global__ void reads(const u64* table, u64 buckets, unsigned probes, unsigned round, u64* sink) {
  constexpr int kLanes = B / 8;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, probe = t / kLanes;
  if (probe >= probes) return;
  const u64 bucket = __umulhi(mix(probe * 0x9e3779b9u + round), unsigned(buckets));
  const u64 v = table[bucket * kLanes + t % kLanes];
  if (v == 0x123456789abcdefull) *sink = v;  // never: keeps the load
}

__global__ void exchanges(u64* table, u64 slots, unsigned probes, unsigned round) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= probes) return;
  atomicExch(&table[__umulhi(mix(t * 0x9e3779b9u + round), unsigned(slots))], u64(t));
}

__global__ void swaps(u64* table, u64 slots, unsigned probes, unsigned round) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= probes) return;
  atomicCAS(&table[__umulhi(mix(t * 0x9e3779b9u + round), unsigned(slots))], ~0ull, u64(t));
}

template <typename F>
double median(F launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  std::vector<float> ms;
  for (int r = 0; r < 10; ++r) {
    cudaEventRecord(a);
    launch(r);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float m = 0;
    cudaEventElapsedTime(&m, a, b);
    if (r) ms.push_back(m);  // the first is a warm-up
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main() {
  const u64 slots = (u64(1) << 25) * 5 / 4;  // 41.9 M slots, 335 MB
  const unsigned probes = 1u << 25;
  u64 *table = nullptr, *sink = nullptr;
  cudaMalloc(&table, slots * 8);
  cudaMalloc(&sink, 8);
  cudaMemset(table, 0xff, slots * 8);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  std::printf("%s, table %.0f MB, %u probes a round\n", p.name, slots * 8 / 1e6, probes);
  const auto report = [&](const char* what, double ms, double bytes) {
    std::printf("%-28s %8.4f ms  %6.2f x 10^9 /s  (%.0f GB/s of the probes' bytes)\n", what, ms,
                probes / ms / 1e6, probes * bytes / ms / 1e6);
  };
  const auto readsOf = [&](auto bytes) {
    constexpr int B = decltype(bytes)::value;
    const unsigned threads = probes * (B / 8);
    const double ms = median([&](int r) {
      reads<B><<<(threads + 255) / 256, 256>>>(table, slots / (B / 8), probes, r, sink);
    });
    char name[40];
    std::snprintf(name, sizeof name, "random %d-byte reads", B);
    report(name, ms, B);
  };
  readsOf(std::integral_constant<int, 8>{});
  readsOf(std::integral_constant<int, 32>{});
  readsOf(std::integral_constant<int, 64>{});
  readsOf(std::integral_constant<int, 128>{});
  report("random 8-byte atomicExch", median([&](int r) {
           exchanges<<<(probes + 255) / 256, 256>>>(table, slots, probes, r);
         }), 8);
  cudaMemset(table, 0xff, slots * 8);
  report("random 8-byte atomicCAS", median([&](int r) {
           swaps<<<(probes + 255) / 256, 256>>>(table, slots, probes, r);
         }), 8);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
