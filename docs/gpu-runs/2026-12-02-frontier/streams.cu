// What a copy reaches when it reads k arrays and writes k others at once, as the LBM's
// stream-collide step does (D3Q19: 19 populations in, 19 out), against a copy of one array into
// one: issue 34's question whether the DRAM serves 38 streams as fast as 2. Each thread copies
// element i of every array (a float or a half pair's 4 bytes, or a 2-byte half alone), its loads
// issued together before its stores, as the LBM kernels do. Arrays of `cells` elements (256^3 by
// default; the half pairs' arrays hold as many bytes as the halves'). Prints GB/s (bytes read + written, median of 9) for k = 1, 2, 3, 9, 19, 27 and the
// driver's device-to-device copy of the same bytes; then k = 19 in other block sizes and with two
// and four cells a thread.
// nvcc -O3 -arch=sm_90 -std=c++17 streams.cu -o streams && ./streams
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e = (x);                                                      \
    if (e != cudaSuccess) {                                                   \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));                     \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

// C cells a thread (a block's C x blockDim.x cells, each thread's blockDim.x apart): all loads
// before any store.
template <typename T, int K, int C>
__global__ void copyStreams(const T* __restrict__ in, T* __restrict__ out, std::size_t cells) {
  const std::size_t i0 = std::size_t(blockIdx.x) * blockDim.x * C + threadIdx.x;
  T v[C][K];
#pragma unroll
  for (int c = 0; c < C; ++c)
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::size_t i = i0 + std::size_t(c) * blockDim.x;
      if (i < cells) v[c][k] = in[k * cells + i];
    }
#pragma unroll
  for (int c = 0; c < C; ++c)
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::size_t i = i0 + std::size_t(c) * blockDim.x;
      if (i < cells) out[k * cells + i] = v[c][k];
    }
}

template <typename T, int K, int C = 1>
double measure(const T* in, T* out, std::size_t cells, unsigned block = 128) {
  const unsigned blocks = unsigned((cells + block * C - 1) / (block * C));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int r = 0; r < 10; ++r) {
    CHECK(cudaEventRecord(a));
    copyStreams<T, K, C><<<blocks, block>>>(in, out, cells);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    if (r) ms.push_back(t);  // the first warms up
  }
  std::sort(ms.begin(), ms.end());
  return 2.0 * K * cells * sizeof(T) / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

double memcpyBandwidth(const void* in, void* out, std::size_t bytes) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int r = 0; r < 10; ++r) {
    CHECK(cudaEventRecord(a));
    CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    if (r) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return 2.0 * bytes / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

template <typename T>
void row(const char* name, std::size_t cells) {
  constexpr int kMost = 27;
  T *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, kMost * cells * sizeof(T)));
  CHECK(cudaMalloc(&out, kMost * cells * sizeof(T)));
  CHECK(cudaMemset(in, 1, kMost * cells * sizeof(T)));
  std::printf("%-6s %zu cells, %zu-byte elements: k=1 %.0f  k=2 %.0f  k=3 %.0f  k=9 %.0f  k=19 %.0f"
              "  k=27 %.0f GB/s;  cudaMemcpy of 19 arrays' bytes %.0f GB/s\n",
              name, cells, sizeof(T), measure<T, 1>(in, out, cells), measure<T, 2>(in, out, cells),
              measure<T, 3>(in, out, cells), measure<T, 9>(in, out, cells),
              measure<T, 19>(in, out, cells), measure<T, 27>(in, out, cells),
              memcpyBandwidth(in, out, 19 * cells * sizeof(T)));
  std::printf("       k=19 in blocks of 64 %.0f, 256 %.0f, 512 %.0f; two cells a thread (128) %.0f,"
              " four %.0f GB/s\n",
              measure<T, 19>(in, out, cells, 64), measure<T, 19>(in, out, cells, 256),
              measure<T, 19>(in, out, cells, 512), measure<T, 19, 2>(in, out, cells),
              measure<T, 19, 4>(in, out, cells));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

int main(int argc, char** argv) {
  const std::size_t cells = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 256ull * 256 * 256;
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s\n", p.name);
  row<float>("float", cells);
  row<__half2>("half2", cells / 2);  // the FP16 pair kernel's: two cells a thread
  row<__half>("half", cells);
  return 0;
}
