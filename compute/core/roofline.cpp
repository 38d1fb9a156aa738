#include "compute/core/roofline.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <type_traits>
#include <vector>

#include "compute/core/bandwidth.h"

namespace ws {

const char* toString(OpKind kind) {
  switch (kind) {
    case OpKind::Fp32:
      return "FP32 flop";
    case OpKind::Fp64:
      return "FP64 flop";
    case OpKind::Int32:
      return "int32 op";
  }
  return "?";
}

double Ceilings::bound(OpKind kind, double intensity) const {
  return std::min(bytesPerSecond * intensity, peak(kind));
}

namespace {

template <typename F>
double bestSeconds(int runs, F&& work) {
  double best = 1e30;
  for (int run = 0; run < runs; ++run) {
    const auto start = std::chrono::steady_clock::now();
    work();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// Every thread copies its share of two arrays of n floats (read plus write, as on the GPU), the
// whole `repeats` times: large ones measure memory, ones that fit in a cache that cache.
double hostCopyBandwidth(std::size_t n, int repeats = 1) {
  std::vector<float> from(n, 1.0f), to(n, 0.0f);
  const double seconds = bestSeconds(5, [&] {
#pragma omp parallel
    {
      const std::size_t threads = omp_get_num_threads(), t = omp_get_thread_num();
      const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
      for (int r = 0; r < repeats; ++r)
        std::memcpy(to.data() + begin, from.data() + begin, (end - begin) * sizeof(float));
    }
  });
  return 2.0 * double(n) * sizeof(float) * repeats / seconds;
}

constexpr std::size_t kLargeCopy = std::size_t(1) << 25;  // 128 MiB of floats each way

// Independent chains, vectorised by the compiler as the modules' loops are (same flags):
// a multiply and an add per step (FP32, FP64), or an xor and an add (int32).
template <typename T>
double hostPeak() {
  constexpr int kChains = 32, kSteps = 1 << 16;
  const int threads = omp_get_max_threads();
  std::vector<T> sink(threads);
  const double seconds = bestSeconds(3, [&] {
#pragma omp parallel
    {
      T acc[kChains];
      for (int k = 0; k < kChains; ++k) acc[k] = T(k + omp_get_thread_num());
      const T a = T(sink.size() > 1 ? 3 : 5), b = T(7);
      for (int s = 0; s < kSteps; ++s)
        for (int k = 0; k < kChains; ++k) {
          if constexpr (std::is_floating_point_v<T>)
            acc[k] = acc[k] * T(0.999f) + b;
          else
            acc[k] = (acc[k] ^ a) + b;
        }
      T sum = 0;
      for (int k = 0; k < kChains; ++k) sum += acc[k];
      sink[omp_get_thread_num()] = sum;
    }
  });
  volatile T keep = sink[0];
  (void)keep;
  return 2.0 * kChains * kSteps * threads / seconds;
}

Ceilings measureCpu() {
  Ceilings c;
  c.bytesPerSecond = hostCopyBandwidth(kLargeCopy);
  c.fp32PerSecond = hostPeak<float>();
  c.fp64PerSecond = hostPeak<double>();
  c.int32PerSecond = hostPeak<std::uint32_t>();
  c.where = "this CPU (" + std::to_string(omp_get_max_threads()) + " threads)";
  return c;
}

}  // namespace

const Ceilings& measuredCeilings(Backend backend) {
  static std::optional<Ceilings> cpu, gpu;
  std::optional<Ceilings>& slot = backend == Backend::Cuda ? gpu : cpu;
  if (!slot) {
    if (backend == Backend::Cuda) {
      Ceilings c;
      c.bytesPerSecond = measuredBandwidth();
      c.fp32PerSecond = measureGpuPeak(OpKind::Fp32);
      c.fp64PerSecond = measureGpuPeak(OpKind::Fp64);
      c.int32PerSecond = measureGpuPeak(OpKind::Int32);
      c.where = gpuInfo().name;
      slot = c;
    } else {
      slot = measureCpu();
    }
  }
  return *slot;
}

double bandwidthFor(Backend backend, double bytes) {
  const double memory = measuredCeilings(backend).bytesPerSecond;
  if (backend == Backend::Cuda || bytes <= 0) return memory;
  // The bytes a step moves are read and written: arrays of half of them, to the power of two
  // above (from 64 KiB), copied as often as fills a large copy's time.
  static std::map<int, double> measured;
  const int power = std::max(16, int(std::ceil(std::log2(bytes / 2))));
  if (double(std::size_t(1) << power) >= double(kLargeCopy * sizeof(float))) return memory;
  auto [at, fresh] = measured.try_emplace(power, 0.0);
  if (fresh) {
    const std::size_t n = (std::size_t(1) << power) / sizeof(float);
    at->second = hostCopyBandwidth(n, int(kLargeCopy / n));
  }
  return std::max(memory, at->second);
}

}  // namespace ws
